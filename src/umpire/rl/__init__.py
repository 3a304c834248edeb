"""Reinforcement-learning and game-theory adapters: PettingZoo, Gymnasium and OpenSpiel.

Install with ``pip install "umpire[rl]"``. Every registered ruleset and scenario works through
the ruleset contract alone (legal actions, apply, a side's observation, resample)::

    from umpire.rl import aec_env, gym_env, parallel_env
    env = aec_env("portable/armoured-meeting")           # PettingZoo AEC
    env = gym_env("portable/armoured-meeting", "blue")   # Gymnasium, vs the scripted player
    from umpire.rl.openspiel_game import load_game
    game = load_game("tiny", scenario="skirmish")        # OpenSpiel (pyspiel)

See ``docs/rl.md`` for the action encoding (sub-decisions in a fixed ``Discrete``), the
observation tensor and what each framework's checker covers.
"""

from __future__ import annotations

from typing import Any

from umpire.rl.encoding import Menu, ObservationEncoder

__all__ = ["Menu", "ObservationEncoder", "aec_env", "gym_env", "parallel_env"]


def aec_env(game_id: str, **kwargs: Any) -> Any:
    """A PettingZoo AEC env (:class:`umpire.rl.pettingzoo_env.UmpireAECEnv`)."""
    from umpire.rl.pettingzoo_env import aec_env as make

    return make(game_id, **kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> Any:
    """A PettingZoo parallel env (the round-robin AEC env, converted)."""
    from umpire.rl.pettingzoo_env import parallel_env as make

    return make(game_id, **kwargs)


def gym_env(game_id: str, side: str, opponent: Any = "scripted", **kwargs: Any) -> Any:
    """A Gymnasium env for one side (:class:`umpire.rl.gym_env.UmpireGymEnv`)."""
    from umpire.rl.gym_env import gym_env as make

    return make(game_id, side, opponent, **kwargs)
