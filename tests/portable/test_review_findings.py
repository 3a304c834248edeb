"""Differences from the book found by the rules-fidelity review (branch portable-review).

Every test follows the rulebook's own procedure and cites the section (and letter) of the seed
text of the squared rules (``shared/seeds/003_portable-wargame-squared.txt``) or the rules
digest (``shared/rules/portable-wargame.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.portable.helpers import act_as, kinds, make, move, st, unit
from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.geometry.squaregrid import parse_label
from umpire.rulesets.portable.activation import activation_dice
from umpire.rulesets.portable.common import Refusal
from umpire.rulesets.portable.enums import Status
from umpire.rulesets.portable.fire import FirePlan, plan_fire
from umpire.rulesets.portable.movement import allowance, reachable
from umpire.rulesets.portable.world import World, world_of

FAR = [unit("far", "infantry", "J10")]


def _w(game: Game) -> World:
    return world_of(st(game))


def _face(game: Game, uid: str) -> None:
    if "face" in kinds(game):
        game.apply(Action("face", unit=uid, option="N"))


# -- 'Movement' d) with 'Woods' and 'Rivers' ----------------------------------------------------
@pytest.mark.parametrize(
    ("type_", "terrain"),
    [
        ("infantry", {"terrain": [{"kind": "woods", "squares": ["E2"]}]}),
        ("tanks", {"terrain": [{"kind": "river", "squares": ["E2"]}], "fords": ["E2"]}),
    ],
)
def test_the_one_square_out_of_a_wood_or_ford_leaves_a_shot(
    tmp_path: Path, type_: str, terrain: dict[str, object]
) -> None:
    """portable.move.fired_penalty ('Movement' d): a unit that is firing or has fired this
    turn moves one square less than its movement rate; portable.terrain.woods.slow ('Woods')
    and portable.terrain.ford ('Rivers'): a unit in a wood, or in a ford, moves at most one
    square. Infantry (2 squares) that has fired in a wood still has its one square to move out
    (2 - 1 = 1, within the limit of 1); so infantry that moves that one square out of the wood
    has not used more than a firing unit may, and may fire after it. The same for a tank
    (3 squares) that leaves a ford. The order of the two acts does not change what is allowed."""
    game = make(tmp_path, [unit("u", type_, "E2")], [unit("r", "infantry", "E6")] + FAR, **terrain)
    s, w = st(game), _w(game)
    u = s.units["blue-u"]
    u.fired = True  # fire first: the move that is left is one square, out of the wood or ford
    assert allowance(w, u) == 1
    assert parse_label("E3") in reachable(w, s, u)
    u.fired = False  # move first: the one square out leaves the shot
    act_as(game, "blue-u")
    game.apply(move("blue-u", "E3"))
    _face(game, "blue-u")
    assert not u.full_move
    assert "fire" in kinds(game)
    game.apply(Action("fire", unit="blue-u", target="red-r"))
    assert u.fired


# -- 'Dicing for initiative and Unit activation' d) ----------------------------------------------
def test_a_second_commander_counts_among_the_other_units(tmp_path: Path) -> None:
    """portable.activation.dice ('Dicing for initiative' d): one die for the side's Commander
    plus one for every five of the side's other units, rounded up. A second commander is one
    of those other units: a commander, a second commander and five infantry throw
    1 + ceil(6 / 5) = 3 dice (not 1 + ceil(5 / 5) = 2, as if the second one were not there);
    'Dicing' e): losing the first commander loses its die, and the other is then the side's
    commander."""
    infantry = [unit(f"i{n}", "infantry", f"{'ABCDE'[n]}1") for n in range(5)]
    game = make(
        tmp_path,
        [unit("hq", "commanders", "F1"), unit("hq2", "commanders", "G1"), *infantry],
        FAR,
    )
    s, w = st(game), _w(game)
    assert activation_dice(w, s, "blue") == 3
    s.units["blue-hq"].status = Status.DESTROYED
    assert activation_dice(w, s, "blue") == 2  # 1 + ceil(5 / 5)
    s.units["blue-hq2"].status = Status.DESTROYED
    assert activation_dice(w, s, "blue") == 1  # no commander: ceil(5 / 5)
    assert activation_dice(w, s, "red") == 1  # no commander, one unit: ceil(1 / 5)


# -- 'Firing (Non-Artillery Units)' j) -----------------------------------------------------------
def test_fire_reaches_only_one_square_into_fortifications(tmp_path: Path) -> None:
    """portable.fire.into_cover ('Firing' j): non-artillery units fire one square into woods,
    built-up areas and fortifications. A trench hides nothing (it does not block the line of
    sight), but infantry firing along a trench line reaches only its first square: the enemy
    in the second trench square, behind the first, may not be fired at; the enemy in the first
    may, and so may an enemy in the open beyond a single trench square."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "B5", facing="E"), unit("j", "infantry", "B2", facing="E")],
        [unit("deep", "infantry", "D5"), unit("beyond", "infantry", "D2")] + FAR,
        trenches=["C5", "D5", "E5", "C2"],
    )
    s, w = st(game), _w(game)
    deep = plan_fire(w, s, s.units["blue-i"], s.units["red-deep"])
    assert isinstance(deep, Refusal) and deep.rule == "portable.fire.into_cover"
    assert isinstance(plan_fire(w, s, s.units["blue-j"], s.units["red-beyond"]), FirePlan)
    s.units["red-deep"].x = 2  # now in C5, the trench's first square
    assert isinstance(plan_fire(w, s, s.units["blue-i"], s.units["red-deep"]), FirePlan)


def test_a_mortar_fires_only_one_square_into_a_built_up_area(tmp_path: Path) -> None:
    """portable.fire.into_cover ('Firing' j) with portable.fire.mortar_observers ('Firing' h),
    i)): a mortar fires over units at what a friendly unit next to it sees, but it is a
    non-artillery unit, so its fire too reaches only one square into a built-up area. The town
    is D7 and E7; the mortar in C6 fires through D7 to reach E7 (two squares in), which its
    neighbour in D6 sees across the corner: refused; the enemy in D7 (one square in) may be
    fired at."""
    game = make(
        tmp_path,
        [unit("m", "mortars", "C6", facing="E"), unit("o", "infantry", "D6", facing="E")],
        [unit("deep", "infantry", "E7"), unit("edge", "infantry", "D8")] + FAR,
        terrain=[{"kind": "town", "squares": ["D7", "E7"]}],
    )
    s, w = st(game), _w(game)
    mortar = s.units["blue-m"]
    deep = plan_fire(w, s, mortar, s.units["red-deep"])
    assert isinstance(deep, Refusal) and deep.rule == "portable.fire.into_cover"
    s.units["red-edge"].y = 6  # into D7, the town's first square on the mortar's line
    assert isinstance(plan_fire(w, s, mortar, s.units["red-edge"]), FirePlan)
