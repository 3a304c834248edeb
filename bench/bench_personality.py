"""Do the search personalities play differently, measurably? (issue 17)

    taskset -c 1 python bench/bench_personality.py --games 200 --playouts 20 --interleave \
        --jsonl /tmp/personality.jsonl
    python bench/bench_personality.py --from-jsonl /tmp/personality.jsonl   # the table again

For each preset (``aggressive``, ``cautious``, ``balanced``, ``objective``) the search plays
``--games`` games against the scripted player on Portable's Crossroads skirmish (a house
scenario: 5 units a side, 6 turns on an 8x6 board, two objectives, so hundreds of games fit in
an hour of one core). Games come in side-swapped pairs: seed k is played with the search as
blue and as red, and every preset plays the same seeds.

The search decides on a fixed budget of ``--playouts`` playouts per decision (not on the clock),
so a run is reproducible on any machine; the scripted hint is off by default (``--prior 0``)
because at a small budget its head start would decide nearly every move and hide the
personality (the point here is what the sliders do, not strength).

Per game, measured by the umpire on the true state (the bench is the referee, not a player),
at the end of each game turn (the game's end is the last turn's end; 6 samples in a full
Crossroads game):

* ``distance``: mean over the search's surviving ground units of the squares (counted through
  edges, as the rules count) to the nearest enemy unit, averaged over the turn ends;
* ``exposure``: the share of the search's surviving ground units within reach of an enemy
  weapon (that weapon's range in squares, ``portable.fire.range``, ignoring arc and line of
  sight) or adjacent to an enemy, averaged over the turn ends (a share, not a count, so a side
  that has lost units does not look less exposed for it);
* ``losses``: the search side's own strength points lost by the game's end (``summary``
  ``sp_lost``; Crossroads: 15 SP a side, exhaustion point 5);
* ``objective``: objective-turns, the number of the scenario's objective squares with one of
  the search side's units standing on them, summed over the turn ends (0 to 12 in
  Crossroads).

Each preset's mean per game with a 95 % Student t interval over its games; the win rate with a
95 % Wilson interval. A stated direction holds when the two presets' intervals do not
overlap: aggressive closer to the enemy, more exposed and losing more SP than cautious;
objective more objective-turns than balanced and than cautious.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from typing import Any

import umpire
from umpire.agents import make_agent
from umpire.agents.search import SearchAgent, Settings
from umpire.core.view import Agent
from umpire.geometry.squaregrid import distance
from umpire.play import LazyActions

PRESETS = ("aggressive", "cautious", "balanced", "objective")
METRICS = ("distance", "exposure", "losses", "objective")
# (metric, lower preset, higher preset): the stated directions
DIRECTIONS = (
    ("distance", "aggressive", "cautious"),  # aggressive closer to the enemy
    ("exposure", "cautious", "aggressive"),  # aggressive more exposed
    ("losses", "cautious", "aggressive"),  # cautious loses less
    ("objective", "balanced", "objective"),  # objective stands on objectives longer
    ("objective", "cautious", "objective"),
)

# two-sided 95 % Student t quantiles for small samples; 1.96 beyond
_T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26}
_T95.update({10: 2.23, 15: 2.13, 20: 2.09, 30: 2.04, 60: 2.00, 120: 1.98})


def t95(df: int) -> float:
    if df <= 0:
        return math.inf
    best = 1.96
    for k in sorted(_T95, reverse=True):
        if df <= k:
            best = _T95[k]
    return best


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95 % t interval."""
    n = len(values)
    mean = statistics.fmean(values) if values else math.nan
    if n < 2:
        return mean, -math.inf, math.inf
    half = t95(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def wilson(successes: float, n: int) -> tuple[float, float, float]:
    """A proportion and its 95 % Wilson score interval."""
    if n == 0:
        return math.nan, 0.0, 1.0
    z = 1.96
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def measure(game: Any, side: str) -> tuple[float, float, float]:
    """(mean distance to the nearest enemy, share of units exposed, objectives stood on) for
    ``side``, read from the true state."""
    ruleset = game.ruleset
    state = game.state
    world = ruleset.world(state)
    own = [u for u in state.alive(side) if u.carried_by is None and not u.air]
    enemy = [u for u in state.alive() if u.side != side and u.carried_by is None and not u.air]
    if not own or not enemy:
        near = math.nan
        exposed = math.nan
    else:
        near = statistics.fmean(min(distance(u.pos, e.pos) for e in enemy) for u in own)
        count = 0
        for u in own:
            for e in enemy:
                d = distance(u.pos, e.pos)
                weapon_id = (
                    world.types.ground[e.type].weapon if e.type in world.types.ground else None
                )
                reach = world.types.weapons[weapon_id].range if weapon_id is not None else 0
                if d <= 1 or d <= reach:
                    count += 1
                    break
        exposed = count / len(own)
    at = {u.pos for u in own}
    stood = sum(1 for sq in world.objectives if sq in at)
    return near, exposed, float(stood)


def play(
    game_id: str, seed: int, side: str, preset: str, playouts: int, prior: float, max_actions: int
) -> dict[str, float]:
    game = umpire.new_game(game_id, seed=seed)
    players: dict[str, Agent] = {}
    for s in game.ruleset.meta.players:
        if s == side:
            players[s] = SearchAgent(
                s, seed, preset, iterations=playouts, settings=Settings(prior=prior)
            )
        else:
            players[s] = make_agent("scripted", game.ruleset.meta.id, s, seed)
    samples: list[tuple[float, float, float]] = []
    turn = game.ruleset.summary(game.state).get("turns")
    portable: Any = game.ruleset  # Portable's world: the scenario's objective squares
    objectives = portable.world(game.state).objectives
    stood_after: list[int] = []  # objectives stood on after each action (all sides' decisions)
    while game.to_act is not None and len(game.record.actions) < max_actions:
        mover = game.to_act
        action = players[mover].choose(game.view(mover), LazyActions(game))
        game.apply(action)
        at = {u.pos for u in game.state.alive(side) if u.carried_by is None and not u.air}
        stood_after.append(sum(1 for sq in objectives if sq in at))
        now = game.ruleset.summary(game.state).get("turns")
        if now != turn:
            samples.append(measure(game, side))
            turn = now
    samples.append(measure(game, side))
    distances = [d for d, _, _ in samples if not math.isnan(d)]
    shares = [x for _, x, _ in samples if not math.isnan(x)]
    lost = game.ruleset.summary(game.state)["losses"][side]
    outcome = game.outcome
    return {
        "distance": statistics.fmean(distances) if distances else math.nan,
        "exposure": statistics.fmean(shares) if shares else math.nan,
        "losses": float(lost.get("sp_lost", 0)),
        "objective": sum(o for _, _, o in samples),
        "won": 1.0 if outcome is not None and outcome.winner == side else 0.0,
        # secondary, not in the table: game length and objective time per turn end / decision
        "turn_ends": float(len(samples)),
        "objective_per_turn": sum(o for _, _, o in samples) / len(samples),
        "objective_per_decision": statistics.fmean(stood_after) if stood_after else math.nan,
    }


def _bar(done: int, total: int, started: float, label: str) -> None:
    width = 30
    filled = int(width * done / total) if total else width
    spent = time.perf_counter() - started
    left = spent / done * (total - done) if done else 0.0
    sys.stderr.write(
        f"\r{label:<11} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
        f"{spent:6.0f}s, ~{left:5.0f}s left"
    )
    sys.stderr.flush()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="portable/crossroads")
    parser.add_argument("--games", type=int, default=200, help="games per preset (even)")
    parser.add_argument("--playouts", type=int, default=20, help="playouts per decision")
    parser.add_argument("--prior", type=float, default=0.0, help="scripted hint head start")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--max-actions", type=int, default=2000)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument(
        "--interleave",
        action="store_true",
        help="play pair k of every preset before pair k+1 (a cut-short run stays balanced)",
    )
    parser.add_argument("--deadline", type=float, default=None, help="stop after SECONDS")
    parser.add_argument("--jsonl", default=None, help="append each game's row to this file")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--from-jsonl", default=None, help="summarise the games in this file; play none"
    )
    args = parser.parse_args(argv)
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    if args.from_jsonl:
        return _from_jsonl(args, presets)
    sides = list(umpire.new_game(args.game, seed=args.seed).ruleset.meta.players)
    pairs = max(1, args.games // len(sides))
    rows: dict[str, list[dict[str, float]]] = {p: [] for p in presets}
    started = time.perf_counter()
    total = pairs * len(sides) * len(presets)
    done = 0
    order = (
        [(k, p) for k in range(pairs) for p in presets]
        if args.interleave
        else [(k, p) for p in presets for k in range(pairs)]
    )
    stopped = False
    for k, preset in order:
        if args.deadline is not None and time.perf_counter() - started > args.deadline:
            stopped = True
            break
        for side in sides:
            row = play(
                args.game,
                args.seed + k,
                str(side),
                preset,
                args.playouts,
                args.prior,
                args.max_actions,
            )
            rows[preset].append(row)
            if args.jsonl:
                with open(args.jsonl, "a") as out:
                    out.write(
                        json.dumps(
                            {"preset": preset, "seed": args.seed + k, "side": str(side), **row}
                        )
                        + "\n"
                    )
            done += 1
            _bar(done, total, started, preset)
    sys.stderr.write("\n")
    report = summarise(rows, args, time.perf_counter() - started, stopped)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(table(report))
    return report


def _from_jsonl(args: Any, presets: list[str]) -> dict[str, Any]:
    """The report of the games recorded in ``args.from_jsonl`` (rows of one run)."""
    rows: dict[str, list[dict[str, float]]] = {p: [] for p in presets}
    seeds: set[int] = set()
    with open(args.from_jsonl) as source:
        for line in source:
            row = json.loads(line)
            if row["preset"] in rows:
                rows[row.pop("preset")].append(row)
                seeds.add(int(row["seed"]))
    args.seed = min(seeds) if seeds else args.seed
    report = summarise(rows, args, 0.0, False)
    print(json.dumps(report, indent=1) if args.json else table(report))
    return report


def summarise(
    rows: dict[str, list[dict[str, float]]], args: Any, wall: float, stopped: bool
) -> dict[str, Any]:
    stats: dict[str, dict[str, Any]] = {}
    for preset, games in rows.items():
        stats[preset] = {"games": len(games)}
        for metric in METRICS:
            values = [g[metric] for g in games if not math.isnan(g[metric])]
            stats[preset][metric] = interval(values)
        stats[preset]["won"] = wilson(sum(g["won"] for g in games), len(games))
    checks = []
    for metric, low, high in DIRECTIONS:
        if low not in stats or high not in stats:
            continue
        a, b = stats[low][metric], stats[high][metric]
        checks.append(
            {
                "metric": metric,
                "claim": f"{low} < {high}",
                "means_in_order": a[0] < b[0],
                "separated": a[2] < b[1],
            }
        )
    return {
        "game": args.game,
        "playouts": args.playouts,
        "prior": args.prior,
        "seed": args.seed,
        "stopped_early": stopped,
        "wall_s": wall,
        "presets": stats,
        "checks": checks,
    }


def table(report: dict[str, Any]) -> str:
    lines = [
        f"{report['game']}, {report['playouts']} playouts a decision, hint {report['prior']}, "
        f"vs scripted, seeds from {report['seed']}"
        + (" (stopped at the deadline)" if report["stopped_early"] else ""),
        "| preset | games | distance to enemy | exposed share | SP lost | objective-turns | won |",
        "|---|--:|---|---|---|---|--:|",
    ]
    for preset, s in report["presets"].items():
        cells = [f"{s[m][0]:.2f} ({s[m][1]:.2f}–{s[m][2]:.2f})" for m in METRICS]
        won = s["won"]
        lines.append(
            f"| {preset} | {s['games']} | "
            + " | ".join(cells)
            + f" | {won[0]:.2f} ({won[1]:.2f}–{won[2]:.2f}) |"
        )
    for c in report["checks"]:
        verdict = "holds" if c["separated"] else ("means only" if c["means_in_order"] else "FAILS")
        lines.append(
            f"{c['metric']}: {c['claim']}: {verdict} (95 % intervals "
            f"{'do not overlap' if c['separated'] else 'overlap'})"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main(sys.argv[1:])
