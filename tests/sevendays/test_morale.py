"""Morale markers, removal, battlegroup morale checks, falling back, break points."""

from __future__ import annotations

from umpire.core.actions import Action
from umpire.rulesets.sevendays.morale import add_markers

from ..conftest import MakeGame, unit


def test_unit_is_removed_when_markers_reach_its_morale(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("m", "milan", 36, 10)], pact=[unit("t", "t64b", 36, 40)])
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    milan = game.state.units["nato-m"]  # morale 3
    add_markers(world, game.state, milan, 2, "sevendays.hit.foot_marker", "test")
    assert milan.alive and milan.markers == 2
    events = add_markers(world, game.state, milan, 1, "sevendays.hit.foot_marker", "test")
    assert not milan.alive and milan.status == "removed"
    assert events[-1]["rule"] == "sevendays.morale.removal"


def test_battlegroup_morale_check_rallies_units_within_12(make_game: MakeGame) -> None:
    game = make_game(
        nato=[
            unit("a", "chieftain-mk9", 30, 10),
            unit("b", "chieftain-mk9", 40, 10),
            unit("far", "chieftain-mk9", 60, 10),
        ],
        pact=[unit("t", "t64b", 36, 44)],
    )
    for uid in ("nato-a", "nato-b", "nato-far"):
        game.state.units[uid].markers = 3
    game.apply(Action("activate", unit="nato-a"))
    game.apply(Action("morale", unit="nato-a"))
    events = game.apply(Action("no_react")) if game.state.flow.phase == "react" else game.events
    rolls = [
        e
        for e in events
        if e.get("rule") == "sevendays.morale.battlegroup_check" and e["kind"] == "roll"
    ]
    assert {e["unit"] for e in rolls} == {"nato-a", "nato-b"}  # not the unit 30" away
    for e in rolls:
        expected = 3 - (2 if e["result"] == 6 else 1 if e["result"] >= 4 else 0)
        assert game.state.units[e["unit"]].markers == expected
    assert game.state.units["nato-far"].markers == 3


# rules: sevendays.morale.fall_back
def test_fall_back_moves_away_and_sheds_a_marker(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 20), unit("d", "chieftain-mk9", 10, 5)],
        pact=[unit("t", "t64b", 36, 40)],
    )
    tank = game.state.units["nato-c"]
    tank.markers = 2
    game.apply(Action("activate", unit="nato-c"))
    game.apply(Action("fall_back", unit="nato-c"))
    assert tank.y < 20 and abs(tank.x - 36) < 0.01  # straight away from the T-64B
    assert 20 - tank.y <= 15.01  # at most a rapid move
    assert tank.markers == 1


# rules: sevendays.victory.break_point
def test_break_point_ends_the_game(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 20, 10)],
        pact=[unit("t", "t64b", 36, 40), unit("u", "t64b", 20, 40)],
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    assert world.break_point(game.state, "pact") == 8  # half of 16 BP
    victim = game.state.units["pact-t"]
    add_markers(world, game.state, victim, 5, "sevendays.hit.no_penetration", "test")
    assert not victim.alive
    game.apply(Action("activate", unit="nato-c"))
    game.apply(Action("end", unit="nato-c"))
    assert game.is_over
    assert game.outcome is not None
    assert game.outcome.winner == "nato" and game.outcome.how == "break point reached"


# rules: sevendays.morale.battlegroup_check
def test_battlegroup_check_odds_by_hand(make_game: MakeGame) -> None:
    """House procedure (docs/rules/sevendays.md): a d6 per unit, 4+ removes one marker and a 6
    removes two, never more than the unit carries. By hand: 3 markers -> 0 on 1-3 (1/2), 1 on
    4-5 (1/3), 2 on 6 (1/6); 1 marker -> 0 (1/2), 1 (1/2)."""
    from fractions import Fraction

    from umpire.rulesets.sevendays.morale import battlegroup_roll

    game = make_game(nato=[unit("a", "chieftain-mk9", 30, 10)], pact=[unit("t", "t64b", 36, 44)])
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    three = battlegroup_roll(world, "A", 3, "nato-a").outcomes()
    assert three == {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
    one = battlegroup_roll(world, "A", 1, "nato-a").outcomes()
    assert one == {0: Fraction(1, 2), 1: Fraction(1, 2)}
