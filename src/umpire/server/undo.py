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
from functools import lru_cache
from typing import Any

from umpire.core.deck import Deck
from umpire.core.events import Event
from umpire.core.rng import RandomStream

CHANCE_KINDS = frozenset({"roll", "draw", "deal", "shuffle"})
CHANCE_KEYS = ("dice", "faces", "card", "cards")
PILE_KEYS = ("deck", "pile", "draw_pile")


# values of these exact types hold no stream, deck or pile: skipped without further checks
# (the web table marks the state before and after every action; issue 19)
_PLAIN = frozenset({str, int, float, bool, type(None), tuple, list, frozenset, set, bytes})


def _fields(obj: Any) -> Iterator[Any]:
    """The values an object holds one level down (dataclass fields, attributes, mapping values)."""
    if isinstance(obj, Mapping):
        yield from obj.values()
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for name in _field_names(type(obj)):
            yield getattr(obj, name, None)
    elif hasattr(obj, "__dict__"):
        yield from vars(obj).values()


@lru_cache(maxsize=256)
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def _stream_shaped(value: Any) -> bool:
    if type(value) is dict:  # a dict's keys are distinct: the set test without the set
        return len(value) == 2 and "seed" in value and "state" in value
    return isinstance(value, Mapping) and set(value) == {"seed", "state"}


# types met so far whose values can be neither a stream, a saved stream nor a deck (a unit's
# record, a flow state...): skipped at once from then on
_OPAQUE: set[type] = set()


def _item_mark(item: Any, marks: list[Any]) -> None:
    """Add ``item``'s mark, if it is a stream (live or saved) or a deck."""
    kind = type(item)
    if kind in _PLAIN or kind in _OPAQUE:
        return
    if not issubclass(kind, (RandomStream, Mapping, Deck)):
        _OPAQUE.add(kind)
        return
    if kind is RandomStream:  # its position, as to_dict()["state"][1] gives it, hashed
        marks.append(hash(item._rng.getstate()[1]))
    elif isinstance(item, RandomStream):  # a subclass: through its own to_dict
        marks.append(hash(tuple(item.to_dict()["state"][1])))
    elif _stream_shaped(item):
        marks.append(hash(repr(item["state"])))
    elif isinstance(item, Deck):
        marks.append(len(item.pile))


def chance_mark(state: Any) -> tuple[Any, ...]:
    """A fingerprint of the state's chance: every random stream's position and every draw
    pile's length, two levels down from the state. Equal before and after an action: it drew
    nothing."""
    marks: list[Any] = []
    for value in _fields(state):
        _item_mark(value, marks)
        kind = type(value)
        if kind in _PLAIN or kind in _OPAQUE or not isinstance(value, Mapping):
            continue
        for item in value.values():
            kind = type(item)
            if kind not in _PLAIN and kind not in _OPAQUE:  # most are one or the other
                _item_mark(item, marks)
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
