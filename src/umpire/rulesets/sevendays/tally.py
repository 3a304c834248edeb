"""Units by status, kept up to date from the log of writes (issue 19: no scan of every unit
after every action).

The rules ask after each action which units have left the table (victory.check_break), which
are doomed (cards.offer_rescue), which ride in a transport (transport.passengers, bail_out)
and which of a side may react (reactions.reactors). A unit's status and carrier change
rarely; its other fields (tokens, markers, place) change all the time. A :class:`Tally` keeps
the units of one table grouped by (status, side) and by carrier, in table order, and its place
in ``state.WRITES`` (see ``state.WriteLog``): when asked again it reads only the units
written to since, and lists the table again only when one of them changed status or carrier
(or the table itself changed: another dict, a unit added, the log started a new list).

Every answer is the one a scan of ``state.units`` in table order gives (tests/sevendays/
test_tally.py compares them along whole games).
"""

from __future__ import annotations

from collections.abc import Iterable

from umpire.rulesets.sevendays.state import SevenDaysState, Unit, WriteCursor

Key = tuple[str, str]  # (status, side)


class Tally:
    """The units of one table by (status, side) and by carrier, as of a place in the log."""

    __slots__ = ("units", "size", "cursor", "known", "groups", "riders")

    def __init__(self, state: SevenDaysState) -> None:
        self.cursor = WriteCursor()  # before the units are read
        units = self.units = state.units
        self.size = len(units)
        known: dict[int, tuple[str, str | None]] = {}
        groups: dict[Key, list[Unit]] = {}
        riders: dict[str, list[Unit]] = {}
        for u in units.values():
            status, carrier = u.status, u.carried_by
            known[id(u)] = (status, carrier)
            key = (status, u.side)
            group = groups.get(key)
            if group is None:
                groups[key] = [u]
            else:
                group.append(u)
            if carrier is not None:
                riders.setdefault(carrier, []).append(u)
        self.known = known
        self.groups = groups
        self.riders = riders

    def current(self, state: SevenDaysState) -> bool:
        """Whether this tally still answers for ``state``'s units (reading the writes since
        the last reading); False when the table must be listed again."""
        units = state.units
        if units is not self.units or len(units) != self.size or not self.cursor.holds():
            return False
        known = self.known
        # ids of live objects are unique, and this tally holds its units alive: a written
        # unit whose id it knows is that unit of this table
        for u in self.cursor.since():  # (a tally found stale is made again, not read on)
            was = known.get(id(u))
            if was is None:
                if units.get(u.uid) is u:
                    return False  # a new unit in the table under an old uid
            elif was != (u.status, u.carried_by):
                return False
        return True

    def with_status(self, status: str, side: str | None = None) -> list[Unit]:
        """The units with ``status`` (of ``side``, else of both), in table order (a new list)."""
        if side is not None:
            return list(self.groups.get((status, side), ()))
        found = [g for (s, _), g in self.groups.items() if s == status]
        if len(found) <= 1:
            return list(found[0]) if found else []
        order = {uid: n for n, uid in enumerate(self.units)}
        return sorted((u for g in found for u in g), key=lambda u: order[u.uid])

    def count(self, statuses: Iterable[str]) -> int:
        """How many units have one of ``statuses``."""
        wanted = set(statuses)
        return sum(len(g) for (s, _), g in self.groups.items() if s in wanted)

    def carried_by(self, carrier: str) -> list[Unit]:
        """The units whose ``carried_by`` is ``carrier``, in table order (a new list)."""
        return list(self.riders.get(carrier, ()))


def tally(state: SevenDaysState) -> Tally:
    """``state``'s tally, brought up to date (made again when it no longer holds)."""
    found = state.tally_memo
    if not isinstance(found, Tally) or not found.current(state):
        found = state.tally_memo = Tally(state)
    return found


# The functions below answer from the tally from the second question about a state on: a
# state asked only once (a player's picture of the table, made afresh for one decision) is
# scanned, which costs less than making its tally.


def _kept(state: SevenDaysState) -> Tally | None:
    found = state.tally_memo
    if found is None:
        state.tally_memo = 1  # asked once: the next question makes the tally
        return None
    return tally(state)


def with_status(state: SevenDaysState, status: str, side: str | None = None) -> list[Unit]:
    """The units of ``state`` with ``status`` (of ``side``, else of both), in table order."""
    kept = _kept(state)
    if kept is not None:
        return kept.with_status(status, side)
    if side is None:
        return [u for u in state.units.values() if u.status == status]
    return [u for u in state.units.values() if u.status == status and u.side == side]


def count(state: SevenDaysState, statuses: frozenset[str]) -> int:
    """How many units of ``state`` have one of ``statuses``."""
    kept = _kept(state)
    if kept is not None:
        return kept.count(statuses)
    return sum(1 for u in state.units.values() if u.status in statuses)


def carried_by(state: SevenDaysState, carrier: str) -> list[Unit]:
    """The units of ``state`` whose ``carried_by`` is ``carrier``, in table order."""
    kept = _kept(state)
    if kept is not None:
        return kept.carried_by(carrier)
    return [u for u in state.units.values() if u.carried_by == carrier]
