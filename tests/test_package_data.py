"""Every data file of the package is in a wheel: a plain `pip install .` (not editable) left
out `sevendays/data/changes.md`, so `umpire rules sevendays --markdown` lost the changes by
ruleset version there. Each file beside the code must match a `package-data` pattern."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "umpire"


def test_every_data_file_is_packaged() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["package-data"]["umpire"]
    packaged = {p for pattern in patterns for p in PACKAGE.glob(pattern) if p.is_file()}
    data = {
        p
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    }
    missing = sorted(str(p.relative_to(PACKAGE)) for p in data - packaged)
    assert data and not missing, f"not in package-data: {missing}"
