"""The rule catalogue (ids, provenance, sources) and the house-rule numbers, both loaded from
data files. House rules can be overridden by a user's YAML file merged over the defaults."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from umpire.core.datafiles import load_override, load_yaml, merge
from umpire.core.plain import Check, Closed, PlainModel, build, validate
from umpire.rulesets.sevendays.terms import MAX_INCHES as MAX_INCHES
from umpire.rulesets.sevendays.terms import MAX_TURNS as MAX_TURNS
from umpire.rulesets.sevendays.terms import Going as Going
from umpire.rulesets.sevendays.terms import MoverClass as MoverClass
from umpire.rulesets.sevendays.terms import UnitType

if TYPE_CHECKING:  # the catalogue is read for the rules, not for a shot's house rules
    from umpire.core.catalog import RuleEntry
    from umpire.geometry.table import TerrainKind

DATA = Path(__file__).parent / "data"

UnitClass = Literal["infantry", "support", "mbt", "light", "fast", "helicopter"]

# The house-rule numbers as the rules read them: plain frozen dataclasses built from the
# packaged ``house_rules.yaml`` without pydantic (issue 19). A user's override is validated as
# a whole by pydantic against the same dataclasses (issue 16): whole numbers and booleans are
# strict (``true`` is not 1, ``"3"`` is not 3), distances are finite and not negative, dice
# scores lie on the die, tables cover every face in rising order, and game length is bounded.
Whole = Annotated[int, Check(strict=True)]
Flag = Annotated[bool, Check(strict=True)]
Inches = Annotated[float, Check(strict=True, ge=0, le=MAX_INCHES, allow_inf_nan=False)]
Markers = Annotated[int, Check(strict=True, ge=0, le=20)]
D6Score = Annotated[int, Check(strict=True, ge=1, le=7)]  # 7: no d6 succeeds


def _whole(low: int, high: float) -> Check:
    return Check(strict=True, ge=low, le=high)


def _above_zero(high: float) -> Check:
    return Check(strict=True, gt=0, le=high, allow_inf_nan=False)


def _one_of(*allowed: str) -> Check:
    """A text field that holds one of ``allowed`` (typed ``str`` for its readers, who build
    rows of their own), checked in the words pydantic gives a Literal."""
    words = " or ".join([", ".join(repr(a) for a in allowed[:-1]), repr(allowed[-1])])

    def one_of(value: Any) -> Any:
        if value not in allowed:
            raise ValueError(f"Input should be {words}")
        return value

    return Check(before=one_of)


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


@dataclass(frozen=True, kw_only=True)
class TerrainKindSpec(PlainModel, Closed):
    blocks_los: Flag = False
    cover: Flag = False
    obscures: Flag = False
    see_into: Inches = 2.0
    occupant_sees_over: Flag = False
    going: dict[MoverClass, Going]


@dataclass(frozen=True, kw_only=True)
class DamageRow(PlainModel, Closed):
    max: Annotated[int, _whole(1, 6)]
    result: Annotated[str, _one_of("damaged", "destroyed")]
    markers: Markers


@dataclass(frozen=True, kw_only=True)
class AaEffectRow(PlainModel, Closed):
    max: Annotated[int, _whole(1, 12)]
    result: Annotated[str, _one_of("evades", "damaged", "shot_down")]


@dataclass(frozen=True, kw_only=True)
class Rockets(PlainModel, Closed):
    to_hit: Annotated[int, _whole(2, 10)]
    weapon: Annotated[int, _whole(0, 20)]


def _effect_covers_every_total(
    effect: list[AaEffectRow], data: Mapping[str, Any]
) -> list[AaEffectRow]:
    # d6 plus the SAM bonus at most: every total from 1 to 6 + bonus needs a row
    _rising_rows(effect, "AA hit-effect table", 6 + data.get("sam_effect_bonus", 0))
    return effect


@dataclass(frozen=True, kw_only=True)
class AirRules(PlainModel, Closed):
    """Attack helicopters and air defence (sevendays.air.*)."""

    aa_to_hit: dict[Literal["gun", "sam", "manpad"], Annotated[int, _whole(1, 11)]]
    sam_effect_bonus: Annotated[int, _whole(0, 6)]
    effect: Annotated[list[AaEffectRow], Check(after=_effect_covers_every_total)]
    rockets: Rockets


@dataclass(frozen=True, kw_only=True)
class Platoon(PlainModel, Closed):
    size: Annotated[int, _whole(1, 20)]
    reach: Inches


@dataclass(frozen=True, kw_only=True)
class BreakPointCorrections(PlainModel, Closed):
    """sevendays.orbat.bp_corrections (house switch, off by default): break points to use
    instead of the printed ones, by profile key (``nation/unit-id``)."""

    use: Flag
    bp: dict[str, Annotated[int, _whole(0, 100)]]


def _two_needs_at_least_one(remove_two: int, data: Mapping[str, Any]) -> int:
    remove_one = data.get("remove_one")
    if remove_one is not None and remove_two < remove_one:
        raise ValueError(
            f"{remove_two} is below remove_one ({remove_one}): removing two markers needs "
            "at least the score that removes one"
        )
    return remove_two


@dataclass(frozen=True, kw_only=True)
class BattlegroupCheck(PlainModel, Closed):
    radius: Inches
    remove_one: D6Score
    remove_two: Annotated[int, _whole(1, 7), Check(after=_two_needs_at_least_one)]


@dataclass(frozen=True, kw_only=True)
class ProximityScope(PlainModel, Closed):
    """Which moving units keep off which enemy units (sevendays.move.proximity): by the
    book's unit classes."""

    movers: frozenset[UnitType]
    near: frozenset[UnitType]


@dataclass(frozen=True, kw_only=True)
class RandomLength(PlainModel, Closed):
    ends_on: D6Score
    max_turns: Annotated[int, _whole(1, MAX_TURNS)]


@dataclass(frozen=True, kw_only=True)
class FreeDeployment(PlainModel, Closed):
    """sevendays.scenario.free_deployment (house): each side's band from its own edge (and the
    hidden defender's distance beyond the attacker's start line), and the closest two placed
    units may stand."""

    depth: Annotated[float, _above_zero(MAX_INCHES)]
    spacing: Inches


def _damage_table_covers_the_d6(rows: list[DamageRow], _: object) -> list[DamageRow]:
    _rising_rows(rows, "damage table", 6)
    return rows


@dataclass(frozen=True, kw_only=True)
class HouseRules(PlainModel, Closed):
    """Every overridable number. Field names are the keys of ``house_rules.yaml``."""

    movement: dict[Literal["normal", "rapid", "road"], dict[UnitClass, Inches]]
    terrain_tests: dict[
        MoverClass, dict[Literal["rough", "very_rough"], Annotated[int, _whole(0, 7)]]
    ]
    terrain_kinds: dict[str, TerrainKindSpec]
    proximity: Inches
    proximity_scope: ProximityScope
    footprint: dict[Literal["vehicle", "foot"], Annotated[float, _above_zero(12)]]
    obscured_rays: Annotated[int, _whole(1, 15)]
    damage_table: Annotated[list[DamageRow], Check(after=_damage_table_covers_the_d6)]
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
    smoke_radius: Annotated[float, _above_zero(MAX_INCHES)]
    close_combat_support: Inches
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
    validated by pydantic (imported only for an override)."""
    if not override:
        return default_house_rules()
    return validate(HouseRules, merge(_default_house_data(), override), source)


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
