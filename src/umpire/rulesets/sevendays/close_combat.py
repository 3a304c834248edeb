"""Close combat (sevendays.close_combat, house: the book's page is not public).

An activated infantry or support unit that has not acted may spend both actions to assault: it
moves (a normal move, terrain tests and all) into contact with an enemy unit. If it gets there,
both roll a d6, add one per friendly infantry or support unit within 2" of them and subtract
their own morale markers. The loser takes morale markers equal to the difference (which may
remove it); the winner holds its ground; a tie changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from umpire.core.chance import DiceOff
from umpire.core.events import Event, note
from umpire.core.switches import switches_in, verdict_events
from umpire.rulesets.sevendays.morale import add_markers
from umpire.rulesets.sevendays.movement import check_move, do_move
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World

if TYPE_CHECKING:
    from umpire.core.catalog import RuleEntry

RULE = "sevendays.close_combat"


def _catalog() -> Mapping[str, RuleEntry]:
    from umpire.rulesets.sevendays.config import rule_catalog

    return rule_catalog()


def contact_point(world: World, attacker: Unit, defender: Unit) -> tuple[float, float]:
    """Where the attacker stops: touching the defender on the side it comes from."""
    gap = world.radius(attacker) + world.radius(defender)
    dx, dy = attacker.x - defender.x, attacker.y - defender.y
    length = math.hypot(dx, dy) or 1.0
    return (round(defender.x + dx / length * gap, 2), round(defender.y + dy / length * gap, 2))


def assault_targets(world: World, state: SevenDaysState, attacker: Unit) -> list[Unit]:
    """Enemy units this infantry or support unit can reach in contact with a normal move
    (that only infantry and support assault is a rule switch: under advise or off any unit may)."""
    if not world.is_foot(attacker) and not switches_in(state.options).allows(
        RULE, False, f"{attacker.name} is not infantry or support and assaults"
    ):
        return []
    reach = world.move_distance(attacker, "normal")
    out = []
    if world.holds(state, attacker):
        # only the units on the table within reach of any contact, from the unit index (the
        # units of state.alive() that are that near, in the same table order): the widest
        # gap is the attacker's radius and the largest footprint's
        units = state.units
        footprint = world.house.footprint
        widest = reach + world.radius(attacker) + max(footprint.values()) + 0.01
        near = world.unit_index(state).alive.around(attacker.x, attacker.y, widest)
        candidates = [units[p.uid] for _, _, _, p in near]
    else:
        candidates = state.alive()
    for enemy in candidates:
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


def modifier(world: World, state: SevenDaysState, unit: Unit) -> int:
    """What ``unit`` adds to its die: +1 per friendly infantry or support within 2", -1 per
    morale marker."""
    return support(world, state, unit) - unit.markers


def score(world: World, state: SevenDaysState, unit: Unit, die: int) -> int:
    return die + modifier(world, state, unit)


def CloseCombatRoll(  # noqa: N802 - reads as the chance it builds
    attacker_mod: int,
    defender_mod: int,
    text: Callable[[int, int, int, int], str] | None = None,
    data: Mapping[str, Any] | None = None,
) -> DiceOff:
    """Rule sevendays.close_combat as one chance: both d6 with their modifiers, the attacker's
    first; the outcome is the attacker's score minus the defender's (positive: the defender
    loses by that much, negative: the attacker does, 0: a stand-off). Sampled in play as one
    ``roll`` event with both dice, enumerated exactly (36 ordered pairs) for the odds."""
    return DiceOff(RULE, 6, attacker_mod, defender_mod, text, dict(data or {}))


def assault(world: World, state: SevenDaysState, attacker: Unit, defender: Unit) -> list[Event]:
    """Move into contact, then fight if the move got there."""
    verdict = switches_in(state.options).check(
        RULE,
        world.is_foot(attacker),
        f"{attacker.name} is not infantry or support and assaults {defender.name}",
    )
    events = verdict_events(verdict, _catalog(), attacker.side)
    point = contact_point(world, attacker, defender)
    events += do_move(world, state, attacker, "normal", point)
    if math.dist(attacker.pos, point) > 0.05:
        events.append(note("assault", f"{attacker.name} is stopped short of {defender.name}", RULE))
        return events

    def words(a_die: int, d_die: int, a: int, d: int) -> str:
        loser = defender if a > d else attacker
        verdict = "a stand-off" if a == d else f"{loser.name} loses by {abs(a - d)}"
        return (
            f"close combat: {attacker.name} d6 {a_die} -> {a} against {defender.name} d6 {d_die} "
            f'-> {d} (+1 per friendly infantry within 2", -1 per marker): {verdict}'
        )

    difference = CloseCombatRoll(
        modifier(world, state, attacker),
        modifier(world, state, defender),
        words,
        {"unit": attacker.uid, "target": defender.uid},
    ).sample(state.rng, events)
    loser = defender if difference > 0 else attacker if difference < 0 else None
    margin = abs(difference)
    if loser is not None:
        events += add_markers(world, state, loser, margin, RULE, "lost the close combat")
    return events
