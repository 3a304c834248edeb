"""The geometry key is never stale.

Sight lines, shot plans and the unit index are cached by ``SevenDaysState.geometry``, the
number of the state's arrangement of units (every unit's fields but its command tokens and
morale markers, the smoke, the mortar marks). The number is remembered on the state and only
worked out again after ``touch()``; a rule that moved, turned, hid or removed a unit and forgot
to call ``touch()`` would let a later shot or sight check read the cache of the arrangement
before, and play by the wrong geometry.

Every time a rule, an agent's picture of the table or a view reads the key, this test checks
that the remembered number is the one of the state's *current* arrangement, in whole games of
every scenario (scripted and random players), through undo and branch as well.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import umpire
from umpire.agents import make_agent
from umpire.play import play_out
from umpire.rulesets.sevendays import state as st
from umpire.rulesets.sevendays.state import SevenDaysState

SCENARIOS = ("meeting-engagement", "breakthrough", "capture", "escalating-engagement")


class Reads:
    checked = 0
    stale: list[str] = []


class KeptNumbers(dict[tuple[object, ...], int]):
    """The table of arrangement numbers, never emptied while the test runs (so every number
    read can be compared with the one of the current arrangement)."""

    def clear(self) -> None:
        pass


def _current(state: SevenDaysState) -> tuple[object, ...]:
    return (
        tuple(map(st.unit_place, state.units.values())),
        tuple(state.smoke),
        tuple(state.mortar_marks),
    )


@pytest.fixture
def checked_geometry(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[Reads]]:
    original = SevenDaysState.geometry
    assert isinstance(original, property) and original.fget is not None
    read = original.fget
    Reads.checked, Reads.stale = 0, []

    def checking(self: SevenDaysState) -> int:
        key = read(self)
        number = st.arrangement_number(_current(self))  # a new number if never seen
        Reads.checked += 1
        if number != key and len(Reads.stale) < 5:
            Reads.stale.append(f"read {Reads.checked}: remembered {key}, current {number}")
        return key

    monkeypatch.setattr(st, "_ARRANGEMENTS", KeptNumbers(st._ARRANGEMENTS))
    monkeypatch.setattr(SevenDaysState, "geometry", property(checking))
    yield Reads


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("agents", ["scripted", "random"])
def test_whole_games_read_a_fresh_key(
    checked_geometry: type[Reads], scenario: str, agents: str
) -> None:
    for seed in (11, 12):
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
        play_out(game, players, max_actions=400)
    assert checked_geometry.stale == []
    assert checked_geometry.checked > 200  # the check ran


def test_undo_and_branch_read_a_fresh_key(checked_geometry: type[Reads]) -> None:
    rng = random.Random(5)
    game = umpire.new_game("sevendays/meeting-engagement", seed=5)
    players = {s: make_agent("scripted", "sevendays", s, 5) for s in ("nato", "pact")}
    play_out(game, players, max_actions=120)
    for _ in range(6):
        game.undo(rng.randint(1, 10))
        twin = game.branch()
        play_out(twin, players, max_actions=len(twin.record.actions) + 15)
        play_out(game, players, max_actions=len(game.record.actions) + 10)
    assert checked_geometry.stale == []
    assert checked_geometry.checked > 100
