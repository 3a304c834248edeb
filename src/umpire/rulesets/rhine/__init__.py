"""7 Days to the Rhine, the operational hex-and-counter game (ruleset id ``rhine``)."""

from typing import Any

__all__ = ["RULESET", "Rhine"]


def __getattr__(name: str) -> Any:
    """``RULESET`` and ``Rhine``, imported on first use: a submodule (the odds of ``umpire odds``)
    loads without the whole ruleset (issue 19)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from umpire.rulesets.rhine.ruleset import Rhine

    if "RULESET" not in globals():
        globals().update(RULESET=Rhine(), Rhine=Rhine)
    return globals()[name]
