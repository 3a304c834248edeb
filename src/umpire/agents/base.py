"""The ruleset-agnostic random agent and ``make_agent``; the agent contract and the ``View`` an
agent is handed live in :mod:`umpire.core.view` (re-exported here).

Every built-in agent is held to the book (:func:`held_to_the_book`, applied by ``make_agent``):
where a game puts rules under ``advise`` its menus also offer what those rules forbid, for the
players at a table to judge, but an agent chooses only among the actions every rule allows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from umpire.agents.book import BookActions, held_to_the_book
from umpire.core.actions import Action
from umpire.core.errors import UmpireError
from umpire.core.ruleset import capability, get_ruleset
from umpire.core.view import Agent, View

__all__ = [
    "AGENT_KINDS",
    "Agent",
    "BookActions",
    "RandomAgent",
    "View",
    "held_to_the_book",
    "make_agent",
]


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
    ``search[:PRESET][+MODE][@SECONDS]`` (the search player: a personality preset, ``tree`` or
    ``improve``, and its think time; ``think`` sets the time when the spec does not, default
    1 s; without a mode, the ruleset's default, ``search.agent.default_mode``); held to the
    book (:func:`held_to_the_book`)."""
    return held_to_the_book(_make_agent(kind, ruleset, side, seed, think))


def _make_agent(kind: str, ruleset: str, side: str, seed: int, think: float | None) -> Agent:
    salt = sum(ord(c) for c in side) * 7919
    if kind == "search" or kind.startswith(("search:", "search@")):
        from umpire.agents.search import DEFAULT_THINK, SearchAgent
        from umpire.agents.search.agent import default_mode, parse_search_spec, settings_for
        from umpire.agents.search.support import why_not_searchable

        spec = parse_search_spec(kind)
        refused = why_not_searchable(get_ruleset(ruleset))
        if refused:
            raise UmpireError(refused)
        chosen = spec.think if spec.think is not None else think
        mode = spec.mode or default_mode(ruleset, spec.preset)
        return SearchAgent(
            side,
            seed,
            spec.preset,
            DEFAULT_THINK if chosen is None else chosen,
            settings=settings_for(ruleset, mode),
        )
    if kind == "random":
        return RandomAgent(seed * 1_000_003 + salt)
    if kind == "scripted":
        factory = capability(get_ruleset(ruleset), "scripted")
        agent: Agent = factory(side, seed)
        return agent
    raise UmpireError(f"unknown agent {kind!r}; choose human, {', '.join(AGENT_KINDS)}")
