"""The pydantic schema of the Portable Wargame's data files (``house_rules.yaml`` and
``units.yaml``).

Loaded only to validate a file a user hands us (a ``--house-rules`` override): the game and
``umpire odds`` read the plain dataclasses of the same names and fields in
:mod:`umpire.rulesets.portable.config` and :mod:`umpire.rulesets.portable.units`, built from
the packaged files without pydantic (issue 19). A test validates every packaged file with this
schema and checks the plain build gives the same values."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Quality = Literal["elite", "average", "poor"]
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


# House-rule values are checked as a whole (issue 16): whole numbers and booleans are strict
# (``true`` is not 1), dice scores and modifiers lie in the die's reach, d6 tables cover each
# face once, fractions lie in (0, 1], and counts and turn spans are bounded.
Whole = Annotated[int, Field(strict=True)]
Flag = Annotated[bool, Field(strict=True)]
Modifier = Annotated[int, Field(strict=True, ge=-6, le=6)]
Score = Annotated[int, Field(strict=True, ge=-6, le=13)]  # a modified d6 (13: never)
Turns = Annotated[int, Field(strict=True, ge=1, le=50)]
Count = Annotated[int, Field(strict=True, ge=0, le=50)]
D6 = frozenset(range(1, 7))


class Landing(BaseModel):
    """portable.artillery.landing: a modified d6 of ``on_target`` or more hits; lower scores
    listed in ``in_front`` land short, in ``behind`` over (any other lands nowhere)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    on_target: Annotated[int, Field(strict=True, ge=1, le=13)]
    in_front: list[Score]
    behind: list[Score]

    @model_validator(mode="after")
    def _one_result_per_score(self) -> Landing:
        both = sorted(set(self.in_front) & set(self.behind))
        if both:
            raise ValueError(f"score {both[0]} is both in_front and behind: a score lands once")
        high = sorted(v for v in (*self.in_front, *self.behind) if v >= self.on_target)
        if high:
            raise ValueError(
                f"score {high[0]} is listed short or over but on_target ({self.on_target}) "
                "already hits with it"
            )
        return self


class Drift(BaseModel):
    """portable.gas.drift: each d6 face stays, drifts in front or behind: exactly one."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    stay: list[Whole]
    in_front: list[Whole]
    behind: list[Whole]

    @model_validator(mode="after")
    def _every_face_once(self) -> Drift:
        faces = [*self.stay, *self.in_front, *self.behind]
        off = sorted(set(faces) - D6)
        if off:
            raise ValueError(f"{off[0]} is not a face of a d6 (1 to 6)")
        twice = sorted({f for f in faces if faces.count(f) > 1})
        if twice:
            raise ValueError(f"face {twice[0]} is listed more than once (an overlap)")
        missing = sorted(D6 - set(faces))
        if missing:
            raise ValueError(f"face {missing[0]} has no result (a gap): list every face once")
        return self


class Optional_(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    cyclists: Flag = True
    tank_riders: Flag = True
    gas: Flag = False
    air: Flag = False
    commander_attached: Flag = False


class HouseRules(BaseModel):
    """Every overridable number; field names are the keys of ``house_rules.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    activation_units_per_die: Whole = Field(ge=1, le=50)
    initiative_ties: Literal["reroll", "first_player"]
    fire_hit: Whole = Field(ge=1, le=12)
    fire_modifiers: dict[Literal["cover", "not_moved", "commander"], Modifier]
    fire_and_close_combat: Flag
    artillery_landing: Landing
    artillery_modifiers: dict[Literal["cover", "observed", "same_target", "commander"], Modifier]
    hit_loses_sp: dict[Quality, Annotated[Whole, Field(ge=0, le=6)]]
    cc_modifiers: dict[Literal["commander", "cover", "uphill", "river", "trench"], Modifier]
    exhaustion_fraction: tuple[Whole, Whole]
    road_bonus: Whole = Field(ge=0, le=10)
    max_stack: Whole = Field(ge=1, le=20)
    free_deployment_min_rows: Whole = Field(ge=1, le=50)
    lay_minefield_turns: Turns
    clear_minefield_turns: Turns
    wire_turns: Turns
    gas_cloud_turns: Turns
    gas_shells_per_gun: Count
    gas_drift: Drift
    air_hit: Whole = Field(ge=1, le=12)
    air_modifiers: dict[Literal["cover", "bomber", "not_moved", "commander"], Modifier]
    bomb_loads: Count
    victory: dict[Literal["objective"], Annotated[Whole, Field(ge=0, le=100)]]
    optional: Optional_

    @field_validator("exhaustion_fraction")
    @classmethod
    def _a_fraction_in_zero_one(cls, value: tuple[int, int]) -> tuple[int, int]:
        num, den = value
        if num < 1 or den < 1 or num > den:
            raise ValueError(
                f"[{num}, {den}] is not a fraction in (0, 1]: both numbers at least 1, the "
                "first no larger than the second (the book's is [1, 3])"
            )
        if den > 100:
            raise ValueError(f"[{num}, {den}]: the second number is at most 100")
        return value


# -- units.yaml ------------------------------------------------------------------------------------
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
