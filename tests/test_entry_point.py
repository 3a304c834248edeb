"""The installed ``umpire`` command starts at the launcher that gives ``odds`` its fast path
(issue 19: a cold ``umpire odds`` loads no command-line framework), so the console script and
``python -m umpire`` behave the same."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_console_script_is_the_fast_path_launcher() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert declared["umpire"] == "umpire.__main__:main"
    installed = {e.name: e.value for e in entry_points(group="console_scripts")}
    assert installed.get("umpire") == "umpire.__main__:main"


def test_the_script_entry_answers_odds_without_typer() -> None:
    code = (
        "import sys\n"
        "sys.argv = ['umpire', 'odds', 'portable', '--firer', 'infantry', '--target',"
        " 'infantry', '--range', '1', '--quality', 'average']\n"
        "from umpire.__main__ import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('TYPER', 'typer' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    lines = out.stdout.strip().splitlines()
    assert any("%" in line for line in lines), out.stdout + out.stderr  # it answered
    assert lines[-1] == "TYPER False", out.stdout + out.stderr
