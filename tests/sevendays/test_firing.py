"""Firing (book p15-16): dice tables, the 12" rules, arcs, modifiers, one shot per activation."""

from __future__ import annotations

import pytest

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.shots import Refusal, ShotPlan

from ..conftest import MakeGame, unit


def _plan(
    game: Game, firer: str, target: str, kind: str = "gun", **kw: object
) -> ShotPlan | Refusal:
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    units = game.state.units
    return plan_shot(world, game.state, units[firer], units[target], kind, **kw)  # type: ignore[arg-type]


def _shot(game: Game, firer: str, target: str, kind: str = "gun", **kw: object) -> ShotPlan:
    plan = _plan(game, firer, target, kind, **kw)
    assert isinstance(plan, ShotPlan), plan
    return plan


@pytest.mark.parametrize(
    ("nato", "pact", "distance", "dice"),
    [
        # book p15, unit firing at a vehicle
        ("chieftain-mk9", "t64b", 10, 1),  # vehicle gun, up to 12"
        ("chieftain-mk9", "t64b", 30, 1),  # vehicle gun, 12" and above
        ("scimitar", "t64b", 30, 2),  # vehicle autocannon
        ("infantry", "t64b", 10, 1),  # stationary infantry, up to 12"
        # book p15, unit firing at infantry/support
        ("chieftain-mk9", "motor-rifles", 10, 2),  # vehicle gun, up to 12"
        ("chieftain-mk9", "motor-rifles", 30, 1),  # vehicle gun, beyond 12"
        ("scimitar", "motor-rifles", 30, 2),  # autocannon at any range
        ("infantry", "motor-rifles", 10, 2),  # stationary infantry, up to 12"
        ("infantry", "motor-rifles", 30, 1),  # stationary infantry, beyond 12"
    ],
)
# rules: sevendays.fire.dice
def test_dice_table_book_p15(
    make_game: MakeGame, nato: str, pact: str, distance: float, dice: int
) -> None:
    game = make_game(nato=[unit("f", nato, 36, 10)], pact=[unit("t", pact, 36, 10 + distance)])
    assert _shot(game, "nato-f", "pact-t").dice == dice


def test_moving_infantry_rolls_one_die_at_close_range(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("f", "infantry", 36, 10)], pact=[unit("t", "motor-rifles", 36, 20)])
    assert _shot(game, "nato-f", "pact-t", moved=True).dice == 1


def test_infantry_may_fire_at_vehicles_only_within_12(make_game: MakeGame) -> None:
    # book p15 'Ranges': LAW/RPG fire at vehicles up to 12" only
    game = make_game(nato=[unit("f", "infantry", 36, 10)], pact=[unit("t", "t64b", 36, 22.5)])
    refusal = _plan(game, "nato-f", "pact-t")
    assert isinstance(refusal, Refusal)
    assert refusal.rule == "sevendays.fire.infantry_at_range"
    close = make_game(nato=[unit("f", "infantry", 36, 10)], pact=[unit("t", "t64b", 36, 21.5)])
    assert isinstance(_plan(close, "nato-f", "pact-t"), ShotPlan)


def test_atgm_may_not_fire_at_12_or_less(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("m", "milan", 36, 10)], pact=[unit("t", "t64b", 36, 22)])
    refusal = _plan(game, "nato-m", "pact-t", "atgm")
    assert isinstance(refusal, Refusal) and refusal.rule == "sevendays.fire.atgm_min_range"
    far = make_game(nato=[unit("m", "milan", 36, 10)], pact=[unit("t", "t64b", 36, 30)])
    plan = _shot(far, "nato-m", "pact-t", "atgm")
    assert plan.dice == 1 and plan.base == 3 and plan.weapon.value == 11 and plan.weapon.heat


def test_atgm_needs_both_actions_and_no_move(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("m", "striker", 36, 10)], pact=[unit("t", "t64b", 36, 30)])
    moved = _plan(game, "nato-m", "pact-t", "atgm", moved=True)
    assert isinstance(moved, Refusal) and moved.rule == "sevendays.fire.atgm_actions"
    one_left = _plan(game, "nato-m", "pact-t", "atgm", actions_left=1)
    assert isinstance(one_left, Refusal) and one_left.rule == "sevendays.fire.atgm_actions"


def test_support_team_arc_is_90_degrees_front(make_game: MakeGame) -> None:
    # Milan faces north (90 degrees); a target due east is outside its arc.
    game = make_game(nato=[unit("m", "milan", 10, 10)], pact=[unit("t", "t64b", 40, 10)])
    refusal = _plan(game, "nato-m", "pact-t", "atgm")
    assert isinstance(refusal, Refusal) and refusal.rule == "sevendays.fire.arc"
    turret = make_game(nato=[unit("c", "chieftain-mk9", 10, 10)], pact=[unit("t", "t64b", 40, 10)])
    assert isinstance(_plan(turret, "nato-c", "pact-t"), ShotPlan)


def test_all_five_modifiers(make_game: MakeGame) -> None:
    # A Chieftain (base 4+) that moved, reacting to a moving T-64B that sits in woods,
    # with enemy infantry 8" away and two morale markers: 4 + 1 + 1 + 1 + 1 + 2 = 10+
    game = make_game(
        nato=[unit("c", "fox", 36, 10)],
        pact=[unit("t", "t64b", 36, 30), unit("i", "motor-rifles", 44, 10)],
        terrain=[{"id": "w", "kind": "woods", "rect": [34, 29, 38, 33]}],
    )
    game.state.units["nato-c"].markers = 2
    plan = _shot(game, "nato-c", "pact-t", moved=True, reaction=True, target_moving=True)
    rules = [m.rule for m in plan.modifiers]
    assert rules == [
        "sevendays.fire.modifier.moved",
        "sevendays.fire.modifier.reaction_moving",
        "sevendays.fire.modifier.cover",
        "sevendays.fire.modifier.infantry_close",
        "sevendays.fire.modifier.morale",
    ]
    assert plan.need == plan.base + 6


def test_thermal_sights_ignore_the_cover_modifier(make_game: MakeGame) -> None:
    woods = [{"id": "w", "kind": "woods", "rect": [34, 29, 38, 33]}]
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("s", "scorpion", 20, 10)],
        pact=[unit("t", "t64b", 36, 30)],
        terrain=woods,
    )
    thermal = _shot(game, "nato-c", "pact-t")  # Chieftain Mk9 has thermal sights
    assert not any(m.rule == "sevendays.fire.modifier.cover" for m in thermal.modifiers)
    plain = _shot(game, "nato-s", "pact-t")
    assert any(m.rule == "sevendays.fire.modifier.cover" for m in plain.modifiers)


def test_friendly_infantry_as_close_cancels_the_enemy_infantry_modifier(
    make_game: MakeGame,
) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("i", "infantry", 36, 4)],
        pact=[unit("t", "t64b", 36, 30), unit("r", "motor-rifles", 44, 10)],
    )
    plan = _shot(game, "nato-c", "pact-t")
    assert not any(m.rule == "sevendays.fire.modifier.infantry_close" for m in plan.modifiers)


def test_one_shot_per_activation(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)],
        pact=[unit("t", "t64b", 20, 40), unit("u", "t64b", 50, 40)],
    )
    game.apply(Action("activate", unit="nato-c"))
    game.apply(Action("fire", unit="nato-c", target="pact-t"))
    while game.to_act == "pact" and game.state.flow.phase == "react":
        game.apply(Action("no_react"))
    if game.state.flow.activation is None:
        pytest.skip("the Chieftain was knocked out by the reaction")
    before = game.to_dict()
    with pytest.raises(IllegalActionError, match="sevendays.fire.one_shot"):
        game.apply(Action("fire", unit="nato-c", target="pact-u"))
    assert game.to_dict() == before


def test_line_of_sight_blocked_by_woods_and_enemy_vehicle(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 10, 10)],
        pact=[unit("t", "t64b", 36, 40), unit("b", "t64b", 10, 25), unit("u", "t64b", 10, 40)],
        terrain=[{"id": "w", "kind": "woods", "rect": [30, 20, 42, 26]}],
    )
    woods = _plan(game, "nato-c", "pact-t")
    assert isinstance(woods, Refusal) and woods.rule == "sevendays.los.blockers"
    vehicle = _plan(game, "nato-d", "pact-u")  # the T-64B at (10, 25) is in the way
    assert isinstance(vehicle, Refusal) and vehicle.rule == "sevendays.los.blockers"


# rules: sevendays.fire.atgm_backblast
def test_an_atgm_team_firing_from_a_building_takes_a_marker(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("m", "milan", 36, 20), unit("c", "chieftain-mk9", 10, 5)],
        pact=[unit("t", "t72a", 36, 40), unit("u", "t64b", 66, 44)],
        terrain=[{"id": "house", "kind": "buildings", "rect": [34, 18, 38, 22]}],
    )
    world, state = game.ruleset.world(game.state), game.state  # type: ignore[attr-defined]
    plan = plan_shot(world, state, state.units["nato-m"], state.units["pact-t"], "atgm")
    assert isinstance(plan, ShotPlan)
    events = resolve_shot(world, state, plan)
    assert state.units["nato-m"].markers == 1
    assert any(e.get("rule") == "sevendays.fire.atgm_backblast" for e in events)


# rules: sevendays.fire.grenade_launcher
def test_grenade_launcher_penetrates_vehicles_with_two_and_converts_as_heavy() -> None:
    from umpire.rulesets.sevendays.firing import plan_from_situation
    from umpire.rulesets.sevendays.orbat import UnitProfile
    from umpire.rulesets.sevendays.shots import Situation

    gl = UnitProfile.model_validate(
        {
            "id": "ags",
            "name": "AGS-17",
            "type": "support",
            "to_hit": "5+",
            "morale": 3,
            "traits": ["grenade_launcher"],
            "points": 20,
            "bp": 3,
        }
    )
    tank = UnitProfile.model_validate(
        {
            "id": "t",
            "name": "BMP",
            "type": "light",
            "armour": ["10", "8"],
            "weapon": "4a",
            "to_hit": "4+",
            "morale": 4,
            "points": 20,
            "bp": 3,
        }
    )
    rifles = UnitProfile.model_validate(
        {
            "id": "r",
            "name": "Rifles",
            "type": "infantry",
            "weapon": "8i",
            "to_hit": "5+",
            "morale": 5,
            "points": 33,
            "bp": 4,
        }
    )
    at_vehicle = plan_from_situation(gl, tank, "gun", Situation(8.0))
    at_foot = plan_from_situation(gl, rifles, "gun", Situation(8.0))
    assert isinstance(at_vehicle, ShotPlan) and isinstance(at_foot, ShotPlan)
    assert at_vehicle.weapon.value == 2 and at_vehicle.base == 5
    assert at_foot.heavy  # 2d6 conversion per hit, as a heavy weapon
