"""Monte Carlo throughput of ``umpire simulate``: N workers, 1 worker and the bare game loop.

    python bench/bench_simulate.py --games 1000 --workers 2
    python bench/bench_simulate.py --games 10000 --workers 2 --only-parallel
    python bench/bench_simulate.py --game portable/crossroads --games 200 --loop-games 40

Plays the same seeded games (scripted vs scripted, the Meeting Engagement unless ``--game``)
with ``--workers`` workers and with 1 worker, checks that both runs give identical results, and
reports games/s, per-worker throughput and the scaling (target >= 1.8x with 2 workers on this
2-core machine; aim: 10,000 games in under 30 s, issue 19). With fewer than 10,000 games the
10,000-game time is an extrapolation (printed as such).

What ``simulate`` costs besides the games: the bare game loop (``2 * --loop-games`` games of
another seed, each timed from its first decision to its end as ``bench_games.py`` does, turn
about with CPython's default collector and with the quiet collector ``simulate`` plays under) is
compared per decision with the CPU time of each ``simulate`` run (its worker processes' CPU, or
this process's for 1 worker, over the decisions of its games). The machine is shared, so the
wall-clock rates swing; the CPU times per decision and the ratios within one run are steadier.

The peak resident memory of the largest child process (a ``simulate`` worker; target < 150 MB)
is read from ``getrusage(RUSAGE_CHILDREN)`` after the parallel run; the number of worker
processes started (replacements of workers grown past their limit included) is printed with it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import resource
import time
from typing import Any

import umpire.play
from umpire.agents.base import make_agent
from umpire.analysis.simulate import (
    RECYCLE_GROWTH_MB,
    RECYCLE_MB,
    Job,
    game_seeds,
    quiet_collector,
    run_local,
)
from umpire.core.game import new_game
from umpire.core.ruleset import split_game_id
from umpire.play import play_out


def cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def timed(
    job: Job, workers: int, stats: dict[str, int] | None = None
) -> tuple[float, float, list[dict[str, Any]]]:
    """Wall seconds, CPU seconds (the workers', or this process's for 1 worker) and rows."""
    who = resource.RUSAGE_SELF if workers == 1 else resource.RUSAGE_CHILDREN
    cpu0, start = cpu(who), time.perf_counter()
    rows = run_local(job, workers, stats=stats)
    return time.perf_counter() - start, cpu(who) - cpu0, rows


def loop_cpu(job: Job, games: int) -> dict[bool, tuple[float, int, int]]:
    """The bare loop, ``play_out`` only as ``bench_games.py`` times it, over ``2 * games``
    games of ``job``'s seed, turn about with CPython's default collector (``False``) and with
    simulate's quiet one (``True``): for each, CPU seconds, decisions and games (each game is
    played once: a process that plays a game again finds its positions cached)."""
    ruleset_id, _ = split_game_id(job.game_id)
    players = job.players()
    spent = {False: [0.0, 0, 0], True: [0.0, 0, 0]}
    for index, seed in enumerate(game_seeds(job.seed, 2 * games)):
        quiet = index % 2 == 1
        game = new_game(job.game_id, seed=seed, options=dict(job.options))
        game.record.players = dict(players)
        agents = {side: make_agent(kind, ruleset_id, side, seed) for side, kind in players.items()}
        # play_out plays under core.collector's quiet collector itself: the default-collector
        # games are played with it switched off (umpire.play.quiet_collector: a no-op)
        names = vars(umpire.play)
        saved = names["quiet_collector"]
        if not quiet:
            names["quiet_collector"] = contextlib.nullcontext
        try:
            with quiet_collector() if quiet else contextlib.nullcontext():
                start = time.process_time()
                play_out(game, agents)
                spent[quiet][0] += time.process_time() - start
        finally:
            names["quiet_collector"] = saved
        spent[quiet][1] += len(game.record.actions)
        spent[quiet][2] += 1
    return {k: (float(v[0]), int(v[1]), int(v[2])) for k, v in spent.items()}


def outside_cpu(job: Job, games: int) -> tuple[float, float, int]:
    """CPU seconds of ``games`` calls of simulate's own ``play_game`` (what a worker runs for
    each game) and, of that, the seconds inside ``play_out`` (the rules and the players),
    under simulate's collector: the rest is what ``simulate`` adds to a game besides the
    engine (the new game, the agents, noting the first player, the summary and the row)."""
    import umpire.analysis.simulate as simulate

    inside = [0.0]
    real_play_out = simulate.play_out

    def timed_play_out(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return real_play_out(*args, **kwargs)
        finally:
            inside[0] += time.process_time() - start

    players = job.players()
    simulate.play_out = timed_play_out  # type: ignore[assignment]
    total = 0.0
    try:
        with quiet_collector():
            for index, seed in enumerate(game_seeds(job.seed, games)):
                start = time.process_time()
                simulate.play_game(job.game_id, job.options, players, index, seed)
                total += time.process_time() - start
    finally:
        simulate.play_out = real_play_out  # type: ignore[assignment]
    return total, inside[0], games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sevendays/meeting-engagement")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only-parallel", action="store_true", help="skip the 1-worker run")
    parser.add_argument(
        "--loop-games",
        type=int,
        default=20,
        help="games of the bare-loop reference with each collector (0: none)",
    )
    args = parser.parse_args()
    job = Job(args.game, n=args.games, seed=args.seed)
    stats: dict[str, int] = {}
    many_s, many_cpu, many = timed(job, args.workers, stats)
    rate_many = args.games / many_s
    print(
        f"{args.game}: {args.games} games, {args.workers} workers: {many_s:.1f} s = "
        f"{rate_many:.1f} games/s ({rate_many / args.workers:.1f} games/s/worker; "
        f"{many_cpu / args.games * 1000:.1f} ms worker CPU a game); 10,000 games would take "
        f"{10_000 / rate_many:.1f} s"
        + (" (extrapolated)" if args.games < 10_000 else "")
        + " (target < 30 s)"
    )
    print(
        f"at this CPU cost a game, 10,000 games on {args.workers} free cores would take "
        f"{10_000 * many_cpu / args.games / args.workers:.0f} s (the wall time above also "
        f"counts the other work on a shared machine)"
    )
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    one_cpu = None
    if not args.only_parallel:
        one_s, one_cpu, one = timed(job, 1)
        rate_one = args.games / one_s
        print(
            f"{args.games} games, 1 worker: {one_s:.1f} s = {rate_one:.1f} games/s "
            f"({one_cpu / args.games * 1000:.1f} ms CPU a game)"
        )
        print(
            f"scaling {args.workers} vs 1 worker: {rate_many / rate_one:.2f}x wall "
            f"(target >= 1.8x); identical results: {one == many}"
        )
    if args.loop_games:
        # other seeds than the runs': a process that has played a game finds its positions
        # cached when it plays it again; compared per decision, as the games differ
        loop_job = Job(args.game, n=args.loop_games, seed=args.seed + 1)
        gc.collect()
        loop = loop_cpu(loop_job, args.loop_games)
        (plain_s, plain_n, plain_g), (quiet_s, quiet_n, quiet_g) = loop[False], loop[True]
        plain, quiet = plain_s / plain_n, quiet_s / quiet_n
        print(
            f"bare game loop ({2 * args.loop_games} games of seed {loop_job.seed} turn about, "
            f"one core): default collector {plain * 1e6:.0f} us CPU a decision, "
            f"{plain_s / plain_g * 1000:.1f} ms a game ({plain_g / plain_s:.1f} games/s/core); "
            f"simulate's quiet collector {quiet * 1e6:.0f} us a decision, "
            f"{quiet_s / quiet_g * 1000:.1f} ms a game ({quiet_g / quiet_s:.1f} games/s/core): "
            f"{plain / quiet:.2f}x"
        )
        decisions = sum(int(r["actions"]) for r in many)
        for label, spent in (("1 worker", one_cpu), (f"{args.workers} workers", many_cpu)):
            if spent is not None:
                per = spent / decisions
                print(
                    f"simulate, {label}: {per * 1e6:.0f} us CPU a decision "
                    f"({decisions / args.games:.0f} decisions a game) = {per / plain:.2f}x the "
                    f"default-collector loop's, {per / quiet:.2f}x the quiet loop's"
                )
    if args.loop_games:
        total, inside, games = outside_cpu(Job(args.game, n=1, seed=args.seed + 2), args.loop_games)
        print(
            f"simulate's own work a game, outside the engine ({games} games of seed "
            f"{args.seed + 2} in this process: new game, agents, first player, summary, row): "
            f"{(total - inside) / games * 1000:.2f} ms of {total / games * 1000:.1f} ms "
            f"({(total - inside) / total * 100:.1f} %)"
        )
    where = "largest worker process" if peak_kb else "no child process ran"
    print(
        f"peak RSS, {where}: {peak_kb / 1024:.0f} MB (target < 150 MB); worker processes "
        f"started: {stats.get('workers_started', 0)} for {args.workers} workers "
        f"(replaced past {RECYCLE_MB:.0f} MB, or {RECYCLE_GROWTH_MB:.0f} MB above their start)"
    )


if __name__ == "__main__":
    main()
