"""A/B of Seven Days games between two source trees: CPU time or instructions, same seeds.

    git worktree add /tmp/baseline ce75f5a          # the pre-core code (issue 12's baseline)
    python3 bench/bench_sevendays_ab.py --baseline /tmp/baseline --games 20 --rounds 3
    python3 bench/bench_sevendays_ab.py --baseline /tmp/baseline --agents random
    python3 bench/bench_sevendays_ab.py --baseline /tmp/baseline --instructions --games 8
    python3 bench/bench_sevendays_ab.py --baseline /tmp/before --same-games   # + identical games?

Each side is played in its own process with ``PYTHONPATH=<tree>/src`` pinned to one core
(``taskset -c CPU``), the sides taking turns round after round so that both see the same
machine load. Per round it prints each side's CPU seconds for the same seeds (process time,
not wall time: the machine is shared) and the speed ratio ``baseline time / candidate time``
(above 1: the candidate is faster). ``--instructions`` counts instructions with valgrind's
callgrind instead (immune to load, about 50x slower; instrumentation is switched on with
``callgrind_control`` only after the imports and the warm-up game).

``--same-games`` also checks that both trees play identical games (per seed, the sha256 of
the full event stream); only meaningful between trees with the same rules, e.g. a change
against the commit before it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO = HERE.parent.parent


def _worker(scenario: str, agents: str, seeds: list[int]) -> None:
    """Play ``seeds`` (after one warm-up game) and print per-game CPU time and event digests."""
    import hashlib

    import umpire
    import umpire.core.events as events_module
    from umpire.agents import make_agent
    from umpire.play import play_out

    # the pre-core trees keep events as plain dicts
    to_dicts: Any = getattr(events_module, "to_dicts", list)

    def one(seed: int) -> tuple[float, Any]:
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
        start = time.process_time()
        play_out(game, players)
        return time.process_time() - start, game

    def digest(game: Any) -> str:
        return hashlib.sha256(
            json.dumps(to_dicts(game.events), sort_keys=True).encode()
        ).hexdigest()

    one(seeds[0] - 1 if seeds else 999)  # warm-up: data files, caches of the scenario
    counting = os.environ.get("BENCH_CALLGRIND") == "1"
    if counting:  # count instructions from here on only (imports and warm-up left out)
        _callgrind("-i", "on")
    games = [one(s) for s in seeds]
    if counting:
        _callgrind("-i", "off")
    print(
        json.dumps(
            {
                "cpu": [g[0] for g in games],
                "actions": [len(g[1].record.actions) for g in games],
                "digests": [digest(g[1]) for g in games],
                "module": umpire.__file__,
            }
        )
    )


def _callgrind(*args: str) -> None:
    """Tell the callgrind this process runs under to switch instrumentation on or off."""
    subprocess.run(["callgrind_control", *args, str(os.getpid())], check=True, capture_output=True)


def _run(tree: Path, args: argparse.Namespace, seeds: list[int], valgrind: bool) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), PYTHONHASHSEED="0")
    cmd = [
        sys.executable,
        str(HERE),
        "--worker",
        "--scenario",
        args.scenario,
        "--agents",
        args.agents,
        "--seeds",
        ",".join(map(str, seeds)),
    ]
    out_file = None
    if valgrind:
        handle, out_file = tempfile.mkstemp(prefix="callgrind.")
        os.close(handle)
        cmd = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out_file}",
            *cmd,
        ]
        env["BENCH_CALLGRIND"] = "1"
    cmd = ["taskset", "-c", str(args.cpu), *cmd]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: worker failed\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    if not result["module"].startswith(str(tree)):
        raise SystemExit(f"{tree}: imported umpire from {result['module']}, not this tree")
    if out_file is not None:
        text = Path(out_file).read_text(encoding="utf-8", errors="replace")
        Path(out_file).unlink()
        found = re.search(r"^totals: (\d+)", text, re.M) or re.search(
            r"^summary: (\d+)", text, re.M
        )
        if found is None:
            raise SystemExit("no instruction total in callgrind's output")
        result["instructions"] = int(found.group(1))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, default=Path("/tmp/baseline"))
    parser.add_argument("--candidate", type=Path, default=REPO)
    parser.add_argument("--scenario", default="meeting-engagement")
    parser.add_argument("--agents", choices=["scripted", "random"], default="scripted")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cpu", type=int, default=0)
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--same-games", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seeds", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args.scenario, args.agents, [int(s) for s in args.seeds.split(",") if s])
        return

    sides = {"baseline": args.baseline.resolve(), "candidate": args.candidate.resolve()}
    print(
        f"sevendays/{args.scenario}, {args.agents} vs {args.agents}, {args.games} games a "
        f"round, cpu {args.cpu}; baseline {sides['baseline']}, candidate {sides['candidate']}"
    )
    ratios: list[float] = []
    digests: dict[str, list[str]] = {}
    rounds = 1 if args.instructions else args.rounds
    for round_no in range(rounds):
        seeds = list(
            range(args.seed + round_no * args.games, args.seed + (round_no + 1) * args.games)
        )
        cost: dict[str, float] = {}
        for name, tree in sides.items():
            result = _run(tree, args, seeds, args.instructions)
            digests[name] = digests.get(name, []) + result["digests"]
            actions = statistics.mean(result["actions"])
            if args.instructions:
                cost[name] = result["instructions"] / args.games
                print(
                    f"  {name:9s} {cost[name] / 1e6:8.1f} M instructions a game "
                    f"({actions:.0f} actions a game)"
                )
            else:
                cost[name] = sum(result["cpu"]) / args.games
                print(
                    f"  round {round_no + 1} {name:9s} {cost[name] * 1000:7.1f} ms CPU a game, "
                    f"{1 / cost[name]:6.1f} games/s/core ({actions:.0f} actions a game)"
                )
        ratios.append(cost["baseline"] / cost["candidate"])
        print(f"  round {round_no + 1} speed ratio candidate/baseline: {ratios[-1]:.3f}x")
    print(
        f"speed of the candidate relative to the baseline ({args.agents}): "
        f"median {statistics.median(ratios):.3f}x, range {min(ratios):.3f}-{max(ratios):.3f}x"
        f" over {len(ratios)} round(s)"
    )
    if args.same_games:
        same = sum(a == b for a, b in zip(digests["baseline"], digests["candidate"], strict=True))
        total = len(digests["baseline"])
        print(f"identical event streams: {same}/{total} games")
        if same != total:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
