"""Reward shaping: the Portable potential is the ruleset's own victory score, read from a
side's observation, and the Gymnasium env adds exactly its differences to the reward."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from umpire.core.game import Game  # noqa: E402
from umpire.core.ruleset import get_ruleset  # noqa: E402
from umpire.rl.gym_env import gym_env  # noqa: E402
from umpire.rl.shaping import portable_potential  # noqa: E402
from umpire.rulesets.portable.victory import score  # noqa: E402


@pytest.mark.parametrize("scenario", ["crossroads", "village-attack"])
def test_portable_potential_is_the_victory_score_difference(scenario: str) -> None:
    """portable.victory.result compares (objectives held, -share of SP lost); the potential
    is the first difference plus the second, at every position of random games."""
    ruleset = get_ruleset("portable")
    changed = 0
    for seed in range(2):
        game = Game(ruleset, scenario, seed)
        rng = random.Random(seed)
        while game.to_act is not None:
            world = ruleset.world(game.state)  # type: ignore[attr-defined]
            mine, theirs = score(world, game.state, "blue"), score(world, game.state, "red")
            expected = (mine[0] - theirs[0]) + (mine[1] - theirs[1])
            blue = portable_potential(game.observation("blue"), "blue")
            red = portable_potential(game.observation("red"), "red")
            assert blue == pytest.approx(expected) and red == pytest.approx(-expected)
            changed += expected != 0
            game.apply(rng.choice(game.legal_actions()))
    assert changed > 0


def test_gym_env_adds_the_potential_differences() -> None:
    """Over a game the shaped rewards sum to the result plus potential(end) - potential(start),
    and each step's shaping is the change of the side's potential."""
    env = gym_env("portable/crossroads", "red", opponent="random", potential=portable_potential)
    plain = gym_env("portable/crossroads", "red", opponent="random")
    env.reset(seed=5)
    plain.reset(seed=5)
    start = portable_potential(env.session.game.observation("red"), "red")
    rng = np.random.default_rng(5)
    total = 0.0
    while True:
        before = portable_potential(env.session.game.observation("red"), "red")
        digit = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, term, trunc, _ = env.step(digit)
        _, base, *_ = plain.step(digit)
        after = portable_potential(env.session.game.observation("red"), "red")
        assert reward == pytest.approx(base + after - before)
        total += reward
        if term or trunc:
            break
    result = env.session.result()
    assert result is not None
    assert total == pytest.approx(result["red"] + after - start)
