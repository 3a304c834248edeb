"""ORBAT (order of battle) data for Seven Days to the River Rhine.

Stat lines are written in the book's own notation so that a player can check them against the
printed tables: armour ``"19s"`` (``s`` = special armour), weapons ``"7h"`` (``h`` HEAT, ``a``
rapid-fire autocannon, ``i`` infantry anti-tank, ``m`` mortar), to-hit scores ``"4+"``.
A user's file is validated on load by the pydantic schema of
:mod:`umpire.rulesets.sevendays.schema`; a mistake is reported with the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from umpire.core.datafiles import format_validation_error, load_yaml
from umpire.core.errors import DataFileError
from umpire.core.plain import PlainModel, build, build_fields
from umpire.rulesets.sevendays.terms import ARMOUR as _ARMOUR
from umpire.rulesets.sevendays.terms import TO_HIT as _TO_HIT
from umpire.rulesets.sevendays.terms import TRAITS as TRAITS
from umpire.rulesets.sevendays.terms import WEAPON as _WEAPON
from umpire.rulesets.sevendays.terms import UnitType as UnitType

# Plain frozen dataclasses built from the packaged ORBAT files without pydantic (issue 19); a
# user's file (an ORBAT, a force's own profiles) is validated by the pydantic schema in
# umpire.rulesets.sevendays.schema first, and a test validates every packaged file with it.
_SCHEMA = "umpire.rulesets.sevendays.schema"


def _parse_to_hit(value: Any) -> Any:
    if value is None or isinstance(value, int):
        return value
    match = _TO_HIT.match(str(value).strip())
    if not match:
        raise ValueError(f"to_hit {value!r} must look like '4+'")
    return int(match.group(1))


@dataclass(frozen=True, kw_only=True)
class Weapon(PlainModel):
    """A weapon value with its suffix flags, e.g. ``7h`` -> value 7, HEAT."""

    plain_schema = f"{_SCHEMA}:Weapon"
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

    @classmethod
    def plain_from(cls, data: Any) -> Weapon:
        return build_fields(cls, data) if isinstance(data, dict) else cls.parse(data)

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


@dataclass(frozen=True, kw_only=True)
class Armour(PlainModel):
    """Front and side armour values; ``special`` marks Chobham-style special armour."""

    plain_schema = f"{_SCHEMA}:Armour"
    front: int
    side: int
    special: bool = False

    @classmethod
    def plain_from(cls, data: Any) -> Armour:
        if isinstance(data, dict):
            return build_fields(cls, data)
        front, side = (_ARMOUR.match(str(v).strip()) for v in data)
        if not front or not side:
            raise ValueError(f"armour {data!r} must look like ['19s', '17s']")
        return cls(
            front=int(front.group(1)),
            side=int(side.group(1)),
            special=bool(front.group(2) or side.group(2)),
        )


@dataclass(frozen=True, kw_only=True)
class Atgm(PlainModel):
    """An anti-tank guided missile system: its own to-hit score and weapon value."""

    plain_schema = f"{_SCHEMA}:Atgm"
    to_hit: int
    weapon: Weapon
    min_range: float = 12.0

    @classmethod
    def plain_from(cls, data: Any) -> Atgm:
        return build_fields(cls, {**data, "to_hit": _parse_to_hit(data.get("to_hit"))})


@dataclass(frozen=True, kw_only=True)
class UnitProfile(PlainModel):
    """One line of an ORBAT table."""

    plain_schema = f"{_SCHEMA}:UnitProfile"
    id: str
    name: str
    type: UnitType
    armour: Armour | None = None
    weapon: Weapon | None = None
    to_hit: int | None = None
    morale: int | None = None
    atgm: Atgm | None = None
    aa_to_hit: int | None = None  # an AA score other than the trait's
    traits: frozenset[str] = frozenset()
    points: int
    bp: int
    page: int | None = None
    note: str | None = None

    @classmethod
    def plain_from(cls, data: Any) -> UnitProfile:
        """A profile line in the book's notation (``"4+"``, ``"7h"``) or as dumped."""
        data = dict(data)
        for key in ("to_hit", "aa_to_hit"):
            if key in data:
                data[key] = _parse_to_hit(data[key])
        return build_fields(cls, data)

    @cached_property
    def is_vehicle(self) -> bool:
        return self.type in (UnitType.LIGHT, UnitType.MBT, UnitType.HELICOPTER)

    @cached_property
    def is_foot(self) -> bool:
        return self.type in (UnitType.INFANTRY, UnitType.SUPPORT)

    @cached_property
    def is_apc(self) -> bool:
        return bool(self.traits & {"apc", "apc_plus", "apc_minus"})


@dataclass(frozen=True, kw_only=True)
class Orbat(PlainModel):
    """A nation's list of unit profiles."""

    plain_schema = f"{_SCHEMA}:Orbat"
    nation: str
    side: str
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
    """Load an ORBAT file: a packaged one built directly (a test validates each with the
    schema), any other validated by the pydantic schema first."""
    data = load_yaml(path)
    if Path(path).parent == Path(__file__).parent / "data" / "orbat":
        return build(Orbat, data)
    from pydantic import ValidationError

    from umpire.rulesets.sevendays.schema import Orbat as Schema

    try:
        checked = Schema.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc
    return build(Orbat, checked.model_dump())
