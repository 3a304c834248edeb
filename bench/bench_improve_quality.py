"""Do the improve mode's changes of the scripted move raise the real chance of winning?

    taskset -c 1 python bench/bench_improve_quality.py portable/village-attack \
        --seeds 1000,1001 --every 3 --samples 10 --horizon 12 --candidates 3 --truth 30

A decision-level check, far cheaper than whole games: both sides play the scripted player's
game; at every ``--every``-th decision with more than one legal action the improve mode
(``--samples`` paired samples, a fixed budget, so the run is reproducible) is asked for its
move. Where it would replace the scripted move, both moves are then played out to the END of
the game ``--truth`` times each (scripted players on both sides, the same determinisations
and dice for both moves) and the real results compared: the mean gain in win probability per
change, with its standard error. A positive mean says the changes are improvements against
the scripted player, not artefacts of the evaluation at the horizon.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from contextlib import suppress

import umpire
from umpire.agents import make_agent
from umpire.agents.search import Settings, personality
from umpire.agents.search.improve import improve, play_out
from umpire.core.errors import IllegalActionError
from umpire.core.view import Agent
from umpire.play import LazyActions


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    if not n:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--seeds", default="1000")
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--horizon", type=int, default=Settings.horizon)
    parser.add_argument("--candidates", type=int, default=Settings.candidates)
    parser.add_argument("--truth", type=int, default=30, help="full playouts per move")
    parser.add_argument("--preset", default="balanced")
    parser.add_argument(
        "--think",
        type=float,
        default=None,
        help="decide on the clock (seconds a decision, as in play) instead of --samples: "
        "cheaper samples then buy more of them (not reproducible to the digit)",
    )
    args = parser.parse_args(argv)
    settings = Settings(
        mode="improve",
        iterations=None if args.think else args.samples,
        think=args.think or Settings.think,
        horizon=args.horizon,
        candidates=args.candidates,
    )
    drawn: list[int] = []  # paired samples per asked decision
    gains: list[float] = []
    asked = 0
    started = time.perf_counter()
    for seed in (int(s) for s in args.seeds.split(",")):
        game = umpire.new_game(args.game, seed=seed)
        ruleset = game.ruleset
        sides = ruleset.meta.players
        players = {s: make_agent("scripted", ruleset.meta.id, s, seed) for s in sides}
        rollout: dict[str, Agent] = {
            s: make_agent("scripted", ruleset.meta.id, s, seed) for s in sides
        }
        count = 0
        while game.to_act is not None:
            side = game.to_act
            legal = LazyActions(game)
            view = game.view(side)
            hint = players[side].choose(view, legal)
            if len(legal) > 1:
                count += 1
                if count % args.every == 0:
                    asked += 1
                    result = improve(
                        view,
                        list(legal),
                        personality(args.preset),
                        settings,
                        random.Random(f"{seed}/{count}"),
                        rollout.__getitem__,
                        hint,
                    )
                    drawn.append(result.samples)
                    chosen = result.chosen
                    if chosen is not None and chosen != hint:
                        real: dict[int, list[float]] = {0: [], 1: []}
                        for j in range(args.truth):
                            for k, move in enumerate((hint, chosen)):
                                state = view.determinise(random.Random(10_000 + j))
                                with suppress(IllegalActionError):
                                    ruleset.apply(state, move)
                                play_out(ruleset, state, rollout.__getitem__, 1_000_000)
                                outcome = ruleset.outcome(state)
                                won = (
                                    0.5
                                    if outcome is None or outcome.winner == "draw"
                                    else float(outcome.winner == side)
                                )
                                real[k].append(won)
                        gain, se = _mean_se([b - a for a, b in zip(real[0], real[1], strict=True)])
                        estimated = (
                            result.root.children[chosen].mean() - result.root.children[hint].mean()
                        )
                        gains.append(gain)
                        print(
                            f"seed {seed} decision {count} ({side}): estimated gain "
                            f"{estimated:+.3f}, real {gain:+.3f} (se {se:.3f}); the scripted "
                            f"move wins {sum(real[0]) / args.truth:.2f}",
                            flush=True,
                        )
            game.apply(hint)
    mean, se = _mean_se(gains)
    budget = f"think={args.think}" if args.think else f"samples={args.samples}"
    per = sum(drawn) / len(drawn) if drawn else 0.0
    print(
        f"{args.game} {budget} ({per:.1f} samples a decision) horizon={args.horizon} "
        f"candidates={args.candidates}: {asked} decisions asked, {len(gains)} changed; real "
        f"gain per change {mean:+.4f} (se {se:.4f}); better {sum(g > 0 for g in gains)}, "
        f"worse {sum(g < 0 for g in gains)}; {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
