"""Sweeps: ``--vary KEY=A,B`` turns one simulation job into several variants to compare.

Keys:
  ``SIDE.force``   a force file for that side (``nato.force=a.toml,b.toml``), for a ruleset
                   with force files
  ``SIDE.agent``   who plays that side (``pact.agent=scripted,random``)
  ``house.FIELD``  a house-rule number (``house.no_penetration_markers=0,1``)
  ``scenario``     the scenario of the same ruleset (``scenario=meeting-engagement,capture``)
Several ``--vary`` options combine into every combination. Each variant plays the same seeds,
so the differences between variants are not blurred by different dice.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from umpire.analysis.simulate import Job
from umpire.core.errors import UmpireError
from umpire.core.ruleset import capability, get_ruleset, split_game_id


def parse_vary(text: str) -> tuple[str, list[str]]:
    key, sep, values = text.partition("=")
    choices = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not key.strip() or not choices:
        raise UmpireError(f"--vary {text!r}: write KEY=VALUE,VALUE, e.g. house.FIELD=0,1")
    return key.strip(), choices


def _apply(job: Job, key: str, value: str) -> Job:
    ruleset_id, _ = split_game_id(job.game_id)
    ruleset = get_ruleset(ruleset_id)
    sides = ruleset.meta.players
    head, _, tail = key.partition(".")
    options: dict[str, Any] = {
        k: (dict(v) if isinstance(v, dict) else v) for k, v in job.options.items()
    }
    if key == "scenario":
        return replace(job, game_id=f"{ruleset_id}/{value}")
    if head in sides and tail == "agent":
        return replace(job, agents={**job.agents, head: value})
    if head in sides and tail == "force":
        capability(ruleset, "forces")  # a one-line error for a ruleset without force files
        path = Path(value).expanduser()
        if not path.exists():
            raise UmpireError(f"--vary {key}={value}: {path} not found")
        options["forces"] = {**options.get("forces", {}), head: str(path.resolve())}
        return replace(job, options=options)
    if head == "house" and tail:
        options["house_rules"] = {**options.get("house_rules", {}), tail: yaml.safe_load(value)}
        return replace(job, options=options)
    raise UmpireError(
        f"--vary {key}: unknown key; use SIDE.force, SIDE.agent, house.FIELD or scenario "
        f"(sides: {', '.join(sides)})"
    )


def variants(base: Job, vary: list[str]) -> list[Job]:
    """Every combination of the ``--vary`` values, each as a labelled job."""
    if not vary:
        return [base]
    axes = [parse_vary(v) for v in vary]
    jobs = []
    for combo in itertools.product(*[[(k, v) for v in values] for k, values in axes]):
        job = base
        for key, value in combo:
            job = _apply(job, key, value)
        label = ", ".join(f"{k}={Path(v).name if k.endswith('.force') else v}" for k, v in combo)
        jobs.append(replace(job, label=label))
    return jobs
