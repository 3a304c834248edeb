"""A/B runs of a bench script in two source trees (shared by bench_rhine, bench_rhine_engine and
bench_portable).

:func:`call_in_tree` runs one call of *this* tree's copy of a bench module in a fresh process
whose ``PYTHONPATH`` is the other tree's ``src`` (and its test plug-ins), so both trees play
exactly the same bench code and differ only in the package under test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
HERE = BENCH.parent


def trees(baseline: str) -> dict[str, Path]:
    """The two trees in the order they take turns: the baseline, then this checkout."""
    return {"baseline": Path(baseline).resolve(), "candidate": HERE}


def call_in_tree(tree: Path, module: str, call: str) -> Any:
    """``module.call`` (a Python expression, e.g. ``run('crossroads', 10, 1000)``) evaluated in
    a fresh process on ``tree``'s package; its result, which must be JSON, is returned."""
    env = dict(os.environ, PYTHONPATH=f"{tree / 'src'}:{tree / 'tests' / 'plugins'}")
    code = (
        f"import json, sys; sys.path.insert(0, {str(BENCH)!r}); "
        f"import {module} as b; print(json.dumps(b.{call}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, env=env, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])
