"""The statistics behind bench/bench_personality.py (issue 17): its 95 % intervals and the
verdict on each stated direction (a wrong interval would make the bench's claim worthless)."""

from __future__ import annotations

import importlib.util
import math
import statistics
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_personality.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_personality", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_personality"] = module
    spec.loader.exec_module(module)
    return module


def test_t_interval_matches_the_textbook() -> None:
    bench = _bench()
    values = [1.0, 2.0, 3.0, 4.0, 5.0]  # mean 3, sd sqrt(2.5), t(4) = 2.776
    mean, low, high = bench.interval(values)
    half = 2.78 * math.sqrt(2.5) / math.sqrt(5)
    assert mean == 3.0 and math.isclose(high - mean, half) and math.isclose(mean - low, half)
    # large samples: the normal quantile
    big = [float(i % 7) for i in range(700)]
    m, lo, hi = bench.interval(big)
    assert math.isclose(hi - m, 1.96 * statistics.stdev(big) / math.sqrt(700))
    assert bench.interval([2.0])[1] == -math.inf


def _row(distance: float, exposure: float, losses: float, objective: float) -> dict[str, float]:
    return {
        "distance": distance,
        "exposure": exposure,
        "losses": losses,
        "objective": objective,
        "won": 0.0,
    }


def test_directions_hold_only_when_the_intervals_do_not_overlap() -> None:
    bench = _bench()
    args = SimpleNamespace(game="g", playouts=1, prior=0.0, seed=0)
    spread = [0.0, 0.1, -0.1, 0.05, -0.05] * 4
    rows = {
        "aggressive": [_row(1 + e, 4 + e, 9 + e, 4 + e) for e in spread],
        "cautious": [_row(3 + e, 2 + e, 5 + e, 3 + e) for e in spread],
        "balanced": [_row(2 + e, 3 + e, 7 + e, 4.0 + 3 * e) for e in spread],
        "objective": [_row(2 + e, 3 + e, 7 + e, 4.02 + 3 * e) for e in spread],
    }
    report = bench.summarise(rows, args, 0.0, False)
    verdict = {
        (c["metric"], c["claim"]): (c["means_in_order"], c["separated"]) for c in report["checks"]
    }
    assert verdict[("distance", "aggressive < cautious")] == (True, True)  # aggressive closer
    assert verdict[("exposure", "cautious < aggressive")] == (True, True)  # more exposed
    assert verdict[("losses", "cautious < aggressive")] == (True, True)  # cautious loses less
    # objective against balanced: in order, but the intervals overlap; against cautious: apart
    assert verdict[("objective", "balanced < objective")] == (True, False)
    assert verdict[("objective", "cautious < objective")] == (True, True)
    rows["cautious"] = [_row(0.5 + e, 2 + e, 5 + e, 4 + e) for e in spread]  # now closer
    report = bench.summarise(rows, args, 0.0, False)
    verdict = {
        (c["metric"], c["claim"]): (c["means_in_order"], c["separated"]) for c in report["checks"]
    }
    assert verdict[("distance", "aggressive < cautious")] == (False, False)
    assert "FAILS" in bench.table(report)


def test_the_win_rate_gets_a_wilson_interval() -> None:
    bench = _bench()
    # 8 wins in 10: the Wilson (1927) score interval at z = 1.96 is 0.490-0.943 (by hand:
    # centre (0.8 + z²/20) / (1 + z²/10) = 0.717, half-width 0.227)
    p, low, high = bench.wilson(8, 10)
    assert p == 0.8
    assert math.isclose(low, 0.4902, abs_tol=5e-4) and math.isclose(high, 0.9433, abs_tol=5e-4)
    assert bench.wilson(0, 10)[1] == 0.0 and bench.wilson(10, 10)[2] == 1.0
