"""Scenario files: validated YAML with one-line errors that name the file and the field."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from umpire.core.datafiles import format_validation_error, load_yaml
from umpire.core.errors import DataFileError, UnknownScenarioError
from umpire.geometry.table import MAX_TABLE_INCHES

if TYPE_CHECKING:
    from umpire.rulesets.bookgun.tables import Tables

SCENARIOS = Path(__file__).parent / "data" / "scenarios"
# Every coordinate of a scenario file, in inches, is a finite number within MAX_TABLE_INCHES
# (1,000) either way, and so is the table's width and depth; the shipped tables are at most
# 48" across. A shape reaching further is a mistake in the file (a corner at 1e300 once made
# the table bucket its terrain into some 10**600 grid cells).
Inches = Annotated[float, Field(ge=-MAX_TABLE_INCHES, le=MAX_TABLE_INCHES, allow_inf_nan=False)]
Point = tuple[Inches, Inches]
Rect = tuple[Inches, Inches, Inches, Inches]
GRENADIER_ROUNDS = 6  # spec §4.1 weapons table: 40 mm grenade launcher, 6 rounds per grenadier


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _check_rect(r: Rect | None) -> None:
    """A rectangle [x0, y0, x1, y1] with finite corners and x0 < x1, y0 < y1."""
    if r is None:
        return
    if not all(math.isfinite(v) for v in r):
        raise ValueError("rect corners must be finite numbers")
    if not (r[0] < r[2] and r[1] < r[3]):
        raise ValueError("rect must be [x0, y0, x1, y1] with x0 < x1 and y0 < y1")


def _check_polygon(points: list[Point] | None) -> None:
    """At least three finite corners enclosing some area."""
    if points is None:
        return
    if len(points) < 3 or not all(math.isfinite(v) for p in points for v in p):
        raise ValueError("a polygon needs at least three finite corners")
    area = sum(
        points[i][0] * points[(i + 1) % len(points)][1]
        - points[(i + 1) % len(points)][0] * points[i][1]
        for i in range(len(points))
    )
    if abs(area) < 1e-9:
        raise ValueError("a polygon must enclose some area")


class TerrainSpec(_Model):
    id: str
    # steep: bookgun.move.slope (p.18), with the compass bearing that climbs it (0 = east,
    # 90 = north); smoke: bookgun.los.smoke (p.11), blocks sight except to thermal sights;
    # water: bookgun.move.boats (p.15), for boats and amphibious vehicles only
    # fort: a fort or dug-in position - Category IV inside (spec §4.1), morale -1 (spec §4.4)
    kind: Literal["road", "rough", "dense", "wall", "high_wall", "steep", "smoke", "water", "fort"]
    rect: Rect | None = None
    polygon: list[Point] | None = None
    conceal: bool = False
    uphill: float | None = None
    # bookgun.move.prone (p.16 4.3): "behind" - a prone figure lying behind it (a stall, as
    # behind a low wall, kind wall, always) is unseen from the ground on the other side;
    # "inside" - a depression (Market Day's gully): only a prone figure lying in it is unseen
    # from the ground outside it. ``true`` (the older form) means behind.
    hides_prone: Literal["behind", "inside"] | None = None

    @field_validator("hides_prone", mode="before")
    @classmethod
    def _screen(cls, value: object) -> object:
        if value is True:
            return "behind"
        if value is False or value is None:
            return None
        if value not in ("behind", "inside"):
            raise ValueError("hides_prone: behind or inside (true means behind)")
        return value

    @model_validator(mode="after")
    def _shape(self) -> TerrainSpec:
        if (self.rect is None) == (self.polygon is None):
            raise ValueError("give exactly one of rect or polygon")
        if (self.kind == "steep") != (self.uphill is not None):
            raise ValueError("a steep slope (and only a steep slope) needs uphill: a bearing")
        _check_rect(self.rect)
        _check_polygon(self.polygon)
        return self


class RoomSpec(_Model):
    id: str
    rect: Rect
    floor: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _shape(self) -> RoomSpec:
        _check_rect(self.rect)
        return self


class OpeningSpec(_Model):
    at: Point
    room: str


class BuildingSpec(_Model):
    id: str
    name: str
    rect: Rect
    rooms: list[RoomSpec] = Field(min_length=1)
    doors: list[OpeningSpec] = Field(default_factory=list)
    windows: list[OpeningSpec] = Field(default_factory=list)
    inner: list[tuple[str, str]] = Field(default_factory=list)
    stairs: list[tuple[str, str]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _rooms_known(self) -> BuildingSpec:
        _check_rect(self.rect)
        rooms = {r.id for r in self.rooms}
        for o in [*self.doors, *self.windows]:
            if o.room not in rooms:
                raise ValueError(f"opening names unknown room {o.room!r}")
        for a, b in [*self.inner, *self.stairs]:
            if a not in rooms or b not in rooms:
                raise ValueError(f"connection {a}-{b} names an unknown room")
        return self


class SiteSpec(_Model):
    id: str
    room: str | None = None
    at: Point | None = None

    @model_validator(mode="after")
    def _where(self) -> SiteSpec:
        if (self.room is None) == (self.at is None):
            raise ValueError("a site needs exactly one of room or at")
        return self


class FigureSpec(_Model):
    id: str
    name: str
    weapon: str
    second: str | None = None
    # vehicle: the model of a vehicle unit (bookgun.scale.figure: one model = one vehicle)
    # gun: the gun model of an artillery unit (bookgun.move.artillery)
    role: Literal["leader", "officer", "key", "ordinary", "vehicle", "gun"] = "ordinary"
    grenades: int = Field(default=0, ge=0)
    rounds: int = Field(default=0, ge=0)
    crew: int = Field(default=1, ge=1)
    group_leader: bool = False
    # bookgun.building.breach: shaped charges the figure carries
    charges: int = Field(default=0, ge=0)

    @model_validator(mode="before")
    @classmethod
    def _grenadier_rounds(cls, data: object) -> object:
        """bookgun.fire.weapons (spec §4.1): a 40 mm grenade launcher carries 6 rounds per
        grenadier unless the scenario says how many."""
        if (
            isinstance(data, dict)
            and data.get("second") == "grenade_launcher"
            and "rounds" not in data
        ):
            return {**data, "rounds": GRENADIER_ROUNDS}
        return data


class ArrivalSpec(_Model):
    """A unit that comes on when one of ``cards`` is turned in a movement phase of turn
    ``from_turn`` or later, and at the start of turn ``latest`` if none has come by then."""

    cards: list[str] = Field(min_length=1)
    from_turn: int = Field(default=1, ge=1)
    latest: int | None = Field(default=None, ge=2)

    @model_validator(mode="after")
    def _known_cards(self) -> ArrivalSpec:
        from umpire.core.deck import standard_deck

        deck = set(standard_deck(2))
        for card in self.cards:
            if card not in deck:
                raise ValueError(f"{card!r} is not a card (e.g. 'A-spades', 'joker-2')")
        if self.latest is not None and self.latest <= self.from_turn:
            raise ValueError("latest must come after from_turn")
        return self


VehicleKind = Literal[
    "light_wheeled",
    "medium_wheeled",
    "heavy_wheeled",
    "light_tracked",
    "heavy_tracked",
    "horse_drawn",
    "armoured_car",
    "light_boat",
    "patrol_boat",
    "helicopter",
    "ski_doo",
    "bv206",
]


class UnitSpec(_Model):
    id: str
    name: str
    side: Literal["army", "insurgents", "civilians"]
    troop: Literal["army", "insurgents", "civilians", "vehicle"]
    quality: str
    # circle: the defensive circle (bookgun.form.kinds, p.8-10), -1 to stand (spec §4.3)
    formation: Literal["close", "open", "column", "mass", "unformed", "circle"]
    facing: float = 90.0
    at: Point | None = None
    concealed: bool = False
    arrives: int | None = Field(default=None, ge=1)
    arrives_on: ArrivalSpec | None = None
    # bookgun.move.vehicles: a vehicle unit (troop vehicle) is one model of this kind
    vehicle: VehicleKind | None = None
    # closed (armoured) vehicle: the enemy does not see who rides inside (house)
    armoured: bool = False
    # bookgun.move.mount: a unit that starts the game aboard this vehicle unit
    aboard: str | None = None
    # bookgun.move.scouts: a one-figure unit scouting for this unit (radio: 24 in., not 12)
    scout_of: str | None = None
    radio: bool = False
    # bookgun.move.artillery: a gun unit (one figure of role gun, its weapon the gun's kind,
    # and its crew) and whether it starts limbered (hooked to its tow)
    gun: Literal["recoilless_rifle", "light_gun", "heavy_gun"] | None = None
    limbered: bool = False
    # bookgun.move.cavalry / bookgun.move.bicycles: the unit's mounts, and whether it starts
    # on them (riding) or on foot with them at hand
    ride: Literal["horse", "bicycle"] | None = None
    riding: bool = True
    # bookgun.move.amphibious: a land vehicle that may also swim
    amphibious: bool = False
    # bookgun.move.helicopters: a helicopter that starts on the ground (else hovering)
    landed: bool = False
    # bookgun.move.tank_riders: a unit that starts riding on the outside of this vehicle unit
    rides: str | None = None
    figures: list[FigureSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _placed(self) -> UnitSpec:
        if (self.troop == "vehicle") != (self.vehicle is not None):
            raise ValueError("troop vehicle (and only it) needs vehicle: a kind")
        if self.armoured and self.troop != "vehicle":
            raise ValueError("only a vehicle unit may be armoured")
        if self.troop == "vehicle":
            if len(self.figures) != 1 or self.figures[0].role != "vehicle" or self.concealed:
                raise ValueError("a vehicle unit is one figure of role vehicle, not concealed")
        elif any(f.role == "vehicle" for f in self.figures):
            raise ValueError("role vehicle belongs to a vehicle unit (troop vehicle)")
        guns = [f for f in self.figures if f.role == "gun"]
        if (self.gun is not None) != bool(guns) or len(guns) > 1:
            raise ValueError("a gun unit (gun: kind) has exactly one figure of role gun")
        if self.gun is not None and (guns[0].weapon != self.gun or self.troop == "vehicle"):
            raise ValueError("the gun figure's weapon is the gun's kind; crews are on foot")
        if any(
            f.weapon in ("recoilless_rifle", "light_gun", "heavy_gun") and f.role != "gun"
            for f in self.figures
        ):
            raise ValueError("a gun is the figure of role gun of a gun unit (gun: kind)")
        if self.limbered and self.gun is None:
            raise ValueError("only a gun unit may start limbered")
        if self.aboard is not None and self.gun is not None and not self.limbered:
            raise ValueError("a gun is towed only limbered (bookgun.move.artillery)")
        if self.scout_of is not None and (len(self.figures) != 1 or self.troop == "vehicle"):
            raise ValueError("a scout unit is one figure on foot")
        if self.aboard is not None and (self.concealed or self.troop == "vehicle"):
            raise ValueError("only a unit on foot and not concealed may start aboard")
        if self.ride is not None and (
            self.troop in ("vehicle", "civilians") or self.gun is not None
        ):
            raise ValueError("only army or insurgent troops on foot ride horses or bicycles")
        if self.amphibious and self.vehicle not in (
            "light_wheeled",
            "medium_wheeled",
            "heavy_wheeled",
            "light_tracked",
            "heavy_tracked",
            "armoured_car",
        ):
            raise ValueError("only a wheeled or tracked vehicle may be amphibious")
        if self.landed and self.vehicle != "helicopter":
            raise ValueError("only a helicopter lands (landed)")
        if self.rides is not None and (
            self.aboard is not None
            or self.concealed
            or self.troop == "vehicle"
            or self.gun is not None
            or (self.ride is not None and self.riding)
        ):
            raise ValueError("tank riders (rides) are a unit on foot, not aboard or concealed")
        if self.at is None and not self.concealed and self.aboard is None and self.rides is None:
            raise ValueError("a unit that is not concealed needs at: [x, y]")
        if self.arrives is not None and self.arrives_on is not None:
            raise ValueError("give arrives (a turn) or arrives_on (cards), not both")
        leaders = [f for f in self.figures if f.role == "leader"]
        if len(leaders) > 1:
            raise ValueError("a unit has at most one leader")
        return self


class VictorySpec(_Model):
    cache: int = 0
    group_leader: int = 0
    per_two_insurgents: int = 0
    civilian_hit: int = 0
    army_killed: int = 0
    army_wounded_left: int = 0
    army_exit: int = 0
    exit_edge: Literal["none", "north", "south", "east", "west"] = "none"
    army_win: int
    insurgent_win: int


class IedSpec(_Model):
    sites: list[Point] = Field(min_length=1)
    trigger: float = Field(default=3.0, gt=0, le=MAX_TABLE_INCHES)


class ScenarioSpec(_Model):
    id: str
    title: str
    briefing: str = ""
    width: float = Field(gt=0, le=MAX_TABLE_INCHES)
    height: float = Field(gt=0, le=MAX_TABLE_INCHES)
    turns: int = Field(ge=1, le=30)  # bounded: a game ends far below the action cap
    roe: Literal[1, 2, 3, 4] = 3
    # bookgun.weather.visibility / bookgun.los.dark / bookgun.move.weather
    weather: Literal["clear", "fog", "rain", "snow"] = "clear"
    light: Literal["day", "night"] = "day"
    night_vision: list[Literal["army", "insurgents"]] = Field(default_factory=list)
    # bookgun.los.dark: laser aiming devices cancel the night fire penalty (p.11)
    laser_sights: list[Literal["army", "insurgents"]] = Field(default_factory=list)
    # bookgun.los.smoke / bookgun.weather.visibility: thermal sights see through smoke, and
    # through fog at full range (rain and falling snow still halve them, p.19)
    thermal_sights: list[Literal["army", "insurgents"]] = Field(default_factory=list)
    ground: Literal["dry", "snow", "mud"] = "dry"
    colours: dict[Literal["army", "insurgents"], Literal["red", "black"]]
    terrain: list[TerrainSpec] = Field(default_factory=list)
    buildings: list[BuildingSpec] = Field(default_factory=list)
    sites: list[SiteSpec] = Field(default_factory=list)
    cache_rooms: list[str] = Field(default_factory=list)
    # bounded: the game deals out one marker per dummy (bookgun.conceal.markers allows one per
    # two real markers; the shipped scenarios give 2)
    dummies: int = Field(default=0, ge=0, le=50)
    # bookgun.lead.cinc (p.8): the leaders each side may name as its Commander-in-Chief. A list
    # is the army's (the form of the first scenario files); per side it is a mapping
    # {army: [...], insurgents: [...]}. A side with three or more basic units that the field
    # leaves out may name any of its leaders (role leader or officer).
    commander_choices: list[str] | dict[Literal["army", "insurgents"], list[str]] = Field(
        default_factory=list
    )
    ied: IedSpec | None = None
    units: list[UnitSpec] = Field(min_length=1)
    victory: VictorySpec

    def basic_units(self, side: str) -> list[UnitSpec]:
        """The side's basic units (bookgun.org.basic_unit: a squad or cell under a leader,
        moving, firing and testing morale together): not a vehicle, a scout, or a higher
        leader on his own (house reading of which units count for bookgun.lead.cinc)."""
        return [
            u
            for u in self.units
            if u.side == side
            and u.troop != "vehicle"
            and u.scout_of is None
            and not (len(u.figures) == 1 and u.figures[0].role in ("leader", "officer"))
        ]

    @model_validator(mode="before")
    @classmethod
    def _commander_shape(cls, data: object) -> object:
        """``commander_choices`` is a list of names or a mapping of army/insurgents to lists:
        anything else is one plain line, not the two union branches' errors."""
        if not isinstance(data, dict) or "commander_choices" not in data:
            return data
        value = data["commander_choices"]

        def names(v: object) -> bool:
            return isinstance(v, list) and all(isinstance(n, str) for n in v)

        plain = names(value)
        per_side = isinstance(value, dict) and all(
            k in ("army", "insurgents") and names(v) for k, v in value.items()
        )
        if not (plain or per_side):
            raise ValueError(
                "commander_choices: a list of the army's leaders, or {army: [...],"
                " insurgents: [...]} (bookgun.lead.cinc)"
            )
        return data

    def leaders(self, side: str) -> list[str]:
        """The side's leader figures (role leader or officer), in file order: those p.8 lets
        it name as Commander-in-Chief (bookgun.lead.cinc)."""
        return [
            f.id
            for u in self.units
            if u.side == side
            for f in u.figures
            if f.role in ("leader", "officer")
        ]

    def commander_lists(self) -> dict[str, list[str]]:
        """``commander_choices`` side by side (a plain list is the army's)."""
        if isinstance(self.commander_choices, list):
            return {"army": list(self.commander_choices)} if self.commander_choices else {}
        return {side: list(names) for side, names in self.commander_choices.items()}

    def cinc_candidates(self, side: str) -> list[str]:
        """Whom ``side`` may secretly name as its Commander-in-Chief (bookgun.lead.cinc, p.8):
        nobody unless it has three or more basic units; then the scenario's list for it, or
        else every leader of the side."""
        if side not in ("army", "insurgents") or len(self.basic_units(side)) < 3:
            return []
        return self.commander_lists().get(side) or self.leaders(side)

    def _check_commanders(self) -> None:
        """bookgun.lead.cinc (p.8, spec §3.4): each list names leaders of its own side, and
        only for a side with three or more basic units (the others name nobody); a side that
        must name one has a leader to name. Each a one-line error naming the field."""
        figures = {f.id for u in self.units for f in u.figures}
        plain = isinstance(self.commander_choices, list)
        for side, names in self.commander_lists().items():
            where = "commander_choices" if plain else f"commander_choices.{side}"
            if not names:
                raise ValueError(
                    f"{where}: an empty list (leave the side out to let it name any leader)"
                )
            leaders = set(self.leaders(side))
            for name in names:
                if name not in figures:
                    raise ValueError(f"{where}: {name!r} is not a figure")
                if name not in leaders:
                    hint = (
                        " (a plain list is the army's; write {army: [...], insurgents: [...]}"
                        " for both sides)"
                        if plain
                        else ""
                    )
                    raise ValueError(
                        f"{where}: {name!r} is not a leader of the {side} (role leader or"
                        f" officer, bookgun.lead.cinc){hint}"
                    )
            count = len(self.basic_units(side))
            if count < 3:
                raise ValueError(
                    f"{where}: the {side} have {count} basic unit(s); only a side with 3 or"
                    " more names a Commander-in-Chief (bookgun.lead.cinc)"
                )
        for side in ("army", "insurgents"):
            if len(self.basic_units(side)) >= 3 and not self.leaders(side):
                raise ValueError(
                    f"the {side} have 3 or more basic units but no leader (role leader or"
                    " officer) to name as Commander-in-Chief (bookgun.lead.cinc)"
                )

    @model_validator(mode="after")
    def _consistent(self) -> ScenarioSpec:
        rooms = {r.id for b in self.buildings for r in b.rooms}
        for name in self.cache_rooms:
            if name not in rooms:
                raise ValueError(f"cache room {name!r} is not a room of any building")
        for site in self.sites:
            if site.room is not None and site.room not in rooms:
                raise ValueError(f"site {site.id!r} names unknown room {site.room!r}")
        if set(self.colours.values()) != {"red", "black"}:
            raise ValueError("the two sides must own different colours")
        ids = [f.id for u in self.units for f in u.figures] + [u.id for u in self.units]
        if len(ids) != len(set(ids)):
            raise ValueError("unit and figure ids must all differ")
        self._check_commanders()
        if any(u.concealed for u in self.units) and not self.sites:
            raise ValueError("concealed units need concealment sites")
        by_id = {u.id: u for u in self.units}
        for u in self.units:
            if u.aboard is not None:
                v = by_id.get(u.aboard)
                if v is None or v.troop != "vehicle" or v.side != u.side:
                    raise ValueError(
                        f"unit {u.id!r} is aboard {u.aboard!r}, not a vehicle of its side"
                    )
            if u.scout_of is not None:
                p = by_id.get(u.scout_of)
                if (
                    p is None
                    or p.side != u.side
                    or p.troop in ("vehicle", "civilians")
                    or p.scout_of
                ):
                    raise ValueError(
                        f"unit {u.id!r} scouts for {u.scout_of!r}, not a unit of its side"
                        " (civilian mobs have no scouts)"
                    )
        return self


def weapons_known(spec: ScenarioSpec, known: set[str], where: str) -> None:
    """Every figure's weapons are in the weapons table (bookgun.fire.weapons): a weapon the
    engine does not know (a recoilless rifle, say) is a one-line error naming file and field."""
    for i, u in enumerate(spec.units):
        for j, f in enumerate(u.figures):
            for name, value in (("weapon", f.weapon), ("second", f.second)):
                if value is not None and value not in known:
                    raise DataFileError(
                        f"{where}: field units.{i}.figures.{j}.{name}: unknown weapon {value!r}"
                        f" (known: {', '.join(sorted(known))})"
                    )


def scenario_ids() -> list[str]:
    return sorted(p.stem for p in SCENARIOS.glob("*.yaml"))


def load_scenario_file(path: Path) -> ScenarioSpec:
    """A scenario file, validated; a bad field is a one-line DataFileError naming it."""
    raw = load_yaml(path)
    if not isinstance(raw, dict):
        raise DataFileError(f"{path}: field (top level): a scenario must be a mapping")
    try:
        spec = ScenarioSpec.model_validate(raw)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc
    from umpire.rulesets.bookgun.tables import base_tables

    weapons_known(spec, set(base_tables().weapons.types), str(path))
    check_vehicles(spec, base_tables(), str(path))
    return spec


@cache
def load_scenario(scenario: str) -> ScenarioSpec:
    path = SCENARIOS / f"{scenario}.yaml"
    if not path.exists():
        known = ", ".join(scenario_ids())
        raise UnknownScenarioError(f"bookgun has no scenario {scenario!r}; known: {known}")
    return load_scenario_file(path)


def check_vehicles(spec: ScenarioSpec, tables: Tables, where: str) -> None:
    """bookgun.move.vehicles (p.15): a vehicle carries at most its kind's passengers (heavy
    tracked vehicles none inside); a scenario loading more is a one-line error naming the field."""
    load: dict[str, int] = {}
    for i, u in enumerate(spec.units):
        if u.vehicle is not None and u.vehicle not in tables.vehicles.kinds:
            raise DataFileError(f"{where}: field units.{i}.vehicle: unknown kind {u.vehicle!r}")
        kind = tables.vehicles.kinds[u.vehicle] if u.vehicle is not None else None
        if kind is not None and kind.over_snow and kind.off_snow is None and spec.ground != "snow":
            # bookgun.move.over_snow (p.16): a Ski-Doo may not travel where there is no snow
            raise DataFileError(
                f"{where}: field units.{i}.vehicle: {u.vehicle} travels only on snow"
                " (bookgun.move.over_snow) and the scenario's ground is not snow"
            )
    kinds = {u.id: u.vehicle for u in spec.units if u.vehicle is not None}
    for i, u in enumerate(spec.units):
        if u.aboard is None:
            continue
        load[u.aboard] = load.get(u.aboard, 0) + len(u.figures)
        cap = tables.vehicles.kinds[str(kinds[u.aboard])].passengers
        if load[u.aboard] > cap:
            raise DataFileError(
                f"{where}: field units.{i}.aboard: {u.aboard} carries at most {cap} figures"
                f" (bookgun.move.vehicles), {load[u.aboard]} put aboard"
            )
    check_transport(spec, tables, where)


def check_transport(spec: ScenarioSpec, tables: Tables, where: str) -> None:
    """bookgun.move.tank_riders / boats / helicopters: riders only on a vehicle of their side
    whose kind carries riders, at most that many (p.15: 7); a boat starts on water, nothing
    else does (a helicopter hovering over it excepted) - each a one-line error naming the field."""
    from shapely.geometry import Point as _P
    from shapely.geometry import Polygon
    from shapely.ops import unary_union

    from umpire.geometry.table import polygon_from_spec

    by_id = {u.id: u for u in spec.units}
    load: dict[str, int] = {}
    for i, u in enumerate(spec.units):
        if u.rides is None:
            continue
        v = by_id.get(u.rides)
        if v is None or v.vehicle is None or v.side != u.side:
            raise DataFileError(
                f"{where}: field units.{i}.rides: {u.rides!r} is not a vehicle of its side"
            )
        cap = tables.vehicles.kinds[v.vehicle].riders
        load[u.rides] = load.get(u.rides, 0) + len(u.figures)
        if load[u.rides] > cap:
            raise DataFileError(
                f"{where}: field units.{i}.rides: {u.rides} carries at most {cap} riders"
                f" outside (bookgun.move.tank_riders), {load[u.rides]} put on"
            )
    water = [
        polygon_from_spec({"rect": list(t.rect)}) if t.rect is not None else Polygon(t.polygon)
        for t in spec.terrain
        if t.kind == "water"
    ]
    shape = unary_union(water) if water else None
    for i, u in enumerate(spec.units):
        if u.at is None or u.aboard is not None or u.rides is not None:
            continue
        wet = shape is not None and bool(shape.covers(_P(u.at)))
        kind = tables.vehicles.kinds[u.vehicle] if u.vehicle is not None else None
        medium = kind.medium if kind is not None else "land"
        if medium == "water" and not wet:
            raise DataFileError(
                f"{where}: field units.{i}.at: a boat starts on water (bookgun.move.boats)"
            )
        if medium == "land" and wet and not u.amphibious:
            raise DataFileError(
                f"{where}: field units.{i}.at: only boats and amphibious vehicles start on water"
                " (bookgun.move.boats)"
            )
        if medium == "air" and wet and u.landed:
            raise DataFileError(
                f"{where}: field units.{i}.landed: a helicopter does not land on water"
                " (bookgun.move.helicopters)"
            )
