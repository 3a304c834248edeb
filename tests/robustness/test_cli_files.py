"""Every file a user hands the command line ends, when it is bad, in a one-line error naming the
file (and the field where there is one), exit code 2, never a traceback (issue 16, "Bad files
give tracebacks"): force TOML files, rosters, house rules, scenario files, game records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from umpire.core.record import RECORD_FORMAT

FORCE = """ruleset = "sevendays"
nation = "us"
name = "M1 team"
points = 500

[[units]]
profile = "m1ip"
count = 3
commander = true
"""


def _umpire(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "umpire", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _one_line_exit_2(run: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert "Traceback" not in run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, run.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


FORCE_CASES = {
    "nested": ("units = " + "[" * 3_000 + "]" * 3_000 + "\n", "nested too deeply"),
    "nan-points": (FORCE.replace("points = 500", "points = nan"), "field points"),
    "inf-points": (FORCE.replace("points = 500", "points = inf"), "field points"),
    "400-digit-points": (FORCE.replace("points = 500", "points = " + "9" * 400), "field points"),
    "million-points": (FORCE.replace("points = 500", "points = 1000000"), "field points"),
    "huge-count": (FORCE.replace("count = 3", "count = 100"), "field units.0.count"),
    "float-count": (FORCE.replace("count = 3", "count = 2.5"), "field units.0.count"),
    "nation-as-path": (FORCE.replace('"us"', '"../orbat/us"'), "unknown nation"),
    "nation-too-long": (FORCE.replace('"us"', '"' + "u" * 5000 + '"'), "unknown nation"),
    "units-not-a-list": (FORCE.split("[[units]]")[0] + 'units = "all"\n', "field units"),
    "bad-toml": ("ruleset = \n", "not valid TOML"),
}


@pytest.mark.parametrize("case", sorted(FORCE_CASES))
def test_force_check_of_a_bad_force_file(tmp_path: Path, case: str) -> None:
    text, needle = FORCE_CASES[case]
    path = tmp_path / "force.toml"
    path.write_text(text, encoding="utf-8")
    _one_line_exit_2(_umpire("force", "check", str(path), "--ruleset", "sevendays"), needle)


def test_force_check_of_unreadable_force_files(tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(FORCE.replace("M1 team", "Équipe").encode("latin-1"))
    _one_line_exit_2(_umpire("force", "check", str(latin), "--ruleset", "sevendays"), "UTF-8")
    long = tmp_path / ("f" * 5000 + ".toml")
    _one_line_exit_2(_umpire("force", "check", str(long), "--ruleset", "sevendays"))
    _one_line_exit_2(_umpire("force", "check", str(tmp_path), "--ruleset", "sevendays"))


def test_a_sound_force_file_still_checks(tmp_path: Path) -> None:
    path = tmp_path / "force.toml"
    path.write_text(FORCE, encoding="utf-8")
    run = _umpire("force", "check", str(path), "--ruleset", "sevendays")
    assert run.returncode == 0, run.stderr


def test_force_import_of_a_bad_roster(tmp_path: Path) -> None:
    roster = tmp_path / "r.ros"
    roster.write_bytes(b'<!DOCTYPE r [<!ENTITY a "b">]><roster name="&a;"/>')
    run = _umpire("force", "import", str(roster), "--out", str(tmp_path / "out.toml"))
    _one_line_exit_2(run, "r.ros", "document type declaration")
    assert not (tmp_path / "out.toml").exists()


def test_force_import_to_a_path_that_cannot_be_written(tmp_path: Path) -> None:
    roster = (
        Path(__file__).resolve().parents[1] / "importers" / "fixtures" / "ussr-motor-rifles.ros"
    )
    for out in (tmp_path / "no" / "such" / "folder" / "f.toml", tmp_path / ("f" * 5000 + ".toml")):
        run = _umpire("force", "import", str(roster), "--out", str(out))
        _one_line_exit_2(run, "cannot be written")


@pytest.mark.parametrize("ruleset", ["sevendays", "portable"])
@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("id: x\nname: [1\n", "not valid YAML"),
        ("id: x\n", "field "),
        ("- just\n- a list\n", "field "),
        ("[" * 3_000 + "]" * 3_000, "scenario.yaml"),
    ],
    ids=["syntax", "missing-fields", "not-a-mapping", "nested"],
)
def test_battle_on_a_bad_scenario_file(
    tmp_path: Path, ruleset: str, content: str, needle: str
) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(content, encoding="utf-8")
    _one_line_exit_2(_umpire("battle", f"{ruleset}/{path}"), "scenario.yaml", needle)


@pytest.mark.parametrize("ruleset", ["sevendays", "portable", "rhine", "bookgun"])
def test_battle_on_a_scenario_that_is_not_there(ruleset: str) -> None:
    _one_line_exit_2(_umpire("battle", f"{ruleset}/no-such-scenario"), "no-such-scenario")


@pytest.mark.parametrize(
    ("ruleset", "text", "field"),
    [
        ("portable", "exhaustion_fraction: [1, 0]\n", "exhaustion_fraction"),
        ("rhine", "air: {day_dice: 1000000000}\n", "air.day_dice"),
        ("bookgun", "search: {need: 0}\n", "search.need"),
        ("sevendays", "proximity: .nan\n", "proximity"),
    ],
)
def test_battle_with_bad_house_rules(tmp_path: Path, ruleset: str, text: str, field: str) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    scenario = {
        "sevendays": "meeting-engagement",
        "portable": "village-attack",
        "rhine": "kinzig-valley",
        "bookgun": "market-day",
    }[ruleset]
    run = _umpire("battle", f"{ruleset}/{scenario}", "--house-rules", str(path))
    _one_line_exit_2(run, str(path), f"field {field}")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("actions", {"kind": "pass"}),
        ("options", [1, 2]),
        ("players", {"nato": 3}),
        ("result", "won"),
        ("seed", 2**80),
    ],
)
def test_replay_of_a_record_with_wrong_types(tmp_path: Path, field: str, value: object) -> None:
    record = {
        "format": RECORD_FORMAT,
        "ruleset": "sevendays",
        "version": "0.3",
        "scenario": "meeting-engagement",
        "seed": 1,
        "options": {},
        "players": {},
        "actions": [],
        field: value,
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    _one_line_exit_2(_umpire("replay", str(path)), str(path), f"field {field}")


def test_battle_recording_to_a_path_that_cannot_be_written(tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "folder" / "game.json"
    run = _umpire("battle", "sevendays/meeting-engagement", "--seed", "1", "--record", str(out))
    _one_line_exit_2(run, "game.json", "cannot be written")
