"""``umpire companion`` as players meet it: a subprocess fed the lines they type."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.companion.script import Player, script_for
from umpire.companion.session import Companion


def umpire(
    *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "umpire", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
        cwd=cwd,
        env=env,
    )


def test_a_whole_portable_game_typed_into_the_terminal_then_replayed(tmp_path: Path) -> None:
    game_id = "portable/armoured-meeting"
    digital, commands, faces, sides = script_for(game_id, 1, "blue")
    # the lines a player types, in the order the companion asks for them
    player = Player(commands, faces)
    typed: list[str] = []
    read = player.read

    def noting(prompt: str) -> str:
        line = read(prompt)
        typed.append(line)
        return line

    path = tmp_path / "inprocess.json"
    Companion.start(game_id, 1, sides(path), path, noting, player.write).run()
    # a Ctrl-C-free session is just these lines, quit half-way and resumed
    half = len(typed) // 2
    record = tmp_path / "table.json"
    strict = tmp_path / "strict.yaml"  # the script's menu numbers are the enforced game's
    strict.write_text("'*': enforce\n")
    first = umpire(
        "companion",
        game_id,
        "--side",
        "blue=me",
        "--side",
        "red=scripted",
        "--rules",
        str(strict),
        "--record",
        str(record),
        stdin="\n".join(typed[:half] + ["quit"]) + "\n",
    )
    assert first.returncode == 0, first.stderr
    assert f"umpire companion --resume {record}" in first.stdout
    second = umpire("companion", "--resume", str(record), stdin="\n".join(typed[half:]) + "\n")
    assert second.returncode == 0, second.stderr
    assert "Game over: blue" in second.stdout
    replayed = umpire("replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    summary = json.loads(replayed.stdout)
    assert summary["winner"] == "blue" and summary["events"] == len(digital.events)


def test_a_refused_start_is_one_line(tmp_path: Path) -> None:
    wrong_side = umpire(
        "companion", "portable/armoured-meeting", "--side", "green=me", cwd=tmp_path
    )
    assert wrong_side.returncode == 2
    assert wrong_side.stderr.count("\n") == 1 and "no side 'green'" in wrong_side.stderr
    no_ai = umpire("companion", "portable/armoured-meeting", "--side", "blue=me", cwd=tmp_path)
    assert no_ai.returncode == 2 and "say who plays red" in no_ai.stderr


def test_the_rulesets_own_flags_as_in_battle(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    args = ["companion", "sevendays/capture", "--side", "nato=me", "--side", "pact=scripted"]
    no_cards = umpire(*args, "--no-cards", "--record", str(record), stdin="quit\n")
    assert no_cards.returncode == 0, no_cards.stderr
    saved = json.loads(record.read_text())
    assert saved["options"] == {"cards": False, "rule_switches": {"*": "advise"}}
    assert f"umpire companion --resume {record}" in no_cards.stdout
    assert "Tactical Advantage" not in no_cards.stdout  # no deal without the cards
    bogus = umpire(*args, "--bogus", cwd=tmp_path)
    assert bogus.returncode == 2 and bogus.stderr.count("\n") == 1
    assert "sevendays has no option --bogus" in bogus.stderr
