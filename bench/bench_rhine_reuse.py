"""7 Days to the Rhine: how much of the scripted player's movement work could be carried
between decisions or skipped, per game (counts, not times; issue 13's speed aim).

    python bench/bench_rhine_reuse.py --games 10

Plays scripted-vs-scripted games as ``bench_rhine`` does and counts, per game:

* ``searches``: movement searches run (``reach.search`` calls its cache does not answer);
  ``reusable``: how many of them an earlier search of the same game would answer if searches
  were keyed only by what they can read (the blocked hexes, zones, refugees and air range
  within the unit's reach at the map's plain step costs, a superset of the hexes reached): the
  most that carrying reach tables between phases could save; ``blocked_only``: searches whose
  last search from the same hex and budget differed only in blocked hexes.
* ``evaluations``: units the player weighs in its movement phases; ``moves`` and ``stays``;
  ``prunable``: stays that a bound (the best score of any hex within the plain-cost reach of
  twice the unit's allowance, or the exit) proves before any search: the most that pruning by
  a cheap bound could save.
"""

from __future__ import annotations

import argparse
import heapq
from collections import Counter
from collections.abc import Iterable
from typing import Any

from umpire.core.game import Game
from umpire.play import LazyActions
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import agent as A
from umpire.rulesets.rhine import reach as RR
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.model import World


def plain_costs(world: World, origin: str) -> dict[str, float]:
    """Each hex's cost from ``origin`` at the map's plain step costs (no zone, refugee or
    air range extra, nothing blocked): never more than a search's cost."""
    edges = RR.static_edges(world)
    best = {origin: 0.0}
    queue = [(0.0, origin)]
    while queue:
        spent, h = heapq.heappop(queue)
        if spent > best[h]:
            continue
        for n, cost, _ in edges.out[h]:
            total = spent + cost
            if total < best.get(n, float("inf")):
                best[n] = total
                heapq.heappush(queue, (total, n))
    return best


def count(scenario: str, games: int, seed0: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    seen: set[tuple[Any, ...]] = set()
    last: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    plain: dict[tuple[int, str], dict[str, float]] = {}
    search = RR.search

    def counted(world: World, origin: str, entry: Any, budget: float, *rest: Any) -> Any:
        blocked, zone, recon, night, refugees, air = rest
        if (world, origin, entry, budget, *rest) not in RR._SEARCHES:
            counts["searches"] += 1
            if origin != RR.OFF:
                costs = plain.get((id(world), origin))
                if costs is None:
                    costs = plain[(id(world), origin)] = plain_costs(world, origin)
                near = frozenset(h for h, c in costs.items() if c <= budget)
                key = (origin, budget, recon, night, *(s & near for s in (blocked, zone)))
                key += (refugees & near, air & near)
                counts["reusable"] += key in seen
                seen.add(key)
                before = last.get((origin, budget, recon, night))
                now = (blocked, zone, refugees, air)
                if before is not None and before[0] != now[0] and before[1:] == now[1:]:
                    counts["blocked_only"] += 1
                last[(origin, budget, recon, night)] = now
        return search(world, origin, entry, budget, *rest)

    move = A.RhineScripted._move

    def weighed(self: A.RhineScripted, w: World, board: A._Board, units: Iterable[Any]) -> Any:
        listed: list[Any] = []  # the units the player asked for (it asks unit by unit)

        def asked() -> Iterable[Any]:
            for item in units:
                listed.append(item)
                yield item

        chosen = move(self, w, board, asked())
        enemy = self._enemy_hexes(w, board)
        occ = board.occupancy(w)
        adj: dict[str, int] = {}
        for h, us in enemy.items():
            for n in w.neighbours[h]:
                adj[n] = adj.get(n, 0) + sum(w.units[u].strength for u in us)
        for unit, _ in listed:
            here = board.pos.get(unit)
            moved = chosen is not None and chosen.unit == unit
            counts["evaluations"] += 1
            counts["moves" if moved else "stays"] += 1
            if not moved and here is not None and not w.units[unit].heliborne:
                stay = self._score(w, board, unit, here, enemy, adj, occ)
                strength = w.units[unit].strength
                budget = 2 * R.movement_allowance(w, board, unit)
                costs = plain_costs(w, here)
                best = max(
                    (
                        self._score_joining(w, board, strength, h, enemy, adj, occ)
                        for h, c in costs.items()
                        if c <= budget and h != here
                    ),
                    default=-99.0,
                )
                if w.exit_column is not None and self.side == "pact":
                    best = max(best, self._score_joining(w, board, strength, "exit", {}, {}, {}))
                counts["prunable"] += best <= stay + 0.25
            if moved:
                break
        return chosen

    R.search = counted  # type: ignore[attr-defined,assignment]
    A.RhineScripted._move = weighed  # type: ignore[method-assign]
    try:
        for seed in range(seed0, seed0 + games):
            seen.clear()
            last.clear()
            game = Game(RULESET, scenario, seed)
            agents = {s: A.RhineScripted(s, seed) for s in RULESET.meta.players}
            while not game.is_over:
                side = game.to_act
                assert side is not None
                game.apply(agents[side].choose(game.view(side), LazyActions(game)))
    finally:
        R.search = search  # type: ignore[attr-defined]
        A.RhineScripted._move = move  # type: ignore[method-assign]
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--scenario", action="append", default=None)
    args = parser.parse_args()
    for scenario in args.scenario or RULESET.scenario_ids():
        c = count(scenario, args.games, args.seed)
        per = ", ".join(f"{k} {c[k] / args.games:.1f}" for k in sorted(c))
        print(f"rhine/{scenario}: per game: {per}")


if __name__ == "__main__":
    main()
