"""7 Days to the Rhine, the operational hex-and-counter game (ruleset id ``rhine``)."""

from umpire.rulesets.rhine.ruleset import Rhine

RULESET = Rhine()

__all__ = ["RULESET", "Rhine"]
