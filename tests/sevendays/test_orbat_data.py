"""Shipped ORBAT files: they load, agree with their published sources, keep the book's facts.

Sources (kept beside the checkout in ``../shared``, so those checks skip where it is absent):

- the seed transcription of the rulebook, whose UK table (p35) is the primary source for uk.yaml;
- the BattleScribe game system and catalogues, which quote the book's UK and Soviet tables.

Break points printed for a few cheap vehicles look like misprints (see the files' headers). The
four UK lines keep the printed numbers (the published default, issue 15) and the points/8 values
are a house switch (house_rules.yaml bp_corrections); the Soviet lines are corrected in the data.
Both kinds are listed here and must say so in a note.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from umpire.rulesets.sevendays import orbat as orbat_module
from umpire.rulesets.sevendays.orbat import Orbat, UnitProfile, UnitType, load_orbat

ORBATS = Path(orbat_module.__file__).resolve().parent / "data" / "orbat"
SHARED = Path(__file__).resolve().parents[3] / "shared"
BATTLESCRIBE = SHARED / "reference" / "battlescribe"
SEED = SHARED / "seeds" / "000_seven-days-to-the-river-rhine.txt"

CATALOGUES = {"uk": "British Army on the Rhine.cat", "ussr": "Soviet Union.cat"}
GAME_SYSTEM = "Seven Days to the River Rhine.gst"

# Lines whose printed break points we replaced: unit id -> the BP the source prints.
BP_MISPRINTS: dict[str, dict[str, int]] = {
    "uk": {},
    "ussr": {
        "zsu23-shilka": 9,
        "bmd2": 8,
        "asu85": 8,
        "2s9-nona": 8,
        "brdm2": 6,
        "bmd1": 5,
        "bmp1": 5,
        "pt76": 4,
        "asu57": 4,
        "btr50": 4,
        "btr60": 4,
        "btr70": 4,
    },
}
# Lines that keep the printed break points, the points/8 value a house switch away.
PRINTED_KEPT: dict[str, dict[str, int]] = {
    "uk": {"warrior": 11, "spartan": 8, "fv432": 7, "saxon": 5},
    "ussr": {},
}
# Traits we set against the catalogue's classification: unit id -> traits it lacks there.
TRAIT_OVERRIDES: dict[str, dict[str, frozenset[str]]] = {
    "uk": {"saxon": frozenset({"wheeled"})},  # a wheeled APC, filed under tracked vehicles
    "ussr": {},
}
# Units whose name differs from the catalogue entry beyond punctuation and case.
CATALOGUE_NAMES: dict[str, dict[str, str]] = {
    "uk": {},
    "ussr": {"motor-rifles": "Infantry", "2s9-nona": "2S9 Nona Mortar"},
}
# Traits a catalogue entry's special rules and categories determine.
RULE_TRAITS = {
    "APC": {"apc"},
    "Thermal": {"thermal"},
    "Recce": {"recce"},
    "SAM": {"sam"},
    "Mortar": {"mortar"},
    "ATV": {"atv", "wheeled"},
    "Fixed forward": {"fixed_forward"},
    "AA Gun (6+)": {"aa"},
    "AA Gun (7+)": {"aa"},
    "Rockets": {"rockets"},
    "LAW": {"law"},
    "MANPAD": {"manpad"},
}
# The generic "AA" rule and the autocannon's linked AA reaction profile give aa, except to a SAM
# vehicle or MANPAD carrier, whose missile trait already covers it.
AA_PROFILE = "RFAC AA reaction"
CATEGORY_TRAITS = {
    "APC": {"apc"},
    "Main Battle Tank - Fast": {"fast"},
    "Light (Wheeled)": {"wheeled"},
    "Light (ATV)": {"atv", "wheeled"},
}
DERIVED_TRAITS = frozenset().union(
    *RULE_TRAITS.values(), *CATEGORY_TRAITS.values(), {"atgm_team", "aa"}
)
CATEGORY_TYPES = {
    "Main Battle Tank": UnitType.MBT,
    "Main Battle Tank - Fast": UnitType.MBT,
    "Atk Helo": UnitType.HELICOPTER,
    "Support": UnitType.SUPPORT,
    "Infantry": UnitType.INFANTRY,
    "Light (Tracked)": UnitType.LIGHT,
    "Light (Wheeled)": UnitType.LIGHT,
    "Light (ATV)": UnitType.LIGHT,
    "APC": UnitType.LIGHT,
}


def _orbat(nation: str) -> Orbat:
    return load_orbat(ORBATS / f"{nation}.yaml")


def _is_house(unit: UnitProfile) -> bool:
    """A house line (no published source; its note says so): e.g. the MANPAD teams."""
    return (unit.note or "").startswith("Provenance: house")


def _published(nation: str) -> list[UnitProfile]:
    return [u for u in _orbat(nation).units if not _is_house(u)]


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _bp_from_points(points: int) -> int:
    """Points / 8, rounded half up: the break points of every correctly printed line."""
    return math.floor(points / 8 + 0.5)


# --- reading the sources ------------------------------------------------------------------------


def _value(text: str | None) -> str | None:
    """A stat cell, or None where the source has n/a or leaves it empty."""
    cell = (text or "").strip()
    return None if cell.lower() in {"", "n/a", "n/s"} else cell


@dataclass
class SourceLine:
    """One stat line as printed: cells kept as text, exactly as the source has them."""

    name: str
    front: str | None
    side: str | None
    weapon: str | None
    to_hit: str | None
    morale: str | None
    atgm_to_hit: str | None
    atgm_weapon: str | None
    points: int
    bp: int
    type: UnitType | None = None
    traits: set[str] = field(default_factory=set)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(element: ET.Element, path: str) -> list[ET.Element]:
    """Children along a path of local tag names, ignoring the BattleScribe namespaces."""
    found = [element]
    for step in path.split("/"):
        found = [child for node in found for child in node if _local(child.tag) == step]
    return found


def _battlescribe_lines(path: Path, categories: dict[str, str]) -> dict[str, SourceLine]:
    """Every model with a stat line in a .cat or .gst file, by normalised name."""
    lines: dict[str, SourceLine] = {}
    for entry in ET.parse(path).getroot().iter():
        if _local(entry.tag) != "selectionEntry" or entry.get("type") != "model":
            continue
        stats = [p for p in _children(entry, "profiles/profile") if p.get("typeName") == "Stats"]
        if not stats:
            continue
        cells = {
            c.get("name"): c.text for c in _children(stats[0], "characteristics/characteristic")
        }
        costs = {c.get("name"): float(c.get("value", "0")) for c in _children(entry, "costs/cost")}
        line = SourceLine(
            name=entry.get("name", ""),
            front=_value(cells.get("FA")),
            side=_value(cells.get("SA")),
            weapon=_value(cells.get("Wpn")),
            to_hit=_value(cells.get("To Hit")),
            morale=_value(cells.get("Morale")),
            atgm_to_hit=_value(cells.get("ATGM To Hit")),
            atgm_weapon=_value(cells.get("ATGM Wpn")),
            points=int(costs["pts"]),
            bp=int(costs["BP"]),
        )
        for link in _children(entry, "categoryLinks/categoryLink"):
            category = categories[link.get("targetId", "")]
            line.traits |= CATEGORY_TRAITS.get(category, set())
            if link.get("primary") == "true":
                line.type = CATEGORY_TYPES[category]
        generic_aa = False
        for link in _children(entry, "infoLinks/infoLink"):
            if link.get("type") == "profile":
                generic_aa |= link.get("targetId") == AA_PROFILE
                continue
            line.traits |= RULE_TRAITS.get(link.get("name", ""), set())
            generic_aa |= link.get("name") == "AA"
        if generic_aa and not line.traits & {"sam", "manpad"}:
            line.traits.add("aa")
        if line.to_hit and line.to_hit.endswith("m"):
            line.traits.add("mortar")
        if line.type is UnitType.SUPPORT and line.atgm_weapon and not line.weapon:
            line.traits.add("atgm_team")
        lines[_key(line.name)] = line
    return lines


def _catalogue(nation: str) -> dict[str, SourceLine]:
    """The nation's catalogue lines plus the game system's generic ones (infantry, mortar)."""
    if not BATTLESCRIBE.is_dir():
        pytest.skip(f"BattleScribe reference data not found at {BATTLESCRIBE}")
    gst = BATTLESCRIBE / GAME_SYSTEM
    categories = {
        e.get("id", ""): e.get("name", "")
        for e in ET.parse(gst).getroot().iter()
        if _local(e.tag) == "categoryEntry"
    }
    generic = _battlescribe_lines(gst, categories)
    own = _battlescribe_lines(BATTLESCRIBE / CATALOGUES[nation], categories)
    return {**generic, **own}


def _own_catalogue_names(nation: str) -> set[str]:
    if not BATTLESCRIBE.is_dir():
        pytest.skip(f"BattleScribe reference data not found at {BATTLESCRIBE}")
    root = ET.parse(BATTLESCRIBE / CATALOGUES[nation]).getroot()
    return {
        _key(e.get("name", ""))
        for e in root.iter()
        if _local(e.tag) == "selectionEntry" and e.get("type") == "model"
    }


SEED_NOTE_TRAITS = {
    "Thermal": {"thermal"},
    "APC": {"apc"},
    "Recce": {"recce"},
    "ATV": {"atv", "wheeled"},
    "SAM": {"sam"},
    "Mortar": {"mortar"},
    "MANPAD": {"manpad"},
    "LAW": {"law"},
}
SEED_TYPES = {
    "Atk Helo": UnitType.HELICOPTER,
    "MBT": UnitType.MBT,
    "Light": UnitType.LIGHT,
    "INF": UnitType.INFANTRY,
    "SPRT": UnitType.SUPPORT,
}


def _seed_uk_table() -> list[SourceLine]:
    """The UK ORBAT table of the seed: tab-separated, from its header to the next blank line."""
    if not SEED.is_file():
        pytest.skip(f"rulebook seed not found at {SEED}")
    rows: list[SourceLine] = []
    in_table = False
    for raw in SEED.read_text(encoding="utf-8").splitlines():
        if raw.startswith("Type\tName\tArmour"):
            in_table = True
            continue
        if not in_table:
            continue
        if not raw.strip():
            if rows:
                break
            continue
        cells = raw.split("\t")
        if not cells[0].strip():  # the second header row (Front / Side ...)
            continue
        kind, name, front, side, wpn, hit, morale, atgm_hit, atgm_wpn, notes, pts, bp = cells
        row = SourceLine(
            name=name,
            front=_value(front),
            side=_value(side),
            weapon=_value(wpn),
            to_hit=_value(hit),
            morale=_value(morale),
            atgm_to_hit=_value(atgm_hit),
            atgm_weapon=_value(atgm_wpn),
            points=int(pts),
            bp=int(bp),
            type=SEED_TYPES[kind],
        )
        for word in re.split(r"[,\s]+", notes.replace("Special Armour", "")):
            row.traits |= SEED_NOTE_TRAITS.get(word, set())
        rows.append(row)
    return rows


# --- comparing a unit with its source line --------------------------------------------------


def _mismatches(unit: UnitProfile, line: SourceLine) -> list[str]:
    """Every stat of ``unit`` that differs from the printed ``line`` (break points aside)."""
    problems: list[str] = []

    def check(what: str, ours: object, printed: object) -> None:
        if ours != printed:
            problems.append(f"{unit.id}: {what} is {ours!r}, source prints {printed!r}")

    if line.front is None:
        check("armour", unit.armour, None)
    else:
        assert line.side is not None
        check(
            "armour",
            None
            if unit.armour is None
            else (unit.armour.front, unit.armour.side, unit.armour.special),
            (int(line.front.rstrip("s")), int(line.side.rstrip("s")), line.front.endswith("s")),
        )
    check("weapon", None if unit.weapon is None else str(unit.weapon), line.weapon)
    check("to_hit", unit.to_hit, line.to_hit and int(line.to_hit.split("+")[0]))
    check("morale", unit.morale, line.morale and int(line.morale))
    check(
        "atgm",
        None if unit.atgm is None else (unit.atgm.to_hit, str(unit.atgm.weapon)),
        line.atgm_to_hit and (int(line.atgm_to_hit.rstrip("+")), line.atgm_weapon),
    )
    check("points", unit.points, line.points)
    if line.type is not None:
        check("type", unit.type, line.type)
    return problems


def _bp_problems(nation: str, unit: UnitProfile, printed_bp: int) -> list[str]:
    kept = PRINTED_KEPT[nation].get(unit.id)
    if kept is not None:
        from umpire.rulesets.sevendays.config import house_rules

        switch = house_rules().bp_corrections
        problems = []
        if not unit.bp == printed_bp == kept:
            problems.append(f"{unit.id}: bp {unit.bp}, source prints {printed_bp}, kept {kept}")
        if switch.bp.get(f"{nation}/{unit.id}") != _bp_from_points(unit.points):
            problems.append(f"{unit.id}: the house switch does not give points/8")
        if not unit.note or "BP as printed" not in unit.note or "bp_corrections" not in unit.note:
            problems.append(f"{unit.id}: a kept printed bp needs a note naming the switch")
        return problems
    misprinted = BP_MISPRINTS[nation].get(unit.id)
    if misprinted is None:
        if unit.bp != printed_bp:
            return [f"{unit.id}: bp is {unit.bp}, source prints {printed_bp}, and no correction"]
        return []
    problems = []
    if printed_bp != misprinted:
        problems.append(
            f"{unit.id}: expected the source to print BP {misprinted}, not {printed_bp}"
        )
    if unit.bp != _bp_from_points(unit.points):
        problems.append(f"{unit.id}: corrected bp {unit.bp} is not points/8 rounded")
    if not unit.note or "BP" not in unit.note or str(misprinted) not in unit.note:
        problems.append(f"{unit.id}: corrected bp needs a note naming the printed {misprinted}")
    return problems


# --- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("nation", "side"), [("uk", "nato"), ("ussr", "pact")])
def test_orbat_file_loads_with_unique_ids(nation: str, side: str) -> None:
    orbat = _orbat(nation)
    assert orbat.nation == nation
    assert orbat.side == side
    assert orbat.source.strip()
    ids = [u.id for u in orbat.units]
    assert len(ids) == len(set(ids)), "duplicate unit ids"
    assert all(u.page is not None for u in orbat.units if not _is_house(u))


@pytest.mark.parametrize("nation", ["uk", "ussr"])
def test_units_match_battlescribe_catalogue(nation: str) -> None:
    catalogue = _catalogue(nation)
    problems: list[str] = []
    for unit in _published(nation):
        line = catalogue.get(_key(CATALOGUE_NAMES[nation].get(unit.id, unit.name)))
        if line is None:
            problems.append(f"{unit.id}: no catalogue entry named {unit.name!r}")
            continue
        problems += _mismatches(unit, line)
        problems += _bp_problems(nation, unit, line.bp)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("nation", ["uk", "ussr"])
def test_traits_match_battlescribe_rules_and_categories(nation: str) -> None:
    catalogue = _catalogue(nation)
    problems: list[str] = []
    for unit in _published(nation):
        line = catalogue[_key(CATALOGUE_NAMES[nation].get(unit.id, unit.name))]
        ours = unit.traits & DERIVED_TRAITS
        expected = line.traits | TRAIT_OVERRIDES[nation].get(unit.id, frozenset())
        if ours != expected:
            problems.append(f"{unit.id}: traits {sorted(ours)}, catalogue gives {sorted(expected)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("nation", ["uk", "ussr"])
def test_every_catalogue_unit_is_in_the_orbat(nation: str) -> None:
    ours = {_key(CATALOGUE_NAMES[nation].get(u.id, u.name)) for u in _orbat(nation).units}
    missing = _own_catalogue_names(nation) - ours
    assert not missing, f"catalogue units missing from {nation}.yaml: {sorted(missing)}"


def test_uk_matches_the_seed_table_line_by_line() -> None:
    rows = _seed_uk_table()
    units = _published("uk")
    assert len(rows) == 20
    assert [_key(r.name) for r in rows] == [_key(u.name) for u in units]
    problems: list[str] = []
    for unit, row in zip(units, rows, strict=True):
        problems += _mismatches(unit, row)
        problems += _bp_problems("uk", unit, row.bp)
        ours = unit.traits & set().union(*SEED_NOTE_TRAITS.values())
        expected = row.traits | TRAIT_OVERRIDES["uk"].get(unit.id, frozenset())
        if ours != expected:
            problems.append(f"{unit.id}: traits {sorted(ours)}, seed notes give {sorted(expected)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("nation", ["uk", "ussr"])
def test_break_points_are_points_over_eight(nation: str) -> None:
    """Every line, corrected or not, has BP = points / 8 rounded half up, but the printed
    numbers kept as the published default."""
    wrong = [
        f"{u.id}: {u.points} pts, {u.bp} BP"
        for u in _orbat(nation).units
        if u.bp != _bp_from_points(u.points) and u.id not in PRINTED_KEPT[nation]
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("nation", ["uk", "ussr"])
def test_only_corrected_lines_claim_a_bp_correction(nation: str) -> None:
    claimed = {u.id for u in _orbat(nation).units if u.note and "BP corrected" in u.note}
    assert claimed == set(BP_MISPRINTS[nation])


def test_seed_worked_example_chieftain_mk9() -> None:
    """The seed's Chieftain Mk9 line: 17/14 armour, gun 10, hits on 4+, morale 6, 63 points."""
    chieftain = _orbat("uk").profile("chieftain-mk9")
    assert chieftain.type is UnitType.MBT
    assert chieftain.armour is not None
    assert (chieftain.armour.front, chieftain.armour.side) == (17, 14)
    assert not chieftain.armour.special
    assert chieftain.weapon is not None and str(chieftain.weapon) == "10"
    assert chieftain.to_hit == 4
    assert chieftain.morale == 6
    assert chieftain.points == 63
    assert "thermal" in chieftain.traits


def test_seed_challenger_1_has_special_armour() -> None:
    challenger = _orbat("uk").profile("challenger-1")
    assert challenger.armour is not None and challenger.armour.special
    assert (challenger.armour.front, challenger.armour.side) == (19, 17)


def test_seed_milan_fires_a_3_plus_11_heat_missile() -> None:
    milan = _orbat("uk").profile("milan")
    assert milan.type is UnitType.SUPPORT
    assert milan.atgm is not None
    assert milan.atgm.to_hit == 3
    assert milan.atgm.weapon.value == 11 and milan.atgm.weapon.heat
    assert milan.weapon is None
    assert "atgm_team" in milan.traits


def test_infantry_carry_an_8i_anti_tank_weapon() -> None:
    for nation, unit_id in (("uk", "infantry"), ("ussr", "motor-rifles")):
        infantry = _orbat(nation).profile(unit_id)
        assert infantry.type is UnitType.INFANTRY
        assert infantry.weapon is not None and str(infantry.weapon) == "8i"
        assert infantry.to_hit == 5
        assert "law" in infantry.traits


def test_mbt_morale_is_six_for_nato_and_five_for_the_soviets() -> None:
    for nation, morale in (("uk", 6), ("ussr", 5)):
        tanks = [u for u in _orbat(nation).units if u.type is UnitType.MBT]
        assert tanks
        assert {u.morale for u in tanks} == {morale}, nation


def test_fast_mbts_are_the_t64_t72_and_t80_families() -> None:
    fast = {u.id for u in _orbat("ussr").units if "fast" in u.traits}
    assert fast == {"t64a", "t64b", "t72-ural", "t72a", "t72b", "t80b", "t80u"}
    assert not any("fast" in u.traits for u in _orbat("uk").units)


def test_no_unit_is_a_commander_by_default() -> None:
    """The battlegroup commander is chosen by the scenario, not the ORBAT."""
    for nation in ("uk", "ussr"):
        assert not any("command" in u.traits for u in _orbat(nation).units)
