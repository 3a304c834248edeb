"""The shared movement search (geometry/reach.py) on both grids: cheapest costs, paths,
zone-of-control stops, stacking limits on where a move ends, impassable steps, determinism."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.geometry.hexgrid import HexMap, hexside
from umpire.geometry.reach import Reach, reach
from umpire.geometry.squaregrid import Grid, Square


@dataclass(frozen=True)
class World:
    """One movement question on either grid, with everything the search is told."""

    start: Any
    cells: tuple[Any, ...]
    neighbours: Callable[[Any], list[Any]]
    step_cost: Callable[[Any, Any], float | None]
    blocked: frozenset[Any]  # may not be entered (enemy units)
    stop: frozenset[Any]  # zone of control: entering ends the move
    full: frozenset[Any]  # stacking: may be crossed, not ended in

    def search(self, budget: float) -> Reach[Any]:
        return reach(
            self.start,
            budget,
            self.neighbours,
            self.step_cost,
            may_enter=lambda c: c not in self.blocked,
            stops=lambda c: c in self.stop,
            may_end=lambda c: c not in self.full,
        )


COSTS = st.sampled_from([1.0, 1.0, 1.0, 2.0, 3.0, 0.5, 0.0, None])


@st.composite
def square_worlds(draw: st.DrawFn) -> World:
    grid = Grid(draw(st.integers(1, 7)), draw(st.integers(1, 7)))
    cells = tuple(grid.squares())
    enter_cost = {c: draw(COSTS) for c in cells}

    def step_cost(a: Square, b: Square) -> float | None:
        return enter_cost[b]

    return _world(
        draw, cells[draw(st.integers(0, len(cells) - 1))], cells, grid.neighbours, step_cost
    )


TERRAIN_COSTS: dict[str, float | None] = {
    "clear": 1,
    "rough": 2,
    "woods": 3,
    "road": 0.5,
    "lake": None,
}


@st.composite
def hex_maps(draw: st.DrawFn) -> HexMap:
    bare = HexMap(
        draw(st.integers(1, 7)),
        draw(st.integers(1, 7)),
        draw(st.sampled_from(["even-q", "odd-q"])),
    )
    hexes = bare.hexes()
    terrain = {h: draw(st.sampled_from(sorted(TERRAIN_COSTS))) for h in hexes}
    sides = sorted({hexside(h, n) for h in hexes for n in bare.neighbours(h)})
    features = st.sampled_from([frozenset({"river"}), frozenset({"stream"})])
    chosen = draw(st.dictionaries(st.sampled_from(sides), features)) if sides else {}
    return HexMap(bare.width, bare.height, bare.layout, terrain=terrain, hexsides=chosen)


HEXSIDE_COSTS: dict[str, float | None] = {"river": None, "stream": 1}


@st.composite
def hex_worlds(draw: st.DrawFn) -> World:
    hexmap = draw(hex_maps())
    cells = tuple(hexmap.hexes())
    start = cells[draw(st.integers(0, len(cells) - 1))]
    step_cost = hexmap.step_cost(TERRAIN_COSTS, HEXSIDE_COSTS)
    return _world(draw, start, cells, hexmap.neighbours, step_cost)


def _world(
    draw: st.DrawFn,
    start: Hashable,
    cells: tuple[Any, ...],
    neighbours: Callable[[Any], list[Any]],
    step_cost: Callable[[Any, Any], float | None],
) -> World:
    some = st.frozensets(st.sampled_from(cells), max_size=len(cells))
    return World(start, cells, neighbours, step_cost, draw(some), draw(some), draw(some))


worlds = st.one_of(square_worlds(), hex_worlds())
budgets = st.sampled_from([0, 0.5, 1, 2, 3, 4.5, 6, 10])


def cheapest_by_relaxation(world: World, budget: float) -> dict[Any, float]:
    """An independent, slow oracle: relax every edge until nothing improves."""
    best: dict[Any, float] = {world.start: 0.0}
    changed = True
    while changed:
        changed = False
        for cell, cost in list(best.items()):
            if cell != world.start and cell in world.stop:
                continue
            for n in world.neighbours(cell):
                step = world.step_cost(cell, n)
                if n == world.start or n in world.blocked or step is None:
                    continue
                if cost + step <= budget and cost + step < best.get(n, math.inf):
                    best[n] = cost + step
                    changed = True
    return best


@settings(max_examples=300, deadline=None)
@given(worlds, budgets)
def test_costs_are_the_cheapest_within_budget(world: World, budget: float) -> None:
    result = world.search(budget)
    assert dict(result.reached) == cheapest_by_relaxation(world, budget)


@settings(max_examples=300, deadline=None)
@given(worlds, budgets)
def test_moves_never_end_where_may_end_refuses(world: World, budget: float) -> None:
    result = world.search(budget)
    assert set(result) == {c for c in result.reached if c not in world.full}
    assert all(result[c] == result.reached[c] for c in result)


@settings(max_examples=300, deadline=None)
@given(worlds, budgets)
def test_paths_are_legal_and_add_up(world: World, budget: float) -> None:
    result = world.search(budget)
    for cell, cost in result.reached.items():
        path = result.path(cell)
        assert path[0] == world.start and path[-1] == cell
        total = 0.0
        for a, b in zip(path, path[1:], strict=False):
            assert b in world.neighbours(a)
            assert b not in world.blocked
            step = world.step_cost(a, b)
            assert step is not None
            total += step
        assert total == cost <= budget
        # zone-of-control cells are entered but never left in the same move
        assert not any(c in world.stop for c in path[1:-1])


@settings(max_examples=200, deadline=None)
@given(worlds, budgets, budgets)
def test_reach_is_monotone_in_budget(world: World, b1: float, b2: float) -> None:
    small, large = world.search(min(b1, b2)), world.search(max(b1, b2))
    assert set(small.reached) <= set(large.reached)
    assert set(small) <= set(large)
    assert all(large.reached[c] == cost for c, cost in small.reached.items())


@settings(max_examples=100, deadline=None)
@given(worlds, budgets)
def test_same_question_same_answer(world: World, budget: float) -> None:
    first, second = world.search(budget), world.search(budget)
    assert list(first.items()) == list(second.items())
    assert [first.path(c) for c in first.reached] == [second.path(c) for c in second.reached]


# Worked examples


def test_open_board_reach_is_the_manhattan_diamond() -> None:
    grid = Grid(6, 6)
    result = grid.reach((2, 2), 2)
    assert sorted(result) == sorted(grid.within((2, 2), 2))
    assert result[(2, 4)] == 2 and result[(2, 2)] == 0
    assert list(result)[0] == (2, 2)  # settled cheapest first


def test_zone_of_control_stops_but_the_start_does_not() -> None:
    grid = Grid(5, 1)  # a corridor (0,0)..(4,0)
    zoc = {(0, 0), (2, 0)}
    result = grid.reach((0, 0), 4, stops=lambda sq: sq in zoc)
    assert sorted(result) == [(0, 0), (1, 0), (2, 0)]  # leaves its start, stops at (2, 0)


def test_full_square_may_be_crossed_but_not_ended_in() -> None:
    grid = Grid(4, 1)
    result = grid.reach((0, 0), 3, may_end=lambda sq: sq != (1, 0))
    assert (1, 0) not in result and (1, 0) in result.reached
    assert result.path((3, 0)) == ((0, 0), (1, 0), (2, 0), (3, 0))


def test_forbidden_steps_and_cells() -> None:
    grid = Grid(3, 3)
    wall: set[tuple[Square, Square]] = {((1, 1), (1, 2)), ((1, 2), (1, 1))}
    result = grid.reach(
        (1, 1),
        3,
        step_cost=lambda a, b: None if (a, b) in wall else 1,
        may_enter=lambda sq: sq != (0, 1),
    )
    assert (0, 1) not in result.reached
    assert result[(1, 2)] == 3  # round the wall, the short way west being blocked
    assert result.path((1, 2)) == ((1, 1), (2, 1), (2, 2), (1, 2))


def test_ties_go_to_the_first_neighbour_and_tiebreak_avoids_hazards() -> None:
    grid = Grid(2, 2)
    plain = grid.reach((0, 0), 2)
    assert plain.path((1, 1)) == ((0, 0), (0, 1), (1, 1))  # N is listed before E
    mines = {(0, 1)}
    careful = grid.reach((0, 0), 2, tiebreak=lambda a, b: 1.0 if b in mines else 0.0)
    assert careful.path((1, 1)) == ((0, 0), (1, 0), (1, 1))
    assert careful[(1, 1)] == 2  # the tiebreak never counts against the budget


def test_bad_budgets_and_costs_are_refused() -> None:
    grid = Grid(2, 1)
    with pytest.raises(ValueError):
        grid.reach((0, 0), -1)
    with pytest.raises(ValueError):
        grid.reach((0, 0), 2, step_cost=lambda a, b: -1)
    with pytest.raises(KeyError):
        grid.reach((0, 0), 0).path((1, 0))


def test_generic_cells_need_only_be_hashable() -> None:
    towns = {"A": ["B", "C"], "B": ["A", "D"], "C": ["A", "D"], "D": ["B", "C"]}
    roads = {("A", "B"): 1, ("B", "D"): 1, ("A", "C"): 1, ("C", "D"): 3}
    result = reach("A", 5, lambda t: towns[t], lambda a, b: roads.get((a, b), roads.get((b, a))))
    assert dict(result) == {"A": 0, "B": 1, "C": 1, "D": 2}
    assert result.path("D") == ("A", "B", "D")
