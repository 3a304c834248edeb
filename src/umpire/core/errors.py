"""Exceptions a user can cause. Each message is one line naming the file, field or rule."""

from __future__ import annotations


class UmpireError(Exception):
    """Base class for every error Umpire reports to a user."""


class DataFileError(UmpireError):
    """A data file (ORBAT, scenario, record, house rules) is missing or malformed."""


class UnknownRulesetError(UmpireError):
    """No ruleset is registered under the given id."""


class UnknownScenarioError(UmpireError):
    """The ruleset has no scenario with the given id."""


class UnknownUnitError(UmpireError):
    """A scenario or action names a unit that does not exist."""


class IllegalActionError(UmpireError):
    """An action that the rules forbid in the current state; carries the rule id."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} [rule {rule}]" if rule else message)


class RecordMismatchError(UmpireError):
    """A game record does not fit the ruleset version or scenario it names."""
