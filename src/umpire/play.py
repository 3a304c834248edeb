"""Running a game between players (agents or people) and summarising it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, overload

from umpire.agents.base import Agent
from umpire.core.actions import Action
from umpire.core.events import Event
from umpire.core.game import Game

EventSink = Callable[[Event], None]


class LazyActions(Sequence[Action]):
    """The legal actions, enumerated only if a player looks at them (a scripted player that
    knows what it wants need not pay for the full list; ``apply`` validates its choice)."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self._items: list[Action] | None = None

    def _list(self) -> list[Action]:
        if self._items is None:
            self._items = self._game.legal_actions()
        return self._items

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._list()[index]

    def __len__(self) -> int:
        return len(self._list())


def play_out(
    game: Game,
    players: Mapping[str, Agent],
    on_event: EventSink | None = None,
    max_actions: int = 100_000,
) -> Game:
    """Let the players decide until the game ends; ``on_event`` sees every event as it happens."""
    if on_event is not None:
        for event in game.events:
            on_event(event)
    for _ in range(max_actions):
        side = game.to_act
        if side is None:
            break
        legal = LazyActions(game)
        action = players[side].choose(game.view(side), legal)
        for event in game.apply(action):
            if on_event is not None:
                on_event(event)
    return game


def summary(game: Game) -> dict[str, Any]:
    """The battle summary printed by ``--json`` and stored in records."""
    outcome = game.outcome
    details = game.ruleset.summary(game.state)
    return {
        "ruleset": game.record.ruleset,
        "version": game.record.version,
        "scenario": game.record.scenario,
        "seed": game.record.seed,
        "winner": outcome.winner if outcome else None,
        "how": outcome.how if outcome else None,
        "turns": details.pop("turns"),
        "events": len(game.events),
        "actions": len(game.record.actions),
        **details,
    }
