"""The table's road and terrain-entry questions with their box tests first (issue 19) answer
as the plain rules do.

Rule sevendays.move.road (book p12: a road move starts and ends on the same road) reads
``Table.road_at``: the first road, in table order, whose centre line lies within half its
width of the point; it now measures only the roads whose widened bounding box holds the point.
Rule sevendays.move.terrain_test (book p12-13: a unit tests for each rough or very rough area
it enters, and may not cross impassable going) reads ``Table.entries_into``: where a straight
move enters each area (not those holding its start); it now skips, before any other test, the
areas whose bounding box the move's box misses. These tests compare both with the plain rules
(every road measured; every area asked ``Area.touches_segment``) at many points and moves on
the scenarios' tables and on a table made four times as wide (the scale benchmark's copies),
including points on, at and just off the edge of each road.
"""

from __future__ import annotations

import math
import random

import pytest
from shapely.geometry import LineString

import umpire
from umpire.geometry.table import Area, Entry, Road, Table, along, polygon_from_spec
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import scenario_ids

Vec = tuple[float, float]


def _plain_road_at(table: Table, x: float, y: float) -> Road | None:
    for road in table.roads:
        if road.distance(x, y) <= road.width / 2 + 1e-6:
            return road
    return None


def _plain_entries(table: Table, start: Vec, end: Vec, areas: tuple[Area, ...]) -> list[Entry]:
    here = table.areas_at(*start)
    found = []
    for area in areas:
        if area in here or not area.touches_segment(start[0], start[1], end[0], end[1]):
            continue
        crossing = LineString((start, end)).intersection(area.polygon)
        if crossing.is_empty:
            continue
        distance = min(
            math.dist(start, c)
            for geom in getattr(crossing, "geoms", (crossing,))
            for c in geom.coords
        )
        found.append(Entry(distance, area, along(start, end, distance)))
    return found


def _table(scenario: str) -> Table:
    game = umpire.new_game(f"sevendays/{scenario}", seed=1)
    ruleset = game.ruleset
    assert isinstance(ruleset, SevenDays)
    return ruleset.world(game.state).table


def _wide(base: Table, copies: int = 4) -> Table:
    areas, roads = [], []
    for copy in range(copies):
        dx = base.width * copy
        for area in base.areas:
            shifted = [(x + dx, y) for x, y in area.polygon.exterior.coords]
            areas.append(
                Area(f"{area.id}-{copy}", area.kind, polygon_from_spec({"polygon": shifted}))
            )
        for road in base.roads:
            line = LineString([(x + dx, y) for x, y in road.line.coords])
            roads.append(Road(f"{road.id}-{copy}", line, road.width))
    return Table(base.width * copies, base.height, areas, roads)


def _road_points(table: Table, rng: random.Random, n: int) -> list[Vec]:
    points = [(rng.uniform(0, table.width), rng.uniform(0, table.height)) for _ in range(n)]
    for road in table.roads:  # on the line, at the edge, just inside and just outside it
        for _ in range(40):
            p = road.line.interpolate(rng.uniform(0, road.line.length))
            angle = rng.uniform(0, 2 * math.pi)
            for off in (0.0, road.width / 2, road.width / 2 - 1e-7, road.width / 2 + 1e-7, 1.5):
                points.append((p.x + off * math.cos(angle), p.y + off * math.sin(angle)))
    return points


def _tables() -> list[tuple[str, Table]]:
    tables = [(s, _table(s)) for s in scenario_ids()]
    return [*tables, ("meeting-engagement x4", _wide(_table("meeting-engagement")))]


@pytest.mark.parametrize("name, table", _tables())
def test_road_at_is_every_road_measured(name: str, table: Table) -> None:
    rng = random.Random(name)
    points = _road_points(table, rng, 1500)
    fresh = Table(table.width, table.height, table.areas, table.roads)
    got = [fresh.road_at(x, y) for x, y in points]
    want = [_plain_road_at(table, x, y) for x, y in points]
    assert got == want
    if table.roads:
        assert any(w is not None for w in want) and any(w is None for w in want)


@pytest.mark.parametrize("name, table", _tables())
def test_entries_into_is_every_area_asked(name: str, table: Table) -> None:
    rng = random.Random(name)
    subsets = [table.areas, tuple(a for a in table.areas if a.kind.going.get("tracked"))]
    hits = 0
    for _ in range(1500):
        start = (rng.uniform(0, table.width), rng.uniform(0, table.height))
        if rng.random() < 0.3:  # from inside an area
            p = rng.choice(table.areas).polygon.representative_point()
            start = (float(p.x), float(p.y))
        reach = rng.choice([3.0, 6.0, 12.0, 24.0, 60.0])
        angle = rng.uniform(0, 2 * math.pi)
        end = (start[0] + reach * math.cos(angle), start[1] + reach * math.sin(angle))
        if rng.random() < 0.1:  # straight along an axis (a box of no width)
            end = (start[0] + reach, start[1])
        for areas in subsets:
            got = table.entries_into(start, end, areas)
            assert got == _plain_entries(table, start, end, areas)
            hits += len(got)
    assert hits > 100
