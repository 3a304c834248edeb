"""Summaries, tables and plots of simulated games."""

from __future__ import annotations

import csv
import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from umpire.analysis.simulate import Row
from umpire.analysis.stats import histogram, mean_sd, wilson
from umpire.core.errors import UmpireError
from umpire.play import UNFINISHED

# what a side's losses are counted in, first found first: units (Seven Days, Portable, Rhine),
# or figures killed (Book and Gun)
LOSS_COUNTS = ("units", "killed")


def summarise(rows: Sequence[Row], sides: Sequence[str]) -> dict[str, Any]:
    """Win rates with Wilson 95% intervals, turns, losses and the first player's edge.

    ``wins`` counts each side, ``draw`` and ``unfinished`` (games stopped by the action cap
    without a result: neither a win nor a draw)."""
    n = len(rows)
    winners = Counter(r["winner"] for r in rows)
    wins = {side: winners.get(side, 0) for side in sides}
    wins["draw"] = winners.get("draw", 0)
    wins[UNFINISHED] = winners.get(UNFINISHED, 0)
    turns = [float(r["turns"]) for r in rows]
    mean_turns, sd_turns = mean_sd(turns)
    losses: dict[str, Any] = {}
    for side in sides:
        # what the ruleset counts of a side's losses (units, points...; Book and Gun counts
        # figures killed, wounded, captured, gone): the mean of each, and a histogram of the
        # first of LOSS_COUNTS it has (units, else killed figures)
        prefix = f"{side}_"
        keys = sorted(
            {k[len(prefix) :] for r in rows[:1] for k, v in r.items() if k.startswith(prefix)}
        )
        counted = next((k for k in LOSS_COUNTS if k in keys), "units")
        lost = [int(r.get(prefix + counted, 0)) for r in rows]
        entry: dict[str, Any] = {
            "counted": counted,
            f"mean_{counted}": mean_sd(lost)[0],
            f"{counted}_histogram": {str(k): v for k, v in histogram(lost).items()},
        }
        for key in keys:
            entry.setdefault(
                f"mean_{key}", mean_sd([float(r.get(prefix + key, 0)) for r in rows])[0]
            )
        losses[side] = entry
    firsts = [r for r in rows if r.get("first_player") in sides]
    first_wins = sum(1 for r in firsts if r["winner"] == r["first_player"])
    first_by_side = {
        side: {
            "games": sum(1 for r in firsts if r["first_player"] == side),
            "wins": sum(1 for r in firsts if r["first_player"] == side and r["winner"] == side),
        }
        for side in sides
    }
    return {
        "n": n,
        "wins": wins,
        "win_rate": {k: (v / n if n else 0.0) for k, v in wins.items()},
        "ci95": {side: list(wilson(wins[side], n)) for side in sides},
        "mean_turns": mean_turns,
        "sd_turns": sd_turns,
        "how": dict(Counter(str(r["how"]) for r in rows).most_common()),
        "losses": losses,
        "first_player": {
            "games": len(firsts),
            "wins": first_wins,
            "win_rate": first_wins / len(firsts) if firsts else None,
            "ci95": list(wilson(first_wins, len(firsts))),
            "by_side": first_by_side,
        },
    }


def write_table(rows: Sequence[Row], path: Path) -> Path:
    """Per-game results as CSV, or Parquet when ``path`` ends in .parquet (needs pyarrow)."""
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    if path.suffix == ".parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError as exc:
            raise UmpireError(
                "Parquet output needs pyarrow: pip install 'umpire[parquet]'"
            ) from exc
        table = pa.table({c: [r.get(c) for r in rows] for c in columns})
        pq.write_table(table, path)
        return path
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return path


def write_plots(
    rows: Sequence[Row],
    report: dict[str, Any],
    sides: Sequence[str],
    out: Path,
    colours: Mapping[str, str] | None = None,
) -> list[Path]:
    """PNG plots: win rates with their intervals, game length, and losses per side (in the
    ruleset's ``side_colours``, grey where it gives none)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths: list[Path] = []
    colours = dict(colours or {})
    n = report["n"]

    fig, ax = plt.subplots(figsize=(6, 4))
    rates = [report["win_rate"][s] for s in sides]
    lows = [max(0.0, rates[i] - report["ci95"][s][0]) for i, s in enumerate(sides)]
    highs = [max(0.0, report["ci95"][s][1] - rates[i]) for i, s in enumerate(sides)]
    ax.bar(
        [s.upper() for s in sides],
        rates,
        yerr=[lows, highs],
        capsize=8,
        color=[colours.get(s, "grey") for s in sides],
    )
    ax.axhline(0.5, color="black", linewidth=0.8, linestyle=":")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    unfinished = report["wins"].get(UNFINISHED, 0)
    ax.set_title(
        f"Win rates over {n} games (draws {report['wins']['draw']}"
        + (f", unfinished {unfinished})" if unfinished else ")")
    )
    paths.append(_save(fig, out / "win_rates.png"))

    fig, ax = plt.subplots(figsize=(6, 4))
    turns = [int(r["turns"]) for r in rows]
    bins = range(min(turns), max(turns) + 2) if turns else range(2)
    ax.hist(turns, bins=list(bins), align="left", rwidth=0.8, color="#556b2f")
    ax.set_xlabel("turns played")
    ax.set_ylabel("games")
    ax.set_title(f"Game length (mean {report['mean_turns']:.2f} turns)")
    paths.append(_save(fig, out / "turns.png"))

    fig, ax = plt.subplots(figsize=(6, 4))
    width = 0.8 / max(1, len(sides))
    for i, side in enumerate(sides):
        entry = report["losses"][side]
        hist = entry[f"{entry['counted']}_histogram"]
        xs = [int(k) + (i - (len(sides) - 1) / 2) * width for k in hist]
        ax.bar(
            xs,
            list(hist.values()),
            width=width,
            label=side.upper(),
            color=colours.get(side, "grey"),
        )
    counted = {report["losses"][side]["counted"] for side in sides}
    ax.set_xlabel("figures killed" if counted == {"killed"} else "units lost")
    ax.set_ylabel("games")
    ax.set_title("Losses per side")
    ax.legend()
    paths.append(_save(fig, out / "losses.png"))
    plt.close("all")
    return paths


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path


def check_outputs(out: Path, table_format: str) -> None:
    """What ``--out DIR --format F`` needs, checked before any game is played: a known format
    (Parquet with pyarrow installed) and a folder that exists or can be made (it is made)."""
    if table_format not in ("csv", "parquet"):
        raise UmpireError(f"--format {table_format!r}: choose csv or parquet")
    if table_format == "parquet":
        from importlib.util import find_spec

        if find_spec("pyarrow") is None:
            raise UmpireError("Parquet output needs pyarrow: pip install 'umpire[parquet]'")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UmpireError(f"--out {out}: cannot create the folder ({exc.strerror})") from exc
    if not os.access(out, os.W_OK):
        raise UmpireError(f"--out {out}: the folder is not writable")


def write_outputs(
    rows: Sequence[Row],
    report: dict[str, Any],
    sides: Sequence[str],
    out: Path,
    table_format: str = "csv",
    colours: Mapping[str, str] | None = None,
) -> list[Path]:
    """Everything ``--out DIR`` promises: the per-game table, summary.json and the plots."""
    check_outputs(out, table_format)
    written = [write_table(rows, out / f"games.{table_format}")]
    summary_path = out / "summary.json"
    summary_path.write_text(json.dumps(report, indent=1), encoding="utf-8")
    written.append(summary_path)
    written += write_plots(rows, report, sides, out, colours)
    return written


def write_comparison(
    reports: Sequence[dict[str, Any]], labels: Sequence[str], sides: Sequence[str], out: Path
) -> list[Path]:
    """A sweep's variants side by side: variants.csv and a win-rate plot with intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for label, report in zip(labels, reports, strict=True):
        row: dict[str, Any] = {
            "variant": label,
            "n": report["n"],
            "draws": report["wins"]["draw"],
            UNFINISHED: report["wins"].get(UNFINISHED, 0),
        }
        for side in sides:
            low, high = report["ci95"][side]
            row |= {
                f"{side}_wins": report["wins"][side],
                f"{side}_rate": report["win_rate"][side],
                f"{side}_ci_low": low,
                f"{side}_ci_high": high,
            }
        row["mean_turns"] = report["mean_turns"]
        rows.append(row)
    table = write_table(rows, out / "variants.csv")
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(labels)), 4))
    side = sides[0]
    rates = [r["win_rate"][side] for r in reports]
    err = [
        [max(0.0, rates[i] - r["ci95"][side][0]) for i, r in enumerate(reports)],
        [max(0.0, r["ci95"][side][1] - rates[i]) for i, r in enumerate(reports)],
    ]
    ax.errorbar(range(len(labels)), rates, yerr=err, fmt="o", capsize=6)
    ax.axhline(0.5, color="black", linewidth=0.8, linestyle=":")
    ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel(f"{side.upper()} win rate (95% interval)")
    ax.set_title("Variants compared (same seeds)")
    plot = _save(fig, out / "variants.png")
    plt.close("all")
    return [table, plot]
