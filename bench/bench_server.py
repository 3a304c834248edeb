"""Web table under load: concurrent games driven over HTTP on loopback for a bounded time.

Starts ``umpire.server.main:create_app`` under uvicorn in a child process with a fresh SQLite
database, creates ``--games`` games (both sides played over their own links, no AI), and lets
one client per game play legal actions (chosen from the seat's view) as fast as it can for
``--seconds``. Reports p50/p95/p99 of the action round trip (POST to committed 200) and checks,
against the database, that no accepted action was lost or stored twice; every few actions a
client re-sends its last submission, which must get 409 and change nothing.

    python3 bench/bench_server.py --games 20 --seconds 20
    python3 bench/bench_server.py --games 20 --seconds 20 --profile /tmp/server.prof

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
import cProfile, sys, uvicorn
from pathlib import Path
from umpire.server.main import create_app
profile = cProfile.Profile() if len(sys.argv) > 3 else None
app = create_app(Path(sys.argv[1]), ai_delay=0.0)
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    url: str, games: int, seconds: float, ruleset: str, scenario: str, think: float
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=games * 2, max_keepalive_connections=games * 2)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        made = []
        for i in range(games):
            r = await client.post(
                "/api/games",
                json={
                    "ruleset": ruleset,
                    "scenario": scenario,
                    "seed": i,
                    "players": {"nato": "remote", "pact": "remote"}
                    if ruleset == "sevendays"
                    else {"blue": "remote", "red": "remote"},
                },
            )
            r.raise_for_status()
            made.append(r.json())
        latencies: list[tuple[float, float]] = []
        accepted: dict[str, list[dict[str, Any]]] = {}
        duplicates: list[int] = []
        begin = time.monotonic()
        stop_at = begin + seconds
        started = time.perf_counter()
        await asyncio.gather(
            *(
                play(client, g, stop_at, i, latencies, accepted, duplicates, think)
                for i, g in enumerate(made)
            )
        )
        elapsed = time.perf_counter() - started
    return {
        "latencies": [(at - begin, lat) for at, lat in latencies],
        "accepted": accepted,
        "duplicates": duplicates,
        "elapsed": elapsed,
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
    parser.add_argument("--profile", help="run the server under cProfile and save the stats here")
    args = parser.parse_args()
    ruleset, scenario = args.game.split("/")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        port = free_port()
        env = dict(os.environ)
        extra = [args.profile] if args.profile else []
        proc = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port), *extra], env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(url + "/api/rulesets", timeout=2).raise_for_status()
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            result = asyncio.run(run(url, args.games, args.seconds, ruleset, scenario, args.think))
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
    print(f"actions accepted: {len(every)} ({len(every) / result['elapsed']:.0f}/s)")
    for label, values in (("all", every), (f"after {args.warmup:g}s warm-up", steady)):
        if values:
            print(
                f"action round trip ({label}, {len(values)}): p50 {q(values, 0.5):.1f} ms, "
                f"p95 {q(values, 0.95):.1f} ms, p99 {q(values, 0.99):.1f} ms, "
                f"mean {statistics.fmean(values) * 1000:.1f} ms"
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
