"""Data files: the rule catalogue, the house-rule numbers (overridable by a user's YAML file) and
one-line errors naming the file and field of anything malformed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from umpire.core.datafiles import load_override, load_yaml, merge
from umpire.core.plain import Check, Closed, build, validate

if TYPE_CHECKING:  # the catalogue is read for the rules, not for a shot's house rules
    from umpire.core.catalog import RuleEntry

DATA = Path(__file__).parent / "data"
Quality = Literal["elite", "average", "poor"]

# The house-rule numbers as the rules read them: plain frozen dataclasses built from the
# packaged ``house_rules.yaml`` without pydantic (issue 19). A user's override is validated as
# a whole by pydantic against the same dataclasses (issue 16): whole numbers and booleans are
# strict (``true`` is not 1), dice scores and modifiers lie in the die's reach, d6 tables cover
# each face once, fractions lie in (0, 1], and counts and turn spans are bounded.
Whole = Annotated[int, Check(strict=True)]
Flag = Annotated[bool, Check(strict=True)]
Modifier = Annotated[int, Check(strict=True, ge=-6, le=6)]
Score = Annotated[int, Check(strict=True, ge=-6, le=13)]  # a modified d6 (13: never)
Turns = Annotated[int, Check(strict=True, ge=1, le=50)]
Count = Annotated[int, Check(strict=True, ge=0, le=50)]
D6 = frozenset(range(1, 7))


def _bounded(low: int, high: int) -> Check:
    return Check(strict=True, ge=low, le=high)


@dataclass(frozen=True)
class Landing(Closed):
    """portable.artillery.landing: a modified d6 of ``on_target`` or more hits; lower scores
    listed in ``in_front`` land short, in ``behind`` over (any other lands nowhere)."""

    on_target: Annotated[int, _bounded(1, 13)]
    in_front: list[Score]
    behind: list[Score]

    def __post_init__(self) -> None:
        both = sorted(set(self.in_front) & set(self.behind))
        if both:
            raise ValueError(f"score {both[0]} is both in_front and behind: a score lands once")
        high = sorted(v for v in (*self.in_front, *self.behind) if v >= self.on_target)
        if high:
            raise ValueError(
                f"score {high[0]} is listed short or over but on_target ({self.on_target}) "
                "already hits with it"
            )


@dataclass(frozen=True)
class Drift(Closed):
    """portable.gas.drift: each d6 face stays, drifts in front or behind: exactly one."""

    stay: list[Whole]
    in_front: list[Whole]
    behind: list[Whole]

    def __post_init__(self) -> None:
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


@dataclass(frozen=True)
class Optional_(Closed):
    cyclists: Flag = True
    tank_riders: Flag = True
    gas: Flag = False
    air: Flag = False
    commander_attached: Flag = False


def _a_fraction_in_zero_one(value: tuple[int, int], _: object) -> tuple[int, int]:
    num, den = value
    if num < 1 or den < 1 or num > den:
        raise ValueError(
            f"[{num}, {den}] is not a fraction in (0, 1]: both numbers at least 1, the "
            "first no larger than the second (the book's is [1, 3])"
        )
    if den > 100:
        raise ValueError(f"[{num}, {den}]: the second number is at most 100")
    return value


@dataclass(frozen=True)
class HouseRules(Closed):
    """Every overridable number; field names are the keys of ``house_rules.yaml``."""

    activation_units_per_die: Annotated[int, _bounded(1, 50)]
    initiative_ties: Literal["reroll", "first_player"]
    fire_hit: Annotated[int, _bounded(1, 12)]
    fire_modifiers: dict[Literal["cover", "not_moved", "commander"], Modifier]
    fire_and_close_combat: Flag
    artillery_landing: Landing
    artillery_modifiers: dict[Literal["cover", "observed", "same_target", "commander"], Modifier]
    hit_loses_sp: dict[Quality, Annotated[int, _bounded(0, 6)]]
    cc_modifiers: dict[Literal["commander", "cover", "uphill", "river", "trench"], Modifier]
    exhaustion_fraction: Annotated[tuple[Whole, Whole], Check(after=_a_fraction_in_zero_one)]
    road_bonus: Annotated[int, _bounded(0, 10)]
    max_stack: Annotated[int, _bounded(1, 20)]
    free_deployment_min_rows: Annotated[int, _bounded(1, 50)]
    lay_minefield_turns: Turns
    clear_minefield_turns: Turns
    wire_turns: Turns
    gas_cloud_turns: Turns
    gas_shells_per_gun: Count
    gas_drift: Drift
    air_hit: Annotated[int, _bounded(1, 12)]
    air_modifiers: dict[Literal["cover", "bomber", "not_moved", "commander"], Modifier]
    bomb_loads: Count
    victory: dict[Literal["objective"], Annotated[int, _bounded(0, 100)]]
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
    """The default house rules with ``override`` merged over them, validated (by pydantic,
    imported only for an override)."""
    if not override:
        return _default_house_rules()
    return validate(HouseRules, merge(_default_house_data(), override), source)


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
