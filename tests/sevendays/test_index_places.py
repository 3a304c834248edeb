"""The unit index kept up to date incrementally (``World._live_for``: a new arrangement of the
same units brought from the last by moving only the units whose place changed) holds what an
index built afresh from the units holds (issue 19).

Rule sevendays.los.blockers (book p14-15) and the rules that ask which units are near a place
(sevendays.close_combat, sevendays.move.proximity) read the unit index on large tables. These
tests play whole scripted games of every scenario with the index forced on, and at every
question the rules and the players ask of it (the game's state and each side's picture of the
table), and of the game's state after every action, compare the kept index with one built
afresh from the state's units, cell for cell and in table order.

(A first version of this change took a new arrangement's places from those remembered when
the arrangement was numbered; this test found them stale: an off-board unit's barred turn is
written without a new number. The index now reads the units.)
"""

from __future__ import annotations

from typing import Any

import pytest

import umpire
from umpire.agents import make_agent
from umpire.geometry.spatial import GridIndex
from umpire.rulesets.sevendays import world as world_module
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import scenario_ids
from umpire.rulesets.sevendays.state import SevenDaysState
from umpire.rulesets.sevendays.world import World

_live_for = World._live_for


def _contents(index: GridIndex[Any]) -> list[tuple[int, float, float, Any]]:
    """Every entry of ``index``, in table order."""
    return sorted(
        (e for bucket in index._cells.values() for e in bucket), key=lambda e: (e[0], e[1], e[2])
    )


def _checked(self: World, state: SevenDaysState) -> Any:
    live = _live_for(self, state)
    assert live.uids == list(state.units)
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
            while game.to_act is not None and len(game.record.actions) < 250:
                side = game.to_act
                game.apply(players[side].choose(game.view(side), game.legal_actions()))
                world.unit_index(game.state)  # and after every action, whatever was asked
        finally:
            world.index_min_units = world_module.INDEX_MIN_UNITS
    assert _checked.asked > 100  # type: ignore[attr-defined]  # the index was asked, often
