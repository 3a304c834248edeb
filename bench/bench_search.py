"""Strength and decision time of the search player (issue 17).

    taskset -c 0 python bench/bench_search.py sevendays/meeting-engagement \
        --opponent scripted --pairs 10 --think 0.2

Plays ``--pairs`` pairs of games: each game seed is played twice with the sides swapped (the
search on each side once), so a side's or a seed's advantage cancels out. Reports the
search's score (a win 1, a draw 1/2, an unfinished game 1/2) with a 95 % Wilson interval over
the games, wins/draws/losses, and the search's decision times (every decision with more than
one legal action): mean, p95 and max, and p95 as a multiple of the ``--think`` budget.

``--jsonl FILE`` appends a line per finished game (seed, side, score, decision times), and
``--from-jsonl FILE`` reports a run from those lines, so a run stopped at a deadline still
counts.

``--clock cpu`` measures the think time (and the decision times reported) in this process's
CPU seconds instead of wall seconds: on a loaded machine the run then takes longer instead of
giving the search a fraction of its budget (the search on the clock it would have on a core of
its own). The default, ``wall``, is how it plays a person.

``--compare A.jsonl B.jsonl`` compares two runs on the games both played (same seed, the
search on the same side): the mean paired difference of the score with a 95 % interval.

``--against-think S`` plays the search against itself at another think time (e.g. 4 s against
1 s). A long run is not a unit test; pin it to one core (``taskset -c N``) and keep ``--json``
output for the README.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import umpire
from umpire.agents import make_agent
from umpire.agents.search import SearchAgent, Settings
from umpire.analysis.stats import mean_sd, wilson
from umpire.core.view import Agent
from umpire.play import LazyActions


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def play(
    game_id: str,
    seed: int,
    search_side: str,
    opponent: str,
    think: float,
    preset: str,
    against_think: float | None,
    times: list[float],
    max_actions: int,
    prior: float = 0.25,
    base: Settings | None = None,
    tally: dict[str, int] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, str]:
    """One game; the search's score in it (1 / 0.5 / 0) and how it ended. ``clock``: what the
    search's think time is measured on (wall time, or this process's CPU time)."""
    game = umpire.new_game(game_id, seed=seed)
    ruleset_id = game.ruleset.meta.id
    players: dict[str, Agent] = {}
    for side in game.ruleset.meta.players:
        if side == search_side:
            players[side] = SearchAgent(
                side,
                seed,
                preset,
                think=think,
                settings=replace(base or Settings(), prior=prior),
                clock=clock,
            )
        elif against_think is not None:
            players[side] = SearchAgent(side, seed + 1, preset, think=against_think, clock=clock)
        else:
            players[side] = make_agent(opponent, ruleset_id, side, seed)
    while game.to_act is not None and len(game.record.actions) < max_actions:
        side = game.to_act
        legal = LazyActions(game)
        start = clock()
        action = players[side].choose(game.view(side), legal)
        spent = clock() - start
        if side == search_side and len(legal) > 1:
            times.append(spent)
            result = getattr(players[side], "last_result", None)
            if tally is not None and result is not None:
                # playouts a decision (tree: iterations; improve: candidates x paired samples)
                tally["searched"] = tally.get("searched", 0) + 1
                tally["playouts"] = tally.get("playouts", 0) + result.iterations
            if tally is not None and result is not None and result.method == "improve":
                # the improve mode: its paired samples, and whether it changed the scripted move
                tally["decisions"] = tally.get("decisions", 0) + 1
                tally["samples"] = tally.get("samples", 0) + result.samples
                tally["changed"] = tally.get("changed", 0) + int(result.chosen != result.hint)
        game.apply(action)
    outcome = game.outcome
    if outcome is None:
        return 0.5, "unfinished"
    if outcome.winner == search_side:
        return 1.0, outcome.how
    if outcome.winner == "draw":
        return 0.5, outcome.how
    return 0.0, outcome.how


def summarise(path: str) -> dict[str, Any]:
    """The report of a run from its ``--jsonl`` lines (one per finished game), e.g. of a run
    stopped at a deadline; pairs left half-played are counted as the games they are."""
    with open(path, encoding="utf-8") as lines:
        games = [json.loads(line) for line in lines if line.strip()]
    if not games:
        raise SystemExit(f"{path}: no games")
    scores = [float(g["score"]) for g in games]
    times = [float(t) for g in games for t in g["times"]]
    shares = [float(g["core_share"]) for g in games if "core_share" in g]
    tally = {
        k: sum(int(g.get("improve", {}).get(k, 0)) for g in games)
        for k in ("decisions", "samples", "changed", "searched", "playouts")
    }
    seeds = sorted({int(g["seed"]) for g in games})
    n = len(scores)
    low, high = wilson(sum(scores), n)
    first = games[0]
    report: dict[str, Any] = {
        "game": first["game"],
        "search": f"search:{first['preset']}@{first['think']}",
        "mode": first["mode"],
        "opponent": first["opponent"],
        "seeds": [seeds[0], seeds[-1]],
        "games": n,
        "wins": scores.count(1.0),
        "draws_or_unfinished": scores.count(0.5),
        "losses": scores.count(0.0),
        "score": sum(scores) / n,
        "wilson95": [low, high],
        "decisions": len(times),
        "decision_p95_s": _p95(times),
        "decision_max_s": max(times, default=0.0),
        "p95_over_budget": _p95(times) / float(first["think"]),
        "improve": tally,
        "core_share": statistics.mean(shares) if shares else None,
        "clock": first.get("clock", "wall"),
    }
    if shares:
        print(
            f"share of a core the games got: mean {statistics.mean(shares):.2f}, "
            f"min {min(shares):.2f} (the think time is "
            f"{'CPU' if report['clock'] == 'cpu' else 'wall'} time)"
        )
    if tally["searched"]:
        print(
            f"playouts: {tally['playouts'] / tally['searched']:.1f} a decision "
            f"({tally['searched']} decisions searched)"
        )
    if tally["decisions"]:
        print(
            f"improve mode: {tally['samples'] / tally['decisions']:.1f} paired samples a "
            f"decision; changed the scripted move in {tally['changed']} of "
            f"{tally['decisions']} decisions"
        )
    print(
        f"{report['search']} ({report['mode']}) vs {report['opponent']} on {report['game']}, "
        f"seeds {seeds[0]}-{seeds[-1]}: {n} games, score {report['score']:.2f} (95% Wilson "
        f"{low:.2f}-{high:.2f}); W/D/L {report['wins']}/{report['draws_or_unfinished']}/"
        f"{report['losses']}; {len(times)} decisions, p95 {report['decision_p95_s']:.3f}s "
        f"({report['p95_over_budget']:.2f}x budget), max {report['decision_max_s']:.3f}s"
    )
    return report


def compare(first: str, second: str) -> dict[str, Any]:
    """Two runs' ``--jsonl`` files compared game by game on the games both played (the same
    seed with the search on the same side): the mean difference of the search's score (the
    first run's less the second's) with a 95 % interval (normal approximation over the paired
    games), so two modes or settings are compared on the same deals rather than by two
    overlapping intervals."""
    runs = []
    for path in (first, second):
        with open(path, encoding="utf-8") as lines:
            games = [json.loads(line) for line in lines if line.strip()]
        runs.append({(int(g["seed"]), str(g["search_side"])): float(g["score"]) for g in games})
    both = sorted(runs[0].keys() & runs[1].keys())
    if len(both) < 2:
        raise SystemExit("fewer than two games played by both runs")
    diffs = [runs[0][k] - runs[1][k] for k in both]
    mean, sd = mean_sd(diffs)
    half = 1.96 * sd / math.sqrt(len(diffs))
    report = {
        "first": first,
        "second": second,
        "paired_games": len(diffs),
        "first_score": sum(runs[0][k] for k in both) / len(both),
        "second_score": sum(runs[1][k] for k in both) / len(both),
        "mean_difference": mean,
        "ci95": [mean - half, mean + half],
        "first_better": sum(d > 0 for d in diffs),
        "second_better": sum(d < 0 for d in diffs),
    }
    print(
        f"{len(diffs)} paired games: {report['first_score']:.2f} vs "
        f"{report['second_score']:.2f}, difference {mean:+.3f} (95% {mean - half:+.3f} to "
        f"{mean + half:+.3f}); the first better in {report['first_better']}, the second in "
        f"{report['second_better']}"
    )
    return report


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", help="RULESET/SCENARIO")
    parser.add_argument("--from-jsonl", default=None, help="report a run from its --jsonl file")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar="JSONL",
        default=None,
        help="two runs' --jsonl files compared on the games both played (paired by seed, side)",
    )
    parser.add_argument("--opponent", default="scripted", help="scripted | random")
    parser.add_argument("--pairs", type=int, default=10, help="side-swapped pairs of games")
    parser.add_argument("--think", type=float, default=1.0, help="search seconds per decision")
    parser.add_argument("--against-think", type=float, default=None)
    parser.add_argument("--preset", default="balanced")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--max-actions", type=int, default=3000)
    parser.add_argument(
        "--prior", type=float, default=0.25, help="head start of the scripted hint (0: none)"
    )
    parser.add_argument("--mode", default=Settings.mode, help="tree | improve")
    parser.add_argument("--candidates", type=int, default=Settings.candidates)
    parser.add_argument("--horizon", type=int, default=Settings.horizon)
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="think time in wall seconds (as in play) or in this process's CPU seconds (a "
        "loaded machine then slows the run down instead of weakening the search)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--jsonl",
        default=None,
        help="append one line per game to this file (a run stopped early still counts)",
    )
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.from_jsonl:
        return summarise(args.from_jsonl)
    if not args.game:
        parser.error("give RULESET/SCENARIO (or --from-jsonl FILE)")
    base = Settings(mode=args.mode, candidates=args.candidates, horizon=args.horizon)
    sides = umpire.new_game(args.game, seed=args.seed).ruleset.meta.players
    scores: list[float] = []
    endings: dict[str, int] = {}
    times: list[float] = []
    started = time.perf_counter()
    for k in range(args.pairs):
        for search_side in sides:
            before = len(times)
            tally: dict[str, int] = {}
            wall, cpu = time.perf_counter(), time.process_time()
            score, how = play(
                args.game,
                args.seed + k,
                search_side,
                args.opponent,
                args.think,
                args.preset,
                args.against_think,
                times,
                args.max_actions,
                args.prior,
                base,
                tally,
                time.process_time if args.clock == "cpu" else time.perf_counter,
            )
            # the share of a core this game got (the clock is wall time: on a loaded machine a
            # decision of `think` seconds gets only this share of them)
            core_share = (time.process_time() - cpu) / max(1e-9, time.perf_counter() - wall)
            scores.append(score)
            endings[how] = endings.get(how, 0) + 1
            if args.jsonl:
                mine = times[before:]
                line = {
                    "game": args.game,
                    "mode": args.mode,
                    "think": args.think,
                    "preset": args.preset,
                    "horizon": args.horizon,
                    "candidates": args.candidates,
                    "prior": args.prior,
                    "opponent": args.opponent,
                    "seed": args.seed + k,
                    "search_side": search_side,
                    "score": score,
                    "how": how,
                    "times": [round(t, 4) for t in mine],
                    "improve": tally,
                    "core_share": round(core_share, 3),
                    "clock": args.clock,
                }
                with open(args.jsonl, "a", encoding="utf-8") as out:
                    out.write(json.dumps(line) + "\n")
            if not args.json:
                mine = times[before:]
                print(
                    f"seed {args.seed + k} search as {search_side}: {score} ({how}); "
                    f"{len(mine)} decisions, p95 {_p95(mine):.3f}s, "
                    f"max {max(mine, default=0.0):.3f}s",
                    flush=True,
                )
    n = len(scores)
    low, high = wilson(sum(scores), n)
    opponent = f"search@{args.against_think}" if args.against_think is not None else args.opponent
    report: dict[str, Any] = {
        "game": args.game,
        "search": f"search:{args.preset}@{args.think}",
        "mode": args.mode,
        "candidates": args.candidates,
        "horizon": args.horizon,
        "seeds": [args.seed, args.seed + args.pairs - 1],
        "prior": args.prior,
        "opponent": opponent,
        "games": n,
        "wins": scores.count(1.0),
        "draws_or_unfinished": scores.count(0.5),
        "losses": scores.count(0.0),
        "score": sum(scores) / n if n else 0.0,
        "wilson95": [low, high],
        "endings": endings,
        "decisions": len(times),
        "decision_mean_s": statistics.mean(times) if times else 0.0,
        "decision_p95_s": _p95(times),
        "decision_max_s": max(times, default=0.0),
        "p95_over_budget": _p95(times) / args.think,
        "clock": args.clock,
        "wall_s": time.perf_counter() - started,
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(
            f"{report['search']} ({args.mode}) vs {opponent} on {args.game}: {n} games, score "
            f"{report['score']:.2f} (95% Wilson {low:.2f}-{high:.2f}); "
            f"W/D/L {report['wins']}/{report['draws_or_unfinished']}/{report['losses']}; "
            f"decision p95 {report['decision_p95_s']:.3f}s "
            f"({report['p95_over_budget']:.2f}x budget), max {report['decision_max_s']:.3f}s"
        )
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
