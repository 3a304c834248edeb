"""The Book and The Gun (Dan Fraser): card-driven counter-insurgency skirmish."""

from typing import Any

__all__ = ["RULESET", "BookGun"]


def __getattr__(name: str) -> Any:
    """``RULESET`` and ``BookGun``, imported on first use: a submodule (the odds of ``umpire odds``)
    loads without the whole ruleset (issue 19)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from umpire.rulesets.bookgun.ruleset import BookGun

    if "RULESET" not in globals():
        globals().update(RULESET=BookGun(), BookGun=BookGun)
    return globals()[name]
