"""Exact odds (``umpire odds portable``) against the game itself.

For each case a real game is laid out with the firer and the target placed to match the odds'
options, and the game's own ``plan_fire``/``resolve_fire`` (or the artillery declaration and
``resolve_artillery``) are run thousands of times, each with a fresh seeded ``RandomStream``.
Every number ``fire_odds`` returns must lie within four standard errors of the observed
frequency (and match exactly where the exact chance is 0 or 1)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.portable.helpers import act_as, make, move, st, unit
from umpire.core.game import Game
from umpire.core.rng import RandomStream
from umpire.rulesets.portable.artillery import (
    ArtilleryPlan,
    declare,
    plan_bombard,
    resolve_artillery,
)
from umpire.rulesets.portable.common import total
from umpire.rulesets.portable.fire import FirePlan, plan_fire, resolve_fire
from umpire.rulesets.portable.odds import fire_odds
from umpire.rulesets.portable.ruleset import Portable
from umpire.rulesets.portable.state import PortableState
from umpire.rulesets.portable.world import World

TRIALS = 4000
SIGMAS = 4.0
FIRE_DICE_RULES = frozenset({"portable.fire.hit_score", "portable.fire.machine_gun_dice"})
KEYS = {"weapon", "modifier", "p_hit", "hits", "p_sp_loss", "p_retreat_or_loss_per_hit"}


@dataclass(frozen=True)
class Case:
    """A shot: the board (blue firer ``blue-f`` at E2 facing north, red target ``red-t``),
    any set-up played before it, and the odds options that describe it."""

    name: str
    blue: list[dict[str, Any]]
    red: list[dict[str, Any]]
    odds: dict[str, Any]
    terrain: list[dict[str, Any]] = field(default_factory=list)
    moved_from: str | None = None  # the firer is moved (by a real move action) to E2 first
    same_target: bool = False  # the gun fired at this square last turn


FIRE_CASES = [
    Case(
        "small arms at infantry in the open",
        [unit("f", "infantry", "E2")],
        [unit("t", "infantry", "E4")],
        {"firer": "infantry", "target": "infantry", "range": 2},
    ),
    Case(
        "small arms at infantry in woods",
        [unit("f", "infantry", "E2")],
        [unit("t", "infantry", "E5")],
        {"firer": "infantry", "target": "infantry", "range": 3, "target_cover": "cover"},
        terrain=[{"kind": "woods", "squares": ["E5"]}],
    ),
    Case(
        "machine guns (three dice) at poor infantry",
        [unit("f", "machine_guns", "E2")],
        [unit("t", "infantry", "E4", quality="poor")],
        {"firer": "machine_guns", "target": "infantry", "range": 2, "quality": "poor"},
    ),
    Case(
        "machine guns (three dice) at elite infantry in a town",
        [unit("f", "machine_guns", "E2")],
        [unit("t", "infantry", "E4", quality="elite")],
        {
            "firer": "machine_guns",
            "target": "infantry",
            "range": 2,
            "quality": "elite",
            "target_cover": "cover",
        },
        terrain=[{"kind": "town", "squares": ["E4"]}],
    ),
    Case(
        "small arms from a firer that moved",
        [unit("f", "infantry", "E1")],
        [unit("t", "infantry", "E4")],
        {"firer": "infantry", "target": "infantry", "range": 2, "firer_moved": True},
        moved_from="E1",
    ),
    Case(
        "small arms with a commander beside the firer",
        [unit("f", "infantry", "E2"), unit("hq", "commanders", "D2")],
        [unit("t", "infantry", "E4")],
        {"firer": "infantry", "target": "infantry", "range": 2, "commander": True},
    ),
    Case(
        "moved machine guns with a commander at infantry in woods",
        [unit("f", "machine_guns", "E1"), unit("hq", "commanders", "F2")],
        [unit("t", "infantry", "E4")],
        {
            "firer": "machine_guns",
            "target": "infantry",
            "range": 2,
            "firer_moved": True,
            "commander": True,
            "target_cover": "cover",
        },
        terrain=[{"kind": "woods", "squares": ["E4"]}],
        moved_from="E1",
    ),
    Case(
        "small arms at tanks (cannot destroy them)",
        [unit("f", "infantry", "E2")],
        [unit("t", "tanks", "E4")],
        {"firer": "infantry", "target": "tanks", "range": 2},
    ),
    Case(
        "machine guns at tanks (cannot destroy them)",
        [unit("f", "machine_guns", "E2")],
        [unit("t", "tanks", "E4")],
        {"firer": "machine_guns", "target": "tanks", "range": 2},
    ),
    Case(
        "anti-tank weapons at tanks",
        [unit("f", "infantry_at", "E2")],
        [unit("t", "tanks", "E4")],
        {"firer": "infantry_at", "target": "tanks", "range": 2},
    ),
]

ARTILLERY_CASES = [
    Case(
        "field gun, observed (clear line)",
        [unit("f", "artillery", "E2", artillery="field")],
        [unit("t", "infantry", "E6")],
        {"firer": "artillery", "target": "infantry", "range": 4, "observed": True},
    ),
    Case(
        "field gun, unobserved (woods in the way)",
        [unit("f", "artillery", "E2", artillery="field")],
        [unit("t", "infantry", "E6")],
        {"firer": "artillery", "target": "infantry", "range": 4},
        terrain=[{"kind": "woods", "squares": ["E4"]}],
    ),
    Case(
        "unobserved field gun at tanks in a town",
        [unit("f", "artillery", "E2", artillery="field")],
        [unit("t", "tanks", "E6")],
        {"firer": "field", "target": "tanks", "range": 4, "target_cover": "cover"},
        terrain=[{"kind": "woods", "squares": ["E4"]}, {"kind": "town", "squares": ["E6"]}],
    ),
    Case(
        "heavy gun, same target, commander, target in woods (no +2: cover denies sight)",
        [unit("f", "artillery", "E2", artillery="heavy"), unit("hq", "commanders", "D2")],
        [unit("t", "infantry", "E7", quality="poor")],
        {
            "firer": "artillery",
            "artillery": "heavy",
            "target": "infantry",
            "range": 5,
            "observed": True,
            "same_target": True,
            "commander": True,
            "target_cover": "cover",
            "quality": "poor",
        },
        terrain=[{"kind": "woods", "squares": ["E7"]}],
        same_target=True,
    ),
]


def _game(tmp: Path, case: Case) -> Game:
    game = make(tmp, case.blue, case.red, terrain=case.terrain)
    if case.moved_from is not None:
        act_as(game, "blue-f")
        game.apply(move("blue-f", "E2"))
    state = st(game)
    if case.same_target:
        target = state.units["red-t"]
        state.units["blue-f"].target_before = [target.x, target.y]
    assert state.units["blue-f"].pos == (4, 1)
    return game


def _world(game: Game) -> World:
    ruleset = game.ruleset
    assert isinstance(ruleset, Portable)
    return ruleset.world(st(game))


def _seed(case: Case, trial: int) -> int:
    """A fixed seed per case and trial (not Python's salted ``hash``)."""
    return sum(ord(c) * 31**i for i, c in enumerate(case.name)) % 1_000_003 * 100_000 + trial


def _assert_close(what: str, exact: float, hits: int, n: int) -> None:
    observed = hits / n
    sigma = math.sqrt(exact * (1 - exact) / n)
    assert abs(observed - exact) <= SIGMAS * sigma + 1e-12, (
        f"{what}: exact {exact:.4f}, observed {observed:.4f} over {n} trials "
        f"(tolerance {SIGMAS:g} sigma = {SIGMAS * sigma:.4f})"
    )


def _compare(case: Case, exact: dict[str, Any], counts: Counter[str], n: int) -> None:
    _assert_close(f"{case.name}: p_hit", exact["p_hit"], counts["hit"], n)
    _assert_close(f"{case.name}: p_sp_loss", exact["p_sp_loss"], counts["sp_loss"], n)
    observed_hits = {k[5:]: v for k, v in counts.items() if k.startswith("hits=")}
    for k in sorted(set(exact["hits"]) | set(observed_hits)):
        p = exact["hits"].get(k, 0.0)
        _assert_close(f"{case.name}: hits {k}", p, observed_hits.get(k, 0), n)
    assert sum(exact["hits"].values()) == pytest.approx(1.0)
    if counts["hit_resolved"]:
        _assert_close(
            f"{case.name}: p_retreat_or_loss_per_hit",
            exact["p_retreat_or_loss_per_hit"],
            counts["hit_retreat"],
            counts["hit_resolved"],
        )


@pytest.mark.parametrize("case", FIRE_CASES, ids=lambda c: c.name)
def test_fire_odds_match_the_game(tmp_path: Path, case: Case) -> None:
    exact = fire_odds(**case.odds)
    assert set(exact) >= KEYS and "landing" not in exact
    game = _game(tmp_path, case)
    base: PortableState = st(game)
    world = _world(game)
    first = plan_fire(world, base, base.units["blue-f"], base.units["red-t"])
    assert isinstance(first, FirePlan), first
    assert total(first.mods) == exact["modifier"]
    sp_before = base.units["red-t"].sp
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        state = base.clone()
        state.rng = RandomStream(_seed(case, trial))
        plan = plan_fire(world, state, state.units["blue-f"], state.units["red-t"])
        assert isinstance(plan, FirePlan)
        events = resolve_fire(world, state, plan)
        n_hits = sum(
            1
            for e in events
            if e["kind"] == "roll"
            and e["rule"] in FIRE_DICE_RULES
            and e.get("unit") == "blue-f"
            and e["success"]
        )
        counts[f"hits={n_hits}"] += 1
        counts["hit"] += n_hits > 0
        counts["sp_loss"] += state.units["red-t"].sp < sp_before
        _count_quality_dice(events, counts)
    _compare(case, exact, counts, TRIALS)


@pytest.mark.parametrize("case", ARTILLERY_CASES, ids=lambda c: c.name)
def test_artillery_odds_match_the_game(tmp_path: Path, case: Case) -> None:
    exact = fire_odds(**case.odds)
    assert set(exact) >= KEYS and "landing" in exact
    game = _game(tmp_path, case)
    base: PortableState = st(game)
    world = _world(game)
    first = plan_bombard(world, base, base.units["blue-f"], base.units["red-t"])
    assert isinstance(first, ArtilleryPlan), first
    assert total(first.mods) == exact["modifier"]
    target_sq = base.units["red-t"].pos
    gun_sq = base.units["blue-f"].pos
    short = (target_sq[0], target_sq[1] - 1)  # the gun is due south of the target
    over = (target_sq[0], target_sq[1] + 1)
    assert gun_sq[0] == target_sq[0] and gun_sq[1] < target_sq[1]
    where_of = {target_sq: "target", short: "front", over: "behind"}
    sp_before = base.units["red-t"].sp
    counts: Counter[str] = Counter()
    landings: Counter[str] = Counter()
    for trial in range(TRIALS):
        state = base.clone()
        state.rng = RandomStream(_seed(case, trial))
        gun, target = state.units["blue-f"], state.units["red-t"]
        state.turn_info.declared = [declare(gun, target.pos, target.uid, "bombard")]
        events = resolve_artillery(world, state)
        [landing] = [e for e in events if e.get("rule") == "portable.artillery.landing"]
        landed = landing["landed"]
        where = "none" if landed is None else where_of[(landed[0], landed[1])]
        landings[where] += 1
        counts[f"hits={int(where == 'target')}"] += 1
        counts["hit"] += where == "target"
        counts["sp_loss"] += state.units["red-t"].sp < sp_before
        _count_quality_dice(events, counts)
    _compare(case, exact, counts, TRIALS)
    for spot in sorted(set(exact["landing"]) | set(landings) | {"target", "front", "behind"}):
        p = exact["landing"].get(spot, 0.0)
        _assert_close(f"{case.name}: landing {spot}", p, landings[spot], TRIALS)


def _count_quality_dice(events: list[dict[str, Any]], counts: Counter[str]) -> None:
    """Per hit on the target: resolved by the quality die, and whether it only forced a retreat
    (every hit rolls the quality die, on tanks too: portable.fire.destroy_tanks)."""
    for e in events:
        if e.get("unit") != "red-t":
            continue
        if e["kind"] == "roll" and e["rule"] == "portable.hit.quality":
            counts["hit_resolved"] += 1
        elif e["kind"] == "must_retreat":
            counts["hit_retreat"] += 1


# -- the command line ------------------------------------------------------------------------
def _umpire(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "umpire", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_cli_odds_json_has_the_numbers() -> None:
    done = _umpire(
        "odds", "portable", "--firer", "infantry", "--target", "tanks", "--range", "2", "--json"
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) >= KEYS
    assert data == json.loads(json.dumps(fire_odds("infantry", "tanks", 2.0)))
    # portable.fire.destroy_tanks: small arms hit tanks like any target and take SP from one
    # above its last SP (these odds are for such a tank); the last SP they cannot take
    assert data["p_sp_loss"] > 0.0 and data["keeps_last_sp"] is True


def test_cli_odds_artillery_options() -> None:
    done = _umpire(
        "odds",
        "portable",
        "--firer",
        "artillery",
        "--target",
        "infantry",
        "--range",
        "4",
        "--target-cover",
        "fortified",
        "--commander",
        "--observed",
        "--same-target",
        "--quality",
        "poor",
        "--artillery",
        "heavy",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert KEYS | {"landing"} <= set(data)
    assert data["weapon"] == "Heavy Artillery"
    assert data["modifier"] == -1 + 2 + 1 + 1  # a fortified target can still be seen: +2
    expected = fire_odds(
        "artillery",
        "infantry",
        4.0,
        target_cover="fortified",
        commander=True,
        observed=True,
        same_target=True,
        quality="poor",
        artillery="heavy",
    )
    assert data == json.loads(json.dumps(expected))


def test_cli_odds_unknown_option_is_refused_in_one_line() -> None:
    done = _umpire(
        "odds",
        "portable",
        "--firer",
        "infantry",
        "--target",
        "tanks",
        "--range",
        "2",
        "--obscured",
        "--json",
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error:") and "obscured" in lines[0]


def test_cli_simulate_reports_every_game() -> None:
    done = _umpire("simulate", "portable/village-attack", "-n", "4", "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["n"] == 4
    assert sum(data["wins"].values()) == 4
