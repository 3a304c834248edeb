"""The terminal as a player meets it: ``umpire`` run as a subprocess with scripted input."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from umpire.core.ruleset import get_ruleset


def umpire(
    *args: str, stdin: str = "", cwd: Path | None = None, columns: int = 80
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "umpire", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
        cwd=cwd,
        env=env,
    )


def _saved(stderr: str) -> Path:
    found = re.search(r"saved in (\S+) \(carry on with: umpire battle --resume (\S+)\)", stderr)
    assert found, stderr
    assert found.group(1) == found.group(2)
    return Path(found.group(1))


def test_prompt_commands_help_map_why_undo_quit(tmp_path: Path) -> None:
    out = umpire(
        "battle",
        "sevendays/meeting-engagement",
        "--nato",
        "human",
        "--seed",
        "1",
        stdin="help\nmap\nwhy 1\nundo\nquit\n",
        cwd=tmp_path,
        columns=400,  # long lines unwrapped, to read them whole
    )
    assert out.returncode == 130, out.stderr
    text = out.stdout
    # help lists every command
    for command in ("map", "why N", "undo", "quit", "help"):
        assert f"  {command}" in text
    # the map: a key and the units by label, as NATO sees them
    assert text.count("key: ") >= 2  # drawn at the turn and again for 'map'
    assert "NATO: A Chieftain Mk9 (chieftain-1)" in text
    # why 1: a reaction; the catalogue's words for the reaction roll and its exact odds
    summary = get_ruleset("sevendays").capabilities.catalog()["sevendays.reaction.target"].summary
    assert "why 1: react with" in text
    assert summary in text
    assert re.search(
        r"sevendays\.reaction\.target( \(\S+\))?: needs \d\+ on d6: \d+% exactly", text
    )
    # undo before deciding anything, in one line
    assert "nothing to undo: you have not decided anything yet" in text
    # state as words: the token pools, not a Python dict
    assert re.search(r"tokens NATO \d+, PACT \d+\)", text) and "{'" not in text
    # quit saved the game where it says
    saved = _saved(out.stderr)
    assert saved.parent == tmp_path and saved.exists()
    assert json.loads(saved.read_text())["players"]["nato"] == "human"


def test_quit_then_resume_carries_on_the_same_game(tmp_path: Path) -> None:
    first = umpire(
        "battle", "sevendays/meeting-engagement", "--nato", "human", stdin="quit\n", cwd=tmp_path
    )
    saved = _saved(first.stderr)
    before = json.loads(saved.read_text())["actions"]
    # the resumed game asks NATO the same question, takes one answer and saves again
    again = umpire("battle", "--resume", str(saved), stdin="1\nquit\n", cwd=tmp_path)
    assert again.returncode == 130, again.stderr
    assert _saved(again.stderr) == saved
    after = json.loads(saved.read_text())["actions"]
    assert after[: len(before)] == before and len(after) > len(before)
    # options are the saved game's own
    refused = umpire("battle", "--resume", str(saved), "--cards", cwd=tmp_path)
    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "keeps the options it was started with" in refused.stderr
    # and a resumed game can be played to the end by the AI
    done = umpire("battle", "--resume", str(saved), "--nato", "ai", "--json", cwd=tmp_path)
    assert done.returncode in (0, 3), done.stderr
    assert json.loads(done.stdout)["actions"] > len(after)


def test_undo_in_hot_seat_before_dice_are_rolled(tmp_path: Path) -> None:
    # PACT activates a unit (a token, no die: its first activation), then takes it back
    out = umpire(
        "battle",
        "sevendays/meeting-engagement",
        "--nato",
        "human",
        "--pact",
        "human",
        stdin="1\nundo\nquit\n",
        cwd=tmp_path,
    )
    assert "undone: 1 action(s) taken back" in out.stdout
    assert json.loads(_saved(out.stderr).read_text())["actions"] == []


def test_undo_refused_once_dice_were_rolled(tmp_path: Path) -> None:
    # NATO reacts (a d6 is rolled): that cannot be taken back
    out = umpire(
        "battle",
        "sevendays/meeting-engagement",
        "--nato",
        "human",
        stdin="1\nundo\nquit\n",
        cwd=tmp_path,
    )
    assert "cannot undo: dice were rolled since your last decision" in out.stdout
    assert len(json.loads(_saved(out.stderr).read_text())["actions"]) > 1


def test_ctrl_c_saves_the_game_too(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "umpire", "battle", "portable/village-attack", "--blue", "human"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert process.stdout is not None
    try:
        seen = ""
        deadline = time.monotonic() + 120
        while "choose a number" not in seen and time.monotonic() < deadline:
            seen += process.stdout.read(1)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert _saved(stderr).exists()


def test_portable_squares_artillery_aircraft_and_redraws(tmp_path: Path) -> None:
    # Trench raid, seed 2: Blue holds its guns, tries to stop activating with its fighter not
    # yet activated (warned, declines), activates the fighter and flies it to E6 by name
    out = umpire(
        "battle",
        "portable/trench-raid",
        "--blue",
        "human",
        "--seed",
        "2",
        stdin="19\n12\nn\n1\nmove E6\nquit\n",
        cwd=tmp_path,
        columns=80,
    )
    text = out.stdout
    prompts = [line for line in text.splitlines() if line.startswith("choose a number")]
    # the artillery stage offers no move; the fighter's turn suggests a square by name
    assert "'move" not in prompts[0]
    assert any(re.search(r"'move [A-Z]\d+'", p) for p in prompts)
    # ending activations warns that the fighter would be lost, and asks
    assert "warning: this choice loses, for certain:" in text
    assert "B-fighter (Single-seater Fighter Aircraft) is destroyed" in text
    assert "go ahead? (y/n)" in text
    # 'move E6' was understood as the square it names
    assert re.search(r"B-fighter .* to E6", text)
    # the grid is drawn at the turn and again after the move, every line inside 80 columns
    headers = [line for line in text.splitlines() if re.fullmatch(r" +A +B +C .* J", line)]
    assert len(headers) >= 2
    grid = [line for line in text.splitlines() if re.match(r"^ {0,2}\d [.WTH~=#EMx]", line)]
    assert grid and max(len(line) for line in grid) <= 80


def test_scenarios_one_line_each() -> None:
    out = umpire("scenarios", columns=100)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    for ruleset_id in ("sevendays", "portable", "rhine", "bookgun"):
        ruleset = get_ruleset(ruleset_id)
        for scenario in ruleset.scenario_ids():
            mine = [line for line in lines if line.startswith(f"{ruleset_id}/{scenario}  — ")]
            assert len(mine) == 1, (ruleset_id, scenario)
            briefing = " ".join(ruleset.scenario_info(scenario).briefing.split())
            shown = mine[0].split("  — ", 1)[1].rstrip("…")
            assert briefing.startswith(shown)  # from the scenario's own data
    assert all(len(line) <= 100 for line in lines)


@pytest.mark.parametrize(("nation", "flag"), [("ussr", "--pact-force"), ("uk", "--nato-force")])
def test_force_new_suggests_the_sides_flag(tmp_path: Path, nation: str, flag: str) -> None:
    out = umpire(
        "force",
        "new",
        "sevendays",
        "--nation",
        nation,
        "--points",
        "300",
        "--out",
        str(tmp_path / "f.toml"),
        stdin="add 1\ndone\n",
        columns=300,
    )
    assert out.returncode == 0, out.stderr
    assert f"play it with: umpire battle {flag} {tmp_path / 'f.toml'}" in out.stdout


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_busy_port_one_line_and_sigterm_stops_it(tmp_path: Path) -> None:
    import urllib.request

    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "umpire", "serve", "--port", str(port), "--db", str(tmp_path / "a")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets") as reply:
                    reply.read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
        busy = umpire("serve", "--port", str(port), "--db", str(tmp_path / "b"))
        assert busy.returncode == 2
        assert busy.stderr.strip() == (
            f"error: port {port} on 127.0.0.1 is busy (another server is listening there); "
            "choose another with --port"
        )
        assert busy.stdout == ""
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=5)  # bounded; measured well under a second (see bench/ and README)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode is not None


def test_hot_seat_log_shows_only_what_every_side_may_read(tmp_path: Path) -> None:
    # Capture: NATO's hidden deployment is private (sevendays.scenario.hidden_deployment);
    # two people at one screen read its public stand-in only
    out = umpire(
        "battle", "sevendays/capture", "--nato", "human", "--pact", "human",
        stdin="quit\n", cwd=tmp_path, columns=200,
    )  # fmt: skip
    assert "NATO deploys 7 hidden markers" in out.stdout
    assert "deploys hidden as" not in out.stdout
