"""The ruleset-agnostic random agent and ``make_agent``; the agent contract and the ``View`` an
agent is handed live in :mod:`umpire.core.view` (re-exported here).

Every built-in agent is held to the book (:func:`held_to_the_book`, applied by ``make_agent``):
where a game puts rules under ``advise`` its menus also offer what those rules forbid, for the
players at a table to judge, but an agent chooses only among the actions every rule allows.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from umpire.core.actions import Action, LazyActionList
from umpire.core.errors import UmpireError
from umpire.core.ruleset import capability, get_ruleset
from umpire.core.switches import book_only
from umpire.core.view import Agent, View

__all__ = ["AGENT_KINDS", "Agent", "RandomAgent", "View", "held_to_the_book", "make_agent"]

A = TypeVar("A", bound=Agent)


class BookActions(LazyActionList):
    """The actions an agent is offered when the game advises on rules: those of ``legal``
    that every rule allows, in the book's order, listed on first use (a scripted player that
    knows what it wants need not pay for them). ``legal`` as a list or tuple is the menu it
    was given; otherwise (the game's own lazy listing) the view's book-only list is used as
    it is."""

    def __init__(self, view: View, legal: Sequence[Action]) -> None:
        super().__init__(self._book)
        self._view = view
        self._legal = legal

    def _book(self) -> list[Action]:
        book = self._view.legal_actions(book_only=True)
        if isinstance(self._legal, list | tuple):
            offered = set(self._legal)
            book = [a for a in book if a in offered]
        if not book:
            # the players' advised actions took the game where the book offers this side
            # nothing (a phase the book would have ended): it plays on from the menu
            book = list(self._legal)
        return book


def held_to_the_book(agent: A) -> A:
    """``agent``, choosing only among the actions every rule allows: when the game puts some
    rule under ``advise`` (``view.advised``) its ``choose`` is handed the book's actions and
    runs inside :func:`umpire.core.switches.book_only`, so whatever it lists or searches
    itself (a search player's playouts, a scripted player's own options) is the book's too.
    Rules switched ``off`` stay off. The same object is returned (its type unchanged)."""
    if getattr(agent, "_held_to_the_book", False):
        return agent
    inner: Callable[[View, Sequence[Action]], Action] = agent.choose

    def choose(view: View, legal: Sequence[Action]) -> Action:
        if not view.advised:
            return inner(view, legal)
        with book_only():
            return inner(view, BookActions(view, legal))

    agent.choose = choose  # type: ignore[method-assign]
    agent._held_to_the_book = True  # type: ignore[attr-defined]
    return agent


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
    ``think`` sets the time when the spec does not, default 1 s); held to the book
    (:func:`held_to_the_book`)."""
    return held_to_the_book(_make_agent(kind, ruleset, side, seed, think))


def _make_agent(kind: str, ruleset: str, side: str, seed: int, think: float | None) -> Agent:
    salt = sum(ord(c) for c in side) * 7919
    if kind == "search" or kind.startswith(("search:", "search@")):
        from umpire.agents.search import DEFAULT_THINK, SearchAgent, parse_spec
        from umpire.agents.search.support import why_not_searchable

        preset, seconds = parse_spec(kind)
        refused = why_not_searchable(get_ruleset(ruleset))
        if refused:
            raise UmpireError(refused)
        chosen = seconds if seconds is not None else think
        return SearchAgent(side, seed, preset, DEFAULT_THINK if chosen is None else chosen)
    if kind == "random":
        return RandomAgent(seed * 1_000_003 + salt)
    if kind == "scripted":
        factory = capability(get_ruleset(ruleset), "scripted")
        agent: Agent = factory(side, seed)
        return agent
    raise UmpireError(f"unknown agent {kind!r}; choose human, {', '.join(AGENT_KINDS)}")
