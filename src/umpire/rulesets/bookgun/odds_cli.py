"""``umpire odds bookgun ...`` (``ODDS``): exact casualty distributions of a fire action and of
a close combat, from the same chance definitions play samples."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.core.errors import UmpireError
from umpire.core.ruleset import Option
from umpire.rulesets.bookgun.chances import (
    HitsUnder,
    close_combat_casualties,
    door_opens,
    fire_casualties,
)

if TYPE_CHECKING:  # the validated tables (pydantic) are loaded only for a house-rules file
    from umpire.rulesets.bookgun.tables import Tables

TABLES_FILE = Path(__file__).parent / "data" / "tables.yaml"  # tables.DATA / "tables.yaml"

OPTIONS: tuple[Option, ...] = (
    Option(
        "mode",
        "fire | close-combat | door (HE rounds at a locked door, bookgun.building.door_fire)",
        choices=("fire", "close-combat", "door"),
        default="fire",
    ),
    Option("weapons", "Fire: firing weapons, e.g. assault_rifle*5,lmg*2.", default="assault_rifle"),
    Option("range", "Fire: range in inches.", type="float", default=10.0),
    Option("category", "Fire: target category I | II | III | IV.", default="II"),
    Option("quality", "Fire: firer quality (regular, trained_insurgent, ...).", default="regular"),
    Option("moved", "Fire: the firers moved this turn.", type="bool", default=False),
    Option(
        "night",
        "Fire: at night without night-vision goggles or laser sights (-2, bookgun.los.dark).",
        type="bool",
        default=False,
    ),
    Option(
        "moving-vehicle",
        "Fire: from a vehicle in motion (-4 instead of moved, bookgun.move.vehicles).",
        type="bool",
        default=False,
    ),
    Option("visible", "Fire: target figures visible to the firers.", type="int", default=7),
    Option("no-leader", "Fire: the target has no leader present.", type="bool", default=False),
    Option(
        "pairs",
        "Close combat: pairs as ATTACKER_MOD:DEFENDER_MOD, e.g. 1:0,1:0,2:-1.",
        default="1:0",
    ),
    Option("house-rules", "YAML file overriding tables.", type="path"),
)


# -- the numbers a fire action reads, without the pydantic tables --------------------------------
@dataclass(frozen=True)
class FireWeapon:
    """A weapon's row of ``tables.yaml`` as :class:`umpire.rulesets.bookgun.tables.Weapon`
    reads it (the fields the odds use, with its defaults)."""

    dice: tuple[int, int, int]
    bands: tuple[float, float, float]
    hit_mod: int = 0
    blast: bool = False
    min_range: float = 0.0


@dataclass(frozen=True)
class FireNumbers:
    """The fire and blast numbers of the tables (sections ``weapons``, ``fire_table``,
    ``fire_mods``, ``blast``): what ``umpire odds bookgun`` reads. Built from the shipped
    ``tables.yaml`` without the pydantic models; a test checks it equals what the validated
    :class:`~umpire.rulesets.bookgun.tables.Tables` holds, so the two cannot drift."""

    weapons: dict[str, FireWeapon]
    fire_table: dict[str, dict[str, int]]  # band (short, medium, long) -> category -> number
    always_miss: int
    minimum: int
    quality: dict[str, int]
    moved: int
    night: int
    moving_vehicle: int
    on_target_short: int
    on_target_beyond: int

    def number(self, band: str, category: str) -> int:
        return self.fire_table[band][category]


def fire_numbers(data: Mapping[str, Any]) -> FireNumbers:
    """The fire numbers of a tables mapping (``tables.yaml`` as read, or a validated
    ``Tables.model_dump()``), with the models' defaults and number types."""
    table, mods, blast = data["fire_table"], data["fire_mods"], data["blast"]
    return FireNumbers(
        weapons={
            str(name): FireWeapon(
                dice=(int(w["dice"][0]), int(w["dice"][1]), int(w["dice"][2])),
                bands=(float(w["bands"][0]), float(w["bands"][1]), float(w["bands"][2])),
                hit_mod=int(w.get("hit_mod", 0)),
                blast=bool(w.get("blast", False)),
                min_range=float(w.get("min_range", 0.0)),
            )
            for name, w in data["weapons"]["types"].items()
        },
        fire_table={
            band: {str(k): int(v) for k, v in table[band].items()}
            for band in ("short", "medium", "long")
        },
        always_miss=int(table["always_miss"]),
        minimum=int(table["minimum"]),
        quality={str(k): int(v) for k, v in mods["quality"].items()},
        moved=int(mods["moved"]),
        night=int(mods.get("night", -2)),
        moving_vehicle=int(mods.get("moving_vehicle", -4)),
        on_target_short=int(blast["on_target_short"]),
        on_target_beyond=int(blast["on_target_beyond"]),
    )


@cache
def shipped_fire_numbers() -> FireNumbers:
    """The shipped tables' fire numbers, read straight from ``tables.yaml``."""
    from umpire.core.datafiles import load_yaml

    return fire_numbers(load_yaml(TABLES_FILE))


def _numbers(tables: Tables | FireNumbers) -> FireNumbers:
    if isinstance(tables, FireNumbers):
        return tables
    return fire_numbers(tables.model_dump())


MAX_FIGURES = 12
"""The most firing figures (or HE rounds, or close-combat pairs) one question may hold: the
exact distribution of a fire action grows steeply with its dice (7 rifles take seconds)."""


def _weapon_counts(weapons: str) -> list[tuple[str, int]]:
    """``--weapons`` read as NAME or NAME*COUNT items, comma separated; a count that is not a
    whole number from 1, or too many figures in all, is a one-line error naming the flag."""
    counts: list[tuple[str, int]] = []
    for item in [w for w in weapons.split(",") if w.strip()]:
        name, star, times = item.strip().partition("*")
        if not star:
            counts.append((name, 1))
            continue
        if not (times.strip().isdigit() and int(times) >= 1):
            raise UmpireError(
                f"--weapons {item.strip()!r}: write NAME*COUNT with a count of 1 or more"
            )
        counts.append((name, int(times)))
    if sum(n for _, n in counts) > MAX_FIGURES:
        raise UmpireError(f"--weapons {weapons!r}: at most {MAX_FIGURES} figures fire at once here")
    return counts


def read_pairs(text: str) -> list[tuple[int, int]]:
    """``--pairs`` as ATTACKER_MOD:DEFENDER_MOD items (the defender's mod may be left out)."""
    pairs: list[tuple[int, int]] = []
    for item in text.split(","):
        a, _, d = item.partition(":")
        try:
            pairs.append((int(a), int(d or 0)))
        except ValueError:
            raise UmpireError(
                f"--pairs {item!r}: write ATTACKER_MOD:DEFENDER_MOD, e.g. 1:0,2:-1"
            ) from None
    if len(pairs) > MAX_FIGURES:
        raise UmpireError(f"--pairs: at most {MAX_FIGURES} pairs here, not {len(pairs)}")
    return pairs


def fire_parts(
    tables: Tables | FireNumbers,
    weapons: str,
    range_: float,
    category: str,
    quality: str,
    moved: bool,
    night: bool = False,
    moving_vehicle: bool = False,
) -> list[HitsUnder]:
    """The d20s of each firing figure (bookgun.fire.procedure), as play rolls them."""
    numbers = _numbers(tables)
    parts: list[HitsUnder] = []
    if not range_ >= 0:  # NaN too
        raise UmpireError(f"--range {range_:g}: must be 0 inches or more")
    if quality not in numbers.quality:
        known = ", ".join(numbers.quality)
        raise UmpireError(f"--quality {quality!r}: choose {known}")
    for name, count in _weapon_counts(weapons):
        if name not in numbers.weapons:
            raise UmpireError(f"unknown weapon {name!r}; known: {', '.join(numbers.weapons)}")
        weapon = numbers.weapons[name]
        band = next((i for i, edge in enumerate(weapon.bands) if range_ <= edge), None)
        if band is None:
            raise UmpireError(f"{name} does not reach {range_:g} in.")
        number = numbers.number(("short", "medium", "long")[band], category)
        number += numbers.quality.get(quality, 0) + weapon.hit_mod
        if moving_vehicle:
            number += numbers.moving_vehicle
        elif moved:
            number += numbers.moved
        number += numbers.night if night else 0
        number = max(numbers.minimum, number)
        for _ in range(count):
            parts.append(
                HitsUnder(
                    weapon.dice[band],
                    20,
                    number,
                    "bookgun.fire.table",
                    numbers.always_miss,
                )
            )
    return parts


def door_needs(tables: Tables | FireNumbers, weapons: str, range_: float) -> list[int]:
    """The on-target number each HE round at a door needs, in firing order (as play: the
    blast's 10 at short range, 6 beyond - bookgun.building.door_fire)."""
    numbers = _numbers(tables)
    needs: list[int] = []
    if not range_ >= 0:  # NaN too
        raise UmpireError(f"--range {range_:g}: must be 0 inches or more")
    for name, count in _weapon_counts(weapons):
        weapon = numbers.weapons.get(name)
        if weapon is None or not weapon.blast or name == "grenade":
            known = ", ".join(k for k, v in numbers.weapons.items() if v.blast)
            raise UmpireError(f"{name!r} fires no HE at a door; HE weapons: {known}")
        band = next((i for i, edge in enumerate(weapon.bands) if range_ <= edge), None)
        if band is None or (weapon.min_range and range_ < weapon.min_range):
            raise UmpireError(f"{name} does not reach a door at {range_:g} in.")
        need = numbers.on_target_short if band == 0 else numbers.on_target_beyond
        needs += [need] * count
    return needs


def _range(values: Mapping[str, Any]) -> float:
    """``--range`` (10 inches when not given; 0 is point blank, not "not given")."""
    given = values.get("range")
    return 10.0 if given is None else float(given)


def _pct(dist: Mapping[Any, Fraction]) -> dict[str, float]:
    return {str(k): float(v) for k, v in sorted(dist.items())}


class BookGunOdds:
    options: Sequence[Option] = OPTIONS

    def answer(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        path: Path | None = values.get("house_rules")
        tables: Tables | FireNumbers = shipped_fire_numbers()
        if path:  # a user's file is validated by the pydantic tables
            from umpire.rulesets.bookgun.tables import HOUSE_RULES, tables_with

            tables = tables_with(HOUSE_RULES.load(path))
        mode = values.get("mode") or "fire"
        if mode == "fire":
            cat = str(values.get("category") or "II")
            if cat not in ("I", "II", "III", "IV"):
                raise UmpireError("--category must be I, II, III or IV")
            parts = fire_parts(
                tables,
                str(values.get("weapons") or "assault_rifle"),
                _range(values),
                cat,
                str(values.get("quality") or "regular"),
                bool(values.get("moved")),
                bool(values.get("night")),
                bool(values.get("moving_vehicle")),
            )
            visible = values.get("visible")
            visible = 7 if visible is None else int(visible)
            if visible < 1:
                raise UmpireError(f"--visible {visible}: at least 1 target figure is visible")
            chance = fire_casualties(parts, not values.get("no_leader"), visible)
            dist = chance.outcomes()
            killed: dict[int, Fraction] = {}
            hit: dict[int, Fraction] = {}
            for (k, w, _l), p in dist.items():
                killed[k] = killed.get(k, Fraction(0)) + p
                hit[k + w] = hit.get(k + w, Fraction(0)) + p
            leader = sum((p for (_k, _w, lead), p in dist.items() if lead), Fraction(0))
            dice = [f"{p.count}d20 <= {p.number}" for p in parts]
            data = {
                "dice": dice,
                "casualties": _pct(hit),
                "killed": _pct(killed),
                "leader_hit": float(leader),
                "expected_casualties": float(sum(n * p for n, p in hit.items())),
            }
            lines = [f"fire: {', '.join(dice)} at Cat {cat}"]
        elif mode == "door":
            needs = door_needs(tables, str(values.get("weapons") or "rpg"), _range(values))
            opened = door_opens(needs).probability(lambda ok: ok)
            dice = [f"1d20 <= {n}" for n in needs]
            data = {"rounds": dice, "door_opens": float(opened)}
            lines = [f"HE at a locked door, rounds until one lands: {', '.join(dice)}"]
        else:
            pairs = read_pairs(str(values.get("pairs") or "1:0"))
            dist2 = close_combat_casualties(pairs).outcomes()
            data = {
                "pairs": [list(p) for p in pairs],
                "outcomes": {
                    f"attacker {a} / defender {d}": float(p) for (a, d), p in sorted(dist2.items())
                },
            }
            lines = [f"close combat, {len(pairs)} pair(s):"]
        for key, value in data.items():
            if isinstance(value, dict):
                lines.append(f"  {key}:")
                lines += [f"    {k:>24}  {v:7.2%}" for k, v in value.items()]
            else:
                lines.append(f"  {key}: {value}")
        return data, lines


ODDS = BookGunOdds()
