"""Close combat (sevendays.close_combat, house: the book's page is not public).

An activated infantry or support unit that has not acted may spend both actions to assault: it
moves (a normal move, terrain tests and all) into contact with an enemy unit. If it gets there,
both roll a d6, add one per friendly infantry or support unit within 2" of them and subtract
their own morale markers. The loser takes morale markers equal to the difference (which may
remove it); the winner holds its ground; a tie changes nothing.
"""

from __future__ import annotations

import math

from umpire.core.events import Event, note, roll
from umpire.rulesets.sevendays.morale import add_markers
from umpire.rulesets.sevendays.movement import check_move, do_move
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World

RULE = "sevendays.close_combat"


def contact_point(world: World, attacker: Unit, defender: Unit) -> tuple[float, float]:
    """Where the attacker stops: touching the defender on the side it comes from."""
    gap = world.radius(attacker) + world.radius(defender)
    dx, dy = attacker.x - defender.x, attacker.y - defender.y
    length = math.hypot(dx, dy) or 1.0
    return (round(defender.x + dx / length * gap, 2), round(defender.y + dy / length * gap, 2))


def assault_targets(world: World, state: SevenDaysState, attacker: Unit) -> list[Unit]:
    """Enemy units this infantry or support unit can reach in contact with a normal move."""
    if not world.is_foot(attacker):
        return []
    reach = world.move_distance(attacker, "normal")
    out = []
    for enemy in state.alive():
        if enemy.side == attacker.side or enemy.hidden or world.is_helicopter(enemy):
            continue  # sevendays.air.helicopter: a helicopter cannot be assaulted
        gap = world.radius(attacker) + world.radius(enemy)
        if math.dist(attacker.pos, enemy.pos) > reach + gap + 0.01:
            continue  # out of reach: no need to trace the path
        point = contact_point(world, attacker, enemy)
        if check_move(world, state, attacker, "normal", point, assaulting=enemy.uid) is None:
            out.append(enemy)
    return out


def support(world: World, state: SevenDaysState, unit: Unit) -> int:
    """Friendly infantry and support units within 2" (not the unit itself)."""
    return sum(
        1
        for u in state.alive(unit.side)
        if u is not unit
        and world.is_foot(u)
        and math.dist(u.pos, unit.pos) <= world.house.close_combat_support
    )


def score(world: World, state: SevenDaysState, unit: Unit, die: int) -> int:
    return die + support(world, state, unit) - unit.markers


def assault(world: World, state: SevenDaysState, attacker: Unit, defender: Unit) -> list[Event]:
    """Move into contact, then fight if the move got there."""
    point = contact_point(world, attacker, defender)
    events = do_move(world, state, attacker, "normal", point)
    if math.dist(attacker.pos, point) > 0.05:
        events.append(note("assault", f"{attacker.name} is stopped short of {defender.name}", RULE))
        return events
    a_die, d_die = state.rng.d(6), state.rng.d(6)
    a, d = score(world, state, attacker, a_die), score(world, state, defender, d_die)
    loser, margin = (defender, a - d) if a > d else (attacker, d - a) if d > a else (None, 0)
    verdict = "a stand-off" if loser is None else f"{loser.name} loses by {margin}"
    events.append(
        roll(
            RULE,
            f"close combat: {attacker.name} d6 {a_die} -> {a} against {defender.name} d6 {d_die} "
            f'-> {d} (+1 per friendly infantry within 2", -1 per marker): {verdict}',
            [a_die, d_die],
            a - d,
            None,
            a > d,
            unit=attacker.uid,
            target=defender.uid,
        )
    )
    if loser is not None:
        events += add_markers(world, state, loser, margin, RULE, "lost the close combat")
    return events
