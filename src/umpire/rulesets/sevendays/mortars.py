"""Mortars (sevendays.mortar.*) and the smoke they lay (sevendays.smoke).

A mortar fires one d10 needing 8+, directly or indirectly at any enemy unit a friendly unit can
see, never at 12" or less and never from woods or buildings; a mortar team fires only when
stationary. Each earlier mortar shot this turn at the same target area (within 3") makes the
next one a point easier. Mortar fire ignores cover except fortifications (dug-in infantry),
converts against infantry as artillery (2d6), and against a vehicle goes through the
penetration procedure with anti-vehicle value 0, halving the damage die when it penetrates.
Instead of firing, a mortar may lay a smoke screen (house) that obscures sight until the turn
ends.
"""

from __future__ import annotations

import math

from umpire.core.events import Event, note
from umpire.rulesets.sevendays.los import sight
from umpire.rulesets.sevendays.orbat import UnitProfile, UnitType
from umpire.rulesets.sevendays.shots import (
    CLOSE_RANGE,
    MORTAR_WEAPON,
    Modifier,
    Refusal,
    ShotPlan,
    hits_front,
    morale_modifiers,
    moved_modifiers,
)
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World

AREA = 3.0  # the "same target area" for ranging in


def is_mortar(profile: UnitProfile) -> bool:
    return "mortar" in profile.traits


def ranging_bonus(state: SevenDaysState, point: tuple[float, float]) -> int:
    """Rule sevendays.mortar.ranging: earlier mortar shots this turn within 3" of ``point``."""
    return sum(1 for m in state.mortar_marks if math.dist(m, point) <= AREA)


def stationary_refusal(profile: UnitProfile, moved: bool) -> Refusal | None:
    """Rule sevendays.mortar.stationary (book p15 dice tables: support teams have only a
    "Stationary Support" row): a mortar team that moves in this activation, before its shot
    or by a declared move after it, may not fire."""
    if moved and profile.type is UnitType.SUPPORT:
        return Refusal(
            "sevendays.mortar.stationary",
            "a mortar team fires only when stationary (no move in the same activation)",
        )
    return None


def in_woods_or_buildings(world: World, unit: Unit) -> bool:
    return any(a.kind.name in ("woods", "buildings") for a in world.table.areas_at(*unit.pos))


def spotted_by_friends(world: World, state: SevenDaysState, firer: Unit, target: Unit) -> bool:
    """The mortar's own sight, or any friendly unit's (indirect fire)."""
    return any(sight(world, state, friend, target).visible for friend in state.alive(firer.side))


def plan_mortar(
    world: World,
    state: SevenDaysState,
    firer: Unit,
    target: Unit,
    *,
    moved: bool,
    reaction: bool,
    target_moving: bool,
    foot_close: bool,
) -> ShotPlan | Refusal:
    """Rule sevendays.mortar.fire: plan a mortar shot or say which rule forbids it."""
    profile = world.profile(firer)
    distance = math.dist(firer.pos, target.pos)
    refusal = stationary_refusal(profile, moved)
    if refusal is not None:
        return refusal
    if distance <= CLOSE_RANGE:
        return Refusal("sevendays.mortar.fire", 'mortars cannot fire at 12" or less')
    if in_woods_or_buildings(world, firer):
        return Refusal("sevendays.mortar.fire", "mortars cannot fire from woods or buildings")
    if not spotted_by_friends(world, state, firer, target):
        return Refusal("sevendays.los.blockers", f"no friendly unit can see {target.name}")
    mods: list[Modifier] = moved_modifiers(profile, moved)
    if reaction and target_moving:
        mods.append(
            Modifier("sevendays.fire.modifier.reaction_moving", 1, "reaction fire at a mover")
        )
    vehicle = world.is_vehicle(target)
    fortified = target.dug_in and not vehicle
    if fortified:
        mods.append(Modifier("sevendays.mortar.cover", 1, "target dug in (fortified)"))
    if foot_close:
        mods.append(
            Modifier(
                "sevendays.fire.modifier.infantry_close", 1, 'enemy infantry within 12" of firer'
            )
        )
    mods += morale_modifiers(firer.markers)
    ranged = ranging_bonus(state, target.pos)
    if ranged:
        mods.append(
            Modifier("sevendays.mortar.ranging", -ranged, f"{ranged} earlier shot(s) at the area")
        )
    base = profile.to_hit or 8
    return ShotPlan(
        firer=firer.uid,
        target=target.uid,
        weapon_kind="mortar",
        weapon=MORTAR_WEAPON,
        dice=1,
        base=base,
        need=max(2, base + sum(m.delta for m in mods)),
        range=distance,
        target_is_vehicle=vehicle,
        modifiers=tuple(mods),
        heavy=True,
        cover="fortified" if fortified else "open",
        front=not vehicle or hits_front(target, firer.pos),
    )


def mark(state: SevenDaysState, point: tuple[float, float]) -> None:
    """Remember a mortar shot for ranging in later ones this turn."""
    state.mortar_marks.append((round(point[0], 2), round(point[1], 2)))
    state.touch()


def smoke_targets(
    world: World, state: SevenDaysState, firer: Unit, moved: bool = False
) -> list[Unit]:
    """Enemy units a mortar may screen with smoke (those a friend sees, beyond 12"; a mortar
    team that moves in this activation lays none, as it fires only when stationary)."""
    if in_woods_or_buildings(world, firer):
        return []
    if stationary_refusal(world.profile(firer), moved) is not None:
        return []
    return [
        e
        for e in state.alive()
        if e.side != firer.side
        and not e.hidden
        and math.dist(e.pos, firer.pos) > CLOSE_RANGE
        and spotted_by_friends(world, state, firer, e)
    ]


def lay_smoke(
    world: World, state: SevenDaysState, firer: Unit, point: tuple[float, float]
) -> list[Event]:
    """Rule sevendays.smoke (house): a screen (3" radius) that obscures lines of sight
    through it (sevendays.los.smoke) until the end of the turn."""
    radius = world.house.smoke_radius
    state.smoke.append((round(point[0], 2), round(point[1], 2), radius))
    state.touch()
    return [
        note(
            "smoke",
            f'{firer.name} lays smoke at ({point[0]:.0f}, {point[1]:.0f}), {radius:g}" '
            "radius, until the end of the turn",
            "sevendays.smoke",
            unit=firer.uid,
            at=[round(point[0], 2), round(point[1], 2)],
            radius=radius,
        )
    ]
