"""Mortars: 8+, indirect through friends, 12" minimum, no firing from woods, ranging in,
cover, anti-vehicle value 0 and the halved damage die against vehicles; smoke screens."""

from __future__ import annotations

from fractions import Fraction

from umpire.core.actions import Action
from umpire.core.rng import RandomStream
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.los import sight
from umpire.rulesets.sevendays.odds import exact_odds
from umpire.rulesets.sevendays.shots import Refusal, ShotPlan

from ..conftest import MakeGame, unit

WOOD = {"id": "wood", "kind": "woods", "rect": [30, 22, 42, 28]}


def _w(game):  # type: ignore[no-untyped-def]
    return game.ruleset.world(game.state)


# rules: sevendays.mortar.fire
def test_mortar_fires_indirectly_at_what_a_friend_sees(make_game: MakeGame) -> None:
    # the wood hides the T-72 from the mortar; the Scorpion on the flank sees it
    game = make_game(
        nato=[unit("m", "mortar", 36, 10), unit("s", "scorpion", 60, 36)],
        pact=[unit("t", "t72a", 36, 40)],
        terrain=[WOOD],
    )
    world, state = _w(game), game.state
    mortar, target = state.units["nato-m"], state.units["pact-t"]
    assert not sight(world, state, mortar, target).visible
    plan = plan_shot(world, state, mortar, target, "gun")
    assert isinstance(plan, ShotPlan) and plan.need == 8 and plan.dice == 1
    state.units["nato-s"].status = "destroyed"  # no friend sees it now
    state.touch()
    refusal = plan_shot(world, state, mortar, target, "gun")
    assert isinstance(refusal, Refusal) and refusal.rule == "sevendays.los.blockers"


def test_mortar_minimum_range_and_no_firing_from_woods(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("m", "mortar", 36, 30), unit("w", "mortar", 36, 25)],
        pact=[unit("t", "t72a", 36, 40), unit("u", "t72a", 60, 44)],
        terrain=[WOOD],
    )
    world, state = _w(game), game.state
    near = plan_shot(world, state, state.units["nato-m"], state.units["pact-t"], "gun")
    assert isinstance(near, Refusal) and "12" in near.reason
    from_wood = plan_shot(world, state, state.units["nato-w"], state.units["pact-u"], "gun")
    assert isinstance(from_wood, Refusal) and "woods" in from_wood.reason


# rules: sevendays.mortar.ranging, sevendays.mortar.cover
def test_ranging_in_and_only_fortifications_count_as_cover(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("m", "mortar", 36, 10), unit("c", "chieftain-mk9", 20, 5)],
        pact=[
            unit("r", "motor-rifles", 35, 30),
            unit("d", "motor-rifles", 50, 36, dug_in=True),
        ],
        terrain=[{"id": "scrub", "kind": "rough", "rect": [32, 27, 38, 33]}],
    )
    world, state = _w(game), game.state
    mortar, rifles, dug = state.units["nato-m"], state.units["pact-r"], state.units["pact-d"]
    plan = plan_shot(world, state, mortar, rifles, "gun")
    assert isinstance(plan, ShotPlan) and plan.need == 8 and plan.cover == "open"  # rough ignored
    dug_plan = plan_shot(world, state, mortar, dug, "gun")
    assert isinstance(dug_plan, ShotPlan) and dug_plan.need == 9 and dug_plan.cover == "fortified"
    state.rng = RandomStream(1)
    resolve_shot(world, state, plan)  # the first round lands: the area is marked
    resolve_shot(world, state, plan)
    ranged = plan_shot(world, state, mortar, rifles, "gun")
    assert isinstance(ranged, ShotPlan) and ranged.need == 6
    assert "sevendays.mortar.ranging" in [m.rule for m in ranged.modifiers]
    far = plan_shot(world, state, mortar, dug, "gun")  # 15" away: another area
    assert isinstance(far, ShotPlan) and far.need == 9


# rules: sevendays.mortar.damage
def test_mortar_hits_on_a_tank_never_penetrate(make_game: MakeGame) -> None:
    """Issue 15 (p19): a mortar is anti-vehicle value 0 and goes through the penetration roll;
    d10 + 0 never beats a T-72A's 15, so each hit only shakes it (the house marker)."""
    game = make_game(nato=[unit("m", "fv432m", 36, 10)], pact=[unit("t", "t72a", 36, 40)])
    world, state = _w(game), game.state
    plan = plan_shot(world, state, state.units["nato-m"], state.units["pact-t"], "gun")
    assert isinstance(plan, ShotPlan)
    odds = exact_odds(plan, world.profile(state.units["pact-t"]), world.house)
    assert odds.p_destroyed == 0 and odds.p_hit == Fraction(3, 10)
    assert odds.markers == {0: Fraction(7, 10), 1: Fraction(3, 10)}
    for seed in range(200):
        trial = state.clone()
        trial.rng = RandomStream(seed)
        events = resolve_shot(world, trial, plan)
        assert trial.units["pact-t"].alive
        pens = [e for e in events if e.get("rule") == "sevendays.hit.penetration"]
        assert len(pens) == (1 if events[0]["success"] else 0)
        assert not any(e["success"] for e in pens)


# rules: sevendays.smoke, sevendays.los.smoke
def test_smoke_obscures_sight_until_the_turn_ends(make_game: MakeGame) -> None:
    """Book p15: smoke obscures (-1, thermal sights ignore it); it does not block sight."""
    game = make_game(
        nato=[
            unit("m", "mortar", 36, 10),
            unit("c", "chieftain-mk5", 40, 10),
            unit("x", "chieftain-mk9", 44, 10),
        ],
        pact=[unit("t", "t72a", 36, 40)],
    )
    world, state = _w(game), game.state
    game.apply(Action("activate", unit="nato-m"))
    smoke = Action("smoke", unit="nato-m", target="pact-t")
    assert smoke in game.legal_actions()
    events = game.apply(smoke)
    if state.flow.phase == "react":  # the enemy may react to the activation first
        events = game.apply(Action("no_react"))[1:]
    assert events[0]["rule"] == "sevendays.smoke"
    plain, thermal, tank = (state.units[k] for k in ("nato-c", "nato-x", "pact-t"))
    assert sight(world, state, plain, tank) == (True, True)  # the T-72 sits in the smoke
    assert sight(world, state, thermal, tank).visible  # a thermal sight ignores it
    while state.flow.turn == 1 and game.to_act is not None:
        game.apply(Action("pass") if state.flow.phase == "activate" else game.legal_actions()[-1])
    assert not state.smoke and sight(world, state, plain, tank) == (True, False)
