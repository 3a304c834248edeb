"""How Seven Days games grow with the number of units, and the engine against a bare loop.

    taskset -c 0 python3 bench/bench_sevendays_scale.py --games 4
    taskset -c 0 python3 bench/bench_sevendays_scale.py --sizes 26 --games 20   # ratio only

The Meeting Engagement is rebuilt at 12, 26, 52 and 104 units (issue 19): 26 is the scenario
as it is; 52 and 104 lay two and four copies of its table side by side (a 144" or 288" wide
table, terrain, roads, objectives and both forces copied with new ids, so the density of the
battle stays the same); 12 keeps the west half of the table and the six units of each side
nearest it. Scripted players on both sides. For each size it prints the CPU time per game,
the decisions per game and the time per decision, then the growth exponent of the time per
game between sizes (``log(t2/t1) / log(n2/n1)``; the issue's target is at most 1.15).

It also plays a *bare loop* of the same size in the same process: a plain-Python d10 battle
(every unit of the side to act picks the nearest enemy and rolls to hit it, the side that
loses half its units first loses, 7 turns) with about as many decisions as the engine's game,
and prints engine/bare-loop (the engine's games per CPU second over the bare loop's), since
absolute times on this shared machine swing 3x while a ratio taken in one run does not.

With ``--baseline TREE`` it compares two source trees in one run (the baseline, e.g. a ``git
worktree add /tmp/base HEAD~3``, against ``--candidate``, this checkout by default): for each
size each tree plays the same seeds in its own process (``PYTHONPATH=<tree>/src``, pinned to
``--cpu``), the trees taking turns size after size so both see the same machine load; it
prints both trees' times and growth exponents and whether they played the same games::

    python3 bench/bench_sevendays_scale.py --baseline /tmp/base --games 3 --cpu 0

With ``--instructions`` each tree's games are counted in instructions by valgrind's callgrind
instead of timed (immune to the load of a shared machine, about 50x slower; counting starts
after the imports and the warm-up game, and the games' digests are taken after it stops), and
the growth exponents are those of the instructions a game::

    python3 bench/bench_sevendays_scale.py --baseline /tmp/base --games 2 --instructions
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

import umpire
from umpire.agents import make_agent
from umpire.play import play_out
from umpire.rulesets.sevendays.scenario import scenario_path

BASE_WIDTH = 72.0


def _shift(points: list[list[float]], dx: float) -> list[list[float]]:
    return [[x + dx, y] for x, y in points]


def _shape(terrain: dict[str, Any], dx: float) -> dict[str, Any]:
    out = dict(terrain)
    if "polygon" in out:
        out["polygon"] = _shift(out["polygon"], dx)
    elif "rect" in out:
        x0, y0, x1, y1 = out["rect"]
        out["rect"] = [x0 + dx, y0, x1 + dx, y1]
    elif "circle" in out:
        (cx, cy), r = out["circle"]
        out["circle"] = [[cx + dx, cy], r]
    return out


def _xs(terrain: dict[str, Any]) -> list[float]:
    if "polygon" in terrain:
        return [p[0] for p in terrain["polygon"]]
    if "rect" in terrain:
        return [terrain["rect"][0], terrain["rect"][2]]
    (cx, _), r = terrain["circle"]
    return [cx - r, cx + r]


def scaled_scenario(units: int, folder: Path) -> str:
    """A path to the Meeting Engagement rebuilt with ``units`` units (12, 26, 52 or 104)."""
    data = yaml.safe_load(scenario_path("meeting-engagement").read_text(encoding="utf-8"))
    if units == 26:
        return "meeting-engagement"
    data["id"] = f"meeting-engagement-{units}"
    data["name"] = f"Meeting Engagement, {units} units"
    if units == 12:
        half = BASE_WIDTH / 2
        data["table"]["width"] = half
        data["terrain"] = [t for t in data["terrain"] if max(_xs(t)) <= half]
        data["objectives"] = [o for o in data["objectives"] if o["at"][0] <= half]
        data["roads"] = [
            {**r, "path": [p for p in r["path"] if p[0] < half] + [[half, 24]]}
            for r in data["roads"]
            if r["id"] == "east-west-road"
        ]
        for side in data["sides"].values():
            near = sorted(side["units"], key=lambda u: (abs(u["at"][0] - half / 2), u["id"]))
            side["units"] = [
                dict(u, commander=i == 0, at=[min(u["at"][0], half - 2 - 3 * i), u["at"][1]])
                for i, u in enumerate(near[:6])
            ]
        return _write(data, folder)
    copies = units // 26
    if copies * 26 != units:
        raise SystemExit(f"sizes are 12 or a multiple of 26, not {units}")
    data["table"]["width"] = BASE_WIDTH * copies
    terrain, objectives, roads = [], [], []
    sides: dict[str, list[dict[str, Any]]] = {name: [] for name in data["sides"]}
    for i in range(copies):
        dx = BASE_WIDTH * i
        tag = "" if i == 0 else f"-{i + 1}"
        terrain += [dict(_shape(t, dx), id=t["id"] + tag) for t in data["terrain"]]
        objectives += [
            dict(o, id=o["id"] + tag, at=[o["at"][0] + dx, o["at"][1]]) for o in data["objectives"]
        ]
        roads += [dict(r, id=r["id"] + tag, path=_shift(r["path"], dx)) for r in data["roads"]]
        for name, side in data["sides"].items():
            for u in side["units"]:
                copy = dict(u, id=u["id"] + tag, at=[u["at"][0] + dx, u["at"][1]])
                if i and copy.get("commander"):
                    copy["commander"] = False
                sides[name].append(copy)
    data["terrain"], data["objectives"], data["roads"] = terrain, objectives, roads
    for name, units_of_side in sides.items():
        data["sides"][name]["units"] = units_of_side
    return _write(data, folder)


def _write(data: dict[str, Any], folder: Path) -> str:
    path = folder / f"{data['id']}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return str(path)


def engine_games(
    scenario: str, games: int, seed0: int, on_game: Any = None
) -> tuple[list[float], list[int], int]:
    """CPU seconds and decisions of ``games`` scripted games (after one warm-up game);
    ``on_game`` is shown each game played, the warm-up first, after its time is taken."""

    def one(seed: int) -> tuple[float, int, int]:
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
        start = time.process_time()
        play_out(game, players)
        used = time.process_time() - start
        if on_game is not None:
            on_game(game)
        return used, len(game.record.actions), len(game.state.units)

    one(seed0 - 1)
    results = [one(seed0 + i) for i in range(games)]
    return [r[0] for r in results], [r[1] for r in results], results[0][2]


def bare_game(units: int, rng: random.Random, width: float) -> int:
    """A plain-Python d10 battle of ``units`` units; returns its number of decisions."""
    sides = [
        [[rng.uniform(0, width), rng.uniform(0, 8), True] for _ in range(units // 2)],
        [[rng.uniform(0, width), rng.uniform(40, 48), True] for _ in range(units - units // 2)],
    ]
    decisions = 0
    for _turn in range(7):
        for side in (0, 1):
            own, foes = sides[side], sides[1 - side]
            for unit in own:
                if not unit[2]:
                    continue
                decisions += 1
                live = [f for f in foes if f[2]]
                if not live:
                    return decisions
                target = min(live, key=lambda f: math.dist(unit[:2], f[:2]))
                gap = math.dist(unit[:2], target[:2])
                if gap > 12.0:  # close in, then fire
                    step = min(6.0, gap - 12.0)
                    unit[0] += (target[0] - unit[0]) / gap * step
                    unit[1] += (target[1] - unit[1]) / gap * step
                need = 6 if gap <= 24 else 8
                if rng.randint(1, 10) >= need and rng.randint(1, 10) >= 5:
                    target[2] = False
            if sum(not f[2] for f in foes) * 2 >= len(foes):
                return decisions
    return decisions


def bare_games(units: int, decisions_wanted: float, seconds: float = 0.5) -> tuple[float, float]:
    """(bare games per CPU second, its decisions per game), scaled to ``decisions_wanted``
    decisions a game (the bare battle is played as often as it takes to make that many)."""
    rng = random.Random(1)
    width = BASE_WIDTH * max(units, 13) / 26
    played = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += bare_game(units, rng, width)
        played += 1
    used = time.process_time() - start
    per_decision = used / decisions
    return 1.0 / (per_decision * decisions_wanted), decisions / played


def _worker(scenario: str, games: int, seed0: int) -> None:
    """Print, as one JSON line, ``engine_games`` of ``scenario`` and each game's digest
    (under callgrind, ``BENCH_CALLGRIND=1``: instructions counted from the end of the warm-up
    game to the end of the last game, the digests taken after that)."""
    from umpire.core.events import to_dicts

    counting = os.environ.get("BENCH_CALLGRIND") == "1"
    played: list[Any] = []

    def keep(game: Any) -> None:
        if counting and not played:  # the warm-up game is over: count from here on
            _callgrind("-i", "on")
        played.append(game)

    times, actions, units = engine_games(scenario, games, seed0, on_game=keep)
    if counting:
        _callgrind("-i", "off")
    digests = [
        hashlib.sha256(json.dumps(to_dicts(g.events), sort_keys=True).encode()).hexdigest()
        for g in played[1:]
    ]
    print(json.dumps({"cpu": times, "actions": actions, "units": units, "digests": digests}))


def _callgrind(*args: str) -> None:
    """Tell the callgrind this process runs under to switch instrumentation on or off."""
    subprocess.run(["callgrind_control", *args, str(os.getpid())], check=True, capture_output=True)


def _run_tree(tree: Path, scenario: str, args: argparse.Namespace) -> dict[str, Any]:
    """``_worker`` in a process that imports umpire from ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), PYTHONHASHSEED="0")
    cmd = [sys.executable, str(Path(__file__).resolve())]
    cmd += ["--worker", scenario, "--games", str(args.games), "--seed", str(args.seed)]
    out_file = None
    if args.instructions:
        handle, out_file = tempfile.mkstemp(prefix="callgrind.")
        os.close(handle)
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        cmd += [f"--callgrind-out-file={out_file}", sys.executable, str(Path(__file__).resolve())]
        cmd += ["--worker", scenario, "--games", str(args.games), "--seed", str(args.seed)]
        env["BENCH_CALLGRIND"] = "1"
    cmd = ["taskset", "-c", str(args.cpu), *cmd]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: worker failed\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    if out_file is not None:
        text = Path(out_file).read_text(encoding="utf-8", errors="replace")
        Path(out_file).unlink()
        found = re.search(r"^totals: (\d+)", text, re.M) or re.search(
            r"^summary: (\d+)", text, re.M
        )
        if found is None:
            raise SystemExit("no instruction total in callgrind's output")
        result["instructions"] = int(found.group(1)) / args.games
    return result


def _growth(label: str, rows: list[tuple[int, float, float]]) -> None:
    for (n1, t1, d1), (n2, t2, d2) in zip(rows, rows[1:], strict=False):
        print(
            f"{label}growth {n1}->{n2} units: time a game ~ "
            f"n^{math.log(t2 / t1) / math.log(n2 / n1):.2f}, a decision ~ "
            f"n^{math.log((t2 / d2) / (t1 / d1)) / math.log(n2 / n1):.2f}"
        )
    if len(rows) > 2:
        (n1, t1, _), (n2, t2, _) = rows[0], rows[-1]
        exponent = math.log(t2 / t1) / math.log(n2 / n1)
        print(f"{label}growth {n1}->{n2} units overall: n^{exponent:.2f} (target 1.15)")


def compare(args: argparse.Namespace, sizes: list[int]) -> None:
    """The baseline tree against the candidate, size after size (see the module's text)."""
    trees = {"baseline": args.baseline, "candidate": args.candidate}
    rows: dict[str, list[tuple[int, float, float]]] = {name: [] for name in trees}
    same = True
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            scenario = scaled_scenario(size, Path(folder))
            found = {name: _run_tree(tree, scenario, args) for name, tree in trees.items()}
            for name, result in found.items():
                decisions = statistics.mean(result["actions"])
                if args.instructions:
                    per_game = result["instructions"]
                    rows[name].append((result["units"], per_game, decisions))
                    print(
                        f"{name:9s} {result['units']:4d} units: {per_game / 1e6:8.1f} M "
                        f"instructions a game, {decisions:6.0f} decisions a game"
                    )
                    continue
                per_game = statistics.mean(result["cpu"])
                rows[name].append((result["units"], per_game, decisions))
                print(
                    f"{name:9s} {result['units']:4d} units: {per_game * 1000:8.1f} ms CPU a "
                    f"game, {1 / per_game:7.2f} games/s/core, {decisions:6.0f} decisions a game"
                )
            base, cand = (rows[name][-1][1] for name in trees)
            games_alike = found["baseline"]["digests"] == found["candidate"]["digests"]
            same &= games_alike
            print(
                f"          {size:4d} units: candidate/baseline speed {base / cand:.3f}x, "
                f"same games: {games_alike}"
            )
    for name in trees:
        _growth(f"{name:9s} ", rows[name])
    print(f"identical games in both trees at every size: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="12,26,52,104")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--baseline", type=Path, help="a source tree to compare against")
    parser.add_argument("--candidate", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--cpu", type=int, default=0, help="the core the trees' games run on")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions with callgrind instead of timing (with --baseline)",
    )
    parser.add_argument("--worker", metavar="SCENARIO", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args.worker, args.games, args.seed)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.baseline is not None:
        compare(args, sizes)
        return
    if args.instructions:
        raise SystemExit("--instructions compares two trees: give --baseline TREE too")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            scenario = scaled_scenario(size, Path(folder))
            times, actions, units = engine_games(scenario, args.games, args.seed)
            per_game = statistics.mean(times)
            decisions = statistics.mean(actions)
            bare_rate, _ = bare_games(units, decisions)
            rows.append((units, per_game, decisions))
            print(
                f"{units:4d} units: {per_game * 1000:8.1f} ms CPU a game, {1 / per_game:7.2f} "
                f"games/s/core, {decisions:6.0f} decisions a game, "
                f"{per_game / decisions * 1e6:6.0f} us a decision; bare loop of the same "
                f"size {bare_rate:8.0f} games/s; engine/bare loop {1 / per_game / bare_rate:.4f}"
            )
    _growth("", rows)


if __name__ == "__main__":
    main()
