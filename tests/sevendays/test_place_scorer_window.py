"""The scripted player's place score measures only the foes near a place in x (issue 19), and
scores every place as measuring every foe does.

The scripted player (house: a player's heuristic, not a rule of the book) scores the places a
unit may move to: near an objective, in cover, and out of the enemy's reach: a unit that
keeps off (an ATGM carrier or a support team, 12.5") loses twice the shortfall when the
nearest enemy is closer than that, and a vehicle loses the shortfall when the nearest enemy
is within 6" (infantry anti-tank weapons). Only the nearest enemy nearer than the larger of
those distances changes a score, so ``SevenDaysScripted._place_scorer`` measures only the
foes within that distance in x of the place (the others are farther). These tests play
whole scripted games of every scenario and, for every scorer the player makes, compare each
score it gives with the score from every foe measured, and also at the edges of the window:
places exactly that distance (and a hair more or less) from each foe, along x and diagonally.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

import umpire
from umpire.agents import make_agent
from umpire.play import play_out
from umpire.rulesets.sevendays.agent import SevenDaysScripted
from umpire.rulesets.sevendays.scenario import scenario_ids

Place = tuple[float, float]
_made = SevenDaysScripted._place_scorer


def _plain(base: float, foes: list[Place], vehicle: bool, keep_off: float, point: Place) -> float:
    """A place's score from its score without the enemy, every foe measured."""
    if keep_off <= 0.0 and not vehicle:
        return base
    nearest = min(math.dist(point, f) for f in foes)
    score = base
    if nearest < keep_off:
        score -= (keep_off - nearest) * 2
    if vehicle and nearest < 6:
        score -= 6 - nearest
    return score


def _edges(foes: list[Place], reach: float) -> list[Place]:
    """Places at the edge of the window around each foe (and a hair either side)."""
    out = []
    for fx, fy in foes[:6]:
        for d in (reach, reach - 1e-9, reach + 1e-9, reach * 0.5, math.nextafter(reach, 0.0)):
            out += [(fx + d, fy), (fx - d, fy), (fx + d / math.sqrt(2), fy + d / math.sqrt(2))]
    return out


def _checking(stats: dict[str, int]) -> Callable[..., Any]:
    def made(
        world: Any,
        places: dict[Place, tuple[float, bool]],
        vehicle: bool,
        objectives: list[Place],
        foes: list[Place],
        keep_off: float,
        objective_weight: float,
    ) -> Callable[[Place], float]:
        scorer = _made(world, places, vehicle, objectives, foes, keep_off, objective_weight)
        # the same score with the enemy left out (no foe anywhere near): the plain score is
        # that less the plain penalty
        far = [(-1e6, -1e6)]
        base = _made(world, places, False, objectives, far, 0.0, objective_weight)
        reach = max(keep_off, 6.0 if vehicle else 0.0)
        for point in _edges(foes, reach):
            want = _plain(base(point), foes, vehicle, keep_off, point)
            assert scorer(point) == want, (point, foes, vehicle, keep_off)
            stats["edges"] += 1

        def checked(point: Place) -> float:
            got = scorer(point)
            want = _plain(base(point), foes, vehicle, keep_off, point)
            assert got == want, (point, foes, vehicle, keep_off)
            stats["places"] += 1
            if want != base(point):
                stats["penalised"] += 1
            return got

        return checked

    return made


@pytest.mark.parametrize("scenario", scenario_ids())
def test_windowed_scores_are_the_plain_scores(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    stats = {"places": 0, "edges": 0, "penalised": 0}
    monkeypatch.setattr(SevenDaysScripted, "_place_scorer", staticmethod(_checking(stats)))
    for seed in (21, 22):
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
        play_out(game, players, max_actions=300)
    assert stats["places"] > 50 and stats["edges"] > 50
    assert stats["penalised"] > 0  # the enemy's reach did change some scores
