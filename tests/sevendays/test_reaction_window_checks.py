"""One check per reaction window, and the menus' shortcuts (issue 19): each answers exactly as
the full listing does.

The react check finds the chosen reactor's option alone (``reactions.reaction_for``) instead of
listing every reactor's shot; it must accept exactly the reactions the window lists (rule
sevendays.reaction.window: one unit of the other side reacts, its test by the activating unit's
type; sevendays.reaction.recce_spotting: while a recce unit sees the activator, a unit without
a shot may react with a normal move). The move menu measures the enemy's places once, and the
activation menu finds platoon leaders in one pass; both must offer what the rules' own checks
(``check_move``, ``platoon.can_lead``) allow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest

from umpire.agents import make_agent
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game
from umpire.core.ruleset import get_ruleset
from umpire.rulesets.sevendays import platoon
from umpire.rulesets.sevendays.kinds import ACT_KIND, known_plan, may_declare_move
from umpire.rulesets.sevendays.movement import (
    THEN_MOVE,
    check_move,
    move_candidates,
    move_options,
)
from umpire.rulesets.sevendays.reactions import reaction_for, reaction_options, reactors
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.shots import SHOT_WEAPONS, ShotPlan
from umpire.rulesets.sevendays.state import SHOT_KINDS, SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World

from ..conftest import MakeGame, unit

RULESET = get_ruleset("sevendays")


def _world(state: SevenDaysState) -> World:
    return cast(SevenDays, RULESET).world(state)


def _state(game: Game) -> SevenDaysState:
    state: SevenDaysState = game.state
    return state


def _same_as_listing(state: SevenDaysState) -> int:
    """Check reaction_for against reaction_options on fresh clones; the number of options."""
    world = _world(state)
    act = state.flow.activation
    assert act is not None
    moving = state.flow.reacting_to_move
    first = state.clone()
    first.world_memo = world
    listed = reaction_options(world, first, first.units[act.unit], moving)
    by_key = {(o.unit, o.point): o for o in listed}
    asked = set(by_key)
    for u in state.units.values():  # every unit's shot, listed or not
        asked.add((u.uid, None))
    asked.add(("nobody", None))
    for o in listed:  # a move to a point the listing does not offer
        if o.point is not None:
            asked.add((o.unit, (o.point[0] + 0.37, o.point[1])))
    for uid, point in sorted(asked, key=str):
        twin = state.clone()  # nothing remembered: the check works alone
        twin.world_memo = world
        found = reaction_for(world, twin, twin.units[act.unit], uid, point, moving)
        assert found == by_key.get((uid, point)), (uid, point)
    return len(listed)


def _play(scenario: str, agents: str, seed: int, visit: Callable[[Game], None]) -> None:
    from umpire import new_game

    game = new_game(f"sevendays/{scenario}", seed=seed)
    players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
    while game.to_act is not None and len(game.record.actions) < 400:
        visit(game)
        side = game.to_act
        legal = game.legal_actions()
        game.apply(players[side].choose(game.view(side), legal))


@pytest.mark.parametrize("agents", ["random", "scripted"])
def test_the_react_check_accepts_exactly_the_listed_reactions(agents: str) -> None:
    windows = {"n": 0, "options": 0}

    def visit(game: Game) -> None:
        state = _state(game)
        if state.flow.phase == "react":
            windows["n"] += 1
            windows["options"] += _same_as_listing(state)

    _play("meeting-engagement", agents, 3, visit)
    assert windows["n"] >= 5 and windows["options"] >= 5


# rules: sevendays.reaction.recce_spotting, sevendays.reaction.window
def test_a_reaction_move_is_checked_alone_as_listed(make_game: MakeGame) -> None:
    # the layout of test_reactions: a wood hides the Chieftain from the T-64B, a BRM-1
    # (recce) sees it from the flank, so the T-64B may react by moving
    wood = [{"id": "w", "kind": "woods", "rect": [30, 18, 42, 26]}]
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("x", "chieftain-mk9", 5, 5)],
        pact=[unit("t", "t64b", 36, 40), unit("s", "brm1", 60, 12)],
        terrain=wood,
    )
    game.apply(Action("activate", unit="nato-c"))
    game.apply(Action("move", unit="nato-c", point=(26.0, 10.0)))
    assert game.state.flow.phase == "react"
    assert _same_as_listing(_state(game)) >= 1
    listed = game.legal_actions()
    move = next(a for a in listed if a.unit == "pact-t")
    assert move.point is not None
    # the tank has no shot: a shot reaction by it is refused, naming the window's rule
    before = _state(game).to_dict()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action("react", unit="pact-t"))
    assert refused.value.rule == "sevendays.reaction.window"
    with pytest.raises(IllegalActionError):  # a point the menu does not offer
        game.apply(Action("react", unit="pact-t", point=(move.point[0] + 0.5, move.point[1])))
    assert _state(game).to_dict() == before
    game.apply(move)  # the listed move is accepted


def test_a_unit_of_the_activating_side_never_reacts(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 40, 10)],
        pact=[unit("t", "t64b", 36, 30)],
    )
    game.apply(Action("activate", unit="nato-c"))
    game.apply(Action("move", unit="nato-c", point=(36.0, 14.0)))
    assert game.state.flow.phase == "react"
    state = _state(game)
    world = _world(state)
    activator = state.units["nato-c"]
    assert [u.uid for u in reactors(state, activator)] == ["pact-t"]
    assert reaction_for(world, state, activator, "nato-d", None, True) is None
    assert reaction_for(world, state, activator, "pact-t", None, True) is not None


def _shots_in_full(world: World, state: SevenDaysState, unit: Unit, name: str) -> list[Action]:
    """The shot menu as the rules define it (sevendays.fire.*, sevendays.fire.declared_move):
    every enemy the unit's known plan can hit, then, when it may declare a move after the
    shot, every enemy its plan as a moving firer can hit (each target planned both ways)."""
    shoot = ACT_KIND[name]
    act = state.flow.activation
    if shoot.open(state) is None or act is None or act.fired:
        return []
    weapon = SHOT_WEAPONS[name]
    if weapon not in world.shot_kinds(unit):
        return []
    enemies = [t for t in state.units.values() if t.alive and t.side != unit.side]
    out = []
    for then_move in (False, True):
        if then_move and not may_declare_move(state, name):
            break
        for target in enemies:
            plan = known_plan(world, state, unit, target, weapon, then_move=then_move)
            if isinstance(plan, ShotPlan) and plan.possible:
                option = THEN_MOVE if then_move else None
                out.append(Action(name, unit=unit.uid, target=target.uid, option=option))
    return out


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_menus_offer_what_the_rules_checks_allow(seed: int) -> None:
    seen = {"moves": 0, "leaders": 0, "shots": 0}

    def visit(game: Game) -> None:
        state = _state(game)
        world = _world(state)
        act = state.flow.activation
        if act is not None and state.flow.phase == "act":
            mover = state.units[act.unit]
            for speed in ("normal", "rapid", "road"):
                offered = move_options(world, state, mover, speed)
                # the menu is the candidates that check_move (the rule's own check) allows
                expected = [
                    p
                    for p in move_candidates(world, state, mover, speed)
                    if check_move(world, state, mover, speed, p) is None
                ]
                assert offered == expected
                seen["moves"] += len(offered)
            for name in SHOT_KINDS:  # the menu of shots, standing and with a move declared
                shoot = ACT_KIND[name]
                listed = list(shoot.options(state, mover.side))
                assert listed == _shots_in_full(world, state, mover, name)
                seen["shots"] += len(listed)
        side = game.to_act
        if side is not None:
            leaders = platoon.leaders(world, state, side)
            expected_leaders = {
                u.uid for u in state.alive(side) if platoon.can_lead(world, state, u)
            }
            assert leaders == expected_leaders
            seen["leaders"] += len(leaders)

    _play("meeting-engagement", "random", seed, visit)
    assert seen["moves"] > 50 and seen["leaders"] > 5 and seen["shots"] > 5
