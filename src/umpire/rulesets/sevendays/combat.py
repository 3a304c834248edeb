"""Resolving a planned shot: roll to hit, then the effects of each hit."""

from __future__ import annotations

from umpire.core.events import Event
from umpire.rulesets.sevendays.damage import resolve_foot_hits, resolve_vehicle_hit
from umpire.rulesets.sevendays.morale import add_markers
from umpire.rulesets.sevendays.mortars import mark
from umpire.rulesets.sevendays.shots import ShotPlan, roll_to_hit
from umpire.rulesets.sevendays.state import SevenDaysState
from umpire.rulesets.sevendays.world import World


def resolve_shot(world: World, state: SevenDaysState, plan: ShotPlan) -> list[Event]:
    if plan.weapon_kind == "aa":
        from umpire.rulesets.sevendays.air import resolve_aa

        return resolve_aa(world, state, plan)
    firer = state.units[plan.firer]
    target = state.units[plan.target]
    hits, event = roll_to_hit(state, plan, firer, target)
    events = [event]
    if plan.weapon_kind == "atgm" and not world.is_vehicle(firer) and world.in_buildings(firer):
        events += add_markers(  # rule sevendays.fire.atgm_backblast
            world, state, firer, 1, "sevendays.fire.atgm_backblast", "back-blast in a building"
        )
    if plan.weapon.mortar:
        mark(state, target.pos)  # sevendays.mortar.ranging: the next shot here is easier
    if hits == 0:
        return events
    if plan.target_is_vehicle:
        events += resolve_vehicle_hit(world, state, plan, target)
    else:
        events += resolve_foot_hits(world, state, plan, hits, target)
    return events
