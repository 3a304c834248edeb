"""Whether the search player can play a ruleset at all, asked before a game starts.

The search decides on determinisations of its side's view: a ruleset with hidden information
must re-sample it (``Ruleset.resample``). A plug-in that hides information but keeps the base
class's ``resample`` (which refuses) cannot be searched; saying so when the game is set up is
kinder than an "AI failed" on the first move.
"""

from __future__ import annotations

from typing import Any

from umpire.core.ruleset import RulesetBase


def why_not_searchable(ruleset: Any) -> str | None:
    """One line saying why the search player cannot play ``ruleset``, or None if it can."""
    if ruleset.meta.information == "perfect":
        return None
    own = getattr(type(ruleset), "resample", None)
    if own is None or own is RulesetBase.resample:
        return (
            f"the search player cannot play {ruleset.meta.id}: it hides information but "
            "cannot re-sample it (Ruleset.resample); choose scripted or random"
        )
    return None
