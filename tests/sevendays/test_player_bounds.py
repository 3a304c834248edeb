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
from umpire.rulesets.sevendays.agent import SHOT_WORTH, SevenDaysScripted
from umpire.rulesets.sevendays.firing import (
    plan_shot,
    situation_key,
    situation_key_of,
    situation_plans,
    target_facts,
)
from umpire.rulesets.sevendays.odds import shot_odds
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
