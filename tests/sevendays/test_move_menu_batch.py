"""The move menu's shortcuts (issue 19) against the plain rules, at positions of whole games.

``movement.terrain_allowed`` filters a whole menu of destinations by the table's part of
:func:`movement.check_move` (rules sevendays.move.normal/rapid/road: a destination off the table
or beyond the move's reach, a road move off its road, impassable ground on the way or at the
end, book p10-11), looking the unit's reach and mover class up once; it must keep exactly the
points :func:`movement.terrain_refusal` allows, in order. ``movement.move_options`` must be the
candidates :func:`movement.check_move` allows (no destination within 1" of an enemy,
sevendays.move.proximity). ``movement._nearest_cover_point`` remembers the nearest point of a
cover area's inner part (the menu's "nearby cover" destinations) and must give shapely's
answer. ``movement.nearest_enemy_scan`` finds the nearest enemy by distance alone unless two
tie, and must answer as ``min`` with the full ``_nearness`` key (ties: units in the open first,
then hidden markers by marker id).
"""

from __future__ import annotations

import random

import pytest
from shapely.geometry import Point

import umpire
from umpire.agents import make_agent
from umpire.core.ruleset import get_ruleset
from umpire.rulesets.sevendays import movement
from umpire.rulesets.sevendays.state import SevenDaysState, Unit


def _plain_terrain(
    world: object, unit: Unit, speed: str, points: list[tuple[float, float]]
) -> list:
    """The plain rule, point by point and uncached."""
    out = []
    for p in points:
        if not world.table.inside(*p):  # type: ignore[attr-defined]
            continue
        reach = world.move_distance(unit, speed)  # type: ignore[attr-defined]
        mover = world.mover_class(unit)  # type: ignore[attr-defined]
        if movement._terrain_refusal(world, unit, speed, p, reach, mover) is None:  # type: ignore[arg-type]
            out.append(p)
    return out


def _plain_nearest(state: SevenDaysState, unit: Unit) -> tuple[float, float] | None:
    enemies = [u for u in state.units.values() if u.status == "active" and u.side != unit.side]
    if not enemies:
        return None
    return min(enemies, key=lambda e: movement._nearness(e, unit.pos)).pos


@pytest.mark.parametrize(
    "scenario,seed,agents",
    [("meeting-engagement", 7, "random"), ("meeting-engagement", 3, "scripted")],
)
def test_menu_shortcuts_equal_the_plain_rules(scenario: str, seed: int, agents: str) -> None:
    ruleset = get_ruleset("sevendays")
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
    rng = random.Random(seed)
    menus = refused = nearest = covers = 0
    for n in range(400):
        side = game.to_act
        if side is None:
            break
        if n % 6 == 0:
            state = game.state
            world = ruleset.world(state)  # type: ignore[attr-defined]
            width = world.table.width
            height = world.table.height
            for unit in [u for u in state.units.values() if u.alive]:
                assert movement.nearest_enemy_scan(state, unit) == _plain_nearest(state, unit)
                nearest += 1
                for area in [a for a in world.table.areas if a.kind.cover][:4]:
                    margin = world.radius(unit)
                    inner = world.inner_polygon(area, margin)
                    plain = (
                        None
                        if inner is None
                        else movement._nearest_point(inner, Point(unit.x, unit.y))
                    )
                    for _ in range(2):  # made, then remembered
                        found = movement._nearest_cover_point(world, area, margin, unit.x, unit.y)
                        assert found == plain
                    covers += 1
                for speed in ("normal", "rapid", "road"):
                    candidates = movement.move_candidates(world, state, unit, speed)
                    # and points the menu never offers: beyond reach, off the table
                    extra = [
                        (rng.uniform(-2, width + 2), rng.uniform(-2, height + 2)) for _ in range(4)
                    ]
                    points = candidates + extra
                    fast = movement.terrain_allowed(world, unit, speed, points)
                    assert fast == _plain_terrain(world, unit, speed, points)
                    # once more: now every answer comes from the memo
                    assert movement.terrain_allowed(world, unit, speed, points) == fast
                    refused += len(points) - len(fast)
                    menu = movement.move_options(world, state, unit, speed)
                    assert menu == [
                        p
                        for p in candidates
                        if movement.check_move(world, state, unit, speed, p) is None
                    ]
                    menus += 1
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
    assert menus > 100 and refused > 0 and nearest > 100 and covers > 100


def test_nearest_enemy_ties_as_the_plain_rule() -> None:
    """Two and three enemies at the same distance (one a hidden marker): the same one as
    ``min`` with the full key finds."""
    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    state = game.state
    nato = [u for u in state.units.values() if u.side == "nato"]
    pact = [u for u in state.units.values() if u.side == "pact"]
    me = nato[0]
    me.x, me.y = 20.0, 20.0
    for i, foe in enumerate(pact):  # every enemy far away, then three placed at 5"
        foe.x, foe.y = 40.0 + i, 40.0
    ties = [(25.0, 20.0), (15.0, 20.0), (20.0, 25.0)]
    for hidden_first in (False, True):
        for k, foe in enumerate(pact[:3]):
            foe.x, foe.y = ties[k]
            foe.hidden = hidden_first and k == 0
            foe.marker = f"m{3 - k}" if foe.hidden else None
        assert movement.nearest_enemy_scan(state, me) == _plain_nearest(state, me)
    pact[1].x = 15.5  # no tie any more among the nearest two
    assert movement.nearest_enemy_scan(state, me) == _plain_nearest(state, me)
