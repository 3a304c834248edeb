"""The terminal's deployment step (game option ``deployment: free``): a menu of the units to
place, each once, plus "deploy the rest for me"; the position typed as the ruleset takes it;
a refused position is the rules' one-line reason and the prompt asks again.

Rules: ``sevendays.scenario.free_deployment`` (house: a unit is placed in its side's zone, at
least 1.5" inside the table, no nearer than 2.5" to a unit already placed; house_rules.yaml
``free_deployment.spacing``) and ``portable.setup.free_deployment`` (house: the rows from the
side's own edge, at least two; a square named as the board shows it, e.g. ``C2``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from umpire.core.ruleset import DeployStep
from umpire.terminal.deploy import unit_line, zone_words


def umpire(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "400", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "umpire", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
        cwd=cwd,
        env=env,
    )


def _saved(stderr: str) -> dict[str, Any]:
    found = re.search(r"saved in (\S+) \(carry on with", stderr)
    assert found, stderr
    data: dict[str, Any] = json.loads(Path(found.group(1)).read_text())
    return data


def _menus(text: str) -> list[list[str]]:
    """Each deployment menu printed: its numbered lines."""
    out: list[list[str]] = []
    for block in text.split(" zone: ")[1:]:
        lines = []
        for line in block.splitlines()[1:]:
            numbered = re.match(r"\s+\d+\. (.*)", line)
            if numbered is None:
                break
            lines.append(numbered.group(1))
        if lines:  # (the zone is said again after a refusal, with no menu)
            out.append(lines)
    return out


def test_zone_in_words_and_unit_line() -> None:
    table = DeployStep("nato", ("place",), {"rects": [[0.0, 0.0, 72.0, 12.0]]})
    assert zone_words(table) == 'NATO zone: x 0-72, y 0-12"'
    cells = [f"{c}{r}" for r in (1, 2) for c in "ABCDEFGH"]
    grid = DeployStep("blue", ("place",), {"cells": cells})
    assert zone_words(grid) == "BLUE zone: squares A1-H2 (columns A-H, rows 1-2)"
    line = 'place Milan (milan-1) at 31, 24 (stream marsh, 5" from village), hidden as marker-1'
    assert unit_line(line) == "place Milan (milan-1), hidden as marker-1"
    assert unit_line("place B-hq (Commanders) on C2") == "place B-hq (Commanders)"


def test_sevendays_capture_typed_points_refusals_and_deploy_the_rest(tmp_path: Path) -> None:
    stdin = "\n".join(
        [
            "1",  # Chieftain Mk9 (chieftain-1)
            "80, 5",  # off the 72" table: outside the zone
            "20.5, 10",  # a point of the zone that is not one of the old listed spots
            "1",  # Chieftain Mk9 (chieftain-2)
            "21, 11",  # 1.1" from chieftain-1: closer than the 2.5" spacing
            "22.5 20",  # x y with a space is taken too
            "6",  # deploy the rest for me (5 units left, so option 6)
            "quit",
        ]
    )
    out = umpire(
        "battle",
        "sevendays/capture",
        "--nato",
        "human",
        "--pact",
        "scripted",
        "--deployment",
        "free",
        "--seed",
        "1",
        stdin=stdin + "\n",
        cwd=tmp_path,
    )
    assert out.returncode == 130, out.stderr
    text = out.stdout
    # the zone in words, then each unit to place once and "deploy the rest for me"
    assert re.search(r'NATO zone: x 0-72, y \d+(\.\d+)?-\d+(\.\d+)?"', text)
    # the map before the first placement: units still to place are off the table, not drawn
    assert "A Chieftain Mk9 (chieftain-1), off the table" in text.split("NATO to act")[0]
    menus = _menus(text)
    assert len(menus) == 3  # one menu a decision: two typed placements, then the rest
    first = menus[0]
    assert len(first) == 8 and first[-1] == "deploy the rest for me"
    assert first[0] == "place Chieftain Mk9 (chieftain-1), hidden as marker-4"
    assert len({line for line in first}) == 8 and not any(" at " in line for line in first)
    assert len(menus[1]) == 7 and len(menus[2]) == 6
    # the rules' own refusals, one line each, and the prompt asked again
    assert "refused: 80, 5 is outside NATO's deployment zone" in text
    assert 'refused: within 2.5" of a unit already placed' in text
    assert text.count("where does Chieftain Mk9 (chieftain-1), hidden as marker-4 go?") == 2
    assert text.count("where does Chieftain Mk9 (chieftain-2), hidden as marker-7 go?") == 2
    # the record: both typed placements kept, then the rest placed for NATO, then PACT's
    record = _saved(out.stderr)
    places = [a for a in record["actions"] if a["kind"] == "place"]
    assert places[0]["unit"] == "nato-chieftain-1" and places[0]["point"] == [20.5, 10.0]
    assert places[1]["unit"] == "nato-chieftain-2" and places[1]["point"] == [22.5, 20.0]
    nato = [a["unit"] for a in places if a["unit"].startswith("nato-")]
    assert len(nato) == 7 and len(set(nato)) == 7
    assert places[:7] == [a for a in places if a["unit"].startswith("nato-")]
    assert len([a for a in places if a["unit"].startswith("pact-")]) == 7


def test_portable_square_by_label(tmp_path: Path) -> None:
    # Z9 and C5 refused (off the board, beyond row 2), 'back' to the units, then c2
    stdin = "\n".join(["1", "Z9", "C5", "back", "1", "c2", "5", "quit"])
    out = umpire(
        "battle",
        "portable/crossroads",
        "--blue",
        "human",
        "--deployment",
        "free",
        "--seed",
        "1",
        stdin=stdin + "\n",
        cwd=tmp_path,
    )
    assert out.returncode == 130, out.stderr
    text = out.stdout
    assert "BLUE zone: squares A1-H2 (columns A-H, rows 1-2)" in text
    first = _menus(text)[0]
    assert first == [
        "place B-hq (Commanders)",
        "place B-inf-1 (Infantry)",
        "place B-inf-2 (Infantry)",
        "place B-mg (Machine Guns)",
        "place B-tank (Tanks)",
        "deploy the rest for me",
    ]
    assert "refused: Z9 is outside BLUE's deployment zone" in text
    assert "refused: C5 is outside BLUE's deployment zone" in text
    assert "BLUE places B-hq (Commanders) on C2" in text
    assert text.count("where does B-hq (Commanders) go?") == 4  # Z9, C5, back; then c2
    record = _saved(out.stderr)
    places = [a for a in record["actions"] if a["kind"] == "place"]
    assert places[0] == {**places[0], "unit": "blue-hq", "cell": "C2"}
    blue = [a for a in places if a["unit"].startswith("blue-")]
    assert len(blue) == 5 and places[:5] == blue


def test_bookgun_sites_keep_the_ordinary_menu(tmp_path: Path) -> None:
    # bookgun.setup.deploy places at named sites, not a typed point or square: the menu stays
    out = umpire(
        "battle", "bookgun/market-day", "--insurgents", "human", "--seed", "1",
        stdin="quit\n", cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 130, out.stderr
    assert " zone: " not in out.stdout and "deploy the rest for me" not in out.stdout
    assert re.search(r"\n\s+1\. put \S+ under a marker at \w+", out.stdout), out.stdout[-2000:]
