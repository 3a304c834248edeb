"""Firing: who may shoot whom, how many dice, what they need, and resolving the shot.

Rules sevendays.fire.* (book p15-16). A shot is first *planned* (legality, dice and the score
needed with every modifier and its reason), then *resolved* with the game's random stream.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from umpire.core.events import Event, note, roll
from umpire.geometry.table import in_arc
from umpire.rulesets.sevendays.los import needs_obscured, sight
from umpire.rulesets.sevendays.orbat import UnitProfile, UnitType, Weapon
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World

CLOSE_RANGE = 12.0


class Modifier(NamedTuple):
    """A change to the score a shot needs, with the rule and the reason."""

    rule: str
    delta: int  # added to the score needed (a -1 on the die is +1 here)
    why: str


class ShotPlan(NamedTuple):
    """Everything decided before the dice are rolled."""

    firer: str
    target: str
    weapon_kind: str  # "gun" or "atgm"
    weapon: Weapon
    dice: int
    base: int
    need: int
    range: float
    target_is_vehicle: bool
    modifiers: tuple[Modifier, ...] = ()
    heavy: bool = False  # conversion die class against foot (2d6) vs light (1d6)

    @property
    def possible(self) -> bool:
        return self.need <= 10


class Refusal(NamedTuple):
    """Why a shot may not be taken: the rule that forbids it and a sentence."""

    rule: str
    reason: str


def weapon_for(profile: UnitProfile, kind: str) -> tuple[Weapon, int] | None:
    """The weapon and base to-hit a unit uses for a ``gun`` or ``atgm`` shot, if it has one."""
    if kind == "atgm":
        if profile.atgm is None:
            return None
        return profile.atgm.weapon, profile.atgm.to_hit
    if profile.weapon is None or profile.to_hit is None or "mortar" in profile.traits:
        return None
    return profile.weapon, profile.to_hit


def fire_arc(profile: UnitProfile) -> float:
    """Rule sevendays.fire.arc."""
    if profile.type is UnitType.SUPPORT or "fixed_forward" in profile.traits:
        return 90.0
    return 360.0


def dice_count(
    firer: UnitProfile, weapon: Weapon, kind: str, target_vehicle: bool, rng: float, moved: bool
) -> int:
    """Rule sevendays.fire.dice: the book's two dice tables."""
    close = rng <= CLOSE_RANGE
    if firer.is_vehicle:
        if weapon.autocannon and kind == "gun":
            return 2
        if target_vehicle:
            return 1
        return 2 if close else 1
    if firer.type is UnitType.INFANTRY:
        if target_vehicle:
            return 1
        if moved:
            return 1
        return 2 if close else 1
    return 1  # support teams


def plan_shot(
    world: World,
    state: SevenDaysState,
    firer: Unit,
    target: Unit,
    kind: str,
    *,
    moved: bool = False,
    reaction: bool = False,
    target_moving: bool = False,
    actions_left: int = 2,
) -> ShotPlan | Refusal:
    """Plan ``firer``'s ``kind`` shot at ``target`` or say which rule forbids it.

    Plans depend only on the table geometry, the firer's markers and the arguments, so they
    are cached per arrangement of units (``state.geometry``)."""
    key = (
        state.geometry,
        firer.uid,
        target.uid,
        kind,
        moved,
        reaction,
        target_moving,
        actions_left >= 2,
        firer.markers,
    )
    cache = world.plan_cache
    found = cache.get(key)
    if found is None:
        if len(cache) > 50_000:
            cache.clear()
        found = cache[key] = _plan_shot(
            world,
            state,
            firer,
            target,
            kind,
            moved=moved,
            reaction=reaction,
            target_moving=target_moving,
            actions_left=actions_left,
        )
    return found


def _plan_shot(
    world: World,
    state: SevenDaysState,
    firer: Unit,
    target: Unit,
    kind: str,
    *,
    moved: bool = False,
    reaction: bool = False,
    target_moving: bool = False,
    actions_left: int = 2,
) -> ShotPlan | Refusal:
    profile = world.profile(firer)
    tprofile = world.profile(target)
    if not target.alive or target.side == firer.side:
        return Refusal("sevendays.fire.base", "the target must be an enemy unit on the table")
    if tprofile.type is UnitType.HELICOPTER:
        return Refusal("sevendays.fire.base", "helicopters are not in play in this version")
    chosen = weapon_for(profile, kind)
    if chosen is None:
        what = "an ATGM" if kind == "atgm" else "a weapon it can fire directly"
        return Refusal("sevendays.fire.base", f"{firer.name} has no {what}")
    weapon, base = chosen
    target_vehicle = tprofile.is_vehicle
    distance = math.dist(firer.pos, target.pos)
    if kind == "atgm":
        if not reaction and (moved or actions_left < 2):
            return Refusal(
                "sevendays.fire.atgm_actions",
                "firing an ATGM takes both actions of an activation without moving",
            )
        if distance <= CLOSE_RANGE:
            return Refusal("sevendays.fire.atgm_min_range", 'ATGMs cannot fire at 12" or less')
        if not target_vehicle and not world.in_buildings(target):
            return Refusal(
                "sevendays.fire.atgm_actions",
                "ATGMs target vehicles, or infantry/support only in buildings",
            )
    if profile.type is UnitType.INFANTRY and target_vehicle and distance > CLOSE_RANGE:
        return Refusal(
            "sevendays.fire.infantry_at_range", 'infantry fire at vehicles only up to 12"'
        )
    if not in_arc(firer.pos, firer.facing, fire_arc(profile), target.pos):
        return Refusal("sevendays.fire.arc", f"{target.name} is outside {firer.name}'s arc")
    seen = sight(world, state, firer, target, obscured=needs_obscured(world, firer, target))
    if not seen.visible:
        return Refusal("sevendays.los.blockers", f"{firer.name} cannot see {target.name}")

    mods: list[Modifier] = []
    if moved and profile.is_vehicle:
        mods.append(Modifier("sevendays.fire.modifier.moved", 1, "firer moved this activation"))
    if reaction and target_moving:
        mods.append(
            Modifier("sevendays.fire.modifier.reaction_moving", 1, "reaction fire at a mover")
        )
    if "thermal" not in profile.traits:
        in_terrain = world.in_cover(target)
        if in_terrain or seen.obscured:
            why = "target in terrain" if in_terrain else "target >50% obscured"
            mods.append(Modifier("sevendays.fire.modifier.cover", 1, why))
    if _enemy_foot_close(world, state, firer):
        mods.append(
            Modifier(
                "sevendays.fire.modifier.infantry_close", 1, 'enemy infantry within 12" of firer'
            )
        )
    if firer.markers:
        mods.append(
            Modifier(
                "sevendays.fire.modifier.morale",
                firer.markers,
                f"{firer.markers} morale marker(s) on firer",
            )
        )
    need = base + sum(m.delta for m in mods)
    moving_infantry = profile.type is UnitType.INFANTRY and moved
    dice = dice_count(profile, weapon, kind, target_vehicle, distance, moving_infantry)
    heavy = (
        kind == "atgm"
        or "grenade_launcher" in profile.traits
        or (profile.is_vehicle and weapon.value >= 7)
    )
    return ShotPlan(
        firer=firer.uid,
        target=target.uid,
        weapon_kind=kind,
        weapon=weapon,
        dice=dice,
        base=base,
        need=need,
        range=distance,
        target_is_vehicle=target_vehicle,
        modifiers=tuple(mods),
        heavy=heavy,
    )


def _enemy_foot_close(world: World, state: SevenDaysState, firer: Unit) -> bool:
    """Rule sevendays.fire.modifier.infantry_close (the firer itself does not count as the
    friendly infantry that cancels it). Cached per arrangement of units."""
    key = (state.geometry, firer.uid)
    found = world.foot_close_cache.get(key)
    if found is None:
        if len(world.foot_close_cache) > 50_000:
            world.foot_close_cache.clear()
        found = world.foot_close_cache[key] = _foot_close(world, state, firer)
    return found


def _foot_close(world: World, state: SevenDaysState, firer: Unit) -> bool:
    nearest_enemy = math.inf
    nearest_friend = math.inf
    fx, fy = firer.x, firer.y
    for u in state.units.values():
        if not u.alive or u is firer or not world.is_foot(u):
            continue
        d = math.hypot(u.x - fx, u.y - fy)
        if u.side == firer.side:
            nearest_friend = min(nearest_friend, d)
        else:
            nearest_enemy = min(nearest_enemy, d)
    return nearest_enemy <= CLOSE_RANGE and nearest_friend > nearest_enemy


def describe_modifiers(plan: ShotPlan) -> str:
    if not plan.modifiers:
        return f"base {plan.base}+"
    parts = ", ".join(f"-{m.delta} {m.why}" for m in plan.modifiers)
    return f"base {plan.base}+ ({parts})"


def roll_to_hit(
    state: SevenDaysState, plan: ShotPlan, firer: Unit, target: Unit
) -> tuple[int, Event]:
    """Roll the shot's d10s; returns the number of hits and the roll event."""
    dice = state.rng.dice(plan.dice, 10)
    if plan.target_is_vehicle:
        best = max(dice)
        hits = 1 if best >= plan.need else 0
        result = best
    else:
        hits = sum(1 for d in dice if d >= plan.need)
        result = hits
    verb = "hits" if hits else "misses"
    text = (
        f"{firer.name} fires {plan.weapon_kind} ({plan.weapon}) at {target.name} "
        f'at {plan.range:.1f}": {plan.dice}d10 {dice} need {plan.need}+ '
        f"[{describe_modifiers(plan)}] -> {verb}" + (f" x{hits}" if hits > 1 else "")
    )
    event = roll(
        "sevendays.fire.base",
        text,
        dice,
        result,
        plan.need,
        hits > 0,
        firer=firer.uid,
        target=target.uid,
        hits=hits,
        modifiers=[m.rule for m in plan.modifiers],
    )
    return hits, event


def note_refusal(refusal: Refusal) -> Event:
    return note("refused", refusal.reason, refusal.rule)
