"""Places a player can read: a point on a continuous table named by the nearest landmark.

Landmarks come from the board a side is shown (the web table's ``board`` capability, built
from that side's observation): terrain areas, buildings and objectives, all public scenario
data. ``12" N of village`` reads better than ``(36.0, 36.2)``; a point inside an area is
``in north-wood``. North is up the table (``y`` grows north, as every ruleset draws it).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Point, Polygon

COMPASS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")
# "(41.1, 40.1)" or "(41, 40)" as descriptions print a table point
POINT_TEXT = re.compile(r"\((-?\d+(?:\.\d+)?), ?(-?\d+(?:\.\d+)?)\)")


@dataclass(frozen=True)
class Landmark:
    """A named place on the table: an area (polygon) or a spot (objective)."""

    name: str
    kind: str
    shape: Polygon | None
    at: tuple[float, float]


def _name(raw: Mapping[str, Any]) -> str:
    return str(raw.get("name") or raw.get("id") or "?")


def landmarks(board: Mapping[str, Any]) -> list[Landmark]:
    """The board's objectives, buildings and terrain areas, in that order of preference."""
    out: list[Landmark] = []
    for obj in board.get("objectives", []) or []:
        try:
            at = (float(obj["x"]), float(obj["y"]))
        except (KeyError, TypeError, ValueError):
            continue
        out.append(Landmark(_name(obj), "objective", None, at))
    for key, kind in (("buildings", "building"), ("terrain", "terrain")):
        for raw in board.get(key, []) or []:
            points = raw.get("points") or []
            if len(points) < 3:
                continue
            try:
                shape = Polygon([(float(x), float(y)) for x, y in points])
            except (TypeError, ValueError):
                continue
            if not shape.is_valid:
                shape = shape.buffer(0)
            if shape.is_empty:
                continue
            centre = shape.representative_point()
            label = kind if kind == "building" else str(raw.get("kind", kind)).lower()
            out.append(Landmark(_name(raw), label, shape, (centre.x, centre.y)))
    return out


def compass(dx: float, dy: float) -> str:
    """The eight-point bearing of a step ``(dx, dy)`` (north is +y)."""
    angle = math.degrees(math.atan2(dy, dx)) % 360
    return COMPASS[int(((angle + 22.5) % 360) // 45)]


class Places:
    """Names points on one board; ``unit`` is how distances are written (``"`` for inches)."""

    def __init__(self, board: Mapping[str, Any]) -> None:
        self.marks = landmarks(board)
        self.unit = '"' if board.get("unit", "inch") == "inch" else " " + str(board.get("unit"))
        self.width = float(board.get("width", 0) or 0)
        self.height = float(board.get("height", 0) or 0)

    def name(self, x: float, y: float) -> str:
        """``in north-wood``, ``at village`` (within an inch), ``12" N of village`` or, with
        no landmark on the board, the nearest table edge."""
        here = Point(x, y)
        inside = [m for m in self.marks if m.shape is not None and m.shape.covers(here)]
        if inside:
            mark = min(inside, key=lambda m: m.shape.area if m.shape is not None else 0.0)
            return f"in {mark.name}"
        best: tuple[float, Landmark] | None = None
        for mark in self.marks:
            if mark.shape is not None:
                gap = float(mark.shape.exterior.distance(here))
            else:
                gap = math.dist(mark.at, (x, y))
            if best is None or gap < best[0] - 1e-9:
                best = (gap, mark)
        if best is None:
            return self._edge(x, y)
        gap, mark = best
        if gap < 1.0:
            return f"at {mark.name}" if mark.shape is None else f"next to {mark.name}"
        if mark.shape is not None:  # bearing from the nearest point of the area's edge
            from shapely.ops import nearest_points

            near = nearest_points(mark.shape.exterior, here)[0]
            origin = (near.x, near.y)
        else:
            origin = mark.at
        bearing = compass(x - origin[0], y - origin[1])
        return f"{gap:.0f}{self.unit} {bearing} of {mark.name}"

    def _edge(self, x: float, y: float) -> str:
        edges = {"south": y, "north": self.height - y, "west": x, "east": self.width - x}
        edge, gap = min(edges.items(), key=lambda item: item[1])
        return f"{gap:.0f}{self.unit} from the {edge} edge"

    def rewrite(self, text: str, points: Sequence[tuple[float, float]] = ()) -> str:
        """``text`` with each table point it prints, ``(x, y)``, named: ``3" N of village
        (36.0, 27.0)`` — the place first, the numbers kept for a typed ``move X Y``. Only the
        ``points`` given are rewritten when any are (the action's own point)."""
        wanted = [(round(px, 1), round(py, 1)) for px, py in points]

        def named(match: re.Match[str]) -> str:
            x, y = float(match.group(1)), float(match.group(2))
            if wanted and (round(x, 1), round(y, 1)) not in wanted:
                return match.group(0)
            place = self.name(x, y)
            if text[: match.start()].endswith("to "):  # "moves to in X" -> "moves into X"
                place = place.replace("in ", "into ", 1) if place.startswith("in ") else place
                place = place.replace("next to ", "up to ", 1)
            return f"{place} ({x:g}, {y:g})"

        return (
            POINT_TEXT.sub(named, text).replace("to into ", "into ").replace("to up to ", "up to ")
        )
