"""A grid bucket index of points on a table: which items lie in a box or near a point.

Items are bucketed in square cells of side ``cell``; a query visits only the cells that its
box overlaps, so its cost grows with the items near it, not with every item on the table.
Answers are exact (every item is tested against the query's own condition) and come back in
the order the items were added, so a caller that used to scan a list in order and now asks
the index gets the same items in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from operator import itemgetter
from typing import Generic, TypeVar

T = TypeVar("T")
Entry = tuple[int, float, float, T]  # (order added, x, y, item)


class GridIndex(Generic[T]):
    """Points (x, y) with a payload each, bucketed by grid cell."""

    __slots__ = ("cell", "_cells", "_count")

    def __init__(self, cell: float, items: Iterable[tuple[float, float, T]] = ()) -> None:
        if cell <= 0:
            raise ValueError("the cell size must be positive")
        self.cell = float(cell)
        # cell -> [(order, x, y, payload)]
        self._cells: dict[tuple[int, int], list[Entry[T]]] = {}
        self._count = 0
        for x, y, item in items:
            self.add(x, y, item)

    def __len__(self) -> int:
        return sum(len(bucket) for bucket in self._cells.values())

    def _cell_of(self, x: float, y: float) -> tuple[int, int]:
        return (math.floor(x / self.cell), math.floor(y / self.cell))

    def add(self, x: float, y: float, item: T) -> None:
        """Add ``item`` at (x, y) (after every item added before it, in answer order)."""
        self.put(self._count, x, y, item)

    def put(self, order: int, x: float, y: float, item: T) -> None:
        """Add ``item`` at (x, y) with its place ``order`` in answers (items are answered by
        ascending order; an item put back after :meth:`remove` keeps its old place)."""
        key = self._cell_of(x, y)
        bucket = self._cells.get(key)
        if bucket is None:
            bucket = self._cells[key] = []
        bucket.append((order, x, y, item))
        self._count = max(self._count, order + 1)

    def remove(self, order: int, x: float, y: float) -> None:
        """Remove the item of ``order`` that was put at (x, y) (no error if there is none)."""
        key = self._cell_of(x, y)
        bucket = self._cells.get(key)
        if bucket is None:
            return
        kept = [e for e in bucket if e[0] != order]
        if kept:
            self._cells[key] = kept
        else:
            del self._cells[key]

    def box(self, x0: float, y0: float, x1: float, y1: float) -> list[Entry[T]]:
        """The items with ``x0 <= x <= x1`` and ``y0 <= y <= y1``, in the order added, as
        entries ``(order, x, y, item)``."""
        if x0 > x1 or y0 > y1:
            return []
        cell = self.cell
        i0, i1 = math.floor(x0 / cell), math.floor(x1 / cell)
        j0, j1 = math.floor(y0 / cell), math.floor(y1 / cell)
        cells = self._cells
        found: list[Entry[T]] = []
        if (i1 - i0 + 1) * (j1 - j0 + 1) > len(cells):
            # a box wider than the occupied cells: visit those instead
            for (i, j), bucket in cells.items():
                if i0 <= i <= i1 and j0 <= j <= j1:
                    if i0 < i < i1 and j0 < j < j1:
                        found += bucket  # a cell inside the box: every item is in it
                    else:
                        found += [e for e in bucket if x0 <= e[1] <= x1 and y0 <= e[2] <= y1]
        else:
            get = cells.get
            for i in range(i0, i1 + 1):
                inner = i0 < i < i1
                for j in range(j0, j1 + 1):
                    near = get((i, j))
                    if near is not None:
                        if inner and j0 < j < j1:
                            found += near
                        else:
                            found += [e for e in near if x0 <= e[1] <= x1 and y0 <= e[2] <= y1]
        if len(found) > 1:
            found.sort(key=_first)
        return found

    def along(self, ax: float, ay: float, bx: float, by: float, reach: float) -> list[Entry[T]]:
        """Every item less than ``reach`` from the segment (ax, ay)-(bx, by), and maybe some
        more near it, in the order added: the items of the cells a band of half-width
        ``reach`` (widened by a rounding margin) around the segment overlaps, column by
        column, instead of every cell of the segment's bounding box (a long sight line across
        a wide table crosses few of its cells). Callers test their own distance condition."""
        reach = reach + 1e-9 * (1.0 + abs(reach) + abs(ax) + abs(ay) + abs(bx) + abs(by))
        cell = self.cell
        cells = self._cells
        x_lo, x_hi = (ax, bx) if ax <= bx else (bx, ax)
        dx, dy = bx - ax, by - ay
        floor = math.floor
        found: list[Entry[T]] = []
        i0, i1 = floor((x_lo - reach) / cell), floor((x_hi + reach) / cell)
        for i in range(i0, i1 + 1):
            # the part of the segment whose points lie within reach of this column in x
            s0 = max(i * cell - reach, x_lo)
            s1 = min((i + 1) * cell + reach, x_hi)
            if s0 > s1:  # rounding at the ends: take the whole segment's span of y
                s0, s1 = x_lo, x_hi
            if dx == 0.0:
                y0, y1 = (ay, by) if ay <= by else (by, ay)
            else:  # by the fraction of the segment at each end, kept within it
                t0 = min(max((s0 - ax) / dx, 0.0), 1.0)
                t1 = min(max((s1 - ax) / dx, 0.0), 1.0)
                y0, y1 = ay + t0 * dy, ay + t1 * dy
                if y0 > y1:
                    y0, y1 = y1, y0
            for j in range(floor((y0 - reach) / cell), floor((y1 + reach) / cell) + 1):
                near = cells.get((i, j))
                if near is not None:
                    found += near
        if len(found) > 1:
            found.sort(key=_first)
        return found

    def around(self, x: float, y: float, radius: float) -> list[Entry[T]]:
        """Every item with ``math.hypot(ix - x, iy - y) <= radius`` and maybe a few more just
        outside (the box around the circle, widened by a rounding margin), in the order
        added: callers test their own distance condition on these candidates."""
        reach = radius + 1e-9 * (1.0 + abs(radius) + abs(x) + abs(y))
        return self.box(x - reach, y - reach, x + reach, y + reach)

    def near(self, x: float, y: float, radius: float) -> list[Entry[T]]:
        """The items with ``math.hypot(ix - x, iy - y) < radius``, in the order added."""
        hypot = math.hypot
        return [e for e in self.around(x, y, radius) if hypot(e[1] - x, e[2] - y) < radius]


_first = itemgetter(0)
