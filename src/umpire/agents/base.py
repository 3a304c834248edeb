"""The ruleset-agnostic random agent and ``make_agent``; the agent contract and the ``View`` an
agent is handed live in :mod:`umpire.core.view` (re-exported here)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from umpire.core.actions import Action
from umpire.core.errors import UmpireError
from umpire.core.ruleset import capability, get_ruleset
from umpire.core.view import Agent, View

__all__ = ["AGENT_KINDS", "Agent", "RandomAgent", "View", "make_agent"]


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator (never the
    game's, so it cannot disturb the game's dice)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self.last_reason = ""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        self.last_reason = f"random pick among {len(legal)} legal actions"
        return legal[self._rng.randrange(len(legal))]


AGENT_KINDS = ("scripted", "random", "search")


def make_agent(kind: str, ruleset: str, side: str, seed: int, think: float | None = None) -> Agent:
    """An agent by name: ``random``, ``scripted`` (the ruleset's own scripted player) or
    ``search[:PRESET][@SECONDS]`` (the search player, a personality preset and its think time;
    ``think`` sets the time when the spec does not, default 1 s)."""
    salt = sum(ord(c) for c in side) * 7919
    if kind == "search" or kind.startswith(("search:", "search@")):
        from umpire.agents.search import DEFAULT_THINK, SearchAgent, parse_spec

        preset, seconds = parse_spec(kind)
        chosen = seconds if seconds is not None else think
        return SearchAgent(side, seed, preset, DEFAULT_THINK if chosen is None else chosen)
    if kind == "random":
        return RandomAgent(seed * 1_000_003 + salt)
    if kind == "scripted":
        factory = capability(get_ruleset(ruleset), "scripted")
        agent: Agent = factory(side, seed)
        return agent
    raise UmpireError(f"unknown agent {kind!r}; choose human, {', '.join(AGENT_KINDS)}")
