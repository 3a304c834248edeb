"""Assault targets found from the unit index (issue 19) are those a scan of every unit finds.

Rule sevendays.close_combat (house): an infantry or support unit may assault an enemy unit it
can reach in contact with a normal move. ``close_combat.assault_targets`` asks the unit index
only for the units on the table within the move's reach plus the widest contact gap, instead
of scanning every unit. These tests play whole scripted games of every scenario and, at every
question the rules and the player ask, compare the answer from the index (forced on whatever
the size of the table) with the answer of the scan (forced on), target for target and in
the same order.
"""

from __future__ import annotations

from typing import Any

import pytest

import umpire
from umpire.agents import make_agent
from umpire.play import play_out
from umpire.rulesets.sevendays import agent as agent_module
from umpire.rulesets.sevendays import close_combat
from umpire.rulesets.sevendays import kinds as kinds_module
from umpire.rulesets.sevendays.scenario import scenario_ids
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World

_plain = close_combat.assault_targets


def _both(world: World, state: SevenDaysState, attacker: Unit) -> tuple[list[Unit], list[Unit]]:
    """(from the index, from the scan)."""
    kept = world.index_min_units
    try:
        world.index_min_units = 0
        indexed = _plain(world, state, attacker)
        world.index_min_units = 10**9
        scanned = _plain(world, state, attacker)
    finally:
        world.index_min_units = kept
    return indexed, scanned


@pytest.mark.parametrize("scenario", scenario_ids())
def test_indexed_assault_targets_are_the_scanned_ones(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[Any] = []

    def checking(world: World, state: SevenDaysState, attacker: Unit) -> list[Unit]:
        indexed, scanned = _both(world, state, attacker)
        assert [u.uid for u in indexed] == [u.uid for u in scanned]
        assert all(a is b for a, b in zip(indexed, scanned, strict=True))
        # every enemy on the table is a target or out of reach of a normal move in contact
        asked.append(len(scanned))
        return _plain(world, state, attacker)

    monkeypatch.setattr(agent_module, "assault_targets", checking)
    monkeypatch.setattr(kinds_module, "assault_targets", checking)
    for seed in (31, 32, 33):
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
        play_out(game, players)
    assert asked  # the question was asked in play


def test_index_answer_on_a_crowded_table() -> None:
    """Every foot unit of the Meeting Engagement against every arrangement of its enemies
    moved next to it: index and scan agree, and the near ones are found."""
    game = umpire.new_game("sevendays/meeting-engagement", seed=5)
    ruleset = game.ruleset
    world = ruleset.world(game.state)  # type: ignore[attr-defined]
    state = game.state
    found_some = False
    for attacker in [u for u in state.units.values() if world.is_foot(u)]:
        enemies = [u for u in state.units.values() if u.side != attacker.side]
        for n, enemy in enumerate(enemies):  # a ring of enemies 3" to 20" away
            enemy.x = min(max(attacker.x + 3.0 + n * 1.5, 1.0), world.table.width - 1.0)
            enemy.y = attacker.y
        state.touch()
        indexed, scanned = _both(world, state, attacker)
        assert [u.uid for u in indexed] == [u.uid for u in scanned]
        found_some |= bool(scanned)
    assert found_some
