"""ORBAT (order of battle) data for Seven Days to the River Rhine.

Stat lines are written in the book's own notation so that a player can check them against the
printed tables: armour ``"19s"`` (``s`` = special armour), weapons ``"7h"`` (``h`` HEAT, ``a``
rapid-fire autocannon, ``i`` infantry anti-tank, ``m`` mortar), to-hit scores ``"4+"``.
A user's file is validated on load by pydantic against these same dataclasses (their bounds and
notations are on their fields); a mistake is reported with the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, ClassVar

from umpire.core.datafiles import load_yaml
from umpire.core.plain import Check, Closed, PlainModel, build, build_fields, validate
from umpire.rulesets.sevendays.terms import ARMOUR as _ARMOUR
from umpire.rulesets.sevendays.terms import TO_HIT as _TO_HIT
from umpire.rulesets.sevendays.terms import TRAITS as TRAITS
from umpire.rulesets.sevendays.terms import WEAPON as _WEAPON
from umpire.rulesets.sevendays.terms import UnitType as UnitType

# Plain frozen dataclasses built from the packaged ORBAT files without pydantic (issue 19); a
# user's file (an ORBAT, a force's own profiles) is validated by pydantic against them first
# (the notations read by the same functions), and a test validates every packaged file so.
_OPEN = {"extra": "ignore"}  # a weapon, armour or ATGM mapping's other keys are passed over


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

    __pydantic_config__: ClassVar[dict[str, Any]] = _OPEN

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

    __pydantic_config__: ClassVar[dict[str, Any]] = _OPEN

    front: int
    side: int
    special: bool = False

    @classmethod
    def plain_from(cls, data: Any) -> Armour:
        value = _armour_notation(data)
        return value if isinstance(value, Armour) else build_fields(cls, value)


def _armour_notation(value: Any) -> Any:
    """``['19s', '17']`` as an Armour (a mapping or an Armour as it is)."""
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


def _weapon_notation(value: Any) -> Any:
    """``'7h'`` (or ``10``) as a Weapon (a mapping or a Weapon as it is)."""
    if value is None or isinstance(value, dict | Weapon):
        return value
    return Weapon.parse(value)


def _atgm_notation(value: Any) -> Any:
    """An ATGM's ``to_hit`` (``'4+'``) and ``weapon`` (``'10h'``) read from the book's notation."""
    if isinstance(value, dict) and isinstance(value.get("to_hit"), str):
        value = {**value, "to_hit": _parse_to_hit(value["to_hit"])}
    if isinstance(value, dict) and not isinstance(value.get("weapon"), dict | Weapon):
        value = {**value, "weapon": Weapon.parse(value["weapon"])}
    return value


def _known_traits(value: frozenset[str], _: object) -> frozenset[str]:
    unknown = sorted(set(value) - TRAITS)
    if unknown:
        raise ValueError(f"unknown trait(s) {unknown}; known: {sorted(TRAITS)}")
    return value


Score = Annotated[int, Check(before=_parse_to_hit, ge=2, le=10)]  # "4+" in the book


@dataclass(frozen=True, kw_only=True)
class Atgm(PlainModel):
    """An anti-tank guided missile system: its own to-hit score and weapon value."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _OPEN

    to_hit: int
    weapon: Weapon
    min_range: float = 12.0

    @classmethod
    def plain_from(cls, data: Any) -> Atgm:
        return build_fields(cls, {**data, "to_hit": _parse_to_hit(data.get("to_hit"))})


@dataclass(frozen=True, kw_only=True)
class UnitProfile(PlainModel, Closed):
    """One line of an ORBAT table."""

    id: Annotated[str, Check(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    type: UnitType
    armour: Annotated[Armour | None, Check(before=_armour_notation)] = None
    weapon: Annotated[Weapon | None, Check(before=_weapon_notation)] = None
    to_hit: Score | None = None
    morale: Annotated[int, Check(ge=1, le=10)] | None = None
    atgm: Annotated[Atgm | None, Check(before=_atgm_notation)] = None
    aa_to_hit: Score | None = None  # an AA score other than the trait's
    traits: Annotated[frozenset[str], Check(after=_known_traits)] = frozenset()
    points: Annotated[int, Check(ge=0)]
    bp: Annotated[int, Check(ge=0)]
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
class Orbat(PlainModel, Closed):
    """A nation's list of unit profiles."""

    nation: str
    side: Annotated[str, Check(pattern=r"^(nato|pact)$")]
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
    """Load an ORBAT file: a packaged one built directly (a test validates each), any other
    validated by pydantic first."""
    data = load_yaml(path)
    if Path(path).parent == Path(__file__).parent / "data" / "orbat":
        return build(Orbat, data)
    return validate(Orbat, data, path)
