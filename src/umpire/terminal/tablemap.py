"""A continuous table (inches) drawn in the terminal, from the board one side is shown.

The drawing reads only the ``board`` capability's JSON for the viewer (terrain, roads,
objectives, buildings: public scenario data; units and markers: the viewer's observation), so a
unit hidden from the viewer cannot appear in it. Each character cell covers a patch of table;
terrain fills the cells whose centre lies in the area, roads and objectives are drawn over it,
and every unit shown gets a one-character label (the first side's units ``A``-``Z``, the
next side's ``a``-``z``, then digits), listed under the map with its name and place.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from shapely.geometry import LineString, Point, Polygon

from umpire.terminal.places import Places, landmarks

# terrain kind (lower case, as boards name it) -> character and colour
TERRAIN_MARKS: dict[str, tuple[str, str]] = {
    "woods": ("♣", "green"),
    "wood": ("♣", "green"),
    "forest": ("♣", "green"),
    "orchard": ("♣", "green"),
    "grove": ("♣", "green"),
    "village": ("▦", "yellow"),
    "town": ("▦", "yellow"),
    "building": ("▦", "yellow"),
    "buildings": ("▦", "yellow"),
    "hill": ("^", "bright_black"),
    "high_ground": ("^", "bright_black"),
    "marsh": ("~", "cyan"),
    "swamp": ("~", "cyan"),
    "water": ("≈", "blue"),
    "river": ("≈", "blue"),
    "stream": ("≈", "blue"),
    "field": (":", "yellow"),
    "fields": (":", "yellow"),
    "crops": (":", "yellow"),
    "rough": (";", "bright_black"),
    "gully": (";", "bright_black"),
    "road": ("=", "white"),
    "track": ("=", "white"),
    "wall": ("#", "white"),
    "high_wall": ("#", "bold white"),
    "hedge": ("#", "green"),
}
OTHER_TERRAIN = ("%", "bright_black")
OPEN = "·"
ROAD = ("=", "white")
OBJECTIVE = ("*", "bold magenta")
LABELS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "0123456789@&$")
MAX_COLUMNS = 72  # the drawing's width in cells; with the row numbers it fits 80 columns


def _mark(kind: str) -> tuple[str, str]:
    key = kind.lower().replace("-", "_").replace(" ", "_")
    if key in TERRAIN_MARKS:
        return TERRAIN_MARKS[key]
    for word, mark in TERRAIN_MARKS.items():
        if word in key:
            return mark
    return OTHER_TERRAIN


class TableMap:
    """The drawing of one board: ``cols`` cells across, each row twice a cell's width tall
    (terminal characters are about twice as tall as wide)."""

    def __init__(
        self,
        board: Mapping[str, Any],
        sides: Sequence[str],
        colours: Mapping[str, str] | None = None,
        viewer: str | None = None,
        cols: int = MAX_COLUMNS,
    ) -> None:
        self.board = board
        self.sides = tuple(sides)
        self.colours = dict(colours or {})
        self.viewer = viewer
        self.width = float(board.get("width") or 1.0)
        self.height = float(board.get("height") or 1.0)
        self.cols = max(10, min(cols, MAX_COLUMNS))
        self.step = self.width / self.cols  # table units per cell across
        self.rows = max(5, math.ceil(self.height / (2 * self.step)))
        self.places = Places(board)
        self.labels = self._labels()

    # -- geometry ----------------------------------------------------------------------------
    def cell(self, x: float, y: float) -> tuple[int, int]:
        """The (column, row) of table point ``(x, y)``; row 0 is the north edge."""
        col = min(self.cols - 1, max(0, int(x / self.step)))
        row = min(self.rows - 1, max(0, int((self.height - y) / (2 * self.step))))
        return col, row

    def centre(self, col: int, row: int) -> tuple[float, float]:
        return ((col + 0.5) * self.step, self.height - (row + 0.5) * 2 * self.step)

    # -- units -------------------------------------------------------------------------------
    def shown_units(self) -> list[Mapping[str, Any]]:
        """The units the board shows, in a stable order (side, id)."""
        units = [u for u in self.board.get("units", []) or [] if u.get("x") is not None]

        def order(u: Mapping[str, Any]) -> tuple[int, str]:  # labels never move
            side = str(u.get("side"))
            rank = self.sides.index(side) if side in self.sides else len(self.sides)
            return (rank, str(u.get("id")))

        return sorted(units, key=order)

    @staticmethod
    def _gone(unit: Mapping[str, Any]) -> bool:
        return bool(unit.get("wreck")) or str(unit.get("status", "active")) in (
            "destroyed",
            "removed",
            "gone",
            "dead",
            "out",
        )

    def _off(self, unit: Mapping[str, Any]) -> bool:
        """Whether ``unit`` stands off the table (e.g. not yet placed at a free deployment)."""
        x, y = float(unit["x"]), float(unit["y"])
        return not (0.0 <= x <= self.width and 0.0 <= y <= self.height)

    def _labels(self) -> dict[str, str]:
        out: dict[str, str] = {}
        used: dict[int, int] = {}
        spare = iter(LABELS[2])
        for unit in self.shown_units():
            side = str(unit.get("side"))
            index = self.sides.index(side) if side in self.sides else 2
            alphabet = LABELS[min(index, 2)]
            count = used.get(index, 0)
            used[index] = count + 1
            out[str(unit["id"])] = alphabet[count] if count < len(alphabet) else next(spare, "?")
        return out

    def _style(self, side: str | None) -> str:
        colour = self.colours.get(str(side))
        return f"bold {colour}" if colour else "bold"

    # -- drawing -----------------------------------------------------------------------------
    def grid(self) -> list[list[tuple[str, str]]]:
        """The cells as (character, style), terrain first, then roads, objectives, markers
        and units drawn over it."""
        cells = [[(OPEN, "bright_black") for _ in range(self.cols)] for _ in range(self.rows)]
        areas = [m for m in landmarks(self.board) if m.shape is not None]
        # the larger areas first, so a village inside a field still shows
        for mark in sorted(areas, key=lambda m: -(m.shape.area if m.shape is not None else 0)):
            shape = mark.shape
            assert shape is not None
            char = _mark(mark.kind)
            minx, miny, maxx, maxy = shape.bounds
            c0, r0 = self.cell(minx, maxy)
            c1, r1 = self.cell(maxx, miny)
            for row in range(r0, r1 + 1):
                for col in range(c0, c1 + 1):
                    if shape.covers(Point(*self.centre(col, row))):
                        cells[row][col] = char
        for road in self.board.get("roads", []) or []:
            points = road.get("points") or []
            if len(points) < 2:
                continue
            line = LineString([(float(x), float(y)) for x, y in points])
            samples = max(2, int(line.length / (self.step / 2)))
            for i in range(samples + 1):
                p = line.interpolate(i / samples, normalized=True)
                col, row = self.cell(p.x, p.y)
                if cells[row][col][0] not in ("▦",):
                    cells[row][col] = ROAD
        for obj in self.board.get("objectives", []) or []:
            col, row = self.cell(float(obj["x"]), float(obj["y"]))
            cells[row][col] = OBJECTIVE
        for smoke in self.board.get("smoke", []) or []:
            if isinstance(smoke, Mapping) and smoke.get("x") is not None:
                col, row = self.cell(float(smoke["x"]), float(smoke["y"]))
                cells[row][col] = ("░", "white")
        for marker in self.board.get("hidden_markers", []) or []:
            if marker.get("x") is None:
                continue
            col, row = self.cell(float(marker["x"]), float(marker["y"]))
            cells[row][col] = ("?", self._style(marker.get("side")))
        taken: set[tuple[int, int]] = set()
        # the living last, so they are drawn over wrecks
        for unit in sorted(self.shown_units(), key=lambda u: not self._gone(u)):
            if self._off(unit):  # not placed yet (free deployment) or off the table
                continue
            col, row = self._free(*self.cell(float(unit["x"]), float(unit["y"])), taken)
            taken.add((col, row))
            label = self.labels[str(unit["id"])]
            style = "dim" if self._gone(unit) else self._style(unit.get("side"))
            if unit.get("active"):
                style += " reverse"
            cells[row][col] = (label, style)
        return cells

    def _free(self, col: int, row: int, taken: set[tuple[int, int]]) -> tuple[int, int]:
        """The cell itself or the nearest free one (two units never share a character)."""
        if (col, row) not in taken:
            return col, row
        for radius in range(1, 4):
            for dr in range(-radius, radius + 1):
                for dc in range(-radius, radius + 1):
                    c, r = col + dc, row + dr
                    if 0 <= c < self.cols and 0 <= r < self.rows and (c, r) not in taken:
                        return c, r
        return col, row

    def text(self) -> Text:
        """The map, a key and the list of units with their labels and places."""
        out = Text()
        ruler = "".join(f"{int(c * self.step):<10}"[:10] for c in range(0, self.cols, 10)).rstrip()
        out.append(f"    {ruler}\n", style="dim")
        for row, line in enumerate(self.grid()):
            y = self.height - row * 2 * self.step
            out.append(f"{y:>3.0f} ", style="dim")
            for char, style in line:
                out.append(char, style=style)
            out.append("\n")
        out.append(self.key() + "\n", style="dim")
        for entry in self.roster():
            out.append_text(entry)
            out.append("\n")
        return out

    def key(self) -> str:
        kinds: list[str] = []
        for mark in landmarks(self.board):
            if mark.shape is None:
                continue
            char = _mark(mark.kind)[0]
            entry = f"{char} {mark.kind.replace('_', ' ')}"
            if entry not in kinds:
                kinds.append(entry)
        extra = [f"{ROAD[0]} road", f"{OBJECTIVE[0]} objective", "? hidden marker"]
        unit = '"' if self.board.get("unit", "inch") == "inch" else str(self.board.get("unit"))
        scale = f"one character {self.step:g}{unit} across, north up"
        return "key: " + ", ".join(kinds + extra) + f"; {scale}"

    def roster(self) -> list[Text]:
        """One line per side: each unit's label, name and place (wrecks marked)."""
        lines: list[Text] = []
        by_side: dict[str, list[Mapping[str, Any]]] = {}
        for unit in self.shown_units():
            by_side.setdefault(str(unit.get("side")), []).append(unit)
        for side, units in by_side.items():
            line = Text()
            line.append(f"{side.upper()}: ", style=self._style(side))
            for index, unit in enumerate(units):
                if index:
                    line.append("; ")
                label = self.labels[str(unit["id"])]
                gone = self._gone(unit)
                line.append(label, style="dim" if gone else self._style(side))
                if self._off(unit):
                    where = "off the table"
                else:
                    where = self.places.name(float(unit["x"]), float(unit["y"]))
                state = " (wreck)" if gone else ""
                extras = []
                if unit.get("markers"):
                    extras.append(f"{unit['markers']} morale")
                if unit.get("tokens"):
                    count = unit["tokens"]
                    extras.append(f"{count} token" + ("" if count == 1 else "s"))
                more = f" [{', '.join(extras)}]" if extras else ""
                line.append(f" {unit.get('name', unit['id'])}{state}{more}, {where}")
            lines.append(line)
        markers = [m for m in self.board.get("hidden_markers", []) or [] if m.get("x") is not None]
        if markers:
            line = Text("hidden markers: ")
            for index, marker in enumerate(markers):
                if index:
                    line.append("; ")
                whose = str(marker.get("side") or "?").upper()
                where = self.places.name(float(marker["x"]), float(marker["y"]))
                line.append(f"? {whose} {marker.get('id', '')}".rstrip() + f", {where}")
            lines.append(line)
        return lines


def draw_table(
    board: Mapping[str, Any],
    sides: Sequence[str],
    colours: Mapping[str, str] | None = None,
    viewer: str | None = None,
    cols: int = MAX_COLUMNS,
) -> Text:
    """The board (``layout: continuous``) drawn for the terminal."""
    return TableMap(board, sides, colours, viewer, cols).text()


def is_table(board: Mapping[str, Any]) -> bool:
    return board.get("layout") == "continuous"


def polygon(points: Sequence[Sequence[float]]) -> Polygon:
    return Polygon([(float(x), float(y)) for x, y in points])
