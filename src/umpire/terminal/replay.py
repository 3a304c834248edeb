"""``umpire replay FILE``: a saved game's log, with the search player's "why" of each move.

The events come from replaying the record (the notes are never read to replay it, so the
events are the same with or without them). Each kept why (``Record.notes``) is shown just
before the events of its move, as the terminal log showed it when the game was played, and
only where the reader may read it (``Record.why_shown``): the umpire's full replay shows every
why; a replay as one side saw it shows that side's own, and another side's only when the game's
setting (``Record.why_public``) lets it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from umpire.core.events import Event
from umpire.core.game import Game

EventSink = Callable[[Event], None]


def why_event(note: Mapping[str, Any]) -> Event:
    """A kept why as the log prints it (already checked as readable by whoever reads on)."""
    return Event("ai_reason", str(note["text"]), side=str(note["side"]))


def show_replay(game: Game, printer: EventSink, viewer: str | None, whys: bool = True) -> int:
    """Give ``printer`` the replayed ``game``'s events action by action, each move's readable
    why first (unless ``whys`` is off); the number of whys shown."""
    record, information = game.record, game.ruleset.meta.information
    marks = [*game._event_marks, len(game.events)]  # where each action's events begin
    for event in game.events[: marks[0]]:  # the setup
        printer(event)
    shown = 0
    for index in range(len(record.actions)):
        if whys and record.why_shown(index, viewer, information):
            printer(why_event(record.notes[index]))
            shown += 1
        for event in game.events[marks[index] : marks[index + 1]]:
            printer(event)
    return shown
