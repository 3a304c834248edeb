"""Helicopters (bookgun.move.helicopters, p.14-16) and the activation menu of vehicle units.

Published: aircraft pay no terrain cost and have an unlimited move (p.14); a helicopter may
hover - stationary in the air, a non-moving target - and fly sideways or diagonally keeping its
facing; it must land to take on or put down passengers, landing at the start of its movement
(so it must already hover over the landing zone); it may land and let passengers out, or take
them on and lift off, in one movement phase, never take on and let out in the same phase (p.15-16).

House (catalogued): landing is the helicopter's whole activation, on open ground (not in a
building, on water, in rough or dense ground, on a wall or a steep slope); lifting off is the start
of an activation, which then flies; a helicopter that moved is in motion, one that hovered is not
(its unlimited move has no "half")."""

from __future__ import annotations

from umpire.core.actions import Action
from umpire.core.events import Event, note
from umpire.rulesets.bookgun.common import world
from umpire.rulesets.bookgun.state import BookGunState, Unit
from umpire.rulesets.bookgun.watercraft import medium, model_pos


def landing_problem(state: BookGunState, unit: Unit) -> str | None:
    """Why the helicopter may not land where it hovers, or None."""
    w = world(state)
    at = model_pos(state, unit)
    if unit.landed:
        return "already on the ground"
    if w.building_at(at) is not None:
        return "no landing on a building"
    if w.in_water(at):
        return "no landing on water"
    if w.in_rough(at) or w.in_area(at, w.high_walls) or w.in_area(at, w.low_walls):
        return "no landing in rough ground or on a wall"
    if any(area.contains(*at) for area, _ in w.slopes):
        return "no landing on a steep slope"
    return None


def vehicle_activations(state: BookGunState, unit: Unit) -> list[Action]:
    """A vehicle's activations: drive (and back up, if its kind may); a boat sails; a
    helicopter in the air flies or lands where it hovers, one on the ground lifts off."""
    assert unit.vehicle is not None
    if medium(state, unit) == "air":
        if unit.landed:
            return [Action("activate", unit=unit.id, option="take_off")]
        out = [Action("activate", unit=unit.id)]
        if landing_problem(state, unit) is None:
            out.append(Action("activate", unit=unit.id, option="land"))
        return out
    out = [Action("activate", unit=unit.id)]
    if world(state).tables.vehicles.kinds[unit.vehicle].back > 0:
        out.append(Action("activate", unit=unit.id, option="back"))
    return out


def land(state: BookGunState, unit: Unit) -> list[Event]:
    """Put the hovering helicopter down where it is (its whole move, not in motion)."""
    unit.landed = True
    unit.in_motion = False
    unit.moved = True
    return [
        note(
            "land",
            f"{unit.name} lands",
            "bookgun.move.helicopters",
            unit=unit.id,
        )
    ]


def take_off(state: BookGunState, unit: Unit) -> list[Event]:
    unit.landed = False
    return [note("take_off", f"{unit.name} lifts off", "bookgun.move.helicopters", unit=unit.id)]


def is_aircraft(state: BookGunState, unit: Unit) -> bool:
    return unit.vehicle is not None and medium(state, unit) == "air"
