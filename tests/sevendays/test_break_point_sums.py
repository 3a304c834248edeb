"""Break points from BP totals worked out once per table and losses read from the tally of
units by status (issue 19) are the plain sums over every unit.

Rule sevendays.victory.break_point (book p22: a battlegroup breaks when the BP of its units
lost reaches its break point, a fraction of its total BP; the Reserves card brings units on
during play). ``World.total_bp`` keeps the totals per table and number of units, and
``World.lost_bp`` sums the destroyed and removed units of the tally (tally.py). These tests
play whole games of every scenario, scripted and random players (the random ones play the
Reserves card and Against All Odds as they come), and after every action compare both sides'
totals, losses and break points with sums over every unit of the table, and the same on
clones of the state and on a table with a unit added.
"""

from __future__ import annotations

import math

import pytest

import umpire
from umpire.agents import make_agent
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import scenario_ids
from umpire.rulesets.sevendays.state import SIDES, SevenDaysState, copy_unit
from umpire.rulesets.sevendays.world import World


def _plain(world: World, state: SevenDaysState, side: str) -> tuple[int, int, int]:
    units = [u for u in state.units.values() if u.side == side]
    total = sum(world.profiles[u.profile].bp for u in units)
    lost = sum(world.profiles[u.profile].bp for u in units if u.status in ("destroyed", "removed"))
    fraction = world.scenario.spec.break_point_fraction[side]  # type: ignore[index]
    return total, lost, max(1, math.ceil(total * fraction))


def _kept(world: World, state: SevenDaysState, side: str) -> tuple[int, int, int]:
    return world.total_bp(state, side), world.lost_bp(state, side), world.break_point(state, side)


@pytest.mark.parametrize("agents", ["scripted", "random"])
@pytest.mark.parametrize("scenario", scenario_ids())
def test_break_point_sums_are_the_plain_sums(scenario: str, agents: str) -> None:
    checked = lost_seen = added = 0
    for seed in (31, 32):
        game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
        ruleset = game.ruleset
        assert isinstance(ruleset, SevenDays)
        players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
        while game.to_act is not None and len(game.record.actions) < 400:
            side = game.to_act
            game.apply(players[side].choose(game.view(side), game.legal_actions()))
            state = game.state
            world = ruleset.world(state)
            size = len(state.units)
            for s in SIDES:
                assert _kept(world, state, s) == _plain(world, state, s)
                lost_seen += _plain(world, state, s)[1] > 0
            checked += 1
            added += len(state.units) != size
            if checked % 50 == 0:  # a clone, and a table with one more unit on it
                twin = state.clone()
                for s in SIDES:
                    assert _kept(world, twin, s) == _plain(world, twin, s)
                extra = copy_unit(next(iter(twin.units.values())))
                extra.uid = "extra-unit"
                twin.units[extra.uid] = extra
                for s in SIDES:
                    assert _kept(world, twin, s) == _plain(world, twin, s)
                for s in SIDES:  # and the game's own table again
                    assert _kept(world, state, s) == _plain(world, state, s)
    assert checked > 100
    assert lost_seen > 0  # losses were summed, not only zeros
