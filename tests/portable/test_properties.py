"""Property tests: random legal play keeps the invariants; a JSON round-trip mid-game plays on
identically."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import umpire
from umpire.agents.base import RandomAgent
from umpire.rulesets.portable.state import PortableState
from umpire.rulesets.portable.units import STACK_EXEMPT

SCENARIOS = ["village-attack", "armoured-meeting", "trench-raid"]


def _check(game: umpire.Game) -> None:
    state = game.state
    assert isinstance(state, PortableState)
    world = game.ruleset.world(state)  # type: ignore[attr-defined]
    squares: dict[tuple[int, int], list[str]] = {}
    air: set[tuple[int, int]] = set()
    for u in state.units.values():
        assert u.sp >= 0, f"{u.uid} has negative SP"
        assert (u.sp > 0) == u.alive or u.status in ("waiting", "gone")
        if not u.alive:
            continue
        assert world.grid.inside(u.pos)
        if u.air:
            assert u.pos not in air, "two aircraft in one square"
            air.add(u.pos)
            continue
        assert world.passable(u.pos)
        if u.carried_by is not None:
            carrier = state.units[u.carried_by]
            assert carrier.alive and carrier.pos == u.pos
            continue
        squares.setdefault(u.pos, []).append(u.uid)
    for sq, uids in squares.items():
        units = [state.units[i] for i in uids]
        assert len({u.side for u in units}) == 1, f"enemies share {sq}"
        assert len(units) <= world.house.max_stack
        fighting = [
            u
            for u in units
            if world.types.ground[u.type].kind not in STACK_EXEMPT
            or any(c.carried_by == u.uid and c.alive for c in state.units.values())
        ]
        riders = sorted(world.types.ground[u.type].kind for u in fighting) == ["infantry", "tanks"]
        assert len(fighting) <= 1 or riders, f"stacking broken in {sq}: {uids}"


@settings(max_examples=9, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), agent_seed=st.integers(0, 10_000), which=st.integers(0, 2))
def test_random_play_keeps_invariants(seed: int, agent_seed: int, which: int) -> None:
    game = umpire.new_game(f"portable/{SCENARIOS[which]}", seed=seed)
    agent = RandomAgent(agent_seed)
    steps = 0
    while not game.is_over and steps < 3000:
        legal = game.legal_actions()
        assert legal, "a game that is not over offers an action"
        game.apply(agent.choose(game, legal))
        _check(game)
        steps += 1
    assert game.is_over and game.outcome is not None
    assert game.outcome.winner in ("blue", "red", "draw")


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(5, 120), which=st.integers(0, 2))
def test_json_round_trip_mid_game_plays_on_identically(seed: int, cut: int, which: int) -> None:
    game = umpire.new_game(f"portable/{SCENARIOS[which]}", seed=seed)
    agent = RandomAgent(seed)
    for _ in range(cut):
        if game.is_over:
            return
        game.apply(agent.choose(game, game.legal_actions()))
    ruleset = game.ruleset
    twin_state = ruleset.state_from_dict(ruleset.state_to_dict(game.state))
    assert ruleset.state_to_dict(twin_state) == game.to_dict()
    a, b = RandomAgent(7), RandomAgent(7)
    for _ in range(80):
        if game.is_over:
            break
        legal = game.legal_actions()
        assert ruleset.legal_actions(twin_state) == legal
        action = a.choose(game, legal)
        assert b.choose(game, legal) == action
        assert ruleset.apply(twin_state, action) == game.apply(action)
    assert ruleset.state_to_dict(twin_state) == game.to_dict()
