"""A continuous wargames table measured in inches, with terrain areas and roads (shapely).

Terrain areas are polygons with a kind; what a kind does (blocks line of sight, gives cover,
how hard it is to cross) is data supplied by the ruleset, so a house rule can change it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import shapely
    from shapely.geometry import LineString, Point, Polygon
    from shapely.prepared import PreparedGeometry, prep

Vec = tuple[float, float]
_SHAPELY_NAMES = ("np", "shapely", "LineString", "Point", "Polygon", "PreparedGeometry", "prep")


def _load_shapely() -> None:
    """Bind numpy and shapely in this module, on the first area, road, table or shape built
    (every method that uses them belongs to one): the plain helpers (``in_arc``, ``bearing``,
    ``segment_point_distance``...) and ``TerrainKind`` load neither (issue 19: a cold
    ``umpire odds`` imports no geometry library)."""
    if "shapely" in globals():
        return
    import numpy
    import shapely as shapely_module
    from shapely.geometry import LineString, Point, Polygon
    from shapely.prepared import PreparedGeometry, prep

    globals().update(
        np=numpy,
        shapely=shapely_module,
        LineString=LineString,
        Point=Point,
        Polygon=Polygon,
        PreparedGeometry=PreparedGeometry,
        prep=prep,
    )


def __getattr__(name: str) -> Any:
    """``from umpire.geometry.table import Polygon`` (and the other shapely names) still works."""
    if name in _SHAPELY_NAMES:
        _load_shapely()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class TerrainKind:
    """What a kind of terrain does. ``obscures``: a sight line through it counts towards the
    "more than 50% obscured" test. ``going`` maps a mover class to open/rough/very_rough/
    impassable; ``see_into`` is how deep (inches) a unit can see into or out of a blocking area
    it stands in."""

    name: str
    blocks_los: bool = False
    cover: bool = False
    obscures: bool = False
    see_into: float = 2.0
    occupant_sees_over: bool = False
    going: dict[str, str] = field(default_factory=dict)


@dataclass(eq=False)
class Area:
    """One terrain piece on the table."""

    id: str
    kind: TerrainKind
    polygon: Polygon
    prepared: PreparedGeometry = field(init=False, repr=False)
    bbox: tuple[float, float, float, float] = field(init=False)

    def __post_init__(self) -> None:
        _load_shapely()
        self.prepared = prep(self.polygon)
        x0, y0, x1, y1 = self.polygon.bounds
        self.bbox = (float(x0), float(y0), float(x1), float(y1))
        self._is_box = _is_box(self.polygon, self.bbox)

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.bbox
        if x < x0 or x > x1 or y < y0 or y > y1:
            return False
        if self._is_box:  # an axis-aligned rectangle covers exactly its bounding box
            return True
        return bool(self.prepared.covers(Point(x, y)))

    def touches_segment(self, ax: float, ay: float, bx: float, by: float) -> bool:
        x0, y0, x1, y1 = self.bbox
        if max(ax, bx) < x0 or min(ax, bx) > x1 or max(ay, by) < y0 or min(ay, by) > y1:
            return False
        return bool(self.prepared.intersects(LineString(((ax, ay), (bx, by)))))


def _is_box(polygon: Polygon, bbox: tuple[float, float, float, float]) -> bool:
    """Whether ``polygon`` is an axis-aligned rectangle (it then covers exactly its bounds)."""
    if polygon.interiors:
        return False
    corners = set(polygon.exterior.coords)
    x0, y0, x1, y1 = bbox
    return x0 < x1 and y0 < y1 and corners == {(x0, y0), (x1, y0), (x1, y1), (x0, y1)}


@dataclass(eq=False)
class Road:
    id: str
    line: LineString
    width: float = 2.0

    def __post_init__(self) -> None:
        _load_shapely()

    def __setstate__(self, state: dict[str, Any]) -> None:
        _load_shapely()  # a road read back from a pickle made by another process
        self.__dict__.update(state)

    def distance(self, x: float, y: float) -> float:
        return float(self.line.distance(Point(x, y)))


@dataclass(frozen=True)
class Entry:
    """Where a straight move first enters a terrain area."""

    distance: float
    area: Area
    point: Vec


class Table:
    """A rectangular table ``width`` x ``height`` inches, origin at the bottom-left corner."""

    def __init__(
        self,
        width: float,
        height: float,
        areas: Iterable[Area] = (),
        roads: Iterable[Road] = (),
    ) -> None:
        _load_shapely()
        self.width = float(width)
        self.height = float(height)
        self.areas: tuple[Area, ...] = tuple(areas)
        self.roads: tuple[Road, ...] = tuple(roads)
        # areas that count for the obscured test, in a spatial index queried once per sight
        self._sight_areas = tuple(a for a in self.areas if a.kind.blocks_los or a.kind.obscures)
        self._sight_tree = (
            shapely.STRtree([a.polygon for a in self._sight_areas]) if self._sight_areas else None
        )
        # the areas that block sight, in their own index: terrain_blocks_many asks only these
        # (an area that only obscures never blocks), so a long line across a wide table is
        # tested against fewer polygons
        self._block_areas = tuple(a for a in self._sight_areas if a.kind.blocks_los)
        self._block_tree = (
            shapely.STRtree([a.polygon for a in self._block_areas]) if self._block_areas else None
        )
        self._areas_at_cache: dict[Vec, tuple[Area, ...]] = {}
        self._area_cells, self._wide_areas = _area_cells(self.areas, self.width, self.height)
        self._entries_cache: dict[tuple[float, ...], list[Entry]] = {}
        self._blocked_cache: dict[tuple[Vec, Vec], bool] = {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        _load_shapely()  # a table read back from a pickle made by another process
        self.__dict__.update(state)
        if "_wide_areas" not in state:  # pickled before the buckets kept to the table
            self._area_cells, self._wide_areas = _area_cells(self.areas, self.width, self.height)
        if "_block_tree" not in state:  # pickled before the blocking areas had their index
            self._block_areas = tuple(a for a in self._sight_areas if a.kind.blocks_los)
            self._block_tree = (
                shapely.STRtree([a.polygon for a in self._block_areas])
                if self._block_areas
                else None
            )

    # -- points ----------------------------------------------------------------------------
    def inside(self, x: float, y: float, margin: float = 0.0) -> bool:
        return margin <= x <= self.width - margin and margin <= y <= self.height - margin

    def clamp(self, x: float, y: float, margin: float = 0.5) -> Vec:
        return (
            min(max(x, margin), self.width - margin),
            min(max(y, margin), self.height - margin),
        )

    def areas_at(self, x: float, y: float) -> tuple[Area, ...]:
        key = (x, y)
        found = self._areas_at_cache.get(key)
        if found is None:
            if self._wide_areas or not (0.0 <= x <= self.width and 0.0 <= y <= self.height):
                # off the table (no buckets there), or an area too wide to bucket: every area
                found = tuple(a for a in self.areas if a.contains(x, y))
            else:
                # only the areas whose bounds reach the point's cell, in table order
                cell = (math.floor(x / AREA_CELL), math.floor(y / AREA_CELL))
                found = tuple(a for a in self._area_cells.get(cell, ()) if a.contains(x, y))
            if len(self._areas_at_cache) > 50_000:
                self._areas_at_cache.clear()
            self._areas_at_cache[key] = found
        return found

    def road_at(self, x: float, y: float) -> Road | None:
        """The first road (in table order) whose centre line is within half its width of
        (x, y). Only the roads whose bounding box, widened by more than half the road's
        width, holds the point are measured: a point outside that box is farther than half
        the width from every point of the line (a wide table has many roads; issue 19)."""
        for road, x0, y0, x1, y1 in self._road_boxes():
            if x0 <= x <= x1 and y0 <= y <= y1 and road.distance(x, y) <= road.width / 2 + 1e-6:
                return road
        return None

    def _road_boxes(self) -> list[tuple[Road, float, float, float, float]]:
        """Each road with its line's bounding box widened by half its width and a margin
        (made once per tuple of roads)."""
        memo: tuple[tuple[Road, ...], list[tuple[Road, float, float, float, float]]] | None = (
            self.__dict__.get("_road_box_memo")
        )
        if memo is not None and memo[0] is self.roads:
            return memo[1]
        boxes = []
        for road in self.roads:
            x0, y0, x1, y1 = road.line.bounds
            reach = road.width / 2 + 1e-3
            boxes.append((road, x0 - reach, y0 - reach, x1 + reach, y1 + reach))
        self.__dict__["_road_box_memo"] = (self.roads, boxes)
        return boxes

    # -- movement --------------------------------------------------------------------------
    def entries(self, start: Vec, end: Vec) -> list[Entry]:
        """Areas a straight move from ``start`` to ``end`` enters, nearest first.

        Areas that already contain ``start`` are not "entered". Cached: terrain is static."""
        key = (start[0], start[1], end[0], end[1])
        cached = self._entries_cache.get(key)
        if cached is None:
            cached = self._entries(start, end)
            if len(self._entries_cache) > 100_000:
                self._entries_cache.clear()
            self._entries_cache[key] = cached
        return list(cached)

    def _entries(self, start: Vec, end: Vec) -> list[Entry]:
        found = self.entries_into(start, end, self.areas)
        found.sort(key=lambda e: e.distance)
        return found

    def entries_into(self, start: Vec, end: Vec, areas: Iterable[Area]) -> list[Entry]:
        """Where a straight move from ``start`` to ``end`` enters each of ``areas`` (not
        those that already hold ``start``), in no particular order; not cached."""
        ax, ay = start
        bx, by = end
        here = self.areas_at(ax, ay)
        found: list[Entry] = []
        segment: LineString | None = None
        # Area.touches_segment's box test, written out: a wide table has many areas, most of
        # them far from a move (issue 19)
        lo_x, hi_x = (ax, bx) if ax <= bx else (bx, ax)
        lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
        for area in areas:
            x0, y0, x1, y1 = area.bbox
            if hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1:
                continue
            if area in here or not area.touches_segment(ax, ay, bx, by):
                continue
            if segment is None:
                segment = LineString((start, end))
            crossing = segment.intersection(area.polygon)
            if crossing.is_empty:
                continue
            distance = min(
                math.dist(start, c)
                for geom in getattr(crossing, "geoms", (crossing,))
                for c in geom.coords
            )
            found.append(Entry(distance, area, along(start, end, distance)))
        return found

    def road_destination(self, road: Road, start: Vec, distance: float, forward: bool) -> Vec:
        """The point ``distance`` inches along ``road`` from the point nearest ``start``."""
        s = float(road.line.project(Point(start)))
        s = min(max(s + (distance if forward else -distance), 0.0), float(road.line.length))
        p = road.line.interpolate(s)
        return (float(p.x), float(p.y))

    # -- line of sight ---------------------------------------------------------------------
    def terrain_blocks(self, a: Vec, b: Vec) -> bool:
        """Does blocking terrain cut the line from ``a`` to ``b``?

        A blocking area holding one end blocks only if the line runs deeper than the kind's
        ``see_into`` inside it (a unit at the edge of a wood sees out, one deep inside does
        not); a hill holding an end never blocks (its occupant sees over it)."""
        return self.terrain_blocks_many([(a, b)])[0]

    def terrain_blocks_many(self, segments: Sequence[tuple[Vec, Vec]]) -> list[bool]:
        """:meth:`terrain_blocks` for many lines, with one spatial query for those not seen
        before (the answer is symmetric and terrain is static, so it is cached per line)."""
        out: list[bool] = [False] * len(segments)
        if self._block_tree is None:
            return out
        cache = self._blocked_cache
        todo: list[int] = []
        keys: list[tuple[Vec, Vec]] = []
        for i, (a, b) in enumerate(segments):
            key = (a, b) if a <= b else (b, a)
            keys.append(key)
            found = cache.get(key)
            if found is None:
                todo.append(i)
            else:
                out[i] = found
        if not todo:
            return out
        if len(cache) > 200_000:
            cache.clear()
        lines = _segments([segments[i] for i in todo])
        hit = [False] * len(todo)
        line_idx, area_idx = self._block_tree.query(lines, predicate="intersects")
        areas = self._block_areas
        areas_at = self.areas_at
        # a line that crosses a blocking area and has neither end in any area is blocked by
        # that area (it holds neither end): decided per line, not per area crossed (a long
        # line crosses many). The lines with an end in an area look at each area they cross
        ends_in: dict[int, tuple[tuple[Area, ...], tuple[Area, ...]]] = {}
        hits = line_idx.tolist()
        for t in set(hits):
            a, b = segments[todo[t]]
            here_a = areas_at(*a)
            here_b = areas_at(*b)
            if here_a or here_b:
                ends_in[t] = (here_a, here_b)
            else:
                hit[t] = True
        for t, j in zip(hits, area_idx.tolist(), strict=True) if ends_in else ():
            ends = ends_in.get(t)
            if ends is None or hit[t]:
                continue
            area = areas[j]
            a, b = segments[todo[t]]
            holds_a = area in ends[0]
            holds_b = area in ends[1]
            if not holds_a and not holds_b:
                hit[t] = True
            elif not area.kind.occupant_sees_over:
                inside = LineString((a, b)).intersection(area.polygon).length
                if inside > area.kind.see_into * (int(holds_a) + int(holds_b)) + 1e-9:
                    hit[t] = True
        for t, i in enumerate(todo):
            out[i] = cache[keys[i]] = hit[t]
        return out

    def ray_crossings_many(
        self, pictures: Sequence[tuple[Vec, Vec, Sequence[tuple[Vec, Vec]]]]
    ) -> list[list[bool]]:
        """For each (a, b, rays): which rays cross terrain that blocks or obscures, other than
        the areas holding ``a`` or ``b`` (the "more than 50% obscured" test)."""
        out = [[False] * len(rays) for _, _, rays in pictures]
        if self._sight_tree is None or not pictures:
            return out
        owner: list[tuple[int, int]] = []
        coords: list[tuple[Vec, Vec]] = []
        for i, (_, _, rays) in enumerate(pictures):
            for k, ray in enumerate(rays):
                owner.append((i, k))
                coords.append(ray)
        if not coords:
            return out
        ray_idx, area_idx = self._sight_tree.query(_segments(coords), predicate="intersects")
        for r, j in zip(ray_idx.tolist(), area_idx.tolist(), strict=True):
            i, k = owner[r]
            if out[i][k]:
                continue
            area = self._sight_areas[j]
            a, b, _ = pictures[i]
            if area not in self.areas_at(*a) and area not in self.areas_at(*b):
                out[i][k] = True
        return out


MAX_TABLE_INCHES = 1_000.0
"""The widest and deepest table, and the furthest any coordinate of a scenario file may lie
from the origin either way, in inches, that the loaders accept (the shipped tables are at most
72" wide; the benchmark of 104 units lays out 288")."""
AREA_CELL = 6.0  # inches: the side of a cell of a table's buckets of terrain areas
MAX_AREA_CELLS = 1024
"""The most cells one area is bucketed in (a 192" square): a larger area is "wide", and while
a table has one every point looks at every area. No table of a shipped scenario has one; the
bound keeps the buckets a few entries per area whatever a file says (a corner 2**64 inches
off once asked for 10**35 cells)."""


def _cell_span(low: float, high: float, size: float) -> range:
    """The cells (of side ``AREA_CELL``) from ``low`` to ``high`` that lie on a table side of
    ``size`` inches: beyond its edges there are none (a point there looks at every area)."""
    last = math.floor(size / AREA_CELL)

    def cell(v: float) -> int:  # written out so that 1e300 or an infinity is no huge range
        return 0 if not v > 0.0 else last if v >= size else min(math.floor(v / AREA_CELL), last)

    return range(cell(low), cell(high) + 1)


def _area_cells(
    areas: tuple[Area, ...], width: float, height: float
) -> tuple[dict[tuple[int, int], tuple[Area, ...]], tuple[Area, ...]]:
    """Each cell of the table (of side ``AREA_CELL``) that an area's bounding box reaches ->
    those areas, in table order: a point on the table lies in an area only if it lies in its
    bounding box, and then in one of the cells the box reaches (the same floor of the same
    division on both sides). With them, the wide areas: those that would fill more than
    :data:`MAX_AREA_CELLS` cells, not bucketed."""
    cells: dict[tuple[int, int], list[Area]] = {}
    wide: list[Area] = []
    for area in areas:
        x0, y0, x1, y1 = area.bbox
        columns, rows = _cell_span(x0, x1, width), _cell_span(y0, y1, height)
        # (stop - start, not len: a range past sys.maxsize has no len)
        if (columns.stop - columns.start) * (rows.stop - rows.start) > MAX_AREA_CELLS:
            wide.append(area)
            continue
        for i in columns:
            for j in rows:
                cells.setdefault((i, j), []).append(area)
    return {key: tuple(found) for key, found in cells.items()}, tuple(wide)


def _segments(segments: Sequence[tuple[Vec, Vec]]) -> Any:
    """Shapely line strings of ``segments`` ((x0, y0), (x1, y1)), from one flat array (several
    times quicker than shapely reading nested lists)."""
    flat = [v for (a, b) in segments for v in (a[0], a[1], b[0], b[1])]
    return shapely.linestrings(np.array(flat, dtype=np.float64).reshape(-1, 2, 2))


def along(start: Vec, end: Vec, distance: float) -> Vec:
    """The point ``distance`` inches from ``start`` towards ``end``."""
    length = math.dist(start, end)
    if length == 0:
        return start
    t = distance / length
    return (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)


def bearing(a: Vec, b: Vec) -> float:
    """Compass-free angle in degrees from ``a`` to ``b`` (0 = +x, counter-clockwise)."""
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0


def angle_between(facing: float, direction: float) -> float:
    """Smallest absolute difference between two angles, in degrees (0..180)."""
    diff = (direction - facing) % 360.0
    return min(diff, 360.0 - diff)


def in_arc(origin: Vec, facing: float, arc: float, target: Vec) -> bool:
    """Is ``target`` inside the ``arc``-degree arc centred on ``facing`` at ``origin``?"""
    if arc >= 360.0:
        return True
    return angle_between(facing, bearing(origin, target)) <= arc / 2 + 1e-9


def segment_point_distance(a: Vec, b: Vec, p: Vec) -> float:
    """Shortest distance from point ``p`` to the segment ``a``-``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    px, py = p[0] - ax, p[1] - ay
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return math.hypot(px, py)
    t = (px * dx + py * dy) / length2  # clamped to the segment (written out: a hot spot)
    if t <= 0.0:
        return math.hypot(px, py)
    if t >= 1.0:
        return math.hypot(px - dx, py - dy)
    return math.hypot(px - t * dx, py - t * dy)


def polygon_from_spec(spec: dict[str, Any]) -> Polygon:
    """Build a polygon from a data-file shape: ``polygon``, ``rect`` or ``circle``."""
    _load_shapely()
    if "polygon" in spec:
        return Polygon(spec["polygon"])
    if "rect" in spec:
        x0, y0, x1, y1 = (float(v) for v in spec["rect"])
        return Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    if "circle" in spec:
        (cx, cy), r = spec["circle"]
        return Point(float(cx), float(cy)).buffer(float(r), quad_segs=4)
    raise ValueError("a terrain shape needs one of: polygon, rect, circle")
