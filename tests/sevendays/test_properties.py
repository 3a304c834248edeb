"""Property tests: random legal play never breaks the game's invariants."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import umpire
from umpire.agents.base import RandomAgent
from umpire.rulesets.sevendays.state import SevenDaysState


def _check(state: SevenDaysState, table_w: float, table_h: float, acted: set[str]) -> None:
    for side, pool in state.flow.pools.items():
        assert pool >= 0, f"{side} pool negative"
    for u in state.units.values():
        assert u.markers >= 0 and u.tokens >= 0
        assert 0 <= u.x <= table_w and 0 <= u.y <= table_h, f"{u.uid} off table"
    if state.flow.activation is not None:
        assert state.units[state.flow.activation.unit].alive or state.flow.phase == "react"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), agent_seed=st.integers(0, 10_000))
def test_random_play_keeps_invariants(seed: int, agent_seed: int) -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=seed)
    agent = RandomAgent(agent_seed)
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    w, h = world.table.width, world.table.height
    dead: set[str] = set()
    steps = 0
    while not game.is_over and steps < 2000:
        state = game.state
        legal = game.legal_actions()
        assert legal, "a game that is not over must offer an action"
        for action in legal:
            # a destroyed or removed unit never acts or reacts
            if action.kind in ("activate", "react"):
                assert action.unit not in dead
        action = agent.choose(game.view(game.to_act), legal)
        game.apply(action)
        dead |= {u.uid for u in state.units.values() if u.status in ("destroyed", "removed")}
        _check(game.state, w, h, dead)
        steps += 1
    assert game.is_over, "a game must end (turn limit)"
    assert game.outcome is not None and game.outcome.winner in ("nato", "pact", "draw")


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_same_seed_same_record(seed: int) -> None:
    def run() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
        game = umpire.new_game("sevendays/meeting-engagement", seed=seed)
        agent = RandomAgent(seed)
        for _ in range(60):
            if game.is_over:
                break
            game.apply(agent.choose(game.view(game.to_act), game.legal_actions()))
        return [a.to_dict() for a in game.record.actions], game.events

    assert run() == run()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    scenario=st.sampled_from(["capture", "breakthrough", "escalating-engagement"]),
    seed=st.integers(0, 10_000),
    agent_seed=st.integers(0, 10_000),
)
def test_random_play_in_every_scenario_keeps_the_special_rules(
    scenario: str, seed: int, agent_seed: int
) -> None:
    """Cards, hidden markers, reserves and transports under random legal play."""
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    agent = RandomAgent(agent_seed)
    steps = 0
    while not game.is_over and steps < 3000:
        state = game.state
        legal = game.legal_actions()
        assert legal
        hidden = {u.uid for u in state.units.values() if u.hidden}
        for action in legal:
            assert action.target not in hidden or action.kind == "embark"
        game.apply(agent.choose(game.view(game.to_act), legal))
        state = game.state
        for u in state.units.values():
            if u.status == "embarked":
                carrier = state.units[u.carried_by or ""]
                # a doomed carrier (sevendays.cards.against_all_odds) keeps its passengers
                # until it is removed: it may yet be saved (transport.bail_out)
                assert (carrier.alive or carrier.status == "doomed") and carrier.pos == u.pos
            assert u.markers >= 0
        assert all(p >= 0 for p in state.flow.pools.values())
        if state.cards is not None:
            assert all(len(h) <= 5 for h in state.cards["hands"].values())
            total = len(state.cards["deck"]) + len(state.cards["discard"])
            total += sum(len(h) for h in state.cards["hands"].values()) + len(state.cards["chain"])
            total += sum(len(c) for c in state.cards["set_aside"].values())
            assert total == 17  # no card is lost or duplicated
        steps += 1
    assert game.is_over
