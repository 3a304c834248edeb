"""``umpire odds``: each exact answer against many runs of the game's own resolution code."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from umpire.core.errors import UmpireError, UnknownUnitError
from umpire.core.rng import RandomStream
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.config import default_house_rules
from umpire.rulesets.sevendays.firing import ShotPlan, plan_shot
from umpire.rulesets.sevendays.reactions import ReactionOption, reaction_need, roll_reaction
from umpire.rulesets.sevendays.shot_query import (
    ShotQuery,
    TestQuery,
    answer_shot,
    answer_test,
    find_profile,
)
from umpire.rulesets.sevendays.turns import activate

from ..conftest import MakeGame, unit

RUNS = 6000
QUERIES = [
    # a gun at a tank's front, then its side (different armour)
    ShotQuery("Challenger 1", "T-72A", 18),
    ShotQuery("Challenger 1", "T-72A", 18, facing="side", firer_moved=True),
    # HEAT at special armour: 2d10 keep the lowest for penetration
    ShotQuery("Milan", "T-64B", 30, weapon="atgm"),
    # two shots at a tank already carrying markers: removal by morale becomes possible
    ShotQuery("Chieftain Mk9", "BMP-2", 10, shots=2, target_markers=2, obscured=True),
    # heavy gun at infantry in cover: 2 conversion dice per hit
    ShotQuery("Chieftain Mk9", "Motor Rifles", 8, target_cover="cover", reaction=True),
    # infantry LAW at a vehicle close in, with enemy infantry near the firer
    ShotQuery("Infantry", "BMP-2", 6, weapon="law", enemy_infantry_near=True, markers=1),
]


def _target_uid(profile_id: str) -> str:
    return f"pact-{profile_id}"


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: f"{q.firer}->{q.target}")
def test_exact_shot_odds_match_the_games_own_dice(make_game: MakeGame, query: ShotQuery) -> None:
    answer = answer_shot(query)
    firer, target = answer.firer, answer.target
    game = make_game(
        nato=[unit(firer.id, firer.id, 36, 10)], pact=[unit(target.id, target.id, 36, 40)]
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    plan = answer.plan._replace(firer=f"nato-{firer.id}", target=_target_uid(target.id))
    counts = {"hit": 0, "pen": 0, "destroyed": 0, "removed": 0}
    markers: dict[int, int] = {}
    for seed in range(RUNS):
        state = game.state.clone()
        state.rng = RandomStream(seed)
        tgt = state.units[plan.target]
        tgt.markers = query.target_markers
        hit = pen = False
        for _ in range(query.shots):
            if not tgt.alive:
                break
            for event in resolve_shot(world, state, plan):
                if event.get("rule") == "sevendays.fire.base" and event.get("success"):
                    hit = True
                if event.get("kind") == "roll" and event.get("rule") in (
                    "sevendays.hit.penetration",
                    "sevendays.hit.heat_vs_special",
                ):
                    pen = pen or bool(event.get("success"))
        counts["hit"] += hit
        counts["pen"] += pen
        counts["destroyed"] += tgt.status == "destroyed"
        counts["removed"] += tgt.status == "removed"
        if tgt.status != "destroyed":
            # a removed unit counts as taking just the markers that removed it
            room = (target.morale or 99) - query.target_markers
            inflicted = min(room, tgt.markers - query.target_markers)
            markers[inflicted] = markers.get(inflicted, 0) + 1
    odds = answer.odds

    def close(p: Fraction, count: int) -> None:
        sigma = (float(p) * (1 - float(p)) / RUNS) ** 0.5
        assert abs(count / RUNS - float(p)) <= 4 * sigma + 1e-9, (float(p), count / RUNS)

    close(odds.p_hit, counts["hit"])
    if odds.p_penetrate is not None:
        close(odds.p_penetrate, counts["pen"])
    close(odds.p_destroyed, counts["destroyed"])
    close(odds.p_removed, counts["removed"])
    for k in set(markers) | set(odds.markers):
        close(odds.markers.get(k, Fraction(0)), markers.get(k, 0))
    assert odds.p_destroyed + sum(odds.markers.values()) == 1


def test_a_shot_worked_by_hand() -> None:
    # Challenger 1 (gun 11, 4+) at a T-72A's front (armour 15s) 18" away: one d10 needing 4+
    # hits 7 times in 10; d10 + 11 must exceed 15, so 5+ penetrates, 6 in 10 (not HEAT, so the
    # special armour does not matter); the house damage table destroys on 4-6 of a d6.
    answer = answer_shot(ShotQuery("Challenger 1", "T-72A", 18))
    assert answer.plan.dice == 1 and answer.plan.need == 4
    assert answer.odds.p_hit == Fraction(7, 10)
    assert answer.odds.p_penetrate == Fraction(7, 10) * Fraction(6, 10)
    assert answer.odds.p_destroyed == Fraction(7, 10) * Fraction(6, 10) * Fraction(1, 2)


def test_activation_and_reaction_tests(make_game: MakeGame) -> None:
    # one token and two markers: the d6 must beat 3, so 4+ -> 1/2
    test = answer_test(TestQuery("activation", tokens=1, markers=2))
    assert test["need"] == 4 and test["p_pass"] == Fraction(1, 2)
    # a natural 6 always passes, however loaded the unit
    assert answer_test(TestQuery("activation", tokens=4, markers=4))["p_pass"] == Fraction(1, 6)
    assert answer_test(TestQuery("activation"))["p_pass"] == 1  # the first activation is free
    # reacting to a vehicle in the open with an ATGM: 3+ less one = 2+
    react = answer_test(TestQuery("reaction", atgm=True))
    assert react["need"] == 2 and react["p_pass"] == Fraction(5, 6)
    # the game's own activation code agrees with the exact figure
    game = make_game(nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t72a", 36, 40)])
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    passed = 0
    n = 3000
    for seed in range(n):
        state = game.state.clone()
        state.rng = RandomStream(seed)
        tank = state.units["nato-c"]
        tank.tokens, tank.markers = 1, 2
        state.flow.pools["nato"] = 5
        events = activate(world, state, tank)
        passed += state.flow.activation is not None
        assert events
    sigma = (0.25 / n) ** 0.5
    assert abs(passed / n - 0.5) < 4 * sigma


def test_reaction_test_odds_match_the_games_reaction_roll(make_game: MakeGame) -> None:
    # motor rifles (foot) in the open activate; a Chieftain with one token and one marker
    # tries to react: 4+ against foot in the open, +2 for its token and marker (house) -> 6
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("r", "motor-rifles", 36, 26)]
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    state = game.state
    reactor, activator = state.units["nato-c"], state.units["pact-r"]
    reactor.tokens, reactor.markers = 1, 1
    plan = plan_shot(world, state, reactor, activator, "gun", reaction=True)
    assert isinstance(plan, ShotPlan)
    need = reaction_need(world, state, reactor, activator, plan)
    exact = answer_test(TestQuery("reaction", tokens=1, markers=1, activator="foot"))
    assert exact["need"] == need == 6
    passed = 0
    n = 3000
    for seed in range(n):
        trial = state.clone()
        trial.rng = RandomStream(seed)
        trial.flow.pools["nato"] = 3
        ok, _ = roll_reaction(
            world, trial, trial.units["nato-c"], ReactionOption("nato-c", need, plan)
        )
        passed += ok
    p = float(exact["p_pass"])
    assert abs(passed / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_bad_questions_get_one_line_errors() -> None:
    with pytest.raises(UnknownUnitError, match="did you mean 'Challenger 1'"):
        find_profile("Chalenger")
    with pytest.raises(UmpireError, match=r"12\" or less \(rule sevendays.fire.atgm_min_range\)"):
        answer_shot(ShotQuery("Milan", "T-72A", 8, weapon="atgm"))
    with pytest.raises(UmpireError, match="no LAW"):
        answer_shot(ShotQuery("Chieftain Mk9", "T-72A", 8, weapon="law"))
    with pytest.raises(UmpireError, match="--facing"):
        answer_shot(ShotQuery("Chieftain Mk9", "T-72A", 8, facing="rear"))


def test_house_rules_change_the_odds() -> None:
    base = answer_shot(ShotQuery("Challenger 1", "T-72A", 18))
    house = default_house_rules().model_copy(update={"no_penetration_markers": 0})
    changed = answer_shot(ShotQuery("Challenger 1", "T-72A", 18, house=house))
    assert base.odds.markers != changed.odds.markers


def test_odds_command_json() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "odds",
            "sevendays",
            "--firer",
            "Challenger 1",
            "--target",
            "T-72A",
            "--range",
            "18",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert {"p_hit", "p_penetrate", "p_destroyed", "markers"} <= set(data)
    assert data["p_hit"] == pytest.approx(0.7)
    assert abs(sum(data["markers"].values()) + data["p_destroyed"] - 1) < 1e-9
    act = subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "odds",
            "sevendays",
            "--activation",
            "--tokens",
            "1",
            "--markers",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(act.stdout)["p_pass"] == 0.5
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "umpire",
            "odds",
            "sevendays",
            "--firer",
            "Nope",
            "--target",
            "T-72A",
            "--range",
            "5",
        ],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_portable_odds_honour_a_house_rules_file(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("fire_hit: 4\n", encoding="utf-8")
    base = ["odds", "portable", "--firer", "infantry", "--target", "infantry", "--range", "2"]

    def p_hit(*extra: str) -> float:
        out = subprocess.run(
            [sys.executable, "-m", "umpire", *base, "--json", *extra],
            capture_output=True,
            text=True,
            check=True,
        )
        return float(json.loads(out.stdout)["p_hit"])

    assert p_hit("--house-rules", str(house)) > p_hit()
