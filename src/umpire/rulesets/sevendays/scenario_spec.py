"""The pydantic models of a Seven Days scenario file (table, terrain, objectives, the forces
of each side), validated when a scenario is loaded. Imported by
:mod:`umpire.rulesets.sevendays.scenario` when it loads a scenario (and reached through its
names), not by a cold ``umpire odds`` (issue 19)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from umpire.geometry.table import MAX_TABLE_INCHES
from umpire.rulesets.sevendays.config import MAX_TURNS
from umpire.rulesets.sevendays.orbat import Orbat

# Every length and coordinate of a scenario file, in inches, is a finite number within
# MAX_TABLE_INCHES (1,000) either way; the shipped tables are 72" x 48" and the widest
# benchmark table 288". A shape reaching further is a mistake in the file (a corner at 2**64
# once made the table bucket its terrain into some 10**35 grid cells).
Inches = Annotated[float, Field(ge=-MAX_TABLE_INCHES, le=MAX_TABLE_INCHES, allow_inf_nan=False)]
Point = tuple[Inches, Inches]


class TerrainSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    kind: str
    polygon: list[Point] | None = None
    rect: tuple[Inches, Inches, Inches, Inches] | None = None
    circle: tuple[Point, Inches] | None = None

    @model_validator(mode="after")
    def _one_shape(self) -> TerrainSpec:
        given = [s for s in (self.polygon, self.rect, self.circle) if s is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of polygon, rect, circle")
        return self


class RoadSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    path: list[Point] = Field(min_length=2)
    width: Inches = 2.0


class Objective(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    at: Point


class UnitSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    profile: str
    at: Point
    commander: bool = False
    hidden: bool = False  # deploys as a hidden marker (sevendays.scenario.hidden_deployment)
    dug_in: bool = False  # dug in and waiting (sevendays.scenario.dug_in)
    reserve: bool = False  # off table; enters at ``at`` (sevendays.scenario.reserves)
    embarked_in: str | None = None  # id of the side's transport it starts in


class SideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nation: str
    facing: float = 90.0
    units: list[UnitSpec] = Field(min_length=1)
    # a deployed force's own ORBAT (imported from a BattleScribe catalogue), used instead of
    # the built-in ORBAT of ``nation`` (see side_orbat): the plain dataclass the rules read,
    # validated by pydantic with the bounds its fields carry
    orbat: Orbat | None = None


class TableSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width: float = Field(gt=0, le=MAX_TABLE_INCHES)
    height: float = Field(gt=0, le=MAX_TABLE_INCHES)


class ScenarioSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    provenance: Literal["published", "reconstructed", "house"]
    description: str
    table: TableSpec
    turns: int = Field(ge=1, le=MAX_TURNS)  # bounded: a game ends far below the action cap
    # exact fractions ("2/3"): a BP total divisible by 3 breaks at exactly two thirds of it
    break_point_fraction: dict[Literal["nato", "pact"], Fraction]
    first_initiative: Literal["nato", "pact", "roll"] = "roll"
    objectives: list[Objective] = []
    terrain: list[TerrainSpec] = []
    roads: list[RoadSpec] = []
    sides: dict[Literal["nato", "pact"], SideSpec]
    # special rules (sevendays.scenario.*); all optional so a plain scenario needs none
    attacker: Literal["nato", "pact"] | None = None
    victory: Literal["meeting", "capture", "breakthrough"] = "meeting"
    reserves_from: int = Field(default=2, ge=1)
    random_length: bool = False  # Random Operation Length after ``turns``
    extra_tokens: dict[Literal["nato", "pact"], int] = {}  # d6 per unit, this score or more: +1
    attacker_moved: bool = False  # the attacker's units count as having moved on turn 1
    exit_edge: Literal["north", "south"] | None = None  # breakthrough: where the attacker exits
    exit_fraction: float = Field(default=0.25, gt=0, le=1)  # of the attacker's BP to exit
    cards: bool = False  # Tactical Advantage cards in play (sevendays.cards.*)
    # the most of the attacker's units that start on the table ("2/3" in Capture, book p32);
    # the others wait in reserve (sevendays.scenario.deployment)
    attacker_deploys: Fraction | None = None

    @field_validator("break_point_fraction", mode="before")
    @classmethod
    def _exact_fractions(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {side: _fraction(v) for side, v in value.items()}
        return value

    @field_validator("attacker_deploys", mode="before")
    @classmethod
    def _exact_fraction(cls, value: Any) -> Any:
        return None if value is None else _fraction(value)

    @field_validator("break_point_fraction", "attacker_deploys")
    @classmethod
    def _a_fraction_of_the_whole(cls, value: Any) -> Any:
        shares = value.values() if isinstance(value, Mapping) else [value]
        for share in shares:
            if share is not None and not 0 < share <= 1:
                raise ValueError(f"{share} is not a fraction in (0, 1]")
        return value


def _fraction(value: Any) -> Any:
    """A written fraction ("2/3") or a decimal (0.5) as an exact Fraction: a float is read
    by its decimal text, so 0.1 is 1/10 and not the nearest binary number."""
    if isinstance(value, bool):
        return value  # refused by the field's type
    if isinstance(value, float | int | str):
        try:
            return Fraction(str(value).strip())
        except (ValueError, ZeroDivisionError):
            return value  # refused by the field's type, with pydantic's message
    # a list or a mapping: pydantic's own fraction check lets Fraction's TypeError escape
    raise ValueError(f"{str(value)[:40]} is not a fraction like 2/3 or 0.5")
