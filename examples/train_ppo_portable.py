"""Train a masked PPO agent on a Portable Wargame scenario and compare it with the random player.

An example, not a test. Needs the RL extra and sb3-contrib (which brings PyTorch)::

    pip install ".[rl]" sb3-contrib
    python examples/train_ppo_portable.py --minutes 5

The learner plays ``--side`` of ``--game`` against the random player (``umpire.agents``'
``RandomAgent``: uniform among the legal actions) through the Gymnasium env
(:func:`umpire.rl.gym_env`), choosing each action as sub-decisions with ``action_masks()``.
After training it plays ``--games`` evaluation games on fresh seeds, and so do two baselines
on the same seeds: the random player itself in the learner's seat, and the untrained masked
policy (uniform among allowed digits). The win rates are printed at the end.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from umpire.agents.base import RandomAgent
from umpire.rl import gym_env


class Deadline(BaseCallback):  # type: ignore[misc]
    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.until = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.until


def play(env: Any, choose: Any, seed: int) -> float:
    obs, _ = env.reset(seed=seed)
    while True:
        obs, reward, terminated, truncated, _ = env.step(choose(env, obs))
        if terminated or truncated:
            return float(reward)


def random_player_digits(seed: int) -> Any:
    """The random player in the learner's seat: it picks a whole legal action uniformly (as
    the opponent does), then sends that action's digits one step at a time."""
    agent = RandomAgent(seed)
    queue: list[int] = []

    def choose(env: Any, obs: Any) -> int:
        session = env.unwrapped.session
        if not queue:
            game = session.game
            action = agent.choose(game.view(session.to_act), game.legal_actions())
            queue.extend(session.menu().encode(action))
        return queue.pop(0)

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="portable/armoured-meeting")
    parser.add_argument("--side", default="blue")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = gym_env(args.game, args.side, opponent="random")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=1024, batch_size=128, gamma=0.995, seed=args.seed, verbose=0
    )
    started = time.monotonic()
    model.learn(total_timesteps=10**9, callback=Deadline(args.minutes * 60))
    trained_for = time.monotonic() - started
    print(f"trained {model.num_timesteps} steps in {trained_for / 60:.1f} min")

    seeds = [10_000 + i for i in range(args.games)]
    rng = np.random.default_rng(args.seed)

    def trained(env: Any, obs: Any) -> int:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    def uniform_digits(env: Any, obs: Any) -> int:
        return int(rng.choice(np.flatnonzero(env.action_masks())))

    results: dict[str, list[float]] = {}
    for name, policy in (
        ("masked PPO (trained)", lambda s: trained),
        ("random player", random_player_digits),
        ("untrained (uniform digits)", lambda s: uniform_digits),
    ):
        results[name] = [play(env, policy(s), s) for s in seeds]
    print(f"{args.game}, {args.side} against the random player, {args.games} games:")
    for name, rewards in results.items():
        wins = sum(r > 0 for r in rewards)
        draws = sum(r == 0 for r in rewards)
        print(f"  {name:28s} wins {wins:3d}  draws {draws:3d}  win rate {wins / len(rewards):.0%}")


if __name__ == "__main__":
    main()
