"""``umpire force import ROSTER --data DIR``: unit profiles from any catalogue's own stat lines.

Synthetic data (tests/importers/fixtures/catalogues, written for these tests, made-up values):

- ``author/``: another author's game system in English: profile types "Vehicle"/"Foot"/
  "Weapon", armour as one ``18s / 15s`` cell, gun and nerve in the columns either side of the
  to-hit score under names the importer does not know, a missile as a chosen weapon option,
  categories "Tanks"/"Transports"/..., costs "Points"/"Break Points".
- ``deutsch/``: German names throughout (profile type "Kampfwerte", "Schutz (Front/Seite)",
  "Trefferwurf", "Lenkflugkörper ...", categories "Kampfpanzer"/"Schützenpanzer"/...,
  costs "Punkte"/"Bruchpunkte"); imports with no mapping file.
- ``francais/``: French names the importer cannot place (armour as two plain numbers,
  costs "Valeur"/"Rupture", category "Blindés lourds"): refused entry by entry without
  ``mapping.yaml``, imported with it.

The public reference data (``../shared/reference/battlescribe``) is read at test time; those
tests skip, saying so, where it is absent.

The stat-line notation checked is the book's (Seven Days to the River Rhine ORBAT tables:
armour ``19s`` with ``s`` for special armour, weapon ``7h``/``4a``, to-hit ``4+``, mortar
``8+m``) and its movement table (6" infantry and support, 10" MBT, 12" light vehicles).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from umpire.cli import app
from umpire.core.errors import DataFileError
from umpire.core.ruleset import get_ruleset
from umpire.importers.battlescribe import catalogue_lines
from umpire.importers.catalogue import (
    Unmappable,
    load_catalogues,
    load_mapping,
    roster_to_catalogue_force,
    shape,
    unit_line,
)
from umpire.importers.roster import check_force_file
from umpire.rulesets.sevendays.forces import check_force, force_orbat, load_force, write_force

CATALOGUES = Path(__file__).resolve().parent / "fixtures" / "catalogues"
AUTHOR = CATALOGUES / "author"
DEUTSCH = CATALOGUES / "deutsch"
FRANCAIS = CATALOGUES / "francais"
BATTLESCRIBE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "battlescribe"
ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"

runner = CliRunner()


def _profiles(force_path: Path) -> dict[str, object]:
    force = load_force(force_path)
    return {p.name: p for p in force.profiles}


# --- shapes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("19s / 17s", "armour_pair"),
        ("12/9", "armour_pair"),
        ("19s", "armour_one"),
        ("5+", "to_hit"),
        ("8+m", "to_hit"),
        ("7h", "weapon"),
        ("4a", "weapon"),
        ("10", "number"),
        ('12"', "distance"),
        ("2d10", "dice"),
        ("4+ (d6)", "dice"),
        ("N/A", "empty"),
        ("-", "empty"),
        ("lots", "text"),
    ],
)
def test_a_value_is_recognised_by_its_shape(value: str, expected: str) -> None:
    assert shape(value) == expected


# --- another author's catalogue ------------------------------------------------------------


def test_another_authors_catalogue_imports_by_shape_and_column() -> None:
    force, report = roster_to_catalogue_force(AUTHOR / "redland-guards.ros", AUTHOR)
    by_name = {p.name: p for p in force.profiles}
    tank = by_name["Kestrel Tank"]
    assert tank.type.value == "mbt" and tank.armour is not None
    assert (tank.armour.front, tank.armour.side, tank.armour.special) == (18, 15, True)
    assert str(tank.weapon) == "10" and tank.to_hit == 4 and tank.morale == 5
    assert tank.traits == {"thermal"} and (tank.points, tank.bp) == (55, 7)
    carrier = by_name["Mule Carrier"]
    assert carrier.type.value == "light" and carrier.is_apc and str(carrier.weapon) == "3a"
    rifles = by_name["Guard Rifles"]
    assert rifles.type.value == "infantry" and rifles.armour is None
    assert (str(rifles.weapon), rifles.to_hit, rifles.morale) == ("4", 5, 4)
    gunship = by_name["Hornet Gunship"]  # its missile is a chosen option of its own
    assert gunship.type.value == "helicopter" and str(gunship.weapon) == "4a"
    assert gunship.atgm is not None and (gunship.atgm.to_hit, str(gunship.atgm.weapon)) == (
        3,
        "11h",
    )
    assert force.points == 260 and force.side is None
    counts = {e.profile: e.count for e in force.units}
    assert sum(counts.values()) == 7
    # the rifles ride in the carriers (the roster does not say who rides where)
    assert any(e.embarked_in == "mule-carrier" for e in force.units)
    lines = report.lines()
    assert (
        "note: redland.cat: Kestrel Tank: 'Gun' = '10' read as weapon (a number in the "
        "column before the to-hit score)" in lines
    )
    summary = check_force(force)
    assert summary.points == 254


def test_the_rosters_points_limit_is_honoured(tmp_path: Path) -> None:
    text = (AUTHOR / "redland-guards.ros").read_text(encoding="utf-8")
    roster = tmp_path / "over.ros"
    roster.write_text(text.replace('value="260"', 'value="250"'), encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        roster_to_catalogue_force(roster, AUTHOR)
    message = str(info.value)
    assert "\n" not in message
    assert "costs 254 points" in message and "4 over the roster's limit of 250" in message


# --- German names, no mapping file ---------------------------------------------------------


def test_a_german_catalogue_imports_without_a_mapping_file() -> None:
    force, _ = roster_to_catalogue_force(DEUTSCH / "nordheer.ros", DEUTSCH)
    by_name = {p.name: p for p in force.profiles}
    luchs = by_name["Kampfpanzer Luchs"]
    assert luchs.type.value == "mbt" and luchs.traits == {"thermal"}
    assert luchs.armour is not None and (luchs.armour.front, luchs.armour.side) == (19, 16)
    assert str(luchs.weapon) == "11" and luchs.to_hit == 4 and luchs.atgm is None
    wiesel = by_name["Schützenpanzer Wiesel"]
    assert wiesel.id == "schuetzenpanzer-wiesel" and wiesel.is_apc
    assert wiesel.atgm is not None and (wiesel.atgm.to_hit, str(wiesel.atgm.weapon)) == (4, "10h")
    grenadiers = by_name["Grenadiergruppe"]
    assert grenadiers.type.value == "infantry" and grenadiers.weapon is not None
    assert grenadiers.weapon.infantry_at
    mortar = by_name["Mörsertrupp"]  # 8+m: a mortar (book notation)
    assert mortar.type.value == "support" and "mortar" in mortar.traits and mortar.to_hit == 8
    assert force.points == 300 and check_force(force).points == 252


# --- French names that need a mapping file ------------------------------------------------


def test_without_a_mapping_each_unmappable_entry_is_named_in_one_line() -> None:
    with pytest.raises(DataFileError) as info:
        roster_to_catalogue_force(FRANCAIS / "armee-du-sud.ros", FRANCAIS)
    first, *entries = str(info.value).splitlines()
    assert "3 roster entries cannot be mapped; nothing written" in first
    assert len(entries) == 3
    char, vab, section = entries
    assert "Char Éclair: profile type 'Engin' (Blindage frontal='15', Blindage latéral='12'" in char
    assert "cannot tell what Blindage frontal='15', Blindage latéral='12' is" in char
    assert "Véhicule de l'avant: profile type 'Engin'" in vab
    assert "Section de combat: profile type 'Engin' (Blindage frontal='-'" in section
    assert "no points among its costs (Valeur=28, Rupture=4)" in section


def test_a_mapping_file_names_what_is_not_recognised() -> None:
    force, _ = roster_to_catalogue_force(
        FRANCAIS / "armee-du-sud.ros", FRANCAIS, FRANCAIS / "mapping.yaml"
    )
    by_name = {p.name: p for p in force.profiles}
    char = by_name["Char Éclair"]
    assert char.type.value == "mbt" and char.traits == {"thermal"}  # linked rule profile
    assert char.armour is not None and (char.armour.front, char.armour.side) == (15, 12)
    assert not char.armour.special and (char.points, char.bp) == (48, 6)
    assert by_name["Véhicule de l'avant"].is_apc
    assert force.nation == "armee-du-sud" and force.side == "nato" and force.points == 200


def test_a_bad_mapping_file_is_one_line_naming_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "mapping.yaml"
    bad.write_text("characteristics:\n  Blindage frontal: blindage\n", encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_mapping(bad)
    assert "characteristics" in str(info.value) and str(bad) in str(info.value)
    bad.write_text("traits:\n  Vision nocturne: [night_vision]\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="unknown trait"):
        load_mapping(bad)
    bad.write_text("colour: blue\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="colour"):
        load_mapping(bad)


def test_a_catalogue_missing_from_the_data_folder_is_named(tmp_path: Path) -> None:
    (tmp_path / "tankers.gst").write_bytes((AUTHOR / "tankers.gst").read_bytes())
    with pytest.raises(DataFileError, match="catalogue 'Redland Guards'"):
        roster_to_catalogue_force(AUTHOR / "redland-guards.ros", tmp_path)


def test_a_hostile_catalogue_in_the_data_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tankers.gst").write_bytes((AUTHOR / "tankers.gst").read_bytes())
    (tmp_path / "bomb.cat").write_text(
        '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "aaaa">]><catalogue>&a;</catalogue>',
        encoding="utf-8",
    )
    with pytest.raises(DataFileError, match="document type declaration"):
        roster_to_catalogue_force(AUTHOR / "redland-guards.ros", tmp_path)


# --- the command line, end to end: import, check, play ---------------------------------------


def test_imported_forces_pass_check_and_play_a_battle(tmp_path: Path) -> None:
    german, author = tmp_path / "nord.toml", tmp_path / "red.toml"
    result = runner.invoke(
        app,
        ["force", "import", str(DEUTSCH / "nordheer.ros"), "--data", str(DEUTSCH)]
        + ["--out", str(german)],
    )
    assert result.exit_code == 0, result.output
    assert "4 entries written" in result.output
    result = runner.invoke(
        app,
        ["force", "import", str(AUTHOR / "redland-guards.ros"), "--data", str(AUTHOR)]
        + ["--out", str(author)],
    )
    assert result.exit_code == 0, result.output
    for path in (german, author):
        check = runner.invoke(app, ["force", "check", str(path)])
        assert check.exit_code == 0, check.output
        assert check_force_file(path)[-1].startswith("7 units")
    battle = runner.invoke(
        app,
        ["battle", "sevendays/meeting-engagement", "--nato-force", str(german)]
        + ["--pact-force", str(author), "--json", "--quiet", "--seed", "3"],
    )
    assert battle.exit_code == 0, battle.output
    summary = json.loads(battle.output)
    assert summary["winner"] in ("nato", "pact", None)
    assert summary["actions"] > 0
    assert summary["losses"]["nato"]["of_units"] == 7
    assert summary["losses"]["pact"]["of_units"] == 7


def test_the_command_line_refuses_an_unmappable_roster_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "sud.toml"
    result = runner.invoke(
        app,
        ["force", "import", str(FRANCAIS / "armee-du-sud.ros"), "--data", str(FRANCAIS)]
        + ["--out", str(out)],
    )
    assert result.exit_code != 0 and not out.exists()
    result = runner.invoke(
        app,
        ["force", "import", str(FRANCAIS / "armee-du-sud.ros"), "--data", str(FRANCAIS)]
        + ["--mapping", str(FRANCAIS / "mapping.yaml"), "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert load_force(out).side == "nato"


def test_an_imported_force_with_a_side_refuses_the_other(tmp_path: Path) -> None:
    out = tmp_path / "sud.toml"
    roster_force, _ = roster_to_catalogue_force(
        FRANCAIS / "armee-du-sud.ros", FRANCAIS, FRANCAIS / "mapping.yaml"
    )
    write_force(roster_force, out)
    battle = runner.invoke(
        app,
        ["battle", "sevendays/meeting-engagement", "--pact-force", str(out), "--json"],
    )
    assert battle.exit_code != 0
    assert "fights for nato, not pact" in battle.output


# --- the public reference data -------------------------------------------------------------

needs_reference = pytest.mark.skipif(
    not BATTLESCRIBE.is_dir(), reason=f"BattleScribe reference data absent ({BATTLESCRIBE})"
)


def _reference_catalogues() -> list[Path]:
    return sorted(BATTLESCRIBE.glob("*.cat")) if BATTLESCRIBE.is_dir() else []


@needs_reference
@pytest.mark.parametrize("path", _reference_catalogues(), ids=lambda p: p.stem)
def test_reference_catalogue_profiles_match_the_dedicated_mapper(path: Path) -> None:
    """The generic reading of every unit of the published data gives the same stat line, unit
    type, traits and costs as the mapper written for that data (battlescribe.entry_to_line)."""
    data = load_catalogues(BATTLESCRIBE)
    catalogue = next(c for c in data.catalogues.values() if c.path == path)
    lines, _ = catalogue_lines(path, BATTLESCRIBE / "Seven Days to the River Rhine.gst")
    expected = {line.entry_name: line.profile() for line in lines}
    checked = 0
    for entry in catalogue.all_entries():
        if entry.name in expected:
            assert (
                unit_line(entry, data, catalogue, load_mapping(None)).profile
                == (expected[entry.name])
            ), entry.name
            checked += 1
    assert checked >= 1


def _roster(catalogue_id: str, name: str, system_id: str, picks: list[tuple[str, str]]) -> str:
    selections = "\n".join(
        f'<selection id="s{i}" name="{n}" entryId="{e}" number="1" type="model"/>'
        for i, (e, n) in enumerate(picks)
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><roster id="r" name="{name} test" '
        f'gameSystemId="{system_id}" xmlns="{ROSTER_NS}"><forces><force id="f" name="f" '
        f'catalogueId="{catalogue_id}" catalogueName="{name}"><selections>{selections}'
        "</selections></force></forces></roster>"
    )


@needs_reference
@pytest.mark.parametrize("path", _reference_catalogues(), ids=lambda p: p.stem)
def test_every_reference_nation_imports_and_plays(path: Path, tmp_path: Path) -> None:
    """A roster of every unit of the nation imports (each profile valid); a smaller one of up
    to six of its units that are not transports, and the game system's infantry, passes
    force check and plays a battle."""
    data = load_catalogues(BATTLESCRIBE)
    catalogue = next(c for c in data.catalogues.values() if c.path == path)
    mapping = load_mapping(None)
    units = []
    for entry in catalogue.all_entries():
        if entry.type not in ("model", "unit"):
            continue
        try:
            units.append(unit_line(entry, data, catalogue, mapping))
        except Unmappable as exc:
            pytest.fail(str(exc))
    assert units
    entry_ids = {u.entry: e.id for e in catalogue.all_entries() for u in units if u.entry == e.name}
    infantry = next(e for e in data.system.all_entries() if e.name == "Infantry")
    picks = [(entry_ids[u.entry], u.entry) for u in units if not u.profile.is_apc][:6]
    roster = tmp_path / "nation.ros"
    roster.write_text(
        _roster(catalogue.id, catalogue.name, data.system.id, [*picks, (infantry.id, "Infantry")]),
        encoding="utf-8",
    )
    out = tmp_path / "nation.toml"
    result = runner.invoke(
        app, ["force", "import", str(roster), "--data", str(BATTLESCRIBE), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    force = load_force(out)
    assert len(force.profiles) == len(picks) + 1
    assert runner.invoke(app, ["force", "check", str(out)]).exit_code == 0
    side = force.side or "nato"
    assert force_orbat(force).units == tuple(force.profiles)
    battle = runner.invoke(
        app,
        ["battle", "sevendays/meeting-engagement", f"--{side}-force", str(out), "--json"]
        + ["--quiet"],
    )
    assert battle.exit_code == 0, battle.output
    summary = json.loads(battle.output)
    assert summary["losses"][side]["of_units"] == len(picks) + 1
    assert re.fullmatch(r"[a-z0-9-]+", force.nation)


def test_a_game_with_an_imported_force_replays_without_the_file(tmp_path: Path) -> None:
    force_file, record = tmp_path / "nord.toml", tmp_path / "game.json"
    force, _ = roster_to_catalogue_force(DEUTSCH / "nordheer.ros", DEUTSCH)
    write_force(force, force_file)
    battle = runner.invoke(
        app,
        ["battle", "sevendays/meeting-engagement", "--pact-force", str(force_file)]
        + ["--seed", "5", "--record", str(record), "--json", "--quiet"],
    )
    assert battle.exit_code == 0, battle.output
    force_file.unlink()  # the record holds the side's own profiles
    replayed = runner.invoke(app, ["replay", str(record), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["winner"] == json.loads(battle.output)["winner"]


def test_a_side_reads_the_imported_lines_of_the_units_it_sees_only(tmp_path: Path) -> None:
    force, _ = roster_to_catalogue_force(AUTHOR / "redland-guards.ros", AUTHOR)
    force_file = tmp_path / "red.toml"
    write_force(force, force_file)
    ruleset = get_ruleset("sevendays")
    state = ruleset.new_state("meeting-engagement", 1, {"forces": {"pact": str(force_file)}})
    for side in ("nato", "pact"):
        obs = ruleset.observation(state, side)
        seen = {u["profile"] for u in obs["units"] if "profile" in u}
        lines = obs["force_profiles"]
        assert set(lines) <= seen
        assert {data["name"] for data in lines.values()} == {p.name for p in force.profiles}
    builtin = ruleset.new_state("meeting-engagement", 1, {})
    assert "force_profiles" not in ruleset.observation(builtin, "nato")


def test_a_mapping_can_set_a_profile_type_aside(tmp_path: Path) -> None:
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text("profile_types:\n  Weapon: ignore\n", encoding="utf-8")
    force, _ = roster_to_catalogue_force(AUTHOR / "redland-guards.ros", AUTHOR, mapping)
    gunship = next(p for p in force.profiles if p.name == "Hornet Gunship")
    assert gunship.atgm is None and str(gunship.weapon) == "4a"


def test_a_chosen_options_cost_is_added_to_its_unit(tmp_path: Path) -> None:
    for name in ("tankers.gst", "redland-guards.ros"):
        (tmp_path / name).write_bytes((AUTHOR / name).read_bytes())
    catalogue = (AUTHOR / "redland.cat").read_text(encoding="utf-8")
    missile = '<costs><cost name="Points" typeId="syn-ct-pts" value="0"/></costs>'
    assert catalogue.count(missile) == 1
    (tmp_path / "redland.cat").write_text(
        catalogue.replace(missile, missile.replace('value="0"', 'value="6"')), encoding="utf-8"
    )
    force, report = roster_to_catalogue_force(tmp_path / "redland-guards.ros", tmp_path)
    gunship = next(p for p in force.profiles if p.name == "Hornet Gunship")
    assert (gunship.points, gunship.bp) == (76, 8)
    assert "note: redland.cat: Hornet Gunship: the options chosen add 6 Points a model" in (
        report.lines()
    )
    assert check_force(force).points == 260  # exactly the roster's limit
