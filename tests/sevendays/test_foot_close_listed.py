"""Enemy infantry close to a firer, from the arrangement's list of foot units with a box around
the firer first (issue 19), is what a scan of every unit finds.

Rule sevendays.fire.modifier.infantry_close (book p15 modifier list: enemy infantry within
12" of the firer, and no friendly infantry nearer it than that enemy): ``firing._foot_close``
now reads the foot units listed once per arrangement and skips those farther than close range
in x or y before measuring. These tests compare it with ``_foot_close_scan`` (every unit
measured) for every unit on the table, as the umpire and as its side knows it, every few
actions of whole scripted games of every scenario; and on tables arranged so that enemy and
friendly infantry stand exactly at, just inside and just outside close range of the firer,
along an axis and diagonally.
"""

from __future__ import annotations

import math

import pytest

import umpire
from umpire.agents import make_agent
from umpire.rulesets.sevendays import firing
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import scenario_ids
from umpire.rulesets.sevendays.state import SevenDaysState
from umpire.rulesets.sevendays.world import World


def _compare(world: World, state: SevenDaysState) -> int:
    close = 0
    for firer in state.units.values():
        if firer.status != "active":
            continue
        for known_only in (False, True):
            got = firing._foot_close(world, state, firer, known_only)
            assert got == firing._foot_close_scan(world, state, firer, known_only)
            close += got
    return close


@pytest.mark.parametrize("scenario", scenario_ids())
def test_listed_foot_close_is_the_scan(scenario: str) -> None:
    close = checked = 0
    for seed in (41, 42):
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        ruleset = game.ruleset
        assert isinstance(ruleset, SevenDays)
        players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
        while game.to_act is not None and len(game.record.actions) < 300:
            side = game.to_act
            game.apply(players[side].choose(game.view(side), game.legal_actions()))
            if len(game.record.actions) % 7 == 0:
                close += _compare(ruleset.world(game.state), game.state)
                checked += 1
    assert checked > 20
    assert close > 0  # infantry was close to some firer, not only "no"


def test_at_the_edge_of_close_range() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=5)
    ruleset = game.ruleset
    assert isinstance(ruleset, SevenDays)
    state = game.state
    world = ruleset.world(state)
    foot = [u for u in state.units.values() if world.is_foot(u)]
    firer = next(u for u in state.units.values() if u.side == "nato")
    enemy = next(u for u in foot if u.side != firer.side)
    friend = next((u for u in foot if u.side == firer.side and u is not firer), None)
    others = [u for u in foot if u is not enemy and u is not friend and u is not firer]
    for n, u in enumerate(others):  # everyone else far away
        u.x, u.y = 1000.0 + 3 * n, 1000.0
    seen = set()
    for fx, fy in ((30.0, 20.0), (30.1, 20.3), (0.7, 0.3)):
        firer.x, firer.y = fx, fy
        for gap in (12.0, math.nextafter(12.0, 0.0), math.nextafter(12.0, 99.0), 12.000001, 6.0):
            for angle in (0.0, 90.0, 180.0, 45.0, 200.0):
                enemy.x = fx + gap * math.cos(math.radians(angle))
                enemy.y = fy + gap * math.sin(math.radians(angle))
                for friend_gap in (None, gap, gap - 1e-9, gap + 1e-9, 11.0):
                    if friend is not None and friend_gap is not None:
                        friend.x, friend.y = fx - friend_gap, fy
                    elif friend is not None:
                        friend.x, friend.y = 900.0, 900.0
                    state.touch()
                    for known_only in (False, True):
                        got = firing._foot_close(world, state, firer, known_only)
                        assert got == firing._foot_close_scan(world, state, firer, known_only)
                        seen.add(got)
    assert seen == {True, False}
