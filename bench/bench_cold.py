"""Cold start of the command line (issue 19): wall time of fresh ``umpire odds`` processes.

    taskset -c 0 python3 bench/bench_cold.py --runs 7

First times ``python -c pass`` (the interpreter's own start under the current load), then runs
each command below ``--runs`` times, each in a fresh interpreter (``python -m umpire``, whose
``odds`` takes the fast path of ``umpire.analysis.odds_command``, as the installed ``umpire``
script does: it enters at ``umpire.__main__:main``), and prints the median and the fastest wall
time against the target (cold ``umpire odds`` <= 200 ms). Then, once per command, it runs it
under ``python -X importtime`` and prints the modules with the largest cumulative import time
that are not inside another listed one (the top offenders to make lazy). The machine is shared:
compare the commands within one run, and read the fastest run as the least disturbed one (the
median CPU time, user + system, swings less with the load than the wall time).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time

TARGET_MS = 200.0
COMMANDS: dict[str, list[str]] = {
    "--help": ["--help"],
    "odds sevendays": [
        "odds",
        "sevendays",
        "--firer",
        "Challenger 1",
        "--target",
        "T-72A",
        "--range",
        "18",
    ],
    "odds portable": [
        "odds",
        "portable",
        "--firer",
        "infantry",
        "--target",
        "infantry",
        "--range",
        "2",
        "--quality",
        "average",
    ],
    "odds rhine": ["odds", "rhine", "--attack", "12", "--defence", "4", "--drm", "1"],
    "odds bookgun": ["odds", "bookgun"],
}
IMPORT_LINE = re.compile(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)")


def wall_ms(args: list[str], bare: bool = False, tree: str | None = None) -> float:
    """Wall time of one fresh process (its CPU time is added to :data:`CPU_MS`); ``bare``:
    ``python ARGS`` rather than ``python -m umpire ARGS``; ``tree``: run that checkout's
    ``src`` (on ``PYTHONPATH``) instead of the installed package."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = None if tree is None else {**os.environ, "PYTHONPATH": os.path.join(tree, "src")}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, *([] if bare else ["-m", "umpire"]), *args],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    CPU_MS.append(used * 1000)
    return wall


CPU_MS: list[float] = []


def warm(args: list[str], tree: str | None = None) -> None:
    """Run ``umpire ARGS`` once, untimed, writing the bytecode of what it imports even where
    PYTHONDONTWRITEBYTECODE is set (as it is on this machine): else every module edited since
    its bytecode was last written is compiled again in each timed run, which an installed
    package (pip writes the bytecode) never does."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if tree is not None:
        env["PYTHONPATH"] = os.path.join(tree, "src")
    subprocess.run(
        [sys.executable, "-m", "umpire", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )


def offenders(args: list[str], top: int) -> list[tuple[float, str]]:
    """The slowest imports (cumulative ms) of one run, leaving out any module imported inside
    a slower listed one (so a package and its own submodules are not counted twice)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "umpire", *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    rows: list[tuple[int, int, str]] = []  # (cumulative us, depth, name) in stderr order
    for line in done.stderr.splitlines():
        match = IMPORT_LINE.match(line)
        if match:
            rows.append((int(match[2]), len(match[3]) // 2, match[4]))
    # a module's children are printed before it, one level deeper: read backwards, the
    # enclosing modules of a row are the latest seen at each smaller depth
    ancestors: list[set[str]] = [set()] * len(rows)
    stack: list[str] = []
    for index in range(len(rows) - 1, -1, -1):
        _, depth, name = rows[index]
        del stack[depth:]
        ancestors[index] = set(stack)
        stack.append(name)
    chosen: list[int] = []
    for index in sorted(range(len(rows)), key=lambda i: -rows[i][0]):
        if any(rows[c][2] in ancestors[index] for c in chosen):
            continue
        chosen.append(index)
        if len(chosen) == top:
            break
    return [(rows[i][0] / 1000, rows[i][2]) for i in chosen]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per command")
    parser.add_argument("--top", type=int, default=6, help="import offenders listed per command")
    parser.add_argument("--only", help="measure only this command (a key below)")
    parser.add_argument(
        "--baseline",
        metavar="TREE",
        help="also time each command from another checkout's src (e.g. a `git worktree add "
        "/tmp/base HEAD~3`), in turns with this one, and print both",
    )
    args = parser.parse_args()
    chosen = {k: v for k, v in COMMANDS.items() if args.only in (None, k)}
    for argv in chosen.values():  # the file cache and the bytecode, once each, untimed
        warm(argv)
        if args.baseline:
            warm(argv, args.baseline)
    # the floor under this load: an interpreter that starts and does nothing (site included)
    CPU_MS.clear()
    floor = [wall_ms(["-c", "pass"], bare=True) for _ in range(args.runs)]
    print(
        f"python -c pass           median {statistics.median(floor):6.0f} ms  fastest "
        f"{min(floor):6.0f} ms  CPU {statistics.median(CPU_MS):5.0f} ms  (interpreter start)"
    )
    for label, argv in chosen.items():
        if args.baseline:  # in turns, so both see the same load
            cpu_of: dict[str, list[float]] = {"before": [], "after": []}
            wall_of: dict[str, list[float]] = {"before": [], "after": []}
            for _ in range(args.runs):
                for which, tree in (("before", args.baseline), ("after", None)):
                    CPU_MS.clear()
                    wall_of[which].append(wall_ms(argv, tree=tree))
                    cpu_of[which] += CPU_MS
            for which in ("before", "after"):
                print(
                    f"umpire {label:<16} {which:<6} median "
                    f"{statistics.median(wall_of[which]):6.0f} ms  fastest "
                    f"{min(wall_of[which]):6.0f} ms  CPU {statistics.median(cpu_of[which]):5.0f} ms"
                )
            continue
        CPU_MS.clear()
        times = [wall_ms(argv) for _ in range(args.runs)]
        median = statistics.median(times)
        cpu = statistics.median(CPU_MS)
        verdict = "" if label == "--help" else ("  ok" if median <= TARGET_MS else "  OVER")
        print(
            f"umpire {label:<16} median {median:6.0f} ms  fastest {min(times):6.0f} ms  "
            f"CPU {cpu:5.0f} ms  "
            f"({args.runs} fresh processes; target odds <= {TARGET_MS:.0f} ms){verdict}"
        )
    for label, argv in chosen.items() if args.top > 0 else ():
        listed = ", ".join(f"{name} {ms:.0f}" for ms, name in offenders(argv, args.top))
        print(f"  import time (ms) of umpire {label}: {listed}")


if __name__ == "__main__":
    main()
