"""The Portable Wargame: games per CPU second on one core, per scenario, scripted-vs-scripted
and random-vs-random.

    python bench/bench_portable.py --games 10
    python bench/bench_portable.py --games 6 --baseline /tmp/portable_base --rounds 3   # A/B
    python bench/bench_portable.py --fingerprint --games 4      # event streams, for A/B checks

Run it pinned to one core (``taskset -c 0``). The first game of each scenario is a warm-up (it
loads the data files) and is not timed. Games are played as ``play_out`` plays them (made with
``make_agent``, legal actions listed only if the player looks at them). It reports games per
second of wall time and of this process's CPU time: on a shared machine the wall figure counts
other processes' turns on the core, the CPU figure does not. ``--fingerprint`` prints a hash of
every game's record and event stream instead of timing, so two trees can be compared for the
same games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import time

from _ab import call_in_tree, trees

import umpire
from umpire.agents import make_agent
from umpire.play import play_out

SIDES = ("blue", "red")
AGENTS = ("scripted", "random")


def _game(scenario: str, agents: str, seed: int) -> tuple[float, float, umpire.Game]:
    game = umpire.new_game(f"portable/{scenario}", seed=seed)
    players = {s: make_agent(agents, "portable", s, seed) for s in SIDES}
    start, cpu = time.perf_counter(), time.process_time()
    play_out(game, players)
    return time.perf_counter() - start, time.process_time() - cpu, game


def run(scenario: str, agents: str, games: int, seed0: int) -> dict[str, float]:
    _game(scenario, agents, seed0 - 1)  # warm-up
    results = [_game(scenario, agents, seed0 + i) for i in range(games)]
    wall = [w for w, _, _ in results]
    cpu = [c for _, c, _ in results]
    return {
        "games": games,
        "games_per_s": games / sum(wall),
        "games_per_cpu_s": games / sum(cpu),
        "median_cpu_ms": statistics.median(cpu) * 1000,
        "actions_per_game": statistics.mean(len(g.record.actions) for _, _, g in results),
    }


def fingerprint(scenario: str, agents: str, games: int, seed0: int) -> list[str]:
    """A hash per game of its actions and every event (as the umpire saw them)."""
    out = []
    for i in range(games):
        game = _game(scenario, agents, seed0 + i)[2]
        data = {
            "actions": [a.to_dict() for a in game.record.actions],
            "events": [e.to_dict() for e in game.events],
        }
        text = json.dumps(data, sort_keys=True, default=str)
        out.append(hashlib.sha256(text.encode()).hexdigest()[:16])
    return out


def scenarios() -> list[str]:
    from umpire.rulesets.portable.ruleset import Portable

    return Portable().scenario_ids()


def ab(
    baseline: str, names: list[str], agents: list[str], games: int, seed: int, rounds: int
) -> None:
    """The same seeds in another source tree (``baseline``, e.g. a ``git worktree``) and in this
    one, each in its own process running this tree's copy of the script, taken in turns so both
    see the same load; prints games per CPU second and the ratio candidate / baseline."""
    both = trees(baseline)
    for scenario in names:
        for who in agents:
            rates: dict[str, list[float]] = {name: [] for name in both}
            for _ in range(rounds):
                for name, tree in both.items():
                    call = f"run({scenario!r}, {who!r}, {games}, {seed})"
                    result = call_in_tree(tree, "bench_portable", call)
                    rates[name].append(result["games_per_cpu_s"])
            base, cand = (statistics.median(rates[n]) for n in both)
            print(
                f"portable/{scenario} {who}: baseline {base:.2f}, candidate {cand:.2f} games "
                f"per CPU second (median of {rounds} turns of {games} games): {cand / base:.2f}x",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--scenario", action="append", default=None)
    parser.add_argument("--agents", action="append", choices=AGENTS, default=None)
    parser.add_argument("--baseline", help="another source tree to compare with, in turns")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--fingerprint", action="store_true")
    args = parser.parse_args()
    names = args.scenario or scenarios()
    agents = args.agents or list(AGENTS)
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    if args.baseline:
        ab(args.baseline, names, agents, args.games, args.seed, args.rounds)
        return
    for scenario in names:
        for who in agents:
            if args.fingerprint:
                prints = fingerprint(scenario, who, args.games, args.seed)
                print(f"portable/{scenario} {who}: {' '.join(prints)}", flush=True)
                continue
            r = run(scenario, who, args.games, args.seed)
            print(
                f"portable/{scenario} {who}: {r['games_per_cpu_s']:.2f} games per CPU second, "
                f"{r['games_per_s']:.2f} games/s (wall), median {r['median_cpu_ms']:.0f} ms CPU"
                f"/game, {r['actions_per_game']:.0f} actions/game",
                flush=True,
            )


if __name__ == "__main__":
    main()
