"""A unit's moves as the engine remembers them: worked out by :mod:`rules` (the movement
search), kept for the position, and a unit's answers carried from position to position while
nothing they read has changed; the entry hexes of a reinforcement (rhine.reinf.entry)."""

from __future__ import annotations

from typing import Any

from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.model import World
from umpire.rulesets.rhine.position import ST, world


def entry_hexes(state: ST, unit: str) -> list[str] | None:
    if state.status[unit] != "waiting":
        return None
    w = world(state)
    return R.entry_hexes(w, R.occupancy(w, state), state.status, unit)


def unit_moves(
    state: ST,
    unit: str,
    paths: bool = False,
    route_to: str | None = None,
    modes: tuple[str, ...] = ("normal", "column"),
) -> list[R.MoveOption]:
    """A unit's moves, remembered until the next action changes the position (the searches
    themselves are remembered longer, by their inputs, in :mod:`rules`). With ``paths`` the
    route is walked to ``route_to`` only, or to every destination if it is ``None``."""
    if not paths:
        return [opt for answer in unit_answers(state, unit) for opt in answer]
    key = ("moves", unit, paths, route_to, modes)
    found = state.memo.get(key)
    if found is None:
        w = world(state)
        found = R.move_options(
            w,
            state,
            unit,
            state.flow.turn,
            entry_hexes(state, unit),
            paths,
            state.memo,
            route_to,
            modes,
        )
        state.memo[key] = found
    return list(found)


def unit_answers(state: ST, unit: str) -> tuple[tuple[R.MoveOption, ...], ...]:
    """A unit's moves as the remembered answers of :func:`rules.move_answers` (the same
    tuples while their inputs do not change); not to be mutated. A unit's answers are
    carried over from an earlier position while nothing they read can have changed (see
    :func:`_carried`)."""
    key = ("answers", unit)
    found = state.memo.get(key)
    if found is None:
        carried = _carried(state)
        kept = carried.get(unit)
        if kept is not None:
            found = kept.answers
        else:
            w = world(state)
            found = R.move_answers(
                w, state, unit, state.flow.turn, entry_hexes(state, unit), False, state.memo
            )
            start = state.pos.get(unit)
            info = w.units[unit]
            if start is not None and not info.heliborne and not info.static:
                searches = tuple(R.searched(state.memo, unit, m) for m in ("normal", "column"))
                carried[unit] = _Carried(found, start, searches)
        state.memo[key] = found
    assert isinstance(found, tuple)
    return found


class _Carried:
    """A unit's answers carried from position to position (see :func:`_carried`), with the
    searches they came from: the hexes those read are walked only if a later position asks."""

    __slots__ = ("answers", "start", "searches", "read")

    def __init__(
        self,
        answers: tuple[tuple[R.MoveOption, ...], ...],
        start: str,
        searches: tuple[tuple[Any, ...] | None, ...],
    ) -> None:
        self.answers = answers
        self.start = start
        self.searches = searches
        self.read: frozenset[str] | None = None

    def reads(self, w: World) -> frozenset[str]:
        """Every hex the unit's searches read (by either mode; a mode that listed nothing
        before searching read only the unit's own hex)."""
        if self.read is None:
            read = {self.start}
            for search in self.searches:
                read.update(R.footprint(w, search))
            self.read = frozenset(read)
        return self.read


def checked_answers(
    state: ST, unit: str, option: str | None = None
) -> tuple[tuple[R.MoveOption, ...], ...]:
    """The unit's answers for checking one move by ``option`` (its mode): the position's
    own if it was listed, else worked out for this unit alone and, for a ground unit, for
    the mode asked for alone (each mode's answer is worked out on its own, the same as in
    :func:`unit_answers`, which lists a ground unit's modes together; a move of one mode is
    found only in that mode's answer)."""
    memo = state.memo
    found = memo.get(("answers", unit))
    if found is None:
        modes = modes_for(option)
        key = ("answers", unit, modes)
        found = memo.get(key)
        if found is None:
            found = memo[key] = R.move_answers(
                world(state),
                state,
                unit,
                state.flow.turn,
                entry_hexes(state, unit),
                False,
                memo,
                None,
                modes,
            )
    assert isinstance(found, tuple)
    return found


def checked_listing(
    state: ST, unit: str, option: str | None
) -> tuple[bool, R.GroundListing | None]:
    """For checking a ground unit's move by ``option`` (normal or column) in a position
    where its answers were not listed: (True, its listing by that mode before the options
    are made, ``None`` if it lists nothing), the same listing :func:`checked_answers` makes
    its answer from. (False, None) otherwise: :func:`checked_answers` is read instead."""
    memo = state.memo
    if option not in ("normal", "column") or memo.get(("answers", unit)) is not None:
        return False, None
    w = world(state)
    info = w.units[unit]
    if info.static or info.heliborne:
        return False, None
    occ = memo.get("occ")
    if occ is None:
        occ = memo["occ"] = R.occupancy(w, state)
    entry = entry_hexes(state, unit)
    return True, R.ground_listing(w, state, unit, state.flow.turn, occ, option, entry, memo)


def _carried(state: ST) -> dict[str, Any]:
    """The units' move answers still valid in this position (worked out once per position).

    A unit's answers (:func:`rules.move_answers`) read only the position: where the units
    are, EW markers, control, air markers and holder, refugees, the turn (night) and the
    rolled helicopter MAs. They are dropped when any of that changes, except that a change
    of where *friendly* units stand, or of control, keeps them when no hex concerned is one
    the unit's searches read (the cells they settled and the neighbours of those they
    expanded: what the listing tests of a hex, blocked, zone, stacking, is tested only
    there). Any enemy unit moving drops them all. Units off the map and helicopters are
    never carried."""
    found = state.memo.get("carried")
    if found is not None:
        assert isinstance(found, dict)
        return found
    w = world(state)
    carry = state.carry
    glob = (
        w,
        state.flow.turn,
        state.air_holder,
        list(state.air_markers),
        list(state.refugees),
        dict(state.ew),
        dict(state.heli_ma),
    )
    pos = dict(state.pos)
    cities = {h: state.control.get(h) for h in w.city_of}
    units: dict[str, Any] = carry.get("units", {})
    if carry.get("glob") != glob or units and carry.get("pos", {}).keys() != pos.keys():
        units = {}
    elif units:
        old = carry["pos"]
        moved = [u for u, h in pos.items() if old[u] != h]
        changed = set()
        sides = set()
        for u in moved:
            sides.add(w.units[u].side)
            changed.add(old[u])
            changed.add(pos[u])
        old_cities = carry["cities"]
        changed.update(h for h, c in cities.items() if old_cities.get(h) != c)
        changed.discard(None)
        if changed:
            units = {
                u: kept
                for u, kept in units.items()
                if u not in moved
                and not (sides - {w.units[u].side})  # an enemy moved: zones changed
                and kept.reads(w).isdisjoint(changed)
            }
    state.carry = {"glob": glob, "pos": pos, "cities": cities, "units": units}
    state.memo["carried"] = units
    return units


def modes_for(option: str | None) -> tuple[str, ...]:
    return (option,) if option in ("normal", "column") else ("normal", "column")
