"""The Book and The Gun's tables, validated from ``data/tables.yaml``; a user's house-rules
file overrides any key (``--house-rules FILE``)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from umpire.core.datafiles import (
    check_numbers,
    format_validation_error,
    load_override,
    load_yaml,
    merge,
)
from umpire.core.errors import DataFileError

DATA = Path(__file__).parent / "data"
TROOPS = ("army", "insurgents", "civilians")
Provenance = Literal["published", "reconstructed", "house"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Section(_Model):
    provenance: Provenance
    source: str


class Dice(_Model):
    cross: int = Field(ge=0)
    road: int = Field(ge=0)
    charge: int = Field(ge=0)
    charge_road: int = Field(ge=0)


class Movement(_Section):
    dice: dict[str, dict[str, Dice]]
    prone_dice: int = Field(ge=0)
    rough_drop: dict[str, Literal["highest", "lowest", "none"]]
    minimum_move: float = Field(ge=0)


class Spotter(_Model):
    auto: float
    bands: list[tuple[float, int, int]]


class Spotting(_Section):
    army: Spotter
    insurgents: Spotter
    civilians: Spotter
    static_range: float

    def for_type(self, troop: str) -> Spotter:
        found: Spotter = getattr(self, troop)
        return found


class Weapon(_Model):
    dice: tuple[int, int, int]
    bands: tuple[float, float, float]
    hit_mod: int = 0
    key: bool = False
    blast: bool = False
    min_range: float = 0.0
    reload_extra: int = 0
    # dice per firer at every range when the figure's crew (Figure.crew) is down to one fit man
    # (spec §4.1: MMG "2 if only one crew"); 0 = no such limit
    short_crew_dice: int = 0


class Weapons(_Section):
    types: dict[str, Weapon]


Category = Literal["I", "II", "III", "IV"]


class FireTable(_Section):
    short: dict[Category, int]
    medium: dict[Category, int]
    long: dict[Category, int]
    always_miss: int
    minimum: int

    def number(self, band: str, category: str) -> int:
        row: dict[str, int] = getattr(self, band)
        return row[category]


class FireMods(_Section):
    quality: dict[str, int]
    moved: int
    reload_base: int
    reload_moved: int
    reload_prone: int
    night: int = -2
    moving_vehicle: int = -4


class Blast(_Section):
    on_target_short: int
    on_target_beyond: int
    radius: float
    numbers: dict[Category, int]
    grenade_range: float


class Collateral(_Section):
    line: float
    target: float


class CloseCombat(_Section):
    close: dict[str, tuple[int, int]]
    stand: dict[str, tuple[int, int]]
    charged_bonus: int
    leader_bonus: int
    defending_cover_bonus: int
    short_weapon_bonus: int
    heavy_weapon_penalty: int
    unarmed_penalty: int


class Morale(_Section):
    table: dict[str, tuple[int, int]]
    rout_dice: int


class Rally(_Section):
    table: dict[str, tuple[int, int]]
    leader_range: float


JokerResult = Literal["extra_die", "no_move", "fall_back", "minus_d6", "heal", "charge"]


class Joker(_Section):
    results: dict[int, JokerResult]


class Command(_Section):
    radius: float
    charge_stop: float


class Conceal(_Section):
    reveal_near: float
    reveal_sight: float
    dummies_per_real: float


class Search(_Section):
    need: int = Field(ge=1, le=7)


class Building(_Section):
    room_capacity: int = Field(ge=1)
    see_out: float


class Civilians(_Section):
    hear: float


class VehicleKind(_Model):
    cross: int = Field(ge=0)
    road: int = Field(ge=0)
    rough: Literal["highest", "lowest", "none", "prohibited"]
    back: int = Field(ge=0)
    passengers: int = Field(ge=0)
    # bookgun.move.tank_riders (p.15 2.9): figures carried on the outside
    riders: int = Field(default=0, ge=0)
    # bookgun.move.boats / bookgun.move.helicopters: where the kind moves; aircraft have an
    # unlimited move (p.14) and pay no terrain
    medium: Literal["land", "water", "air"] = "land"
    unlimited: bool = False
    # bookgun.move.over_snow (p.16): the dice above are its dice on snow; off snow it counts as
    # the kind named here (a BV206: light tracked), or may not travel at all (a Ski-Doo)
    over_snow: bool = False
    off_snow: str | None = None


class Vehicles(_Section):
    kinds: dict[str, VehicleKind]
    in_motion: float = Field(ge=0, le=1)
    # bookgun.move.amphibious (p.15): dice of an amphibious vehicle on water
    swim_dice: int = Field(default=1, ge=0)
    # how far from the water's edge a boat may take on or land figures, and an amphibious
    # vehicle may end the move entering or leaving the water (house)
    bank: float = Field(default=1.5, ge=0)


class Mount(_Section):
    dice: int = Field(ge=0)
    charge_dice: int = Field(ge=0)
    reach: float = Field(ge=0)


class GunKind(_Model):
    manhandle: bool
    push_fire: bool


class Artillery(_Section):
    kinds: dict[str, GunKind]
    full_crew: int = Field(ge=1)
    manhandle_dice: int = Field(ge=0)
    manhandle_figures: int = Field(ge=1)
    push_reload: int = Field(ge=0)
    rough: Literal["highest", "lowest", "none"]


class Cavalry(_Section):
    """bookgun.move.cavalry: the 'b' of the chart's a/b (mounted cavalry) by formation."""

    dice: dict[str, Dice]
    mount_dice: int = Field(ge=0)
    scout_mount_dice: int = Field(ge=0)
    holders_per: int = Field(ge=1)
    # bookgun.cavalry.stampede (p.17 5.4): stampeded horses move this many D6
    stampede_dice: int = Field(default=5, ge=0)


class Bicycles(_Section):
    """bookgun.move.bicycles: dice pushing (dismounted) and riding, and the downhill factor."""

    riding: Dice
    pushing: Dice
    downhill: float = Field(ge=1)


class RoadColumn(_Section):
    """bookgun.move.road_column: how near units must be to count as contiguous (house)."""

    contiguous: float = Field(ge=0)


class Scouts(_Section):
    dice: int = Field(ge=0)
    range: float = Field(ge=0)
    radio_range: float = Field(ge=0)


class Slopes(_Section):
    downhill_cone: float = Field(ge=0, le=90)


class Tables(_Model):
    """Every number the rules read, by section of ``tables.yaml``."""

    movement: Movement
    spotting: Spotting
    weapons: Weapons
    fire_table: FireTable
    fire_mods: FireMods
    blast: Blast
    collateral: Collateral
    close_combat: CloseCombat
    morale: Morale
    rally: Rally
    joker: Joker
    command: Command
    conceal: Conceal
    search: Search
    building: Building
    civilians: Civilians
    vehicles: Vehicles
    mount: Mount
    artillery: Artillery
    scouts: Scouts
    slopes: Slopes
    cavalry: Cavalry
    bicycles: Bicycles
    road_column: RoadColumn


def _validate(data: Mapping[str, Any], where: str) -> Tables:
    check_numbers(data, where)  # finite and within bounds: no billion dice, no NaN ranges
    try:
        return Tables.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(where, exc)) from exc


@cache
def _base_raw() -> dict[str, Any]:
    raw = load_yaml(DATA / "tables.yaml")
    if not isinstance(raw, dict):
        raise DataFileError(f"{DATA / 'tables.yaml'}: field (top level): must be a mapping")
    return raw


@cache
def base_tables() -> Tables:
    return _validate(_base_raw(), str(DATA / "tables.yaml"))


def tables_with(override: Mapping[str, Any] | None, where: str = "house rules") -> Tables:
    """The tables with a house-rules ``override`` merged over them (validated)."""
    if not override:
        return base_tables()
    return _validate(merge(_base_raw(), dict(override)), where)


def check_override(data: dict[str, Any], source: str) -> None:
    unknown = sorted(set(data) - set(Tables.model_fields))
    if unknown:
        raise DataFileError(f"{source}: field {unknown[0]}: not a section of tables.yaml")
    tables_with(data, source)


class HouseRules:
    """The ``house_rules`` capability: a YAML file overriding any key of ``tables.yaml``."""

    def load(self, path: Path) -> dict[str, Any]:
        return load_override(path, check_override)


HOUSE_RULES = HouseRules()
