"""bench/bench_search.py (issue 17): the paired comparison of two runs, and the clock a run's
search thinks on (``--clock cpu``: the think time and the reported decision times on the
clock given, not on wall time)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_search.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_search", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_search"] = module
    spec.loader.exec_module(module)
    return module


def _run(path: Path, scores: dict[tuple[int, str], float]) -> str:
    lines = [
        json.dumps({"seed": seed, "search_side": side, "score": score})
        for (seed, side), score in scores.items()
    ]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_compare_pairs_the_games_both_runs_played(tmp_path: Path) -> None:
    first = _run(
        tmp_path / "a.jsonl",
        {(1, "army"): 1.0, (1, "insurgents"): 1.0, (2, "army"): 0.5, (3, "army"): 1.0},
    )
    second = _run(
        tmp_path / "b.jsonl",
        {(1, "army"): 0.0, (1, "insurgents"): 1.0, (2, "army"): 0.0, (4, "army"): 0.0},
    )
    report = _bench().compare(first, second)
    # paired on (1, army), (1, insurgents), (2, army): differences 1, 0, 0.5
    assert report["paired_games"] == 3
    assert report["first_score"] == 2.5 / 3 and report["second_score"] == 1 / 3
    assert math.isclose(report["mean_difference"], 0.5)
    sd = math.sqrt(((1 - 0.5) ** 2 + (0 - 0.5) ** 2 + 0.0) / 2)  # 0.5
    low, high = report["ci95"]
    assert math.isclose(high - 0.5, 1.96 * sd / math.sqrt(3))
    assert math.isclose(0.5 - low, 1.96 * sd / math.sqrt(3))
    assert (report["first_better"], report["second_better"]) == (2, 0)


def test_a_run_thinks_and_times_its_decisions_on_the_clock_it_is_given() -> None:
    """A fake clock that moves 0.125 s at each reading: every decision time reported is a
    whole number of its steps (never wall time), and no decision runs past the budget by more
    than the readings of one step in the search's loop."""
    bench = _bench()
    ticks = [0]

    def clock() -> float:
        ticks[0] += 1
        return ticks[0] * 0.125

    times: list[float] = []
    bench.play(
        "portable/village-attack",
        1,
        "blue",
        "scripted",
        1.0,
        "balanced",
        None,
        times,
        8,
        clock=clock,
    )
    assert times and ticks[0] > len(times)
    for spent in times:
        steps = spent / 0.125
        assert math.isclose(steps, round(steps)) and 1 <= round(steps) <= 40
