"""Holding an agent to the book: where a game puts rules under ``advise`` its menus also offer
what those rules forbid, for the players at a table to judge, but a built-in agent chooses only
among the actions every rule allows (:func:`held_to_the_book`).

Its own module so that both :mod:`umpire.agents.base` (``make_agent``) and the search player
(:mod:`umpire.agents.search.agent`, whose rollout players are held to the book too) import it
without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from umpire.core.actions import Action, LazyActionList
from umpire.core.switches import book_only
from umpire.core.view import Agent, View

__all__ = ["BookActions", "held_to_the_book"]

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
