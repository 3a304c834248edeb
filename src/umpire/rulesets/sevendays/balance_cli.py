"""Duels for ``umpire balance sevendays`` (``DUELS``): find a unit in the ORBATs and write a
small scenario of ``a`` of one against ``b`` of another, played by the scripted AI."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from umpire.rulesets.sevendays.orbat import UnitProfile


class SevenDaysDuels:
    """Units priced by points from the ORBATs, on a duel table."""

    default_unit = "T-72A"
    default_against = "Chieftain Mk9"

    def unit(self, name: str, role: str) -> tuple[str, int]:
        """The unit's display name and points; a one-line error naming ``--role``."""
        _, profile = self._find(name, role)
        return profile.name, int(profile.points)

    def duel(
        self, unit: str, count: int, against: str, against_count: int, range_: float, folder: Path
    ) -> tuple[str, str]:
        """``(game id, side the unit fights for)`` of a duel written under ``folder``."""
        from umpire.rulesets.sevendays.duel import duel_scenario, write_duel

        a, b = self._find(unit, "unit"), self._find(against, "against")
        data, side = duel_scenario(a, count, b, against_count, range_)
        game_id = write_duel(folder / f"duel-{count}v{against_count}.yaml", data)
        return game_id, side

    @staticmethod
    def _find(name: str, role: str) -> tuple[str, UnitProfile]:
        from umpire.rulesets.sevendays.duel import find_unit

        return find_unit(name, role=role)


DUELS = SevenDaysDuels()
