"""``umpire_tiny``: the smallest complete ruleset, kept under ``tests/`` to check that a rule
system plugged in from outside the ``umpire`` package works everywhere (CLI, server,
``simulate``, the conformance suite). It registers with one line in ``pyproject.toml``::

    [project.entry-points."umpire.rulesets"]
    tiny = "umpire_tiny:RULESET"

docs/writing-a-ruleset.md walks through it.
"""

from umpire_tiny.ruleset import Tiny

RULESET = Tiny()

__all__ = ["RULESET", "Tiny"]
