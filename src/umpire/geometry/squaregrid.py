"""A grid of squares: orthogonal distance, facing an edge, 90-degree arcs, lines between centres.

Squares are ``(x, y)`` pairs of integers, ``x`` growing east and ``y`` growing north. A unit
faces one of the four edges of its square: ``"N"``, ``"E"``, ``"S"`` or ``"W"`` (never a
corner). Distances are counted through edges, never corners (Manhattan distance). A 90-degree
arc sweeps from one 45-degree diagonal line of squares to the other, both diagonals included.
Movement searches use the search shared with the hex map (:mod:`umpire.geometry.reach`).
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from umpire.geometry.reach import Reach, always, never
from umpire.geometry.reach import reach as search

Square = tuple[int, int]
FACINGS: tuple[str, ...] = ("N", "E", "S", "W")
VECTORS: dict[str, Square] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
ARROWS: dict[str, str] = {"N": "^", "E": ">", "S": "v", "W": "<"}
OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
Aspect = Literal["front", "flank", "rear"]


def distance(a: Square, b: Square) -> int:
    """Squares counted through edges (orthogonally), never through corners."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def adjacent(a: Square, b: Square) -> bool:
    """Orthogonally adjacent: the two squares share an edge."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def step(square: Square, facing: str) -> Square:
    """The square across the ``facing`` edge."""
    dx, dy = VECTORS[facing]
    return (square[0] + dx, square[1] + dy)


def neighbours(square: Square) -> list[Square]:
    """The four orthogonally adjacent squares (N, E, S, W), on or off any board."""
    x, y = square
    return [(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)]


def one_point(a: Square, b: Square) -> float:
    """Every step costs one movement point (the default step cost of :meth:`Grid.reach`)."""
    return 1.0


def in_arc(
    origin: Square, facing: str, target: Square, arc: Literal["front", "rear"] = "front"
) -> bool:
    """Whether ``target`` lies in the 90-degree arc to the front (or rear) of ``origin``."""
    fx, fy = VECTORS[facing]
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    along = dx * fx + dy * fy
    across = abs(dx * fy - dy * fx)
    if arc == "rear":
        along = -along
    return along > 0 and across <= along


def aspect(square: Square, facing: str, other: Square) -> Aspect:
    """Where ``other`` lies as seen by a unit at ``square`` facing ``facing``."""
    if in_arc(square, facing, other, "front"):
        return "front"
    if in_arc(square, facing, other, "rear"):
        return "rear"
    return "flank"


def facing_towards(origin: Square, target: Square) -> str:
    """The edge to face to look at ``target`` (the longer axis; north/south on a diagonal)."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    if abs(dx) > abs(dy):
        return "E" if dx > 0 else "W"
    return "N" if dy > 0 else "S"


def _slab(a: int, d: int, c: int) -> tuple[Fraction, Fraction] | None:
    """The open interval of t where ``a + t*d`` lies strictly inside ``(c - 1/2, c + 1/2)``."""
    if d == 0:
        return (Fraction(-1), Fraction(2)) if a == c else None
    t1 = Fraction(2 * (c - a) - 1, 2 * d)
    t2 = Fraction(2 * (c - a) + 1, 2 * d)
    return (t1, t2) if t1 < t2 else (t2, t1)


@lru_cache(maxsize=65536)
def squares_between(a: Square, b: Square) -> tuple[Square, ...]:
    """Squares whose interior the straight line between the centres of ``a`` and ``b`` crosses,
    ``a`` and ``b`` excluded. A line through a corner only touches the squares meeting there
    diagonally, so they are not crossed. Exact (rational arithmetic)."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    out: list[tuple[Fraction, Square]] = []
    for x in range(min(ax, bx), max(ax, bx) + 1):
        sx = _slab(ax, dx, x)
        if sx is None:
            continue
        for y in range(min(ay, by), max(ay, by) + 1):
            if (x, y) in (a, b):
                continue
            sy = _slab(ay, dy, y)
            if sy is None:
                continue
            lo = max(sx[0], sy[0], Fraction(0))
            hi = min(sx[1], sy[1], Fraction(1))
            if lo < hi:
                out.append((lo, (x, y)))
    out.sort()
    return tuple(sq for _, sq in out)


def toward(target: Square, source: Square) -> Square:
    """The unit step from ``target`` towards ``source`` along the longer axis (ties: N/S)."""
    dx, dy = source[0] - target[0], source[1] - target[1]
    if abs(dx) > abs(dy):
        return (1 if dx > 0 else -1, 0)
    if dy == 0:
        return (0, 0)
    return (0, 1 if dy > 0 else -1)


def label(square: Square) -> str:
    """A chessboard-style name: column letter and row number from 1, e.g. ``(2, 3)`` -> ``C4``;
    a square no such name reaches (a column past ZZ, a row before 1) as ``(x, y)``."""
    x, y = square
    if not (0 <= x < 26 * 27 and y >= 0):
        return f"({x}, {y})"
    letters = string.ascii_uppercase
    col = letters[x] if x < 26 else letters[x // 26 - 1] + letters[x % 26]
    return f"{col}{y + 1}"


def parse_label(text: str) -> Square:
    """The inverse of :func:`label`; raises ``ValueError`` on anything else."""
    raw = text.strip().upper()
    letters = "".join(c for c in raw if c.isalpha())
    digits = raw[len(letters) :]
    if not letters or not digits.isdigit() or len(letters) > 2 or int(digits) < 1:
        raise ValueError(f"{text!r} is not a square name like 'C4'")
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("A") + 1)
    return (col - 1, int(digits) - 1)


@dataclass(frozen=True)
class Grid:
    """A rectangular board ``width`` squares wide and ``height`` squares deep."""

    width: int
    height: int

    def inside(self, square: Square) -> bool:
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def neighbours(self, square: Square) -> list[Square]:
        """Orthogonally adjacent squares on the board."""
        return [n for n in neighbours(square) if self.inside(n)]

    def squares(self) -> list[Square]:
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def within(self, square: Square, reach: int) -> list[Square]:
        """Squares on the board at most ``reach`` squares away (orthogonally)."""
        x0, y0 = square
        out = []
        for x in range(max(0, x0 - reach), min(self.width, x0 + reach + 1)):
            rest = reach - abs(x - x0)
            for y in range(max(0, y0 - rest), min(self.height, y0 + rest + 1)):
                out.append((x, y))
        return out

    def reach(
        self,
        start: Square,
        budget: float,
        *,
        step_cost: Callable[[Square, Square], float | None] = one_point,
        may_enter: Callable[[Square], bool] = always,
        stops: Callable[[Square], bool] = never,
        may_end: Callable[[Square], bool] = always,
        tiebreak: Callable[[Square, Square], float] | None = None,
    ) -> Reach[Square]:
        """Squares on the board a unit at ``start`` may move to with ``budget`` movement
        points, stepping orthogonally (one point a step unless ``step_cost`` says otherwise);
        the keyword arguments are as in :func:`umpire.geometry.reach.reach`."""
        return search(
            start,
            budget,
            self.neighbours,
            step_cost,
            may_enter=may_enter,
            stops=stops,
            may_end=may_end,
            tiebreak=tiebreak,
        )
