"""Rules corrected against the book's own wording (issue 15, the Portable Wargame list).

Every test cites the section and letter of the seed text (the squared rules,
``shared/seeds/003_portable-wargame-squared.txt``) it follows."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.portable.helpers import act_as, fix_dice, kinds, make, move, st, unit
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game
from umpire.geometry.squaregrid import parse_label
from umpire.rulesets.portable.artillery import ArtilleryPlan, plan_bombard
from umpire.rulesets.portable.close_combat import cannot_assault, combat_side
from umpire.rulesets.portable.common import Refusal, in_cover
from umpire.rulesets.portable.exhaustion import exhausted
from umpire.rulesets.portable.fire import FirePlan, cannot_fire, plan_fire
from umpire.rulesets.portable.movement import allowance, cannot_move, move_refusal, reachable
from umpire.rulesets.portable.ruleset import Portable
from umpire.rulesets.portable.turns import end_turn, start_turn
from umpire.rulesets.portable.victory import end_of_turn
from umpire.rulesets.portable.world import World

FAR = [unit("far", "infantry", "J10")]


def _w(game: Game) -> World:
    ruleset = game.ruleset
    assert isinstance(ruleset, Portable)
    return ruleset.world(st(game))


def _face(game: Game, uid: str) -> None:
    """Answer the facing question after a move, if the game asks it."""
    if "face" in kinds(game):
        game.apply(Action("face", unit=uid, option="N"))


def _rule(found: object) -> str:
    assert isinstance(found, Refusal), found
    return found.rule


# -- 'Movement' d) ---------------------------------------------------------------------------------
def test_a_full_move_leaves_no_shot(tmp_path: Path) -> None:
    """portable.move.fired_penalty ('Movement' d): a unit that is firing, or has fired, this
    turn moves one square less; so one that has used its whole move may not fire."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E1"), unit("j", "infantry", "G1")],
        [unit("r", "infantry", "E6"), unit("q", "infantry", "G5")] + FAR,
    )
    s = st(game)
    act_as(game, "blue-i")
    game.apply(move("blue-i", "E3"))  # two squares: the whole infantry move
    _face(game, "blue-i")
    assert "fire" not in kinds(game)
    with pytest.raises(IllegalActionError) as err:
        game.apply(Action("fire", unit="blue-i", target="red-r"))
    assert err.value.rule == "portable.move.fired_penalty"
    assert _rule(cannot_fire(_w(game), s, s.units["blue-i"])) == "portable.move.fired_penalty"
    act_as(game, "blue-j")
    game.apply(move("blue-j", "G2"))  # one square of two: a square to spare for the shot
    _face(game, "blue-j")
    assert "fire" in kinds(game)
    # fire first, then the move is one square shorter (the same rule, the other way round)
    s.units["blue-j"].moved = False
    s.units["blue-j"].fired = True
    assert allowance(_w(game), s.units["blue-j"]) == 1


def test_a_move_along_the_road_keeps_its_spare_square(tmp_path: Path) -> None:
    """portable.move.fired_penalty with portable.terrain.road ('Roads'): a whole move along a
    road is one square longer, so two road squares leave infantry a square to fire with."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E1")],
        [unit("r", "infantry", "E6")] + FAR,
        roads=["E1", "E2", "E3", "E4"],
    )
    act_as(game, "blue-i")
    game.apply(move("blue-i", "E3"))
    _face(game, "blue-i")
    assert "fire" in kinds(game)


def test_an_aircraft_that_flies_its_whole_move_cannot_fire(tmp_path: Path) -> None:
    """portable.air.movement ('Aircraft Movement' e): an aircraft that is firing this turn
    moves one square less, so after its full 12 squares a fighter may not fire."""
    game = make(
        tmp_path,
        [unit("f", "fighter", "A1"), unit("g", "fighter", "A2"), unit("i", "infantry", "B1")],
        [unit("r", "reconnaissance", "J8"), unit("q", "reconnaissance", "H9")] + FAR,
        optional={"air": True},
    )
    act_as(game, "blue-f")
    game.apply(move("blue-f", "J4"))  # 9 + 3 = 12 squares
    game.apply(Action("face", unit="blue-f", option="N"))
    assert "fire" not in kinds(game)
    act_as(game, "blue-g")
    game.apply(move("blue-g", "H5"))  # 7 + 3 = 10 squares of 12
    game.apply(Action("face", unit="blue-g", option="N"))
    assert "fire" in kinds(game)


# -- 'Trenches' ------------------------------------------------------------------------------------
def test_a_unit_that_stops_in_a_trench_is_in_it(tmp_path: Path) -> None:
    """portable.terrain.trench.crossing, portable.terrain.trench.fortification,
    portable.terrain.trench.no_fire ('Trenches'; 'Definitions': fortifications include
    trenches): a unit moves into a trench and stops; there it is in fortifications and may
    fire. Moving one square out of it the next turn is crossing: no fire, -1 in close combat.
    The crossing is over at the next turn."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2")],
        [unit("r", "infantry", "E6"), unit("q", "infantry", "D5")] + FAR,
        trenches=["E3", "F3"],
    )
    w, s = _w(game), st(game)
    i = s.units["blue-i"]
    assert parse_label("E4") not in reachable(w, s, i)  # the trench stops the move
    act_as(game, "blue-i")
    game.apply(move("blue-i", "E3"))
    _face(game, "blue-i")
    assert not i.crossing and in_cover(w, i)
    assert "fire" in kinds(game)  # in the trench it may fire (3 squares to E6)
    start_turn(s)
    assert allowance(w, i) == 1  # out of the trench one square
    act_as(game, "blue-i")
    game.apply(move("blue-i", "E4"))
    _face(game, "blue-i")
    assert i.crossing
    assert _rule(cannot_fire(w, s, i)) == "portable.terrain.trench.no_fire"
    side = combat_side(w, s, i, s.units["red-q"], True)
    assert "portable.terrain.trench.close_combat" in [m.rule for m in side.mods]
    start_turn(s)
    assert not i.crossing and cannot_fire(w, s, i) is None


def test_a_unit_that_fired_from_its_trench_does_not_cross_out_this_turn(tmp_path: Path) -> None:
    """portable.terrain.trench.no_fire ('Trenches': units crossing trenches may not fire), our
    reading: the turn a unit leaves its trench is a crossing turn, so one that has fired may
    not leave it this turn (moving along the trench is not crossing)."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E3")],
        [unit("r", "infantry", "E6")] + FAR,
        trenches=["E3", "F3"],
    )
    w, s = _w(game), st(game)
    act_as(game, "blue-i")
    fix_dice(game, [1])
    game.apply(Action("fire", unit="blue-i", target="red-r"))
    i = s.units["blue-i"]
    assert _rule(move_refusal(w, s, i, parse_label("E2"))) == "portable.terrain.trench.no_fire"
    assert set(reachable(w, s, i)) == {parse_label("F3")}


# -- 'Artillery Fire' i), j), l) -------------------------------------------------------------------
ART_TERRAIN = [{"kind": "woods", "squares": ["C5"]}, {"kind": "woods", "squares": ["H8"]}]


def test_a_target_in_cover_is_indirect_fire(tmp_path: Path) -> None:
    """portable.artillery.indirect, portable.artillery.direct_only,
    portable.artillery.modifier.observed ('Artillery Fire' f), i), j), l)): a target that cannot
    be seen or is in cover is under indirect fire, which only the guns marked * may fire; the
    +2 is for a direct line of sight to the target square, which cover denies."""
    game = make(
        tmp_path,
        [
            unit("at", "artillery", "C1", artillery="anti_tank"),
            unit("fg", "artillery", "E1", artillery="field"),
        ],
        [unit("w", "infantry", "C5"), unit("o", "infantry", "E5"), unit("t", "infantry", "D4")]
        + FAR,
        terrain=[{"kind": "woods", "squares": ["C5"]}],
        trenches=["D4"],
    )
    w, s = _w(game), st(game)
    at, fg = s.units["blue-at"], s.units["blue-fg"]
    # the anti-tank gun sees along the open file C2-C4, but its target is in a wood
    assert _rule(plan_bombard(w, s, at, s.units["red-w"])) == "portable.artillery.direct_only"
    plan = plan_bombard(w, s, fg, s.units["red-w"])
    assert isinstance(plan, ArtilleryPlan) and not plan.direct
    assert [m.rule for m in plan.mods] == ["portable.artillery.modifier.cover"]
    plan = plan_bombard(w, s, fg, s.units["red-o"])  # in the open, in sight
    assert isinstance(plan, ArtilleryPlan) and plan.direct
    assert [m.rule for m in plan.mods] == ["portable.artillery.modifier.observed"]
    # a trench is fortification, not cover: seen, it is direct fire, -1 and +2
    plan = plan_bombard(w, s, at, s.units["red-t"])
    assert isinstance(plan, ArtilleryPlan) and plan.direct
    assert sorted(m.rule for m in plan.mods) == [
        "portable.artillery.modifier.cover",
        "portable.artillery.modifier.observed",
    ]


def test_a_spotter_gives_the_bonus_only_with_direct_sight(tmp_path: Path) -> None:
    """portable.artillery.modifier.observed ('Artillery Fire' l)): the gun or a friendly spotter
    with a direct line of sight to the target square; a wood between the gun and the target
    makes the gun's fire indirect."""
    game = make(
        tmp_path,
        [
            unit("fg", "artillery", "E1", artillery="field"),
            unit("sp", "spotters", "E2"),
        ],
        [unit("o", "infantry", "E6"), unit("w", "infantry", "G6")] + FAR,
        terrain=[{"kind": "woods", "squares": ["E3", "G6"]}],
    )
    w, s = _w(game), st(game)
    plan = plan_bombard(w, s, s.units["blue-fg"], s.units["red-o"])
    assert isinstance(plan, ArtilleryPlan) and not plan.direct  # the wood at E3 hides it
    assert [m.rule for m in plan.mods] == []  # the spotter in E2 looks through the wood too
    s.units["blue-sp"].x = 4  # the spotter moves to E5, next to the target: it sees E6
    s.units["blue-sp"].y = 4
    plan = plan_bombard(w, s, s.units["blue-fg"], s.units["red-o"])
    assert isinstance(plan, ArtilleryPlan) and not plan.direct
    assert [m.rule for m in plan.mods] == ["portable.artillery.modifier.observed"]
    s.units["blue-sp"].x, s.units["blue-sp"].y = 6, 4  # G5: next to the wood G6, not into it
    plan = plan_bombard(w, s, s.units["blue-fg"], s.units["red-w"])
    assert isinstance(plan, ArtilleryPlan)
    assert "portable.artillery.modifier.observed" not in [m.rule for m in plan.mods]


# -- 'Firing' c), d) -------------------------------------------------------------------------------
def test_small_arms_hit_tanks_but_never_take_the_last_sp(tmp_path: Path) -> None:
    """portable.fire.destroy_tanks ('Firing' c), d)): infantry small arms and machine guns
    cannot destroy tank units; their hits are resolved like any other (the quality die, retreat
    or lose 1 SP) until the tank is down to its last SP, which they cannot take."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2"), unit("at", "infantry_at", "F2")],
        [unit("t", "tanks", "E4"), unit("u", "tanks", "F4")] + FAR,
    )
    s = st(game)
    act_as(game, "blue-i")
    fix_dice(game, [6, 1])  # a hit; the tank's quality die 1: it loses 1 SP
    game.apply(Action("fire", unit="blue-i", target="red-t"))
    assert s.units["red-t"].sp == 2
    s.units["red-t"].sp = 1
    s.units["blue-i"].fired = False
    act_as(game, "blue-i")
    fix_dice(game, [6, 1])
    events = game.apply(Action("fire", unit="blue-i", target="red-t"))
    assert s.units["red-t"].alive and s.units["red-t"].sp == 1
    assert [e["rule"] for e in events if e["kind"] == "no_effect"] == [
        "portable.fire.destroy_tanks"
    ]
    # a tank hit on its last SP that must retreat or lose 1 SP keeps it by standing
    s.units["blue-i"].fired = False
    act_as(game, "blue-i")
    fix_dice(game, [6, 6])
    game.apply(Action("fire", unit="blue-i", target="red-t"))
    assert {a.kind for a in game.legal_actions()} == {"retreat", "stand"}
    game.apply(Action("stand", unit="red-t"))
    assert s.units["red-t"].alive and s.units["red-t"].sp == 1
    # an anti-tank weapon takes the last SP
    s.units["red-u"].sp = 1
    act_as(game, "blue-at")
    fix_dice(game, [6, 1])
    game.apply(Action("fire", unit="blue-at", target="red-u"))
    assert not s.units["red-u"].alive


# -- 'Woods' ---------------------------------------------------------------------------------------
def test_the_one_square_woods_range_is_within_one_wood(tmp_path: Path) -> None:
    """portable.terrain.woods.range ('Woods': the range of all weapons fired within a wood is
    reduced to 1 square): fire from one wood across open ground into another keeps its full
    range; inside one wood every weapon, artillery included, reaches one square."""
    game = make(
        tmp_path,
        [
            unit("i", "infantry", "C2"),
            unit("k", "infantry", "H2"),
            unit("g", "artillery", "H3", artillery="field"),
        ],
        [unit("r", "infantry", "C5"), unit("q", "infantry", "H5"), unit("p", "infantry", "H6")]
        + FAR,
        terrain=[
            {"kind": "woods", "squares": ["C2", "C5"]},
            {"kind": "woods", "squares": ["H2", "H3", "H4", "H5", "H6"]},
        ],
    )
    w, s = _w(game), st(game)
    plan = plan_fire(w, s, s.units["blue-i"], s.units["red-r"])  # two woods, 3 squares apart
    assert isinstance(plan, FirePlan)
    gun = s.units["blue-g"]
    assert _rule(plan_bombard(w, s, gun, s.units["red-q"])) == "portable.terrain.woods.range"
    s.units["red-q"].y = 3  # H4: one square from the gun, in the same wood
    assert isinstance(plan_bombard(w, s, gun, s.units["red-q"]), ArtilleryPlan)
    k = s.units["blue-k"]
    assert _rule(plan_fire(w, s, k, s.units["red-p"])) == "portable.terrain.woods.range"


# -- 'Exhaustion Point'; 'Turn Sequence' 5 ---------------------------------------------------------
def test_exhaustion_is_checked_at_step_five(tmp_path: Path) -> None:
    """portable.exhaustion.check ('Turn Sequence' 5: both sides check to see if they have
    reached their exhaustion point): SP lost in a turn make a side exhausted only at the end
    of that turn; from then on it takes no aggressive action."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2"), unit("j", "infantry", "F2")],
        [unit("r", "infantry", "E3"), unit("q", "infantry", "F9")],
    )
    w, s = _w(game), st(game)
    s.units["blue-i"].sp = 1  # 3 of 8 SP lost: the exhaustion point
    assert not exhausted(w, s, "blue")
    assert cannot_assault(w, s, s.units["blue-i"]) is None  # still this turn
    assert parse_label("F3") in reachable(w, s, s.units["blue-j"])
    events = end_of_turn(w, s)
    assert [e["rule"] for e in events if e["kind"] == "exhaustion"] == ["portable.exhaustion.check"]
    assert exhausted(w, s, "blue") and not exhausted(w, s, "red")
    assert _rule(cannot_assault(w, s, s.units["blue-i"])) == "portable.exhaustion.no_aggression"
    assert parse_label("F3") not in reachable(w, s, s.units["blue-j"])


# -- 'Movement' f), i) -----------------------------------------------------------------------------
def test_a_faced_unit_may_only_withdraw_away(tmp_path: Path) -> None:
    """portable.move.withdrawal ('Movement' i): a unit faced by an adjacent enemy unit may move
    only to withdraw away from it, and not to the front of another enemy unit."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E5")],
        [unit("r", "infantry", "E6")] + FAR,
    )
    w, s = _w(game), st(game)
    i = s.units["blue-i"]
    reach = reachable(w, s, i)
    assert parse_label("E4") in reach and parse_label("E3") in reach
    assert parse_label("D6") not in reach  # beside the enemy: not away from it
    assert _rule(move_refusal(w, s, i, parse_label("D6"))) == "portable.move.withdrawal"
    assert all(
        abs(x - 4) + abs(y - 5) > 1 for x, y in reach
    )  # every square it may end in is farther from E6


def test_a_unit_may_not_start_a_move_stacked_with_a_friend(tmp_path: Path) -> None:
    """portable.move.stacking ('Movement' f): apart from transport, spotters and commanders, a
    unit may not start (or end) its move in the same square as a friendly unit: infantry just
    off its truck waits until the truck has gone."""
    game = make(
        tmp_path,
        [
            unit("tr", "trucks", "E2", carrying="i"),
            unit("i", "infantry", "E2"),
            unit("hq", "commanders", "G2"),
            unit("j", "infantry", "G2"),
        ],
        FAR,
    )
    w, s = _w(game), st(game)
    act_as(game, "blue-i")
    game.apply(Action("unload", unit="blue-i"))
    start_turn(s)
    inf, truck = s.units["blue-i"], s.units["blue-tr"]
    assert inf.carried_by is None and inf.pos == truck.pos
    assert _rule(cannot_move(w, s, inf)) == "portable.move.stacking"
    assert cannot_move(w, s, truck) is None  # transport may start stacked
    assert cannot_move(w, s, s.units["blue-hq"]) is None  # so may a commander
    assert _rule(cannot_move(w, s, s.units["blue-j"])) == "portable.move.stacking"
    truck.y = 4
    assert cannot_move(w, s, inf) is None and reachable(w, s, inf)


# -- 'Barbed Wire' ---------------------------------------------------------------------------------
@pytest.mark.parametrize("type_", ["mortars", "armoured_cars", "tanks", "trucks", "commanders"])
def test_any_unit_may_lay_barbed_wire(tmp_path: Path, type_: str) -> None:
    """portable.terrain.wire.lay ('Barbed Wire'): "A Unit can lay barbed wire in a square by
    remaining in the square for 1 turn" -- any unit, not only foot units."""
    game = make(tmp_path, [unit("u", type_, "E2")], FAR)
    act_as(game, "blue-u")
    assert "lay_wire" in kinds(game)
    game.apply(Action("lay_wire", unit="blue-u", point=(4.0, 1.0)))
    end_turn(st(game))
    assert st(game).has_wire((4, 1))


def test_a_unit_stopped_by_wire_may_remove_it_next_turn(tmp_path: Path) -> None:
    """portable.terrain.wire.clear, portable.terrain.wire.stop ('Barbed Wire'): units other than
    tanks, assault guns and SP artillery "must stop and remove the barbed wire next turn or stop
    and not resume their movement until the next turn": a mortar or an armoured car stopped in
    wire may cut it."""
    game = make(
        tmp_path,
        [unit("m", "mortars", "E2"), unit("a", "armoured_cars", "G2")],
        FAR,
        wire=["E3", "G3"],
    )
    for uid, to in (("blue-m", "E3"), ("blue-a", "G3")):
        act_as(game, uid)
        assert parse_label(to) in reachable(_w(game), st(game), st(game).units[uid])
        game.apply(move(uid, to))
        _face(game, uid)
    start_turn(st(game))
    for uid, square in (("blue-m", (4, 2)), ("blue-a", (6, 2))):
        act_as(game, uid)
        assert "clear_wire" in kinds(game)
        game.apply(Action("clear_wire", unit=uid, point=(float(square[0]), float(square[1]))))
    end_turn(st(game))
    assert not st(game).has_wire((4, 2)) and not st(game).has_wire((6, 2))
