"""Shot plans made from remembered parts (issue 19) are the plans made from scratch.

``firing._plan_seen`` keeps the parts of a plan that depend only on a few small facts (the
profiles, the kind of shot, close range or not, the cover, the obscured and infantry-close
facts, the firer's movement and markers, the reaction flags) and reuses them for every shot
with the same facts. If a fact the rules read (book p15-16, sevendays.fire.*) were missing
from its key, a part made for one shot would be handed to another with a different fact; so
these tests plan every shot of many positions twice, with the memo carried over from all the
earlier positions and with an empty memo, and ask for the same plan.
"""

from __future__ import annotations

import itertools

import pytest

import umpire
from umpire.agents import make_agent
from umpire.core.ruleset import get_ruleset
from umpire.rulesets.sevendays import firing
from umpire.rulesets.sevendays.shots import ShotPlan, Situation


def _positions(scenario: str, seed: int, every: int = 15, limit: int = 240) -> list[object]:
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    players = {s: make_agent("random", "sevendays", s, seed) for s in ("nato", "pact")}
    states = []
    for n in range(limit):
        side = game.to_act
        if side is None:
            break
        if n % every == 0:
            states.append(game.state.clone())
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
    return states


@pytest.mark.parametrize("scenario,seed", [("meeting-engagement", 3), ("breakthrough", 8)])
def test_remembered_parts_give_the_plans_made_from_scratch(scenario: str, seed: int) -> None:
    ruleset = get_ruleset("sevendays")
    checked = plans = 0
    for state in _positions(scenario, seed):
        world = ruleset.world(state)  # type: ignore[attr-defined]
        units = [u for u in state.units.values() if u.alive]
        for firer, target in itertools.permutations(units, 2):
            kinds = world.shot_kinds(firer) or ("gun",)
            for kind, moved, reaction, moving, actions in itertools.product(
                kinds, (False, True), (False, True), (False, True), (1, 2)
            ):
                args = dict(
                    moved=moved, reaction=reaction, target_moving=moving, actions_left=actions
                )
                remembered = firing._plan_shot(world, state, firer, target, kind, **args)
                firing._PARTS.clear()
                fresh = firing._plan_shot(world, state, firer, target, kind, **args)
                assert remembered == fresh, (firer.uid, target.uid, kind, args)
                checked += 1
                plans += isinstance(fresh, ShotPlan)
    assert plans > 100 and checked > plans  # plans and refusals both met


# rules: sevendays.fire.modifier.cover, sevendays.fire.modifier.infantry_close,
# sevendays.fire.modifier.moved, sevendays.fire.modifier.reaction_moving,
# sevendays.fire.modifier.morale, sevendays.fire.dice
def test_each_fact_of_the_key_changes_the_plan_as_the_book_says() -> None:
    # book p15: +1 to the score needed for a target in terrain or >50% obscured, for enemy
    # infantry within 12" of the firer, for a vehicle that moves, for reaction fire at a
    # mover, and one per morale marker; infantry roll 2 dice within 12" (1 beyond, or moving)
    ruleset = get_ruleset("sevendays")
    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    world = ruleset.world(game.state)  # type: ignore[attr-defined]
    tank = world.profiles["ussr/t64b"]  # an MBT without thermal sights
    rifles = world.profiles["uk/infantry"]

    def need(situation: Situation, **flags: object) -> int:
        # planned with the memo the earlier shots left, then with an empty memo
        remembered = firing.plan_from_situation(tank, rifles, "gun", situation, **flags)  # type: ignore[arg-type]
        kept = dict(firing._PARTS)
        firing._PARTS.clear()
        plan = firing.plan_from_situation(tank, rifles, "gun", situation, **flags)  # type: ignore[arg-type]
        firing._PARTS.update(kept)  # the memo of every shot so far, for the next one
        assert isinstance(plan, ShotPlan)
        assert remembered == plan
        return plan.need

    base = need(Situation(20.0))
    assert need(Situation(20.0, target_cover="cover")) == base + 1
    assert need(Situation(20.0, obscured=True)) == base + 1
    assert need(Situation(20.0, enemy_foot_close=True)) == base + 1
    assert need(Situation(20.0), moved=True) == base + 1
    assert need(Situation(20.0), reaction=True, target_moving=True) == base + 1
    assert need(Situation(20.0), reaction=True) == base
    assert need(Situation(20.0), target_moving=True) == base  # a mover, but not a reaction
    assert need(Situation(20.0), firer_markers=2) == base + 2
    # thermal sights ignore the cover modifier (sevendays.fire.modifier.cover)
    thermal = world.profiles["uk/chieftain-mk9"]
    for situation in (Situation(20.0), Situation(20.0, target_cover="cover")):
        plan = firing.plan_from_situation(thermal, rifles, "gun", situation)
        assert isinstance(plan, ShotPlan) and plan.need == thermal.to_hit
    # a vehicle against infantry: two dice within 12", one beyond (sevendays.fire.dice)
    close = firing.plan_from_situation(tank, rifles, "gun", Situation(10.0))
    far = firing.plan_from_situation(tank, rifles, "gun", Situation(30.0))
    assert isinstance(close, ShotPlan) and isinstance(far, ShotPlan)
    assert (close.dice, far.dice) == (2, 1)
    assert (close.range, far.range) == (10.0, 30.0)
