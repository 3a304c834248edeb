"""Data files: the rule catalogue, the house-rule numbers (overridable by a user's YAML file) and
one-line errors naming the file and field of anything malformed."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from umpire.core.errors import DataFileError

DATA = Path(__file__).parent / "data"
Quality = Literal["elite", "average", "poor"]
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def format_validation_error(path: Path | str, error: ValidationError) -> str:
    """One line naming the file and the first failing field."""
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    more = f" (+{error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{path}: field {where}: {first['msg']}{more}"


def load_yaml(path: Path) -> Any:
    """Read a YAML file; a missing file or bad syntax becomes a one-line DataFileError."""
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except FileNotFoundError as exc:
        raise DataFileError(f"{path}: file not found") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        raise DataFileError(f"{path}:{line} is not valid YAML") from exc


class RuleEntry(BaseModel):
    """One catalogued rule: id, provenance, where it comes from, and what it says (our words)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = Field(pattern=r"^portable(\.[a-z0-9_]+)+$")
    provenance: Literal["published", "reconstructed", "house"]
    ref: str
    summary: str


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


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``override`` merged over ``base``, mapping by mapping."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


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
    data = load_yaml(Path(path))
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise DataFileError(f"{path}: a house-rules file must be a mapping of keys to values")
    house_rules(data, str(path))
    return data


@cache
def rule_catalog() -> dict[str, RuleEntry]:
    """Every implemented rule by id, in catalogue order."""
    path = DATA / "rules.yaml"
    raw = load_yaml(path)
    out: dict[str, RuleEntry] = {}
    for index, item in enumerate(raw):
        try:
            entry = RuleEntry.model_validate(item)
        except ValidationError as exc:
            raise DataFileError(format_validation_error(f"{path} item {index}", exc)) from exc
        if entry.id in out:
            raise DataFileError(f"{path} item {index}: field id: duplicate rule {entry.id}")
        out[entry.id] = entry
    return out


def rules_markdown() -> str:
    """docs/rules/portable.md, generated from the catalogue."""
    lines = [
        "# The Portable Wargame (squared version) — implemented rules",
        "",
        "Generated by `umpire rules portable --markdown` from "
        "`src/umpire/rulesets/portable/data/rules.yaml`; do not edit by hand.",
        "",
        "Provenance: **published** (the seed text of the squared rules, or the rules digest "
        "restoring its OCR'd tables), **reconstructed** (our reading where the text is "
        "ambiguous), **house** (ours; the numbers are in `house_rules.yaml` and can be "
        "overridden with `--house-rules FILE`).",
        "",
        "| id | provenance | source | rule |",
        "| --- | --- | --- | --- |",
    ]
    for entry in rule_catalog().values():
        summary = entry.summary.replace("|", "\\|")
        lines.append(f"| `{entry.id}` | {entry.provenance} | {entry.ref} | {summary} |")
    return "\n".join(lines) + "\n"
