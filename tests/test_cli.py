"""The command line as a user runs it (subprocesses, so exit codes and stderr are real)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

SCENARIOS = Path(__file__).parents[1] / "src/umpire/rulesets/sevendays/data/scenarios"


def umpire(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "umpire", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
        env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
    )


def edited_scenario(path: Path, old: str, new: str) -> Path:
    """The default scenario file with its first ``old`` replaced by ``new``, saved at ``path``."""
    text = (SCENARIOS / "meeting-engagement.yaml").read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_battle_json_summary_and_replay(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    out = umpire(
        "battle", "sevendays/meeting-engagement", "--seed", "3", "--json", "--record", str(record)
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in ("ruleset", "scenario", "seed", "winner", "turns", "events", "losses"):
        assert key in data
    assert data["ruleset"] == "sevendays" and data["seed"] == 3
    assert data["winner"] in ("nato", "pact", "draw")
    assert set(data["losses"]) == {"nato", "pact"}
    again = umpire("replay", str(record), "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == data


def test_battle_shows_rolls_and_report() -> None:
    out = umpire("battle", "sevendays/meeting-engagement", "--seed", "2")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Turn 1" in text and "initiative" in text
    assert "need" in text and "sevendays.fire.base" in text  # every roll says what it needed
    assert "Battle report" in text and "Losses" in text
    assert "House rules that fired" in text


def test_same_seed_same_battle() -> None:
    a = umpire("battle", "--seed", "11", "--json")
    b = umpire("battle", "--seed", "11", "--json")
    assert a.returncode == 0 and a.stdout == b.stdout


def test_unknown_scenario_is_one_line_error() -> None:
    out = umpire("battle", "sevendays/nowhere")
    assert out.returncode != 0
    assert "unknown scenario 'nowhere'" in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_unknown_ruleset_is_one_line_error() -> None:
    out = umpire("battle", "chess/opening")
    assert out.returncode != 0 and "unknown ruleset 'chess'" in out.stderr
    assert "Traceback" not in out.stderr


def test_malformed_scenario_file_names_file_and_field(tmp_path: Path) -> None:
    bad = edited_scenario(tmp_path / "bad.yaml", "turns: 7", "turns: seven")
    out = umpire("battle", f"sevendays/{bad}")
    assert out.returncode != 0
    assert str(bad) in out.stderr and "field turns" in out.stderr
    assert "Traceback" not in out.stderr


def test_unknown_unit_in_scenario(tmp_path: Path) -> None:
    bad = edited_scenario(tmp_path / "bad-unit.yaml", "profile: brm1,", "profile: t99,")
    out = umpire("battle", f"sevendays/{bad}")
    assert out.returncode != 0
    assert "sides.pact.units" in out.stderr and "t99" in out.stderr
    assert "Traceback" not in out.stderr


def test_malformed_record_file(tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "umpire-record/1", "ruleset": "sevendays"', encoding="utf-8")
    out = umpire("replay", str(bad))
    assert out.returncode != 0 and str(bad) in out.stderr and "not valid JSON" in out.stderr
    assert "Traceback" not in out.stderr


def test_malformed_house_rules_file(tmp_path: Path) -> None:
    bad = tmp_path / "house.yaml"
    bad.write_text("damage_table:\n  - {max: 9, result: destroyed, markers: 0}\n", encoding="utf-8")
    out = umpire("battle", "--house-rules", str(bad))
    assert out.returncode != 0
    assert str(bad) in out.stderr and "damage_table" in out.stderr


def test_house_rules_override_changes_the_game(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "damage_table:\n  - {max: 6, result: destroyed, markers: 0}\n", encoding="utf-8"
    )
    plain = json.loads(umpire("battle", "--seed", "5", "--json").stdout)
    deadly = umpire("battle", "--seed", "5", "--json", "--house-rules", str(house))
    assert deadly.returncode == 0, deadly.stderr
    data = json.loads(deadly.stdout)
    assert data != plain
    # with every penetration destroying, no vehicle is ever merely "damaged"
    assert "damaged" not in umpire(
        "battle", "--seed", "5", "--house-rules", str(house)
    ).stdout.replace("undamaged", "")


def test_human_player_picks_numbers_and_illegal_moves_are_refused(tmp_path: Path) -> None:
    record = tmp_path / "human.json"
    # activate the first unit offered, try an impossible move, then quit (record is kept)
    moves = "1\nmove 999 999\nmove 1 1\nquit\n"
    out = umpire(
        "battle",
        "--nato",
        "human",
        "--pact",
        "human",
        "--seed",
        "1",
        "--record",
        str(record),
        stdin=moves,
    )
    assert out.returncode == 130
    assert "P hit" in out.stdout or "activate" in out.stdout
    assert "refused" in out.stdout
    saved = json.loads(record.read_text())
    assert len(saved["actions"]) == 1 and saved["actions"][0]["kind"] == "activate"


def test_rules_listing_and_scenarios() -> None:
    out = umpire("rules", "sevendays")
    assert out.returncode == 0 and "sevendays.activation.test" in out.stdout
    scen = umpire("scenarios")
    assert "sevendays/meeting-engagement" in scen.stdout


# rules: sevendays.air.helicopter
def test_a_hidden_helicopter_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    bad = edited_scenario(
        tmp_path / "helo.yaml", "profile: striker,", "profile: lynx, hidden: true,"
    )
    out = umpire("battle", f"sevendays/{bad}")
    assert out.returncode != 0
    assert "sides.nato.units" in out.stderr and "cannot deploy hidden" in out.stderr
    assert "Traceback" not in out.stderr


def test_battle_with_force_files_records_the_deployment(tmp_path: Path) -> None:
    forces = Path(__file__).resolve().parents[1] / "src/umpire/rulesets/sevendays/data/forces"
    record = tmp_path / "game.json"
    copy = tmp_path / "us.toml"
    copy.write_text((forces / "us-armored-team.toml").read_text(), encoding="utf-8")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "battle",
            "--seed",
            "4",
            "--quiet",
            "--json",
            "--nato-force",
            str(copy),
            "--pact-force",
            str(forces / "ussr-tank-company.toml"),
            "--record",
            str(record),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert data["losses"]["nato"]["of_units"] > 0
    copy.unlink()  # the record holds the deployed units: it replays without the file
    again = subprocess.run(
        [sys.executable, "-m", "umpire", "replay", str(record), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(again.stdout)["winner"] == data["winner"]
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "battle",
            "--nato-force",
            str(forces / "ussr-tank-company.toml"),
        ],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_human_against_the_ai_sees_no_hidden_enemy_units(tmp_path: Path) -> None:
    # PACT is the human in a Capture: NATO's hidden deployment must not be printed
    # (quit saves the game in the working folder: a temporary one, not the checkout)
    out = subprocess.run(
        [sys.executable, "-m", "umpire", "battle", "sevendays/capture", "--pact", "human"],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode == 130
    assert "NATO deploys 7 hidden markers" in out.stdout
    assert "deploys hidden as" not in out.stdout and "chieftain-1" not in out.stdout
    shown = subprocess.run(
        [sys.executable, "-m", "umpire", "battle", "sevendays/capture", "--nato", "human"],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert "deploys hidden as" in shown.stdout  # NATO sees its own markers


def test_serve_starts_the_web_table_on_loopback(tmp_path: Path) -> None:
    import socket
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "games.sqlite3"
    server = subprocess.Popen(
        [sys.executable, "-m", "umpire", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets") as reply:
                    data = json.loads(reply.read())
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
        assert {"sevendays", "portable"} <= {r["id"] for r in data}
        assert db.exists()
    finally:
        server.terminate()
        server.wait(timeout=10)


# -- a ruleset no adapter names ------------------------------------------------------------------
def _throwaway() -> Any:
    from umpire.core.ruleset import register

    register("throwaway", "tests.server.throwaway:Pile")
    return CliRunner()


def test_a_ruleset_registered_at_run_time_plays_battles_odds_and_simulations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from umpire.cli import app
    from umpire.core.ruleset import unregister

    runner = _throwaway()
    monkeypatch.chdir(tmp_path)  # quit saves the game in the working folder
    try:
        listed = runner.invoke(app, ["scenarios"])
        assert "throwaway/short  — a short pile to empty" in listed.stdout
        out = runner.invoke(app, ["battle", "throwaway/short", "--seed", "2", "--json"])
        assert out.exit_code == 0, out.output
        data = json.loads(out.stdout)
        assert data["winner"] in ("north", "south") and data["ruleset"] == "throwaway"
        # the ruleset's own flags: a game option, a per-side option and a side alias
        out = runner.invoke(
            app,
            ["battle", "throwaway/long", "--pile", "4", "--north-greedy", "--south", "random"],
        )
        assert out.exit_code == 0, out.output
        assert "a pile of 4" in out.stdout and "north takes 2" in out.stdout
        helped = runner.invoke(app, ["battle", "throwaway/short", "--help-options"])
        assert "--pile" in helped.stdout and "--south-greedy/--no-south-greedy" in helped.stdout
        bad = runner.invoke(app, ["battle", "throwaway/short", "--cards"])
        assert bad.exit_code == 2 and "throwaway has no option --cards" in bad.output
        assert "--pile" in bad.output  # names the flags there are
        human = runner.invoke(
            app, ["battle", "throwaway/short", "--north", "human"], input="2\nquit\n"
        )
        assert human.exit_code == 130 and "NORTH to act (pile 7)" in human.stdout
        odds = runner.invoke(app, ["odds", "throwaway", "--need", "5", "--json"])
        assert json.loads(odds.stdout) == {"p_bonus": pytest.approx(1 / 3)}
        sim = runner.invoke(
            app, ["simulate", "throwaway/short", "-n", "6", "--workers", "1", "--json"]
        )
        assert sim.exit_code == 0, sim.output
        report = json.loads(sim.stdout)
        assert report["n"] == 6 and sum(report["wins"].values()) == 6
        missing = runner.invoke(app, ["rules", "throwaway"])
        assert missing.exit_code == 2 and "throwaway has no rule catalogue" in missing.output
    finally:
        unregister("throwaway")
