"""A map of hexes for hex-and-counter games: map ids like ``"0612"``, distance, rings, lines,
hexsides, pixel centres, and movement over terrain and hexside features.

Hexes are flat-topped and stand in columns, as on most wargame maps: each hex has a north and a
south edge and four slanted ones, so the six directions are N, NE, SE, S, SW and NW. A hex is
held in axial coordinates ``Hex(q, r)``, with the cube coordinate ``s = -q - r``: ``q`` counts
columns eastward, a step S adds 1 to ``r`` and a step SE adds 1 to ``q``.

Map ids are the column number then the row number, zero-padded (``"0612"``: column 6, row 12);
rows count downward (south) as printed. Neighbouring columns sit half a hex apart, and a map's
*layout* names which columns, by the number printed in the id, sit lower:

- ``"even-q"``: even-numbered columns sit half a hex lower than the odd ones beside them. This
  is the common layout with 0101 in the top-left corner and 0201 half a hex below it.
- ``"odd-q"``: odd-numbered columns sit lower (0201 half a hex above 0101).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Literal, TypeAlias, get_args

from umpire.geometry.reach import Reach, always, never
from umpire.geometry.reach import reach as search

Layout = Literal["odd-q", "even-q"]
LAYOUTS: tuple[str, ...] = get_args(Layout)
SQRT3 = math.sqrt(3.0)


class Direction(IntEnum):
    """The six edges of a flat-topped hex, clockwise from north."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @property
    def vector(self) -> Hex:
        """The axial step across this edge."""
        return _VECTORS[self]

    @property
    def opposite(self) -> Direction:
        return Direction((self + 3) % 6)


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """One hex in axial coordinates (see the module docstring)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate: ``q + r + s == 0``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scaled(self, factor: int) -> Hex:
        return Hex(self.q * factor, self.r * factor)

    def neighbour(self, direction: Direction) -> Hex:
        """The hex across the ``direction`` edge."""
        return self + _VECTORS[direction]

    def to_pixel(self, size: float) -> tuple[float, float]:
        """The centre in pixels, ``x`` to the east and ``y`` to the south (screen axes), for
        hexes ``size`` pixels from centre to corner; ``Hex(0, 0)`` is at the origin."""
        return (size * 1.5 * self.q, size * SQRT3 * (self.r + self.q / 2))

    def corners(self, size: float) -> list[tuple[float, float]]:
        """The six corners in pixels, clockwise from the east corner, for drawing."""
        x, y = self.to_pixel(size)
        return [
            (x + size * math.cos(math.radians(60 * i)), y + size * math.sin(math.radians(60 * i)))
            for i in range(6)
        ]

    @classmethod
    def from_pixel(cls, x: float, y: float, size: float) -> Hex:
        """The hex holding the pixel ``(x, y)`` (inverse of :meth:`to_pixel`)."""
        q = (2 / 3) * x / size
        r = (-x / 3 + SQRT3 / 3 * y) / size
        return _round(q, r)


_VECTORS: dict[Direction, Hex] = {
    Direction.N: Hex(0, -1),
    Direction.NE: Hex(1, -1),
    Direction.SE: Hex(1, 0),
    Direction.S: Hex(0, 1),
    Direction.SW: Hex(-1, 1),
    Direction.NW: Hex(-1, 0),
}
DIRECTIONS: tuple[Direction, ...] = tuple(Direction)


def distance(a: Hex, b: Hex) -> int:
    """Hexes counted from ``a`` to ``b`` (0 for the same hex, 1 for neighbours)."""
    d = a - b
    return max(abs(d.q), abs(d.r), abs(d.s))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six adjacent hexes in direction order N, NE, SE, S, SW, NW, on or off any map."""
    return tuple(h + _VECTORS[d] for d in DIRECTIONS)


def direction_between(a: Hex, b: Hex) -> Direction:
    """The edge of ``a`` that ``b`` lies across; raises ``ValueError`` unless they touch."""
    d = b - a
    for direction, vector in _VECTORS.items():
        if d == vector:
            return direction
    raise ValueError(f"{a} and {b} are not adjacent")


def ring(center: Hex, radius: int) -> list[Hex]:
    """The ``6 * radius`` hexes exactly ``radius`` away (just ``center`` for radius 0),
    clockwise from the one due north."""
    if radius < 0:
        raise ValueError(f"a ring radius must be zero or more, not {radius}")
    if radius == 0:
        return [center]
    out: list[Hex] = []
    h = center + _VECTORS[Direction.N].scaled(radius)
    for corner in range(6):
        side = DIRECTIONS[(corner + 2) % 6]  # from the N corner, walk SE to the NE corner...
        for _ in range(radius):
            out.append(h)
            h = h.neighbour(side)
    return out


def within(center: Hex, radius: int) -> list[Hex]:
    """The ``3r(r+1) + 1`` hexes at most ``radius`` away, in spiral order: the centre, then
    each ring outward."""
    if radius < 0:
        raise ValueError(f"a radius must be zero or more, not {radius}")
    return [h for k in range(radius + 1) for h in ring(center, k)]


def _round(q: float, r: float) -> Hex:
    """The hex holding the fractional axial point ``(q, r)`` (cube rounding)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(rq, rr)


_NUDGE = 1e-6


def line(a: Hex, b: Hex, *, nudge: Literal[1, -1] = 1) -> list[Hex]:
    """The hexes a straight line from the centre of ``a`` to the centre of ``b`` passes
    through, ``a`` and ``b`` included: ``distance(a, b) + 1`` hexes, each adjacent to the next.

    Where the line runs exactly along a hexside, both ends are nudged by a tiny fixed amount so
    the line always falls on the same side; ``nudge=-1`` gives the other side, so a
    line-of-sight rule that looks at both hexes along a hexside can ask for each. The nudge is
    the same in both directions, so ``line(b, a)`` is ``line(a, b)`` reversed.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = _NUDGE * nudge
    aq, ar = a.q + eps, a.r + 2 * eps
    bq, br = b.q + eps, b.r + 2 * eps
    return [_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The edge between two adjacent hexes, named one way only: by the hex whose N, NE or SE
    edge it is. Build it with :func:`hexside` so both hexes give the same name."""

    hex: Hex
    direction: Direction

    def __post_init__(self) -> None:
        if self.direction not in (Direction.N, Direction.NE, Direction.SE):
            raise ValueError(
                f"a hexside is named by its N, NE or SE hex edge, not {self.direction.name}"
            )

    def hexes(self) -> tuple[Hex, Hex]:
        """The two hexes the side separates."""
        return (self.hex, self.hex.neighbour(self.direction))


def hexside(a: Hex, b: Hex) -> Hexside:
    """The canonical name of the edge between adjacent hexes ``a`` and ``b`` (the same for
    ``hexside(b, a)``); raises ``ValueError`` unless they touch."""
    direction = direction_between(a, b)
    if direction in (Direction.N, Direction.NE, Direction.SE):
        return Hexside(a, direction)
    return Hexside(b, direction.opposite)


def to_offset(h: Hex, layout: Layout) -> tuple[int, int]:
    """The (column, row) printed on the map for ``h``."""
    shift = h.q & 1
    row = h.r + (h.q + shift) // 2 if layout == "even-q" else h.r + (h.q - shift) // 2
    return (h.q, row)


def from_offset(column: int, row: int, layout: Layout) -> Hex:
    """The hex printed as ``column``, ``row`` on a map of the given layout."""
    shift = column & 1
    if layout == "even-q":
        return Hex(column, row - (column + shift) // 2)
    return Hex(column, row - (column - shift) // 2)


def hex_id(h: Hex, layout: Layout, digits: int = 2) -> str:
    """The map id of ``h``, e.g. ``"0612"``: column then row, each ``digits`` wide."""
    column, row = to_offset(h, layout)
    if column < 0 or row < 0 or column >= 10**digits or row >= 10**digits:
        raise ValueError(f"{h} (column {column}, row {row}) has no {2 * digits}-digit map id")
    return f"{column:0{digits}d}{row:0{digits}d}"


def parse_hex_id(text: str, layout: Layout, digits: int = 2) -> Hex:
    """The hex named by a map id like ``"0612"``; raises ``ValueError`` on anything else."""
    raw = text.strip()
    if len(raw) != 2 * digits or not raw.isascii() or not raw.isdigit():
        raise ValueError(f"{text!r} is not a {2 * digits}-digit hex id like '0612'")
    return from_offset(int(raw[:digits]), int(raw[digits:]), layout)


HexsideCosts: TypeAlias = Mapping[str, float | None] | Callable[[frozenset[str]], float | None]


@dataclass(frozen=True)
class HexMap:
    """A rectangular hex map ``width`` columns by ``height`` rows, numbered from
    ``first_column`` and ``first_row``, with the terrain of each hex (``default_terrain`` where
    none is given) and the features on hexsides (rivers, bridges, escarpments...)."""

    width: int
    height: int
    layout: Layout = "even-q"
    first_column: int = 1
    first_row: int = 1
    terrain: Mapping[Hex, str] = field(default_factory=dict)
    hexsides: Mapping[Hexside, frozenset[str]] = field(default_factory=dict)
    default_terrain: str = "clear"
    digits: int = 2

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a hex map needs at least one hex, not {self.width}x{self.height}")
        if self.layout not in LAYOUTS:
            raise ValueError(f"hex layout must be one of {LAYOUTS}, not {self.layout!r}")
        last = (self.first_column + self.width - 1, self.first_row + self.height - 1)
        if min(self.first_column, self.first_row) < 0 or max(last) >= 10**self.digits:
            raise ValueError(f"columns and rows up to {last} do not fit {self.digits} digits")
        for h in self.terrain:
            if not self.contains(h):
                raise ValueError(f"terrain given for {h}, which is off the map")
        for side in self.hexsides:
            if not all(self.contains(h) for h in side.hexes()):
                raise ValueError(f"features given for {side}, which is not between map hexes")

    @classmethod
    def from_ids(
        cls,
        width: int,
        height: int,
        *,
        layout: Layout = "even-q",
        first_column: int = 1,
        first_row: int = 1,
        terrain: Mapping[str, str] | None = None,
        hexsides: Mapping[tuple[str, str], Iterable[str]] | None = None,
        default_terrain: str = "clear",
        digits: int = 2,
    ) -> HexMap:
        """A map described with map ids: ``terrain={"0612": "woods"}`` and
        ``hexsides={("0612", "0613"): ["river", "bridge"]}``."""
        bare = cls(width, height, layout, first_column, first_row, digits=digits)
        cells = {bare.hex_at(i): kind for i, kind in (terrain or {}).items()}
        sides: dict[Hexside, frozenset[str]] = {}
        for (a, b), features in (hexsides or {}).items():
            side = hexside(bare.hex_at(a), bare.hex_at(b))
            named = {features} if isinstance(features, str) else set(features)
            sides[side] = sides.get(side, frozenset()) | named
        return replace(bare, terrain=cells, hexsides=sides, default_terrain=default_terrain)

    def contains(self, h: Hex) -> bool:
        """Whether ``h`` is on the map."""
        column, row = to_offset(h, self.layout)
        return (
            self.first_column <= column < self.first_column + self.width
            and self.first_row <= row < self.first_row + self.height
        )

    def hexes(self) -> list[Hex]:
        """Every hex on the map, column by column, each from the top row down."""
        return [
            from_offset(column, row, self.layout)
            for column in range(self.first_column, self.first_column + self.width)
            for row in range(self.first_row, self.first_row + self.height)
        ]

    def ids(self) -> list[str]:
        """Every map id, in the order of :meth:`hexes`."""
        return [self.id_of(h) for h in self.hexes()]

    def id_of(self, h: Hex) -> str:
        """The map id of ``h``; raises ``ValueError`` if it is off the map."""
        if not self.contains(h):
            raise ValueError(f"{h} is off the {self.width}x{self.height} map")
        return hex_id(h, self.layout, self.digits)

    def hex_at(self, map_id: str) -> Hex:
        """The hex with map id ``map_id``; raises ``ValueError`` if malformed or off the map."""
        h = parse_hex_id(map_id, self.layout, self.digits)
        if not self.contains(h):
            raise ValueError(f"hex {map_id!r} is off the {self.width}x{self.height} map")
        return h

    def neighbours(self, h: Hex) -> list[Hex]:
        """The adjacent hexes on the map, in direction order N, NE, SE, S, SW, NW."""
        return [n for n in neighbours(h) if self.contains(n)]

    def terrain_of(self, h: Hex) -> str:
        return self.terrain.get(h, self.default_terrain)

    def features(self, a: Hex, b: Hex) -> frozenset[str]:
        """The features on the hexside between adjacent hexes ``a`` and ``b``."""
        return self.hexsides.get(hexside(a, b), frozenset())

    def zone_of_control(self, hexes: Iterable[Hex]) -> frozenset[Hex]:
        """The map hexes adjacent to any of ``hexes`` (the plain zone of control of units
        there; rules that block it across some hexsides filter this themselves)."""
        return frozenset(n for h in hexes for n in self.neighbours(h))

    def step_cost(
        self,
        terrain_costs: Mapping[str, float | None],
        hexside_costs: HexsideCosts | None = None,
    ) -> Callable[[Hex, Hex], float | None]:
        """The cost of one step as :func:`umpire.geometry.reach.reach` wants it: the terrain
        cost of the hex entered plus the cost of the hexside crossed, ``None`` if either is.

        ``terrain_costs`` maps every terrain on the map to its cost (``None``: prohibited).
        ``hexside_costs`` maps features to an extra cost (``None``: impassable; unlisted
        features cost nothing, and costs of several features add up), or is a function of the
        side's whole feature set, for rules where one feature cancels another (a bridge over
        a river)."""

        def cost(a: Hex, b: Hex) -> float | None:
            kind = self.terrain_of(b)
            if kind not in terrain_costs:
                raise ValueError(f"no movement cost for terrain {kind!r} in {self.id_of(b)}")
            base = terrain_costs[kind]
            if base is None:
                return None
            if hexside_costs is None:
                return base
            features = self.features(a, b)
            if callable(hexside_costs):
                extra = hexside_costs(features)
                return None if extra is None else base + extra
            total = base
            for feature in sorted(features):
                add = hexside_costs.get(feature, 0.0)
                if add is None:
                    return None
                total += add
            return total

        return cost

    def reach(
        self,
        start: Hex,
        budget: float,
        *,
        terrain_costs: Mapping[str, float | None],
        hexside_costs: HexsideCosts | None = None,
        may_enter: Callable[[Hex], bool] = always,
        stops: Callable[[Hex], bool] = never,
        may_end: Callable[[Hex], bool] = always,
        tiebreak: Callable[[Hex, Hex], float] | None = None,
    ) -> Reach[Hex]:
        """Every map hex a unit at ``start`` may move to with ``budget`` movement points,
        paying :meth:`step_cost` per step; ``may_enter``, ``stops`` (zones of control),
        ``may_end`` (stacking) and ``tiebreak`` are as in :func:`umpire.geometry.reach.reach`.
        Rules beyond terrain and hexsides (roads, rail) call that function directly with
        :meth:`neighbours` and their own step cost."""
        return search(
            start,
            budget,
            self.neighbours,
            self.step_cost(terrain_costs, hexside_costs),
            may_enter=may_enter,
            stops=stops,
            may_end=may_end,
            tiebreak=tiebreak,
        )

    def to_pixel(self, h: Hex, size: float) -> tuple[float, float]:
        """The centre of ``h`` in pixels with the map's top-left corner at ``(0, 0)``, for
        hexes ``size`` pixels from centre to corner (see :meth:`Hex.to_pixel`)."""
        columns = range(self.first_column, self.first_column + min(self.width, 2))
        tops = [from_offset(c, self.first_row, self.layout).to_pixel(size) for c in columns]
        left = tops[0][0] - size
        top = min(y for _, y in tops) - size * SQRT3 / 2
        x, y = h.to_pixel(size)
        return (x - left, y - top)
