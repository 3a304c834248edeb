"""``umpire simulate``: run the jobs with a progress bar and report them."""

from __future__ import annotations

import json
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from umpire.analysis.report import check_outputs, summarise, write_comparison, write_outputs
from umpire.analysis.simulate import Job, check_master_seed, run, sides_of
from umpire.analysis.sweep import variants
from umpire.core.errors import UmpireError
from umpire.core.game import new_game
from umpire.core.ruleset import get_ruleset, load_house_rules, split_game_id


def _agents(sides: list[str], players: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for text in sides:
        name, sep, kind = text.partition("=")
        if not sep:
            raise UmpireError(f"--side {text!r}: write SIDE=KIND, e.g. --side {players[-1]}=random")
        out[name.strip()] = kind.strip()
    return out


def simulate_command(
    game_id: str,
    *,
    n: int,
    seed: int,
    workers: int,
    ray_address: str | None,
    sides: list[str],
    vary: list[str],
    house_rules: Path | None,
    out: Path | None,
    table_format: str,
    as_json: bool,
    show_progress: bool,
    console: Console,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play the games (every ``--vary`` variant) and report them; ``options`` are game options
    from the ruleset's declared flags."""
    ruleset_id, _ = split_game_id(game_id)
    ruleset = get_ruleset(ruleset_id)
    options = dict(options or {})
    if house_rules is not None:
        options["house_rules"] = load_house_rules(ruleset, house_rules)
    agents = _agents(sides, ruleset.meta.players)
    for name in agents:
        if name not in ruleset.meta.players:
            raise UmpireError(f"no side {name!r}; sides: {', '.join(ruleset.meta.players)}")
    workers = workers or os.cpu_count() or 1
    check_master_seed(seed)  # before the games, as the outputs below
    if out is not None:  # before the games, not after them
        check_outputs(out, table_format)
    base = Job(game_id, n=n, seed=seed, options=options, agents=agents)
    jobs = variants(base, vary)
    forces = ruleset.capabilities.forces
    for index, job in enumerate(jobs):  # a bad option or player fails here, before any game
        job.players()
        try:
            if forces is not None:  # force files read and deployed once, not per game
                job = jobs[index] = replace(
                    job, options=forces.prepare_options(split_game_id(job.game_id)[1], job.options)
                )
            new_game(job.game_id, seed=0, options=dict(job.options))
        except UmpireError as exc:
            raise UmpireError(f"{job.label + ': ' if job.label else ''}{exc}") from None
    player_sides = list(sides_of(base))
    colours = ruleset.capabilities.side_colours
    reports: list[dict[str, Any]] = []
    started = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not show_progress,
    ) as bar:
        for job in jobs:
            task = bar.add_task(job.label or job.game_id, total=job.n)

            def advance(k: int, task: TaskID = task) -> None:
                bar.advance(task, k)

            rows = run(job, workers, ray_address, advance)
            report = summarise(rows, player_sides)
            report |= {
                "game_id": job.game_id,
                "seed": seed,
                "label": job.label,
                "players": job.players(),
                "where": f"ray {ray_address}" if ray_address else f"{workers} local worker(s)",
            }
            if out is not None:
                folder = out if len(jobs) == 1 else out / f"variant-{len(reports) + 1}"
                report["files"] = [
                    str(p)
                    for p in write_outputs(
                        rows, report, player_sides, folder, table_format, colours
                    )
                ]
            reports.append(report)
    elapsed = time.perf_counter() - started
    if out is not None and len(jobs) > 1:
        write_comparison(reports, [j.label for j in jobs], player_sides, out)
    result: dict[str, Any] = reports[0] if len(jobs) == 1 else {"variants": reports}
    result["seconds"] = round(elapsed, 2)
    if as_json:
        print(json.dumps(result, indent=1))
    else:
        _print(console, reports, player_sides, elapsed, out)
    return result


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _interval(low: float, high: float) -> str:
    """A 95 % interval under its rate, short enough for an 80-column table: [31.3–83.2%]."""
    return f"[{low * 100:.1f}–{high:.1%}]"


def _print(
    console: Console,
    reports: list[dict[str, Any]],
    sides: list[str],
    elapsed: float,
    out: Path | None,
) -> None:
    # fits 80 columns with two sides: each rate over its interval, headers on two lines
    table = Table(
        title="Simulated games — win rates with 95% Wilson intervals",
        pad_edge=False,
        collapse_padding=True,
    )
    if len(reports) > 1:
        table.add_column("variant", overflow="fold")
    table.add_column("games", justify="right", overflow="fold")
    for side in sides:
        table.add_column(f"{side.upper()}\nwins", justify="right", no_wrap=True)
    table.add_column("draws", justify="right", overflow="fold")
    table.add_column("unfinished", justify="right", overflow="fold")
    table.add_column("mean\nturns", justify="right", overflow="fold")
    table.add_column("first player\nwins", justify="right", no_wrap=True)
    for report in reports:
        cells = [report["label"]] if len(reports) > 1 else []
        cells.append(str(report["n"]))
        for side in sides:
            low, high = report["ci95"][side]
            cells.append(f"{_pct(report['win_rate'][side])}\n{_interval(low, high)}")
        cells.append(str(report["wins"]["draw"]))
        cells.append(str(report["wins"].get("unfinished", 0)))
        cells.append(f"{report['mean_turns']:.2f}")
        first = report["first_player"]
        rate = first["win_rate"]
        cells.append(
            "n/a"
            if rate is None
            else f"{_pct(rate)}\n{_interval(first['ci95'][0], first['ci95'][1])}"
        )
        table.add_row(*cells)
    console.print(table)
    for report in reports:
        prefix = f"{report['label']}: " if len(reports) > 1 else ""
        how = ", ".join(f"{k} {v}" for k, v in report["how"].items())
        losses = "; ".join(_loss_words(side, report["losses"][side]) for side in sides)
        console.print(f"{prefix}ended by: {how}. Mean losses: {losses}.")
    n = sum(r["n"] for r in reports)
    console.print(
        f"{n} games in {elapsed:.1f} s ({n / elapsed:.1f} games/s) on {reports[0]['where']}."
    )
    if out is not None:
        console.print(f"Per-game results, summary.json and plots written to {out}/")


def _loss_words(side: str, entry: dict[str, Any]) -> str:
    """A side's mean losses in words: units (and points where counted), or Book and Gun's
    figures killed, wounded, captured and gone."""
    if entry["counted"] == "killed":
        parts = [
            f"{entry[f'mean_{k}']:.2f} {k}"
            for k in ("killed", "wounded", "captured", "gone")
            if f"mean_{k}" in entry
        ]
        return f"{side.upper()} figures " + ", ".join(parts)
    words = f"{side.upper()} loses {entry['mean_units']:.2f} units"
    if "mean_points" in entry:
        words += f" / {entry['mean_points']:.0f} pts"
    return words
