"""Monte Carlo runs: seeding, workers, Ray, reports, sweeps and the balance helper."""

from __future__ import annotations

import csv
import gc
import json
import math
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from umpire.analysis import simulate
from umpire.analysis.balance import balance, even_ratio, fit_logistic
from umpire.analysis.report import summarise
from umpire.analysis.simulate import Job, game_seeds, play_game, quiet_collector, run_local
from umpire.analysis.stats import wilson
from umpire.analysis.sweep import variants
from umpire.core.errors import UmpireError

GAME = "sevendays/meeting-engagement"


def test_wilson_interval_known_values() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(81, 100)
    assert low == pytest.approx(0.7222, abs=1e-4) and high == pytest.approx(0.8749, abs=1e-4)


def test_seeds_come_from_spawned_seed_sequences() -> None:
    seeds = game_seeds(7, 5)
    children = np.random.SeedSequence(7).spawn(5)
    assert seeds == [int(c.generate_state(1, dtype=np.uint32)[0]) for c in children]
    assert game_seeds(7, 3) == seeds[:3]  # game i is the same game in a longer run
    assert len(set(game_seeds(7, 1000))) == 1000


def test_same_seed_same_games_whatever_the_workers() -> None:
    job = Job(GAME, n=8, seed=3)
    one = run_local(job, workers=1)
    two = run_local(job, workers=2)
    assert one == two
    assert [r["game"] for r in one] == list(range(8))
    assert run_local(Job(GAME, n=8, seed=4), workers=2) != one


def test_the_quiet_collector_changes_no_game_and_is_put_back() -> None:
    # rows played with CPython's default collector, in this process, one game at a time
    job = Job(GAME, n=4, seed=5)
    players = job.players()
    plain = [play_game(GAME, {}, players, i, s) for i, s in enumerate(game_seeds(5, 4))]
    before = gc.get_threshold()
    with quiet_collector():
        assert gc.get_threshold()[0] == simulate.GC_YOUNG
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert run_local(job, workers=1) == plain  # played under the quiet collector


FORK_ONLY = pytest.mark.skipif(os.name != "posix", reason="patches reach workers by fork")


@FORK_ONLY
def test_grown_workers_are_replaced_and_the_games_stay_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    job = Job("tiny/skirmish", n=40, seed=8)
    one = run_local(job, workers=1)
    stats: dict[str, int] = {}
    assert run_local(job, workers=2, stats=stats) == one
    assert stats == {"workers_started": 2}  # none grew past its limit in 40 tiny games
    monkeypatch.setattr(simulate, "RECYCLE_MB", -1.0)  # every worker counts as too large
    monkeypatch.setattr(simulate, "RECYCLE_GROWTH_MB", -1.0)
    done: list[int] = []
    assert run_local(job, workers=2, progress=done.append, stats=stats) == one
    assert stats["workers_started"] > 2 and sum(done) == 40  # replaced, every game once


@pytest.mark.parametrize(("n", "workers"), [(2, 2), (6, 4), (3, 8), (1, 2)])
def test_few_games_for_many_workers_finish(n: int, workers: int) -> None:
    # the first workers may be sent every game (two chunks each in flight): no worker is then
    # started with nothing to play (it was waited on for ever: `simulate -n 2` on 2 cores hung)
    import threading

    job = Job("tiny/skirmish", n=n, seed=3)
    found: list[list[Any]] = []
    runner = threading.Thread(target=lambda: found.append(run_local(job, workers)), daemon=True)
    runner.start()
    runner.join(120)
    assert not runner.is_alive(), f"-n {n} with {workers} workers did not finish"
    assert found[0] == run_local(job, workers=1)


def test_spawned_workers_play_the_same_games() -> None:
    # where fork is missing (Windows) the workers are fresh interpreters that load the game
    job = Job("tiny/skirmish", n=12, seed=3)
    pool = simulate._Pool(job, job.players(), list(enumerate(game_seeds(3, 12))), 2)
    pool.context = multiprocessing.get_context("spawn")
    rows = sorted(pool.run(None), key=lambda r: int(r["game"]))
    assert rows == run_local(job, workers=1) and pool.started == 2


def _crash_at_game_5(game_id: str, options: Any, players: Any, index: int, seed: int) -> Any:
    if index == 5:
        os._exit(3)
    return {"game": index}


def _fail_at_game_5(game_id: str, options: Any, players: Any, index: int, seed: int) -> Any:
    if index == 5:
        raise ValueError("no such hill")
    return {"game": index}


@FORK_ONLY
def test_a_worker_that_dies_or_fails_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate, "play_game", _crash_at_game_5)
    died = r"worker stopped \(exit code 3\) while playing game \d+ \(seed \d+\)"
    with pytest.raises(UmpireError, match=died):
        run_local(Job("tiny/skirmish", n=12), workers=2)
    monkeypatch.setattr(simulate, "play_game", _fail_at_game_5)
    with pytest.raises(ValueError, match="no such hill") as caught:
        run_local(Job("tiny/skirmish", n=12), workers=2)
    assert "_fail_at_game_5" in str(caught.value.__cause__)  # the worker's traceback
    assert not [p for p in multiprocessing.active_children() if p.is_alive()]


def test_resident_memory_is_read() -> None:
    mb = simulate.resident_mb()
    assert mb is None or 10 < mb < 10_000


def test_summary_counts_wins_turns_and_first_player() -> None:
    rows = [
        {
            "game": 0,
            "winner": "nato",
            "how": "b",
            "turns": 3,
            "first_player": "nato",
            "nato_units": 1,
            "pact_units": 5,
        },
        {
            "game": 1,
            "winner": "pact",
            "how": "b",
            "turns": 5,
            "first_player": "nato",
            "nato_units": 6,
            "pact_units": 2,
        },
        {
            "game": 2,
            "winner": "draw",
            "how": "t",
            "turns": 7,
            "first_player": "pact",
            "nato_units": 2,
            "pact_units": 2,
        },
        {
            "game": 3,
            "winner": "nato",
            "how": "b",
            "turns": 5,
            "first_player": "pact",
            "nato_units": 0,
            "pact_units": 6,
        },
    ]
    report = summarise(rows, ["nato", "pact"])
    assert report["n"] == 4
    assert report["wins"] == {"nato": 2, "pact": 1, "draw": 1, "unfinished": 0}
    assert report["ci95"]["nato"] == list(wilson(2, 4))
    assert report["mean_turns"] == 5.0
    assert report["first_player"]["wins"] == 1 and report["first_player"]["games"] == 4
    assert report["first_player"]["by_side"]["pact"] == {"games": 2, "wins": 0}
    assert report["losses"]["pact"]["units_histogram"] == {"2": 2, "5": 1, "6": 1}


def test_simulate_command_writes_table_plots_and_json(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "simulate",
            GAME,
            "-n",
            "6",
            "--workers",
            "2",
            "--seed",
            "9",
            "--json",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    assert data["n"] == 6 and sum(data["wins"].values()) == 6
    assert set(data["ci95"]) == {"nato", "pact"}
    for side, (low, high) in data["ci95"].items():
        assert low <= data["win_rate"][side] <= high
    with (out / "games.csv").open() as handle:
        table = list(csv.DictReader(handle))
    assert [int(r["game"]) for r in table] == list(range(6))
    assert {r["winner"] for r in table} <= {"nato", "pact", "draw"}
    for name in ("win_rates.png", "turns.png", "losses.png"):
        assert (out / name).read_bytes()[:4] == b"\x89PNG"
    assert json.loads((out / "summary.json").read_text())["n"] == 6


def test_parquet_table(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "simulate",
            GAME,
            "-n",
            "3",
            "--workers",
            "1",
            "--format",
            "parquet",
            "--out",
            str(tmp_path),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    table = pq.read_table(tmp_path / "games.parquet")
    assert table.num_rows == 3 and "winner" in table.column_names


def test_ray_local_equals_the_local_run() -> None:
    pytest.importorskip("ray")
    from umpire.analysis.simulate import run_ray

    job = Job(GAME, n=6, seed=12)
    assert run_ray(job, "local") == run_local(job, workers=1)


def test_sweep_runs_each_variant_on_the_same_seeds(tmp_path: Path) -> None:
    jobs = variants(
        Job(GAME, n=4, seed=2), ["house.no_penetration_markers=0,2", "pact.agent=scripted,random"]
    )
    assert len(jobs) == 4
    assert jobs[0].options["house_rules"] == {"no_penetration_markers": 0}
    assert jobs[3].agents == {"pact": "random"}
    assert all(j.seed == 2 for j in jobs)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "simulate",
            GAME,
            "-n",
            "3",
            "--workers",
            "1",
            "--vary",
            "pact.agent=scripted,random",
            "--json",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    assert [v["label"] for v in data["variants"]] == ["pact.agent=scripted", "pact.agent=random"]
    assert (tmp_path / "variants.csv").exists() and (tmp_path / "variants.png").exists()
    assert (tmp_path / "variant-2" / "games.csv").exists()


FORCES = Path(__file__).resolve().parents[2] / "src/umpire/rulesets/sevendays/data/forces"


def test_sweep_over_force_files() -> None:
    uk, us = FORCES / "uk-armoured-squadron.toml", FORCES / "us-armored-team.toml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "simulate",
            GAME,
            "-n",
            "2",
            "--workers",
            "1",
            "--vary",
            f"nato.force={uk},{us}",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    labels = [v["label"] for v in data["variants"]]
    assert labels == ["nato.force=uk-armoured-squadron.toml", "nato.force=us-armored-team.toml"]
    assert all(v["n"] == 2 for v in data["variants"])


def test_bad_sweeps_and_options_fail_before_playing() -> None:
    with pytest.raises(UmpireError, match="unknown key"):
        variants(Job(GAME, n=1), ["nato.colour=red"])
    with pytest.raises(UmpireError, match="KEY=VALUE"):
        variants(Job(GAME, n=1), ["nato.force"])
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "simulate",
            GAME,
            "-n",
            "2",
            "--vary",
            "house.no_such_rule=1",
        ],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "no_such_rule" in bad.stderr


def test_logistic_fit_recovers_a_known_curve() -> None:
    rng = np.random.default_rng(0)
    x = np.repeat(np.log([1 / 3, 1 / 2, 1, 2, 3]), 400)
    p = 1 / (1 + np.exp(-(0.5 + 2.0 * x)))
    y = (rng.random(x.size) < p).astype(float)
    alpha, beta = fit_logistic(x, y)
    assert alpha == pytest.approx(0.5, abs=0.15) and beta == pytest.approx(2.0, abs=0.25)
    ratio = even_ratio(x, y)
    assert ratio is not None and ratio == pytest.approx(math.exp(-0.25), rel=0.1)
    assert even_ratio(x, 1 - y) is None  # more units losing more: no even point


def test_balance_prices_a_tank_against_another() -> None:
    result = balance(
        "sevendays", "T-72A", "Chieftain Mk9", games=12, seed=1, workers=2, bootstrap=50
    )
    assert result.unit == "T-72A" and result.against_points > 0
    scores = result.score_by_ratio
    assert scores["3:1"]["score"] > scores["1:3"]["score"]  # numbers help
    assert result.fair_points is not None and result.fair_points > 0
    with pytest.raises(UmpireError, match="both fight for"):
        balance("sevendays", "T-72A", "T-64B", games=4)
