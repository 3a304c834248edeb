"""Data files: the rule catalogue, the house-rule numbers (overridable by a user's YAML file) and
one-line errors naming the file and field of anything malformed."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from umpire.core.catalog import RuleEntry, catalog_markdown, load_catalog
from umpire.core.datafiles import format_validation_error, load_override, load_yaml, merge
from umpire.core.errors import DataFileError

DATA = Path(__file__).parent / "data"
Quality = Literal["elite", "average", "poor"]


class Landing(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    on_target: int
    in_front: list[int]
    behind: list[int]


class Drift(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    stay: list[int]
    in_front: list[int]
    behind: list[int]


class Optional_(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    cyclists: bool = True
    tank_riders: bool = True
    gas: bool = False
    air: bool = False
    commander_attached: bool = False


class HouseRules(BaseModel):
    """Every overridable number; field names are the keys of ``house_rules.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    activation_units_per_die: int = Field(ge=1)
    initiative_ties: Literal["reroll", "first_player"]
    fire_hit: int = Field(ge=1, le=12)
    fire_modifiers: dict[Literal["cover", "not_moved", "commander"], int]
    fire_and_close_combat: bool
    artillery_landing: Landing
    artillery_modifiers: dict[Literal["cover", "observed", "same_target", "commander"], int]
    hit_loses_sp: dict[Quality, int]
    cc_modifiers: dict[Literal["commander", "cover", "uphill", "river", "trench"], int]
    exhaustion_fraction: tuple[int, int]
    road_bonus: int = Field(ge=0)
    max_stack: int = Field(ge=1)
    lay_minefield_turns: int = Field(ge=1)
    clear_minefield_turns: int = Field(ge=1)
    wire_turns: int = Field(ge=1)
    gas_cloud_turns: int = Field(ge=1)
    gas_shells_per_gun: int = Field(ge=0)
    gas_drift: Drift
    air_hit: int = Field(ge=1, le=12)
    air_modifiers: dict[Literal["cover", "bomber", "not_moved", "commander"], int]
    bomb_loads: int = Field(ge=0)
    victory: dict[Literal["objective"], int]
    optional: Optional_


@cache
def _default_house_data() -> dict[str, Any]:
    data = load_yaml(DATA / "house_rules.yaml")
    assert isinstance(data, dict)
    return data


def house_rules(override: dict[str, Any] | None = None, source: str = "house rules") -> HouseRules:
    """The default house rules with ``override`` merged over them, validated."""
    data = merge(_default_house_data(), override or {})
    try:
        return HouseRules.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(source, exc)) from exc


def load_house_rules_override(path: Path) -> dict[str, Any]:
    """Read a user's override file and check that it merges into valid house rules."""
    return load_override(path, house_rules)


class HouseRulesFile:
    """The house-rules capability: a user's YAML override, checked against the defaults."""

    def load(self, path: Path) -> dict[str, Any]:
        return load_house_rules_override(path)


HOUSE_RULES = HouseRulesFile()


@cache
def rule_catalog() -> dict[str, RuleEntry]:
    """Every implemented rule by id, in catalogue order."""
    return load_catalog(DATA / "rules.yaml", "portable")


def rules_markdown() -> str:
    """docs/rules/portable.md, generated from the catalogue."""
    return catalog_markdown(
        "The Portable Wargame (squared version)",
        "portable",
        "Provenance: **published** (the seed text of the squared rules, or the rules digest "
        "restoring its OCR'd tables), **reconstructed** (our reading where the text is "
        "ambiguous), **house** (ours; the numbers are in `house_rules.yaml` and can be "
        "overridden with `--house-rules FILE`).",
        rule_catalog(),
    )
