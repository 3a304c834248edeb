"""Scripted-vs-scripted Book and The Gun games per second on one core.

python bench/bench_bookgun.py [--games N] [--scenario market-day]
"""

from __future__ import annotations

import argparse
import time

from umpire.core.game import Game
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.agent import BookGunScripted


def play(scenario: str, seed: int) -> int:
    game = Game(RULESET, scenario, seed)
    agents = {side: BookGunScripted(side, seed) for side in RULESET.meta.players}
    while not game.is_over:
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    return len(game.record.actions)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--scenario", default="market-day")
    args = parser.parse_args()
    play(args.scenario, 0)  # warm the caches (geometry, tables)
    start = time.perf_counter()
    actions = sum(play(args.scenario, seed) for seed in range(1, args.games + 1))
    elapsed = time.perf_counter() - start
    print(
        f"bookgun/{args.scenario}: {args.games} games in {elapsed:.1f} s = "
        f"{args.games / elapsed:.2f} games/s/core ({actions / args.games:.0f} actions a game)"
    )


if __name__ == "__main__":
    main()
