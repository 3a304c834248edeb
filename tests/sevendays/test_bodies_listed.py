"""The bodies a sight line reads, from the arrangement's list of bodies tested box, cross
product, then distance (issue 19), are exactly those a scan of every unit finds nearer the
line than the reach asked for, in table order.

Book p15 (rule sevendays.los.blockers): an enemy vehicle of the firer or any wreck lying
across the line between the centres blocks sight; a vehicle of the firer's own side only
obscures it (sevendays.los.obscured); a hidden marker does neither (rule
sevendays.los.hidden_markers, house). ``los._bodies_near`` is what ``los._sight`` reads of
them: the blocking and the obscuring bodies nearer the line than ``reach``. These tests play
whole scripted games of two scenarios and stop every few actions to compare, for every pair
of units on the table and three reaches, the answer with the plain scan (``_bodies_scan``,
every unit, then the distance), list for list and in order; and with copies of the units
standing in for them (answered by ``_bodies``, a superset that sight filters the same way).
"""

from __future__ import annotations

from typing import Any

import pytest

import umpire
from umpire.agents import make_agent
from umpire.geometry.table import segment_point_distance
from umpire.rulesets.sevendays import los
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.state import SevenDaysState, copy_unit
from umpire.rulesets.sevendays.world import World

Vec = tuple[float, float]


def _near(bodies: tuple[list[Vec], list[Vec]], a: Vec, b: Vec, reach: float) -> tuple[Any, Any]:
    blocking, obscuring = bodies
    return (
        [p for p in blocking if segment_point_distance(a, b, p) < reach],
        [p for p in obscuring if segment_point_distance(a, b, p) < reach],
    )


def _compare(world: World, state: SevenDaysState) -> int:
    units = [u for u in state.units.values() if u.status == "active"]
    found = 0
    for firer in units:
        for target in units:
            if firer is target:
                continue
            a, b = firer.pos, target.pos
            for reach in (0.5, 3.0, 5.5):
                box = (
                    min(a[0], b[0]) - reach,
                    min(a[1], b[1]) - reach,
                    max(a[0], b[0]) + reach,
                    max(a[1], b[1]) + reach,
                )
                want = _near(los._bodies_scan(world, state, firer, target, box), a, b, reach)
                got = los._bodies_near(world, state, firer, target, a, b, reach)
                assert got == want
                found += len(got[0]) + len(got[1])
            # a copy standing in for the firer: not the state's own unit, answered by _bodies
            twin = copy_unit(firer)
            copied = los._bodies_near(world, state, twin, target, a, b, 3.0)
            wide = (
                min(a[0], b[0]) - 3,
                min(a[1], b[1]) - 3,
                max(a[0], b[0]) + 3,
                max(a[1], b[1]) + 3,
            )
            assert _near(copied, a, b, 3.0) == _near(
                los._bodies_scan(world, state, twin, target, wide), a, b, 3.0
            )
    return found


@pytest.mark.parametrize("scenario,seed", [("meeting-engagement", 6), ("breakthrough", 1)])
def test_listed_bodies_are_the_scan(scenario: str, seed: int) -> None:
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    ruleset = game.ruleset
    assert isinstance(ruleset, SevenDays)
    players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
    found = checked = 0
    while game.to_act is not None and len(game.record.actions) < 240:
        side = game.to_act
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
        if len(game.record.actions) % 15 == 0:
            found += _compare(ruleset.world(game.state), game.state)
            checked += 1
    assert checked >= 5
    assert found > 0  # bodies near the lines were compared, not only empty lists
