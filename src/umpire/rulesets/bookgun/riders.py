"""Tank riders (bookgun.move.tank_riders, p.15 2.9).

Published: tanks, self-propelled guns and armoured cars may carry 7 passengers on the outside as
riders; riders suffer any attack on their vehicle, may be attacked as personnel on their own, and
any successful attack on any rider makes all the riders jump off the vehicle where they are.

House (catalogued): getting on follows the mounting rule of p.16 (4.2: a 1D6 move that phase,
every figure must reach the vehicle) and getting off is the passengers' dismount; riders stay in
plain view at the vehicle's model, fire and are fired at as figures on foot there and share any
blast on it (fire at the vehicle itself is out of scope, spec §4.8); a rider wounded or killed,
or a riding unit shaken, pinned or routed, puts every unit riding that vehicle on the ground
around it; riders may not charge until they are off."""

from __future__ import annotations

from umpire.core.actions import Action
from umpire.core.events import Event, note
from umpire.rulesets.bookgun.chances import boards, mount_roll
from umpire.rulesets.bookgun.common import centre, dist, world
from umpire.rulesets.bookgun.state import OK, BookGunState, Unit

SIDES = ("army", "insurgents")


def riders_on(state: BookGunState, vehicle: Unit) -> list[Unit]:
    return [u for u in state.units.values() if u.rides == vehicle.id and state.on_table(u)]


def rider_load(state: BookGunState, vehicle: Unit) -> int:
    return sum(len(state.unit_figures(u)) for u in riders_on(state, vehicle))


def ride_choices(state: BookGunState, unit: Unit, in_room: bool) -> list[Unit]:
    """Friendly tanks, self-propelled guns and armoured cars ``unit`` could climb onto this move:
    room for all its figures outside (7 a vehicle) and every figure within a 1D6 move of it."""
    w = world(state)
    if (
        unit.vehicle is not None
        or unit.gun is not None
        or unit.aboard is not None
        or unit.rides is not None
        or unit.ride is not None
        or unit.scout_of is not None
        or unit.concealed
        or unit.status != OK
        or unit.mounted == state.flow.turn
        or in_room
        or unit.side not in SIDES
    ):
        return []
    figs = state.unit_figures(unit)
    reach = 6 * w.tables.mount.dice + w.tables.mount.reach
    out = []
    for v in sorted(state.units.values(), key=lambda u: u.id):
        if v.side != unit.side or v.vehicle is None or not state.on_table(v):
            continue
        room = w.tables.vehicles.kinds[v.vehicle].riders - rider_load(state, v)
        model = state.unit_figures(v)[0]
        if room >= len(figs) and all(dist(f.pos, model.pos) <= reach for f in figs):
            out.append(v)
    return out


def ride_options(state: BookGunState, unit: Unit, in_room: bool) -> list[Action]:
    return [
        Action("activate", unit=unit.id, option=f"ride:{v.id}")
        for v in ride_choices(state, unit, in_room)
    ]


def climb_on(state: BookGunState, unit: Unit, vehicle: Unit) -> list[Event]:
    """Roll the 1D6 of the mounting move: every figure reaches the vehicle and climbs on, or
    the unit walks the roll toward it."""
    from umpire.rulesets.bookgun.movement import carry, do_move

    w = world(state)
    events: list[Event] = []
    faces = mount_roll(w.tables.mount.dice, f"{unit.name} runs for {vehicle.name}").sample(
        state.rng, events
    )
    model = state.unit_figures(vehicle)[0]
    figs = state.unit_figures(unit)
    farthest = max(dist(f.pos, model.pos) for f in figs)
    if boards(faces, w.tables.mount.reach, farthest):
        unit.rides = vehicle.id
        unit.rides_fit = len(state.fit_figures(unit))
        unit.mounted = state.flow.turn
        carry(state, vehicle)
        events.append(
            note(
                "mount",
                f"{unit.name} climbs onto {vehicle.name} as tank riders",
                "bookgun.move.tank_riders",
                unit=unit.id,
                vehicle=vehicle.id,
            )
        )
        return events
    rolled = float(sum(faces))
    start = centre(state, unit)
    d = dist(start, model.pos)
    t = min(1.0, rolled / d) if d > 0 else 0.0
    dest = (start[0] + (model.pos[0] - start[0]) * t, start[1] + (model.pos[1] - start[1]) * t)
    if w.path_problem(start, dest) is None:
        do_move(state, unit, dest, None)
    events.append(
        note(
            "mount",
            f"{unit.name} cannot reach {vehicle.name} with {rolled:g} in. and moves toward it",
            "bookgun.move.tank_riders",
            unit=unit.id,
        )
    )
    return events


def jump_off(state: BookGunState, unit: Unit, at: tuple[float, float], facing: float) -> None:
    """Put a riding unit on the ground round ``at`` (unless it already left the vehicle's spot,
    fleeing)."""
    from umpire.rulesets.bookgun.movement import place_outside

    on_spot = all(dist(f.pos, at) < 0.05 for f in state.unit_figures(unit))
    unit.rides = None
    unit.rides_fit = 0
    if unit.formation in ("unformed", "column"):
        unit.formation = "open"
    if on_spot and state.unit_figures(unit):
        place_outside(state, unit, at, facing)


def check_hits(state: BookGunState) -> list[Event]:
    """p.15 (2.9): a successful attack on any rider (a figure of a riding unit wounded or
    killed since it climbed on), or a riding unit shaken, pinned or routed, puts all the riders
    of that vehicle on the ground where it is."""
    events: list[Event] = []
    hit_vehicles: list[str] = []
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if u.rides is None or u.rides in hit_vehicles:
            continue
        if len(state.fit_figures(u)) < u.rides_fit or u.status != OK or not state.on_table(u):
            hit_vehicles.append(u.rides)
    for vid in hit_vehicles:
        vehicle = state.units[vid]
        vfigs = state.unit_figures(vehicle)
        model = vfigs[0] if vfigs else None
        for u in sorted(state.units.values(), key=lambda u: u.id):
            if u.rides != vid:
                continue
            if model is not None:
                jump_off(state, u, model.pos, model.facing)
            else:
                u.rides = None
            events.append(
                note(
                    "dismount",
                    f"{u.name} jump off {vehicle.name}: a rider was hit",
                    "bookgun.move.tank_riders",
                    unit=u.id,
                    vehicle=vid,
                )
            )
    return events
