"""Running a game between players (agents or people) and summarising it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from umpire.agents.base import Agent
from umpire.core.actions import LazyActionList
from umpire.core.collector import quiet_collector
from umpire.core.events import Event
from umpire.core.game import Game

EventSink = Callable[[Event], None]


class LazyActions(LazyActionList):
    """The game's legal actions, listed only if a player looks at them."""

    def __init__(self, game: Game) -> None:
        super().__init__(game.legal_actions)


UNFINISHED = "unfinished"  # the winner of a game stopped before its rules ended it
ACTION_CAP = "action cap"  # how: it reached ``ruleset.meta.max_actions``
NOT_FINISHED = "not finished"  # how: it was stopped (or saved) before the end


def action_cap(game: Game) -> int:
    """The most actions ``game`` may take (``ruleset.meta.max_actions``)."""
    return int(game.ruleset.meta.max_actions)


def capped(game: Game) -> bool:
    """Whether ``game`` stopped without an outcome because it reached its action cap."""
    return len(game.record.actions) >= action_cap(game) and game.outcome is None


def result(game: Game) -> tuple[str, str] | None:
    """``(winner, how)`` of a finished game, ``("unfinished", "action cap")`` of one stopped by
    the cap, ``None`` while it may still go on."""
    outcome = game.outcome
    if outcome is not None:
        return outcome.winner, outcome.how
    if capped(game):
        return UNFINISHED, ACTION_CAP
    return None


def play_out(
    game: Game,
    players: Mapping[str, Agent],
    on_event: EventSink | None = None,
    max_actions: int | None = None,
) -> Game:
    """Let the players decide until the game ends or reaches its action cap
    (``ruleset.meta.max_actions``, or ``max_actions`` if smaller); ``on_event`` sees every
    event as it happens. A game stopped by the cap is reported as ``unfinished``."""
    if on_event is not None:
        for event in game.events:
            on_event(event)
    limit = action_cap(game) if max_actions is None else min(max_actions, action_cap(game))
    # the collector quiet while the game is played (umpire.core.collector: same games)
    with quiet_collector():
        while len(game.record.actions) < limit:
            side = game.to_act
            if side is None:
                break
            legal = LazyActions(game)
            action = players[side].choose(game.view(side), legal)
            reason = getattr(players[side], "last_event", None)  # a search player's "why"
            if on_event is not None and isinstance(reason, Event):
                on_event(reason)  # visible to its side only: a printer for a person filters it
            if isinstance(reason, Event):  # and kept in the record next to the move
                from umpire.agents.search.explain import note_of

                game.record.keep_note(len(game.record.actions), note_of(reason))
            for event in game.apply(action):
                if on_event is not None:
                    on_event(event)
    return game


def summary(game: Game) -> dict[str, Any]:
    """The battle summary printed by ``--json`` and stored in records; a game without an
    outcome has winner ``"unfinished"`` and how ``"action cap"`` (or ``"not finished"`` when it
    was stopped before the cap)."""
    ended = result(game)
    winner, how = ended if ended is not None else (UNFINISHED, NOT_FINISHED)
    details = game.ruleset.summary(game.state)
    return {
        "ruleset": game.record.ruleset,
        "version": game.record.version,
        "scenario": game.record.scenario,
        "seed": game.record.seed,
        "winner": winner,
        "how": how,
        "turns": details.pop("turns"),
        "events": len(game.events),
        "actions": len(game.record.actions),
        **details,
    }
