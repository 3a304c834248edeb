"""7 Days to the Rhine: where a scripted-vs-scripted game's CPU time goes, engine against
player, per game.

    taskset -c 0 python bench/bench_rhine_engine.py --games 10
    taskset -c 0 python bench/bench_rhine_engine.py --games 10 --baseline /tmp/base   # A/B

Each decision is played as ``bench_rhine`` plays it (the legal actions listed only if the
player looks at them) and its CPU time (``time.process_time``) is split into: ``to_act``
(whose decision it is, whether the game is over), ``observation`` (the view's observation),
``legal`` (the listing, when the player asks for it), ``player`` (the rest of the scripted
player's choice) and ``apply`` (the engine's check, resolution and flow). The first game is
a warm-up. With ``--baseline`` the same seeds run in another source tree and in this one,
each in its own process, in turns (so both see the same load), and the medians are printed
side by side.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _ab import call_in_tree, trees

PARTS = ("to_act", "observation", "legal", "player", "apply")


def run(scenario: str, games: int, seed0: int) -> dict[str, float]:
    """Milliseconds of CPU per game in each part, and their total."""
    from umpire.core.game import Game
    from umpire.play import LazyActions
    from umpire.rulesets.rhine import RULESET
    from umpire.rulesets.rhine.agent import RhineScripted

    clock = time.process_time
    spent = dict.fromkeys(PARTS, 0.0)
    engine = RULESET.legal_actions

    def listed(state: Any) -> Any:
        t = clock()
        try:
            return engine(state)
        finally:
            spent["legal"] += clock() - t

    RULESET.legal_actions = listed
    try:
        for k, seed in enumerate(range(seed0 - 1, seed0 + games)):
            if k == 1:
                spent = dict.fromkeys(PARTS, 0.0)  # the warm-up game is not counted
            game = Game(RULESET, scenario, seed)
            agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
            while True:
                t0 = clock()
                over, side = game.is_over, game.to_act
                t1 = clock()
                spent["to_act"] += t1 - t0
                if over or side is None:
                    break
                view = game.view(side)
                view.observation  # noqa: B018 (read: it is made on first use)
                t2 = clock()
                before = spent["legal"]
                action = agents[side].choose(view, LazyActions(game))
                t3 = clock()
                game.apply(action)
                t4 = clock()
                spent["observation"] += t2 - t1
                spent["player"] += (t3 - t2) - (spent["legal"] - before)
                spent["apply"] += t4 - t3
    finally:
        del RULESET.legal_actions
    out = {part: 1000 * spent[part] / games for part in PARTS}
    out["total"] = sum(out[p] for p in PARTS)
    return out


def ab(baseline: str, scenarios: list[str], games: int, seed: int, rounds: int) -> None:
    both = trees(baseline)
    for scenario in scenarios:
        got: dict[str, list[dict[str, float]]] = {name: [] for name in both}
        for _ in range(rounds):
            for name, tree in both.items():
                call = f"run({scenario!r}, {games}, {seed})"
                got[name].append(call_in_tree(tree, "bench_rhine_engine", call))
        print(f"rhine/{scenario}: ms of CPU per game, median of {rounds} turns of {games} games")
        for part in (*PARTS, "total"):
            base, cand = (statistics.median(r[part] for r in got[n]) for n in both)
            print(f"  {part:12s} baseline {base:8.2f}  candidate {cand:8.2f}  {cand / base:5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--scenario", action="append", default=None)
    parser.add_argument("--baseline", help="another source tree to compare with, in turns")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    scenarios = args.scenario or ["autobahn-gap", "kinzig-valley"]
    if args.baseline:
        ab(args.baseline, scenarios, args.games, args.seed, args.rounds)
        return
    for scenario in scenarios:
        r = run(scenario, args.games, args.seed)
        parts = ", ".join(f"{p} {r[p]:.2f}" for p in PARTS)
        print(f"rhine/{scenario}: ms of CPU per game: {parts}; total {r['total']:.2f}")


if __name__ == "__main__":
    main()
