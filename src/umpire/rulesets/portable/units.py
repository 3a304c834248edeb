"""Unit, weapon, artillery and aircraft types, read from ``data/units.yaml`` (the file is
validated by pydantic against these dataclasses' bounds in the tests)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Literal, get_args

from umpire.core.datafiles import load_yaml
from umpire.core.errors import DataFileError
from umpire.core.plain import Check, Closed, build
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
# portable.terrain.wire.lay / clear ('Barbed Wire'): "A Unit can lay [or remove] barbed wire";
# every unit other than a wire crosser that enters wire "must stop and remove [it] next turn"
WIRE_LAYERS = frozenset(get_args(Kind))


# Plain frozen dataclasses built from the packaged ``units.yaml`` without pydantic (issue 19);
# a test validates the file by pydantic against them (the bounds are read only then).
AtLeastOne = Annotated[int, Check(ge=1)]
NotNegative = Annotated[int, Check(ge=0)]


@dataclass(frozen=True)
class GroundType(Closed):
    """A ground unit type."""

    name: str
    sp: AtLeastOne
    move: NotNegative
    weapon: str | None
    cc: tuple[int, int]
    kind: Kind


@dataclass(frozen=True)
class WeaponType(Closed):
    """A non-artillery weapon."""

    name: str
    range: AtLeastOne
    dice: AtLeastOne = 1
    destroys_tanks: bool = True
    anti_aircraft: bool = False
    fires_over_units: bool = False


@dataclass(frozen=True)
class ArtilleryType(Closed):
    """An artillery class."""

    name: str
    range: AtLeastOne
    indirect: bool
    anti_aircraft: bool = False


@dataclass(frozen=True)
class AircraftType(Closed):
    """An aircraft type (optional air rules)."""

    name: str
    sp: AtLeastOne
    move: AtLeastOne
    endurance: AtLeastOne
    front_guns: NotNegative
    rear_guns: NotNegative
    ground_attack: Literal["none", "guns", "bombs"]


@dataclass(frozen=True)
class UnitTypes(Closed):
    """Everything in ``units.yaml``."""

    ground: dict[str, GroundType]
    weapons: dict[str, WeaponType]
    artillery: dict[str, ArtilleryType]
    aircraft: dict[str, AircraftType]


@cache
def unit_types() -> UnitTypes:
    """The unit type tables, loaded once."""
    path = DATA / "units.yaml"
    try:
        types = build(UnitTypes, load_yaml(path))
    except (ValueError, TypeError) as exc:  # the schema test keeps the packaged file sound
        raise DataFileError(f"{path}: {exc}") from exc
    for key, ground in types.ground.items():
        if ground.weapon is not None and ground.weapon not in types.weapons:
            raise DataFileError(f"{path}: field ground.{key}.weapon: unknown {ground.weapon!r}")
    return types
