"""What an agent is given, and the agent contract.

An agent decides from what its side may know and nothing else: it is handed a :class:`View`
(its side, that side's observation, the events as that side read them, and the ruleset for its
public static data) and the legal actions, never the game state. A scripted player that wants
the table's terrain or a unit's profile reads them from the ruleset's public data; a search
player that needs a full state asks the view for one: :meth:`View.determinise` returns a full
state consistent with the side's observation, what the side cannot see drawn afresh (the game
supplies it with ``ruleset.resample``; the agent never holds the game or its true state).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from umpire.core.actions import Action
from umpire.core.errors import UmpireError
from umpire.core.events import Event

if TYPE_CHECKING:
    from umpire.core.ruleset import Ruleset


class View:
    """What one side may know at a decision: built by :meth:`umpire.core.game.Game.view`.

    ``observation`` is computed on first use (a player that does not read it does not pay for
    it); ``log`` holds the events as this side read them."""

    __slots__ = (
        "ruleset",
        "side",
        "_observe",
        "_observation",
        "_read_log",
        "_log",
        "_determinise",
        "_legal",
        "advised",
    )

    def __init__(
        self,
        ruleset: Ruleset[Any],
        side: str,
        observe: Callable[[], Mapping[str, Any]],
        log: Callable[[], Sequence[Event]] = tuple,
        determinise: Callable[[random.Random], Any] | None = None,
        *,
        legal: Callable[[], Sequence[Action]] | None = None,
        advised: bool = False,
    ) -> None:
        self.ruleset = ruleset
        self.side = side
        self._observe = observe
        self._observation: Mapping[str, Any] | None = None
        self._read_log = log
        self._log: Sequence[Event] | None = None
        self._determinise = determinise
        self._legal = legal
        # whether the game puts some rule under ``advise``: its menu may then offer actions
        # the book forbids, which a built-in agent is not offered (``legal_actions``)
        self.advised = advised

    @property
    def log(self) -> Sequence[Event]:
        if self._log is None:
            self._log = self._read_log()
        return self._log

    @property
    def observation(self) -> Mapping[str, Any]:
        if self._observation is None:
            self._observation = self._observe()
        return self._observation

    @property
    def can_determinise(self) -> bool:
        return self._determinise is not None

    def determinise(self, rng: random.Random) -> Any:
        """A full state (the ruleset's own ``S``) for search: what this side sees kept as it
        is, what it cannot see (hidden units, the enemy's cards and secret choices, the dice
        to come) drawn afresh from ``rng`` (``ruleset.resample``). The agent may play on it
        freely; it is never the game's true state. Raises if the view was built without
        one (a view over a bare observation)."""
        if self._determinise is None:
            raise UmpireError(f"this view of {self.side} cannot be determinised")
        return self._determinise(rng)

    def legal_actions(self, book_only: bool = True) -> list[Action]:
        """The side's legal actions now. ``book_only`` (the default, what agents are offered):
        only those every rule allows, rules under ``advise`` read as ``enforce`` (see
        :func:`umpire.core.switches.book_only`); False: the menu a person is shown, with the
        actions a rule under ``advise`` forbids. Raises if the view was built without them."""
        if self._legal is None:
            raise UmpireError(f"this view of {self.side} does not list the legal actions")
        if not (book_only and self.advised):
            return list(self._legal())
        from umpire.core.switches import book_only as held

        with held():
            return list(self._legal())


class Agent(Protocol):
    """Chooses one of the legal actions; ``last_reason`` explains the latest choice."""

    name: str
    last_reason: str

    def choose(self, view: View, legal: Sequence[Action]) -> Action: ...
