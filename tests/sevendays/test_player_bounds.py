"""The scripted player's cheap bound on a shot (issue 19) never changes what it chooses.

Before planning a shot in full (sight line, obscured test, infantry near the firer) the player
bounds its worth by every plan the two dear facts could still give
(:func:`~umpire.rulesets.sevendays.firing.situation_plans`): the book's modifiers for a
target in terrain or more than 50% obscured and for enemy infantry within 12" of the firer
(p15, sevendays.fire.modifier.cover / .infantry_close) are each +1 to the score needed or not.
These tests play scripted games and check, at every shot the player weighs, that

- the full plan, when possible, is one of those plans, and the easiest of them (clear sight,
  no infantry close) has the best odds of them all (so its value is an upper bound), and
- the pruned search picks exactly the shot an exhaustive search over every enemy and weapon
  picks, whenever that shot is worth taking.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import umpire
from umpire.agents import make_agent
from umpire.core.actions import Action
from umpire.play import play_out
from umpire.rulesets.sevendays import agent as agent_module
from umpire.rulesets.sevendays.agent import (
    REACTION_SHORTLIST,
    REACTION_WORTH,
    SHOT_WORTH,
    SevenDaysScripted,
)
from umpire.rulesets.sevendays.firing import (
    plan_shot,
    situation_key,
    situation_key_of,
    situation_plans,
    target_facts,
)
from umpire.rulesets.sevendays.odds import shot_odds
from umpire.rulesets.sevendays.reactions import nearest_first, reaction_option, reactors
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import scenario_ids
from umpire.rulesets.sevendays.shots import SHOT_VERBS, ShotPlan, hits_front
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World


def _exhaustive(
    player: SevenDaysScripted,
    world: World,
    state: SevenDaysState,
    unit: Unit,
    moved: bool,
    actions_left: int,
) -> tuple[float, Action | None]:
    """The best allowed shot by planning every enemy with every weapon (no bound)."""
    kinds = list(world.shot_kinds(unit))
    if "atgm" in kinds and (moved or actions_left < 2):
        kinds.remove("atgm")
    shots: list[tuple[float, int, Action]] = []
    for target in [t for t in state.units.values() if t.alive and t.side != unit.side]:
        for kind in kinds:
            plan = plan_shot(
                world,
                state,
                unit,
                target,
                kind,
                moved=moved,
                actions_left=actions_left,
                known_only=True,
            )
            if not isinstance(plan, ShotPlan) or not plan.possible:
                continue
            value, _ = player._shot_value(world, plan, unit, target)
            if value > 0.0:
                action = Action(SHOT_VERBS[kind], unit=unit.uid, target=target.uid)
                shots.append((value, len(shots), action))
    shots.sort(key=lambda s: (-s[0], s[1]))
    for value, _, action in shots:
        if player._allowed(action):
            return value, action
    return 0.0, None


@pytest.mark.parametrize("scenario", scenario_ids())
def test_pruned_best_shot_is_the_exhaustive_one(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pruned = SevenDaysScripted._best_shot
    checked: list[Any] = []

    def checking(
        self: SevenDaysScripted,
        world: World,
        state: SevenDaysState,
        unit: Unit,
        moved: bool,
        actions_left: int,
    ) -> tuple[float, Action | None, str]:
        got = pruned(self, world, state, unit, moved, actions_left)
        want = _exhaustive(self, world, state, unit, moved, actions_left)
        if want[0] >= SHOT_WORTH:
            assert (got[0], got[1]) == want
        else:
            assert got[1] is None or got[0] < SHOT_WORTH
        for target in state.units.values():
            if not target.alive or target.side == unit.side:
                continue
            for kind in world.shot_kinds(unit):
                plan = plan_shot(
                    world, state, unit, target, kind, moved=moved, actions_left=actions_left
                )
                plans = situation_plans(
                    world, unit, target, kind, moved=moved, actions_left=actions_left
                )
                if plans is not None and isinstance(plan, ShotPlan) and plan.possible:
                    assert plan in plans
                if not plans:
                    continue
                easiest = situation_plans(
                    world, unit, target, kind, moved=moved, actions_left=actions_left, easiest=True
                )
                assert easiest is not None and len(easiest) == 1
                best = shot_odds(world, easiest[0], unit, target)
                for other in plans:  # a higher score needed never raises the odds
                    odds = shot_odds(world, other, unit, target)
                    assert odds.out <= best.out and odds.markers <= best.markers
        checked.append(want)
        return got

    monkeypatch.setattr(agent_module.SevenDaysScripted, "_best_shot", checking)
    for seed in (11, 12):
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
        play_out(game, players)
    assert len(checked) > 20
    assert any(value >= SHOT_WORTH for value, _ in checked)  # shots were taken, not only refused


def _every_reactor(player: SevenDaysScripted, world: World, state: SevenDaysState) -> Action:
    """The reaction chosen by weighing every shortlisted reactor in full (no bound)."""
    act = state.flow.activation
    assert act is not None
    activator = state.units[act.unit]
    moving = state.flow.reacting_to_move
    best: tuple[float, Action | None] = (0.0, None)
    candidates = nearest_first(reactors(state, activator), activator)
    shortlist = [
        u
        for rank, u in enumerate(candidates)
        if rank < REACTION_SHORTLIST or world.profile(u).atgm is not None
    ]
    for reactor in shortlist:
        option = reaction_option(world, state, activator, reactor, moving)
        if option is None or option.plan is None:
            continue
        odds = shot_odds(world, option.plan, reactor, activator)
        p_react = min(1.0, (7 - option.need) / 6)
        value = p_react * (odds.out + 0.3 * odds.markers / (world.profile(activator).morale or 5))
        action = Action("react", unit=option.unit)
        if value > best[0] and player._allowed(action):
            best = (value, action)
    if best[1] is not None and best[0] >= REACTION_WORTH:
        return best[1]
    return Action("no_react")


@pytest.mark.parametrize("scenario", scenario_ids())
def test_pruned_reaction_is_the_exhaustive_one(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule sevendays.reaction.target (transcription p12): the reaction roll needs 3+ against
    a vehicle in the open and 4+ against infantry or support, one less for an ATGM reactor,
    more under cover or (house) per token and marker; a recce unit needs 3+. So a reactor's
    worth is at most 5/6 (4/6 against foot) of its best shot's bound, and the reactor chosen
    with the bound is the one that weighing every shortlisted reactor in full picks."""
    pruned = SevenDaysScripted._react
    checked: list[Action] = []

    def checking(self: SevenDaysScripted, world: World, state: SevenDaysState) -> Action:
        got = pruned(self, world, state)
        assert got == _every_reactor(self, world, state)
        checked.append(got)
        return got

    monkeypatch.setattr(agent_module.SevenDaysScripted, "_react", checking)
    for seed in (11, 12):
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
        play_out(game, players)
    assert len(checked) > 10
    assert any(a.kind == "react" for a in checked)


_coord = st.one_of(
    st.floats(min_value=-50.0, max_value=50.0, allow_nan=False),
    st.sampled_from([0.0, 1.0, -1.0, 10.0, -10.0]),
)


@cache
def _a_tank_and_its_enemy() -> tuple[World, Unit, Unit]:
    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    world = cast(SevenDays, game.ruleset).world(game.state)
    units = list(game.state.units.values())
    target = next(u for u in units if world.is_vehicle(u))
    firer = next(u for u in units if u.side != target.side)
    return world, target, firer


@settings(max_examples=500, deadline=None)
@given(
    _coord,
    _coord,
    st.one_of(st.floats(0.0, 360.0), st.sampled_from([0.0, 45.0, 90.0, 135.0, 180.0, 270.0])),
)
def test_front_by_dot_product_is_hits_front(dx: float, dy: float, facing: float) -> None:
    """Rule sevendays.hit.facing: the key's front test (a dot product, hits_front itself on the
    arc's edge) answers as hits_front does, on the axes and diagonals too."""
    world, target, firer = _a_tank_and_its_enemy()
    target = replace(target, x=30.0, y=20.0, facing=facing)
    firer = replace(firer, x=30.0 + dx, y=20.0 + dy)
    key = situation_key_of(world, target_facts(world, target), firer, "gun")
    assert key[2] == hits_front(target, firer.pos)
    assert key == situation_key(world, firer, target, "gun")
