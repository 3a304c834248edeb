"""The static side of a Seven Days game: scenario, table, unit profiles and house rules.

Rule modules take ``(world, state, ...)``: the world never changes during a game, the state does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import compress
from operator import ne
from typing import TYPE_CHECKING, NamedTuple, cast

from umpire.geometry.spatial import GridIndex
from umpire.geometry.table import Area, Table, Vec
from umpire.rulesets.sevendays.config import HouseRules
from umpire.rulesets.sevendays.orbat import UnitProfile, UnitType
from umpire.rulesets.sevendays.scenario import Scenario
from umpire.rulesets.sevendays.state import (
    UNIT_FIELDS,
    SevenDaysState,
    Unit,
    unit_place,
)
from umpire.rulesets.sevendays.tally import with_status

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

    from umpire.rulesets.sevendays.los import Sight
    from umpire.rulesets.sevendays.odds import ShotOdds
    from umpire.rulesets.sevendays.shots import Refusal, ShotPlan


class Placed(NamedTuple):
    """What the unit index holds of a unit on the table (all read from its place, see
    ``state.unit_place``, so it is the same in every state of one arrangement of units)."""

    uid: str
    side: str
    alive: bool  # status "active"
    wreck: bool
    hidden: bool
    ground_vehicle: bool  # blocks or obscures sight (World.is_ground_vehicle)
    foot: bool  # World.is_foot
    marker: str | None
    kept_off: bool  # World.kept_off


class UnitIndex(NamedTuple):
    """The units of one arrangement, each index in table order: ``alive``, the units on the
    table (status "active"); ``bodies``, what may block or obscure a sight line (wrecks and
    active ground vehicles that are not hidden markers, rule sevendays.los.blockers)."""

    alive: GridIndex[Placed]
    bodies: GridIndex[Placed]


# the fewest units for which the rules ask the unit index rather than scan every unit
# (measured by callgrind: below it, keeping the index up to date costs more than it saves)
INDEX_MIN_UNITS = 40
INDEX_CELL = 6.0  # inches: the side of a cell of the index of units on the table


class _LiveIndex:
    """A unit index and the arrangement it answers for (see ``World.unit_index``)."""

    __slots__ = ("key", "uids", "places", "index", "enemies")

    def __init__(
        self, key: int, uids: list[str], places: Sequence[tuple[object, ...]], index: UnitIndex
    ) -> None:
        self.key = key
        self.uids = uids
        self.places = places
        self.index = index
        self.enemies: dict[str, tuple[list[Vec], list[tuple[bool, str]]]] = {}


# where ``unit_place`` puts a unit's fields
_PLACE_FIELDS = [f for f in UNIT_FIELDS if f not in ("tokens", "markers")]
_SIDE, _X, _Y, _STATUS, _HIDDEN, _MARKER = (
    _PLACE_FIELDS.index(f) for f in ("side", "x", "y", "status", "hidden", "marker")
)
BODY_CELL = 12.0  # inches: the side of a cell of the index of bodies (long boxes along lines)
_INDEXES_KEPT = 4  # unit indexes kept per world (of different sets of units)


class World:
    def __init__(self, scenario: Scenario, house: HouseRules) -> None:
        self.scenario = scenario
        self.house = house
        self.table: Table = scenario.table
        self.profiles = scenario.profiles
        units = [u for side in scenario.spec.sides.values() for u in side.units]
        self.has_hidden = any(u.hidden for u in units)  # special rules to look after
        self.has_reserves = any(u.reserve for u in units)
        # per-profile facts looked up in hot loops
        footprint = house.footprint
        self._vehicle = {k: p.is_vehicle for k, p in self.profiles.items()}
        self._air = {k: p.type is UnitType.HELICOPTER for k, p in self.profiles.items()}
        self._shot_kinds: dict[str, tuple[str, ...]] = {}
        self._radius = {
            k: footprint["vehicle"] if p.is_vehicle else footprint["foot"]
            for k, p in self.profiles.items()
        }
        self._mover = {k: self._mover_class(p) for k, p in self.profiles.items()}
        # sevendays.move.proximity: the classes that keep off, and those kept off
        scope = house.proximity_scope
        self._keeps_off = {k: p.type in scope.movers for k, p in self.profiles.items()}
        self._kept_off = {k: p.type in scope.near for k, p in self.profiles.items()}
        self._impassable = {
            mover: tuple(a for a in self.table.areas if self._cannot_enter(mover, a))
            for mover in ("foot", "tracked", "wheeled", "atv", "air")
        }
        # terrain sight lines and move paths depend only on positions: cached for the game
        self._cover: dict[tuple[float, float], bool] = {}
        self.move_cache: dict[tuple[object, ...], tuple[list[Vec], list[Vec]]] = {}
        self.foot_close_cache: dict[tuple[int, str, bool], bool] = {}
        self.plan_cache: dict[tuple[object, ...], ShotPlan | Refusal] = {}
        self.odds_cache: dict[tuple[object, ...], ShotOdds] = {}
        # the scripted player's bound on a shot's odds, by the facts it reads (agent.py)
        self.bound_cache: dict[tuple[object, ...], tuple[float, float]] = {}
        self.sight_pairs: dict[tuple[object, ...], Sight] = {}
        self._inner: dict[tuple[str, float], BaseGeometry | None] = {}
        self.sight_cache: dict[tuple[float, ...], tuple[bool, tuple[bool, ...] | None]] = {}
        # the bodies on the table of the arrangement asked for last (los._body_list)
        self.body_memo: tuple[int, list[tuple[str, float, float, bool, str]]] | None = None
        # terrain sight lines asked for and not fetched yet (los.prefetch_between)
        self.sight_queue: list[tuple[Vec, Unit, bool]] = []
        self._live_indexes: list[_LiveIndex] = []
        self.index_min_units = INDEX_MIN_UNITS  # see holds()
        # the table whose BP totals were worked out last, its size, the totals by side
        self._bp_memo: tuple[dict[str, Unit], int, dict[str, int]] | None = None

    def unit_index(self, state: SevenDaysState) -> UnitIndex:
        """Grid indexes of the units of ``state`` (see :class:`UnitIndex`): the answer to
        "which units are near here" without a scan of every unit.

        Kept up to date incrementally: the index of the arrangement asked for last
        (``state.geometry``) is brought to a new arrangement by moving only the units whose
        place changed (a state, a clone and a side's picture that share an arrangement
        share the index); a different set of units (a picture with hidden markers in it, a
        unit brought on) has its own index, kept alongside the last few."""
        return self._live_for(state).index

    def enemies_of(
        self, state: SevenDaysState, side: str
    ) -> tuple[list[Vec], list[tuple[bool, str]]]:
        """The places of the units on the table (status "active") not of ``side``, in table
        order, and for each its tie-break (hidden, its marker's id if hidden else ""): a
        per-side index kept with the unit index (see :meth:`unit_index`)."""
        live = self._live_for(state)
        found = live.enemies.get(side)
        if found is None:
            rows = [p for p in live.places if p[_SIDE] != side and p[_STATUS] == "active"]
            found = live.enemies[side] = (
                [(cast(float, p[_X]), cast(float, p[_Y])) for p in rows],
                [(bool(p[_HIDDEN]), str(p[_MARKER]) if p[_HIDDEN] else "") for p in rows],
            )
        return found

    def _live_for(self, state: SevenDaysState) -> _LiveIndex:
        key = state.geometry
        lives = self._live_indexes
        for live in lives:
            if live.key == key:
                return live
        units = list(state.units.values())
        # read from the units themselves (not the places remembered when the arrangement was
        # numbered: a field of a unit's place may change without a new number, e.g. an
        # off-board unit's barred turn, tests/sevendays/test_index_places.py)
        places = tuple(map(unit_place, units))
        uids = list(state.units)  # the units by uid, in table order: each place's uid
        same = next((i for i, live in enumerate(lives) if live.uids == uids), None)
        if same is None:
            live = _LiveIndex(key, uids, places, self._index_of(units))
            lives.insert(0, live)
            del lives[_INDEXES_KEPT:]
            return live
        live = lives.pop(same)
        lives.insert(0, live)
        index = live.index
        old = live.places
        for n in compress(range(len(places)), map(ne, places, old)):
            x, y = cast(float, old[n][_X]), cast(float, old[n][_Y])
            index.alive.remove(n, x, y)
            index.bodies.remove(n, x, y)
            self._index_unit(index, n, units[n])
        live.places = places
        live.key = key
        live.enemies = {}
        return live

    def _index_of(self, units: list[Unit]) -> UnitIndex:
        index = UnitIndex(GridIndex(INDEX_CELL), GridIndex(BODY_CELL))
        for n, u in enumerate(units):
            self._index_unit(index, n, u)
        return index

    def _index_unit(self, index: UnitIndex, order: int, u: Unit) -> None:
        """Put unit ``u`` (the ``order``-th of the table) in the indexes it belongs in."""
        active = u.status == "active"
        if not active and not u.wreck:
            return
        ground = self._vehicle[u.profile] and not self._air[u.profile]
        placed = Placed(
            u.uid,
            u.side,
            active,
            u.wreck,
            u.hidden,
            ground,
            self.profiles[u.profile].is_foot,
            u.marker,
            u.hidden or self._kept_off[u.profile],
        )
        if active:
            index.alive.put(order, u.x, u.y, placed)
        if not u.hidden and (u.wreck or (active and ground)):
            index.bodies.put(order, u.x, u.y, placed)

    def holds(self, state: SevenDaysState, unit: Unit) -> bool:
        """Whether the unit index is worth asking about ``state`` (a table of at least
        ``INDEX_MIN_UNITS`` units: on a smaller one a scan of every unit costs less than
        keeping the index) and ``unit`` is the state's own unit of that uid (not a copy
        standing in for it), so that the index may tell it apart from the others by uid."""
        return len(state.units) >= self.index_min_units and state.units.get(unit.uid) is unit

    def add_profile(self, key: str, profile: UnitProfile) -> None:
        """A profile brought in during play (a Reserves card)."""
        if key in self.profiles:
            return
        self.profiles[key] = profile
        self._vehicle[key] = profile.is_vehicle
        self._air[key] = profile.type is UnitType.HELICOPTER
        footprint = self.house.footprint
        self._radius[key] = footprint["vehicle"] if profile.is_vehicle else footprint["foot"]
        self._mover[key] = self._mover_class(profile)
        scope = self.house.proximity_scope
        self._keeps_off[key] = profile.type in scope.movers
        self._kept_off[key] = profile.type in scope.near

    def inner_polygon(self, area: Area, margin: float) -> BaseGeometry | None:
        """The part of ``area`` at least ``margin`` inside its edge (cached), or None."""
        key = (area.id, margin)
        if key not in self._inner:
            inner = area.polygon.buffer(-margin)
            self._inner[key] = None if inner.is_empty else inner
        return self._inner[key]

    def profile(self, unit: Unit) -> UnitProfile:
        return self.profiles[unit.profile]

    def is_vehicle(self, unit: Unit) -> bool:
        return self._vehicle[unit.profile]

    def shot_kinds(self, unit: Unit) -> tuple[str, ...]:
        """The kinds of shot the unit's line can take ("gun", "atgm", "rockets"; "gun" also
        for an air-defence unit's AA shot), worked out once per line."""
        found = self._shot_kinds.get(unit.profile)
        if found is None:
            from umpire.rulesets.sevendays.air import aa_system
            from umpire.rulesets.sevendays.shots import WEAPON_KINDS, weapon_for

            profile = self.profiles[unit.profile]
            kinds = [k for k in WEAPON_KINDS if weapon_for(profile, k, self.house) is not None]
            if "gun" not in kinds and aa_system(profile, self.house) is not None:
                kinds.append("gun")
            found = self._shot_kinds[unit.profile] = tuple(kinds)
        return found

    def is_helicopter(self, unit: Unit) -> bool:
        return self._air[unit.profile]

    def is_ground_vehicle(self, unit: Unit) -> bool:
        """A vehicle on the ground (it blocks or obscures sight; a helicopter does not)."""
        return self._vehicle[unit.profile] and not self._air[unit.profile]

    def is_foot(self, unit: Unit) -> bool:
        return self.profiles[unit.profile].is_foot

    def keeps_off(self, unit: Unit) -> bool:
        """Whether ``unit`` may not end a move near an enemy it must keep off
        (sevendays.move.proximity)."""
        return self._keeps_off[unit.profile]

    def kept_off(self, unit: Unit) -> bool:
        """Whether a moving enemy that keeps off must end its move away from ``unit``: a
        hidden marker always (the mover cannot tell what it hides, and its menu must not tell
        either)."""
        return unit.hidden or self._kept_off[unit.profile]

    def radius(self, unit: Unit) -> float:
        return self._radius[unit.profile]

    def mover_class(self, unit: Unit) -> str:
        return self._mover[unit.profile]

    def impassable_areas(self, mover: str) -> tuple[Area, ...]:
        """Terrain areas a mover of this class may not enter."""
        return self._impassable[mover]

    def _cannot_enter(self, mover: str, area: Area) -> bool:
        """Impassable going, or a terrain test no d6 can pass (wheeled in very rough)."""
        going = area.kind.going.get(mover, "open")
        if going == "impassable":
            return True
        if going == "open":
            return False
        return self.house.terrain_tests[mover][going] > 6  # type: ignore[index]

    @staticmethod
    def _mover_class(profile: UnitProfile) -> str:
        if profile.type is UnitType.HELICOPTER:
            return "air"  # sevendays.air.helicopter: flies over every terrain
        if profile.is_foot:
            return "foot"
        if "atv" in profile.traits:
            return "atv"
        if "wheeled" in profile.traits:
            return "wheeled"
        return "tracked"

    def move_class(self, unit: Unit) -> str:
        """The movement-table row: infantry, support, mbt, light or fast."""
        profile = self.profiles[unit.profile]
        if profile.type is UnitType.MBT and "fast" in profile.traits:
            return "fast"
        return str(profile.type.value)

    def move_distance(self, unit: Unit, speed: str) -> float:
        return self.house.movement[speed][self.move_class(unit)]  # type: ignore[index]

    def in_cover(self, unit: Unit) -> bool:
        """Is the unit within terrain that gives cover? (Cached per position: static.) A
        helicopter never is (sevendays.air.helicopter)."""
        if self._air[unit.profile]:
            return False
        key = (unit.x, unit.y)
        found = self._cover.get(key)
        if found is None:
            found = any(a.kind.cover for a in self.table.areas_at(unit.x, unit.y))
            if len(self._cover) > 100_000:
                self._cover.clear()
            self._cover[key] = found
        return found

    def in_buildings(self, unit: Unit) -> bool:
        return any(a.kind.name == "buildings" for a in self.table.areas_at(unit.x, unit.y))

    def generates_token(self, unit: Unit) -> bool:
        """Rules sevendays.tokens.apc and sevendays.tokens.helicopter."""
        profile = self.profiles[unit.profile]
        return not profile.is_apc and profile.type is not UnitType.HELICOPTER

    def total_bp(self, state: SevenDaysState, side: str) -> int:
        """The BP of every unit of ``side`` in ``state`` (whatever its status). Units are
        only ever added to a table (a Reserves card), never taken out, and a unit keeps its
        side and profile: the totals are worked out once per table and number of units (the
        table held, so that it is not another one at the same address; issue 19)."""
        units = state.units
        memo = self._bp_memo
        if memo is None or memo[0] is not units or memo[1] != len(units):
            profiles = self.profiles
            totals: dict[str, int] = {}
            for u in units.values():
                totals[u.side] = totals.get(u.side, 0) + profiles[u.profile].bp
            memo = self._bp_memo = (units, len(units), totals)
        return memo[2].get(side, 0)

    def lost_bp(self, state: SevenDaysState, side: str) -> int:
        """The BP of the units of ``side`` destroyed or removed, from the tally of units by
        status and side (tally.py) rather than a scan of every unit."""
        profiles = self.profiles
        return sum(
            profiles[u.profile].bp
            for status in ("destroyed", "removed")
            for u in with_status(state, status, side)
        )

    def break_point(self, state: SevenDaysState, side: str) -> int:
        fraction = self.scenario.spec.break_point_fraction[side]  # type: ignore[index]
        return max(1, math.ceil(self.total_bp(state, side) * fraction))
