"""Movement: normal, rapid and road moves, terrain tests, turning (sevendays.move.*).

The table is continuous, so a player may move to any point in reach. ``move_options`` offers a
short menu of sensible destinations (the eight compass points, towards the enemy, the
objectives and cover) for menus and AIs; ``check_move`` accepts any point the rules allow.
"""

from __future__ import annotations

import math
from itertools import repeat
from weakref import WeakKeyDictionary

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from umpire.core.events import Event, note
from umpire.geometry.table import Area, Vec, along, bearing
from umpire.rulesets.sevendays.dice import d6_test
from umpire.rulesets.sevendays.morale import house_fired
from umpire.rulesets.sevendays.shots import Refusal
from umpire.rulesets.sevendays.state import Activation, SevenDaysState, Unit
from umpire.rulesets.sevendays.transport import ride_along
from umpire.rulesets.sevendays.visibility import about
from umpire.rulesets.sevendays.world import World

SPEED_RULE = {
    "normal": "sevendays.move.normal",
    "rapid": "sevendays.move.rapid",
    "road": "sevendays.move.road",
}
_COMPASS = [(math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 360, 45)]


def _impassable(world: World, unit: Unit, x: float, y: float) -> bool:
    """Whether ``(x, y)`` lies in an area whose going is impassable for the unit's mover class
    (only those areas are looked at, not every area holding the point)."""
    return any(a.contains(x, y) for a in _impassable_going(world, world.mover_class(unit)))


# world -> mover class -> the areas whose going is impassable for it (static)
_IMPASSABLE_GOING: WeakKeyDictionary[World, dict[str, tuple[Area, ...]]] = WeakKeyDictionary()


def _impassable_going(world: World, mover: str) -> tuple[Area, ...]:
    by_mover = _IMPASSABLE_GOING.get(world)
    if by_mover is None:
        by_mover = _IMPASSABLE_GOING[world] = {}
    found = by_mover.get(mover)
    if found is None:
        found = by_mover[mover] = tuple(
            a for a in world.table.areas if a.kind.going.get(mover) == "impassable"
        )
    return found


def _test_need(world: World, unit: Unit, going: str) -> int:
    """The d6 score a unit needs to enter ``going`` (0 = no test, 7 = impassable)."""
    if going == "open":
        return 0
    if going == "impassable":
        return 7
    tests = world.house.terrain_tests[world.mover_class(unit)]  # type: ignore[index]
    return tests[going]  # type: ignore[index]


def _too_close(
    world: World, state: SevenDaysState, unit: Unit, x: float, y: float, assaulting: str | None
) -> bool:
    if not world.keeps_off(unit):
        return False
    if len(state.units) < world.index_min_units:
        return _too_close_scan(world, state, unit, x, y, assaulting)
    limit = world.house.proximity
    side = unit.side
    hypot = math.hypot
    for _, ux, uy, p in world.unit_index(state).alive.around(x, y, limit):
        if (
            p.alive
            and p.side != side
            and hypot(ux - x, uy - y) < limit
            and p.uid != assaulting
            and p.kept_off
        ):
            return True
    return False


def _too_close_scan(
    world: World, state: SevenDaysState, unit: Unit, x: float, y: float, assaulting: str | None
) -> bool:
    """``_too_close`` by a scan of every unit (what the unit index must answer alike)."""
    if not world.keeps_off(unit):
        return False
    limit = world.house.proximity
    side = unit.side
    hypot = math.hypot
    kept_off = world.kept_off
    for u in state.units.values():  # Unit.alive, written out
        if (
            u.status == "active"
            and u.side != side
            and hypot(u.x - x, u.y - y) < limit
            and u.uid != assaulting
            and kept_off(u)
        ):
            return True
    return False


THEN_MOVE = "then_move"  # a shoot action's option: the unit declares a move after its shot


def move_after_fire_refusal(act: Activation | None) -> Refusal | None:
    """Rule sevendays.fire.declared_move (book p8, p15): actions are declared before any
    roll, so a unit that fired without declaring a move after its shot ("shoot and move")
    stays where it is for the rest of the activation; one that declared it may move (its
    shot took the moving firer's -1, or rolled as moving infantry)."""
    if act is not None and act.fired and not act.moved and not act.then_move:
        return Refusal(
            "sevendays.fire.declared_move",
            "it fired without declaring a move after its shot (actions are declared before "
            "rolling)",
        )
    return None


def owes_move(act: Activation | None) -> bool:
    """The unit declared a move after its shot, has fired and not yet moved."""
    return act is not None and act.then_move and act.fired and not act.moved


def check_move(
    world: World,
    state: SevenDaysState,
    unit: Unit,
    speed: str,
    dest: Vec,
    assaulting: str | None = None,
) -> Refusal | None:
    """Why a move of ``unit`` to ``dest`` at ``speed`` is illegal, or ``None`` if it is legal
    (``assaulting``: the enemy unit it may move into contact with)."""
    refusal = terrain_refusal(world, unit, speed, dest)
    if refusal is not None:
        return refusal
    if _too_close(world, state, unit, *dest, assaulting):
        return proximity_refusal(world)
    return None


def proximity_refusal(world: World) -> Refusal:
    """Rule sevendays.move.proximity as the house rules set it (by default a vehicle may not
    end a move within 1" of enemy infantry, unless it assaults it)."""
    scope = world.house.proximity_scope
    movers = "/".join(sorted(scope.movers))
    near = "/".join(sorted(scope.near))
    return Refusal(
        "sevendays.move.proximity",
        f'a unit of class {movers} may not end a move within {world.house.proximity:g}" of '
        f"an enemy of class {near} it does not assault",
    )


# world -> the answers of terrain_refusal (the table never changes during a game)
_TERRAIN: WeakKeyDictionary[World, dict[tuple[object, ...], Refusal | None]] = WeakKeyDictionary()


def terrain_refusal(world: World, unit: Unit, speed: str, dest: Vec) -> Refusal | None:
    """The part of :func:`check_move` that reads only the table and the unit's place and kind
    (off the table, beyond reach, a road move off its road, impassable ground): remembered
    per world, since the table does not change (the enemy's places are checked apart)."""
    if not world.table.inside(*dest):  # (the message shows ``dest`` as it was given)
        return Refusal(SPEED_RULE[speed], f"{dest} is off the table")
    reach = world.move_distance(unit, speed)
    mover = world.mover_class(unit)
    key = (unit.x, unit.y, speed, reach, mover, world.is_helicopter(unit), dest[0], dest[1])
    memo = _TERRAIN.get(world)
    if memo is None:
        memo = _TERRAIN[world] = {}
    elif key in memo:
        return memo[key]
    if len(memo) > 200_000:
        memo.clear()
    found = memo[key] = _terrain_refusal(world, unit, speed, dest, reach, mover)
    return found


_UNKNOWN = object()  # not in terrain_refusal's memo yet


def terrain_allowed(world: World, unit: Unit, speed: str, points: list[Vec]) -> list[Vec]:
    """The ``points`` (in order) for which :func:`terrain_refusal` is ``None``: the same
    answers from the same memo, with what depends only on the unit (reach, mover class, the
    memo itself) looked up once for the whole menu instead of once per point."""
    inside = world.table.inside
    reach = world.move_distance(unit, speed)
    mover = world.mover_class(unit)
    head = (unit.x, unit.y, speed, reach, mover, world.is_helicopter(unit))
    memo = _TERRAIN.get(world)
    if memo is None:
        memo = _TERRAIN[world] = {}
    get = memo.get
    out: list[Vec] = []
    for dest in points:
        if not inside(*dest):  # off the table: refused, not remembered (as terrain_refusal)
            continue
        key = (*head, dest[0], dest[1])
        found = get(key, _UNKNOWN)
        if found is _UNKNOWN:
            if len(memo) > 200_000:
                memo.clear()
            found = memo[key] = _terrain_refusal(world, unit, speed, dest, reach, mover)
        if found is None:
            out.append(dest)
    return out


def _terrain_refusal(
    world: World, unit: Unit, speed: str, dest: Vec, reach: float, mover: str
) -> Refusal | None:
    rule = SPEED_RULE[speed]
    if speed == "road":
        if world.is_helicopter(unit):
            return Refusal("sevendays.air.helicopter", "helicopters fly: they make no road moves")
        road = world.table.road_at(unit.x, unit.y)
        if road is None or world.table.road_at(*dest) is not road:
            return Refusal(rule, "a road move must start and end on the same road")
        along_road = abs(road.line.project(Point(dest)) - road.line.project(Point(unit.pos)))
        if along_road > reach + 0.05:
            return Refusal(rule, f'{along_road:.1f}" along the road is beyond {reach:g}"')
    elif math.dist(unit.pos, dest) > reach + 0.01:
        return Refusal(rule, f'{math.dist(unit.pos, dest):.1f}" is beyond the {reach:g}" move')
    if _impassable(world, unit, *dest):
        return Refusal("sevendays.move.terrain_test", "the destination is impassable")
    if speed != "road":
        # the first area on the path no test lets the unit enter (going impassable, or a test
        # above 6): the world lists those areas per mover class, in the table's order
        blocked = world.impassable_areas(mover)
        crossed = world.table.entries_into(unit.pos, dest, blocked) if blocked else []
        if crossed:
            first = min(crossed, key=lambda e: e.distance)  # nearest; ties in table order
            return Refusal(
                "sevendays.move.terrain_test", f"the path crosses impassable {first.area.id}"
            )
    return None


def move_options(world: World, state: SevenDaysState, unit: Unit, speed: str) -> list[Vec]:
    """A menu of legal destinations for ``unit`` at ``speed`` (each as :func:`check_move`
    judges it: the table's part remembered, the enemy's places measured once for the menu)."""
    # the table's part first, for the whole menu at once (terrain_allowed: the same answers
    # as terrain_refusal point by point), then the enemy's places
    candidates = terrain_allowed(world, unit, speed, move_candidates(world, state, unit, speed))
    if not world.keeps_off(unit):
        return candidates
    if len(state.units) >= world.index_min_units:
        return [p for p in candidates if not _too_close(world, state, unit, *p, None)]
    limit = world.house.proximity
    side = unit.side
    hypot = math.hypot
    # a destination check_move's terrain part allows lies within the move's reach of the unit
    # (along a road: 0.05" more, plus the road's width, as both ends may stand off its centre
    # line): an enemy farther than that plus the 1" cannot be too close to any of them (a
    # margin for rounding; the test below is exact)
    x, y = unit.x, unit.y
    far = world.move_distance(unit, speed) + limit + 0.25
    if speed == "road":
        far += max((r.width for r in world.table.roads), default=0.0)
    foes = [
        (u.x, u.y)
        for u in state.units.values()
        if u.alive and u.side != side and hypot(u.x - x, u.y - y) < far and world.kept_off(u)
    ]
    if not foes:
        return candidates
    return [
        p for p in candidates if not any(hypot(fx - p[0], fy - p[1]) < limit for fx, fy in foes)
    ]


def move_candidates(
    world: World, state: SevenDaysState, unit: Unit, speed: str, compass: bool = True
) -> list[Vec]:
    """Destinations worth offering (the compass points unless ``compass`` is false, towards
    the nearest enemy, the objectives and nearby cover), not yet checked with ``check_move``: a
    caller that wants only the best one can check them in its own order of preference."""
    reach = world.move_distance(unit, speed)
    table = world.table
    if speed == "road":
        road = table.road_at(unit.x, unit.y)
        if road is None or world.is_helicopter(unit):
            return []
        points = [
            table.road_destination(road, unit.pos, reach, True),
            table.road_destination(road, unit.pos, reach, False),
        ]
        return _dedupe(world, unit, points)
    # what depends only on the table and the unit's place is cached; the enemy is not
    key = (unit.x, unit.y, reach, world.mover_class(unit), world.radius(unit), compass)
    fixed = world.move_cache.get(key)
    if fixed is None:
        raw_around, raw_elsewhere = _fixed_candidates(world, unit, reach, compass)
        around = _dedupe(world, unit, raw_around)
        elsewhere = _dedupe(world, unit, raw_elsewhere, set(around))
        fixed = (around, elsewhere)
        if len(world.move_cache) > 50_000:
            world.move_cache.clear()
        world.move_cache[key] = fixed
    around, elsewhere = fixed
    nearest = nearest_enemy(world, state, unit)
    if nearest is not None:
        gap = math.dist(nearest, unit.pos) - world.house.proximity - 1.0
        if gap > 0.5:
            point = _stop_short(world, unit, along(unit.pos, nearest, min(reach, gap)))
            toward = _dedupe(world, unit, [point], set(around))
            if toward:  # the nearest-enemy point goes between the compass points and the rest
                return [*around, *toward, *(p for p in elsewhere if p != toward[0])]
    return [*around, *elsewhere]


def nearest_enemy(world: World, state: SevenDaysState, unit: Unit) -> Vec | None:
    """Where the enemy unit nearest to ``unit`` stands (ties as :func:`_nearness` orders
    them: the first in table order of those with the least key), or None; from the world's
    per-side index of places (distances measured in one pass, no scan in Python)."""
    if len(state.units) < world.index_min_units:
        return nearest_enemy_scan(state, unit)
    places, ties = world.enemies_of(state, unit.side)
    if not places:
        return None
    gaps = list(map(math.dist, places, repeat(unit.pos)))
    least = min(gaps)
    first = gaps.index(least)
    if gaps.count(least) == 1:
        return places[first]
    tied = [i for i in range(first, len(gaps)) if gaps[i] == least]
    return places[min(tied, key=ties.__getitem__)]


def nearest_enemy_scan(state: SevenDaysState, unit: Unit) -> Vec | None:
    """``nearest_enemy`` by a scan of every unit (what the unit index must answer alike)."""
    side = unit.side
    enemies = [u for u in state.units.values() if u.status == "active" and u.side != side]
    if not enemies:
        return None
    origin = (unit.x, unit.y)
    dist = math.dist
    gaps = [dist((e.x, e.y), origin) for e in enemies]  # _nearness's first part
    least = min(gaps)
    if gaps.count(least) == 1:  # no tie: the nearest alone, as min() with _nearness finds it
        return enemies[gaps.index(least)].pos
    # ties: _nearness among the nearest (in table order, so min() keeps the same first one)
    tied = [e for e, gap in zip(enemies, gaps, strict=True) if gap == least]
    return min(tied, key=lambda e: _nearness(e, origin)).pos


def _nearness(enemy: Unit, origin: Vec) -> tuple[float, bool, str]:
    """Order of enemies by distance from ``origin``, ties broken by what the moving side may
    know: units in the open first (in table order, as ``min`` keeps the first), then hidden
    markers by marker id, never by the unit a marker stands for
    (sevendays.scenario.hidden_deployment)."""
    return (math.dist(enemy.pos, origin), enemy.hidden, str(enemy.marker) if enemy.hidden else "")


def _dedupe(world: World, unit: Unit, points: list[Vec], seen: set[Vec] | None = None) -> list[Vec]:
    """Clamp to the table, round to a hundredth of an inch, drop repeats (and points already
    ``seen``) and non-moves."""
    out: list[Vec] = []
    seen = set() if seen is None else set(seen)
    clamp = world.table.clamp
    here = (unit.x, unit.y)  # (unit.pos, read once)
    dist = math.dist
    for point in points:
        x, y = clamp(*point)
        key = (round(x, 2), round(y, 2))
        if key in seen or dist(key, here) < 0.5:
            continue
        seen.add(key)
        out.append(key)
    return out


def _fixed_candidates(
    world: World, unit: Unit, reach: float, compass: bool
) -> tuple[list[Vec], list[Vec]]:
    """The compass points, then the objectives and the nearest cover, for a unit here."""
    around = [
        _stop_short(world, unit, (unit.x + cx * reach, unit.y + cy * reach))
        for cx, cy in (_COMPASS if compass else ())
    ]
    elsewhere: list[Vec] = []
    for objective in world.scenario.spec.objectives:
        distance = math.dist(unit.pos, objective.at)
        elsewhere.append(
            _stop_short(world, unit, along(unit.pos, objective.at, min(reach, distance)))
        )
    covers = []
    for area in world.table.areas:
        if not area.kind.cover or area.contains(unit.x, unit.y):
            continue
        x0, y0, x1, y1 = area.bbox
        gap = math.hypot(max(x0 - unit.x, 0, unit.x - x1), max(y0 - unit.y, 0, unit.y - y1))
        if gap <= reach:
            covers.append((gap, area))
    covers.sort(key=lambda t: t[0])
    for _, area in covers[:3]:
        nearest_point = _nearest_cover_point(world, area, world.radius(unit), unit.x, unit.y)
        if nearest_point is not None and math.dist(nearest_point, unit.pos) <= reach:
            elsewhere.append(nearest_point)
    return around, elsewhere


# world -> (area id, margin, x, y) -> the nearest point of the area's inner polygon to (x, y)
# (static: the menus of every speed, and reaction moves, from one place share it)
_NEAREST_COVER: WeakKeyDictionary[World, dict[tuple[str, float, float, float], Vec | None]]
_NEAREST_COVER = WeakKeyDictionary()


def _nearest_cover_point(world: World, area: Area, margin: float, x: float, y: float) -> Vec | None:
    """The point of ``area`` at least ``margin`` inside its edge nearest to ``(x, y)`` (None
    when no part of it is that far inside), remembered per world."""
    memo = _NEAREST_COVER.get(world)
    if memo is None:
        memo = _NEAREST_COVER[world] = {}
    key = (area.id, margin, x, y)
    if key in memo:
        return memo[key]
    inner = world.inner_polygon(area, margin)
    found = None if inner is None else _nearest_point(inner, Point(x, y))
    if len(memo) > 50_000:
        memo.clear()
    memo[key] = found
    return found


def _nearest_point(geom: BaseGeometry, point: Point) -> Vec:
    p = nearest_points(geom, point)[0]
    return (float(p.x), float(p.y))


def _stop_short(world: World, unit: Unit, dest: Vec) -> Vec:
    """Pull a destination back so the path stops before impassable terrain."""
    dest = world.table.clamp(*dest)
    blocked = world.impassable_areas(world.mover_class(unit))
    if not blocked:
        return dest
    entries = world.table.entries_into(unit.pos, dest, blocked)
    if not entries:
        return dest
    first = min(e.distance for e in entries)
    return along(unit.pos, dest, max(0.0, first - 0.2))


def do_move(world: World, state: SevenDaysState, unit: Unit, speed: str, dest: Vec) -> list[Event]:
    """Move ``unit`` towards ``dest``, testing each rough or very rough area it enters."""
    start = unit.pos
    final = dest
    events: list[Event] = []
    if speed != "road":
        mover = world.mover_class(unit)
        for entry in world.table.entries(start, dest):
            going = entry.area.kind.going.get(mover, "open")
            need = _test_need(world, unit, going)
            if need == 0:
                continue
            ok, _, event = d6_test(
                state,
                "sevendays.move.terrain_test",
                need,
                f"{unit.name} enters {going.replace('_', ' ')} {entry.area.id}",
                ("passes", "stops at the edge"),
                unit=unit.uid,
            )
            events.append(about(unit, event))  # the enemy sees only where the marker stops
            if not ok:
                house_fired(state, "sevendays.move.terrain_fail")
                final = along(start, dest, max(0.0, entry.distance - 0.1))
                break
    final = (round(final[0], 2), round(final[1], 2))
    if math.dist(start, final) > 1e-6:
        unit.facing = round(bearing(start, final), 1)
    unit.x, unit.y = final
    unit.dug_in = False  # sevendays.scenario.dug_in: moving gives up the dug-in position
    ride_along(state, unit)
    state.touch()
    moved = note(
        "move",
        f'{unit.name} {speed} moves {math.dist(start, final):.1f}" to '
        f"({final[0]:.1f}, {final[1]:.1f})",
        SPEED_RULE[speed],
        unit=unit.uid,
        frm=list(start),
        to=list(final),
    )
    events.append(about(unit, moved, f"{unit.marker} moves to ({final[0]:.1f}, {final[1]:.1f})"))
    return events


def fall_back_point(world: World, state: SevenDaysState, unit: Unit) -> Vec | None:
    """Rule sevendays.morale.fall_back: a rapid move straight away from the nearest enemy,
    pulled back so it neither ends closer to any enemy nor enters impassable ground."""
    side = unit.side
    here = (unit.x, unit.y)
    # each enemy's place and distance, measured once (Unit.alive written out)
    foes = [(u.x, u.y) for u in state.units.values() if u.status == "active" and u.side != side]
    if not foes:
        return None
    gaps = [math.dist(p, here) for p in foes]
    nearest = foes[gaps.index(min(gaps))]  # the first of the nearest, as min() keeps it
    reach = world.move_distance(unit, "rapid")
    dx, dy = unit.x - nearest[0], unit.y - nearest[1]
    length = math.hypot(dx, dy) or 1.0
    dist = math.dist
    for fraction in (1.0, 0.75, 0.5, 0.25):
        d = reach * fraction
        dest = _stop_short(world, unit, (unit.x + dx / length * d, unit.y + dy / length * d))
        dest = (round(dest[0], 2), round(dest[1], 2))
        if dist(dest, here) < 0.5:
            continue
        # no closer to any enemy than it stands now
        if any(dist(dest, p) < gap - 1e-6 for p, gap in zip(foes, gaps, strict=True)):
            continue
        if check_move(world, state, unit, "rapid", dest) is None:
            return dest
    return None
