"""The rule catalogue (ids, provenance, sources) and the house-rule numbers, both loaded from
data files. House rules can be overridden by a user's YAML file merged over the defaults."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from umpire.core.datafiles import format_validation_error, load_override, load_yaml, merge
from umpire.core.errors import DataFileError
from umpire.geometry.table import TerrainKind

if TYPE_CHECKING:  # the catalogue is read for the rules, not for a shot's house rules
    from umpire.core.catalog import RuleEntry

DATA = Path(__file__).parent / "data"

Going = Literal["open", "rough", "very_rough", "impassable"]
MoverClass = Literal["foot", "tracked", "wheeled", "atv"]


# House-rule values are checked as a whole (issue 16): whole numbers and booleans are strict
# (``true`` is not 1, ``"3"`` is not 3), distances are finite and not negative, dice scores lie
# on the die, tables cover every face in rising order, and game length is bounded.
MAX_INCHES = 1000.0  # no table is near this; a larger distance is a mistake
MAX_TURNS = 50
"""The most turns ``random_length.max_turns`` may allow (the book's operations last a handful):
a game must end long before the engine's action cap."""

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

    def terrain_kind(self, name: str) -> TerrainKind:
        spec = self.terrain_kinds[name]
        return TerrainKind(
            name=name,
            blocks_los=spec.blocks_los,
            cover=spec.cover,
            obscures=spec.obscures,
            see_into=spec.see_into,
            occupant_sees_over=spec.occupant_sees_over,
            going={str(k): str(v) for k, v in spec.going.items()},
        )


@cache
def _default_house_data() -> dict[str, Any]:
    data = load_yaml(DATA / "house_rules.yaml")
    assert isinstance(data, dict)
    return data


def house_rules(override: dict[str, Any] | None = None, source: str = "house rules") -> HouseRules:
    """Default house rules, with ``override`` (from a user's file) merged over them."""
    data = merge(_default_house_data(), override or {})
    try:
        return HouseRules.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(source, exc)) from exc


@cache
def default_house_rules() -> HouseRules:
    return house_rules()


def load_house_rules_override(path: Path) -> dict[str, Any]:
    """Read a user's override file and check it merges into valid house rules."""
    return load_override(path, house_rules)


@cache
def rule_catalog() -> dict[str, RuleEntry]:
    """Every implemented rule by id."""
    from umpire.core.catalog import add_entries, load_catalog

    out = load_catalog(DATA / "rules.yaml", "sevendays")
    # each Tactical Advantage card is a rule of its own, described in the deck's data file
    cards_path = DATA / "cards.yaml"
    cards = (
        (
            f"{cards_path} deck item {index}",
            {
                "id": f"sevendays.cards.{card.get('id')}",
                "provenance": card.get("provenance"),
                "ref": card.get("ref"),
                "summary": f"{card.get('name')}: {card.get('summary')}",
            },
        )
        for index, card in enumerate(load_yaml(cards_path).get("deck", []))
    )
    return add_entries(out, cards, "sevendays")


def rules_markdown() -> str:
    """docs/rules/sevendays.md, generated from the catalogue."""
    from umpire.core.catalog import catalog_markdown

    return (
        catalog_markdown(
            "Seven Days to the River Rhine",
            "sevendays",
            "Provenance: **published** (rulebook text or a page-cited transcription), "
            "**reconstructed** (inferred from consistent sources), **house** (ours; the numbers "
            "are in `house_rules.yaml` and can be overridden with `--house-rules FILE`).",
            rule_catalog(),
        )
        + _changes()
    )


def _changes() -> str:
    """The notes of rule changes by ruleset version (data/changes.md), after the table."""
    path = DATA / "changes.md"
    return "\n" + path.read_text(encoding="utf-8") if path.exists() else ""
