"""Movement: dice by troop type and formation, terrain, buildings, charges, flight.

House approximations (catalogued): a unit moves along its leader's path and re-forms around
its destination; rout and fall-back moves run straight toward a table edge, stopping short of
buildings and high walls."""

from __future__ import annotations

import math

from umpire.core.events import Event, note
from umpire.geometry.table import Area, Vec, angle_between, bearing
from umpire.rulesets.bookgun.allowance import Allowance, path_length
from umpire.rulesets.bookgun.chances import movement_roll
from umpire.rulesets.bookgun.common import centre, dist, enemy, known_enemies, room_figures, world
from umpire.rulesets.bookgun.state import GONE, OUT, BookGunState, Figure, Unit
from umpire.rulesets.bookgun.tables import VehicleKind
from umpire.rulesets.bookgun.watercraft import (
    craft_points,
    craft_problem,
    medium,
    special_allowance,
    swimming,
)
from umpire.rulesets.bookgun.world import World

SPACING = {"close": 1.1, "open": 2.0, "column": 1.1, "mass": 1.1, "unformed": 1.5, "circle": 1.1}


def vehicle_kind(w: World, unit: Unit) -> VehicleKind:
    """The vehicle row a vehicle unit moves by: its own, except an over-snow vehicle on a table
    without snow, which counts as its ``off_snow`` kind (a BV206: light tracked, p.16); a
    Ski-Doo has none (the scenario may not field it without snow)."""
    kind = w.tables.vehicles.kinds[str(unit.vehicle)]
    if kind.over_snow and w.spec.ground != "snow" and kind.off_snow is not None:
        return w.tables.vehicles.kinds[kind.off_snow]
    return kind


def snow_vehicle(w: World, unit: Unit) -> bool:
    """bookgun.move.over_snow: an over-snow vehicle on snow (the snow smooths the going)."""
    if unit.vehicle is None or w.spec.ground != "snow":
        return False
    return w.tables.vehicles.kinds[unit.vehicle].over_snow


def dice_for(w: World, unit: Unit, column: str, formation: str | None = None) -> int:
    if unit.vehicle is not None:  # bookgun.move.vehicles: the kind's dice (spec §4.6)
        kind = vehicle_kind(w, unit)
        return {"cross": kind.cross, "road": kind.road}.get(column, 0)
    if unit.scout_of is not None and column == "cross":
        return w.tables.scouts.dice  # bookgun.move.scouts: a scout moves 3D6 (p.17)
    form = formation or unit.formation
    if unit.ride is not None:  # bookgun.move.cavalry / bookgun.move.bicycles (p.14)
        from umpire.rulesets.bookgun.mounts import mounted_dice

        found = mounted_dice(w, unit, column, form)
        if found is not None:
            return found
    table = w.tables.movement.dice[unit.troop]
    row = table.get(form) or table.get("unformed") or next(iter(table.values()))
    return int(getattr(row, column))


def keep_dice(faces: list[int], drop: str) -> list[int]:
    if not faces or drop == "none":
        return list(faces)
    out = sorted(faces)
    if drop == "highest":
        return out[:-1]
    return out[1:]


def dense_move(cross: list[int], drop: str, minimum: float) -> float:
    """bookgun.move.dense: dense terrain doubles the rough penalty - the die rough ground
    drops (highest for the army, lowest for insurgents, house for the latter) is dropped and its
    value subtracted once more; a unit may always move ``minimum`` (1 in.)."""
    kept = keep_dice(cross, drop)
    dropped = sum(cross) - sum(kept)
    return max(minimum, float(sum(kept) - dropped))


def rough_drop(w: World, unit: Unit) -> str:
    """Which die rough ground drops (p.14): by troop type, or by vehicle kind ("prohibited":
    a horse-drawn vehicle may not enter rough ground, p.18)."""
    if unit.vehicle is not None:
        return vehicle_kind(w, unit).rough
    return w.tables.movement.rough_drop.get(unit.troop, "none")


def roll_allowance(
    state: BookGunState, unit: Unit, formation: str | None, prone: bool, events: list[Event]
) -> Allowance:
    """Roll the unit's movement dice (bookgun.move.dice) and read what it may move in clear
    ground, rough ground and on a road (one roll serves all three)."""
    w = world(state)
    mv = w.tables.movement
    start = centre(state, unit)
    if unit.vehicle is not None:
        special = special_allowance(state, unit, events)
        if special is not None:
            return special
    if prone:
        count_cross = count_road = mv.prone_dice
    else:
        slow = formation if formation else unit.formation
        count_cross = min(dice_for(w, unit, "cross"), dice_for(w, unit, "cross", slow))
        road = dice_for(w, unit, "road", slow)
        count_road = road if road and w.on_road(start) else count_cross
    count_cross += unit.extra_die
    count_road += unit.extra_die
    faces = list(
        movement_roll(
            max(count_cross, count_road), "bookgun.move.dice", f"{unit.name} moves"
        ).sample(state.rng, events)
    )
    cross = faces[:count_cross]
    road_faces = faces[:count_road]
    reasons: list[str] = []
    lead = state.leader_of(unit)
    radius = w.tables.command.radius
    if lead is not None and any(dist(f.pos, lead.pos) > radius for f in state.fit_figures(unit)):
        cross, road_faces = keep_dice(cross, "highest"), keep_dice(road_faces, "highest")
        reasons.append("bookgun.lead.radius: figures beyond 6 inches drop the highest die")
    if any(f.status == "wounded" for f in state.unit_figures(unit)):
        cross, road_faces = keep_dice(cross, "highest"), keep_dice(road_faces, "highest")
        reasons.append("bookgun.move.wounded: carrying wounded drops the highest die")
    if w.spec.ground != "dry" and not prone and not snow_vehicle(w, unit):
        # snow or mud: on a road drop the lowest die, cross-country the highest
        cross, road_faces = keep_dice(cross, "highest"), keep_dice(road_faces, "lowest")
        reasons.append(f"bookgun.move.weather: {w.spec.ground} drops a die")
    # bookgun.move.prone (p.14, p.16 4.3): prone figures move 1D6 regardless of terrain
    drop = "none" if prone else rough_drop(w, unit)
    rough = [] if drop == "prohibited" else keep_dice(cross, drop)
    cross_for_dense = cross
    if unit.ride == "bicycle" and not prone:
        # bookgun.move.bicycles (p.14 2.5): cyclists must dismount in rough terrain and lose
        # the highest die of their dismounted (pushing) movement as well, army or insurgent
        drop = "highest"
        if unit.riding:
            cross_for_dense = cross[: w.tables.bicycles.pushing.cross]
            reasons.append("bookgun.move.bicycles: in rough ground the cyclists push")
        rough = keep_dice(cross_for_dense, drop)
    minus = 0
    if unit.minus_d6:
        minus = state.rng.d(6)
        reasons.append(f"bookgun.turn.joker: -1D6 ({minus})")
    floor = mv.minimum_move
    dense = None
    if w.dense:
        dense = (
            0.0
            if drop == "prohibited"
            else max(floor, dense_move(cross_for_dense, drop, floor) - minus)
        )
    allowance = Allowance(
        clear=max(floor, sum(cross) - minus),
        rough=0.0 if drop == "prohibited" else max(floor, sum(rough) - minus),
        road=max(floor, sum(road_faces) - minus),
        prone=prone,
        dense=dense,
    )
    text = (
        f"{unit.name} may move {allowance.clear:g} in. in the open, {allowance.rough:g} in rough "
        f"ground" + (f", {allowance.road:g} on the road" if count_road != count_cross else "")
    )
    if dense is not None:
        text += f", {dense:g} in dense terrain"

    if reasons:
        text += " (" + "; ".join(reasons) + ")"
    events.append(
        note(
            "allowance",
            text,
            "bookgun.move.chart",
            unit=unit.id,
            clear=allowance.clear,
            rough=allowance.rough,
            road=allowance.road,
            prone=allowance.prone,
        )
    )
    return allowance


# -- placing figures ------------------------------------------------------------------------------
def formation_points(n: int, at: Vec, facing: float, formation: str) -> list[Vec]:
    """Figure positions of a unit in ``formation`` centred on ``at``, front toward ``facing``."""
    gap = SPACING.get(formation, 1.5)
    rad = math.radians(facing)
    fx, fy = math.cos(rad), math.sin(rad)
    sx, sy = -fy, fx
    if formation == "circle":  # the defensive circle: the leader amid a ring facing out
        ring = max(1.0, (n - 1) * gap / (2 * math.pi))
        pts = [at] + [
            (
                at[0] + ring * math.cos(rad + 2 * math.pi * i / max(1, n - 1)),
                at[1] + ring * math.sin(rad + 2 * math.pi * i / max(1, n - 1)),
            )
            for i in range(n - 1)
        ]
        return pts[:n]
    if formation == "column":
        wide = 2
    elif formation in ("close", "mass"):
        wide = max(2, (n + 2) // 3 if formation == "mass" else (n + 1) // 2)
    else:
        wide = n
    out = []
    for i in range(n):
        rank, file = divmod(i, wide)
        across = (file - (min(wide, n) - 1) / 2) * gap
        back = -rank * gap
        out.append((at[0] + sx * across + fx * back, at[1] + sy * across + fy * back))
    return out


def _legal_spot(w: World, p: Vec, fallback: Vec) -> Vec:
    x, y = w.table.clamp(p[0], p[1], 0.5)
    if w.building_at((x, y)) is not None or w.in_area((x, y), w.high_walls):
        return fallback
    if w.water and w.in_water((x, y)) and not w.in_water(fallback):
        return fallback  # bookgun.move.boats: nobody stands in the water
    return (x, y)


def place_outside(state: BookGunState, unit: Unit, at: Vec, facing: float) -> None:
    w = world(state)
    figs = state.unit_figures(unit)
    lead = state.leader_of(unit)
    if lead is not None:
        figs = [lead] + [f for f in figs if f is not lead]
    for f, p in zip(figs, formation_points(len(figs), at, facing, unit.formation), strict=True):
        f.x, f.y = _legal_spot(w, p, at)
        f.facing = facing
        f.room = None


def room_space(state: BookGunState, room: str, unit: Unit) -> int:
    cap = world(state).tables.building.room_capacity
    # concealed enemies are not counted: the mover cannot know of them (they are found instead)
    used = sum(
        1
        for f in room_figures(state, room)
        if f.fit
        and f.unit != unit.id
        and not (f.side != unit.side and state.units[f.unit].concealed)
    )
    return max(0, cap - used)


def place_in_rooms(state: BookGunState, unit: Unit, room: str, outside: Vec) -> list[str]:
    """Put the unit's figures in ``room`` (then its same-floor neighbours) up to capacity; the
    rest wait at ``outside``. Returns the rooms used."""
    w = world(state)
    figs = state.unit_figures(unit)
    order = [room] + [r for r in w.rooms[room].neighbours if r not in (room,)]
    used: list[str] = []
    placed: set[str] = set()
    for r in order:
        enemies = [f for f in room_figures(state, r) if f.side == enemy(unit.side)]
        if enemies and r != room:
            continue
        space = room_space(state, r, unit)
        slots = w.rooms[r].slots
        k = 0
        for f in figs:
            if f.id in placed or k >= space:
                continue
            f.x, f.y = slots[k % len(slots)]
            f.room = r
            k += 1
            placed.add(f.id)
        if k:
            used.append(r)
    rest = [f for f in figs if f.id not in placed]
    for i, f in enumerate(rest):
        f.x, f.y = _legal_spot(
            w, (outside[0] + 0.8 * (i % 3), outside[1] - 0.8 * (i // 3)), outside
        )
        f.room = None
    return used


def unit_room(state: BookGunState, unit: Unit) -> str | None:
    lead = state.leader_of(unit)
    if lead is not None:
        return lead.room
    rooms = [f.room for f in state.unit_figures(unit) if f.room]
    return rooms[0] if rooms else None


# -- where a unit may go ---------------------------------------------------------------------------
def entry_door(w: World, room: str) -> tuple[Vec, Vec] | None:
    """The door (and the point just outside it) by which ``room`` is entered from outside:
    one of its own doors or a ground-floor neighbour's."""
    r = w.rooms[room]
    b = w.buildings[r.building]
    for cand in [room, *r.neighbours]:
        for at in w.rooms[cand].doors:
            return at, w.door_outside(at, b)
    return None


def locked(state: BookGunState, side: str, building: str) -> bool:
    """bookgun.building.doors (p.19): the doors of a building the enemy occupies are locked
    (barricaded). House: only an enemy ``side`` can see locks them for it - a concealed one is
    found by going in instead (bookgun.conceal.reveal)."""
    w = world(state)
    return any(
        f.side == enemy(side) and not state.units[f.unit].concealed
        for r in w.buildings[building].rooms
        for f in room_figures(state, r)
    )


def entry_point(state: BookGunState, side: str, room: str) -> tuple[Vec, Vec] | None:
    """How ``side`` gets into ground-floor ``room`` from outside: by an opening a breaching
    charge blew into it or its neighbour (bookgun.building.breach, always open), else by a door
    unless the building's doors are locked to it."""
    w = world(state)
    r = w.rooms[room]
    b = w.buildings[r.building]
    for cand in [room, *r.neighbours]:
        for br in state.breaches:
            if br["blown"] and br["room"] == cand:
                at = (float(br["x"]), float(br["y"]))
                return at, w.door_outside(at, b)
    if locked(state, side, b.id):
        return None
    return entry_door(w, room)


def move_problem(
    state: BookGunState, unit: Unit, al: Allowance, point: Vec | None, room: str | None
) -> str | None:
    """Why the unit may not end its move at ``point`` (in the open) or in ``room``, or None."""
    w = world(state)
    start = centre(state, unit)
    here = unit_room(state, unit)
    if unit.aboard is not None:
        return "aboard a vehicle: dismount first (bookgun.move.mount)"
    if unit.rides is not None:
        return "riding on a vehicle: jump off first (bookgun.move.tank_riders)"
    if unit.vehicle is not None:
        verdict = craft_problem(state, unit, al, point, room)
        if verdict is not None:
            return verdict or None
    if room is not None and unit.ride is not None and unit.riding:
        return "dismount before going into a building (bookgun.move.cavalry)"
    if point is not None and w.touches_water(start, point):
        return "water: only boats and amphibious vehicles go on it (bookgun.move.boats)"
    if room is not None and unit.vehicle is not None:
        return "vehicles may not enter buildings (bookgun.building.capacity)"
    if room is not None and unit.gun is not None:
        return "a gun may not be taken into a building (bookgun.move.artillery, house)"
    if point is not None and unit.scout_of is not None:
        parent = state.units.get(unit.scout_of)
        if parent is not None and state.on_table(parent) and parent.aboard is None:
            sc = w.tables.scouts
            reach = sc.radio_range if unit.radio else sc.range
            if dist(point, centre(state, parent)) > reach + 1e-6:
                return (
                    f"a scout stays within {reach:g} in. of his unit's leader (bookgun.move.scouts)"
                )
    if room is not None:
        if room not in w.rooms:
            return f"no room {room}"
        target = w.rooms[room]
        if any(
            f.side == enemy(unit.side) and not state.units[f.unit].concealed
            for f in room_figures(state, room)
        ):
            return f"{room} is held by the enemy (bookgun.building.windows / doors)"
        if room_space(state, room, unit) == 0:
            return f"{room} is full (bookgun.building.capacity)"
        if here is not None:
            if room == here:
                return "already there"
            if room in w.rooms[here].neighbours or room in w.rooms[here].stairs:
                return None
            return f"{room} does not connect to {here}"
        if target.floor != 0:
            return f"{room} is upstairs: enter the ground floor first"
        door = entry_point(state, unit.side, room)
        if door is None:
            if locked(state, unit.side, target.building):
                return (
                    f"the doors of {w.buildings[target.building].name} are locked: the enemy"
                    " holds it (bookgun.building.doors) - breach it or climb in at a window"
                )
            return f"{room} has no door"
        _, outside = door
        problem = w.path_problem(start, outside) if dist(start, outside) > 0.05 else None
        if problem is not None:
            return problem
        if dist(start, outside) + 1.0 > al.rough and dist(start, outside) + 1.0 > al.clear:
            return f"the door is {dist(start, outside) + 1:.1f} in. away, beyond the move"
        return None
    assert point is not None
    if here is not None:
        if w.rooms[here].floor != 0:
            return "come downstairs before leaving the building"
        door = entry_door(w, here)
        if door is None:
            return "no way out"
        _, outside = door
        problem = w.path_problem(outside, point) if dist(outside, point) > 0.05 else None
        if problem is not None:
            return problem
        if dist(start, outside) + dist(outside, point) > al.rough:
            return "beyond the move (leaving a building counts as rough going)"
        return None
    problem = w.path_problem(start, point)
    if problem is not None:
        return problem
    for wall in w.low_walls:
        if wall.touches_segment(start[0], start[1], point[0], point[1]):
            if unit.ride == "bicycle" and unit.riding:
                return f"{wall.id}: cyclists get off to cross a wall (bookgun.move.bicycles, house)"
            if unit.vehicle is not None or unit.gun is not None:
                return f"{wall.id}: guns and vehicles may not cross walls (bookgun.obstacle.cross)"
            if wall.polygon.distance(_pt(start)) > 1.5:
                return f"{wall.id}: move up to the wall and stop first (bookgun.obstacle.cross)"
            if dist(start, point) > 2.5:
                return f"{wall.id}: crossing the wall ends the move (bookgun.obstacle.cross)"
    length, allowed = path_length(state, unit, al, point)
    if unit.vehicle is not None and allowed <= 0.0:
        return "a horse-drawn vehicle may not enter rough ground (bookgun.move.rough)"
    if length > allowed + 1e-6:
        return f"{length:.1f} in. is beyond the {allowed:g} in. rolled"
    return None


def _pt(p: Vec) -> object:
    from shapely.geometry import Point

    return Point(p)


def _reaches(al: Allowance) -> set[float]:
    return {al.clear, al.rough} | ({al.dense} if al.dense is not None else set())


def conceal_area(state: BookGunState, unit: Unit) -> Area | None:
    """The piece of concealing terrain (bookgun.conceal.where: brush, woods, a gully ...) a
    concealed unit's marker lies in out of doors, or None (indoors, or no marker)."""
    m = state.markers.get(str(unit.marker)) if unit.concealed else None
    if m is None or unit_room(state, unit) is not None:
        return None
    return next((a for a in world(state).conceal_areas if a.contains(m.x, m.y)), None)


def stays_in(area: Area, start: Vec, point: Vec) -> bool:
    """Whether a move from ``start`` straight to ``point`` keeps within ``area``."""
    from shapely.geometry import LineString

    return bool(area.polygon.buffer(1e-6).covers(LineString([start, point])))


def concealed_moves(state: BookGunState, unit: Unit, al: Allowance) -> list[Vec]:
    """Where a concealed unit out of doors may move under its marker (bookgun.conceal.reveal,
    p.11: "may move concealed but not out of the concealing terrain"): in eight directions,
    at its full and half reach cut short at the terrain's edge (0.5 in. inside), and to the
    terrain's middle; each checked like any move."""
    area = conceal_area(state, unit)
    if area is None:
        return []
    start = centre(state, unit)
    points: list[Vec] = []
    for k in range(8):
        a = math.radians(45 * k)
        for allowed in _reaches(al):
            for frac in (1.0, 0.5):
                d = allowed * frac
                while d >= 0.5:
                    p = (start[0] + math.cos(a) * d, start[1] + math.sin(a) * d)
                    inner = (start[0] + math.cos(a) * (d + 0.5), start[1] + math.sin(a) * (d + 0.5))
                    if stays_in(area, start, p) and area.contains(*inner):
                        points.append(p)
                        break
                    d -= 0.5
    mid = area.polygon.representative_point()
    points.append((float(mid.x), float(mid.y)))
    out: list[Vec] = []
    seen: set[tuple[float, float]] = set()
    for p in points:
        q = (round(p[0], 2), round(p[1], 2))
        if dist(start, q) < 0.5 or (round(q[0], 1), round(q[1], 1)) in seen:
            continue
        seen.add((round(q[0], 1), round(q[1], 1)))
        if stays_in(area, start, q) and move_problem(state, unit, al, q, None) is None:
            out.append(q)
    return out


def candidate_moves(
    state: BookGunState, unit: Unit, al: Allowance
) -> list[tuple[Vec | None, str | None]]:
    """A menu of destinations: eight directions at full and half reach, toward each known
    enemy, door, site and marker; rooms next door or up the stairs. Each is checked."""
    w = world(state)
    start = centre(state, unit)
    here = unit_room(state, unit)
    reach = max(al.clear, al.rough, al.road)
    points: list[Vec] = []
    rooms: list[str] = []
    if here is not None:
        rooms += list(w.rooms[here].neighbours) + list(w.rooms[here].stairs)
        door = entry_door(w, here)
        if door is not None:
            _, outside = door
            for k in range(8):
                a = math.radians(45 * k)
                for frac in (1.0, 0.5):
                    d = max(0.5, (al.rough - dist(start, outside)) * frac)
                    points.append((outside[0] + math.cos(a) * d, outside[1] + math.sin(a) * d))
            points.append(outside)
    else:
        for k in range(8):
            a = math.radians(45 * k)
            for frac in (1.0, 0.5):
                for allowed in _reaches(al):
                    d = allowed * frac
                    points.append((start[0] + math.cos(a) * d, start[1] + math.sin(a) * d))
        goals: list[Vec] = [centre(state, e) for e in known_enemies(state, unit.side)]
        goals += [(m.x, m.y) for m in state.markers.values()] if unit.side == "army" else []
        goals += [p for p, _ in w.sites.values()]
        for b in w.buildings.values():
            for at, room in b.doors:
                goals.append(w.door_outside(at, b))
                rooms.append(room)
            if unit.vehicle is None:  # bookgun.building.windows: move up to a window first
                goals += [window_outside(w, at, b) for at, _ in b.windows]
        craft = unit.vehicle is not None and unit.vehicle in w.tables.vehicles.kinds
        if craft and (medium(state, unit) != "land" or swimming(state, unit)):
            points += craft_points(state, unit, al.clear)
        exit_edge = w.spec.victory.exit_edge
        if unit.side == "army" and exit_edge != "none":
            goals.append(_edge_point(w, start, exit_edge))
        for g in goals:
            d = dist(start, g)
            if d < 0.5:
                continue
            for allowed in _reaches(al):
                step = min(d - (2.0 if g in goals[:1] else 0.0), allowed) if d > 2 else d
                if step <= 0.3:
                    continue
                t = step / d
                points.append((start[0] + (g[0] - start[0]) * t, start[1] + (g[1] - start[1]) * t))
    out: list[tuple[Vec | None, str | None]] = []
    seen: set[tuple[float, float]] = set()
    for p in points:
        key = (round(p[0], 1), round(p[1], 1))
        if key in seen:
            continue
        seen.add(key)
        q = (round(p[0], 2), round(p[1], 2))
        if move_problem(state, unit, al, q, None) is None:
            out.append((q, None))
    for r in dict.fromkeys(rooms):
        if move_problem(state, unit, al, None, r) is None:
            out.append((None, r))
    del reach
    return out


def window_outside(w: World, at: Vec, building: object) -> Vec:
    """Where a figure stands to climb in at the window ``at`` (just outside it)."""
    from umpire.rulesets.bookgun.world import Building

    assert isinstance(building, Building)
    return w.door_outside(at, building)


def carry(state: BookGunState, vehicle: Unit) -> None:
    """bookgun.move.mount: passengers ride with their vehicle (placed at its model)."""
    v = state.unit_figures(vehicle)
    if not v:  # the vehicle is gone (off the table): its passengers go with it
        for u in state.units.values():
            if u.aboard == vehicle.id or u.rides == vehicle.id:
                u.status = OUT
                for f in state.unit_figures(u):
                    f.status = GONE
        return
    for u in state.units.values():
        if u.aboard == vehicle.id or u.rides == vehicle.id:  # passengers and tank riders
            for f in state.unit_figures(u):
                f.x, f.y, f.facing, f.room, f.prone = v[0].x, v[0].y, v[0].facing, None, False


def _edge_point(w: World, p: Vec, edge: str) -> Vec:
    if edge == "north":
        return (p[0], w.spec.height - 0.5)
    if edge == "south":
        return (p[0], 0.5)
    if edge == "east":
        return (w.spec.width - 0.5, p[1])
    return (0.5, p[1])


def do_move(state: BookGunState, unit: Unit, point: Vec | None, room: str | None) -> str:
    """Carry out a checked move; returns where the unit went, in words."""
    start = centre(state, unit)
    if room is not None:
        door = entry_point(state, unit.side, room)
        outside = door[1] if door is not None else start
        used = place_in_rooms(state, unit, room, outside)
        unit.formation = "unformed"
        return f"into {', '.join(used) or 'nowhere (no room)'}"
    assert point is not None
    facing = (
        bearing(start, point)
        if dist(start, point) > 0.01
        else state.figures[unit.figures[0]].facing
    )
    if unit.formation == "unformed" and unit.troop not in ("civilians", "vehicle"):
        unit.formation = "open"
    w = world(state)
    old = state.figures[unit.figures[0]].facing
    if (
        unit.vehicle is not None
        and w.tables.vehicles.kinds[unit.vehicle].medium == "air"
        and angle_between(facing, old) <= 90.0 + 1e-6
    ):
        # bookgun.move.helicopters (p.15): a helicopter may fly sideways or diagonally and keep
        # facing its way (house: it keeps its facing when the move is within 90 degrees of it)
        facing = old
    crossed = unit.ride == "bicycle" and unit.riding and w.crosses(start, point, w.rough)
    crossed = crossed or (unit.ride == "bicycle" and unit.riding and w.in_rough(point))
    place_outside(state, unit, point, facing)
    if unit.vehicle is not None:
        carry(state, unit)
        for u in state.units.values():
            if u.rides == unit.id:
                u.moved = True  # bookgun.move.tank_riders: riders move with it (house)
    where = f"to ({point[0]:.1f}, {point[1]:.1f})"
    if crossed:  # bookgun.move.bicycles (p.14): cyclists must dismount in rough terrain
        unit.riding = False
        where += ", pushing their bicycles in the rough ground"
    return where


def flee(
    state: BookGunState,
    unit: Unit,
    dice: int,
    rule: str,
    why: str,
    events: list[Event],
    away_from: Vec | None = None,
    directly: bool = False,
) -> None:
    """Move ``dice`` D6 inches straight toward the nearest table edge away from the enemy
    (bookgun.morale.rout); a unit whose leader (or centre) leaves the table is out. With
    ``directly`` (the civilian mob, spec §5.3) it runs straight along the line from
    ``away_from`` through its centre instead, leaving the table if that line reaches an edge
    within the roll."""
    w = world(state)
    faces = list(movement_roll(dice, rule, f"{unit.name} {why}").sample(state.rng, events))
    distance = float(sum(faces))
    start = centre(state, unit)
    if directly and away_from is not None and dist(start, away_from) > 1e-9:
        d = dist(start, away_from)
        way = ((start[0] - away_from[0]) / d, (start[1] - away_from[1]) / d)
        _run(state, unit, start, way, distance, rule, why, events)
        return
    if away_from is None:
        foes = [f for e in known_enemies(state, unit.side) for f in state.unit_figures(e)]
        if unit.side == "civilians":
            foes = [f for f in state.figures.values() if f.present and f.side != "civilians"]
        away_from = (
            (sum(f.x for f in foes) / len(foes), sum(f.y for f in foes) / len(foes))
            if foes
            else start
        )
    edges = {
        (0.0, 1.0): w.spec.height - start[1],
        (0.0, -1.0): start[1],
        (1.0, 0.0): w.spec.width - start[0],
        (-1.0, 0.0): start[0],
    }
    away = (start[0] - away_from[0], start[1] - away_from[1])
    choices = [e for e in edges if e[0] * away[0] + e[1] * away[1] >= 0] or list(edges)
    way = min(choices, key=lambda e: edges[e])
    _go(state, unit, start, way, distance, edges[way], rule, why, events, "toward the edge", 0.0)


def _run(
    state: BookGunState,
    unit: Unit,
    start: Vec,
    way: Vec,
    distance: float,
    rule: str,
    why: str,
    events: list[Event],
) -> None:
    """``flee`` along the unit vector ``way``: off the table if the edge is within
    ``distance``, else as far as it goes short of buildings and high walls (as ``flee``)."""
    w = world(state)
    reach = []
    for i, size in ((0, float(w.spec.width)), (1, float(w.spec.height))):
        if way[i] > 1e-9:
            reach.append((size - start[i]) / way[i])
        elif way[i] < -1e-9:
            reach.append(-start[i] / way[i])
    still = state.figures[unit.figures[0]].facing
    edge = min(reach, default=math.inf)
    _go(state, unit, start, way, distance, edge, rule, why, events, "straight away", still)


def _go(
    state: BookGunState,
    unit: Unit,
    start: Vec,
    way: Vec,
    distance: float,
    edge: float,
    rule: str,
    why: str,
    events: list[Event],
    where: str,
    still_facing: float,
) -> None:
    """The flight itself, a straight run: off the table (out) if the edge, ``edge`` inches
    along ``way``, is within ``distance`` and no building or high wall stands between; else as
    far along ``way`` as it goes short of buildings, high walls and the wrong element, in
    half-inch steps back from the full roll (facing its way, or ``still_facing`` if it cannot
    move at all), passengers and riders with a vehicle. The line is not checked for a unit
    starting inside a building (it leaves by the room's own way) nor for an aircraft in the
    air (it flies over them)."""
    w = world(state)
    flying = False
    if unit.vehicle is not None:
        kind = w.tables.vehicles.kinds[unit.vehicle]
        flying = kind.medium == "air" and not unit.landed
    check_line = not flying and w.building_at(start) is None

    def clear(dest: Vec) -> bool:
        return not check_line or w.obstacle_between(start, dest) is None

    far = (start[0] + way[0] * edge, start[1] + way[1] * edge)
    if edge <= distance and clear(far):
        for f in state.unit_figures(unit):
            f.status = GONE
            f.room = None
        unit.status = OUT
        events.append(
            note("off_table", f"{unit.name} leaves the table and is out", rule, unit=unit.id)
        )
        return
    # blocked short of the edge: the run stops short of what is in its way, on the table
    step = distance if edge > distance else max(edge - 0.5, 0.0)
    while step > 0:
        dest = (start[0] + way[0] * step, start[1] + way[1] * step)
        if (
            w.building_at(dest) is None
            and not w.in_area(dest, w.high_walls)
            and clear(dest)
            and _keeps_medium(state, unit, start, dest)
        ):
            break
        step -= 0.5
    step = max(step, 0.0)
    dest = (start[0] + way[0] * step, start[1] + way[1] * step)
    unit.formation = "unformed"
    place_outside(state, unit, dest, bearing(start, dest) if step > 0 else still_facing)
    if unit.vehicle is not None:
        carry(state, unit)  # passengers and riders go with it
    events.append(
        note(
            "flee",
            f"{unit.name} {why} {step:.1f} in. {where}",
            rule,
            unit=unit.id,
            x=dest[0],
            y=dest[1],
        )
    )


def _keeps_medium(state: BookGunState, unit: Unit, start: Vec, dest: Vec) -> bool:
    """A flight or fall-back keeps to the unit's element (bookgun.move.boats, house): boats and
    swimming amphibians stay on the water, everyone else off it, aircraft in the air go over it."""
    w = world(state)
    if not w.water:
        return True
    if unit.vehicle is not None:
        kind = w.tables.vehicles.kinds[unit.vehicle]
        if kind.medium == "air" and not unit.landed:
            return True
        if kind.medium == "water" or (unit.amphibious and w.in_water(start)):
            return w.by_water(start, dest)
    return not w.touches_water(start, dest)


def charge_reach(w: World, unit: Unit, start: Vec | None = None, goal: Vec | None = None) -> int:
    """The unit's charge dice (bookgun.move.chart): the "charge on road" column (column 4/6,
    p.14) for a column charging from a road to a point on it (house: as road movement, start
    and end on a road), else the charge column."""
    if (
        start is not None
        and goal is not None
        and unit.formation == "column"
        and w.on_road(start)
        and w.on_road(goal)
    ):
        road = dice_for(w, unit, "charge_road")
        if road > 0:
            return road
    return dice_for(w, unit, "charge")


def _unused(figs: list[Figure]) -> None:  # keep the import list honest for type checkers
    del figs


# -- vehicles: backing up (bookgun.move.vehicles, p.15) -------------------------------------------
def back_line(state: BookGunState, unit: Unit) -> tuple[Vec, float]:
    """The vehicle's position and the bearing straight behind it."""
    f = state.unit_figures(unit)[0]
    return f.pos, (f.facing + 180.0) % 360.0


def back_problem(state: BookGunState, unit: Unit, al: Allowance, point: Vec) -> str | None:
    """A vehicle backing up moves straight back along the reverse of its facing, without
    turning, at most the backing dice rolled."""
    at, way = back_line(state, unit)
    d = dist(at, point)
    if d < 1e-6:
        return "give a point behind the vehicle"
    if angle_between(bearing(at, point), way) > 1.0:
        return "backing up is straight back, with no turn (bookgun.move.vehicles)"
    if d > al.clear + 1e-6:
        return f"{d:.1f} in. is beyond the {al.clear:g} in. rolled to back up"
    return world(state).path_problem(at, point)


def back_moves(state: BookGunState, unit: Unit, al: Allowance) -> list[Vec]:
    at, way = back_line(state, unit)
    rad = math.radians(way)
    out = []
    for frac in (1.0, 0.5):
        d = al.clear * frac
        p = (round(at[0] + math.cos(rad) * d, 2), round(at[1] + math.sin(rad) * d, 2))
        if back_problem(state, unit, al, p) is None and p not in out:
            out.append(p)
    return out
