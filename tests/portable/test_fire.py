"""Non-artillery fire (seed 'Firing (Non-Artillery Units)')."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.portable.helpers import act_as, fix_dice, make, st, unit
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.rulesets.portable.fire import FirePlan, hit_on, plan_fire
from umpire.rulesets.portable.state import PortableState


def _plan(game, firer, target):  # type: ignore[no-untyped-def]
    state: PortableState = st(game)
    return plan_fire(game.ruleset.world(state), state, state.units[firer], state.units[target])


def test_hit_on_five_or_six_with_modifiers(tmp_path: Path) -> None:
    """portable.fire.hit_score, portable.fire.modifier.not_moved, portable.fire.modifier.cover,
    portable.fire.modifier.commander"""
    assert hit_on(5, 0, 5) and not hit_on(4, 0, 5) and hit_on(4, 1, 5) and not hit_on(5, -1, 5)
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2"), unit("hq", "commanders", "D2")],
        [unit("r", "infantry", "E4")],
        terrain=[{"kind": "woods", "squares": ["E4"]}],
    )
    plan = _plan(game, "blue-i", "red-r")
    assert isinstance(plan, FirePlan)
    rules = sorted(m.rule for m in plan.mods)
    assert rules == [
        "portable.fire.modifier.commander",
        "portable.fire.modifier.cover",
        "portable.fire.modifier.not_moved",
    ]
    assert sum(m.value for m in plan.mods) == 1


def test_one_die_hits_every_enemy_in_the_square_and_fires_once(tmp_path: Path) -> None:
    """portable.fire.once, portable.transport.hits_on_carried"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2")],
        [unit("t", "trucks", "E4", carrying="c"), unit("c", "infantry", "E4")],
    )
    act_as(game, "blue-i")
    fix_dice(game, [6, 1, 1])  # hit; truck loses SP; the carried infantry loses SP
    events = game.apply(Action("fire", unit="blue-i", target="red-t"))
    assert [e["unit"] for e in events if e["kind"] == "sp_lost"] == ["red-t", "red-c"]
    assert not any(a.kind == "fire" for a in game.legal_actions())


def test_machine_guns_roll_three_dice(tmp_path: Path) -> None:
    """portable.fire.machine_gun_dice"""
    game = make(tmp_path, [unit("mg", "machine_guns", "E2")], [unit("r", "infantry", "E4")])
    act_as(game, "blue-mg")
    fix_dice(game, [1, 2, 3])
    events = game.apply(Action("fire", unit="blue-mg", target="red-r"))
    assert [e["rule"] for e in events if e["kind"] == "roll"] == [
        "portable.fire.machine_gun_dice"
    ] * 3


def test_small_arms_cannot_destroy_tanks(tmp_path: Path) -> None:
    """portable.fire.destroy_tanks"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2"), unit("at", "infantry_at", "F2")],
        [unit("t", "tanks", "E4"), unit("t2", "tanks", "F4")],
    )
    st(game).units["red-t"].sp = 1  # its last SP: small arms cannot take it
    act_as(game, "blue-i")
    fix_dice(game, [6, 1])
    events = game.apply(Action("fire", unit="blue-i", target="red-t"))
    assert any(e["kind"] == "no_effect" for e in events)
    assert st(game).units["red-t"].sp == 1
    act_as(game, "blue-at")
    fix_dice(game, [6, 1])
    game.apply(Action("fire", unit="blue-at", target="red-t2"))
    assert st(game).units["red-t2"].sp == 2


def test_range_arc_and_turrets(tmp_path: Path) -> None:
    """portable.fire.range, portable.fire.arc, portable.fire.turret"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2"), unit("t", "tanks", "H2")],
        [
            unit("far", "infantry", "E6"),
            unit("side", "infantry", "C2"),
            unit("behind", "infantry", "H1", facing="N"),
        ],
    )
    assert _plan(game, "blue-i", "red-far").rule == "portable.fire.range"  # type: ignore[union-attr]
    assert _plan(game, "blue-i", "red-side").rule == "portable.fire.arc"  # type: ignore[union-attr]
    assert isinstance(_plan(game, "blue-t", "red-behind"), FirePlan)  # tanks fire all round


def test_line_of_sight_blocked_by_woods_and_units_but_not_for_mortars(tmp_path: Path) -> None:
    """portable.fire.line_of_sight, portable.fire.mortar_observers, portable.grid.line_of_sight,
    portable.fire.into_cover"""
    game = make(
        tmp_path,
        [
            unit("i", "infantry", "E2"),
            unit("m", "mortars", "G2"),
            unit("f", "infantry", "G4"),
            unit("x", "infantry", "B2"),
        ],
        [unit("r", "infantry", "E5"), unit("w", "infantry", "G6"), unit("b", "infantry", "B5")],
        terrain=[{"kind": "woods", "squares": ["E3", "G5"]}, {"kind": "woods", "squares": ["B5"]}],
    )
    assert _plan(game, "blue-i", "red-r").rule == "portable.fire.line_of_sight"  # type: ignore[union-attr]
    # the mortar's own view is blocked by friends and woods, but its neighbour... is at G4
    plan = _plan(game, "blue-m", "red-w")
    assert not isinstance(plan, FirePlan) and plan.rule == "portable.fire.mortar_observers"
    # fire reaches one square into woods
    assert isinstance(_plan(game, "blue-x", "red-b"), FirePlan)


def test_fire_out_of_woods_only_from_the_edge(tmp_path: Path) -> None:
    """portable.fire.out_of_cover, portable.terrain.woods.range"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2"), unit("j", "infantry", "C2")],
        [unit("r", "infantry", "E5"), unit("s", "infantry", "C4")],
        terrain=[{"kind": "woods", "squares": ["E2", "E3", "C2", "C3", "C4"]}],
    )
    assert _plan(game, "blue-i", "red-r").rule == "portable.fire.out_of_cover"  # type: ignore[union-attr]
    # both in the same wood: one square only
    assert _plan(game, "blue-j", "red-s").rule == "portable.terrain.woods.range"  # type: ignore[union-attr]
    st(game).units["blue-j"].y = 2  # C3: the target in C4 is the next square
    assert isinstance(_plan(game, "blue-j", "red-s"), FirePlan)


def test_artillery_does_not_fire_when_activated(tmp_path: Path) -> None:
    """portable.fire.no_artillery, portable.fire.or_close_combat"""
    game = make(
        tmp_path,
        [unit("g", "artillery", "E2", artillery="field"), unit("i", "infantry", "B4")],
        [unit("r", "infantry", "E5"), unit("s", "infantry", "B5")],
    )
    assert _plan(game, "blue-g", "red-r").rule == "portable.fire.no_artillery"  # type: ignore[union-attr]
    st(game).units["blue-i"].fought = True
    assert _plan(game, "blue-i", "red-s").rule == "portable.fire.or_close_combat"  # type: ignore[union-attr]
    act_as(game, "blue-i")
    with pytest.raises(IllegalActionError):
        game.apply(Action("fire", unit="blue-i", target="red-s"))
