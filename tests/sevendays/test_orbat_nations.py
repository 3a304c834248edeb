"""The United States and West German ORBAT files.

us.yaml is built from the BattleScribe "United States" catalogue (and the game system's generic
infantry and mortar lines), as ussr.yaml was: every line must agree with it except break points
the file corrects and says so. wg.yaml has no published source (see its header): every line must
name the published line it copies, and agree with it except the fields it says it changed.
Checks that need ``../shared/reference/battlescribe`` skip where that folder is absent.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from umpire.importers.battlescribe import catalogue_lines, compare_with_orbat
from umpire.rulesets.sevendays import orbat as orbat_module
from umpire.rulesets.sevendays.orbat import Orbat, UnitProfile, UnitType, load_orbat

ORBATS = Path(orbat_module.__file__).resolve().parent / "data" / "orbat"
BATTLESCRIBE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "battlescribe"
GAME_SYSTEM = BATTLESCRIBE / "Seven Days to the River Rhine.gst"

# US lines whose printed break points we replaced: unit id -> the BP the catalogue prints.
US_BP_MISPRINTS = {"hmmwv": 10, "m113-fist": 11, "m114": 8, "aavp7": 6, "m113": 4}

PROVENANCE = re.compile(
    r"^Provenance: (?P<kind>generic|house); copy of (?P<source>[^;]+); "
    r"changed: (?P<changed>none|[a-z_, ]+)\. \S"
)
STAT_FIELDS = ("type", "armour", "weapon", "to_hit", "morale", "atgm", "traits", "points", "bp")


def _orbat(nation: str) -> Orbat:
    return load_orbat(ORBATS / f"{nation}.yaml")


def _bp_from_points(points: int) -> int:
    return math.floor(points / 8 + 0.5)


def _needs_reference() -> None:
    if not BATTLESCRIBE.is_dir():
        pytest.skip(f"BattleScribe reference data not found at {BATTLESCRIBE}")


# --- both files --------------------------------------------------------------------------------


@pytest.mark.parametrize("nation", ["us", "wg"])
def test_file_loads_for_nato_with_unique_ids(nation: str) -> None:
    orbat = _orbat(nation)
    assert orbat.nation == nation
    assert orbat.side == "nato"
    assert orbat.source.strip()
    ids = [u.id for u in orbat.units]
    assert len(ids) == len(set(ids))
    assert len({u.name for u in orbat.units}) == len(ids)


@pytest.mark.parametrize("nation", ["us", "wg"])
def test_break_points_are_points_over_eight(nation: str) -> None:
    wrong = [u.id for u in _orbat(nation).units if u.bp != _bp_from_points(u.points)]
    assert not wrong


@pytest.mark.parametrize("nation", ["us", "wg"])
def test_nato_tank_morale_is_six(nation: str) -> None:
    tanks = [u for u in _orbat(nation).units if u.type is UnitType.MBT]
    assert tanks and {u.morale for u in tanks} == {6}


@pytest.mark.parametrize("nation", ["us", "wg"])
def test_each_nation_has_infantry_and_an_apc_to_carry_it(nation: str) -> None:
    units = _orbat(nation).units
    assert any(u.type is UnitType.INFANTRY and "law" in u.traits for u in units)
    assert any(u.is_apc for u in units)
    assert not any("command" in u.traits for u in units)


def test_fast_tanks_are_the_m1_family_and_the_leopard_2() -> None:
    assert {u.id for u in _orbat("us").units if "fast" in u.traits} == {"m1", "m1ip", "m1a1"}
    assert {u.id for u in _orbat("wg").units if "fast" in u.traits} == {"leopard-2a4"}


# --- United States -----------------------------------------------------------------------------


def test_us_m1a1_line() -> None:
    """The catalogue's M1A1: 19s/17s, gun 11, 4+, morale 6, fast, thermal, 90 points, 11 BP."""
    tank = _orbat("us").profile("m1a1")
    assert tank.armour is not None and tank.armour.special
    assert (tank.armour.front, tank.armour.side) == (19, 17)
    assert str(tank.weapon) == "11" and tank.to_hit == 4 and tank.morale == 6
    assert tank.traits == {"fast", "thermal"}
    assert (tank.points, tank.bp) == (90, 11)


def test_us_bradley_is_an_apc_with_a_tow() -> None:
    bradley = _orbat("us").profile("m2-bradley")
    assert bradley.is_apc and "thermal" in bradley.traits
    assert str(bradley.weapon) == "4a"
    assert bradley.atgm is not None and (bradley.atgm.to_hit, str(bradley.atgm.weapon)) == (
        3,
        "12h",
    )


def test_us_units_match_the_battlescribe_catalogue() -> None:
    _needs_reference()
    lines, report = catalogue_lines(BATTLESCRIBE / "United States.cat", GAME_SYSTEM)
    assert not report.unmapped_units()
    differences = compare_with_orbat(lines, _orbat("us"))
    undocumented = [str(d) for d in differences if not d.documented]
    assert not undocumented, "\n".join(undocumented)
    corrected = {d.unit: d.catalogue for d in differences if d.field == "bp"}
    assert corrected == US_BP_MISPRINTS
    assert {d.field for d in differences} == {"bp"}


def test_every_us_line_comes_from_the_catalogue_or_game_system() -> None:
    _needs_reference()
    lines, _ = catalogue_lines(BATTLESCRIBE / "United States.cat", GAME_SYSTEM)
    from umpire.importers.battlescribe import match_profile

    matched = {p.id for line in lines if (p := match_profile(_orbat("us"), line.entry_name))}
    published = {u.id for u in _orbat("us").units if not (u.note or "").startswith("Provenance")}
    assert matched == published


def test_only_corrected_us_lines_claim_a_bp_correction() -> None:
    orbat = _orbat("us")
    claimed = {u.id for u in orbat.units if u.note and "BP corrected" in u.note}
    assert claimed == set(US_BP_MISPRINTS)
    for unit_id, printed in US_BP_MISPRINTS.items():
        note = orbat.profile(unit_id).note
        assert note is not None and f"prints {printed};" in note


# --- West Germany ------------------------------------------------------------------------------


def _provenance(unit: UnitProfile) -> re.Match[str]:
    match = PROVENANCE.match(unit.note or "")
    assert match, f"{unit.id}: note must start 'Provenance: KIND; copy of SOURCE; changed: ...'"
    return match


def _stats(unit: UnitProfile) -> dict[str, object]:
    return {name: getattr(unit, name) for name in STAT_FIELDS}


def test_every_west_german_line_states_its_provenance_and_no_page() -> None:
    for unit in _orbat("wg").units:
        match = _provenance(unit)
        assert unit.page is None, f"{unit.id}: no West German page is known"
        if match["kind"] == "generic":
            assert unit.type in (UnitType.INFANTRY, UnitType.SUPPORT)


def test_west_german_copies_match_the_lines_they_name() -> None:
    problems = []
    for unit in _orbat("wg").units:
        match = _provenance(unit)
        source = match["source"]
        if source.startswith("battlescribe:"):
            continue
        nation, unit_id = source.split("/")
        original = _orbat(nation).profile(unit_id)
        changed = set() if match["changed"] == "none" else set(match["changed"].split(", "))
        assert changed <= set(STAT_FIELDS), unit.id
        ours, theirs = _stats(unit), _stats(original)
        differ = {name for name in STAT_FIELDS if ours[name] != theirs[name]}
        if differ != changed:
            problems.append(f"{unit.id}: differs from {source} in {sorted(differ)}, says {changed}")
    assert not problems, "\n".join(problems)


def test_the_marder_carries_the_milan_missile() -> None:
    marder = _orbat("wg").profile("marder-1a2")
    assert marder.atgm == _orbat("uk").profile("milan").atgm


def test_west_german_copies_of_battlescribe_entries_match_them() -> None:
    copies = {
        _provenance(u)["source"]: u
        for u in _orbat("wg").units
        if _provenance(u)["source"].startswith("battlescribe:")
    }
    assert set(copies) == {
        "battlescribe:Canada.cat/Leopard C1",
        "battlescribe:Denmark.cat/Leopard 1A5",
    }
    # Denmark.cat lives only in the public repository, not in the reference folder
    assert "not in the reference folder" in (
        copies["battlescribe:Denmark.cat/Leopard 1A5"].note or ""
    )
    _needs_reference()
    lines, _ = catalogue_lines(BATTLESCRIBE / "Canada.cat", GAME_SYSTEM)
    leopard = next(line for line in lines if line.entry_name == "Leopard C1").profile()
    ours = copies["battlescribe:Canada.cat/Leopard C1"]
    assert _stats(leopard) == _stats(ours)


def test_no_reference_file_holds_a_west_german_unit() -> None:
    """The reason wg.yaml is a house list: re-check it whenever the reference data changes."""
    _needs_reference()
    names = set()
    for path in sorted(BATTLESCRIBE.glob("*.cat")) + [GAME_SYSTEM]:
        lines, _ = catalogue_lines(path, GAME_SYSTEM, include_game_system=False)
        names |= {line.entry_name.lower() for line in lines}
    german = {"leopard 2", "leopard 1a5", "marder", "luchs", "gepard", "jaguar", "fuchs"}
    assert not {n for n in names if any(g in n for g in german)}
