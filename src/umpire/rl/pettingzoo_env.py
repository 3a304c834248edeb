"""PettingZoo environments for any ``RULESET/SCENARIO``.

Agents are named ``<side>_<index>`` (``nato_0``, ``pact_1``), as PettingZoo recommends. Each
agent observes ``{"observation": Box(float32), "action_mask": int8}``; the action space is
``Discrete(slots)`` and one step chooses one digit of the action's sub-decision path (see
:mod:`umpire.rl.encoding`). Rewards are +1 for a win, -1 for a loss, 0 for a draw, given when
the game ends; nothing before.

Two turn orders:

- ``"game"`` (default): ``agent_selection`` is always the side the rules ask to decide.
- ``"round_robin"``: agents are selected in turn, one step each per cycle; a side with no
  decision has the mask ``[1, 0, ...]`` and whatever digit it sends is a wait (nothing
  happens). The end of the game is reported at the end of the cycle in which it happened.
  This is the parallel-compatible framing :func:`parallel_env` builds on.

``max_cycles`` truncates the game after ``max_cycles * num_agents`` steps (in the round-robin
order: after ``max_cycles`` cycles). A game the ruleset itself stops unfinished (its action
cap) is truncated too.

A digit the mask forbids changes nothing. With ``on_illegal="raise"`` (the default in the
``"game"`` order) it raises ``ValueError``; with ``"wait"`` (the default in the round-robin order,
where every agent sends a digit every step, as in a parallel env) it is a wait.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import aec_to_parallel

from umpire.rl.session import Session, side_name

TurnOrder = Literal["game", "round_robin"]


class UmpireAECEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """A ruleset's game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi"],
        "name": "umpire_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        *,
        options: Mapping[str, Any] | None = None,
        slots: int = 32,
        obs_size: int = 512,
        max_cycles: int | None = None,
        turn_order: TurnOrder = "game",
        on_illegal: Literal["raise", "wait"] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if turn_order not in ("game", "round_robin"):
            raise ValueError("turn_order is 'game' or 'round_robin'")
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode is None or 'ansi'")
        self.game_id = game_id
        self.game_options = dict(options or {})
        self.slots = slots
        self.obs_size = obs_size
        self.max_cycles = max_cycles
        self.turn_order = turn_order
        if on_illegal is None:
            on_illegal = "raise" if turn_order == "game" else "wait"
        if on_illegal not in ("raise", "wait"):
            raise ValueError("on_illegal is 'raise' or 'wait'")
        self.on_illegal = on_illegal
        self.render_mode = render_mode
        self.metadata = {
            **self.metadata,
            "name": f"umpire_{game_id.replace('/', '_').replace('-', '_')}_v0",
            "is_parallelizable": turn_order == "round_robin",
        }
        self.session = Session(game_id, 0, self.game_options, slots, obs_size)
        self._sides = {f"{side_name(p).lower()}_{i}": p for i, p in enumerate(self.session.players)}
        self._agent_of = {side_name(p): a for a, p in self._sides.items()}
        self.possible_agents = list(self._sides)
        length = self.session.encoder.length
        box = spaces.Box(
            low=self.session.encoder.low,
            high=self.session.encoder.high,
            shape=(length,),
            dtype=np.float32,
        )
        mask = spaces.Box(low=0, high=1, shape=(slots,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(slots) for a in self.possible_agents}
        self._np_random_seeded = False
        self._steps = 0
        self.agents: list[str] = []

    # -- spaces (the same objects every call) ---------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the API ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or not self._np_random_seeded:
            self._np_random = np.random.default_rng(seed)
            self._np_random_seeded = True
        game_seed = int(self._np_random.integers(2**31 - 1))
        self.session = Session(
            self.game_id, game_seed, self.game_options, self.slots, self.obs_size
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._rr_index = 0
        self._select()
        self._check_end()

    def _decider(self) -> str | None:
        to_act = self.session.to_act
        return None if to_act is None else self._agent_of[side_name(to_act)]

    def _select(self) -> None:
        if self.turn_order == "round_robin":
            self.agent_selection = self.possible_agents[self._rr_index]
        else:
            self.agent_selection = self._decider() or self.possible_agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        side = self._sides[agent]
        return {
            "observation": self.session.observe(side),
            "action_mask": self.session.mask(side),
        }

    def action_mask(self, agent: str) -> np.ndarray:
        return self.session.mask(self._sides[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("a live agent must choose a digit (read its action_mask)")
        digit = int(action)
        self._cumulative_rewards[agent] = 0.0
        if not self.session.mask(self._sides[agent])[digit] and self.on_illegal == "raise":
            raise ValueError(f"digit {digit} is not allowed for {agent} now; read its action_mask")
        if agent == self._decider() and self.session.mask(self._sides[agent])[digit]:
            self.session.choose(digit)
        self._steps += 1
        if self.turn_order == "round_robin":
            self._rr_index = (self._rr_index + 1) % len(self.possible_agents)
        self._select()
        self._check_end()
        self._accumulate_rewards()

    def _check_end(self) -> None:
        for a in self.agents:
            self.rewards[a] = 0.0
        if self._rr_index != 0:
            return  # round robin: the game ends (and is truncated) only at the end of a cycle
        result = self.session.result()
        if result is not None:
            for side, value in result.items():
                agent = self._agent_of[side]
                self.rewards[agent] = value
                self.terminations[agent] = True
                self.infos[agent] = {"outcome": self.session.game.outcome.how}  # type: ignore[union-attr]
            return
        cap = None if self.max_cycles is None else self.max_cycles * len(self.possible_agents)
        at_cap = cap is not None and self._steps >= cap
        if self.session.stopped or at_cap:
            for a in self.agents:
                self.truncations[a] = True

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        draw = self.session.ruleset.capabilities.render
        if draw is not None:
            return str(draw(self.session.game.state, None))
        return str(self.session.ruleset.summary(self.session.game.state))

    def close(self) -> None:
        pass

    # -- pickling --------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)


def aec_env(game_id: str, **kwargs: Any) -> UmpireAECEnv:
    """A PettingZoo AEC env for ``RULESET/SCENARIO``; see :class:`UmpireAECEnv` for options
    (``options`` are the game's own options)."""
    return UmpireAECEnv(game_id, **kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> ParallelEnv[str, dict[str, np.ndarray], int]:
    """The round-robin AEC env as a PettingZoo parallel env: every agent sends a digit each
    step; only the deciding side's counts (the others must send 0)."""
    kwargs["turn_order"] = "round_robin"
    return aec_to_parallel(UmpireAECEnv(game_id, **kwargs))
