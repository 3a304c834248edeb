"""The unit index (issue 19) answers exactly as a scan of every unit does.

The grid index of ``umpire.geometry.spatial`` and its uses in the Seven Days rules (the bodies
near a sight line, a move ending too close to an enemy, enemy infantry close to a firer, the
nearest enemy) are
compared with the scans they replace over many random arrangements of units (hypothesis).
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import umpire
from umpire.geometry.spatial import GridIndex
from umpire.rulesets.sevendays import firing, los, movement
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.state import SevenDaysState, Status, Unit
from umpire.rulesets.sevendays.world import INDEX_MIN_UNITS, World

coords = st.floats(min_value=-20.0, max_value=120.0, allow_nan=False, allow_infinity=False)
points = st.lists(st.tuples(coords, coords), max_size=60)


@settings(max_examples=300, deadline=None)
@given(
    points,
    st.floats(min_value=0.5, max_value=30.0),
    coords,
    coords,
    st.floats(min_value=0.0, max_value=60.0),
    st.floats(min_value=0.0, max_value=60.0),
)
def test_box_is_the_scan(
    pts: list[tuple[float, float]], cell: float, x: float, y: float, w: float, h: float
) -> None:
    index = GridIndex(cell, ((px, py, i) for i, (px, py) in enumerate(pts)))
    assert len(index) == len(pts)
    expected = [
        (px, py, i) for i, (px, py) in enumerate(pts) if x <= px <= x + w and y <= py <= y + h
    ]
    assert [e[1:] for e in index.box(x, y, x + w, y + h)] == expected
    if x + w > x:  # a box with its corners the wrong way round holds nothing
        assert index.box(x + w, y, x, y + h + 1.0) == []


@settings(max_examples=300, deadline=None)
@given(points, st.floats(min_value=0.5, max_value=30.0), coords, coords, st.floats(0.0, 40.0))
def test_near_is_the_scan(
    pts: list[tuple[float, float]], cell: float, x: float, y: float, r: float
) -> None:
    index = GridIndex(cell, ((px, py, i) for i, (px, py) in enumerate(pts)))
    expected = [(px, py, i) for i, (px, py) in enumerate(pts) if math.hypot(px - x, py - y) < r]
    assert [e[1:] for e in index.near(x, y, r)] == expected
    around = [e[1:] for e in index.around(x, y, r)]
    assert all(e in around for e in expected)


def _state() -> tuple[SevenDays, SevenDaysState]:
    """The Meeting Engagement, its world asking the unit index whatever the number of units
    (by default only tables of ``world.INDEX_MIN_UNITS`` units or more do)."""
    game = umpire.new_game("sevendays/meeting-engagement", seed=3)
    ruleset = game.ruleset
    assert isinstance(ruleset, SevenDays)
    ruleset.world(game.state).index_min_units = 0
    return ruleset, game.state


def test_small_tables_scan_by_default() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=3)
    ruleset = game.ruleset
    assert isinstance(ruleset, SevenDays)
    world = ruleset.world(game.state)
    unit = next(iter(game.state.units.values()))
    world.index_min_units = len(game.state.units) + 1
    assert not world.holds(game.state, unit)
    world.index_min_units = len(game.state.units)
    assert world.holds(game.state, unit)
    world.index_min_units = INDEX_MIN_UNITS


places = st.lists(
    st.tuples(
        st.floats(0.0, 72.0),
        st.floats(0.0, 48.0),
        st.sampled_from(["active", "active", "active", "destroyed", "embarked"]),
        st.booleans(),  # wreck (if destroyed)
        st.integers(0, 9),  # hidden if 0
    ),
    min_size=26,
    max_size=26,
)


def _arrange(state: SevenDaysState, where: list[tuple[float, float, str, bool, int]]) -> None:
    for unit, (x, y, status, wreck, hidden) in zip(state.units.values(), where, strict=False):
        unit.x, unit.y = round(x, 2), round(y, 2)
        unit.status = Status(status)
        unit.wreck = status == "destroyed" and wreck
        unit.hidden = hidden == 0 and status == "active"
        unit.marker = unit.uid if unit.hidden else None
    state.touch()


@settings(max_examples=60, deadline=None)
@given(places, st.data())
def test_rules_queries_are_the_scans(
    where: list[tuple[float, float, str, bool, int]], data: st.DataObject
) -> None:
    """Over random arrangements, then over a few units moved, removed or wrecked at a time
    (the index is brought up to date by moving only those)."""
    ruleset, state = _state()
    world = ruleset.world(state)
    try:
        _arrange(state, where)
        _compare(world, state, data)
        for _ in range(3):
            for n in data.draw(st.lists(st.integers(0, len(where) - 1), max_size=4)):
                where[n] = data.draw(places)[0]
            _arrange(state, where)
            _compare(world, state, data)
    finally:
        world.index_min_units = INDEX_MIN_UNITS


def _compare(world: World, state: SevenDaysState, data: st.DataObject) -> None:
    units: list[Unit] = list(state.units.values())
    for _ in range(8):
        firer = data.draw(st.sampled_from(units))
        target = data.draw(st.sampled_from(units))
        if firer is target:
            continue
        reach = data.draw(st.floats(0.5, 6.0))
        a, b = firer.pos, target.pos
        box = (
            min(a[0], b[0]) - reach,
            min(a[1], b[1]) - reach,
            max(a[0], b[0]) + reach,
            max(a[1], b[1]) + reach,
        )
        assert los._bodies(world, state, firer, target, a, b, reach) == los._bodies_scan(
            world, state, firer, target, box
        )
        for known_only in (False, True):
            assert firing._foot_close(world, state, firer, known_only) == firing._foot_close_scan(
                world, state, firer, known_only
            )
        assert movement.nearest_enemy(world, state, firer) == movement.nearest_enemy_scan(
            state, firer
        )
        x = data.draw(st.floats(0.0, 72.0))
        y = data.draw(st.floats(0.0, 48.0))
        # right next to a unit too: the edge of the 1" limit
        near_x = target.x + data.draw(st.floats(-1.2, 1.2))
        near_y = target.y + data.draw(st.floats(-1.2, 1.2))
        for px, py in ((x, y), (near_x, near_y)):
            for assaulting in (None, target.uid):
                assert movement._too_close(
                    world, state, firer, px, py, assaulting
                ) == movement._too_close_scan(world, state, firer, px, py, assaulting)


def test_a_copy_of_a_unit_is_answered_by_the_scan() -> None:
    """A unit that is not the state's own (a stand-in copy) is not told apart by its uid."""
    ruleset, state = _state()
    world = ruleset.world(state)
    try:
        units = list(state.units.values())
        firer, target = units[0], units[-1]
        copy = Unit(**{f: getattr(firer, f) for f in firer.__slots__})
        assert not world.holds(state, copy)
        assert world.holds(state, firer)
        reach = 3.0
        a, b = copy.pos, target.pos
        box = (
            min(a[0], b[0]) - reach,
            min(a[1], b[1]) - reach,
            max(a[0], b[0]) + reach,
            max(a[1], b[1]) + reach,
        )
        got = los._bodies(world, state, copy, target, a, b, reach)
        assert got == los._bodies_scan(world, state, copy, target, box)
    finally:
        world.index_min_units = INDEX_MIN_UNITS
