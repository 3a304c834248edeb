"""Boats, amphibious vehicles and the movement allowance of craft that do not drive on land
(bookgun.move.boats, bookgun.move.amphibious, bookgun.move.helicopters; p.14-16).

Published (p.15): boats move only on water (light boats 3D6, motor patrol boats 5D6, 9 figures
each); they take on or land figures next to a wharf or shoreline, first in the movement phase,
never both in one turn, and in a turn they do they move half the distance rolled. Amphibious
vehicles move 1D6 on water, never on land and in water in one turn, and take on or land
passengers on land only.

House (catalogued): "next to the shore" is within ``vehicles.bank`` inches of the water's edge;
"first in the movement phase" is before the boat's own card this phase; landed figures form up on
the nearest dry ground; an amphibious vehicle's turn is on water if it starts on water, and may
end at most ``bank`` inches up the bank (or, from land, that far into the water), which is how it
crosses from one to the other over two turns; troops on foot and other vehicles may not enter
water."""

from __future__ import annotations

import math

from umpire.core.events import Event, note
from umpire.geometry.table import Vec
from umpire.rulesets.bookgun.allowance import Allowance, path_length
from umpire.rulesets.bookgun.chances import movement_roll
from umpire.rulesets.bookgun.common import centre, dist, world
from umpire.rulesets.bookgun.state import BookGunState, Unit


def medium(state: BookGunState, unit: Unit) -> str:
    """Where a vehicle moves: "land", "water" or "air" (by its kind)."""
    if unit.vehicle is None:
        return "land"
    return world(state).tables.vehicles.kinds[unit.vehicle].medium


def model_pos(state: BookGunState, unit: Unit) -> Vec:
    return state.figures[unit.figures[0]].pos


def swimming(state: BookGunState, unit: Unit) -> bool:
    """An amphibious vehicle on the water (its turn is a water turn)."""
    return unit.amphibious and world(state).in_water(model_pos(state, unit))


def at_shore(state: BookGunState, boat: Unit) -> bool:
    w = world(state)
    return w.to_shore(model_pos(state, boat)) <= w.tables.vehicles.bank + 1e-6


def loaded_now(state: BookGunState, vehicle: Unit, how: str) -> bool:
    return vehicle.loaded == how and vehicle.loaded_turn == state.flow.turn


def record_load(state: BookGunState, vehicle: Unit, how: str) -> None:
    """Boats and helicopters remember taking on ("mount") or landing ("dismount") figures this
    turn: never both (p.15-16), and a boat that did moves half its roll (p.15)."""
    if medium(state, vehicle) in ("water", "air"):
        vehicle.loaded, vehicle.loaded_turn = how, state.flow.turn


def landing_point(state: BookGunState, vehicle: Unit) -> Vec | None:
    """Where figures leaving ``vehicle`` form up: at the model, or for a boat the nearest dry
    ground within its bank distance plus an inch (None: no shore in reach)."""
    at = model_pos(state, vehicle)
    if medium(state, vehicle) != "water":
        return at
    w = world(state)
    reach = w.tables.vehicles.bank + 1.0
    best: Vec | None = None
    best_d = math.inf
    r = 0.5
    while r <= reach + 1e-9:
        for k in range(24):
            a = math.radians(15 * k)
            p = (round(at[0] + math.cos(a) * r, 2), round(at[1] + math.sin(a) * r, 2))
            if w.in_water(p) or not w.table.inside(p[0], p[1], 0.5):
                continue
            if w.building_at(p) is not None or w.in_area(p, w.high_walls):
                continue
            if r < best_d:
                best, best_d = p, r
        if best is not None:
            return best
        r += 0.5
    return None


def landing_facing(state: BookGunState, vehicle: Unit, at: Vec) -> float:
    """Figures landed from a boat face inland (away from the boat); others face as the vehicle."""
    from umpire.geometry.table import bearing

    model = model_pos(state, vehicle)
    if medium(state, vehicle) == "water" and dist(model, at) > 1e-6:
        return bearing(model, at)
    return state.figures[vehicle.figures[0]].facing


def transport_ok(state: BookGunState, unit: Unit, vehicle: Unit) -> bool:
    """May ``unit`` get aboard ``vehicle`` now (beyond room and reach)? A boat at the shore that
    has not yet moved this phase nor landed anyone this turn; a helicopter on the ground that has
    not landed anyone this phase; an amphibious vehicle on land."""
    kind = medium(state, vehicle)
    if kind == "water":
        return (
            at_shore(state, vehicle)
            and vehicle.id not in state.acted
            and not loaded_now(state, vehicle, "dismount")
        )
    if kind == "air":
        return vehicle.landed and not loaded_now(state, vehicle, "dismount")
    return not swimming(state, vehicle)


def may_dismount(state: BookGunState, unit: Unit) -> bool:
    """May ``unit``, aboard a vehicle, get out now (the mirror of ``transport_ok``)."""
    if unit.rides is not None:
        return True  # tank riders jump off at any time
    if unit.aboard is None:
        return False
    vehicle = state.units[unit.aboard]
    kind = medium(state, vehicle)
    if kind == "water":
        return (
            at_shore(state, vehicle)
            and vehicle.id not in state.acted
            and not loaded_now(state, vehicle, "mount")
            and landing_point(state, vehicle) is not None
        )
    if kind == "air":
        return vehicle.landed and not loaded_now(state, vehicle, "mount")
    return not swimming(state, vehicle)


def special_allowance(state: BookGunState, unit: Unit, events: list[Event]) -> Allowance | None:
    """The allowance of an aircraft (unlimited, p.14), a boat (its dice, halved in a turn it
    took on or landed figures, p.15) or an amphibious vehicle on water (1D6, p.15); None for a
    vehicle on land (the ordinary chart)."""
    w = world(state)
    assert unit.vehicle is not None
    kind = w.tables.vehicles.kinds[unit.vehicle]
    if kind.unlimited:
        reach = math.hypot(w.spec.width, w.spec.height)
        events.append(
            note(
                "allowance",
                f"{unit.name} may fly anywhere on the table (aircraft: unlimited, no terrain)",
                "bookgun.move.helicopters",
                unit=unit.id,
                clear=reach,
                rough=reach,
                road=reach,
                prone=False,
            )
        )
        return Allowance(reach, reach, reach, False, None)
    if kind.medium == "water":
        count, rule, why = kind.cross, "bookgun.move.boats", ""
    elif swimming(state, unit):
        count, rule, why = w.tables.vehicles.swim_dice, "bookgun.move.amphibious", " on water"
    else:
        return None
    faces = movement_roll(count, rule, f"{unit.name} moves{why}").sample(state.rng, events)
    rolled = float(sum(faces))
    if kind.medium == "water" and unit.loaded_turn == state.flow.turn and unit.loaded:
        rolled /= 2.0
        why += " (half: it took on or landed figures this turn)"
    rolled = max(w.tables.movement.minimum_move, rolled)
    events.append(
        note(
            "allowance",
            f"{unit.name} may move {rolled:g} in.{why}",
            rule,
            unit=unit.id,
            clear=rolled,
            rough=rolled,
            road=rolled,
            prone=False,
        )
    )
    return Allowance(rolled, rolled, rolled, False, rolled if w.dense else None)


def _back_off(start: Vec, point: Vec, by: float) -> Vec:
    d = dist(start, point)
    if d <= by:
        return start
    t = (d - by) / d
    return (start[0] + (point[0] - start[0]) * t, start[1] + (point[1] - start[1]) * t)


def craft_problem(
    state: BookGunState, unit: Unit, al: object, point: Vec | None, room: str | None
) -> str | None:
    """For a vehicle: "" when the move is fine, a reason when it is not, None to apply the
    ordinary ground-vehicle checks (a land vehicle on land)."""
    assert isinstance(al, Allowance)
    w = world(state)
    kind = medium(state, unit)
    start = centre(state, unit)
    if kind == "air":
        if room is not None:
            return "aircraft do not go into buildings (bookgun.move.helicopters)"
        assert point is not None
        if unit.landed:
            return "a landed helicopter takes off first (bookgun.move.helicopters)"
        if not w.table.inside(point[0], point[1], 0.3):
            return "off the table"
        return ""
    if kind == "water":
        if room is not None or point is None:
            return "boats stay on the water (bookgun.move.boats)"
        if not w.by_water(start, point):
            return "boats move only on water (bookgun.move.boats)"
        if dist(start, point) > al.clear + 1e-6:
            return f"{dist(start, point):.1f} in. is beyond the {al.clear:g} in. rolled"
        return ""
    if not unit.amphibious or point is None:
        return None
    bank = w.tables.vehicles.bank
    if w.in_water(start):
        # a water turn: on the water all the way, or climbing at most ``bank`` up the far bank
        ok = w.by_water(start, point) or (
            w.to_shore(point) <= bank + 1e-6 and w.by_water(start, _back_off(start, point, bank))
        )
        if not ok:
            return (
                "an amphibious vehicle does not move on land and in water in one turn"
                " (bookgun.move.amphibious)"
            )
        if w.path_problem(start, point) not in (None,) and not w.in_water(point):
            return w.path_problem(start, point)
        if dist(start, point) > al.clear + 1e-6:
            return f"{dist(start, point):.1f} in. is beyond the {al.clear:g} in. rolled"
        return ""
    if not w.touches_water(start, point):
        return None
    # a land turn may end just into the water (at most ``bank``), to swim on next turn
    if not (w.in_water(point) and w.to_shore(point) <= bank + 1e-6):
        return (
            "an amphibious vehicle does not move on land and in water in one turn"
            " (bookgun.move.amphibious)"
        )
    if w.touches_water(start, _back_off(start, point, bank + 0.5)):
        return "an amphibious vehicle enters the water at the end of a land move"
    problem = w.path_problem(start, point)
    if problem is not None:
        return problem
    length, allowed = path_length(state, unit, al, point)
    if length > allowed + 1e-6:
        return f"{length:.1f} in. is beyond the {allowed:g} in. rolled"
    return ""


def craft_points(state: BookGunState, unit: Unit, reach: float) -> list[Vec]:
    """Extra destinations to offer a boat, a swimmer or an aircraft (each is still checked):
    sixteen bearings at a quarter, half, three quarters and all of ``reach`` (aircraft: every
    six inches over the table)."""
    w = world(state)
    start = centre(state, unit)
    out: list[Vec] = []
    if medium(state, unit) == "air":
        step = 6.0
        y = 3.0
        while y < w.spec.height:
            x = 3.0
            while x < w.spec.width:
                out.append((x, y))
                x += step
            y += step
        return out
    for k in range(16):
        a = math.radians(22.5 * k)
        for frac in (0.25, 0.5, 0.75, 1.0):
            d = reach * frac
            out.append((start[0] + math.cos(a) * d, start[1] + math.sin(a) * d))
    return out
