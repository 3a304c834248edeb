"""7 Days to the Rhine: scripted-vs-scripted games per second on one core, per scenario.

    python bench/bench_rhine.py --games 10
    python bench/bench_rhine.py --games 6 --baseline /tmp/rhine_base --rounds 3   # A/B
    python bench/bench_rhine.py --games 30 --collector simulate
    python bench/bench_rhine.py --games 3 --baseline /tmp/rhine_base --instructions   # callgrind

``--collector simulate`` plays the timed games with the garbage collector as ``umpire simulate``
sets it (:func:`umpire.analysis.simulate.quiet_collector`: what was loaded before is frozen,
the youngest generation collected less often), ``--collector play`` as ``play_out`` sets it
(``umpire.core.collector.quiet_collector``, where the tree has it); the default is CPython's
own collector.

``--instructions`` (with ``--baseline``) counts each tree's timed games in instructions with
valgrind's callgrind instead of timing them (immune to the machine's load, about 50x slower):
instrumentation is switched on with ``callgrind_control`` only after the imports and the
warm-up game, with ``PYTHONHASHSEED=0`` in both trees.

Run it pinned to one core (``taskset -c 0``). The first game of each scenario is a warm-up (it
loads the data files) and is not timed. Uses the ruleset object directly, so it runs whether or
not ``rhine`` is registered as an entry point yet. It reports games per second of wall time and
of this process's CPU time: on a shared machine the wall figure counts other processes' turns
on the core, the CPU figure does not.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _ab import call_in_tree, trees

from umpire.core.game import Game
from umpire.play import LazyActions
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine.agent import RhineScripted


def one(scenario: str, seed: int) -> tuple[float, float, int]:
    game = Game(RULESET, scenario, seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    start, cpu = time.perf_counter(), time.process_time()
    while not game.is_over:
        side = game.to_act
        assert side is not None
        # the legal actions listed only if the player looks at them, as ``play_out`` hands them
        game.apply(agents[side].choose(game.view(side), LazyActions(game)))
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return wall, used, len(game.record.actions)


def collector_for(collector: str) -> contextlib.AbstractContextManager[None]:
    """The collector's settings for the timed games: CPython's own (``default``), those of
    ``umpire simulate`` (``simulate``) or of ``play_out`` (``play``: core.collector), when the
    tree has it)."""
    if collector == "simulate":
        from umpire.analysis.simulate import quiet_collector

        return quiet_collector()
    if collector == "play":
        from umpire.core.collector import quiet_collector as play_collector

        return play_collector()
    return contextlib.nullcontext()


def run(scenario: str, games: int, seed0: int, collector: str = "default") -> dict[str, float]:
    one(scenario, seed0 - 1)  # warm-up
    with collector_for(collector):
        results = [one(scenario, seed0 + i) for i in range(games)]
    times = [t for t, _, _ in results]
    cpu = [c for _, c, _ in results]
    return {
        "games": games,
        "games_per_s": games / sum(times),
        "games_per_cpu_s": games / sum(cpu),
        "median_s": statistics.median(times),
        "actions_per_game": statistics.mean(n for _, _, n in results),
    }


def counted(scenario: str, games: int, seed0: int, collector: str = "default") -> dict[str, float]:
    """:func:`run`'s games under callgrind (this process must run under it, started with
    ``--instr-atstart=no``): the warm-up left out, instrumentation on for the timed games."""
    one(scenario, seed0 - 1)  # warm-up
    pid = str(os.getpid())
    with collector_for(collector):
        subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
        actions = [one(scenario, seed0 + i)[2] for i in range(games)]
        subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)
    return {"games": games, "actions_per_game": statistics.mean(actions)}


def instructions(
    tree: Path, scenario: str, games: int, seed: int, collector: str = "default"
) -> float:
    """Instructions per game of :func:`counted`'s games played on ``tree``'s package."""
    handle, out_file = tempfile.mkstemp(prefix="callgrind.rhine.")
    os.close(handle)
    env = dict(
        os.environ,
        PYTHONPATH=f"{tree / 'src'}:{tree / 'tests' / 'plugins'}",
        PYTHONHASHSEED="0",
    )
    here = str(Path(__file__).resolve().parent)
    code = (
        f"import sys; sys.path.insert(0, {here!r}); import bench_rhine as b; "
        f"b.counted({scenario!r}, {games}, {seed}, {collector!r})"
    )
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={out_file}",
        sys.executable,
        "-c",
        code,
    ]
    try:
        subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True)
        text = Path(out_file).read_text(encoding="utf-8", errors="replace")
    finally:
        Path(out_file).unlink(missing_ok=True)
    found = re.search(r"^totals: (\d+)", text, re.M) or re.search(r"^summary: (\d+)", text, re.M)
    if found is None:
        raise SystemExit("no instruction total in callgrind's output")
    return int(found.group(1)) / games


def ab_instructions(
    baseline: str, scenarios: list[str], games: int, seed: int, collector: str = "default"
) -> None:
    """Instructions per game of the same seeds in ``baseline`` and in this tree."""
    both = trees(baseline)
    for scenario in scenarios:
        base, cand = (
            instructions(tree, scenario, games, seed, collector) for tree in both.values()
        )
        print(
            f"rhine/{scenario}: baseline {base / 1e6:.1f} M, candidate {cand / 1e6:.1f} M "
            f"instructions a game ({games} games from seed {seed}, {collector} collector): "
            f"{cand / base:.3f}x"
        )


def ab(
    baseline: str,
    scenarios: list[str],
    games: int,
    seed: int,
    rounds: int,
    collector: str = "default",
) -> None:
    """The same seeds in another source tree (``baseline``, e.g. a ``git worktree`` of the
    commit to compare with) and in this one, each in its own process playing this script's
    games with that tree's code, taken in turns so both see the same load; prints games per
    CPU second and the ratio candidate / baseline."""
    both = trees(baseline)
    for scenario in scenarios:
        rates: dict[str, list[float]] = {name: [] for name in both}
        for _ in range(rounds):
            for name, tree in both.items():
                call = f"run({scenario!r}, {games}, {seed}, {collector!r})"
                rates[name].append(call_in_tree(tree, "bench_rhine", call)["games_per_cpu_s"])
        base, cand = (statistics.median(rates[n]) for n in both)
        print(
            f"rhine/{scenario}: baseline {base:.2f}, candidate {cand:.2f} games per CPU second "
            f"(median of {rounds} turns of {games} games, {collector} collector): "
            f"{cand / base:.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--scenario", action="append", default=None)
    parser.add_argument("--baseline", help="another source tree to compare with, in turns")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--collector",
        choices=("default", "simulate", "play"),
        default="default",
        help="the garbage collector's settings while the timed games play",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="with --baseline: count instructions with callgrind instead of timing",
    )
    args = parser.parse_args()
    if args.baseline and args.instructions:
        ab_instructions(
            args.baseline,
            args.scenario or RULESET.scenario_ids(),
            args.games,
            args.seed,
            args.collector,
        )
        return
    if args.baseline:
        ab(
            args.baseline,
            args.scenario or RULESET.scenario_ids(),
            args.games,
            args.seed,
            args.rounds,
            args.collector,
        )
        return
    for scenario in args.scenario or RULESET.scenario_ids():
        r = run(scenario, args.games, args.seed, args.collector)
        print(
            f"rhine/{scenario}: {r['games_per_s']:.2f} games/s/core (wall), "
            f"{r['games_per_cpu_s']:.2f} per CPU second, median "
            f"{r['median_s'] * 1000:.0f} ms/game, {r['actions_per_game']:.0f} actions/game"
        )


if __name__ == "__main__":
    main()
