"""7 Days to the Rhine: scripted-vs-scripted games per second on one core, per scenario.

    python bench/bench_rhine.py --games 10
    python bench/bench_rhine.py --games 6 --baseline /tmp/rhine_base --rounds 3   # A/B
    python bench/bench_rhine.py --games 30 --collector simulate

``--collector simulate`` plays the timed games with the garbage collector as ``umpire simulate``
sets it (:func:`umpire.analysis.simulate.quiet_collector`: what was loaded before is frozen,
the youngest generation collected less often); the default is CPython's own collector.

Run it pinned to one core (``taskset -c 0``). The first game of each scenario is a warm-up (it
loads the data files) and is not timed. Uses the ruleset object directly, so it runs whether or
not ``rhine`` is registered as an entry point yet. It reports games per second of wall time and
of this process's CPU time: on a shared machine the wall figure counts other processes' turns
on the core, the CPU figure does not.
"""

from __future__ import annotations

import argparse
import statistics
import time

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


def run(scenario: str, games: int, seed0: int, collector: str = "default") -> dict[str, float]:
    one(scenario, seed0 - 1)  # warm-up
    if collector == "simulate":
        from umpire.analysis.simulate import quiet_collector

        with quiet_collector():
            results = [one(scenario, seed0 + i) for i in range(games)]
    else:
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
        choices=("default", "simulate"),
        default="default",
        help="the garbage collector's settings while the timed games play",
    )
    args = parser.parse_args()
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
