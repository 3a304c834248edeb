"""Platoon actions (rule sevendays.activation.platoon, house; book p11 not public).

Up to four units of the same type standing within 4" of each other may be activated together for
one command token. The unit named in the action leads; the others follow it: when it moves they
make the same move (the same distance and direction, each checked as its own move), when it
shoots they shoot at the same target with the same kind of weapon where they can. A platoon
activation moves and shoots only (no assault, morale check, fall back, smoke or transport
actions). The activation test, when one is due, is taken by the worst unit (most tokens plus
markers); every unit of the platoon takes a token, the pool pays one. The enemy's reaction
window is against the leader.
"""

from __future__ import annotations

import math

from umpire.core.events import Event, note
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.movement import check_move, do_move
from umpire.rulesets.sevendays.shots import ShotPlan
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World

RULE = "sevendays.activation.platoon"
ACTIONS = frozenset({"move", "rapid", "road", "turn", "fire", "atgm", "rockets", "end"})


def platoon_of(world: World, state: SevenDaysState, leader: Unit) -> list[Unit]:
    """The units that would follow ``leader``: of its type and side, linked to it by gaps of
    at most the platoon reach, nearest first, up to the platoon size (leader included)."""
    cfg = world.house.platoon
    pool = _kin(world, state, leader)
    chosen = [leader]
    while len(chosen) < cfg.size:
        best: tuple[float, Unit] | None = None
        for u in pool:
            if u in chosen:
                continue
            gap = min(math.dist(u.pos, c.pos) for c in chosen)
            if gap <= cfg.reach and (best is None or gap < best[0]):
                best = (gap, u)
        if best is None:
            break
        chosen.append(best[1])
    return chosen[1:]


def _kin(world: World, state: SevenDaysState, leader: Unit) -> list[Unit]:
    """Units that could join ``leader``'s platoon: on the table, its side and its type."""
    kind = world.profile(leader).type
    return [
        u
        for u in state.units.values()
        if u.alive
        and u is not leader
        and u.side == leader.side
        and not u.hidden
        and world.profile(u).type is kind
    ]


def can_lead(world: World, state: SevenDaysState, leader: Unit) -> bool:
    """Whether ``leader`` has a platoon at all: one kin unit within the platoon reach (the
    same answer as ``bool(platoon_of(...))``, without building the platoon)."""
    reach = world.house.platoon.reach
    return world.house.platoon.size > 1 and any(
        math.dist(u.pos, leader.pos) <= reach for u in _kin(world, state, leader)
    )


def leaders(world: World, state: SevenDaysState, side: str) -> set[str]:
    """The ids of ``side``'s units on the table that :func:`can_lead` (one pass for the menu
    of activations instead of a scan of every unit per unit)."""
    if world.house.platoon.size <= 1:
        return set()
    reach = world.house.platoon.reach
    groups: dict[object, list[Unit]] = {}
    for u in state.units.values():
        if u.alive and u.side == side:
            groups.setdefault(world.profile(u).type, []).append(u)
    out: set[str] = set()
    dist = math.dist
    for group in groups.values():
        open_kin = [u for u in group if not u.hidden]
        for leader in group:
            pos = leader.pos
            if any(u is not leader and dist(u.pos, pos) <= reach for u in open_kin):
                out.add(leader.uid)
    return out


def worst(units: list[Unit]) -> Unit:
    """The unit whose activation test is hardest (most tokens plus markers)."""
    return max(units, key=lambda u: (u.tokens + u.markers, u.tokens))


def follow_move(
    world: World,
    state: SevenDaysState,
    members: list[Unit],
    speed: str,
    start: tuple[float, float],
    end: tuple[float, float],
) -> list[Event]:
    """Each member makes the leader's move from its own place, where that move is legal."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    events: list[Event] = []
    for unit in members:
        if not unit.alive:
            continue
        dest = (round(unit.x + dx, 2), round(unit.y + dy, 2))
        refusal = check_move(world, state, unit, speed, dest)
        if refusal is not None:
            events.append(
                note("platoon", f"{unit.name} stays: {refusal.reason}", RULE, unit=unit.uid)
            )
            continue
        events += do_move(world, state, unit, speed, dest)
    return events


def follow_turn(state: SevenDaysState, members: list[Unit], facing: float) -> list[Event]:
    for unit in members:
        if unit.alive:
            unit.facing = facing
    state.touch()
    return [note("platoon", "the platoon turns with its leader", RULE)]


def follow_fire(
    world: World,
    state: SevenDaysState,
    members: list[Unit],
    target: Unit,
    kind: str,
    moved: bool,
) -> list[Event]:
    """Each member shoots at the leader's target with the same kind of weapon, if it can."""
    events: list[Event] = []
    for unit in members:
        if not target.alive:
            break
        if not unit.alive:
            continue
        plan = plan_shot(
            world, state, unit, target, kind, moved=moved, actions_left=2 if kind == "atgm" else 1
        )
        if not isinstance(plan, ShotPlan) or not plan.possible:
            why = plan.reason if not isinstance(plan, ShotPlan) else "no score can hit"
            events.append(
                note("platoon", f"{unit.name} holds its fire: {why}", RULE, unit=unit.uid)
            )
            continue
        events += resolve_shot(world, state, plan)
    return events
