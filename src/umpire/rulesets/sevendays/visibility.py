"""Who may read an event about a unit (sevendays.scenario.hidden_deployment).

An event about a hidden unit is made, where it is made, visible to its owner only, with a
public stand-in that names the marker the enemy sees and nothing else. Views, logs and replays
then filter with :func:`umpire.core.events.seen_by`; nothing reads event texts to decide.
"""

from __future__ import annotations

from operator import attrgetter, is_not
from typing import Any, cast

from umpire.core.events import Event, note
from umpire.rulesets.sevendays.state import UNIT_FIELDS, Unit, WriteCursor


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


# the key in a records memo of the table as last read (no uid starts with a NUL)
_LAST = "\x00last"


class _Read:
    """The units of one table as last read: the Unit objects in table order, where each is
    (by ``id``), their field values and records, the places of the hidden ones, and the
    reader's place in the log of writes (``state.WRITES``)."""

    __slots__ = ("cursor", "units", "where", "values", "records", "hidden")

    def __init__(self, units: list[Unit], memo: Records) -> None:
        self.cursor = WriteCursor()  # before the units are read
        self.units = units
        self.where = {id(u): i for i, u in enumerate(units)}
        self.values = list(map(_UNIT_VALUES, units))
        self.records = [_record(values, memo) for values in self.values]
        self.hidden = {i for i, u in enumerate(units) if u.hidden}

    def catch_up(self, memo: Records) -> None:
        """Read again the units written to since the last reading."""
        written = self.cursor.since()
        if not written:
            return
        where = self.where
        # ids of live objects are unique, and the log and ``units`` hold theirs alive: a
        # written unit whose id is in ``where`` is that unit of this table
        changed = {where[n] for n in map(id, written) if n in where}
        units, values, records, hidden = self.units, self.values, self.records, self.hidden
        for i in changed:
            now = _UNIT_VALUES(units[i])
            if now != values[i]:
                values[i] = now
                records[i] = _record(now, memo)
                if units[i].hidden:
                    hidden.add(i)
                else:
                    hidden.discard(i)


def _read(units: dict[str, Unit], memo: Records) -> _Read:
    """The table's units as read now, from the last reading brought up to date when it is of
    the same Unit objects in the same order and its place in the log of writes still holds."""
    now = list(units.values())
    last = cast("_Read | None", memo.get(_LAST))
    if (
        last is not None
        and last.cursor.holds()
        and len(last.units) == len(now)
        and not any(map(is_not, now, last.units))
    ):
        last.catch_up(memo)
        return last
    read = _Read(now, memo)
    memo[_LAST] = cast("tuple[tuple[Any, ...], dict[str, Any]]", read)
    return read


def observed_units(units: dict[str, Unit], player: str, memo: Records) -> list[dict[str, Any]]:
    """The unit records ``player`` may read: every unit but the enemy's hidden ones as its
    full record (a rider of a hidden transport names the transport's marker instead), then
    the enemy's hidden units as their markers only (side and place), sorted by marker.

    Unchanged units' records come from ``memo`` (see :func:`unit_record`); only the units
    written to since the last reading are read again (see ``state.WriteLog``)."""
    read = _read(units, memo)
    table = read.units
    secret = {u.uid: u.marker for u in (table[i] for i in sorted(read.hidden)) if u.side != player}
    if not secret:
        return list(read.records)
    out = []
    markers: list[dict[str, Any]] = []
    for u, record in zip(table, read.records, strict=True):
        if u.uid in secret:
            markers.append({"marker": u.marker, "side": u.side, "x": u.x, "y": u.y, "hidden": True})
            continue
        if u.carried_by in secret:
            record = {**record, "carried_by": secret[u.carried_by]}
        out.append(record)
    markers.sort(key=lambda m: str(m["marker"]))
    return out + markers
