"""The rule catalogue (ids, provenance, sources) and the house-rule numbers, both loaded from
data files. House rules can be overridden by a user's YAML file merged over the defaults."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from umpire.core.catalog import RuleEntry, add_entries, catalog_markdown, load_catalog
from umpire.core.datafiles import format_validation_error, load_override, load_yaml, merge
from umpire.core.errors import DataFileError
from umpire.geometry.table import TerrainKind

DATA = Path(__file__).parent / "data"

Going = Literal["open", "rough", "very_rough", "impassable"]
MoverClass = Literal["foot", "tracked", "wheeled", "atv"]


class TerrainKindSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    blocks_los: bool = False
    cover: bool = False
    obscures: bool = False
    see_into: float = 2.0
    occupant_sees_over: bool = False
    going: dict[MoverClass, Going]


class DamageRow(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max: int = Field(ge=1, le=6)
    result: Literal["damaged", "destroyed"]
    markers: int = Field(ge=0)


class AaEffectRow(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max: int = Field(ge=1, le=12)
    result: Literal["evades", "damaged", "shot_down"]


class Rockets(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to_hit: int = Field(ge=2, le=10)
    weapon: int = Field(ge=0)


class AirRules(BaseModel):
    """Attack helicopters and air defence (sevendays.air.*)."""

    model_config = ConfigDict(extra="forbid")
    aa_to_hit: dict[Literal["gun", "sam", "manpad"], int]
    sam_effect_bonus: int = Field(ge=0)
    effect: list[AaEffectRow]
    rockets: Rockets


class Platoon(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: int = Field(ge=1)
    reach: float = Field(ge=0)


class BattlegroupCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")
    radius: float
    remove_one: int = Field(ge=1, le=7)
    remove_two: int = Field(ge=1, le=7)


class RandomLength(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ends_on: int = Field(ge=1, le=7)
    max_turns: int = Field(ge=1)


class HouseRules(BaseModel):
    """Every overridable number. Field names are the keys of ``house_rules.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    movement: dict[Literal["normal", "rapid", "road"], dict[str, float]]
    terrain_tests: dict[MoverClass, dict[Literal["rough", "very_rough"], int]]
    terrain_kinds: dict[str, TerrainKindSpec]
    proximity: float
    footprint: dict[Literal["vehicle", "foot"], float]
    obscured_rays: int = Field(ge=1, le=15)
    damage_table: list[DamageRow]
    no_penetration_markers: int = Field(ge=0)
    reaction_tokens_and_markers: bool
    battlegroup_check: BattlegroupCheck
    fall_back_markers: int = Field(ge=0)
    objective_radius: float
    hidden_spot_range: float = Field(ge=0)
    random_length: RandomLength
    capture_hold_range: float = Field(ge=0)
    exit_distance: float = Field(ge=0)
    transport_reach: float = Field(ge=0)
    bail_out_markers: int = Field(ge=0)
    smoke_radius: float = Field(gt=0)
    close_combat_support: float = Field(ge=0)
    air: AirRules
    platoon: Platoon

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
    return catalog_markdown(
        "Seven Days to the River Rhine",
        "sevendays",
        "Provenance: **published** (rulebook text or a page-cited transcription), "
        "**reconstructed** (inferred from consistent sources), **house** (ours; the numbers "
        "are in `house_rules.yaml` and can be overridden with `--house-rules FILE`).",
        rule_catalog(),
    )
