"""Unit, weapon, artillery and aircraft types, validated from ``data/units.yaml``."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from umpire.core.datafiles import format_validation_error, load_yaml
from umpire.core.errors import DataFileError
from umpire.rulesets.portable.config import DATA

Kind = Literal[
    "infantry",
    "engineers",
    "cavalry",
    "cyclists",
    "machine_guns",
    "mortars",
    "artillery",
    "armoured_cars",
    "tanks",
    "assault_guns",
    "sp_artillery",
    "motor_transport",
    "horse_transport",
    "spotters",
    "commanders",
]

# which kinds do what (each set cites the rule that says so)
TANKS = frozenset({"tanks"})  # portable.fire.destroy_tanks: "Tank Units"
TURRETED = frozenset({"armoured_cars", "tanks"})  # portable.fire.turret
ARTILLERY = frozenset({"artillery", "sp_artillery"})  # portable.fire.no_artillery
TRANSPORT = frozenset({"motor_transport", "horse_transport"})
STACK_EXEMPT = TRANSPORT | {"spotters", "commanders"}  # portable.move.stacking
ADVANCERS = frozenset(
    {"infantry", "engineers", "cavalry", "cyclists", "tanks"}
)  # portable.cc.advance
WIRE_CROSSERS = frozenset({"tanks", "assault_guns", "sp_artillery"})  # portable.terrain.wire.stop
ASSAULTERS = frozenset(  # portable.cc.who_attacks (house)
    {
        "infantry",
        "engineers",
        "cavalry",
        "cyclists",
        "machine_guns",
        "armoured_cars",
        "tanks",
        "assault_guns",
    }
)
MOTOR_CARGO = frozenset(  # portable.transport.carry: type keys a motor transport may carry
    {
        "infantry",
        "infantry_at",
        "engineers",
        "dismounted_cavalry",
        "machine_guns",
        "mortars",
        "commanders",
    }
)
TOWED = frozenset({"artillery"})  # portable.transport.tow
WIRE_LAYERS = frozenset({"infantry", "engineers", "cavalry", "cyclists", "machine_guns"})


class GroundType(BaseModel):
    """A ground unit type."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    sp: int = Field(ge=1)
    move: int = Field(ge=0)
    weapon: str | None
    cc: tuple[int, int]
    kind: Kind


class WeaponType(BaseModel):
    """A non-artillery weapon."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    range: int = Field(ge=1)
    dice: int = Field(default=1, ge=1)
    destroys_tanks: bool = True
    anti_aircraft: bool = False
    fires_over_units: bool = False


class ArtilleryType(BaseModel):
    """An artillery class."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    range: int = Field(ge=1)
    indirect: bool
    anti_aircraft: bool = False


class AircraftType(BaseModel):
    """An aircraft type (optional air rules)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    sp: int = Field(ge=1)
    move: int = Field(ge=1)
    endurance: int = Field(ge=1)
    front_guns: int = Field(ge=0)
    rear_guns: int = Field(ge=0)
    ground_attack: Literal["none", "guns", "bombs"]


class UnitTypes(BaseModel):
    """Everything in ``units.yaml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ground: dict[str, GroundType]
    weapons: dict[str, WeaponType]
    artillery: dict[str, ArtilleryType]
    aircraft: dict[str, AircraftType]


@cache
def unit_types() -> UnitTypes:
    """The unit type tables, loaded once."""
    path = DATA / "units.yaml"
    try:
        types = UnitTypes.model_validate(load_yaml(path))
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc
    for key, ground in types.ground.items():
        if ground.weapon is not None and ground.weapon not in types.weapons:
            raise DataFileError(f"{path}: field ground.{key}.weapon: unknown {ground.weapon!r}")
    return types
