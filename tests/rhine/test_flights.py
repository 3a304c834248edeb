"""Helicopter flights (issue 13, speed): the search taking each cost's hexes together, in
hex-id order, flies the same flights as a plain Dijkstra with a heap of (cost, hex).

rhine.heli.ignore / rhine.heli.path (house: the route crossing the fewest enemy-held or EZOC
hexes, then the fewest hexes, ties to the hex id first in order): a heliborne unit flies over
anything but the enemy's air range and friendly EW-marked stacks, up to its MA when jammed,
and may not end in an enemy hex or a friendly one it could not join. Compared at every flight
listing of whole games of both scenarios, and with made-up hostile, avoided and refused hexes
and limits.
"""

from __future__ import annotations

import heapq
import random
from typing import Any

import pytest

from tests.rhine.helpers import play_scripted
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.model import World


def plain_flights(
    world: World,
    origin: str,
    entry: tuple[str, ...],
    limit: int,
    hostile: frozenset[str],
    avoid: frozenset[str],
    enemy_occ: frozenset[str],
    nojoin: frozenset[str],
    exit_hexes: frozenset[str] | None = None,
) -> tuple[R.MoveOption, ...]:
    """The heap's version: (cost, hex) popped in order, each hex's route walked back; the
    exit (rhine.scenario.exit) from the exit-column hex reached crossing the fewest hostile
    hexes, then flying the fewest, then first by hex id."""
    span = limit + 1
    best: dict[str, int] = {origin: 0}
    parent: dict[str, str] = {}
    queue: list[tuple[int, str]] = [(0, origin)]
    done: set[str] = set()
    while queue:
        code, h = heapq.heappop(queue)
        if h in done:
            continue
        done.add(h)
        flown = code % span + 1
        if flown > limit:
            continue
        crossed = code - code % span
        for n in entry if h == R.OFF else world.neighbours[h]:
            if n in avoid:
                continue
            key = crossed + span + flown if n in hostile else crossed + flown
            known = best.get(n)
            if known is not None and known <= key:
                continue
            best[n] = key
            parent[n] = h
            heapq.heappush(queue, (key, n))
    out = []
    for h, code in best.items():
        if h in (origin, R.OFF) or h in enemy_occ or h in nojoin:
            continue
        route = [h]
        while route[-1] != origin:
            route.append(parent[route[-1]])
        if origin == R.OFF:
            route.pop()
        out.append(R.MoveOption(h, "heli", float(code // span), tuple(reversed(route))))
    if exit_hexes is not None:
        edge = sorted(
            (code, h)
            for h, code in best.items()
            if h in exit_hexes
            and h not in enemy_occ
            and (h == origin or h not in nojoin)
            and code % span < limit
        )
        if edge:
            code, h = edge[0]
            route = [h]
            while route[-1] != origin:
                route.append(parent[route[-1]])
            if origin == R.OFF:
                route.pop()
            out.append(R.MoveOption("exit", "heli", float(code // span), tuple(reversed(route))))
    return tuple(out)


@pytest.mark.parametrize(
    ("scenario", "seeds"), [("autobahn-gap", (90, 91)), ("kinzig-valley", (92,))]
)
def test_flights_are_the_heaps_over_whole_games(
    scenario: str, seeds: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    quick = R.flights
    asked: list[Any] = []
    rng = random.Random(scenario)

    def both(*args: Any) -> tuple[R.MoveOption, ...]:
        got = quick(*args)
        assert got == plain_flights(*args)
        world, origin, entry, limit, hostile, avoid, enemy_occ, nojoin, exits = args
        ids = world.ids
        # the same flight with other hexes hostile, avoided or refused, and a shorter limit
        more = frozenset(rng.sample(ids, 20))
        other = (
            world,
            origin,
            entry,
            rng.randint(1, 12),
            hostile | more,
            avoid,
            enemy_occ,
            nojoin,
            exits,
        )
        assert quick(*other) == plain_flights(*other)
        other = (
            world,
            origin,
            entry,
            limit,
            hostile,
            avoid | more - {origin},
            enemy_occ,
            more,
            exits,
        )
        assert quick(*other) == plain_flights(*other)
        # the same flight with an exit column where the game has none, or another one
        col = world.column(rng.choice(ids))
        column = frozenset(h for h in ids if world.column(h) == col)
        other = (world, origin, entry, limit, hostile, avoid, enemy_occ, nojoin, column)
        assert quick(*other) == plain_flights(*other)
        asked.append(args)
        return got

    monkeypatch.setattr(R, "flights", both)
    R._ANSWERS.clear()  # every listing worked out here
    for seed in seeds:
        play_scripted(scenario, seed)
    assert len(asked) >= 2 * len(seeds)  # flights were listed
