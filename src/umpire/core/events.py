"""Events: what happened, as typed immutable values that carry who may see them.

Every roll is an event carrying the dice, the result, the number it needed and the id of the rule
that asked for it, so a player can always ask "why?" and a replay can be compared event by event.

Visibility is structural: an event made about something only one side may know is created with
``visible_to`` naming the sides that may read it, and optionally a ``public`` stand-in that the
others read instead (``"a marker moves"`` for a hidden unit's move). Views, logs, replays and
agents filter with :func:`seen_by`; nothing downstream reads an event's text to decide what a side
may know.

An :class:`Event` is also a read-only mapping (``event["kind"]``, ``event.get("dice")``), so the
JSON form and the Python form read alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

_RESERVED = frozenset({"kind", "text", "rule", "visible_to"})


class Event(Mapping[str, Any]):
    """One thing that happened: ``kind``, readable ``text``, the ``rule`` behind it, any data,
    and who may see it (``visible_to``: ``None`` for everyone, else the sides that may)."""

    __slots__ = ("kind", "text", "rule", "data", "visible_to", "public", "_flat")

    kind: str
    text: str
    rule: str | None
    data: Mapping[str, Any]
    visible_to: frozenset[str] | None
    public: Event | None
    _flat: dict[str, Any] | None

    def __init__(
        self,
        kind: str,
        text: str,
        rule: str | None = None,
        *,
        visible_to: Iterable[str] | None = None,
        public: Event | None = None,
        **data: Any,
    ) -> None:
        if data and not _RESERVED.isdisjoint(data):
            bad = _RESERVED & data.keys()
            raise ValueError(f"event data may not use the reserved key(s) {sorted(bad)}")
        # each slot set through its own setter (object.__setattr__ looks the name up first):
        # a game makes hundreds of events (tests/core/test_events.py reads them back)
        _SET_KIND(self, kind)
        _SET_TEXT(self, text)
        _SET_RULE(self, rule)
        _SET_DATA(self, MappingProxyType(data))
        _SET_VISIBLE_TO(self, None if visible_to is None else frozenset(visible_to))
        _SET_PUBLIC(self, public)
        _SET_FLAT(self, None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("events are immutable; make a new one with restricted()")

    # -- visibility ------------------------------------------------------------------------
    def visible(self, side: str | None) -> bool:
        """Whether ``side`` may read this event as it is (``None``: the umpire, who sees all)."""
        return side is None or self.visible_to is None or side in self.visible_to

    def seen_by(self, side: str | None) -> Event | None:
        """What ``side`` reads of this event: itself, its public stand-in, or nothing."""
        if self.visible(side):
            return self
        if self.public is not None:
            return self.public.seen_by(side)
        return None

    def restricted(self, sides: Iterable[str], public: Event | None = None) -> Event:
        """This event made visible to ``sides`` only (narrowing any earlier restriction), with
        ``public`` as what the others read."""
        allowed = frozenset(sides)
        if self.visible_to is not None:
            allowed &= self.visible_to
        return Event(
            self.kind,
            self.text,
            self.rule,
            visible_to=allowed,
            public=public if public is not None else self.public,
            **self.data,
        )

    # -- plain data ------------------------------------------------------------------------
    def _mapping(self) -> dict[str, Any]:
        flat: dict[str, Any] | None = self._flat
        if flat is None:
            flat = {"kind": self.kind, "text": self.text}
            if self.rule is not None:
                flat["rule"] = self.rule
            flat.update(self.data)
            if self.visible_to is not None:
                flat["visible_to"] = sorted(self.visible_to)
            object.__setattr__(self, "_flat", flat)
        return flat

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: kind, text, rule, the data, and ``visible_to`` when restricted (the
        public stand-in is not part of it: a side's log holds what it read)."""
        return dict(self._mapping())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        rest = {k: v for k, v in data.items() if k not in _RESERVED}
        return cls(
            str(data["kind"]),
            str(data.get("text", "")),
            data.get("rule"),
            visible_to=data.get("visible_to"),
            **rest,
        )

    def __getitem__(self, key: str) -> Any:
        return self._mapping()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._mapping())

    def __len__(self) -> int:
        return len(self._mapping())

    def __repr__(self) -> str:
        return f"Event({self._mapping()!r})"

    def __hash__(self) -> int:
        return hash((self.kind, self.text, self.rule))

    def __reduce__(self) -> tuple[Any, ...]:
        fields = (self.kind, self.text, self.rule, self.visible_to, self.public, dict(self.data))
        return (_rebuild, fields)


def _slot_setter(name: str) -> Callable[[Event, Any], None]:
    """The setter of one of Event's slots (it bypasses Event.__setattr__, which refuses)."""
    setter: Callable[[Event, Any], None] = vars(Event)[name].__set__
    return setter


_SET_KIND = _slot_setter("kind")
_SET_TEXT = _slot_setter("text")
_SET_RULE = _slot_setter("rule")
_SET_DATA = _slot_setter("data")
_SET_VISIBLE_TO = _slot_setter("visible_to")
_SET_PUBLIC = _slot_setter("public")
_SET_FLAT = _slot_setter("_flat")


def _rebuild(
    kind: str,
    text: str,
    rule: str | None,
    visible_to: frozenset[str] | None,
    public: Event | None,
    data: Mapping[str, Any],
) -> Event:
    return Event(kind, text, rule, visible_to=visible_to, public=public, **data)


def note(
    kind: str,
    text: str,
    rule: str | None = None,
    *,
    visible_to: Iterable[str] | None = None,
    public: Event | None = None,
    **data: Any,
) -> Event:
    """A non-random event (a move, a marker placed, a unit removed...)."""
    return Event(kind, text, rule, visible_to=visible_to, public=public, **data)


def roll(
    rule: str,
    text: str,
    dice: list[int],
    result: int,
    need: int | None,
    success: bool,
    *,
    visible_to: Iterable[str] | None = None,
    public: Event | None = None,
    **data: Any,
) -> Event:
    """A die roll: the dice, the result used, the target number and whether it succeeded."""
    return Event(
        "roll",
        text,
        rule,
        visible_to=visible_to,
        public=public,
        dice=dice,
        result=result,
        need=need,
        success=success,
        **data,
    )


def seen_by(events: Iterable[Event], side: str | None) -> list[Event]:
    """The events as ``side`` reads them (``None``: all of them, as the umpire sees them).

    This is the one filter every log, view, replay and agent uses."""
    if side is None:
        return list(events)
    out = []
    for event in events:
        seen = event.seen_by(side)
        if seen is not None:
            out.append(seen)
    return out


def as_event(item: Event | Mapping[str, Any]) -> Event:
    """An event from its JSON form (or itself)."""
    return item if isinstance(item, Event) else Event.from_dict(item)


def to_dicts(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]
