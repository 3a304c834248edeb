"""Web table under load: concurrent games driven over HTTP on loopback for a bounded time.

Starts ``umpire.server.main:create_app`` under uvicorn in a child process with a fresh SQLite
database, creates ``--games`` games (both sides played over their own links, no AI), and lets
one client per game play legal actions (chosen from the seat's view) as fast as it can for
``--seconds``. Reports p50/p95/p99 of the action round trip (POST to committed 200) and checks,
against the database, that no accepted action was lost or stored twice; every few actions a
client re-sends its last submission, which must get 409 and change nothing.

    python3 bench/bench_server.py --games 20 --seconds 20
    python3 bench/bench_server.py --games 20 --seconds 20 --ai 4 --ai-kind search@1
    python3 bench/bench_server.py --games 20 --seconds 20 --profile /tmp/server.prof

It also prints the server's CPU time per accepted action (from ``/proc``: a figure that the
machine's other load disturbs much less than the latencies), the CPU time of this process (the
clients, which share the machine's cores with the server), the load average, and the garbage
collector's passes in the server during the timed window (count per generation, total and
longest pause). The server runs as ``umpire serve`` runs it (``create_app(collector=True)``:
rulesets loaded and frozen at start-up, the young generation collected less often); with
``--collector default`` at CPython's default collector settings, to compare. It also prints
the p50/p95/p99 of the server-side handling of each action (from the app's first look at the
request to its answer sent), which leaves out the time a request waits before the server's
event loop reads it and the clients' own delays: on a loaded machine the round trip is mostly
those. With ``--ai
N`` the server's AI also plays N games against itself (``--ai-kind``, ``--ai-delay`` seconds
between its moves, the server's default 0.5) while the players' actions are timed: its think
runs in the AI's own threads and must not show in the players' p95.

With ``--profile FILE`` the server runs under cProfile (its event-loop thread, where the
request handlers run; the round trips are then slower than without) and the functions with
the most own time and the most cumulative time are printed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

SERVER = """
import cProfile, gc, inspect, json, signal, sys, time, uvicorn
from pathlib import Path
from umpire.server.main import create_app
profile = cProfile.Profile() if sys.argv[3] else None
options = {}
if "collector" in inspect.signature(create_app).parameters:  # a tree from before it: default
    options["collector"] = sys.argv[5] == "server"
app = create_app(Path(sys.argv[1]), ai_delay=float(sys.argv[4]), **options)
paused = {"start": 0.0, "total": 0.0, "longest": 0.0, "count": [0, 0, 0],
          "setting": "server" if options.get("collector") else "default"}
def note(phase, info):  # the collector's passes in this process (its event loop included)
    if phase == "start":
        paused["start"] = time.perf_counter()
    else:
        took = time.perf_counter() - paused["start"]
        paused["total"] += took
        paused["longest"] = max(paused["longest"], took)
        paused["count"][info["generation"]] += 1
gc.callbacks.append(note)
handled = []  # seconds each POST .../actions spent in the app (its handling, no queueing)
inner = app
async def timed(scope, receive, send):
    action = scope["type"] == "http" and scope["method"] == "POST"
    if not (action and scope["path"].endswith("/actions")):
        return await inner(scope, receive, send)
    start = time.perf_counter()
    try:
        await inner(scope, receive, send)
    finally:
        handled.append(time.perf_counter() - start)
app = timed
def report(*_):
    Path(sys.argv[6]).write_text(json.dumps({**paused, "handled": handled}))
    handled.clear()
signal.signal(signal.SIGUSR1, report)
if profile is not None:
    profile.enable()
try:  # uvicorn re-raises the signal that stopped it: SIGINT, so that this finally runs
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
finally:
    if profile is not None:
        profile.disable()
        profile.dump_stats(sys.argv[3])
"""


def print_profile(path: str, top: int = 15) -> None:
    import pstats

    for key in ("tottime", "cumulative"):
        print(f"server profile, top {top} by {key}:")
        pstats.Stats(path, stream=sys.stdout).strip_dirs().sort_stats(key).print_stats(top)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process ``pid`` has used (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def collector_passes(pid: int, path: Path | None) -> dict[str, Any]:
    """The server's collector passes so far (it writes them to ``path`` on SIGUSR1)."""
    empty: dict[str, Any] = {"count": [0, 0, 0], "total": 0.0, "longest": 0.0}
    if path is None:
        return empty
    path.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR1)
    for _ in range(100):
        try:
            data: dict[str, Any] = json.loads(path.read_text())
            return data
        except (OSError, ValueError):
            time.sleep(0.02)
    return empty


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def loop_lag(stop_at: float, lags: list[float], every: float = 0.005) -> None:
    """How late the clients' own event loop wakes from a short sleep, until ``stop_at``: a
    round trip's answer waits that long too before a client reads it (busy clients, or this
    process not scheduled on a loaded machine)."""
    while time.monotonic() < stop_at:
        start = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - start - every)


async def play(
    client: httpx.AsyncClient,
    game: dict[str, Any],
    stop_at: float,
    seed: int,
    latencies: list[tuple[float, float]],
    accepted: dict[str, list[dict[str, Any]]],
    duplicates: list[int],
    think: float,
) -> None:
    rng = random.Random(seed)
    seats = {s["sides"][0]: f"/api/games/{game['id']}/seats/{s['token']}" for s in game["seats"]}
    sent: list[dict[str, Any]] = accepted.setdefault(game["id"], [])
    view = (await client.get(next(iter(seats.values())) + "/view?since=0")).json()
    while time.monotonic() < stop_at and view["to_act"] is not None:
        seat = seats[view["to_act"]]
        view = (await client.get(seat + f"/view?since={view['index']}")).json()
        if not view["actions"]:
            break
        if think:  # a player looks at the table before the next click
            await asyncio.sleep(rng.uniform(0, 2 * think))
        action = rng.choice(view["actions"])["action"]
        body = {"index": view["index"], "action": action}
        start = time.perf_counter()
        r = await client.post(seat + "/actions", json=body)
        latencies.append((time.monotonic(), time.perf_counter() - start))
        if r.status_code != 200:
            raise RuntimeError(f"game {game['id']}: {r.status_code} {r.text}")
        sent.append(action)
        if len(sent) % 7 == 0:  # the same submission again: refused, nothing stored twice
            again = await client.post(seat + "/actions", json=body)
            duplicates.append(again.status_code)
        view = {"index": r.json()["index"], "to_act": r.json()["to_act"]}


async def run(
    url: str,
    games: int,
    seconds: float,
    ruleset: str,
    scenario: str,
    think: float,
    server_pid: int,
    ai_games: int = 0,
    ai_kind: str = "ai",
    gc_file: Path | None = None,
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=games * 2, max_keepalive_connections=games * 2)
    sides = ("nato", "pact") if ruleset == "sevendays" else ("blue", "red")
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        made = []
        for i in range(games):
            r = await client.post(
                "/api/games",
                json={
                    "ruleset": ruleset,
                    "scenario": scenario,
                    "seed": i,
                    "players": {side: "remote" for side in sides},
                },
            )
            r.raise_for_status()
            made.append(r.json())
        latencies: list[tuple[float, float]] = []
        accepted: dict[str, list[dict[str, Any]]] = {}
        duplicates: list[int] = []
        cpu_before = cpu_seconds(server_pid)
        client_before = time.process_time()
        gc_before = collector_passes(server_pid, gc_file)
        begin = time.monotonic()
        stop_at = begin + seconds
        started = time.perf_counter()
        ai_made = []
        for i in range(ai_games):  # played by the server's AI alongside the players' games
            r = await client.post(
                "/api/games",
                json={
                    "ruleset": ruleset,
                    "scenario": scenario,
                    "seed": 1000 + i,
                    "players": {side: ai_kind for side in sides},
                },
            )
            r.raise_for_status()
            ai_made.append(r.json()["id"])
        lags: list[float] = []
        watch = asyncio.get_running_loop().create_task(loop_lag(stop_at, lags))
        await asyncio.gather(
            *(
                play(client, g, stop_at, i, latencies, accepted, duplicates, think)
                for i, g in enumerate(made)
            )
        )
        watch.cancel()
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(server_pid) - cpu_before
        client_cpu = time.process_time() - client_before
        gc_after = collector_passes(server_pid, gc_file)
    return {
        "client_lag": lags,
        "client_cpu": client_cpu,
        "gc": {
            "count": [a - b for a, b in zip(gc_after["count"], gc_before["count"], strict=True)],
            "total": gc_after["total"] - gc_before["total"],
            "longest": gc_after["longest"],
            "longest_before": gc_before["longest"],
            "setting": gc_after.get("setting", "unknown"),
            "handled": gc_after.get("handled", []),
        },
        "latencies": [(at - begin, lat) for at, lat in latencies],
        "accepted": accepted,
        "duplicates": duplicates,
        "elapsed": elapsed,
        "server_cpu": cpu,
        "ai_games": ai_made,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="sevendays/meeting-engagement")
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="seconds at the start (server caches filling) reported apart from the steady state",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.25,
        help="mean seconds a player looks before each order (0: flat out, a throughput test)",
    )
    parser.add_argument(
        "--ai",
        type=int,
        default=0,
        help="games the server's AI plays against itself alongside (their think must not "
        "slow the players' actions)",
    )
    parser.add_argument("--ai-kind", default="ai", help="the AI's lobby kind: ai, search@SECONDS")
    parser.add_argument(
        "--ai-delay",
        type=float,
        default=0.5,
        help="the server's pause between AI actions (its default: a player sees them play out)",
    )
    parser.add_argument("--profile", help="run the server under cProfile and save the stats here")
    parser.add_argument(
        "--collector",
        choices=("server", "default"),
        default="server",
        help="the server's garbage collector: as umpire serve sets it (server) or CPython's "
        "default settings",
    )
    args = parser.parse_args()
    ruleset, scenario = args.game.split("/")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        port = free_port()
        env = dict(os.environ)
        gc_file = Path(tmp) / "collector.json"
        server_args = [
            str(db),
            str(port),
            args.profile or "",
            str(args.ai_delay),
            args.collector,
            str(gc_file),
        ]
        proc = subprocess.Popen([sys.executable, "-c", SERVER, *server_args], env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(url + "/api/rulesets", timeout=2).raise_for_status()
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            load_before = load_average()
            result = asyncio.run(
                run(
                    url,
                    args.games,
                    args.seconds,
                    ruleset,
                    scenario,
                    args.think,
                    proc.pid,
                    args.ai,
                    args.ai_kind,
                    gc_file,
                )
            )
        finally:
            if args.profile:
                proc.send_signal(signal.SIGINT)
                proc.wait(timeout=60)
            else:
                proc.terminate()
                proc.wait(timeout=10)
        con = sqlite3.connect(db)
        lost = doubled = 0
        for game_id, actions in result["accepted"].items():
            rows = con.execute(
                "SELECT idx, action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)
            ).fetchall()
            stored = [json.loads(a) for _, a in rows]
            if [i for i, _ in rows] != list(range(len(rows))):
                doubled += 1
            if stored != actions:
                lost += 1
        ai_actions = sum(
            con.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (g,)).fetchone()[0]
            for g in result["ai_games"]
        )
        con.close()
    every = [lat for _, lat in result["latencies"]]
    steady = [lat for at, lat in result["latencies"] if at >= args.warmup]
    if not every:
        raise SystemExit("no action was played")

    def q(values: list[float], p: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000

    dup = result["duplicates"]
    print(
        f"{args.games} concurrent games of {args.game} for {args.seconds:g}s over HTTP "
        f"(loopback), think time {args.think:g}s mean"
    )
    print(f"load average before: {load_before}; after: {load_average()} (on this machine)")
    print(f"actions accepted: {len(every)} ({len(every) / result['elapsed']:.0f}/s)")
    print(
        f"server CPU: {result['server_cpu']:.1f} s, {result['server_cpu'] / len(every) * 1000:.2f}"
        " ms per accepted action (its view, the action, re-sent copies and any AI games)"
    )
    print(
        f"client CPU (this process, the {args.games} players): {result['client_cpu']:.1f} s, "
        f"{result['client_cpu'] / len(every) * 1000:.2f} ms per accepted action"
    )
    passes = result["gc"]
    print(
        f"server's garbage collector ({passes['setting']}) in the timed window: passes by "
        f"generation {passes['count']}, {passes['total'] * 1000:.0f} ms in all, longest "
        f"{passes['longest'] * 1000:.1f} ms (longest before it, start-up included: "
        f"{passes['longest_before'] * 1000:.1f} ms)"
    )
    if args.ai:
        print(
            f"AI games alongside: {args.ai} ({args.ai_kind}, {args.ai_delay:g}s between moves), "
            f"{ai_actions} AI actions stored"
        )
    for label, values in (("all", every), (f"after {args.warmup:g}s warm-up", steady)):
        if values:
            print(
                f"action round trip ({label}, {len(values)}): p50 {q(values, 0.5):.1f} ms, "
                f"p95 {q(values, 0.95):.1f} ms, p99 {q(values, 0.99):.1f} ms, "
                f"mean {statistics.fmean(values) * 1000:.1f} ms"
            )
    lag = result["client_lag"]
    if lag:
        print(
            f"clients' event loop, late waking from a {5:d} ms sleep ({len(lag)}): p50 "
            f"{q(lag, 0.5):.1f} ms, p95 {q(lag, 0.95):.1f} ms, p99 {q(lag, 0.99):.1f} ms"
        )
    handled = passes["handled"]
    if handled:
        print(
            f"server-side handling of POST .../actions in the window ({len(handled)}, from the "
            f"app's first look at the request to its answer sent: no queueing before it): p50 "
            f"{q(handled, 0.5):.1f} ms, p95 {q(handled, 0.95):.1f} ms, "
            f"p99 {q(handled, 0.99):.1f} ms"
        )
    print(f"re-sent submissions: {len(dup)}, all refused with 409: {all(c == 409 for c in dup)}")
    print(f"games whose stored record differs from what was accepted: {lost}; gaps: {doubled}")
    ok = lost == 0 and doubled == 0 and all(c == 409 for c in dup)
    print(
        "no action lost or applied twice" if ok else "FAILED: the store disagrees with the clients"
    )
    if args.profile:
        print_profile(args.profile)
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
