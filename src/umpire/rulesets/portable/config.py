"""Data files: the rule catalogue, the house-rule numbers (overridable by a user's YAML file) and
one-line errors naming the file and field of anything malformed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from umpire.core.datafiles import format_validation_error, load_override, load_yaml, merge
from umpire.core.errors import DataFileError
from umpire.core.plain import build

if TYPE_CHECKING:  # the catalogue is read for the rules, not for a shot's house rules
    from umpire.core.catalog import RuleEntry

DATA = Path(__file__).parent / "data"
Quality = Literal["elite", "average", "poor"]


# The house-rule numbers as the rules read them: plain frozen dataclasses built from the
# packaged ``house_rules.yaml`` without pydantic (issue 19). A user's override is validated as
# a whole by the pydantic schema (umpire.rulesets.portable.schema, issue 16: strict whole
# numbers and booleans, dice scores in the die's reach, d6 tables covering each face once,
# fractions in (0, 1], bounded counts and turn spans) before it is built.
@dataclass(frozen=True)
class Landing:
    """portable.artillery.landing: a modified d6 of ``on_target`` or more hits; lower scores
    listed in ``in_front`` land short, in ``behind`` over (any other lands nowhere)."""

    on_target: int
    in_front: list[int]
    behind: list[int]


@dataclass(frozen=True)
class Drift:
    """portable.gas.drift: each d6 face stays, drifts in front or behind: exactly one."""

    stay: list[int]
    in_front: list[int]
    behind: list[int]


@dataclass(frozen=True)
class Optional_:
    cyclists: bool = True
    tank_riders: bool = True
    gas: bool = False
    air: bool = False
    commander_attached: bool = False


@dataclass(frozen=True)
class HouseRules:
    """Every overridable number; field names are the keys of ``house_rules.yaml``."""

    activation_units_per_die: int
    initiative_ties: Literal["reroll", "first_player"]
    fire_hit: int
    fire_modifiers: dict[Literal["cover", "not_moved", "commander"], int]
    fire_and_close_combat: bool
    artillery_landing: Landing
    artillery_modifiers: dict[Literal["cover", "observed", "same_target", "commander"], int]
    hit_loses_sp: dict[Quality, int]
    cc_modifiers: dict[Literal["commander", "cover", "uphill", "river", "trench"], int]
    exhaustion_fraction: tuple[int, int]
    road_bonus: int
    max_stack: int
    free_deployment_min_rows: int
    lay_minefield_turns: int
    clear_minefield_turns: int
    wire_turns: int
    gas_cloud_turns: int
    gas_shells_per_gun: int
    gas_drift: Drift
    air_hit: int
    air_modifiers: dict[Literal["cover", "bomber", "not_moved", "commander"], int]
    bomb_loads: int
    victory: dict[Literal["objective"], int]
    optional: Optional_


@cache
def _default_house_data() -> dict[str, Any]:
    data = load_yaml(DATA / "house_rules.yaml")
    assert isinstance(data, dict)
    return data


@cache
def _default_house_rules() -> HouseRules:
    """The packaged house rules, built without pydantic (a test validates the file)."""
    return build(HouseRules, _default_house_data())


def house_rules(override: dict[str, Any] | None = None, source: str = "house rules") -> HouseRules:
    """The default house rules with ``override`` merged over them, validated (by the pydantic
    schema, imported only for an override)."""
    if not override:
        return _default_house_rules()
    from pydantic import ValidationError

    from umpire.rulesets.portable.schema import HouseRules as Schema

    data = merge(_default_house_data(), override)
    try:
        checked = Schema.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(source, exc)) from exc
    return build(HouseRules, checked.model_dump())


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
    from umpire.core.catalog import load_catalog

    return load_catalog(DATA / "rules.yaml", "portable")


def rules_markdown() -> str:
    """docs/rules/portable.md, generated from the catalogue."""
    from umpire.core.catalog import catalog_markdown

    return catalog_markdown(
        "The Portable Wargame (squared version)",
        "portable",
        "Provenance: **published** (the seed text of the squared rules, or the rules digest "
        "restoring its OCR'd tables), **reconstructed** (our reading where the text is "
        "ambiguous), **house** (ours; the numbers are in `house_rules.yaml` and can be "
        "overridden with `--house-rules FILE`).",
        rule_catalog(),
    )
