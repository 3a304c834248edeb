"""ORBAT (order of battle) data for Seven Days to the River Rhine.

Stat lines are written in the book's own notation so that a player can check them against the
printed tables: armour ``"19s"`` (``s`` = special armour), weapons ``"7h"`` (``h`` HEAT, ``a``
rapid-fire autocannon, ``i`` infantry anti-tank, ``m`` mortar), to-hit scores ``"4+"``.
Files are validated on load; a mistake is reported with the file and the field.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from umpire.core.datafiles import format_validation_error, load_yaml
from umpire.core.errors import DataFileError


class UnitType(StrEnum):
    """The book's unit classes (they drive movement, dice and reaction numbers)."""

    INFANTRY = "infantry"
    SUPPORT = "support"
    LIGHT = "light"
    MBT = "mbt"
    HELICOPTER = "helicopter"


TRAITS = frozenset(
    {
        "apc",  # transport for one infantry or support unit; generates no command token
        "apc_plus",  # transport for two units
        "apc_minus",  # transport for one support team only
        "thermal",  # thermal sights: ignores the obscured modifier
        "recce",  # reconnaissance unit
        "atv",  # all-terrain wheeled vehicle
        "wheeled",  # wheeled vehicle (terrain tests)
        "fast",  # fast MBT: moves as a light vehicle
        "fixed_forward",  # weapon fixed to the front: 90 degree arc
        "sam",  # surface-to-air missile vehicle (AA reaction 5+, +2 on the AA hit effect)
        "aa",  # its gun may engage helicopters (AA reaction 6+, or the line's aa_to_hit)
        "manpad",  # carries man-portable air defence (AA reaction 8+)
        "rockets",  # attack helicopter rockets (5+ to hit, heavy against infantry)
        "law",  # infantry portable anti-tank weapons (LAW / RPG)
        "mortar",  # mortar unit
        "atgm_team",  # support team whose only weapon is an ATGM
        "grenade_launcher",  # automatic grenade launcher
        "cherry_picker",  # ATGM launcher on a raised mast
        "amphibious",
        "command",  # may be chosen as the battlegroup commander
    }
)

_ARMOUR = re.compile(r"^(\d+)(s?)$")
_WEAPON = re.compile(r"^(\d+)\+?([ahim]*)$")
_TO_HIT = re.compile(r"^(\d+)\+([m]?)$")


class Weapon(BaseModel):
    """A weapon value with its suffix flags, e.g. ``7h`` -> value 7, HEAT."""

    model_config = ConfigDict(frozen=True)

    value: int
    heat: bool = False
    autocannon: bool = False
    infantry_at: bool = False
    mortar: bool = False

    @classmethod
    def parse(cls, text: str | int) -> Weapon:
        raw = str(text).strip()
        match = _WEAPON.match(raw)
        if not match:
            raise ValueError(f"weapon {raw!r} is not in book notation like '10', '7h', '4a', '8i'")
        flags = match.group(2)
        return cls(
            value=int(match.group(1)),
            heat="h" in flags,
            autocannon="a" in flags,
            infantry_at="i" in flags,
            mortar="m" in flags,
        )

    def __str__(self) -> str:
        suffix = "".join(
            f
            for f, on in (
                ("h", self.heat),
                ("a", self.autocannon),
                ("i", self.infantry_at),
                ("m", self.mortar),
            )
            if on
        )
        return f"{self.value}{suffix}"


class Armour(BaseModel):
    """Front and side armour values; ``special`` marks Chobham-style special armour."""

    model_config = ConfigDict(frozen=True)

    front: int
    side: int
    special: bool = False


class Atgm(BaseModel):
    """An anti-tank guided missile system: its own to-hit score and weapon value."""

    model_config = ConfigDict(frozen=True)

    to_hit: int
    weapon: Weapon
    min_range: float = 12.0


class UnitProfile(BaseModel):
    """One line of an ORBAT table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    type: UnitType
    armour: Armour | None = None
    weapon: Weapon | None = None
    to_hit: int | None = Field(default=None, ge=2, le=10)
    morale: int | None = Field(default=None, ge=1, le=10)
    atgm: Atgm | None = None
    aa_to_hit: int | None = Field(default=None, ge=2, le=10)  # an AA score other than the trait's
    traits: frozenset[str] = frozenset()
    points: int = Field(ge=0)
    bp: int = Field(ge=0)
    page: int | None = None
    note: str | None = None

    @field_validator("armour", mode="before")
    @classmethod
    def _armour(cls, value: Any) -> Any:
        if value is None or isinstance(value, dict | Armour):
            return value
        if isinstance(value, list | tuple) and len(value) == 2:
            front, side = (_ARMOUR.match(str(v).strip()) for v in value)
            if not front or not side:
                raise ValueError(f"armour {value!r} must look like ['19s', '17s']")
            return Armour(
                front=int(front.group(1)),
                side=int(side.group(1)),
                special=bool(front.group(2) or side.group(2)),
            )
        raise ValueError(f"armour {value!r} must be a [front, side] pair like ['17', '14']")

    @field_validator("weapon", mode="before")
    @classmethod
    def _weapon(cls, value: Any) -> Any:
        if value is None or isinstance(value, dict | Weapon):
            return value
        return Weapon.parse(value)

    @field_validator("to_hit", mode="before")
    @classmethod
    def _to_hit(cls, value: Any) -> Any:
        if value is None or isinstance(value, int):
            return value
        match = _TO_HIT.match(str(value).strip())
        if not match:
            raise ValueError(f"to_hit {value!r} must look like '4+'")
        return int(match.group(1))

    @field_validator("aa_to_hit", mode="before")
    @classmethod
    def _aa_to_hit(cls, value: Any) -> Any:
        return cls._to_hit(value)

    @field_validator("atgm", mode="before")
    @classmethod
    def _atgm(cls, value: Any) -> Any:
        if isinstance(value, dict) and isinstance(value.get("to_hit"), str):
            value = dict(value)
            value["to_hit"] = cls._to_hit(value["to_hit"])
        if isinstance(value, dict) and not isinstance(value.get("weapon"), dict | Weapon):
            value = dict(value)
            value["weapon"] = Weapon.parse(value["weapon"])
        return value

    @field_validator("traits")
    @classmethod
    def _traits(cls, value: frozenset[str]) -> frozenset[str]:
        unknown = sorted(set(value) - TRAITS)
        if unknown:
            raise ValueError(f"unknown trait(s) {unknown}; known: {sorted(TRAITS)}")
        return value

    @cached_property
    def is_vehicle(self) -> bool:
        return self.type in (UnitType.LIGHT, UnitType.MBT, UnitType.HELICOPTER)

    @cached_property
    def is_foot(self) -> bool:
        return self.type in (UnitType.INFANTRY, UnitType.SUPPORT)

    @cached_property
    def is_apc(self) -> bool:
        return bool(self.traits & {"apc", "apc_plus", "apc_minus"})


class Orbat(BaseModel):
    """A nation's list of unit profiles."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    nation: str
    side: str = Field(pattern=r"^(nato|pact)$")
    name: str
    source: str
    units: tuple[UnitProfile, ...]

    def profile(self, unit_id: str) -> UnitProfile:
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        known = ", ".join(u.id for u in self.units)
        raise KeyError(f"unknown unit {unit_id!r} in ORBAT {self.nation!r}; known: {known}")


def load_orbat(path: Path) -> Orbat:
    """Load and validate an ORBAT file."""
    data = load_yaml(path)
    try:
        return Orbat.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc
