"""The state's hand-written copies (kept quick: the units are copied at every observation)
give what the generic ones gave: ``dataclasses.asdict`` for a unit, and the observation as the
saved state without the dice (rules of play unchanged; issue 19 speed work)."""

from __future__ import annotations

from dataclasses import asdict, fields

import umpire
from umpire.agents.base import RandomAgent
from umpire.rulesets.portable.deployment import deploying
from umpire.rulesets.portable.deployment import flow_summary as deploy_summary
from umpire.rulesets.portable.enums import Side, Status
from umpire.rulesets.portable.state import Unit
from umpire.rulesets.portable.turns import flow_summary


def _busy_unit() -> Unit:
    return Unit(
        uid="blue-1",
        side=Side.BLUE,
        type="infantry",
        name="B-1",
        quality="average",
        sp=3,
        max_sp=4,
        x=2,
        y=5,
        facing="N",
        status=Status.ACTIVE,
        target_now=[3, 4],
        target_before=[1, 1],
        task={"kind": "wire", "square": [2, 6], "need": 2, "nested": {"a": [1, 2]}},
    )


def test_unit_to_dict_is_asdict_and_shares_nothing() -> None:
    unit = _busy_unit()
    data = unit.to_dict()
    assert data == asdict(unit)
    assert list(data) == [f.name for f in fields(Unit)]  # every field, in the same order
    assert data["target_now"] is not unit.target_now
    assert data["task"] is not unit.task
    assert data["task"]["nested"] is not (unit.task or {})["nested"]
    plain = Unit(**{**data, "target_now": None, "target_before": None, "task": None})
    assert plain.to_dict() == asdict(plain)


def _old_observation(state: object, player: str) -> dict[str, object]:
    """The observation as it was built before: the saved state, dice popped, flow summed up."""
    data = state.to_dict()  # type: ignore[attr-defined]
    data.pop("rng")
    data.pop("seed")
    data["flow"] = deploy_summary(state) if deploying(state) else flow_summary(state)  # type: ignore[arg-type]
    data["player"] = player
    return data


def test_observation_is_the_saved_state_without_the_dice() -> None:
    for scenario, options in (("crossroads", {}), ("trench-raid", {"deployment": "free"})):
        game = umpire.new_game(f"portable/{scenario}", seed=7, options=options)
        agents = {s: RandomAgent(i) for i, s in enumerate(("blue", "red"))}
        for _ in range(120):
            side = game.to_act
            if side is None:
                break
            obs = game.observation(side)
            old = _old_observation(game.state, side)
            assert obs == old and list(obs) == list(old)
            assert "rng" not in obs and "seed" not in obs
            game.apply(agents[side].choose(game.view(side), game.legal_actions()))


def test_remembered_reach_is_the_fresh_search_in_every_position() -> None:
    """portable.move.allowance / enemy_adjacent_stop: the squares remembered for a position are
    those a fresh search finds, in every position of random games, and a change to the board
    (an enemy moved next to the unit) is seen at once, not served from memory."""
    from umpire.rulesets.portable.movement import _reachable, reachable
    from umpire.rulesets.portable.world import world_of

    checked = 0
    for scenario, seed in (("crossroads", 3), ("armoured-meeting", 4), ("trench-raid", 5)):
        game = umpire.new_game(f"portable/{scenario}", seed=seed)
        agents = {s: RandomAgent(seed + i) for i, s in enumerate(("blue", "red"))}
        while game.to_act is not None and len(game.record.actions) < 200:
            state = game.state
            world = world_of(state)
            for unit in state.units.values():
                if unit.alive and not unit.air:
                    assert reachable(world, state, unit) == _reachable(world, state, unit)
                    checked += 1
            side = game.to_act
            game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    assert checked > 1000
    state = umpire.new_game("portable/crossroads", seed=1).state
    world = world_of(state)
    mover = next(u for u in state.units.values() if u.alive and not u.air and u.side == "blue")
    enemy = next(u for u in state.units.values() if u.alive and not u.air and u.side == "red")
    before = reachable(world, state, mover)
    enemy.x, enemy.y = mover.x + 1, mover.y
    after = reachable(world, state, mover)
    assert after == _reachable(world, state, mover)
    assert after != before


def test_remembered_artillery_answer_is_the_fresh_one() -> None:
    """portable.artillery.simultaneous: whether a side's guns may still declare, remembered by
    position, is what a fresh look finds, in every position of random games with artillery."""
    from umpire.rulesets.portable.turns import _may_declare, may_declare
    from umpire.rulesets.portable.world import world_of

    checked = 0
    for scenario, seed in (("armoured-meeting", 2), ("village-attack", 3)):
        game = umpire.new_game(f"portable/{scenario}", seed=seed)
        agents = {s: RandomAgent(seed + i) for i, s in enumerate(("blue", "red"))}
        while game.to_act is not None and len(game.record.actions) < 150:
            state = game.state
            for side in ("blue", "red"):
                fresh = _may_declare(world_of(state), state, side)
                assert may_declare(state, side) == fresh
                checked += fresh
            side = game.to_act
            game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    assert checked > 10  # some positions had guns with targets
