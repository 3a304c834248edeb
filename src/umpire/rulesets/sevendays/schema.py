"""The pydantic schema of Seven Days to the River Rhine's data files: ``house_rules.yaml`` and
the ORBAT files.

Loaded only to validate a file a user hands us (a ``--house-rules`` override, an ORBAT or a
force's own profiles): the game and ``umpire odds`` read the plain dataclasses of the same
names and fields in :mod:`umpire.rulesets.sevendays.config` and
:mod:`umpire.rulesets.sevendays.orbat`, built from the packaged files without pydantic
(issue 19). A test validates every packaged file with this schema and checks the plain build
gives the same values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from umpire.rulesets.sevendays.terms import (
    ARMOUR,
    MAX_INCHES,
    MAX_TURNS,
    TO_HIT,
    TRAITS,
    WEAPON,
    Going,
    MoverClass,
    UnitType,
)

# House-rule values are checked as a whole (issue 16): whole numbers and booleans are strict
# (``true`` is not 1, ``"3"`` is not 3), distances are finite and not negative, dice scores lie
# on the die, tables cover every face in rising order, and game length is bounded.
Whole = Annotated[int, Field(strict=True)]
Flag = Annotated[bool, Field(strict=True)]
Inches = Annotated[float, Field(strict=True, ge=0, le=MAX_INCHES, allow_inf_nan=False)]
Markers = Annotated[int, Field(strict=True, ge=0, le=20)]
D6Score = Annotated[int, Field(strict=True, ge=1, le=7)]  # 7: no d6 succeeds
UnitClass = Literal["infantry", "support", "mbt", "light", "fast", "helicopter"]


def _rising_rows(rows: Sequence[DamageRow | AaEffectRow], what: str, top: int) -> None:
    """A d6 table: rows by rising ``max``, every score from 1 to ``top`` read by exactly one."""
    if not rows:
        raise ValueError(f"the {what} needs at least one row")
    previous = 0
    for index, row in enumerate(rows):
        if row.max <= previous:
            raise ValueError(
                f"row {index} (max {row.max}) overlaps the row before (max {previous}); "
                "rows go by rising max"
            )
        previous = row.max
    if previous < top:
        scores = f"{previous + 1}" if previous + 1 == top else f"{previous + 1} to {top}"
        raise ValueError(
            f"the last row ends at max {previous}, so a score of {scores} has no result (a "
            f"gap): the last row's max must be at least {top}"
        )


class TerrainKindSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    blocks_los: Flag = False
    cover: Flag = False
    obscures: Flag = False
    see_into: Inches = 2.0
    occupant_sees_over: Flag = False
    going: dict[MoverClass, Going]


class DamageRow(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max: Whole = Field(ge=1, le=6)
    result: Literal["damaged", "destroyed"]
    markers: Markers


class AaEffectRow(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max: Whole = Field(ge=1, le=12)
    result: Literal["evades", "damaged", "shot_down"]


class Rockets(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to_hit: Whole = Field(ge=2, le=10)
    weapon: Whole = Field(ge=0, le=20)


class AirRules(BaseModel):
    """Attack helicopters and air defence (sevendays.air.*)."""

    model_config = ConfigDict(extra="forbid")
    aa_to_hit: dict[Literal["gun", "sam", "manpad"], Annotated[Whole, Field(ge=1, le=11)]]
    sam_effect_bonus: Whole = Field(ge=0, le=6)
    effect: list[AaEffectRow]
    rockets: Rockets

    @field_validator("effect")
    @classmethod
    def _effect_covers_every_total(
        cls, effect: list[AaEffectRow], info: ValidationInfo
    ) -> list[AaEffectRow]:
        # d6 plus the SAM bonus at most: every total from 1 to 6 + bonus needs a row
        bonus = info.data.get("sam_effect_bonus", 0)
        _rising_rows(effect, "AA hit-effect table", 6 + bonus)
        return effect


class Platoon(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: Whole = Field(ge=1, le=20)
    reach: Inches


class BreakPointCorrections(BaseModel):
    """sevendays.orbat.bp_corrections (house switch, off by default): break points to use
    instead of the printed ones, by profile key (``nation/unit-id``)."""

    model_config = ConfigDict(extra="forbid")
    use: Flag
    bp: dict[str, Annotated[int, Field(strict=True, ge=0, le=100)]]


class BattlegroupCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")
    radius: Inches
    remove_one: D6Score
    remove_two: D6Score

    @field_validator("remove_two")
    @classmethod
    def _two_needs_at_least_one(cls, remove_two: int, info: ValidationInfo) -> int:
        remove_one = info.data.get("remove_one")
        if remove_one is not None and remove_two < remove_one:
            raise ValueError(
                f"{remove_two} is below remove_one ({remove_one}): removing two markers needs "
                "at least the score that removes one"
            )
        return remove_two


class RandomLength(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ends_on: D6Score
    max_turns: Whole = Field(ge=1, le=MAX_TURNS)


class FreeDeployment(BaseModel):
    """sevendays.scenario.free_deployment (house): each side's band from its own edge (and the
    hidden defender's distance beyond the attacker's start line), and the closest two placed
    units may stand."""

    model_config = ConfigDict(extra="forbid")
    depth: Annotated[float, Field(strict=True, gt=0, le=MAX_INCHES, allow_inf_nan=False)]
    spacing: Inches


class HouseRules(BaseModel):
    """Every overridable number. Field names are the keys of ``house_rules.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    movement: dict[Literal["normal", "rapid", "road"], dict[UnitClass, Inches]]
    terrain_tests: dict[
        MoverClass, dict[Literal["rough", "very_rough"], Annotated[Whole, Field(ge=0, le=7)]]
    ]
    terrain_kinds: dict[str, TerrainKindSpec]
    proximity: Inches
    footprint: dict[
        Literal["vehicle", "foot"],
        Annotated[float, Field(strict=True, gt=0, le=12, allow_inf_nan=False)],
    ]
    obscured_rays: Whole = Field(ge=1, le=15)
    damage_table: list[DamageRow]
    no_penetration_markers: Markers
    reaction_tokens_and_markers: Flag
    battlegroup_check: BattlegroupCheck
    fall_back_markers: Markers
    objective_radius: Inches
    hidden_spot_range: Inches
    random_length: RandomLength
    capture_hold_range: Inches
    exit_distance: Inches
    transport_reach: Inches
    bail_out_markers: Markers
    smoke_radius: Annotated[float, Field(strict=True, gt=0, le=MAX_INCHES, allow_inf_nan=False)]
    close_combat_support: Inches
    air: AirRules
    platoon: Platoon
    bp_corrections: BreakPointCorrections
    free_deployment: FreeDeployment

    @field_validator("damage_table")
    @classmethod
    def _damage_table_covers_the_d6(cls, rows: list[DamageRow]) -> list[DamageRow]:
        _rising_rows(rows, "damage table", 6)
        return rows


# -- ORBAT files -----------------------------------------------------------------------------------
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
        match = WEAPON.match(raw)
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
            front, side = (ARMOUR.match(str(v).strip()) for v in value)
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
        match = TO_HIT.match(str(value).strip())
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
