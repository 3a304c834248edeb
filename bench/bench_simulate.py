"""Monte Carlo throughput of ``umpire simulate`` on the default scenario: 1 worker vs N.

    python bench/bench_simulate.py --games 1000 --workers 2
    python bench/bench_simulate.py --games 10000 --workers 2 --only-parallel

Plays the same seeded games with 1 worker and with ``--workers`` workers (scripted vs scripted,
the Meeting Engagement), checks that both runs give identical results, and reports games/s,
per-core throughput and the scaling (target >= 1.8x with 2 workers on this 2-core machine; aim:
10,000 games in under 30 s, issue 19). Compare the ratio within one run: the machine is shared.
With fewer than 10,000 games the 10,000-game time is an extrapolation (printed as such). The peak
resident memory of the largest child process (a ``simulate`` worker; target < 150 MB) is read
from ``getrusage(RUSAGE_CHILDREN)`` after the runs.
"""

from __future__ import annotations

import argparse
import resource
import time

from umpire.analysis.simulate import Job, run_local


def timed(job: Job, workers: int) -> tuple[float, list[dict[str, object]]]:
    start = time.perf_counter()
    rows = run_local(job, workers)
    return time.perf_counter() - start, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only-parallel", action="store_true", help="skip the 1-worker run")
    args = parser.parse_args()
    job = Job("sevendays/meeting-engagement", n=args.games, seed=args.seed)
    many_s, many = timed(job, args.workers)
    rate_many = args.games / many_s
    print(
        f"{args.games} games, {args.workers} workers: {many_s:.1f} s = {rate_many:.1f} games/s "
        f"({rate_many / args.workers:.1f} games/s/worker); 10,000 games would take "
        f"{10_000 / rate_many:.1f} s"
        + (" (extrapolated)" if args.games < 10_000 else "")
        + " (target < 30 s)"
    )
    if not args.only_parallel:
        one_s, one = timed(job, 1)
        rate_one = args.games / one_s
        print(f"{args.games} games, 1 worker: {one_s:.1f} s = {rate_one:.1f} games/s")
        print(
            f"scaling {args.workers} vs 1 worker: {rate_many / rate_one:.2f}x "
            f"(target >= 1.8x); identical results: {one == many}"
        )
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    own_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    where = "largest worker process" if peak_kb else "this process (no child processes ran)"
    print(f"peak RSS, {where}: {(peak_kb or own_kb) / 1024:.0f} MB (target < 150 MB)")


if __name__ == "__main__":
    main()
