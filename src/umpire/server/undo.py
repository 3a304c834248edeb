"""Which actions undo may not take back when another party is in the game.

Undo replays the record, so an action taken back and played again draws the same dice and the
same cards: a player who fired, saw a 4 and undid would know the next die is a 4. Against the AI
(or any seat that is not this browser) undo therefore stops at the first action that touched
chance or a secret. An action does when, as it was played:

- the game's random stream moved (a die rolled, a deck shuffled, a random pick), or a draw pile
  got shorter (a card drawn from a deck shuffled earlier), found structurally on the state; or
- one of its events is a roll or a draw, carries dice or cards, reveals something (its kind
  starts with ``reveal``), or is a secret told to a side other than the one that acted (a side
  told its own secret, e.g. where its hidden unit went, learns nothing new).

A hot-seat game (every side played from this one browser) keeps full undo, as does
:meth:`umpire.core.game.Game.branch` for analysis.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from umpire.core.deck import Deck
from umpire.core.events import Event
from umpire.core.rng import RandomStream

CHANCE_KINDS = frozenset({"roll", "draw", "deal", "shuffle"})
CHANCE_KEYS = ("dice", "faces", "card", "cards")
PILE_KEYS = ("deck", "pile", "draw_pile")


def _fields(obj: Any) -> Iterator[Any]:
    """The values an object holds one level down (dataclass fields, attributes, mapping values)."""
    if isinstance(obj, Mapping):
        yield from obj.values()
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield getattr(obj, f.name, None)
    elif hasattr(obj, "__dict__"):
        yield from vars(obj).values()


def _stream_shaped(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"seed", "state"}


def chance_mark(state: Any) -> tuple[Any, ...]:
    """A fingerprint of the state's chance: every random stream's position and every draw
    pile's length, two levels down from the state. Equal before and after an action: it drew
    nothing."""
    marks: list[Any] = []
    for value in _fields(state):
        for item in (value, *(_fields(value) if isinstance(value, Mapping) else ())):
            if isinstance(item, RandomStream):
                marks.append(hash(tuple(item.to_dict()["state"][1])))
            elif _stream_shaped(item):
                marks.append(hash(repr(item["state"])))
            elif isinstance(item, Deck):
                marks.append(len(item.pile))
        if isinstance(value, Mapping):
            for key in PILE_KEYS:
                pile = value.get(key)
                if isinstance(pile, list):
                    marks.append(len(pile))
    return tuple(marks)


def chance_reason(events: Iterable[Event], actor: str | None) -> str | None:
    """Why these events of an action ``actor`` played touch chance or a secret (``None``:
    they do not)."""
    for event in events:
        if event.kind in CHANCE_KINDS:
            return f"{event.kind}: {event.text}"
        if event.kind.startswith("reveal"):
            return f"a reveal: {event.text}"
        if event.visible_to is not None and not event.visible_to <= {actor}:
            return "a secret was told"
        if any(key in event.data for key in CHANCE_KEYS):
            return f"dice or cards: {event.text}"
    return None


def action_reason(
    before: tuple[Any, ...], after: tuple[Any, ...], events: Sequence[Event], actor: str | None
) -> str | None:
    """Why one action ``actor`` played from ``before`` to ``after`` with ``events`` touched
    chance or a secret, or ``None``."""
    found = chance_reason(events, actor)
    if found is not None:
        return found
    if before != after:
        return "the dice or the cards moved"
    return None
