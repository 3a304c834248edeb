"""PettingZoo's own ``performance_benchmark`` on every ruleset's default scenario.

    taskset -c 0 python bench/bench_rl.py [RULESET ...]

Each run steps the AEC env (``turn_order="game"``) with random masked digits for about five
seconds (resetting when a game ends) and prints PettingZoo's turns per second; a turn is one
agent step, i.e. one digit of a sub-decision (see docs/rl.md).
"""

from __future__ import annotations

import contextlib
import io
import re
import sys

from pettingzoo.test import performance_benchmark

from umpire.core.ruleset import get_ruleset, ruleset_ids
from umpire.rl import aec_env


def main() -> None:
    for rid in sys.argv[1:] or ruleset_ids():
        ruleset = get_ruleset(rid)
        game_id = f"{rid}/{ruleset.meta.default_scenario or ruleset.scenario_ids()[0]}"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            performance_benchmark(aec_env(game_id))
        found = re.search(r"([\d.]+) turns per second", out.getvalue())
        turns = float(found.group(1)) if found else float("nan")
        print(f"{game_id:34s} {turns:8.0f} turns/s", flush=True)


if __name__ == "__main__":
    main()
