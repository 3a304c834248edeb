"""The agent protocol and the ruleset-agnostic random agent."""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Protocol

from umpire.core.actions import Action
from umpire.core.errors import UmpireError
from umpire.core.game import Game


class Agent(Protocol):
    """Chooses one of the legal actions; ``last_reason`` explains the latest choice."""

    name: str
    last_reason: str

    def choose(self, game: Game, legal: Sequence[Action]) -> Action: ...


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator (never the
    game's, so it cannot disturb the game's dice)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self.last_reason = ""

    def choose(self, game: Game, legal: Sequence[Action]) -> Action:
        self.last_reason = f"random pick among {len(legal)} legal actions"
        return legal[self._rng.randrange(len(legal))]


SCRIPTED_AGENTS: dict[str, str] = {
    "sevendays": "umpire.agents.sevendays_scripted:SevenDaysScripted",
    "portable": "umpire.agents.portable_scripted:PortableScripted",
}


def make_agent(kind: str, ruleset: str, side: str, seed: int) -> Agent:
    """An agent by name: ``random`` or ``scripted``."""
    salt = sum(ord(c) for c in side) * 7919
    if kind == "random":
        return RandomAgent(seed * 1_000_003 + salt)
    if kind == "scripted":
        if ruleset not in SCRIPTED_AGENTS:
            raise UmpireError(f"no scripted agent for ruleset {ruleset!r}")
        module_name, _, class_name = SCRIPTED_AGENTS[ruleset].partition(":")
        agent: Agent = getattr(importlib.import_module(module_name), class_name)(side)
        return agent
    raise UmpireError(f"unknown agent {kind!r}; choose human, scripted or random")
