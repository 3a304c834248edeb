"""A unit's movement allowance (inches it may move in clear, rough, dense ground and on a
road) and the length of a straight move in the open measured against it: terrain, roads and
steep slopes (bookgun.move.slope, p.18). Shared by foot, vehicle and watercraft movement."""

from __future__ import annotations

from dataclasses import dataclass

from umpire.geometry.table import Vec, angle_between, bearing
from umpire.rulesets.bookgun.common import centre, dist, world
from umpire.rulesets.bookgun.state import BookGunState, Unit
from umpire.rulesets.bookgun.world import World


@dataclass(frozen=True)
class Allowance:
    clear: float
    rough: float
    road: float
    prone: bool = False
    dense: float | None = None  # None: as in rough ground (no dense terrain on the table)

    @property
    def in_dense(self) -> float:
        return self.rough if self.dense is None else self.dense

    def to_dict(self) -> dict[str, float | bool]:
        out: dict[str, float | bool] = {
            "clear": self.clear,
            "rough": self.rough,
            "road": self.road,
            "prone": self.prone,
        }
        if self.dense is not None:
            out["dense"] = self.dense
        return out


def path_length(state: BookGunState, unit: Unit, al: Allowance, dest: Vec) -> tuple[float, float]:
    """(length, allowed length) of a move in the open from the unit's centre to ``dest``."""
    w = world(state)
    start = centre(state, unit)
    length = dist(start, dest)
    if unit.vehicle is not None:
        medium = w.tables.vehicles.kinds[unit.vehicle].medium
        if medium != "land" or (unit.amphibious and w.in_water(start)):
            # boats, swimmers and aircraft pay no terrain (p.14-15)
            return length, al.clear
    if w.dense and (w.crosses(start, dest, w.dense) or w.in_area(dest, w.dense)):
        allowed = al.in_dense
    elif w.crosses(start, dest, w.rough) or w.in_rough(dest):
        allowed = al.rough
    elif (unit.formation == "column" or unit.vehicle is not None) and (
        w.on_road(start) and w.on_road(dest)
    ):
        allowed = max(al.road, al.clear)
    else:
        allowed = al.clear
    if not al.prone and slope_halves(w, start, dest):
        allowed /= 2.0
    elif unit.ride == "bicycle" and unit.riding and downhill(w, start, dest):
        allowed *= w.tables.bicycles.downhill  # bookgun.move.slope: bicycles double downhill
    return length, allowed


def downhill(w: World, start: Vec, dest: Vec) -> bool:
    """A move straight down a steep slope (within ``downhill_cone`` of the fall line)."""
    if not w.slopes or dist(start, dest) < 1e-9:
        return False
    way = bearing(start, dest)
    cone = w.tables.slopes.downhill_cone
    return any(
        (area.touches_segment(start[0], start[1], dest[0], dest[1]) or area.contains(*start))
        and angle_between(way, (uphill + 180.0) % 360.0) <= cone
        for area, uphill in w.slopes
    )


def slope_halves(w: World, start: Vec, dest: Vec) -> bool:
    """bookgun.move.slope (p.18): a move over steep ground counts each die at half - except a
    move straight down the slope (within ``downhill_cone`` degrees of the fall line, house),
    which goes at full rate."""
    if not w.slopes or dist(start, dest) < 1e-9:
        return False
    way = bearing(start, dest)
    cone = w.tables.slopes.downhill_cone
    for area, uphill in w.slopes:
        on_it = area.touches_segment(start[0], start[1], dest[0], dest[1]) or area.contains(*start)
        if on_it and angle_between(way, (uphill + 180.0) % 360.0) > cone:
            return True
    return False
