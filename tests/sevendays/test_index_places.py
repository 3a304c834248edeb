"""The unit index brought to a new arrangement from the places remembered when the arrangement
was numbered (issue 19) holds what an index built from the units themselves holds.

Rule sevendays.los.blockers (book p14-15: enemy vehicles and wrecks block a line of sight, a
vehicle of the firer's own side obscures it) and the rules that ask which units are near a
place read the unit index (``World.unit_index``) on large tables. When the arrangement of
units changes, ``World._live_for`` now takes the new arrangement's places from the numbering
(``state.places_of``) instead of reading every unit again. These tests play whole scripted
games of every scenario with the index forced on, and at every question the rules and the
players ask of it (the game's state and each side's picture of the table) compare the kept
index with one built afresh from the state's units, cell for cell and in table order, and the
remembered places with the units' own places.
"""

from __future__ import annotations

from typing import Any

import pytest

import umpire
from umpire.agents import make_agent
from umpire.geometry.spatial import GridIndex
from umpire.play import play_out
from umpire.rulesets.sevendays import world as world_module
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import scenario_ids
from umpire.rulesets.sevendays.state import SevenDaysState, places_of, unit_place
from umpire.rulesets.sevendays.world import World

_live_for = World._live_for


def _contents(index: GridIndex[Any]) -> list[tuple[int, float, float, Any]]:
    """Every entry of ``index``, in table order."""
    return sorted(
        (e for bucket in index._cells.values() for e in bucket), key=lambda e: (e[0], e[1], e[2])
    )


def _checked(self: World, state: SevenDaysState) -> Any:
    live = _live_for(self, state)
    places = tuple(map(unit_place, state.units.values()))
    assert tuple(live.places) == places
    assert live.uids == list(state.units)
    known = places_of(state.geometry)
    if known is not None and len(known) == len(places):
        assert known == places
    fresh = self._index_of(list(state.units.values()))
    assert _contents(live.index.alive) == _contents(fresh.alive)
    assert _contents(live.index.bodies) == _contents(fresh.bodies)
    _checked.asked += 1  # type: ignore[attr-defined]
    return live


@pytest.mark.parametrize("scenario", scenario_ids())
def test_the_kept_index_is_built_from_the_units(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(world_module, "INDEX_MIN_UNITS", 0)
    monkeypatch.setattr(World, "_live_for", _checked)
    _checked.asked = 0  # type: ignore[attr-defined]
    for seed in (11, 12):
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        ruleset = game.ruleset
        assert isinstance(ruleset, SevenDays)
        world = ruleset.world(game.state)
        world.index_min_units = 0
        players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
        try:
            play_out(game, players, max_actions=250)
        finally:
            world.index_min_units = world_module.INDEX_MIN_UNITS
    assert _checked.asked > 100  # type: ignore[attr-defined]  # the index was asked, often
