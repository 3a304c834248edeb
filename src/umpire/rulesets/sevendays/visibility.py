"""Who may read an event about a unit (sevendays.scenario.hidden_deployment).

An event about a hidden unit is made, where it is made, visible to its owner only, with a
public stand-in that names the marker the enemy sees and nothing else. Views, logs and replays
then filter with :func:`umpire.core.events.seen_by`; nothing reads event texts to decide.
"""

from __future__ import annotations

from itertools import compress
from operator import attrgetter, ne
from typing import Any, cast

from umpire.core.events import Event, note
from umpire.rulesets.sevendays.state import UNIT_FIELDS, Unit


def about(unit: Unit, event: Event, public: str | None = None) -> Event:
    """``event`` as made about ``unit``: as it is when the unit is in the open; for its owner
    only while it is a hidden marker, the others reading ``public`` (a sentence naming only
    the marker) or nothing."""
    if not unit.hidden:
        return event
    stand_in = None
    if public is not None:
        stand_in = note(event.kind, public, event.rule, marker=unit.marker)
    return event.restricted((unit.side,), public=stand_in)


def label(unit: Unit) -> str:
    """How the enemy names ``unit``: its marker while hidden, else its name."""
    return str(unit.marker) if unit.hidden else unit.name


_UNIT_VALUES = attrgetter(*UNIT_FIELDS)  # UNIT_FIELDS[0] is the uid
Records = dict[str, tuple[tuple[Any, ...], dict[str, Any]]]


def unit_record(unit: Unit, memo: Records) -> dict[str, Any]:
    """``unit``'s full record (every field, as ``to_dict`` writes it), made again only when one
    of its fields has changed since ``memo`` last saw it. The record is shared by every
    observation that shows the unit unchanged: readers must not change it."""
    values = _UNIT_VALUES(unit)
    known = memo.get(values[0])  # the uid
    if known is not None and known[0] == values:
        return known[1]
    record = dict(zip(UNIT_FIELDS, values, strict=True))
    memo[values[0]] = (values, record)
    return record


def _record(values: tuple[Any, ...], memo: Records) -> dict[str, Any]:
    """``unit_record`` from the unit's field values."""
    known = memo.get(values[0])
    if known is None or known[0] != values:
        known = memo[values[0]] = (values, dict(zip(UNIT_FIELDS, values, strict=True)))
    return known[1]


# the key in a records memo of the last answer with no hidden enemy unit (no uid starts with a NUL)
_LAST = "\x00last"


def observed_units(units: dict[str, Unit], player: str, memo: Records) -> list[dict[str, Any]]:
    """The unit records ``player`` may read: every unit but the enemy's hidden ones as its
    full record (a rider of a hidden transport names the transport's marker instead), then
    the enemy's hidden units as their markers only (side and place), sorted by marker.

    Unchanged units' records come from ``memo`` (see :func:`unit_record`)."""
    secret: dict[str, str | None] = {}
    markers: list[dict[str, Any]] = []
    for u in units.values():
        if u.hidden and u.side != player:
            secret[u.uid] = u.marker
            markers.append({"marker": u.marker, "side": u.side, "x": u.x, "y": u.y, "hidden": True})
    if not secret:
        every = list(map(_UNIT_VALUES, units.values()))
        last = cast("tuple[list[tuple[Any, ...]], list[dict[str, Any]]] | None", memo.get(_LAST))
        if last is not None and len(last[0]) == len(every):
            # the last full answer, with only the units whose fields changed made again
            out = list(last[1])
            for i in compress(range(len(every)), map(ne, every, last[0])):
                out[i] = _record(every[i], memo)
        else:
            out = [_record(values, memo) for values in every]
        memo[_LAST] = cast("tuple[tuple[Any, ...], dict[str, Any]]", (every, out))
        return list(out)
    out = []
    for u in units.values():
        if u.uid in secret:
            continue
        record = unit_record(u, memo)
        if u.carried_by in secret:
            record = {**record, "carried_by": secret[u.carried_by]}
        out.append(record)
    markers.sort(key=lambda m: str(m["marker"]))
    return out + markers
