"""Mistakes a new user made in a walkthrough of the README (2026-11-25), each now a one-line
error before anything is played or written, and saved games never overwritten by a new one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from umpire.analysis.report import summarise

from .test_cli_files import _one_line_exit_2


def _umpire(
    *args: str, cwd: Path | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "umpire", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        input=stdin,
    )


@pytest.mark.parametrize("port", ["99999", "0", "-1"])
def test_serve_refuses_a_port_out_of_range(port: str) -> None:
    run = _umpire("serve", "--port", port)
    _one_line_exit_2(run, f"--port {port}", "1 to 65535")
    assert "Umpire web table on" not in run.stdout


def test_serve_refuses_a_file_that_is_not_a_database_and_leaves_it(tmp_path: Path) -> None:
    rules = tmp_path / "my-rules.yaml"
    rules.write_text("proximity: 2.0\n", encoding="utf-8")
    run = _umpire("serve", "--port", "18911", "--db", str(rules))
    _one_line_exit_2(run, str(rules), "games database")
    assert rules.read_text(encoding="utf-8") == "proximity: 2.0\n"
    _one_line_exit_2(_umpire("serve", "--port", "18911", "--db", str(tmp_path)), "is a folder")


@pytest.mark.parametrize("seed", ["-5", str(2**63), "99999999999999999999999"])
def test_battle_refuses_a_seed_no_record_can_keep(seed: str) -> None:
    _one_line_exit_2(_umpire("battle", "--seed", seed), f"--seed {seed}", "2**63-1")


def test_battle_refuses_an_unwritable_record_before_playing(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "game.json"
    run = _umpire("battle", "portable/crossroads", "--record", str(out))
    _one_line_exit_2(run, str(out), "cannot be written")
    assert run.stdout == ""  # no game was played and reported


def test_an_error_naming_a_file_with_brackets_keeps_them(tmp_path: Path) -> None:
    run = _umpire("battle", "--house-rules", str(tmp_path / "nofile[v2].yaml"))
    _one_line_exit_2(run, "nofile[v2].yaml")


def test_a_companion_game_is_never_started_over_a_saved_one(tmp_path: Path) -> None:
    game = ["companion", "sevendays/capture", "--side", "nato=me", "--side", "pact=scripted"]
    saved = tmp_path / "kitchen.json"
    first = _umpire(*game, "--record", str(saved), stdin="quit\n")
    assert first.returncode == 0, first.stderr
    kept = saved.read_text(encoding="utf-8")
    again = _umpire(*game, "--record", str(saved), stdin="quit\n")
    _one_line_exit_2(again, str(saved), "--resume")
    assert saved.read_text(encoding="utf-8") == kept
    # without --record: the default name, then a free one beside it
    for _ in range(2):
        assert _umpire(*game, cwd=tmp_path, stdin="quit\n").returncode == 0
    names = sorted(p.name for p in tmp_path.glob("companion-*.json"))
    assert names == [
        "companion-sevendays-capture-seed1-2.json",
        "companion-sevendays-capture-seed1.json",
    ]


def test_book_and_gun_losses_are_summarised_in_figures() -> None:
    # Book and Gun counts figures killed, wounded, captured and gone (no units lost): the
    # summary gave every side 0.00 units lost
    rows = [
        {
            "winner": "army",
            "turns": 5,
            "how": "points",
            "army_killed": 1,
            "army_wounded": 2,
            "insurgents_killed": 3,
            "insurgents_captured": 1,
        },
        {
            "winner": "insurgents",
            "turns": 6,
            "how": "points",
            "army_killed": 3,
            "army_wounded": 0,
            "insurgents_killed": 1,
            "insurgents_captured": 0,
        },
    ]
    report = summarise(rows, ["army", "insurgents"])
    army, insurgents = report["losses"]["army"], report["losses"]["insurgents"]
    assert army["counted"] == "killed" and army["mean_killed"] == 2.0
    assert army["mean_wounded"] == 1.0 and army["killed_histogram"] == {"1": 1, "3": 1}
    assert insurgents["mean_killed"] == 2.0 and insurgents["mean_captured"] == 0.5


@pytest.mark.parametrize(("attack", "defence"), [("0", "0"), ("3", "0"), ("0", "4")])
def test_rhine_odds_need_attackers_and_defenders(attack: str, defence: str) -> None:
    # rhine.combat.odds: "0:0" was answered as the best column, 6:1
    run = _umpire("odds", "rhine", "--attack", attack, "--defence", defence)
    _one_line_exit_2(run, "strengths are 1 or more")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--out", "/proc/no-such-folder"], "--out /proc/no-such-folder"),
        (["--format", "xml", "--out", "OUT"], "--format 'xml'"),
        (["--seed", "-4"], "--seed -4"),
    ],
)
def test_simulate_checks_its_outputs_before_the_games(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    # 2,000 games would take minutes: the mistake is reported at once, nothing played
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    run = _umpire("simulate", "sevendays/meeting-engagement", "-n", "2000", *args)
    _one_line_exit_2(run, needle)
    assert "games in" not in run.stdout


@pytest.mark.parametrize(
    ("word", "needle"),
    [
        ("meeting-engagement", "did you mean sevendays/meeting-engagement?"),
        ("sevendays/", "name a scenario too: sevendays/breakthrough"),
        ("rhine", "rhine/autobahn-gap, rhine/kinzig-valley"),
    ],
)
def test_a_game_named_by_half_is_answered_with_the_whole_name(word: str, needle: str) -> None:
    _one_line_exit_2(_umpire("battle", word), f"unexpected {word!r}", needle)


def test_rule_ids_and_win_intervals_are_whole_at_80_columns() -> None:
    # the ids are what `why` and --rules take: an id cut to "sevendays.initiative.exhaust…"
    # cannot be typed back
    import os

    env = {**os.environ, "COLUMNS": "80"}
    rules = subprocess.run(
        [sys.executable, "-m", "umpire", "rules", "sevendays"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert rules.returncode == 0 and "sevendays.initiative." in rules.stdout
    assert "…" not in rules.stdout
    sim = subprocess.run(
        [sys.executable, "-m", "umpire", "simulate", "tiny/skirmish", "-n", "4", "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert sim.returncode == 0, sim.stderr
    table = [line for line in sim.stdout.splitlines() if line.startswith("│")]
    assert table and "…" not in sim.stdout
    assert all(len(line) <= 80 for line in sim.stdout.splitlines())


def _saved_game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    run = _umpire("battle", "portable/crossroads", "--quiet", "--record", str(path))
    assert run.returncode == 0, run.stderr
    return path


def test_a_resumed_game_refuses_a_new_seed_or_house_rules(tmp_path: Path) -> None:
    path = _saved_game(tmp_path)
    run = _umpire("battle", "--resume", str(path), "--seed", "3")
    _one_line_exit_2(run, "--seed", "a resumed game keeps", str(path))


def test_battle_sends_a_companion_game_to_the_companion(tmp_path: Path) -> None:
    saved = tmp_path / "kitchen.json"
    game = ["companion", "sevendays/capture", "--side", "nato=me", "--side", "pact=scripted"]
    assert _umpire(*game, "--record", str(saved), stdin="quit\n").returncode == 0
    run = _umpire("battle", "--resume", str(saved))
    _one_line_exit_2(run, str(saved), "companion game", f"umpire companion --resume {saved}")


def test_a_broken_saved_game_is_named_in_its_error(tmp_path: Path) -> None:
    path = _saved_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = "9.9"
    path.write_text(json.dumps(data), encoding="utf-8")
    for run in (_umpire("replay", str(path)), _umpire("battle", "--resume", str(path))):
        _one_line_exit_2(run, f"{path}: ", "version 9.9")


def test_a_replay_that_differs_says_how_in_words(tmp_path: Path) -> None:
    path = _saved_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["result"]["turns"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    run = _umpire("replay", "--quiet", str(path))
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "turns recorded 99, replayed " in run.stderr and "{" not in run.stderr


def test_portable_odds_read_unit_types_as_the_book_prints_them() -> None:
    plain = _umpire(
        "odds", "portable", "--firer", "machine_guns", "--target", "infantry", "--range", "2"
    )
    printed = _umpire(
        "odds", "portable", "--firer", "Machine Guns", "--target", "Infantry", "--range", "2"
    )
    assert plain.returncode == 0 and printed.returncode == 0, printed.stderr
    assert printed.stdout == plain.stdout


def test_a_side_given_twice_is_refused() -> None:
    run = _umpire("battle", "--side", "nato=human", "--side", "nato=ai")
    _one_line_exit_2(run, "side nato is given twice")
