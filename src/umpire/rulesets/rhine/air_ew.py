"""The air and EW phases: air superiority rolled (rhine.air.turn1, rhine.air.roll.day,
rhine.air.roll.night) and its markers placed (rhine.air.place); EW superiority rolled
(rhine.ew.turn1, rhine.ew.roll) and its markers put on enemy stacks or spent on the enemy's
air markers (rhine.ew.use, rhine.ew.status)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.hex_actions import cell_action_of, cell_actions, cell_check, hex_order
from umpire.rulesets.rhine.position import ST, hex_ew, world


class PlaceAirKind(ActionKind[ST]):
    name = "place_air"
    rule = "rhine.air.place"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        taken = set(state.air_markers)
        return [a for a in cell_actions(world(state), "place_air") if a.cell not in taken]

    def check(self, state: ST, side: str, action: Action) -> None:
        if action.cell not in world(state).hex:
            raise IllegalActionError(f"{action.cell!r} is not a hex of the map", self.rule)
        if action.cell in state.air_markers:
            raise IllegalActionError(f"{action.cell} already holds an air marker", self.rule)

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        assert action.cell is not None
        state.air_markers.append(action.cell)
        state.air_to_place -= 1
        return [
            note("air_marker", f"{side} air marker to {action.cell}", self.rule, cell=action.cell)
        ]

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"air marker to {action.cell}"


class EWMarkKind(ActionKind[ST]):
    name = "ew_mark"
    rule = "rhine.ew.use"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        return list(self._listed(state, side))

    def _listed(self, state: ST, side: str) -> list[Action]:
        """The listing, worked out once per position (not to be mutated)."""
        key = ("ew_mark", side)
        found = state.memo.get(key)
        if found is None:
            found = state.memo[key] = self._list(state, side)
        assert isinstance(found, list)
        return found

    def _list(self, state: ST, side: str) -> list[Action]:
        w = world(state)
        occ = R.occupancy(w, state)
        out = []
        made = cell_action_of(w, "ew_mark")
        ew = state.ew
        per_hex = w.tables.ew.per_hex
        order = hex_order(w)
        # the occupied hexes in map order (the listing's order: one action per hex)
        for h in sorted((h for h in occ if h in order), key=order.__getitem__):
            here = occ[h]
            if (
                here
                and w.units[here[0]].side != side
                and max(ew.get(u, 0) for u in here) < per_hex  # hex_ew: the stack's markers
            ):
                out.append(made[h])
        return out

    def check(self, state: ST, side: str, action: Action) -> None:
        """Allowed exactly when listed (the core's default), read from the position's
        listing by the action's hex."""
        cell_check(self, state, side, action, self._listed(state, side))

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        assert action.cell is not None
        for u in state.units_at(action.cell):
            state.ew[u] = state.ew.get(u, 0) + 1
        state.ew_to_place -= 1
        return [
            note(
                "ew_marker",
                f"{side} EW marker on the stack in {action.cell} "
                f"({hex_ew(state, action.cell)} there)",
                "rhine.ew.status",
                cell=action.cell,
            )
        ]

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"EW marker on {action.cell}"


class EWStripKind(ActionKind[ST]):
    name = "ew_strip"
    rule = "rhine.ew.use"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        if state.air_holder != R.other(side):
            return []
        made = cell_action_of(world(state), "ew_strip")
        return [made[h] for h in state.air_markers]

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        assert action.cell is not None
        state.air_markers.remove(action.cell)
        state.ew_to_place -= 1
        return [
            note(
                "ew_strip",
                f"{side} spends an EW marker to remove the enemy air marker in {action.cell}",
                self.rule,
                cell=action.cell,
            )
        ]

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"jam the air marker in {action.cell}"


def air_begin(state: ST) -> list[Event]:
    w = world(state)
    t = w.tables.air
    events: list[Event] = []
    state.air_markers = []
    if state.flow.turn == 1:
        from umpire.core.chance import Roll

        faces = Roll(
            t.turn1_dice,
            6,
            "rhine.air.turn1",
            lambda f: f"turn 1: the Pact holds air superiority with {sum(f)} markers",
        ).sample(state.rng, events)
        holder: str | None = "pact"
        n = min(t.max_markers, sum(faces))
    else:
        night = w.night(state.flow.turn)
        margin = R.air_contest(w, night, state.air_holder).sample(state.rng, events)
        holder, n = R.contest_markers(margin, t.max_markers)
        events.append(
            note(
                "air",
                f"{holder} wins air superiority by {abs(margin)}: {n} air markers",
                "rhine.air.roll.night" if night else "rhine.air.roll.day",
                holder=holder,
                markers=n,
            )
        )
    state.air_holder = holder
    state.air_to_place = min(n, len(w.ids))
    return events


def ew_begin(state: ST) -> list[Event]:
    w = world(state)
    t = w.tables.ew
    events: list[Event] = []
    if state.flow.turn == 1:
        from umpire.core.chance import Roll

        faces = Roll(
            t.turn1_dice,
            6,
            "rhine.ew.turn1",
            lambda f: f"turn 1: the Pact holds EW superiority with {sum(f)} markers",
        ).sample(state.rng, events)
        holder: str | None = "pact"
        n = min(t.max_markers, sum(faces))
    else:
        margin = R.ew_contest(w, state.ew_holder).sample(state.rng, events)
        holder, n = R.contest_markers(margin, t.max_markers)
        if holder is None:
            events.append(note("ew", "EW contest tied: nobody has EW superiority", "rhine.ew.roll"))
        else:
            events.append(
                note(
                    "ew",
                    f"{holder} wins EW superiority by {abs(margin)}: {n} EW markers",
                    "rhine.ew.roll",
                    holder=holder,
                    markers=n,
                )
            )
    state.ew_holder = holder
    state.ew_to_place = n
    return events


def placing_to_act(attr: str, holder_attr: str, kinds: tuple[str, ...]) -> Any:
    def to_act(state: ST) -> str | None:
        holder = getattr(state, holder_attr)
        if holder is None or getattr(state, attr) <= 0:
            return None
        return str(holder)

    return to_act


def ew_to_act(state: ST) -> str | None:
    holder = state.ew_holder
    if holder is None or state.ew_to_place <= 0:
        return None
    found = state.memo.get("ew_open")
    if found is None:
        found = state.memo["ew_open"] = bool(
            _EW_MARK._listed(state, holder) or _EW_STRIP.options(state, holder)
        )
    return holder if found else None


_EW_MARK = EWMarkKind()


_EW_STRIP = EWStripKind()
