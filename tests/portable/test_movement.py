"""Movement procedures from the seed's 'Movement' rules, one test per mechanic."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.portable.helpers import act_as, kinds, make, move, sq, st, unit, waiting
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.geometry.squaregrid import parse_label
from umpire.rulesets.portable.movement import allowance, reachable


def _reach(game, uid):  # type: ignore[no-untyped-def]
    state = st(game)
    world = game.ruleset.world(state)
    return reachable(world, state, state.units[uid])


def test_infantry_moves_two_squares_orthogonally(tmp_path: Path) -> None:
    """portable.move.allowance, portable.grid.orthogonal"""
    game = make(tmp_path, [unit("i", "infantry", "E2")], [unit("r", "infantry", "E10")])
    reach = _reach(game, "blue-i")
    assert parse_label("E4") in reach and parse_label("F3") in reach
    assert parse_label("F4") not in reach  # a diagonal step costs two squares


def test_road_adds_a_square_when_the_whole_move_is_on_it(tmp_path: Path) -> None:
    """portable.terrain.road"""
    roads = ["E1", "E2", "E3", "E4", "E5", "E6"]
    game = make(tmp_path, [unit("t", "trucks", "E1")], [unit("r", "infantry", "A10")], roads=roads)
    reach = _reach(game, "blue-t")
    assert reach[parse_label("E6")].road and reach[parse_label("E6")].steps == 5
    assert parse_label("F5") not in reach


def test_stop_next_to_enemy_and_face_it(tmp_path: Path) -> None:
    """portable.move.enemy_adjacent_stop, portable.move.face_enemy"""
    game = make(tmp_path, [unit("lt", "light_tanks", "E1")], [unit("r", "infantry", "F4")])
    reach = _reach(game, "blue-lt")
    assert parse_label("E4") in reach and parse_label("E5") not in reach
    act_as(game, "blue-lt")
    game.apply(move("blue-lt", "E4"))
    assert st(game).units["blue-lt"].facing == "E"  # the only facing allowed: towards F4


def test_cannot_enter_enemy_square(tmp_path: Path) -> None:
    """portable.move.enemy_square"""
    game = make(tmp_path, [unit("i", "infantry", "E2")], [unit("r", "infantry", "E3")])
    act_as(game, "blue-i")
    with pytest.raises(IllegalActionError) as err:
        game.apply(move("blue-i", "E3"))
    assert err.value.rule == "portable.move.enemy_square"


def test_stacking_only_for_transport_spotters_commanders(tmp_path: Path) -> None:
    """portable.move.stacking, portable.move.stack_limit"""
    blue = [
        unit("a", "infantry", "D2"),
        unit("b", "infantry", "D4"),
        unit("hq", "commanders", "C4"),
        unit("sp", "spotters", "E4"),
    ]
    game = make(tmp_path, blue, [unit("r", "infantry", "J10")])
    assert parse_label("D4") not in _reach(game, "blue-a")
    assert parse_label("D4") in _reach(game, "blue-hq")
    tight = make(
        tmp_path, blue, [unit("r", "infantry", "J10")], options={"house_rules": {"max_stack": 1}}
    )
    act_as(tight, "blue-hq")
    with pytest.raises(IllegalActionError) as err:
        tight.apply(move("blue-hq", "D4"))
    assert err.value.rule == "portable.move.stack_limit"


def test_withdrawal_not_into_front_of_another_enemy(tmp_path: Path) -> None:
    """portable.move.withdrawal"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E5")],
        [unit("r1", "infantry", "E6"), unit("r2", "infantry", "C6")],
    )
    reach = _reach(game, "blue-i")
    assert parse_label("D5") in reach and parse_label("C5") not in reach


def test_fired_units_move_one_less_and_fired_guns_not_at_all(tmp_path: Path) -> None:
    """portable.move.fired_penalty, portable.move.artillery_fired"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2"), unit("g", "artillery", "A1", artillery="field")],
        [unit("r", "infantry", "E10")],
    )
    state = st(game)
    world = game.ruleset.world(state)
    state.units["blue-i"].fired = True
    assert allowance(world, state.units["blue-i"]) == 1
    state.units["blue-g"].fired = True
    assert _reach(game, "blue-g") == {}


def test_a_unit_moves_once_and_turning_in_place_is_its_move(tmp_path: Path) -> None:
    """portable.move.once, portable.move.turn_in_place, portable.grid.facing"""
    game = make(tmp_path, [unit("i", "infantry", "E2")], [unit("r", "infantry", "E10")])
    act_as(game, "blue-i")
    game.apply(move("blue-i", "E3"))
    assert waiting(game)[0] == "face"
    assert {a.option for a in game.legal_actions()} == {"N", "E", "S", "W"}
    game.apply(Action("face", unit="blue-i", option="W"))
    assert "move" not in kinds(game) and "turn" not in kinds(game)
    other = make(tmp_path, [unit("i", "infantry", "E2")], [unit("r", "infantry", "E10")])
    act_as(other, "blue-i")
    other.apply(Action("turn", unit="blue-i", option="E"))
    assert st(other).units["blue-i"].facing == "E" and "move" not in kinds(other)


def test_typed_move_out_of_reach_is_refused_with_rule(tmp_path: Path) -> None:
    """portable.move.allowance (one-line refusal naming the rule)"""
    game = make(tmp_path, [unit("i", "infantry", "E2")], [unit("r", "infantry", "E10")])
    act_as(game, "blue-i")
    before = game.to_dict()
    with pytest.raises(IllegalActionError) as err:
        game.apply(Action("move", unit="blue-i", point=sq("E7")))
    assert err.value.rule == "portable.move.allowance" and "\n" not in str(err.value)
    assert game.to_dict() == before
