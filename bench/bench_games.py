"""Full AI-vs-AI Meeting Engagements per second on one core, event display off.

    python bench/bench_games.py --games 20 --agents scripted

Prints games/s and the per-game time; run it pinned to one core (``taskset -c 0``) to
measure one core. The first game is a warm-up (it loads data files) and is not timed. With
``--repeat N`` N sets of different games are played and the best and median runs are reported
(this machine is shared, so single runs vary by several percent). ``--clock cpu`` times each
game by the process's CPU time instead of the wall clock (steadier when other work shares the
core; compare runs made with the same clock only).
"""

from __future__ import annotations

import argparse
import statistics
import time

import umpire
from umpire.agents import make_agent
from umpire.play import play_out


def run(games: int, agents: str, seed0: int, clock: str = "wall") -> dict[str, float]:
    now = time.process_time if clock == "cpu" else time.perf_counter

    def one(seed: int) -> float:
        game = umpire.new_game("sevendays/meeting-engagement", seed=seed)
        players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
        start = now()
        play_out(game, players)
        return now() - start

    one(seed0 - 1)  # warm-up
    times = [one(seed0 + i) for i in range(games)]
    total = sum(times)
    return {
        "games": games,
        "games_per_s": games / total,
        "mean_s": statistics.mean(times),
        "median_s": statistics.median(times),
        "max_s": max(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--agents", choices=["scripted", "random"], default="scripted")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    args = parser.parse_args()
    # each repeat plays new seeds: replaying the same games would find their positions cached
    runs = [
        run(args.games, args.agents, args.seed + i * args.games, args.clock)
        for i in range(args.repeat)
    ]
    for result in runs:
        print(
            f"{result['games']} {args.agents}-vs-{args.agents} meeting engagements "
            f"({args.clock} clock): "
            f"{result['games_per_s']:.2f} games/s/core "
            f"(mean {result['mean_s'] * 1000:.0f} ms, median {result['median_s'] * 1000:.0f} ms, "
            f"max {result['max_s'] * 1000:.0f} ms)"
        )
    rates = sorted(r["games_per_s"] for r in runs)
    print(
        f"best {rates[-1]:.2f}, median {statistics.median(rates):.2f} games/s/core "
        f"over {len(runs)} run(s); target 200 games/s/core (issue 19)"
    )


if __name__ == "__main__":
    main()
