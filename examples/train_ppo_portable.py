"""Train a masked PPO agent on a Portable Wargame scenario and show it beats the random player.

An example, not a test. Needs the RL extra (which brings sb3-contrib and PyTorch)::

    pip install ".[rl]"
    taskset -c 1 python examples/train_ppo_portable.py --max-steps 12000 --pairs 100 --seed 0

What it does:

- the learner is sb3-contrib's ``MaskablePPO`` (a well-kept library's PPO that reads
  ``action_masks()``), playing **both sides** of ``--game`` (default ``portable/crossroads``,
  the small scenario shipped for this) against the random player (``RandomAgent``: uniform
  among the legal actions) through the Gymnasium env (:func:`umpire.rl.gym_env`); each episode
  it takes blue or red in turn (the observation says which side it is);
- the reward is the game's result (+1/-1/0) plus potential-based shaping from the ruleset's own
  victory score (:func:`umpire.rl.shaping.portable_potential`: objectives held, then the share
  of SP lost; ``--no-shaping`` turns it off);
- after training it plays ``--pairs`` evaluation seeds **twice each, sides swapped**, against
  the random player, and so does the random player itself in the learner's seat on the same
  seeds; it prints both win rates with 95 % Wilson intervals, and whether the trained agent's
  lower bound is above the random player's upper bound.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from umpire.agents.base import RandomAgent
from umpire.rl.gym_env import gym_env
from umpire.rl.shaping import portable_potential


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class BothSides(gym.Env[np.ndarray, np.int64]):
    """One learner for both sides: each ``reset`` plays the next side in turn (blue, red, ...)
    against ``opponent``; spaces and ``action_masks()`` are those of the side playing."""

    def __init__(self, game_id: str, shaping: bool, **kwargs: Any) -> None:
        potential = portable_potential if shaping else None
        self.envs = [
            gym_env(game_id, side, opponent="random", potential=potential, **kwargs)
            for side in ("blue", "red")
        ]
        self.observation_space = self.envs[0].observation_space
        self.action_space = self.envs[0].action_space
        self.current = self.envs[1]
        self.episodes = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.current = self.envs[self.episodes % 2]
        self.episodes += 1
        episode_seed = int(self.np_random.integers(2**31 - 1))
        return self.current.reset(seed=episode_seed)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        return self.current.step(action)

    def action_masks(self) -> np.ndarray:
        return self.current.action_masks()


def progress_callback(seconds: float, max_steps: int) -> Any:
    """Stop at the deadline (or after ``max_steps``); draw a progress bar on stderr with the
    mean result of the last 100 finished games."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.started = time.monotonic()
            self.results: list[float] = []
            self.drawn = 0.0

        def _on_step(self) -> bool:
            for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
                if done:
                    self.results.append(float(info.get("won", 0.0)))
            elapsed = time.monotonic() - self.started
            finished = elapsed >= seconds or self.num_timesteps >= max_steps
            if finished or elapsed - self.drawn >= 1.0:
                self.drawn = elapsed
                frac = min(1.0, max(elapsed / seconds, self.num_timesteps / max_steps))
                bar = "#" * int(30 * frac)
                recent = self.results[-100:]
                rate = f"{np.mean(recent):.0%}" if recent else "-"
                print(
                    f"\rtraining [{bar:<30s}] {frac:4.0%} {elapsed:5.0f}s "
                    f"{self.num_timesteps:7d} steps {len(self.results):5d} games "
                    f"won (last 100) {rate:>4s}",
                    end="" if not finished else "\n",
                    file=sys.stderr,
                    flush=True,
                )
            return not finished

    return Progress()


class WinInfo(gym.Wrapper[np.ndarray, np.int64, np.ndarray, np.int64]):
    """Adds ``info["won"]`` (1 for a win, else 0) at the end of a game, for the progress bar."""

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            side_env = self.env.unwrapped.current  # type: ignore[attr-defined]
            info["won"] = 1.0 if result_of(side_env) == "win" else 0.0
        return obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined,no-any-return]


def result_of(env: Any) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` for the side of a finished game's env (a game the
    ruleset stopped unfinished counts as a draw)."""
    outcome = env.session.game.outcome
    winner = None if outcome is None else str(getattr(outcome.winner, "value", outcome.winner))
    if winner is None or winner == "draw":
        return "draw"
    return "win" if winner == str(getattr(env.side, "value", env.side)) else "loss"


def play(env: Any, choose: Any, seed: int) -> str:
    """One evaluation game: ``"win"``, ``"draw"`` or ``"loss"`` for the env's side."""
    obs, _ = env.reset(seed=seed)
    while True:
        obs, _, terminated, truncated, _ = env.step(choose(env, obs))
        if terminated or truncated:
            return result_of(env)


def random_player_digits(seed: int) -> Any:
    """The random player in the learner's seat: it picks a whole legal action uniformly (as
    the opponent does), then sends that action's digits one step at a time."""
    agent = RandomAgent(seed)
    queue: list[int] = []

    def choose(env: Any, obs: Any) -> int:
        session = env.session
        if not queue:
            game = session.game
            action = agent.choose(game.view(session.to_act), game.legal_actions())
            queue.extend(session.menu().encode(action))
        return queue.pop(0)

    return choose


def evaluate(game_id: str, name: str, policy: Any, pairs: int, first_seed: int) -> list[str]:
    """``pairs`` seeds, each played as blue and as red against the random player."""
    envs = {side: gym_env(game_id, side, opponent="random") for side in ("blue", "red")}
    results: list[str] = []
    started = time.monotonic()
    for i in range(pairs):
        seed = first_seed + i
        for env in envs.values():
            results.append(play(env, policy(seed), seed))
        done = i + 1
        bar = "#" * int(30 * done / pairs)
        print(
            f"\r{name:14s} [{bar:<30s}] {done:4d}/{pairs} pairs {time.monotonic() - started:5.0f}s",
            end="\n" if done == pairs else "",
            file=sys.stderr,
            flush=True,
        )
    return results


def summary(name: str, results: list[str]) -> tuple[float, float]:
    n = len(results)
    wins, draws = results.count("win"), results.count("draw")
    low, high = wilson(wins, n)
    print(
        f"  {name:32s} won {wins:4d}/{n}  drawn {draws:3d}  win rate {wins / n:6.1%}  "
        f"95% Wilson [{low:.1%}, {high:.1%}]",
        flush=True,
    )
    return low, high


def random_baseline(args: argparse.Namespace) -> Any:
    """The random player's evaluation, read from ``--baseline-cache`` if it holds the same
    game and seeds, else played (and then written there)."""
    key = {"game": args.game, "pairs": args.pairs, "eval_seed": args.eval_seed}

    def run() -> list[str]:
        path: Path | None = args.baseline_cache
        if path is not None and path.exists():
            kept = json.loads(path.read_text())
            if kept.get("key") == key:
                print(f"random player: {path} (same game and seeds)", file=sys.stderr)
                return list(kept["results"])
        results = evaluate(
            args.game, "random player", random_player_digits, args.pairs, args.eval_seed
        )
        if path is not None:
            path.write_text(json.dumps({"key": key, "results": results}))
        return results

    return run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="portable/crossroads")
    parser.add_argument("--max-steps", type=int, default=12_000, help="training steps")
    parser.add_argument("--minutes", type=float, default=15.0, help="training time limit")
    parser.add_argument("--pairs", type=int, default=100, help="evaluation seeds (x2 sides)")
    parser.add_argument("--seed", type=int, default=0, help="training seed")
    parser.add_argument("--eval-seed", type=int, default=100_000, help="first evaluation seed")
    parser.add_argument("--n-steps", type=int, default=512, help="PPO rollout length")
    parser.add_argument("--lr", type=float, default=5e-4, help="learning rate")
    parser.add_argument("--gamma", type=float, default=0.9, help="discount per learner step")
    parser.add_argument("--no-shaping", action="store_true", help="the result alone as reward")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument(
        "--baseline-cache",
        type=Path,
        help="JSON file keeping the random player's evaluation results (they depend only on "
        "the game and the evaluation seeds, not on the training), reused when it matches",
    )
    parser.add_argument(
        "--baseline-only", action="store_true", help="only play the random player's evaluation"
    )
    args = parser.parse_args(argv)
    baseline = random_baseline(args)
    if args.baseline_only:
        summary("random player (same seat)", baseline())
        return

    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(args.threads)
    env = WinInfo(BothSides(args.game, shaping=not args.no_shaping))
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=args.lr,
        n_steps=args.n_steps,
        batch_size=min(128, args.n_steps),
        n_epochs=8,
        gamma=args.gamma,
        gae_lambda=0.9,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        verbose=0,
    )
    started = time.monotonic()
    model.learn(
        total_timesteps=args.max_steps,
        callback=progress_callback(args.minutes * 60, args.max_steps),
    )
    trained_for = time.monotonic() - started
    print(
        f"{args.game}: MaskablePPO trained {model.num_timesteps} steps "
        f"in {trained_for / 60:.1f} min (seed {args.seed}, "
        f"shaping {'off' if args.no_shaping else 'portable_potential'})",
        flush=True,
    )

    def trained(seed: int) -> Any:
        def choose(env: Any, obs: Any) -> int:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            return int(action)

        return choose

    ppo = evaluate(args.game, "masked PPO", trained, args.pairs, args.eval_seed)
    rnd = baseline()
    print(
        f"evaluation: {args.pairs} seeds x 2 sides = {2 * args.pairs} games against the random "
        f"player (seeds {args.eval_seed}..{args.eval_seed + args.pairs - 1})",
        flush=True,
    )
    low, _ = summary("masked PPO (trained)", ppo)
    _, high = summary("random player (same seat)", rnd)
    verdict = "beats" if low > high else "does not clearly beat"
    print(
        f"the trained agent {verdict} the random player "
        f"(PPO lower bound {low:.1%} vs random upper bound {high:.1%})",
        flush=True,
    )


if __name__ == "__main__":
    main()
