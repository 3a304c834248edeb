"""The observation's unit records are read incrementally (visibility.observed_units reads again
only the units written to since its last reading, state.WriteLog): at every step of a game the
answer must be the one a reading from scratch gives, for both sides, hidden units included
(sevendays.scenario.hidden_deployment: the enemy reads a hidden unit as its marker only)."""

from __future__ import annotations

from typing import Any

import pytest

from umpire.agents.base import RandomAgent
from umpire.core.game import new_game
from umpire.rulesets.sevendays.state import WRITES, SevenDaysState, WriteLog
from umpire.rulesets.sevendays.visibility import observed_units


def _fresh(state: SevenDaysState, side: str) -> list[dict[str, Any]]:
    return observed_units(state.units, side, {})


@pytest.mark.parametrize("scenario", ["meeting-engagement", "capture"])
def test_incremental_records_match_a_reading_from_scratch(scenario: str) -> None:
    game = new_game(f"sevendays/{scenario}", seed=4)
    state = game.state
    assert isinstance(state, SevenDaysState)
    agents = {s: RandomAgent(i) for i, s in enumerate(("nato", "pact"))}
    hidden_seen = False
    for _ in range(250):
        side = game.to_act
        if side is None:
            break
        for s in ("nato", "pact"):
            got = observed_units(state.units, s, state.records())
            assert got == _fresh(state, s)
            hidden_seen |= any(r.get("hidden") and "uid" not in r for r in got)
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    if scenario == "capture":  # the scenario deploys hidden markers: the other path ran
        assert hidden_seen


def test_a_write_in_place_is_read_and_a_stale_reading_is_not_reused() -> None:
    game = new_game("sevendays/meeting-engagement", seed=1)
    state = game.state
    assert isinstance(state, SevenDaysState)
    memo = state.records()
    observed_units(state.units, "nato", memo)
    unit = next(iter(state.units.values()))
    unit.x += 1.5  # a rule moving a unit writes its field in place
    unit.markers = 2
    record = next(r for r in observed_units(state.units, "nato", memo) if r["uid"] == unit.uid)
    assert (record["x"], record["markers"]) == (unit.x, 2)
    # a new list of writes (the log was full): the reading is made again from every unit
    WRITES.clear()
    object.__setattr__(unit, "tokens", 3)  # a write the log cannot see...
    record = next(r for r in observed_units(state.units, "nato", memo) if r["uid"] == unit.uid)
    assert record["tokens"] == 3  # ...is read all the same: the reader's list is not the log's


def test_a_reading_of_other_units_is_not_reused() -> None:
    game = new_game("sevendays/meeting-engagement", seed=2)
    state = game.state
    assert isinstance(state, SevenDaysState)
    memo = state.records()
    observed_units(state.units, "pact", memo)
    twin = state.clone()  # the same uids and values, other Unit objects
    unit = next(iter(twin.units.values()))
    object.__setattr__(unit, "markers", 1)  # unlogged: only a reading of twin's units sees it
    got = observed_units(twin.units, "pact", memo)
    assert got == _fresh(twin, "pact")
    assert next(r for r in got if r["uid"] == unit.uid)["markers"] == 1


def test_a_clone_copies_every_field_and_shares_no_unit() -> None:
    game = new_game("sevendays/capture", seed=3)
    state = game.state
    assert isinstance(state, SevenDaysState)
    twin = state.clone()
    assert twin.units == state.units
    assert all(twin.units[k] is not u for k, u in state.units.items())
    first = next(iter(twin.units))
    twin.units[first].x += 1.0
    assert twin.units[first].x != state.units[first].x


def test_a_full_log_starts_a_new_list_and_leaves_the_old_one_whole() -> None:
    game = new_game("sevendays/meeting-engagement", seed=5)
    state = game.state
    assert isinstance(state, SevenDaysState)
    memo = state.records()
    old = WRITES.clear()  # an empty list to start from (whatever ran before)
    observed_units(state.units, "nato", memo)
    unit = next(iter(state.units.values()))
    unit.markers = 1  # noted in the reader's list...
    spare = state.clone().units[unit.uid]
    for n in range(WriteLog.KEPT):  # ...which then fills up: a new list takes its place
        spare.tokens = n % 3
    assert WRITES.units is not old
    # the old list is left whole (another thread's reader may hold it)
    assert len(old) == WriteLog.KEPT and any(u is unit for u in old)
    unit.markers = 2  # noted in the new list only
    record = next(r for r in observed_units(state.units, "nato", memo) if r["uid"] == unit.uid)
    assert record["markers"] == 2
    assert observed_units(state.units, "pact", memo) == _fresh(state, "pact")
