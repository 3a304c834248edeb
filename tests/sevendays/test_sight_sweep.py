"""The scripted player's sight sweep over every enemy and the bodies along a sight line, done
with less work (issue 19), against the plain rule over many positions of whole games.

Book p15 (rule sevendays.los.blockers): a unit sees another unless blocking terrain, an enemy
vehicle or a wreck lies across the line between their centres; a vehicle of the firer's own
side only obscures it (sevendays.los.obscured), and nothing on the ground hides a helicopter
(sevendays.air.helicopter, house). The terrain part of the answer is static, so:

- ``los.terrain_blocked_all`` (one sweep from a firer to every enemy) must give, pair by pair,
  what ``los.prefetch_between`` and ``los.terrain_blocked`` give, and what the table's own
  ``terrain_blocks`` says of the line, for helicopters too;
- ``GridIndex.along`` (the cells a band around a line crosses) must hold every item nearer the
  line than the band's half-width;
- ``los._bodies_near`` (the bodies a sight line reads, from the cells along the line) must be
  ``los._bodies_scan``'s bodies (a scan of every unit) nearer the line than its reach.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import umpire
from umpire.agents import make_agent
from umpire.core.game import Game
from umpire.geometry.spatial import GridIndex
from umpire.geometry.table import segment_point_distance
from umpire.rulesets.sevendays import los
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import INDEX_MIN_UNITS, World

from ..conftest import MakeGame, unit


def _fresh(base: World) -> World:
    """A world on the same scenario with empty caches (a table traced anew)."""
    world = World(base.scenario, base.house)
    world.table = type(base.table)(base.table.width, base.table.height, base.table.areas)
    return world


def _positions(
    scenario: str, seed: int, agents: str, every: int = 4, actions: int = 240
) -> Iterator[tuple[Game, World]]:
    """(game, world) at every ``every``-th decision of a game played by ``agents``."""
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
    for n in range(actions):
        side = game.to_act
        if side is None:
            break
        if n % every == 0:
            yield game, cast(SevenDays, game.ruleset).world(game.state)
        game.apply(players[side].choose(game.view(side), game.legal_actions()))


def _plain(world: World, firer: Unit, target: Unit) -> bool:
    """The terrain part of the rule, traced on its own by the table."""
    if world.is_helicopter(firer) or world.is_helicopter(target):
        return False
    return world.table.terrain_blocks((firer.x, firer.y), (target.x, target.y))


@pytest.mark.parametrize(
    "scenario,seed,agents",
    [("meeting-engagement", 3, "scripted"), ("breakthrough", 2, "random")],
)
def test_the_sweep_is_the_plain_check(scenario: str, seed: int, agents: str) -> None:
    kept: World | None = None  # a world whose caches fill as the game goes on
    counted = {True: 0, False: 0}
    for game, world in _positions(scenario, seed, agents):
        kept = kept or _fresh(world)
        alive = [u for u in game.state.units.values() if u.alive]
        for firer in alive:
            enemies = [t for t in alive if t.side != firer.side]
            swept = los.terrain_blocked_all(kept, firer, enemies)
            pairwise = _fresh(world)
            los.prefetch_between(pairwise, [firer], enemies, lazy=False, rays=False)
            assert swept == [los.terrain_blocked(pairwise, firer, t) for t in enemies]
            assert swept == [_plain(world, firer, t) for t in enemies]
            assert kept.sight_queue == []  # like prefetch_between without lazy
            for blocked in swept:
                counted[blocked] += 1
    assert counted[True] > 20 and counted[False] > 20  # both answers were checked


def test_nothing_on_the_ground_hides_a_helicopter(make_game: MakeGame) -> None:
    """A Lynx and a Chieftain behind the same wood from a T-64B: terrain blocks the tank's
    line only (sevendays.air.helicopter)."""
    game: Game = make_game(
        nato=[unit("l", "lynx", 36, 4), unit("c", "chieftain-mk9", 30, 4)],
        pact=[unit("t", "t64b", 33, 40), unit("i", "motor-rifles", 20, 44)],
        terrain=[{"id": "w", "kind": "woods", "rect": [20, 18, 46, 28]}],
    )
    world = cast(SevenDays, game.ruleset).world(game.state)
    units = game.state.units
    lynx, tank, t64 = units["nato-l"], units["nato-c"], units["pact-t"]
    assert world.table.terrain_blocks(lynx.pos, t64.pos)  # the wood is across both lines
    assert los.terrain_blocked_all(world, t64, [lynx, tank]) == [False, True]
    assert los.terrain_blocked_all(world, lynx, [t64, units["pact-i"]]) == [False, False]
    assert los.terrain_blocked_all(world, tank, [t64]) == [True]


coords = st.floats(-20.0, 160.0, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(coords, coords), min_size=1, max_size=60),
    st.tuples(coords, coords, coords, coords),
    st.floats(0.0, 9.0),
    st.sampled_from([1.0, 6.0, 12.0]),
)
def test_along_holds_every_item_near_the_line(
    points: list[tuple[float, float]],
    segment: tuple[float, float, float, float],
    reach: float,
    cell: float,
) -> None:
    index: GridIndex[int] = GridIndex(cell, ((x, y, n) for n, (x, y) in enumerate(points)))
    ax, ay, bx, by = segment
    found = index.along(ax, ay, bx, by, reach)
    assert [e[0] for e in found] == sorted(e[0] for e in found)  # in the order added
    assert len({e[0] for e in found}) == len(found)  # each item once
    near = {
        n for n, p in enumerate(points) if segment_point_distance((ax, ay), (bx, by), p) < reach
    }
    assert near <= {e[3] for e in found}
    # and along a line through a point, at no reach, that point itself
    x, y = points[0]
    assert 0 in {e[3] for e in index.along(x, y, x + 30.0, y - 7.0, 0.0 + 1e-12)}


def _near(
    bodies: tuple[list[los.Vec], list[los.Vec]], a: los.Vec, b: los.Vec, reach: float
) -> tuple[list[los.Vec], list[los.Vec]]:
    blocking, obscuring = bodies
    return (
        [p for p in blocking if segment_point_distance(a, b, p) < reach],
        [p for p in obscuring if segment_point_distance(a, b, p) < reach],
    )


def _compare_bodies(world: World, state: SevenDaysState) -> int:
    units = [u for u in state.units.values() if u.alive]
    found = 0
    for firer in units:
        for target in units:
            if firer is target:
                continue
            for reach in (0.5, 3.0, 5.5):
                a, b = firer.pos, target.pos
                box = (
                    min(a[0], b[0]) - reach,
                    min(a[1], b[1]) - reach,
                    max(a[0], b[0]) + reach,
                    max(a[1], b[1]) + reach,
                )
                got = los._bodies_near(world, state, firer, target, a, b, reach)
                want = _near(los._bodies_scan(world, state, firer, target, box), a, b, reach)
                # what sight reads of them (those nearer than reach), in the same order; from
                # the index, only those
                assert _near(got, a, b, reach) == want
                if world.holds(state, firer):
                    assert got == want
                found += len(got[0]) + len(got[1])
    return found


@pytest.mark.parametrize("scenario,seed", [("meeting-engagement", 6), ("breakthrough", 1)])
def test_bodies_along_the_line_are_the_scan(scenario: str, seed: int) -> None:
    """With the unit index asked on every table (not only one of ``INDEX_MIN_UNITS`` units),
    then without it."""
    found = 0
    worlds: list[World] = []
    try:
        for game, world in _positions(scenario, seed, "scripted", every=12, actions=200):
            if world not in worlds:
                worlds.append(world)
            world.index_min_units = 0
            assert world.holds(game.state, next(iter(game.state.units.values())))
            found += _compare_bodies(world, game.state)
            world.index_min_units = INDEX_MIN_UNITS
            found += _compare_bodies(world, game.state)
    finally:
        for world in worlds:
            world.index_min_units = INDEX_MIN_UNITS
    assert found > 0  # bodies near the lines were compared, not only empty lists


def test_a_long_line_visits_few_cells() -> None:
    """The point of ``along``: on a wide table a line crosses a band of cells, not the whole
    bounding box (here a diagonal across 288" x 48" with an item in every 12" cell)."""
    cell = 12.0
    items = [(i * cell + 6.0, j * cell + 6.0, (i, j)) for i in range(24) for j in range(4)]
    index: GridIndex[tuple[int, int]] = GridIndex(cell, items)
    found = index.along(1.0, 1.0, 287.0, 47.0, 3.0)
    assert len(found) < len(items) / 2
    boxed = index.box(-2.0, -2.0, 290.0, 50.0)
    assert len(boxed) == len(items)
    near = [e for e in boxed if segment_point_distance((1.0, 1.0), (287.0, 47.0), e[1:3]) < 3.0]
    assert {e[0] for e in near} <= {e[0] for e in found}
    assert math.isclose(len(near), len([e for e in found if e in near]))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_areas_at_is_the_scan_of_every_area(data: st.DataObject) -> None:
    """``Table.areas_at`` (asked only of the areas whose bounds reach the point's cell) names
    the areas holding a point, in table order, as a look at every area does: at random
    points, on the areas' corners and on the edges of their bounds."""
    game = umpire.new_game("sevendays/meeting-engagement", seed=0)
    table = cast(SevenDays, game.ruleset).world(game.state).table
    fresh = type(table)(table.width, table.height, table.areas)
    area = data.draw(st.sampled_from(table.areas))
    x0, y0, x1, y1 = area.bbox
    corners = list(area.polygon.exterior.coords)
    points = [
        (data.draw(st.floats(-2.0, 74.0)), data.draw(st.floats(-2.0, 50.0))),
        data.draw(st.sampled_from(corners)),
        (data.draw(st.sampled_from([x0, x1])), data.draw(st.floats(y0, y1))),
        (data.draw(st.floats(x0, x1)), data.draw(st.sampled_from([y0, y1]))),
    ]
    for x, y in points:
        assert fresh.areas_at(x, y) == tuple(a for a in table.areas if a.contains(x, y))
    inside = [(x, y) for x, y in corners if area in fresh.areas_at(x, y)]
    assert inside  # an area holds its own corners (its edge is part of it)
