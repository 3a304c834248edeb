"""The static side of a game: the scenario's table as shapely geometry, and the tables.

Buildings block sight except that an occupant sees (and is seen) about ``see_out`` inches
through the wall; high walls block sight and movement; low walls give cover; rough and dense
areas slow movement and give cover; roads carry the road rate."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import LineString, Point, Polygon

from umpire.core.lru import LruMap
from umpire.geometry.table import Area, Table, TerrainKind, Vec, polygon_from_spec
from umpire.rulesets.bookgun.scenario import (
    SCENARIOS,
    BuildingSpec,
    ScenarioSpec,
    check_vehicles,
    load_scenario,
    weapons_known,
)
from umpire.rulesets.bookgun.tables import Tables, tables_with

DOOR_REACH = 1.2  # inches: how near a door a path must cross a building wall (house)


def _rect(r: tuple[float, float, float, float]) -> Polygon:
    return polygon_from_spec({"rect": list(r)})


@dataclass
class Room:
    id: str
    building: str
    floor: int
    polygon: Polygon
    centre: Vec
    slots: list[Vec]
    neighbours: list[str] = field(default_factory=list)
    stairs: list[str] = field(default_factory=list)
    doors: list[Vec] = field(default_factory=list)


@dataclass
class Building:
    id: str
    name: str
    polygon: Polygon
    rooms: list[str]
    doors: list[tuple[Vec, str]]
    windows: list[tuple[Vec, str]]


def _slots(rect: tuple[float, float, float, float]) -> list[Vec]:
    x0, y0, x1, y1 = rect
    xs = (x0 + (x1 - x0) * 0.3, x0 + (x1 - x0) * 0.7)
    ys = (y0 + (y1 - y0) * 0.3, y0 + (y1 - y0) * 0.7)
    return [
        (xs[0], ys[0]),
        (xs[1], ys[1]),
        (xs[0], ys[1]),
        (xs[1], ys[0]),
        ((x0 + x1) / 2, (y0 + y1) / 2),
    ]


class World:
    """Scenario geometry and tables for one (scenario, house rules) pair; cached per game kind."""

    def __init__(self, spec: ScenarioSpec, tables: Tables) -> None:
        self.spec = spec
        self.tables = tables
        # bookgun.lead.cinc: whom each side may name as its Commander-in-Chief (none: it names
        # nobody, having fewer than three basic units)
        self.cinc: dict[str, tuple[str, ...]] = {
            side: tuple(spec.cinc_candidates(side)) for side in ("army", "insurgents")
        }
        kinds = {
            "rough": TerrainKind("rough", obscures=False),
            "dense": TerrainKind("dense", obscures=True),
            "road": TerrainKind("road"),
            "wall": TerrainKind("wall"),
            "high_wall": TerrainKind("high_wall", blocks_los=True, see_into=0.0),
            "building": TerrainKind("building", blocks_los=True, see_into=tables.building.see_out),
            # steep ground and smoke do not block the table's own sight test: a slope is read
            # by movement only, and smoke blocks sight per side (thermal sights see through)
            "steep": TerrainKind("steep"),
            "smoke": TerrainKind("smoke"),
            # bookgun.move.boats: water carries boats and swimming amphibious vehicles only
            "water": TerrainKind("water"),
            # a fort: open to sight and movement; the rules read it (cover, morale)
            "fort": TerrainKind("fort"),
        }
        areas: list[Area] = []
        self.kind_of: dict[str, str] = {}
        self.conceal_areas: list[Area] = []
        # bookgun.move.prone: low walls and hides_prone behind (screens to lie behind), and
        # hides_prone inside (depressions hiding only the men lying in them)
        self.prone_screens: list[Area] = []
        self.prone_hollows: list[Area] = []
        for t in spec.terrain:
            poly = _rect(t.rect) if t.rect is not None else Polygon(t.polygon)
            area = Area(t.id, kinds[t.kind], poly)
            areas.append(area)
            self.kind_of[t.id] = t.kind
            if t.conceal:
                self.conceal_areas.append(area)
            if t.hides_prone == "inside":
                self.prone_hollows.append(area)
            elif t.hides_prone == "behind" or t.kind == "wall":
                self.prone_screens.append(area)
        self.buildings: dict[str, Building] = {}
        self.rooms: dict[str, Room] = {}
        for b in spec.buildings:
            self._add_building(b, areas, kinds["building"])
        self.table = Table(spec.width, spec.height, areas)
        self.rough = [a for a in areas if a.kind.name in ("rough", "dense")]
        self.dense = [a for a in areas if a.kind.name == "dense"]
        self.roads = [a for a in areas if a.kind.name == "road"]
        self.low_walls = [a for a in areas if a.kind.name == "wall"]
        self.high_walls = [a for a in areas if a.kind.name == "high_wall"]
        self.smoke = [a for a in areas if a.kind.name == "smoke"]
        self.water = [a for a in areas if a.kind.name == "water"]
        self.forts = [a for a in areas if a.kind.name == "fort"]
        self._water_union: Any = None
        self.slopes: list[tuple[Area, float]] = [
            (a, float(t.uphill or 0.0))
            for a, t in zip(areas[: len(spec.terrain)], spec.terrain, strict=True)
            if t.kind == "steep"
        ]
        self.sites: dict[str, tuple[Vec, str | None]] = {}
        for s in spec.sites:
            if s.room is not None:
                self.sites[s.id] = (self.rooms[s.room].centre, s.room)
            else:
                assert s.at is not None
                self.sites[s.id] = ((float(s.at[0]), float(s.at[1])), None)

    def _add_building(self, b: BuildingSpec, areas: list[Area], kind: TerrainKind) -> None:
        poly = _rect(b.rect)
        areas.append(Area(f"building-{b.id}", kind, poly))
        self.kind_of[f"building-{b.id}"] = "building"
        for r in b.rooms:
            rp = _rect(r.rect)
            c = rp.centroid
            self.rooms[r.id] = Room(r.id, b.id, r.floor, rp, (c.x, c.y), _slots(r.rect))
        for a, c2 in b.inner:
            self.rooms[a].neighbours.append(c2)
            self.rooms[c2].neighbours.append(a)
        for a, c2 in b.stairs:
            self.rooms[a].stairs.append(c2)
            self.rooms[c2].stairs.append(a)
        doors = [((float(d.at[0]), float(d.at[1])), d.room) for d in b.doors]
        for at, room in doors:
            self.rooms[room].doors.append(at)
        windows = [((float(w.at[0]), float(w.at[1])), w.room) for w in b.windows]
        self.buildings[b.id] = Building(b.id, b.name, poly, [r.id for r in b.rooms], doors, windows)

    # -- places ----------------------------------------------------------------------------
    def building_at(self, p: Vec) -> Building | None:
        for b in self.buildings.values():
            if b.polygon.covers(Point(p)):
                return b
        return None

    def in_area(self, p: Vec, areas: list[Area]) -> bool:
        return any(a.contains(p[0], p[1]) for a in areas)

    def on_road(self, p: Vec) -> bool:
        return self.in_area(p, self.roads)

    def in_rough(self, p: Vec) -> bool:
        return self.in_area(p, self.rough)

    def door_outside(self, door: Vec, building: Building) -> Vec:
        """A point just outside ``door`` (1 inch out from the wall)."""
        c = building.polygon.centroid
        dx, dy = door[0] - c.x, door[1] - c.y
        x0, y0, x1, y1 = building.polygon.bounds
        if abs(door[0] - x0) < 1e-6:
            return (door[0] - 1.0, door[1])
        if abs(door[0] - x1) < 1e-6:
            return (door[0] + 1.0, door[1])
        if abs(door[1] - y0) < 1e-6:
            return (door[0], door[1] - 1.0)
        if abs(door[1] - y1) < 1e-6:
            return (door[0], door[1] + 1.0)
        n = math.hypot(dx, dy) or 1.0
        return (door[0] + dx / n, door[1] + dy / n)

    # -- movement --------------------------------------------------------------------------
    def path_problem(self, a: Vec, b: Vec) -> str | None:
        """Why a straight move from ``a`` to ``b`` outside buildings is not allowed, or None."""
        if not self.table.inside(b[0], b[1], 0.3):
            return "off the table"
        return self.obstacle_between(a, b)

    def obstacle_between(self, a: Vec, b: Vec) -> str | None:
        """The high wall or building a straight line from ``a`` to ``b`` meets, or None."""
        line = LineString((a, b))
        for w in self.high_walls:
            if line.intersects(w.polygon):
                return f"{w.id} is in the way"
        for bd in self.buildings.values():
            if line.intersects(bd.polygon):
                return f"{bd.name} is in the way (enter by its door)"
        return None

    def crosses(self, a: Vec, b: Vec, areas: list[Area]) -> bool:
        return any(x.touches_segment(a[0], a[1], b[0], b[1]) for x in areas) or self.in_area(
            a, areas
        )

    # -- water (bookgun.move.boats, bookgun.move.amphibious) ------------------------------------
    def water_shape(self) -> Any:
        if self._water_union is None:
            from shapely.ops import unary_union

            self._water_union = unary_union([a.polygon for a in self.water])
        return self._water_union

    def in_water(self, p: Vec) -> bool:
        return bool(self.water) and bool(self.water_shape().covers(Point(p)))

    def touches_water(self, a: Vec, b: Vec) -> bool:
        """Whether a straight move from ``a`` to ``b`` goes into or across water."""
        return bool(self.water) and bool(self.water_shape().intersects(LineString((a, b))))

    def by_water(self, a: Vec, b: Vec) -> bool:
        """Whether a straight move from ``a`` to ``b`` stays on the water the whole way."""
        if not self.water:
            return False
        line = LineString((a, b)) if a != b else Point(a)
        return bool(self.water_shape().buffer(1e-6).covers(line))

    def to_shore(self, p: Vec) -> float:
        """How far ``p`` is from the water's edge (0 on it)."""
        if not self.water:
            return math.inf
        return float(self.water_shape().boundary.distance(Point(p)))

    # -- sight -----------------------------------------------------------------------------
    def sight(self, a: Vec, b: Vec) -> bool:
        return not self.table.terrain_blocks(a, b)

    def smoke_blocks(self, a: Vec, b: Vec, side: str | None) -> bool:
        """bookgun.los.smoke (p.11): a line into, out of or through smoke is blind - unless the
        looking side has thermal sights (``thermal_sights`` in the scenario)."""
        if not self.smoke or (side is not None and side in self.spec.thermal_sights):
            return False
        return self.crosses(a, b, self.smoke) or self.in_area(b, self.smoke)

    def sight_for(self, side: str | None, a: Vec, b: Vec) -> bool:
        return self.sight(a, b) and not self.smoke_blocks(a, b, side)

    def sight_many(self, pairs: list[tuple[Vec, Vec]]) -> list[bool]:
        return [not blocked for blocked in self.table.terrain_blocks_many(pairs)]


_WORLDS: LruMap[tuple[str, str], World] = LruMap()


def world_for(scenario: str | ScenarioSpec, house: Mapping[str, Any] | None) -> World:
    spec = load_scenario(scenario) if isinstance(scenario, str) else scenario
    # a scenario given as a spec (a file the user named) is keyed by its content, never by the
    # object's id (an id is reused once the object is gone)
    key = (
        spec.id if isinstance(scenario, str) else "file:" + spec.model_dump_json(),
        json.dumps(house or {}, sort_keys=True),
    )

    def make() -> World:
        tables = tables_with(house)
        where = f"{SCENARIOS / (spec.id + '.yaml')}" if isinstance(scenario, str) else spec.id
        check_weapons(spec, tables, where)
        check_vehicles(spec, tables, where)
        return World(spec, tables)

    return _WORLDS.get_or_make(key, make)


def check_weapons(spec: ScenarioSpec, tables: Tables, where: str) -> None:
    """Every figure's weapons are in the weapons table, house rules included."""
    weapons_known(spec, set(tables.weapons.types), where)
