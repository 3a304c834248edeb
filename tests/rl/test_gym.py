"""The Gymnasium env: Gymnasium's own ``check_env``, seeding, masks and illegal actions."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from tests.rl.helpers import DEFAULT_GAMES, sides  # noqa: E402
from umpire.rl import gym_env  # noqa: E402
from umpire.rl.gym_env import GYM_ID, UmpireGymEnv  # noqa: E402


@pytest.mark.parametrize("game_id", DEFAULT_GAMES)
def test_check_env_passes_without_warnings(game_id: str) -> None:
    env = gym.make(GYM_ID, game_id=game_id, side=str(sides(game_id)[0]), render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def _run(env: object, seed: int, steps: int) -> list[tuple[bytes, float, bool, bool]]:
    obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        digit = int(rng.choice(np.flatnonzero(env.action_masks())))  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = env.step(digit)  # type: ignore[attr-defined]
        out.append((obs.tobytes(), reward, term, trunc))
        if term or trunc:
            break
    return out


@pytest.mark.parametrize("game_id", DEFAULT_GAMES)
def test_same_seed_same_game_other_seed_other_dice(game_id: str) -> None:
    side = str(sides(game_id)[1])
    env = gym_env(game_id, side, opponent="random")
    first = _run(env, 7, 60)
    record = env.session.game.record.to_dict()
    assert _run(env, 7, 60) == first
    assert env.session.game.record.to_dict() == record
    _run(env, 8, 60)
    assert env.session.game.record.seed != record["seed"]


def test_illegal_action_changes_nothing_and_costs_the_penalty() -> None:
    env = gym_env("tiny/skirmish", "red", opponent="scripted", illegal_reward=-0.25)
    obs, info = env.reset(seed=1)
    mask = env.action_masks()
    forbidden = int(np.flatnonzero(~mask)[0])
    record = env.session.game.record.to_dict()
    prefix = list(env.session.prefix)
    obs2, reward, term, trunc, info2 = env.step(forbidden)
    assert reward == -0.25 and not term and not trunc
    assert info2["illegal_action"] is True
    assert obs2.tobytes() == obs.tobytes()
    assert env.session.game.record.to_dict() == record and env.session.prefix == prefix
    assert (env.action_masks() == mask).all()


def test_action_masks_are_the_menu_of_the_decision() -> None:
    env = gym_env("portable/armoured-meeting", "red", opponent="scripted")
    env.reset(seed=2)
    session = env.session
    assert session.to_act == env.side
    menu = session.menu()
    allowed = set(np.flatnonzero(env.action_masks()).tolist())
    assert allowed == {menu.encode(a)[0] for a in session.game.legal_actions()}


@pytest.mark.parametrize("opponent", ["scripted", "random"])
def test_games_finish_with_the_outcome_as_reward(opponent: str) -> None:
    env = gym_env("tiny/skirmish", "blue", opponent=opponent)
    for seed in range(3):
        steps = _run(env, seed, 10_000)
        *_, (_, reward, term, trunc) = steps
        outcome = env.session.game.outcome
        assert term and not trunc and outcome is not None
        expected = 0.0 if outcome.winner == "draw" else (1.0 if outcome.winner == "blue" else -1.0)
        assert reward == expected
        assert all(r == 0.0 for _, r, _, _ in steps[:-1])


def test_package_gym_env_works_after_the_submodule_was_imported() -> None:
    """Importing ``umpire.rl.gym_env`` (the submodule) rebinds the package's ``gym_env``;
    it still makes an env."""
    import umpire.rl
    import umpire.rl.gym_env as submodule
    from umpire.rl import gym_env as again

    makers: tuple[Any, ...] = (umpire.rl.gym_env, submodule, again)
    for make in makers:
        env = make("tiny/skirmish", "blue", opponent="random")
        assert isinstance(env, UmpireGymEnv) and str(env.side) == "blue"
