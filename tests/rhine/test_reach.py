"""The movement search of ``rhine.reach`` (precomputed rows, one first-in first-out list per
cost) settles the same cells at the same costs, in the same order, with the same parents, as a
plain Dijkstra written from the rules' own step cost (:func:`rules.step_cost`: rhine.move.costs,
roads and autobahn, rivers, rhine.zoc.*, refugees, air range) with a heap of (cost, order,
cell), ties going to the cell reached first (the tie rule of ``geometry.reach``). Compared on
every search the scripted players ask for in whole games on both scenarios, and on the same
searches with extra hexes blocked."""

from __future__ import annotations

import heapq
import random
from typing import Any

import pytest

from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET, reach
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.model import World


def plain_search(
    world: World,
    origin_hex: str,
    entry: tuple[str, ...] | None,
    budget: float,
    blocked: frozenset[str],
    zone: frozenset[str],
    recon: bool,
    night: bool,
    refugees: frozenset[str],
    enemy_air: frozenset[str],
) -> tuple[list[tuple[tuple[str, bool], float]], dict[tuple[str, bool], tuple[str, bool]]]:
    """Cells (hex, must stop) in the order settled with their cost, and each cell's parent."""
    tec = world.tables.tec
    start = (origin_hex, False)
    best: dict[tuple[str, bool], float] = {start: 0.0}
    parent: dict[tuple[str, bool], tuple[str, bool]] = {}
    settled: dict[tuple[str, bool], float] = {}
    queue: list[tuple[float, int, tuple[str, bool]]] = [(0.0, 0, start)]
    order = 0
    while queue:
        spent, _, cell = heapq.heappop(queue)
        if cell in settled:
            continue
        settled[cell] = spent
        h, stop = cell
        if stop:
            continue  # it must stop here
        h_zone = h != reach.OFF and h in zone
        if h_zone and not (recon or night):
            continue  # rhine.zoc: no leaving an EZOC by day but for recon
        nxt_hexes = (entry or ()) if h == reach.OFF else world.neighbours[h]
        for n in nxt_hexes:
            if n in blocked:
                continue
            cost = R.step_cost(
                world,
                h,
                n,
                zone=set(zone),
                enemy_air=set(enemy_air),
                refugees=set(refugees),
                recon=recon,
                night=night,
            )
            assert cost is not None
            ends = False
            if h != reach.OFF:
                edge = frozenset((h, n))
                river = world.rivers.get(edge)
                road = edge in world.road_edges or edge in world.autobahn_edges
                ends = river is not None and tec.hexsides[river].ends_move and not road
            n_zone = n in zone
            if n_zone:
                if h_zone:
                    if not recon:
                        continue  # no ZOC to ZOC
                    must_stop = True
                else:
                    must_stop = not recon or ends
            else:
                must_stop = ends
            total = spent + cost
            if total > budget:
                continue
            nxt = (n, must_stop)
            known = best.get(nxt)
            if known is not None and known <= total:
                continue
            best[nxt] = total
            parent[nxt] = cell
            order += 1
            heapq.heappush(queue, (total, order, nxt))
    return list(settled.items()), parent


def _as_cells(world: World, found: reach.Searched) -> tuple[list[Any], dict[Any, Any], list[Any]]:
    settled, parents, _, firsts = found
    _, ids = reach.hex_numbers(world)

    def cell(c: int) -> tuple[str, bool]:
        return (ids[c >> 1], bool(c & 1))

    order = [(cell(c), cost) for c, cost in settled.items()]
    parent = {cell(c): cell(parents[c]) for c in settled if parents[c] >= 0}
    return order, parent, [cell(c) for c in firsts]


def recorded_searches(scenario: str, seed: int) -> list[tuple[Any, ...]]:
    """The inputs of every search one scripted game asks for."""
    calls: list[tuple[Any, ...]] = []
    real = reach.search

    def spy(*args: Any) -> reach.Searched:
        calls.append(args)
        return real(*args)

    setattr(R, "search", spy)  # noqa: B010 (the rules call it by this name)
    try:
        game = Game(RULESET, scenario, seed)
        agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
        while not game.is_over:
            side = game.to_act
            assert side is not None
            game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    finally:
        setattr(R, "search", real)  # noqa: B010
    return calls


@pytest.mark.parametrize("scenario,seed", [("autobahn-gap", 5), ("kinzig-valley", 6)])
def test_search_equals_a_plain_dijkstra(scenario: str, seed: int) -> None:
    # every search is made, not remembered from another test's games
    R._ANSWERS.clear()
    reach._SEARCHES.clear()
    calls = recorded_searches(scenario, seed)
    assert len(calls) > 20
    rng = random.Random(seed)
    checked = 0
    seen_night = seen_zone_stop = False
    for args in calls:
        world = args[0]
        # the search as asked, and again with a few more hexes blocked
        more = frozenset(rng.sample(world.ids, 6)) - {args[1]}
        for variant in (args, (*args[:4], args[4] | more, *args[5:])):
            reach._SEARCHES.clear()
            order, parent, firsts = _as_cells(world, reach.search(*variant))
            want_order, want_parent = plain_search(*variant)
            assert order == want_order
            assert parent == {c: want_parent[c] for c, _ in want_order if c in want_parent}
            seen: set[str] = set()
            want_firsts = []
            for (h, stop), _ in want_order:
                if h not in seen:
                    seen.add(h)
                    want_firsts.append((h, stop))
            assert firsts == want_firsts
            seen_night |= bool(variant[7])
            seen_zone_stop |= any(stop for (_, stop), _ in want_order)
            checked += 1
    assert checked == 2 * len(calls)
    assert seen_zone_stop  # searches where units had to stop (zones, rivers) were compared
    if scenario == "kinzig-valley":
        assert seen_night  # and night moves (leaving an EZOC)
