"""Exhaustion: a side that has lost a third of its initial SP stops attacking; the battle ends
when both sides are exhausted."""

from __future__ import annotations

import math

from umpire.geometry.squaregrid import Square, distance
from umpire.rulesets.portable.state import SIDES, PortableState
from umpire.rulesets.portable.world import World


def initial_strength(state: PortableState, side: str) -> int:
    """SP of the side's ground units at the start of the battle."""
    return sum(u.max_sp for u in state.units.values() if u.side == side and not u.air)


def exhaustion_point(world: World, initial: int) -> int:
    """portable.exhaustion.point: one third of the initial SP, rounded up."""
    num, den = world.house.exhaustion_fraction
    return math.ceil(initial * num / den)


def lost_sp(state: PortableState, side: str) -> int:
    """SP the side's ground units have lost so far."""
    left = sum(u.sp for u in state.units.values() if u.side == side and not u.air and u.alive)
    return state.initial_sp.get(side, 0) - left


def reached_exhaustion(world: World, state: PortableState, side: str) -> bool:
    """portable.exhaustion.point: the side has lost its exhaustion point's worth of SP."""
    return lost_sp(state, side) >= exhaustion_point(world, state.initial_sp.get(side, 0))


def check_exhaustion(world: World, state: PortableState) -> list[str]:
    """portable.exhaustion.check: step 5 of the turn sequence, where both sides check whether
    they have reached their exhaustion point; the sides newly found exhausted are recorded
    (losses are permanent, so a side once exhausted stays so) and returned."""
    found: list[str] = []
    for side in SIDES:
        if side not in state.exhausted_sides and reached_exhaustion(world, state, side):
            state.exhausted_sides.append(side)
            found.append(side)
    return found


def exhausted(world: World, state: PortableState, side: str) -> bool:
    """portable.exhaustion.check: the side was found exhausted at step 5 of a turn (SP lost
    during a turn count only from that turn's check); portable.exhaustion.no_aggression
    applies from then on."""
    return side in state.exhausted_sides


def nearest_enemy(state: PortableState, side: str, square: Square) -> int:
    """Squares from ``square`` to the nearest enemy ground unit (99 if there is none)."""
    best = 99
    for u in state.units.values():
        if u.alive and not u.air and u.side != side:
            best = min(best, distance(u.pos, square))
    return best
