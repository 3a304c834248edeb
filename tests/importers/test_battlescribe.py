"""BattleScribe importer: hand-made fixtures, bad files, and the real reference data.

Fixtures (tests/importers/fixtures): ``tiny.gst``/``tiny.cat`` are a made-up miniature game
system and catalogue; ``ussr-motor-rifles.ros`` is a roster whose selections name real entries
of the reference "Soviet Union" catalogue and game system by id (plus one unknown Hovertank).
The reference checks skip where ``../shared/reference/battlescribe`` is absent.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from umpire.core.errors import DataFileError
from umpire.importers.battlescribe import (
    Entry,
    ImportReport,
    Profile,
    catalogue_lines,
    compare_with_orbat,
    entry_to_line,
    find_game_system,
    import_roster,
    read_data_file,
    read_roster,
    roster_to_force,
)
from umpire.importers.roster import load_force_file
from umpire.rulesets.sevendays.forces import check_force, load_force
from umpire.rulesets.sevendays.orbat import UnitProfile
from umpire.rulesets.sevendays.scenario import load_nation

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROSTER = FIXTURES / "ussr-motor-rifles.ros"
BATTLESCRIBE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "battlescribe"
GAME_SYSTEM = BATTLESCRIBE / "Seven Days to the River Rhine.gst"
NATIONS = {
    "British Army on the Rhine.cat": "uk",
    "Soviet Union.cat": "ussr",
    "United States.cat": "us",
    "Canada.cat": None,
}
# What the reference data holds that Umpire has no trait or use for (yet). A new item here
# means the data grew a rule we should look at, so the test lists them exactly.
KNOWN_UNMAPPED = {
    ("rule", "'Tank Missile' (no engine trait)"),
    (
        "cost",
        "CT 0: the engine gives this unit 1 command token(s) (it follows the apc trait only)",
    ),
}
ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"


def _one_line(info: pytest.ExceptionInfo[DataFileError]) -> str:
    message = str(info.value)
    assert "\n" not in message
    return message


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _roster_without(names: set[str], out: Path) -> Path:
    """A copy of the fixture roster without the named selections, as .ros or zipped .rosz."""
    ET.register_namespace("", ROSTER_NS)
    tree = ET.parse(ROSTER)
    for parent in tree.getroot().iter():
        for child in list(parent):
            if child.tag.endswith("selection") and child.get("name") in names:
                parent.remove(child)
    data = ET.tostring(tree.getroot(), encoding="utf-8", xml_declaration=True)
    if out.suffix == ".rosz":
        return _zip(out, {"roster.ros": data})
    out.write_bytes(data)
    return out


# --- the hand-made game system and catalogue -----------------------------------------------


def test_tiny_catalogue_converts_to_orbat_lines() -> None:
    lines, report = catalogue_lines(FIXTURES / "tiny.cat", FIXTURES / "tiny.gst")
    by_name = {line.entry_name: line.profile() for line in lines}
    assert set(by_name) == {"Test Tank Mk2", "Test Carrier", "Infantry"}
    tank = by_name["Test Tank Mk2"]
    assert tank.id == "test-tank-mk2" and tank.type.value == "mbt"
    assert tank.armour is not None and tank.armour.special and tank.armour.front == 17
    assert tank.traits == {"thermal"} and (tank.points, tank.bp, tank.page) == (60, 8, 9)
    carrier = by_name["Test Carrier"]
    assert carrier.is_apc and carrier.type.value == "light"
    assert by_name["Infantry"].traits == {"law"}  # the game system's own unit, linked rule
    assert any("Reference table" in s for s in report.skipped)


def test_tiny_catalogue_reports_what_it_cannot_map() -> None:
    _, report = catalogue_lines(FIXTURES / "tiny.cat", FIXTURES / "tiny.gst")
    found = {(u.entry, u.what, u.detail) for u in report.unmapped}
    assert ("Test Tank Mk2", "rule", "'Widget Drill' (no engine trait)") in found
    assert ("Odd Walker", "value", "Wpn = 'lots' (weapon must look like 10, 7h or 4a)") in found
    assert ("Odd Walker", "characteristic", "'Legs' (not a Seven Days stat)") in found
    assert ("Odd Walker", "cost", "'Fuel' (not pts, BP or CT)") in found
    # the linked movement table is derived by the engine, so it is not reported
    assert not any("movement" in u.detail for u in report.unmapped)
    lines = report.lines()
    assert any(line.startswith("not mapped: rule 'Widget Drill'") for line in lines)


def test_the_game_system_is_found_beside_the_catalogue() -> None:
    assert find_game_system(FIXTURES / "tiny.cat") == FIXTURES / "tiny.gst"


def test_a_catalogue_of_another_game_system_is_refused(tmp_path: Path) -> None:
    text = (FIXTURES / "tiny.cat").read_text(encoding="utf-8")
    other = tmp_path / "other.cat"
    other.write_text(text.replace('gameSystemId="tiny-0000-0000-0001"', 'gameSystemId="x"'))
    with pytest.raises(DataFileError, match="belongs to game system 'x'"):
        catalogue_lines(other, FIXTURES / "tiny.gst")
    with pytest.raises(DataFileError, match=r"other\.cat: no game system file"):
        catalogue_lines(other)


def test_zipped_catalogues_read_the_same(tmp_path: Path) -> None:
    zipped = _zip(tmp_path / "tiny.catz", {"tiny.cat": (FIXTURES / "tiny.cat").read_bytes()})
    system = read_data_file(FIXTURES / "tiny.gst")
    plain = read_data_file(FIXTURES / "tiny.cat", system)
    packed = read_data_file(zipped, system)
    assert [e.name for e in packed.all_entries()] == [e.name for e in plain.all_entries()]


# --- air defence and rockets (hand-made entries) -------------------------------------------


def _light(*rules: str, links: tuple[str, ...] = (), profiles: tuple[Profile, ...] = ()) -> Entry:
    """A made-up light vehicle with the given special rules and linked profiles."""
    stats = Profile(
        "s",
        "Stats",
        "Stats",
        {"FA": "10", "SA": "8", "Wpn": "4a", "To Hit": "5+", "Morale": "4"},
    )
    return Entry(
        id="e",
        name="Test Vehicle",
        type="model",
        file="test.cat",
        profiles=[stats, *profiles],
        rules=list(rules),
        profile_links=list(links),
        categories=[("Light (Tracked)", True)],
        costs={"pts": 16.0, "BP": 2.0},
    )


AA_TYPES = {"Rapid Fire Auto Cannon": "AA reaction", "MANPAD SAM": "AA reaction"}


def _traits(entry: Entry, types: dict[str, str] | None = AA_TYPES) -> tuple[set[str], ImportReport]:
    report = ImportReport()
    line = entry_to_line(entry, report, types)
    assert line is not None
    return set(line.get("traits", [])), report


# rules: sevendays.air.aa_reaction
def test_the_aa_rule_gives_a_gun_the_aa_trait() -> None:
    traits, report = _traits(_light("AA", "Rapid Fire Auto Cannon"))
    assert traits == {"aa"} and not report.unmapped


# rules: sevendays.air.aa_reaction
def test_the_aa_rule_adds_nothing_to_a_sam_or_manpad() -> None:
    """On a SAM vehicle or MANPAD carrier the generic AA rule only says it may engage
    helicopters: the missile trait is all it gets."""
    assert _traits(_light("SAM", "AA"))[0] == {"sam"}
    assert _traits(_light("MANPAD", "AA"))[0] == {"manpad"}
    assert _traits(_light("AA", links=("MANPAD SAM",)))[0] == {"manpad"}


# rules: sevendays.air.aa_reaction
def test_aa_gun_rules_set_the_aa_score_where_it_is_not_the_default() -> None:
    report = ImportReport()
    line = entry_to_line(_light("AA Gun (7+)"), report, AA_TYPES)
    assert line is not None and line["traits"] == ["aa"] and line["aa_to_hit"] == "7+"
    line = entry_to_line(_light("AA Gun (6+)"), report, AA_TYPES)
    assert line is not None and line["traits"] == ["aa"] and "aa_to_hit" not in line
    assert not report.unmapped


# rules: sevendays.air.aa_reaction
def test_the_autocannon_aa_reaction_profile_gives_aa() -> None:
    """Linked from a catalogue (named like the autocannon rule, so told apart by its type),
    or copied into a roster selection as a profile of type AA reaction."""
    linked, report = _traits(_light("Rapid Fire Auto Cannon", links=("Rapid Fire Auto Cannon",)))
    assert linked == {"aa"} and not report.unmapped
    copied = Profile("p", "Rapid Fire Auto Cannon", "AA reaction", {"Hits on": "6+"})
    assert _traits(_light(profiles=(copied,)), None)[0] == {"aa"}
    # a profile of that name but another type is not an AA reaction: reported, no trait
    other, report = _traits(
        _light(links=("Rapid Fire Auto Cannon",)), {"Rapid Fire Auto Cannon": "Weapon"}
    )
    assert other == set()
    assert [u.what for u in report.unmapped] == ["profile"]


# rules: sevendays.air.rockets
def test_the_rockets_rule_gives_rockets() -> None:
    traits, report = _traits(_light("Rockets"))
    assert traits == {"rockets"} and not report.unmapped


# --- bad files ----------------------------------------------------------------------------------


def test_bad_files_get_one_line_errors_naming_the_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.cat"
    broken.write_text("<catalogue><selectionEntries></catalogue>", encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        read_data_file(broken)
    assert _one_line(info).startswith(f"{broken}: not valid XML")

    with pytest.raises(DataFileError, match="file not found"):
        read_roster(tmp_path / "missing.rosz")

    html = tmp_path / "page.cat"
    html.write_text("<html><body/></html>", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"page\.cat: not a BattleScribe game system"):
        read_data_file(html)
    with pytest.raises(DataFileError, match=r"not a BattleScribe roster \(root element <html>\)"):
        read_roster(html)

    fake = tmp_path / "fake.rosz"
    fake.write_text("<roster/>", encoding="utf-8")
    with pytest.raises(DataFileError, match="should be a zip archive"):
        read_roster(fake)

    two = _zip(tmp_path / "two.rosz", {"a.ros": b"<roster/>", "b.ros": b"<roster/>"})
    with pytest.raises(DataFileError, match="holds a.ros, b.ros"):
        read_roster(two)

    damaged = tmp_path / "damaged.rosz"
    damaged.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(DataFileError, match="damaged zip archive"):
        read_roster(damaged)


def test_bad_numbers_name_the_field(tmp_path: Path) -> None:
    text = ROSTER.read_text(encoding="utf-8").replace('number="3"', 'number="three"', 1)
    path = tmp_path / "bad.ros"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match=r"bad\.ros: selection 'T64B': number 'three'"):
        read_roster(path)
    text = ROSTER.read_text(encoding="utf-8").replace('value="180.0"', 'value="lots"', 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match=r"selection 'T64B': cost pts 'lots' is not a number"):
        read_roster(path)


def test_a_roster_of_a_nation_without_an_orbat_is_refused(tmp_path: Path) -> None:
    text = ROSTER.read_text(encoding="utf-8")
    text = text.replace('catalogueId="4481-1406-21c9-5489"', 'catalogueId="e4a9-6dce-9fae-f8bd"')
    text = text.replace('catalogueName="Soviet Union"', 'catalogueName="Canada"')
    path = tmp_path / "canada.ros"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        roster_to_force(path)
    assert "no Umpire ORBAT for catalogue 'Canada'" in _one_line(info)


# --- rosters ------------------------------------------------------------------------------------


def test_roster_becomes_a_force_with_a_report() -> None:
    force, report = roster_to_force(ROSTER)
    assert force.nation == "ussr" and force.points == 450
    assert force.name == "Test motor rifle group"
    summary = check_force(force)
    counts: dict[str, int] = {}
    for unit in summary.units:
        counts[unit.profile.id] = counts.get(unit.profile.id, 0) + 1
    assert counts == {"t64b": 3, "bmp2": 2, "bmp1": 1, "motor-rifles": 3, "brm1": 1}
    assert all(u.embarked_in for u in summary.units if u.profile.is_foot)
    unmapped = {(u.entry, u.what) for u in report.unmapped}
    assert ("Hovertank", "selection") in unmapped
    assert ("T64B", "rule") in unmapped  # Tank Missile
    assert any("BMP1" in n and "bp: catalogue 5, ORBAT 2" in n for n in report.notes)
    # the BMP2's copied AA reaction profile and the infantry's AA rule agree with our traits
    assert not any("traits" in n for n in report.notes), report.notes
    assert any(n.startswith("paired") for n in report.notes)
    assert any("Reacting to" in s for s in report.skipped)


def test_load_force_refuses_a_roster_with_an_unmapped_unit() -> None:
    with pytest.raises(DataFileError) as info:
        load_force_file(ROSTER)
    assert "Hovertank: selection matches no unit of the ussr ORBAT" in _one_line(info)


@pytest.mark.parametrize("suffix", [".ros", ".rosz"])
def test_load_force_reads_a_clean_roster(tmp_path: Path, suffix: str) -> None:
    path = _roster_without({"Hovertank"}, tmp_path / f"clean{suffix}")
    force = load_force_file(path)
    summary = check_force(force, source=path)
    assert summary.points == 3 * 60 + 2 * 19 + 14 + 3 * 33 + 30


def test_the_ruleset_force_reader_leaves_rosters_to_the_importer() -> None:
    # the ruleset does not import the importer: its own reader names the way in
    with pytest.raises(DataFileError) as info:
        load_force(ROSTER)
    assert "umpire force import" in _one_line(info)


def test_import_roster_writes_a_force_file(tmp_path: Path) -> None:
    roster = _roster_without({"Hovertank"}, tmp_path / "clean.rosz")
    force, report = import_roster(roster, tmp_path / "out.toml")
    assert load_force(tmp_path / "out.toml") == force
    assert isinstance(report, ImportReport) and not report.unmapped_units()


def test_a_roster_mixing_nations_is_refused(tmp_path: Path) -> None:
    text = ROSTER.read_text(encoding="utf-8")
    second = (
        '<force id="f2" name="Allies" entryId="8f41-07e0-74fa-3212" '
        'catalogueId="6ed7-8bcf-4140-c175" catalogueName="United States"><selections/></force>'
    )
    path = tmp_path / "mixed.ros"
    path.write_text(text.replace("</forces>", second + "</forces>"), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"mixes nations \(us, ussr\)"):
        roster_to_force(path)


def test_roster_fixture_is_faithful_to_the_reference_catalogue() -> None:
    """Every selection of the fixture (but the Hovertank) names a real entry by id, with that
    entry's name and stat line."""
    if not BATTLESCRIBE.is_dir():
        pytest.skip(f"BattleScribe reference data not found at {BATTLESCRIBE}")
    system = read_data_file(GAME_SYSTEM)
    soviet = read_data_file(BATTLESCRIBE / "Soviet Union.cat", system)
    roster = read_roster(ROSTER)
    for selection in roster.forces[0].selections:
        if selection.name == "Hovertank":
            continue
        entry = soviet.entry(selection.id) or system.entry(selection.id)
        assert entry is not None, selection.name
        assert entry.name == selection.name
        stats = [p.characteristics for p in selection.profiles if p.type_name == "Stats"]
        assert stats == [p.characteristics for p in entry.profiles if p.type_name == "Stats"]


# --- the reference data ---------------------------------------------------------------------


def _reference_catalogues() -> list[Path]:
    if not BATTLESCRIBE.is_dir():
        return []
    return sorted(BATTLESCRIBE.glob("*.cat"))


@pytest.mark.skipif(not BATTLESCRIBE.is_dir(), reason="BattleScribe reference data absent")
def test_the_reference_folder_has_the_expected_catalogues() -> None:
    assert {p.name for p in _reference_catalogues()} == set(NATIONS)


@pytest.mark.parametrize("path", _reference_catalogues(), ids=lambda p: p.stem)
def test_every_reference_catalogue_imports(path: Path) -> None:
    lines, report = catalogue_lines(path, GAME_SYSTEM)
    assert lines
    assert not report.unmapped_units(), [str(u) for u in report.unmapped_units()]
    unexpected = {(u.what, u.detail) for u in report.unmapped} - KNOWN_UNMAPPED
    assert not unexpected
    nation = NATIONS[path.name]
    if nation is None:
        return
    differences = compare_with_orbat(lines, load_nation(nation))
    undocumented = [str(d) for d in differences if not d.documented]
    assert not undocumented, "\n".join(undocumented)


@pytest.mark.skipif(not BATTLESCRIBE.is_dir(), reason="BattleScribe reference data absent")
def test_the_game_system_alone_gives_the_generic_lines() -> None:
    lines, _ = catalogue_lines(GAME_SYSTEM)
    assert sorted(line.entry_name for line in lines) == ["Infantry", "Mortar"]


def _reference_lines(catalogue: str) -> dict[str, UnitProfile]:
    if not BATTLESCRIBE.is_dir():
        pytest.skip(f"BattleScribe reference data not found at {BATTLESCRIBE}")
    lines, _ = catalogue_lines(BATTLESCRIBE / catalogue, GAME_SYSTEM)
    return {line.entry_name: line.profile() for line in lines}


AIR_TRAITS = frozenset({"aa", "sam", "manpad", "rockets"})


# rules: sevendays.air.aa_reaction, sevendays.air.rockets
def test_reference_soviet_air_defence_and_rockets() -> None:
    soviet = _reference_lines("Soviet Union.cat")
    hind = soviet["Mi-24 'Hind'"]
    assert {"rockets", "aa"} <= hind.traits
    zsu57 = soviet["ZSU57"]  # "AA Gun (7+)"
    assert "aa" in zsu57.traits and zsu57.aa_to_hit == 7
    shilka = soviet["ZSU23 Shilka"]  # "AA Gun (6+)": the trait's own score
    assert "aa" in shilka.traits and shilka.aa_to_hit is None
    for name in ("SAM 9 Gaskin", "SAM 8 Gecko", "SAM 13 Gopher"):  # SAM and AA rules
        assert soviet[name].traits & AIR_TRAITS == {"sam"}, name
    for name in ("BMP2", "BMD2"):  # the autocannon's AA reaction profile
        assert "aa" in soviet[name].traits, name
    # the game system's infantry line carries the MANPAD and AA rules
    assert soviet["Infantry"].traits & AIR_TRAITS == {"manpad"}


# rules: sevendays.air.aa_reaction, sevendays.air.rockets
def test_reference_nato_air_defence_and_rockets() -> None:
    us = _reference_lines("United States.cat")
    for name in ("AH64 Apache", "AH1 Cobra"):
        # rockets; their cannon link no AA reaction profile, so no aa
        assert us[name].traits & AIR_TRAITS == {"rockets"}, name
    for name in ("M2 Bradley", "LAV-25", "M163", "Sgt York"):
        assert us[name].traits & AIR_TRAITS == {"aa"}, name
    assert us["MIM-72 Chaparral"].traits & AIR_TRAITS == {"sam"}
    assert us["HMMWV SAM"].traits & AIR_TRAITS == {"manpad"}
    uk = _reference_lines("British Army on the Rhine.cat")
    for name in ("Fox", "Scimitar", "Warrior"):
        assert uk[name].traits & AIR_TRAITS == {"aa"}, name
    assert uk["Tracked Rapier"].traits & AIR_TRAITS == {"sam"}


# rules: sevendays.air.aa_reaction
@pytest.mark.parametrize("catalogue", [c for c, nation in NATIONS.items() if nation])
def test_reference_air_defence_traits_agree_with_our_orbats(catalogue: str) -> None:
    """Every line the importer shares with our ORBAT has the same air-defence and rockets
    traits and AA score (test_every_reference_catalogue_imports compares everything else)."""
    if not BATTLESCRIBE.is_dir():
        pytest.skip(f"BattleScribe reference data not found at {BATTLESCRIBE}")
    lines, _ = catalogue_lines(BATTLESCRIBE / catalogue, GAME_SYSTEM)
    differences = compare_with_orbat(lines, load_nation(NATIONS[catalogue] or "-"))
    wrong = [
        str(d)
        for d in differences
        if d.field in ("aa_to_hit", "missing")
        or (d.field == "traits" and set(d.catalogue) & AIR_TRAITS != set(d.orbat) & AIR_TRAITS)
    ]
    assert not wrong, "\n".join(wrong)
