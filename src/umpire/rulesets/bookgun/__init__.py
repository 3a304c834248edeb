"""The Book and The Gun (Dan Fraser): card-driven counter-insurgency skirmish."""

from umpire.rulesets.bookgun.ruleset import BookGun

RULESET = BookGun()

__all__ = ["RULESET", "BookGun"]
