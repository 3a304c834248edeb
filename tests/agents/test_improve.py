"""The search's ``improve`` mode (rollout policy improvement over the scripted player, issue 17):
it keeps the scripted move unless paired samples show a better one, finds the win a poor
scripted player misses in a hand-made position, never returns an illegal action, stops on an
injected clock, is deterministic for a fixed seed and sample budget, and reads nothing of the
truth its side may not see.

No timed assertions (a fake clock); its strength is measured in ``bench/bench_search.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

import umpire
from umpire.agents.search import SearchAgent, Settings
from umpire.agents.search.improve import MIN_SAMPLES, improve
from umpire.agents.search.personality import personality
from umpire.core.actions import Action
from umpire.core.rng import RandomStream
from umpire.core.ruleset import Capabilities, get_ruleset
from umpire.core.view import Agent, View

from .test_search import FakeClock, Nim, Pile, _nim_view, _random_positions

IMPROVE = Settings(mode="improve")


class _TakeMost:
    """A poor scripted Nim player: always takes as many as it may."""

    name = "scripted"
    last_reason = "take the most"

    def __init__(self, side: str, seed: int) -> None:
        self.side = side

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[-1]


class _Perfect:
    """The winning Nim player: leaves a multiple of 4 when it can, else takes 1."""

    name = "scripted"
    last_reason = "leave a multiple of four"

    def __init__(self, side: str, seed: int) -> None:
        self.side = side

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        left = int(view.observation["left"])
        take = left % 4 or 1
        return Action("take", option=str(take))


class NimTakeMost(Nim):
    capabilities = Capabilities(scripted=_TakeMost)


class NimPerfect(Nim):
    capabilities = Capabilities(scripted=_Perfect)


def test_replaces_a_losing_scripted_move_by_the_win_the_samples_show() -> None:
    """From 5 counters the poor player takes 3 and loses; taking 1 leaves 4, and with both
    sides playing on as the poor player (take 3, take 1) the side wins every sample."""
    ruleset = NimTakeMost()
    state = Pile(5)
    agent = SearchAgent("a", seed=3, iterations=MIN_SAMPLES + 1, settings=IMPROVE)
    chosen = agent.choose(_nim_view(ruleset, state), ruleset.legal_actions(state))
    assert chosen == Action("take", option="1"), agent.last_reason
    result = agent.last_result
    assert result is not None and result.method == "improve"
    assert result.hint == Action("take", option="3") and result.chosen == chosen
    assert result.root.children[chosen].mean() > 0.9
    assert result.root.children[Action("take", option="3")].mean() < 0.1
    assert "instead of the scripted player's move: take 3" in agent.last_reason
    assert "the game is won" in agent.last_reason


def test_too_few_samples_keep_the_scripted_move() -> None:
    ruleset = NimTakeMost()
    state = Pile(5)
    agent = SearchAgent("a", seed=3, iterations=MIN_SAMPLES - 1, settings=IMPROVE)
    chosen = agent.choose(_nim_view(ruleset, state), ruleset.legal_actions(state))
    assert chosen == Action("take", option="3")
    assert "the scripted player's move, kept" in agent.last_reason


@pytest.mark.parametrize("left", [5, 6, 7, 9])
def test_keeps_a_scripted_move_that_cannot_be_beaten(left: int) -> None:
    ruleset = NimPerfect()
    state = Pile(left)
    agent = SearchAgent("a", seed=1, iterations=8, settings=IMPROVE)
    chosen = agent.choose(_nim_view(ruleset, state), ruleset.legal_actions(state))
    assert chosen == Action("take", option=str(left % 4))
    assert "kept" in agent.last_reason


def test_without_a_scripted_player_it_falls_back_to_the_tree_search() -> None:
    ruleset = Nim()
    state = Pile(5)
    agent = SearchAgent("a", seed=3, iterations=600, settings=IMPROVE)
    assert agent.choose(_nim_view(ruleset, state), ruleset.legal_actions(state)) == Action(
        "take", option="1"
    )
    assert agent.last_result is not None and agent.last_result.method == "tree"


def test_every_candidate_meets_the_same_draws() -> None:
    """Common random numbers: each sample is one determinisation, cloned per candidate. A
    view that counts its determinisations shows one per sample (plus the screen's and the
    description's), never one per candidate."""
    game = umpire.new_game("portable/village-attack", seed=3)
    side = str(game.to_act)
    inner = game.view(side)
    drawn: list[int] = []

    class Counting(View):
        def determinise(self, rng: random.Random) -> Any:
            drawn.append(1)
            return inner.determinise(rng)

    view = Counting(
        inner.ruleset, side, lambda: inner.observation, legal=lambda: inner.legal_actions()
    )
    legal = game.legal_actions()
    factory = game.ruleset.capabilities.scripted
    assert factory is not None
    hint = factory(side, 0).choose(inner, legal)
    players: dict[str, Agent] = {}

    def policy(who: str) -> Agent:
        return players.setdefault(who, factory(who, 0))

    result = improve(
        view, legal, personality("balanced"), Settings(iterations=5), random.Random(1), policy, hint
    )
    assert result.samples == 5
    assert len(result.root.children) > 1  # several candidates compared
    assert len(drawn) <= 5 + 2  # a draw per sample, the screen's and the description's


POSITIONS = [
    ("sevendays/meeting-engagement", {"cards": True}),
    ("portable/village-attack", {}),
    ("rhine/autobahn-gap", {}),
    ("bookgun/convoy-ambush", {}),
]


@pytest.mark.parametrize(("game_id", "options"), POSITIONS)
def test_never_returns_an_illegal_action(game_id: str, options: dict[str, Any]) -> None:
    checked = 0
    for game in _random_positions(game_id, options, seed=6, count=3):
        side = str(game.to_act)
        legal = game.legal_actions()
        for preset in ("balanced", "cautious"):
            settings = Settings(mode="improve", horizon=6)
            agent = SearchAgent(
                side, seed=checked, character=preset, iterations=3, settings=settings
            )
            chosen = agent.choose(game.view(side), legal)
            assert chosen in legal, (game_id, chosen)
            assert agent.last_reason
            game.branch().apply(chosen)
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize("think", [0.5, 2.0])
def test_respects_an_injected_clock(think: float) -> None:
    game = umpire.new_game("portable/village-attack", seed=4)
    side = str(game.to_act)
    clock = FakeClock(0.002)
    agent = SearchAgent(side, seed=1, think=think, clock=clock, settings=IMPROVE)
    agent.choose(game.view(side), game.legal_actions())
    assert agent.last_result is not None and agent.last_result.method == "improve"
    ran = agent.last_result.samples
    assert ran >= 1
    spent = agent.last_stats["seconds"]
    # the screen and a round cut short by the clock stop within a few reads of it
    assert spent <= think + 5 * clock.tick
    longer = SearchAgent(side, seed=1, think=think * 2, clock=FakeClock(0.002), settings=IMPROVE)
    longer.choose(game.view(side), game.legal_actions())
    assert longer.last_result is not None and longer.last_result.samples >= ran


@pytest.mark.parametrize("game_id", ["sevendays/meeting-engagement", "portable/village-attack"])
def test_same_seed_and_budget_give_the_same_choice_and_words(game_id: str) -> None:
    game = _random_positions(game_id, {}, seed=8, count=1)[0]
    side = str(game.to_act)
    runs = []
    for _ in range(2):
        agent = SearchAgent(
            side,
            seed=11,
            character="cautious",
            iterations=4,
            settings=Settings(mode="improve", horizon=8),
        )
        runs.append((agent.choose(game.view(side), game.legal_actions()), agent.last_reason))
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("rhine/autobahn-gap", {}),
        ("sevendays/meeting-engagement", {}),
        ("portable/village-attack", {}),
    ],
)
def test_re_sampled_hidden_truth_leaves_choice_and_explanation_unchanged(
    game_id: str, options: dict[str, Any]
) -> None:
    """As for the tree search: the game's own view of a twin whose hidden truth was
    re-sampled gives the same choice and the same words for a fixed seed and budget."""
    ruleset = get_ruleset(game_id.split("/")[0])
    rng = random.Random(3)
    compared = changed = 0
    settings = Settings(mode="improve", horizon=8)
    for game in _random_positions(game_id, options, seed=2, count=4):
        side = str(game.to_act)
        truth = game.state
        observation = ruleset.observation(truth, side)
        legal = game.legal_actions()
        agent = SearchAgent(side, seed=4, iterations=3, settings=settings)
        chosen = agent.choose(game.view(side), legal)
        twin = ruleset.resample(truth, side, rng)
        if twin.rng == truth.rng:
            twin.rng = RandomStream(rng.getrandbits(62))
        assert ruleset.observation(twin, side) == observation
        changed += ruleset.state_to_dict(twin) != ruleset.state_to_dict(truth)
        game.state = twin
        fresh = SearchAgent(side, seed=4, iterations=3, settings=settings)
        assert fresh.choose(game.view(side), legal) == chosen
        assert fresh.last_reason == agent.last_reason
        game.state = truth
        compared += 1
    assert compared >= 2 and changed > 0


@pytest.mark.parametrize(("a", "b"), [("aggressive", "cautious"), ("objective", "balanced")])
def test_the_personality_weights_the_samples(a: str, b: str) -> None:
    """The candidates are scored by the personality's evaluation: on the same samples two
    presets give the same candidates different estimates (the weights drive the choice)."""
    game = _random_positions("portable/village-attack", {}, seed=9, count=1)[0]
    side = str(game.to_act)
    means = []
    for preset in (a, b):
        agent = SearchAgent(
            side,
            seed=2,
            character=preset,
            iterations=3,
            settings=Settings(mode="improve", horizon=8),
        )
        agent.choose(game.view(side), game.legal_actions())
        assert agent.last_result is not None
        means.append({k: n.mean() for k, n in agent.last_result.root.children.items()})
    shared = set(means[0]) & set(means[1])
    assert shared and any(abs(means[0][k] - means[1][k]) > 1e-6 for k in shared)
