"""One movement search for every grid: where a unit may go with its movement points.

The search is Dijkstra over movement points, generic in the cell type, so the square grid, the
hex map and any ruleset with its own adjacency share it. A ruleset says what one step costs
(``None``: the step is forbidden, e.g. a river hexside without a bridge), which cells may be
entered at all, which cells stop a unit that enters them (zones of control, woods) and where a
move may end (stacking limits: a unit may pass through a full cell but not stay in it).

Results are deterministic: among equally cheap paths the first one found wins, and cells are
found in the order ``neighbours`` lists them, so the same question always gets the same path.
Costs are added as floats: use whole or halved movement points (exact in binary) or integers.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from itertools import count
from typing import TypeVar

C = TypeVar("C", bound=Hashable)


def always(cell: object) -> bool:
    """A cell predicate that holds everywhere (the default for ``may_enter`` and ``may_end``)."""
    return True


def never(cell: object) -> bool:
    """A cell predicate that holds nowhere (the default for ``stops``)."""
    return False


class Reach(Mapping[C, float]):
    """Where a move may end: a read-only mapping from each such cell to the cheapest cost of
    getting there, in the order the search settled them (cheapest first). The start is a key
    (cost 0) when ``may_end`` allows it. :attr:`reached` also holds the cells a unit may only
    pass through, and :meth:`path` gives the route the search chose to any of them."""

    __slots__ = ("_ends", "_parents", "_reached", "budget", "start")

    def __init__(
        self,
        start: C,
        budget: float,
        ends: dict[C, float],
        reached: dict[C, float],
        parents: dict[C, C],
    ) -> None:
        self.start = start
        self.budget = budget
        self._ends = ends
        self._reached = reached
        self._parents = parents

    def __getitem__(self, cell: C) -> float:
        return self._ends[cell]

    def __iter__(self) -> Iterator[C]:
        return iter(self._ends)

    def __len__(self) -> int:
        return len(self._ends)

    def __repr__(self) -> str:
        return f"Reach(start={self.start!r}, budget={self.budget!r}, ends={self._ends!r})"

    @property
    def reached(self) -> Mapping[C, float]:
        """Every cell the unit can enter within the budget, including cells it may not end in,
        with the cheapest cost of entering it."""
        return self._reached

    def path(self, cell: C) -> tuple[C, ...]:
        """The cheapest route from the start to ``cell``, both included.

        Raises ``KeyError`` if the unit cannot enter ``cell`` within the budget."""
        if cell not in self._reached:
            raise KeyError(cell)
        route = [cell]
        while route[-1] != self.start:
            route.append(self._parents[route[-1]])
        route.reverse()
        return tuple(route)


def reach(
    start: C,
    budget: float,
    neighbours: Callable[[C], Iterable[C]],
    step_cost: Callable[[C, C], float | None],
    *,
    may_enter: Callable[[C], bool] = always,
    stops: Callable[[C], bool] = never,
    may_end: Callable[[C], bool] = always,
    tiebreak: Callable[[C, C], float] | None = None,
) -> Reach[C]:
    """Every cell a unit at ``start`` may move to spending at most ``budget`` movement points.

    ``step_cost(a, b)`` is the cost of stepping from ``a`` into its neighbour ``b``, or ``None``
    when that step is forbidden; costs must not be negative. ``may_enter(cell)`` is False for
    cells the unit may not enter at all (off the map, held by the enemy). A unit that enters a
    cell where ``stops(cell)`` holds must stop there; the start never stops the unit, so it may
    leave a zone of control it began in. ``may_end(cell)`` is False where the move may not end
    (over-stacking): such cells are crossed but left out of the result's keys.

    ``tiebreak(a, b)`` is an optional second cost: among paths of equal cost the search keeps
    the one with the smallest total tiebreak (e.g. fewest minefields crossed). It never counts
    against the budget.
    """
    if math.isnan(budget) or budget < 0:
        raise ValueError(f"a movement budget must be zero or more, not {budget!r}")
    best: dict[C, tuple[float, float]] = {start: (0.0, 0.0)}
    parents: dict[C, C] = {}
    settled: dict[C, float] = {}
    order = count()
    queue: list[tuple[float, float, int, C]] = [(0.0, 0.0, next(order), start)]
    while queue:
        cost, extra, _, cell = heapq.heappop(queue)
        if cell in settled:
            continue
        settled[cell] = cost
        if cell != start and stops(cell):
            continue
        for nxt in neighbours(cell):
            if nxt in settled or not may_enter(nxt):
                continue
            step = step_cost(cell, nxt)
            if step is None:
                continue
            if not step >= 0:
                raise ValueError(f"a step from {cell!r} to {nxt!r} costs {step!r}, below zero")
            total = cost + step
            if total > budget:
                continue
            key = (total, extra + (tiebreak(cell, nxt) if tiebreak is not None else 0.0))
            known = best.get(nxt)
            if known is not None and known <= key:
                continue
            best[nxt] = key
            parents[nxt] = cell
            heapq.heappush(queue, (key[0], key[1], next(order), nxt))
    ends = {cell: cost for cell, cost in settled.items() if may_end(cell)}
    return Reach(start, budget, ends, settled, parents)
