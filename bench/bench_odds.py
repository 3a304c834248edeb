"""Exact shot odds: time to answer one shot cold (fresh process, data files not yet read, no
odds cached) and cached (the same question again).

    python bench/bench_odds.py

Cold is measured in a new interpreter for each of several shots, from after ``import umpire``
to the answer; it includes reading the ORBAT files. Targets (issue 4): under 50 ms cold, under
1 ms cached.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

SHOTS = [
    ("Challenger 1", "T-72A", 18, {}),
    ("Milan", "T-64B", 30, {"weapon": "atgm"}),
    ("Chieftain Mk9", "Motor Rifles", 8, {"target_cover": "cover"}),
    ("Chieftain Mk9", "BMP-2", 10, {"shots": 3, "target_markers": 1}),
]

COLD = """
import json, sys, time
from umpire.rulesets.sevendays.shot_query import ShotQuery, answer_shot
firer, target, rng, extra = json.loads(sys.argv[1])
start = time.perf_counter()
answer_shot(ShotQuery(firer, target, rng, **extra))
print(time.perf_counter() - start)
"""


def main() -> None:
    from umpire.rulesets.sevendays.shot_query import ShotQuery, answer_shot

    cold = []
    for shot in SHOTS:
        out = subprocess.run(
            [sys.executable, "-c", COLD, json.dumps(shot)],
            capture_output=True,
            text=True,
            check=True,
        )
        cold.append(float(out.stdout))
    cached = []
    for firer, target, rng, extra in SHOTS:
        query = ShotQuery(firer, target, rng, **extra)  # type: ignore[arg-type]
        answer_shot(query)
        n = 2000
        start = time.perf_counter()
        for _ in range(n):
            answer_shot(query)
        cached.append((time.perf_counter() - start) / n)
    for (firer, target, rng, extra), c, w in zip(SHOTS, cold, cached, strict=True):
        print(
            f'{firer} -> {target} {rng}" {extra or ""}: cold {c * 1000:.1f} ms, '
            f"cached {w * 1e6:.1f} us"
        )
    print(
        f"cold: median {statistics.median(cold) * 1000:.1f} ms, max {max(cold) * 1000:.1f} ms "
        "(target < 50 ms)"
    )
    print(f"cached: max {max(cached) * 1e6:.1f} us (target < 1000 us)")


if __name__ == "__main__":
    main()
