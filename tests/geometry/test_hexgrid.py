"""Hex map geometry (geometry/hexgrid.py): flat-topped hexes in columns, map ids like "0612"
in odd-q and even-q layouts, distance, rings, lines, hexsides, pixels, and movement over
terrain, rivers and bridges, zones of control and stacking."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.geometry.hexgrid import (
    DIRECTIONS,
    Direction,
    Hex,
    HexMap,
    Hexside,
    Layout,
    direction_between,
    distance,
    from_offset,
    hex_id,
    hexside,
    line,
    neighbours,
    parse_hex_id,
    ring,
    to_offset,
    within,
)
from umpire.geometry.squaregrid import Grid, label, parse_label

hexes = st.builds(Hex, st.integers(-60, 60), st.integers(-60, 60))
layouts: st.SearchStrategy[Layout] = st.sampled_from(["even-q", "odd-q"])
radii = st.integers(0, 8)


# Distance, neighbours, rings


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, a) == 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)
    assert a.q + a.r + a.s == 0


@given(hexes)
def test_six_neighbours_one_hex_away_in_direction_order(h: Hex) -> None:
    around = neighbours(h)
    assert len(set(around)) == 6
    assert all(distance(h, n) == 1 for n in around)
    for direction, n in zip(DIRECTIONS, around, strict=True):
        assert h.neighbour(direction) == n
        assert direction_between(h, n) is direction
        assert n.neighbour(direction.opposite) == h


@given(hexes, radii)
def test_ring_sizes(center: Hex, radius: int) -> None:
    hexes_in_ring = ring(center, radius)
    assert len(hexes_in_ring) == (6 * radius if radius else 1)
    assert len(set(hexes_in_ring)) == len(hexes_in_ring)
    assert all(distance(center, h) == radius for h in hexes_in_ring)
    # walked clockwise, each hex touches the next
    if radius:
        loop = [*hexes_in_ring, hexes_in_ring[0]]
        assert all(distance(a, b) == 1 for a, b in zip(loop, loop[1:], strict=False))


@given(hexes, radii)
def test_within_is_every_hex_up_to_the_radius(center: Hex, radius: int) -> None:
    area = within(center, radius)
    assert len(area) == 3 * radius * (radius + 1) + 1
    brute = {
        Hex(center.q + dq, center.r + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(-radius, radius + 1)
        if distance(center, Hex(center.q + dq, center.r + dr)) <= radius
    }
    assert set(area) == brute and area[0] == center


def test_negative_radius_is_refused() -> None:
    with pytest.raises(ValueError):
        ring(Hex(0, 0), -1)
    with pytest.raises(ValueError):
        within(Hex(0, 0), -1)


# Lines


@given(hexes, hexes, st.sampled_from([1, -1]))
def test_line_has_distance_plus_one_adjacent_hexes(a: Hex, b: Hex, nudge: int) -> None:
    path = line(a, b, nudge=1 if nudge == 1 else -1)
    assert len(path) == distance(a, b) + 1
    assert path[0] == a and path[-1] == b
    assert all(distance(x, y) == 1 for x, y in zip(path, path[1:], strict=False))


@given(hexes, hexes)
def test_line_is_the_same_both_ways(a: Hex, b: Hex) -> None:
    assert line(b, a) == line(a, b)[::-1]
    assert line(b, a, nudge=-1) == line(a, b, nudge=-1)[::-1]


def test_a_line_along_a_hexside_falls_on_one_side_and_the_nudge_picks_the_other() -> None:
    a, b = Hex(0, 0), Hex(1, -2)  # due north-north-east: the line runs along the N/NE hexside
    one, other = line(a, b)[1], line(a, b, nudge=-1)[1]
    assert {one, other} == {Hex(0, -1), Hex(1, -1)}
    # a line not along a hexside is the same whichever way it is nudged
    assert line(Hex(0, 0), Hex(3, -1)) == line(Hex(0, 0), Hex(3, -1), nudge=-1)


# Hexsides


@given(hexes, st.sampled_from(DIRECTIONS))
def test_hexside_is_the_same_from_either_hex(h: Hex, direction: Direction) -> None:
    n = h.neighbour(direction)
    side = hexside(h, n)
    assert side == hexside(n, h)
    assert set(side.hexes()) == {h, n}


@given(hexes)
def test_a_hex_has_six_distinct_hexsides(h: Hex) -> None:
    assert len({hexside(h, n) for n in neighbours(h)}) == 6


def test_hexside_needs_adjacent_hexes() -> None:
    with pytest.raises(ValueError):
        hexside(Hex(0, 0), Hex(2, 0))
    with pytest.raises(ValueError):
        Hexside(Hex(0, 0), Direction.S)  # named from the other hex: Hexside(Hex(0, 1), N)


# Map ids


@given(hexes, layouts)
def test_offset_round_trip(h: Hex, layout: Layout) -> None:
    assert from_offset(*to_offset(h, layout), layout) == h


@settings(deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), layouts, st.integers(0, 2), st.integers(0, 2))
def test_every_map_id_round_trips(
    width: int, height: int, layout: Layout, first_column: int, first_row: int
) -> None:
    hexmap = HexMap(width, height, layout, first_column, first_row)
    ids = hexmap.ids()
    assert len(set(ids)) == width * height == len(hexmap.hexes())
    for h, name in zip(hexmap.hexes(), ids, strict=True):
        assert hexmap.contains(h)
        assert hexmap.hex_at(name) == h
        assert parse_hex_id(name, layout) == h and hex_id(h, layout) == name


@settings(deadline=None)
@given(st.integers(1, 30), st.integers(1, 30))
def test_every_square_label_round_trips(width: int, height: int) -> None:
    grid = Grid(width, height)
    labels = [label(sq) for sq in grid.squares()]
    assert len(set(labels)) == width * height
    assert [parse_label(name) for name in labels] == grid.squares()


def test_ids_are_column_then_row() -> None:
    hexmap = HexMap(3, 2)
    assert hexmap.ids() == ["0101", "0102", "0201", "0202", "0301", "0302"]
    assert to_offset(hexmap.hex_at("0302"), "even-q") == (3, 2)
    assert parse_hex_id("0612", "even-q") == from_offset(6, 12, "even-q")


def test_bad_ids_are_refused() -> None:
    hexmap = HexMap(10, 10)
    for bad in ("612", "06a2", "061200", "", "1101", "0100"):
        with pytest.raises(ValueError):
            hexmap.hex_at(bad)
    with pytest.raises(ValueError):
        hexmap.id_of(Hex(20, 0))
    with pytest.raises(ValueError):
        hex_id(Hex(-1, 0), "even-q")


# Worked examples


def test_known_distances_between_map_ids() -> None:
    for layout in ("even-q", "odd-q"):
        hexmap = HexMap(10, 10, layout)
        assert distance(hexmap.hex_at("0101"), hexmap.hex_at("0304")) == 4
        assert distance(hexmap.hex_at("0101"), hexmap.hex_at("0101")) == 0
        assert distance(hexmap.hex_at("0105"), hexmap.hex_at("0110")) == 5  # down a column
        assert distance(hexmap.hex_at("0101"), hexmap.hex_at("1001")) == 9  # along row 01
    # whether the next column sits lower or higher decides what touches what
    assert distance(HexMap(10, 10, "even-q").hex_at("0102"), parse_hex_id("0201", "even-q")) == 1
    assert distance(HexMap(10, 10, "odd-q").hex_at("0102"), parse_hex_id("0201", "odd-q")) == 2


def test_neighbours_by_map_id() -> None:
    even, odd = HexMap(10, 10, "even-q"), HexMap(10, 10, "odd-q")

    def around(hexmap: HexMap, name: str) -> list[str]:
        return [hexmap.id_of(n) for n in hexmap.neighbours(hexmap.hex_at(name))]

    # N, NE, SE, S, SW, NW; in even-q an even column sits half a hex below its neighbours
    assert around(even, "0202") == ["0201", "0302", "0303", "0203", "0103", "0102"]
    assert around(odd, "0202") == ["0201", "0301", "0302", "0203", "0102", "0101"]
    assert around(even, "0101") == ["0201", "0102"]  # a corner hex
    assert around(even, "0303") == ["0302", "0402", "0403", "0304", "0203", "0202"]


# Pixels


@given(hexes, st.sampled_from([1.0, 10.0, 37.5]))
def test_pixel_centres_round_trip_and_neighbours_sit_sqrt3_sizes_apart(h: Hex, size: float) -> None:
    x, y = h.to_pixel(size)
    assert Hex.from_pixel(x, y, size) == h
    for n in neighbours(h):
        nx, ny = n.to_pixel(size)
        assert math.isclose(math.hypot(nx - x, ny - y), math.sqrt(3) * size)
    # every corner still lies in the hex (nudged a hair towards the centre)
    for cx, cy in h.corners(size):
        assert Hex.from_pixel(cx + (x - cx) * 0.01, cy + (y - cy) * 0.01, size) == h


def test_north_is_up_on_screen() -> None:
    assert Hex(0, 0).neighbour(Direction.N).to_pixel(10) == (0, -10 * math.sqrt(3))
    x, y = Hex(0, 0).neighbour(Direction.SE).to_pixel(10)
    assert x == 15 and y > 0


@given(st.integers(1, 12), st.integers(1, 12), layouts)
def test_map_pixels_start_at_the_top_left_corner(width: int, height: int, layout: Layout) -> None:
    hexmap = HexMap(width, height, layout)
    size = 20.0
    corners = []
    for h in hexmap.hexes():
        (x, y), (mx, my) = h.to_pixel(size), hexmap.to_pixel(h, size)
        corners += [(cx - x + mx, cy - y + my) for cx, cy in h.corners(size)]
    assert math.isclose(min(x for x, _ in corners), 0, abs_tol=1e-9)
    assert math.isclose(min(y for _, y in corners), 0, abs_tol=1e-9)


# Maps and movement


COSTS: dict[str, float | None] = {"clear": 1, "woods": 2, "lake": None}


def test_map_from_ids_and_validation() -> None:
    hexmap = HexMap.from_ids(5, 5, terrain={"0203": "woods"}, hexsides={("0202", "0203"): "river"})
    assert hexmap.terrain_of(hexmap.hex_at("0203")) == "woods"
    assert hexmap.terrain_of(hexmap.hex_at("0303")) == "clear"
    assert hexmap.features(hexmap.hex_at("0203"), hexmap.hex_at("0202")) == {"river"}
    with pytest.raises(ValueError):
        HexMap(5, 5, terrain={Hex(9, 9): "woods"})
    with pytest.raises(ValueError):
        HexMap(0, 5)
    with pytest.raises(ValueError):
        HexMap.from_ids(5, 5, terrain={"0606": "woods"})


def test_river_without_bridge_is_impassable_and_a_bridge_opens_it() -> None:
    # 0203 is walled off by river on its N, NE and NW sides: from 0202 a unit must go round
    river = {("0202", "0203"): ["river"], ("0303", "0203"): ["river"], ("0103", "0203"): ["river"]}
    hexmap = HexMap.from_ids(5, 5, hexsides=river)
    start, target = hexmap.hex_at("0202"), hexmap.hex_at("0203")
    no_crossing = hexmap.reach(start, 2, terrain_costs=COSTS, hexside_costs={"river": None})
    assert target not in no_crossing
    around = hexmap.reach(start, 3, terrain_costs=COSTS, hexside_costs={"river": None})
    assert around[target] == 3
    assert [hexmap.id_of(h) for h in around.path(target)] == ["0202", "0303", "0304", "0203"]
    assert hexmap.reach(start, 3, terrain_costs=COSTS, hexside_costs={"river": 2})[target] == 3

    bridged = HexMap.from_ids(5, 5, hexsides={**river, ("0202", "0203"): ["river", "bridge"]})

    def rivers(features: frozenset[str]) -> float | None:
        if "river" in features and "bridge" not in features:
            return None
        return 0

    crossing = bridged.reach(start, 2, terrain_costs=COSTS, hexside_costs=rivers)
    assert crossing[target] == 1
    assert crossing.path(target) == (start, target)


def test_terrain_costs_zone_of_control_and_stacking() -> None:
    hexmap = HexMap.from_ids(6, 6, terrain={"0303": "woods", "0304": "lake"})
    start = hexmap.hex_at("0302")
    woods, lake = hexmap.hex_at("0303"), hexmap.hex_at("0304")
    result = hexmap.reach(start, 2, terrain_costs=COSTS)
    assert result[woods] == 2 and lake not in result.reached

    enemy = hexmap.hex_at("0502")
    zoc = hexmap.zone_of_control([enemy])
    assert hexmap.hex_at("0402") in zoc
    halted = hexmap.reach(
        start, 4, terrain_costs=COSTS, stops=lambda h: h in zoc, may_enter=lambda h: h != enemy
    )
    assert enemy not in halted.reached
    assert hexmap.hex_at("0402") in halted
    assert not any(h in zoc for end in halted for h in halted.path(end)[1:-1])

    full = hexmap.hex_at("0202")
    stacked = hexmap.reach(start, 2, terrain_costs=COSTS, may_end=lambda h: h != full)
    assert full not in stacked and full in stacked.reached


def test_unknown_terrain_is_named() -> None:
    hexmap = HexMap.from_ids(3, 3, terrain={"0202": "swamp"})
    with pytest.raises(ValueError, match="swamp.*0202"):
        hexmap.reach(hexmap.hex_at("0201"), 3, terrain_costs=COSTS)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 6), layouts)
def test_open_map_reach_is_the_hex_disc(budget: int, layout: Layout) -> None:
    hexmap = HexMap(15, 15, layout)
    center = hexmap.hex_at("0808")
    result = hexmap.reach(center, budget, terrain_costs={"clear": 1})
    assert set(result) == set(within(center, budget))
    assert all(result[h] == distance(center, h) for h in result)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_impassable_hexsides_are_never_crossed(data: st.DataObject) -> None:
    hexmap = HexMap(data.draw(st.integers(1, 8)), data.draw(st.integers(1, 8)), data.draw(layouts))
    hexes_on_map = hexmap.hexes()
    sides = sorted({hexside(h, n) for h in hexes_on_map for n in hexmap.neighbours(h)})
    rivers = data.draw(st.sets(st.sampled_from(sides))) if sides else set()
    hexmap = HexMap(
        hexmap.width,
        hexmap.height,
        hexmap.layout,
        hexsides={s: frozenset({"river"}) for s in rivers},
    )
    start = data.draw(st.sampled_from(hexes_on_map))
    result = hexmap.reach(start, 8, terrain_costs={"clear": 1}, hexside_costs={"river": None})
    for h in result.reached:
        path = result.path(h)
        assert not any(hexside(a, b) in rivers for a, b in zip(path, path[1:], strict=False))
