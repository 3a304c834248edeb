"""The tally of units by status (tally.py) answers as a scan of every unit in table order does.

The rules that read it: losses at the break point (sevendays.victory.break_point: units
destroyed, removed or exited), the units about to be removed that Against All Odds may save
(sevendays.cards.against_all_odds), a transport's passengers and their bailing out
(sevendays.transport.capacity, sevendays.transport.destroyed) and the units able to react
(sevendays.reaction.*: the other side's units on the table). Each must see exactly the units a
scan of ``state.units`` finds, in the same order, after every action of whole games.
"""

from __future__ import annotations

import pytest

import umpire
from umpire.agents import make_agent
from umpire.play import LazyActions
from umpire.rulesets.sevendays.state import SIDES, SevenDaysState, Status, Unit
from umpire.rulesets.sevendays.tally import carried_by, count, tally, with_status
from umpire.rulesets.sevendays.victory import LEFT


def _scan(state: SevenDaysState, status: str, side: str | None = None) -> list[Unit]:
    return [u for u in state.units.values() if u.status == status and side in (None, u.side)]


def _asked(state: SevenDaysState) -> None:
    """The module's questions, the first (answered by a scan) and the next (by the tally)."""
    for _ in range(2):
        assert count(state, LEFT) == sum(1 for u in state.units.values() if u.status in LEFT)
        for side in SIDES:
            assert with_status(state, "active", side) == _scan(state, "active", side)
        assert with_status(state, "embarked") == _scan(state, "embarked")
        for carrier in state.units:
            riders = [u for u in state.units.values() if u.carried_by == carrier]
            assert carried_by(state, carrier) == riders


def _agrees(state: SevenDaysState) -> None:
    found = tally(state)
    assert found.count(LEFT) == sum(1 for u in state.units.values() if u.status in LEFT)
    for status in Status:
        assert found.with_status(status) == _scan(state, status)
        for side in SIDES:
            assert found.with_status(status, side) == _scan(state, status, side)
    for carrier in [*state.units, "nobody"]:
        riders = [u for u in state.units.values() if u.carried_by == carrier]
        assert found.carried_by(carrier) == riders


@pytest.mark.parametrize(
    ("scenario", "seed", "cards"),
    [
        ("meeting-engagement", 3, True),
        ("breakthrough", 5, True),  # APCs with passengers aboard
        ("capture", 7, False),
    ],
)
def test_the_tally_equals_a_scan_after_every_action(scenario: str, seed: int, cards: bool) -> None:
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed, options={"cards": cards})
    players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
    state = game.state
    assert isinstance(state, SevenDaysState)
    _agrees(state)
    seen: set[str] = set()
    for _ in range(400):
        side = game.to_act
        if side is None:
            break
        game.apply(players[side].choose(game.view(side), LazyActions(game)))
        state = game.state
        assert isinstance(state, SevenDaysState)
        _agrees(state)
        seen |= {u.status for u in state.units.values()}
        twin = state.clone()  # a clone's tally is its own, of its own units
        _asked(twin)
        _agrees(twin)
        assert all(u in twin.units.values() for u in tally(twin).with_status("active"))
    assert "destroyed" in seen or "removed" in seen  # the games did lose units


def test_status_and_carrier_writes_and_new_units_are_seen() -> None:
    game = umpire.new_game("sevendays/breakthrough", seed=1, options={"cards": False})
    state = game.state
    assert isinstance(state, SevenDaysState)
    _agrees(state)
    units = list(state.units.values())
    units[0].status = Status.DESTROYED
    _agrees(state)
    units[1].status = Status.DOOMED
    units[2].carried_by = units[3].uid
    _agrees(state)
    units[0].x += 1.0  # a write that changes no status: the lists stay as they were
    _agrees(state)
    # a unit replaced under its uid, and a unit added (a Reserves card)
    old = units[4]
    state.units[old.uid] = Unit(old.uid, old.side, old.profile, old.name, 1.0, 1.0, 0.0)
    state.units[old.uid].status = old.status
    _agrees(state)
    state.units["extra"] = Unit("extra", old.side, old.profile, "Extra", 2.0, 2.0, 0.0)
    _agrees(state)
