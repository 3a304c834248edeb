"""A Gymnasium environment: one side of a game against a built-in agent.

The observation is the side's observation tensor (the ``observation`` part of the PettingZoo
env's dict); the legal digits are given by :meth:`UmpireGymEnv.action_masks` (the method
sb3-contrib's ``MaskablePPO`` reads) and in ``info["action_mask"]``. One step chooses one digit
of the action's sub-decision path (see :mod:`umpire.rl.encoding`); when the action is complete
it is played, and the opponent plays until it is this side's decision again or the game ends.

Dice: ``reset(seed=...)`` seeds the env's own generator, which draws the game's seed and the
opponent's seed; the same seed and the same digits replay the same game.

Illegal actions: a digit the mask forbids changes nothing (the game and the decision in
progress are as before); the step returns ``illegal_reward`` (default -0.1), not terminated,
with ``info["illegal_action"] = True``.

Rewards: +1 win, -1 loss, 0 draw at the end; nothing before (except the illegal-action
penalty), unless a ``potential`` is given: then every legal step also earns
``potential(after) - potential(before)`` (potential-based shaping, Ng, Harada and Russell 1999),
where ``potential(observation, side)`` reads only the side's own observation (for instance
:func:`umpire.rl.shaping.portable_potential`, the Portable ruleset's victory score). A game the
ruleset stops unfinished, or one longer than ``max_steps`` steps of this side, is truncated.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from umpire.agents.base import RandomAgent, held_to_the_book
from umpire.core.ruleset import capability
from umpire.core.view import Agent
from umpire.rl.session import Session, side_name


class UmpireGymEnv(gym.Env[np.ndarray, np.int64]):
    """``side`` of ``RULESET/SCENARIO`` against ``opponent``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        side: str,
        opponent: str | Agent = "scripted",
        *,
        options: Mapping[str, Any] | None = None,
        slots: int = 32,
        obs_size: int = 512,
        illegal_reward: float = -0.1,
        max_steps: int | None = None,
        render_mode: str | None = None,
        potential: Callable[[Mapping[str, Any], str], float] | None = None,
    ) -> None:
        self.game_id = game_id
        self.game_options = dict(options or {})
        self.slots = slots
        self.obs_size = obs_size
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.potential = potential
        self._potential_now = 0.0
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode is None or 'ansi'")
        self.render_mode = render_mode
        self.session = Session(game_id, 0, self.game_options, slots, obs_size)
        by_name = {side_name(p): p for p in self.session.players}
        if side_name(side) not in by_name:
            raise ValueError(f"{side!r} is not a side of {game_id}: {sorted(by_name)}")
        self.side = by_name[side_name(side)]
        self.opponent_spec = opponent
        self.observation_space = spaces.Box(
            low=self.session.encoder.low,
            high=self.session.encoder.high,
            shape=(self.session.encoder.length,),
            dtype=np.float32,
        )
        self.action_space = spaces.Discrete(slots)
        self._opponents: dict[Any, Agent] = {}
        self._steps = 0

    def _make_opponents(self, seed: int) -> dict[Any, Agent]:
        out: dict[Any, Agent] = {}
        for i, p in enumerate(self.session.players):
            if p == self.side:
                continue
            spec = self.opponent_spec
            if spec == "random":
                out[p] = held_to_the_book(RandomAgent(seed + i))
            elif spec == "scripted":
                factory = capability(self.session.ruleset, "scripted")
                out[p] = held_to_the_book(factory(p, seed + i))
            elif isinstance(spec, str):
                raise ValueError("opponent is 'scripted', 'random' or an Agent")
            else:
                out[p] = spec
        return out

    def _opponents_play(self) -> None:
        game = self.session.game
        while not self.session.stopped and self.session.to_act != self.side:
            mover = self.session.to_act
            legal = game.legal_actions()
            self.session.apply(self._opponents[mover].choose(game.view(mover), legal))

    def action_masks(self) -> np.ndarray:
        """The digits this side may choose now (``MaskablePPO`` reads this)."""
        return self.session.mask(self.side).astype(bool)

    def _obs(self) -> np.ndarray:
        return self.session.observe(self.side)

    def _potential(self) -> float:
        if self.potential is None:
            return 0.0
        observation = self.session.observation(self.side)
        return float(self.potential(observation, side_name(self.side)))

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.session.mask(self.side), **extra}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31 - 1))
        agent_seed = int(self.np_random.integers(2**31 - 1))
        self.session = Session(
            self.game_id, game_seed, self.game_options, self.slots, self.obs_size
        )
        self._opponents = self._make_opponents(agent_seed)
        self._steps = 0
        self._opponents_play()
        self._potential_now = self._potential()
        return self._obs(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        digit = int(action)
        if self.session.stopped or not self.session.mask(self.side)[digit]:
            return self._obs(), self.illegal_reward, False, False, self._info(illegal_action=True)
        self._steps += 1
        if self.session.choose(digit) is not None:
            self._opponents_play()
        result = self.session.result()
        terminated = result is not None
        reward = 0.0 if result is None else result[side_name(self.side)]
        if self.potential is not None:
            before, self._potential_now = self._potential_now, self._potential()
            reward += self._potential_now - before
        truncated = not terminated and (
            self.session.stopped or (self.max_steps is not None and self._steps >= self.max_steps)
        )
        info = self._info()
        if terminated:
            info["outcome"] = side_name(self.session.game.outcome.winner)  # type: ignore[union-attr]
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        draw = self.session.ruleset.capabilities.render
        if draw is not None:
            return str(draw(self.session.game.state, self.side))
        return str(self.session.game.observation(self.side))


def gym_env(
    game_id: str, side: str, opponent: str | Agent = "scripted", **kwargs: Any
) -> UmpireGymEnv:
    """A Gymnasium env for ``side`` of ``RULESET/SCENARIO`` against ``opponent``
    (``"scripted"``, ``"random"`` or an :class:`~umpire.core.view.Agent`)."""
    return UmpireGymEnv(game_id, side, opponent, **kwargs)


GYM_ID = "umpire/Game-v0"
if GYM_ID not in gym.registry:
    # gymnasium.make("umpire/Game-v0", game_id="portable/armoured-meeting", side="blue")
    gym.register(id=GYM_ID, entry_point="umpire.rl.gym_env:UmpireGymEnv")


class _CallableModule(types.ModuleType):
    """Importing this submodule sets the package attribute ``umpire.rl.gym_env`` to the
    module, hiding the package's function of the same name; calling the module calls
    :func:`gym_env`, so ``from umpire.rl import gym_env`` works in either order."""

    def __call__(
        self, game_id: str, side: str, opponent: str | Agent = "scripted", **kwargs: Any
    ) -> UmpireGymEnv:
        return gym_env(game_id, side, opponent, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
