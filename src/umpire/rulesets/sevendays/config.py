"""The rule catalogue (ids, provenance, sources) and the house-rule numbers, both loaded from
data files. House rules can be overridden by a user's YAML file merged over the defaults."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from umpire.core.datafiles import format_validation_error, load_override, load_yaml, merge
from umpire.core.errors import DataFileError
from umpire.core.plain import PlainModel, build
from umpire.rulesets.sevendays.terms import MAX_INCHES as MAX_INCHES
from umpire.rulesets.sevendays.terms import MAX_TURNS as MAX_TURNS
from umpire.rulesets.sevendays.terms import Going as Going
from umpire.rulesets.sevendays.terms import MoverClass as MoverClass

if TYPE_CHECKING:  # the catalogue is read for the rules, not for a shot's house rules
    from umpire.core.catalog import RuleEntry
    from umpire.geometry.table import TerrainKind

DATA = Path(__file__).parent / "data"

UnitClass = Literal["infantry", "support", "mbt", "light", "fast", "helicopter"]
_SCHEMA = "umpire.rulesets.sevendays.schema"


# The house-rule numbers as the rules read them: plain frozen dataclasses built from the
# packaged ``house_rules.yaml`` without pydantic (issue 19). A user's override is validated as
# a whole by the pydantic schema (umpire.rulesets.sevendays.schema, issue 16: strict whole
# numbers and booleans, finite non-negative distances, dice scores on the die, d6 tables
# covering every face in rising order, bounded game length) before it is built.
@dataclass(frozen=True, kw_only=True)
class TerrainKindSpec(PlainModel):
    plain_schema = f"{_SCHEMA}:TerrainKindSpec"
    blocks_los: bool = False
    cover: bool = False
    obscures: bool = False
    see_into: float = 2.0
    occupant_sees_over: bool = False
    going: dict[MoverClass, Going]


@dataclass(frozen=True, kw_only=True)
class DamageRow(PlainModel):
    plain_schema = f"{_SCHEMA}:DamageRow"
    max: int
    result: str  # damaged | destroyed (the schema checks a user's file)
    markers: int


@dataclass(frozen=True, kw_only=True)
class AaEffectRow(PlainModel):
    plain_schema = f"{_SCHEMA}:AaEffectRow"
    max: int
    result: str  # evades | damaged | shot_down (the schema checks a user's file)


@dataclass(frozen=True, kw_only=True)
class Rockets(PlainModel):
    plain_schema = f"{_SCHEMA}:Rockets"
    to_hit: int
    weapon: int


@dataclass(frozen=True, kw_only=True)
class AirRules(PlainModel):
    """Attack helicopters and air defence (sevendays.air.*)."""

    plain_schema = f"{_SCHEMA}:AirRules"
    aa_to_hit: dict[Literal["gun", "sam", "manpad"], int]
    sam_effect_bonus: int
    effect: list[AaEffectRow]
    rockets: Rockets


@dataclass(frozen=True, kw_only=True)
class Platoon(PlainModel):
    plain_schema = f"{_SCHEMA}:Platoon"
    size: int
    reach: float


@dataclass(frozen=True, kw_only=True)
class BreakPointCorrections(PlainModel):
    """sevendays.orbat.bp_corrections (house switch, off by default): break points to use
    instead of the printed ones, by profile key (``nation/unit-id``)."""

    plain_schema = f"{_SCHEMA}:BreakPointCorrections"
    use: bool
    bp: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class BattlegroupCheck(PlainModel):
    plain_schema = f"{_SCHEMA}:BattlegroupCheck"
    radius: float
    remove_one: int
    remove_two: int


@dataclass(frozen=True, kw_only=True)
class RandomLength(PlainModel):
    plain_schema = f"{_SCHEMA}:RandomLength"
    ends_on: int
    max_turns: int


@dataclass(frozen=True, kw_only=True)
class FreeDeployment(PlainModel):
    """sevendays.scenario.free_deployment (house): each side's band from its own edge (and the
    hidden defender's distance beyond the attacker's start line), and the closest two placed
    units may stand."""

    plain_schema = f"{_SCHEMA}:FreeDeployment"
    depth: float
    spacing: float


@dataclass(frozen=True, kw_only=True)
class HouseRules(PlainModel):
    """Every overridable number. Field names are the keys of ``house_rules.yaml``."""

    plain_schema = f"{_SCHEMA}:HouseRules"
    movement: dict[Literal["normal", "rapid", "road"], dict[UnitClass, float]]
    terrain_tests: dict[MoverClass, dict[Literal["rough", "very_rough"], int]]
    terrain_kinds: dict[str, TerrainKindSpec]
    proximity: float
    footprint: dict[Literal["vehicle", "foot"], float]
    obscured_rays: int
    damage_table: list[DamageRow]
    no_penetration_markers: int
    reaction_tokens_and_markers: bool
    battlegroup_check: BattlegroupCheck
    fall_back_markers: int
    objective_radius: float
    hidden_spot_range: float
    random_length: RandomLength
    capture_hold_range: float
    exit_distance: float
    transport_reach: float
    bail_out_markers: int
    smoke_radius: float
    close_combat_support: float
    air: AirRules
    platoon: Platoon
    bp_corrections: BreakPointCorrections
    free_deployment: FreeDeployment

    def terrain_kind(self, name: str) -> TerrainKind:
        from umpire.geometry.table import TerrainKind

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
    """Default house rules, with ``override`` (from a user's file) merged over them and
    validated by the pydantic schema (imported only for an override)."""
    if not override:
        return default_house_rules()
    from pydantic import ValidationError

    from umpire.rulesets.sevendays.schema import HouseRules as Schema

    data = merge(_default_house_data(), override)
    try:
        checked = Schema.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(source, exc)) from exc
    return build(HouseRules, checked.model_dump())


@cache
def default_house_rules() -> HouseRules:
    """The packaged house rules, built without pydantic (a test validates the file)."""
    return build(HouseRules, _default_house_data())


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
