"""The companion's own refusals: one line each, nothing entered is lost."""

from __future__ import annotations

from umpire.core.errors import UmpireError


class Refused(UmpireError):
    """A one-line refusal of what was typed (an unknown unit, an off-table position...)."""


class QuitCompanion(Exception):
    """The players stopped (quit, end of input, Ctrl-C); the game is saved."""
