"""Seven Days random-vs-random: the cost of a full ``legal_actions()`` listing (issue 19).

    taskset -c 0 python3 bench/bench_sevendays_legal.py --games 6
    taskset -c 0 python3 bench/bench_sevendays_legal.py --games 6 --src /tmp/base/src  # A/B

Plays random-vs-random games of a scenario (seeds from ``--seed``, one warm-up game first) and
prints their games per CPU second; then, on other seeds (100,000 higher, positions the world's
caches have not met), times at every decision the full listing of the legal actions the random
player is handed (the first listing on that state, as in play): the mean and median
microseconds of CPU time and the mean number of actions listed. Each tree (``--src`` trees
first, then this one) runs in its own process; run it pinned to one core, and compare trees in
the same run rather than against figures from another day (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any


def _worker(scenario: str, seeds: list[int]) -> dict[str, Any]:
    import umpire
    from umpire.agents import make_agent
    from umpire.core.ruleset import get_ruleset
    from umpire.play import play_out

    ruleset = get_ruleset("sevendays")

    def play(seed: int, probe: list[float] | None, sizes: list[int] | None) -> Any:
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        players = {s: make_agent("random", "sevendays", s, seed) for s in ("nato", "pact")}
        if probe is None:
            play_out(game, players)
            return game
        clock = time.process_time
        while game.to_act is not None and len(game.record.actions) < ruleset.meta.max_actions:
            start = clock()
            listed = game.legal_actions()
            probe.append(clock() - start)
            assert sizes is not None
            sizes.append(len(listed))
            side = game.to_act
            game.apply(players[side].choose(game.view(side), listed))
        return game

    play(seeds[0] - 1, None, None)  # warm-up: data files, the scenario's static caches
    start = time.process_time()
    actions = sum(len(play(s, None, None).record.actions) for s in seeds)
    cpu = time.process_time() - start
    probe: list[float] = []
    sizes: list[int] = []
    for s in seeds:  # other seeds: the world's caches have not seen these games
        play(s + 100_000, probe, sizes)
    return {
        "games_per_cpu_s": len(seeds) / cpu,
        "actions_a_game": actions / len(seeds),
        "listing_mean_us": statistics.fmean(probe) * 1e6,
        "listing_median_us": statistics.median(probe) * 1e6,
        "listed_mean": statistics.fmean(sizes),
        "listings": len(probe),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="meeting-engagement")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--src", action="append", default=[], help="another tree's src/")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    seeds = list(range(args.seed, args.seed + args.games))
    if args.worker:
        print(json.dumps(_worker(args.scenario, seeds)))
        return
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    for src in [*args.src, here]:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(src), PYTHONHASHSEED="0")
        cmd = [sys.executable, os.path.abspath(__file__), "--worker"]
        cmd += ["--scenario", args.scenario, "--games", str(args.games), "--seed", str(args.seed)]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print(
            f"{os.path.abspath(src)}: {r['games_per_cpu_s']:.2f} random games/CPU-s "
            f"({r['actions_a_game']:.0f} actions a game); legal_actions() "
            f"mean {r['listing_mean_us']:.0f} us, median {r['listing_median_us']:.0f} us "
            f"over {r['listings']} listings of {r['listed_mean']:.1f} actions"
        )


if __name__ == "__main__":
    main()
