"""Blocking terrain found from an index of the blocking areas only (issue 19) is what the
plain rule over every area of the table finds.

Rule sevendays.los.blockers (book p14: woods, buildings and hills block a line of sight;
rough ground does not): a line is blocked when it crosses an area that blocks sight and holds
neither end, or runs deeper than the kind's ``see_into`` (per end it holds) inside one that
holds an end, unless that area's occupant sees over it (a hill). ``Table.terrain_blocks_many``
asks a spatial index of the areas that block sight (an area that only obscures never blocks);
these tests compare it, line by line, with that rule applied to every area of the table by
plain shapely, on random lines and on lines between the units of every scenario, on the
tables of the scenarios and on a table made wide (four copies of the Meeting Engagement's
terrain side by side, as the scale benchmark builds it).
"""

from __future__ import annotations

import random

import pytest
from shapely.geometry import LineString, Point

import umpire
from umpire.geometry.table import Area, Table, polygon_from_spec
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import scenario_ids

Vec = tuple[float, float]


def _plain(table: Table, a: Vec, b: Vec) -> bool:
    line = LineString((a, b))
    for area in table.areas:
        if not area.kind.blocks_los or not area.polygon.intersects(line):
            continue
        holds_a = area.polygon.covers(Point(a))
        holds_b = area.polygon.covers(Point(b))
        if not holds_a and not holds_b:
            return True
        if area.kind.occupant_sees_over:
            continue
        inside = line.intersection(area.polygon).length
        if inside > area.kind.see_into * (int(holds_a) + int(holds_b)) + 1e-9:
            return True
    return False


def _table(scenario: str) -> tuple[Table, list[Vec]]:
    game = umpire.new_game(f"sevendays/{scenario}", seed=1)
    ruleset = game.ruleset
    assert isinstance(ruleset, SevenDays)
    table = ruleset.world(game.state).table
    return table, [(u.x, u.y) for u in game.state.units.values()]


def _lines(table: Table, places: list[Vec], rng: random.Random, n: int) -> list[tuple[Vec, Vec]]:
    lines = [(a, b) for a in places for b in places if a != b]
    # points inside areas too (ends held by woods, buildings, hills)
    inner: list[Vec] = []
    for area in table.areas:
        p = area.polygon.representative_point()
        inner.append((float(p.x), float(p.y)))
    spots = places + inner
    for _ in range(n):
        a = (rng.uniform(0, table.width), rng.uniform(0, table.height))
        b = (
            rng.choice(spots)
            if rng.random() < 0.5
            else (
                rng.uniform(0, table.width),
                rng.uniform(0, table.height),
            )
        )
        lines.append((a, b))
    return lines


@pytest.mark.parametrize("scenario", scenario_ids())
def test_blocking_index_is_the_plain_rule(scenario: str) -> None:
    table, places = _table(scenario)
    rng = random.Random(scenario)
    lines = _lines(table, places, rng, 1500)
    fresh = Table(table.width, table.height, table.areas, table.roads)
    got = fresh.terrain_blocks_many(lines)
    want = [_plain(table, a, b) for a, b in lines]
    assert got == want
    assert any(want) and not all(want)  # both answers occur
    # asked again (from the cache), and one by one
    assert fresh.terrain_blocks_many(lines) == want
    assert [
        Table(table.width, table.height, table.areas).terrain_blocks(a, b) for a, b in lines[:200]
    ] == want[:200]


def test_blocking_index_on_a_wide_table() -> None:
    base, places = _table("meeting-engagement")
    areas: list[Area] = []
    for copy in range(4):
        dx = base.width * copy
        for area in base.areas:
            shifted = [(x + dx, y) for x, y in area.polygon.exterior.coords]
            areas.append(
                Area(f"{area.id}-{copy}", area.kind, polygon_from_spec({"polygon": shifted}))
            )
    table = Table(base.width * 4, base.height, areas)
    rng = random.Random(7)
    spread = [(x + base.width * rng.randrange(4), y) for x, y in places]
    lines = _lines(table, spread, rng, 1500)
    want = [_plain(table, a, b) for a, b in lines]
    assert table.terrain_blocks_many(lines) == want
    assert any(want) and not all(want)
