"""Non-artillery fire: who may fire at what (range, arc, line of sight, cover), the modifiers,
the dice (three for machine guns) and which weapons cannot destroy tanks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from umpire.core.chance import Chance, Test, repeat
from umpire.core.events import Event, note
from umpire.core.switches import switches_in
from umpire.geometry.squaregrid import Square, distance, in_arc, label, squares_between
from umpire.rulesets.portable.common import (
    Modifier,
    Refusal,
    beyond_first_square,
    commander_near,
    d6_test,
    edge_ok,
    in_cover,
    in_reach,
    kind,
    mods_text,
    standing,
)
from umpire.rulesets.portable.config import HouseRules
from umpire.rulesets.portable.hits import can_destroy_tanks, resolve_hit
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.units import ARTILLERY, TURRETED, WeaponType
from umpire.rulesets.portable.world import World


class FirePlan(NamedTuple):
    """A shot that may be fired: dice, modifiers and the score needed on each die."""

    firer: str
    target: str
    square: Square
    weapon: str
    dice: int
    mods: tuple[Modifier, ...]
    need: int
    destroys_tanks: bool
    at_aircraft: bool


def hit_on(die: int, mods: int, need: int) -> bool:
    """portable.fire.hit_score: the modified die scores ``need`` (5) or more."""
    return die + mods >= need


# -- the pure rules of a shot: plan_fire plays with these, and so does the odds calculator --
def fire_modifiers(
    house: HouseRules, *, cover: bool, moved: bool, commander: bool
) -> tuple[Modifier, ...]:
    """portable.fire.modifier.*: the modifiers on every die of a shot at a ground target, given
    whether the target is in cover, the firer moved this turn and a commander is with it."""
    fmods = house.fire_modifiers
    mods: list[Modifier] = []
    if cover:
        mods.append(Modifier(fmods["cover"], "portable.fire.modifier.cover", "target in cover"))
    if not moved:
        mods.append(Modifier(fmods["not_moved"], "portable.fire.modifier.not_moved", "not moved"))
    if commander:
        mods.append(Modifier(fmods["commander"], "portable.fire.modifier.commander", "commander"))
    return tuple(mods)


def fire_need(house: HouseRules) -> int:
    """portable.fire.hit_score: the modified score each die needs."""
    return house.fire_hit


def fire_dice(weapon: WeaponType) -> int:
    """portable.fire.machine_gun_dice: dice rolled by one shot (three for machine guns)."""
    return weapon.dice


def fire_reach(weapon: WeaponType, *, within_wood: bool = False) -> tuple[int, str]:
    """portable.fire.range: the weapon's reach in squares and the rule behind it;
    portable.terrain.woods.range: one square for fire within a wood."""
    if within_wood:
        return min(weapon.range, 1), "portable.terrain.woods.range"
    return weapon.range, "portable.fire.range"


def cannot_fire(world: World, state: PortableState, unit: Unit) -> Refusal | None:
    """Why the unit may not fire at all now, if it may not."""
    if unit.carried_by is not None:
        return Refusal(f"{unit.name} is being carried", "portable.transport.carry")
    k = kind(world, unit)
    if k in ARTILLERY:
        return Refusal(
            f"{unit.name} fires only in the artillery fire phase", "portable.fire.no_artillery"
        )
    if world.types.ground[unit.type].weapon is None:
        return Refusal(f"{unit.name} has no weapon to fire", "portable.fire.range")
    if unit.fired:
        return Refusal(f"{unit.name} has already fired this turn", "portable.fire.once")
    if unit.busy:
        return Refusal(f"{unit.name} is loading or unloading", "portable.transport.load")
    if (unit.fought or unit.advanced) and not world.house.fire_and_close_combat:
        return Refusal(
            f"{unit.name} has fought a close combat this turn", "portable.fire.or_close_combat"
        )
    if world.in_river(unit.pos):
        return Refusal(f"{unit.name} is in a river", "portable.terrain.river.no_fire")
    if unit.crossing:
        return Refusal(f"{unit.name} is crossing a trench", "portable.terrain.trench.no_fire")
    if unit.full_move:
        return Refusal(
            f"{unit.name} has used its whole move, and firing would cost it a square",
            "portable.move.fired_penalty",
        )
    return None


def _units_between(state: PortableState, a: Square, b: Square) -> bool:
    between = set(squares_between(a, b))
    if not between:
        return False
    return any(u.pos in between for u in state.units.values() if u.alive and not u.air)


def mortar_sees(world: World, state: PortableState, mortar: Unit, square: Square) -> bool:
    """portable.fire.mortar_observers: the mortar, a friendly unit next to it, or a friendly
    spotter or commander in or next to its square sees the target."""
    if world.terrain_line_clear(mortar.pos, square):
        return True
    for u in standing(state, mortar.side):
        d = distance(u.pos, mortar.pos)
        if u.uid == mortar.uid or d > 1:
            continue
        if (d == 1 or kind(world, u) in ("spotters", "commanders")) and world.terrain_line_clear(
            u.pos, square
        ):
            return True
    return False


def plan_fire(world: World, state: PortableState, unit: Unit, target: Unit) -> FirePlan | Refusal:
    """The shot ``unit`` would fire at ``target``'s square, or why it may not."""
    refusal = cannot_fire(world, state, unit)
    if refusal is not None:
        return refusal
    weapon_id = world.types.ground[unit.type].weapon
    assert weapon_id is not None
    weapon = world.types.weapons[weapon_id]
    if not target.alive or target.side == unit.side or target.carried_by is not None:
        return Refusal(f"{target.name} is not an enemy target", "portable.fire.range")
    d = distance(unit.pos, target.pos)
    arc_ok = kind(world, unit) in TURRETED or in_arc(unit.pos, unit.facing, target.pos)
    if target.air:
        return _plan_at_aircraft(world, state, unit, target, weapon_id, d, arc_ok)
    reach, rule = fire_reach(weapon, within_wood=world.same_wood(unit.pos, target.pos))
    if not in_reach(d, reach):
        return Refusal(f"{target.name} is {d} squares away, range {reach}", rule)
    switches = switches_in(state.options)
    if not arc_ok and not switches.allows(
        "portable.fire.arc", False, f"{target.name} is outside {unit.name}'s arc of fire"
    ):
        return Refusal(
            f"{target.name} is outside {unit.name}'s 90-degree arc of fire", "portable.fire.arc"
        )
    if not edge_ok(world, unit.pos, target.pos):
        return Refusal(
            f"{unit.name} is not at the edge of its cover towards {label(target.pos)}",
            "portable.fire.out_of_cover",
        )
    if beyond_first_square(world, unit.pos, target.pos):
        return Refusal(
            f"{label(target.pos)} lies more than one square into woods, a built-up area or "
            "fortifications",
            "portable.fire.into_cover",
        )
    if weapon.fires_over_units:
        if not mortar_sees(world, state, unit, target.pos):
            return Refusal(
                f"no friendly observer sees {label(target.pos)}", "portable.fire.mortar_observers"
            )
    elif (
        not world.terrain_line_clear(unit.pos, target.pos)
        or _units_between(state, unit.pos, target.pos)
    ) and not switches.allows(
        "portable.fire.line_of_sight",
        False,
        f"{unit.name} has no direct line of sight to {target.name}",
    ):
        return Refusal(
            f"no direct line of sight to {label(target.pos)}", "portable.fire.line_of_sight"
        )
    mods = fire_modifiers(
        world.house,
        cover=in_cover(world, target),
        moved=unit.moved,
        commander=commander_near(world, state, unit.side, unit.pos),
    )
    return FirePlan(
        unit.uid,
        target.uid,
        target.pos,
        weapon_id,
        fire_dice(weapon),
        mods,
        fire_need(world.house),
        can_destroy_tanks(weapon),
        False,
    )


def _plan_at_aircraft(
    world: World,
    state: PortableState,
    unit: Unit,
    target: Unit,
    weapon_id: str,
    d: int,
    arc_ok: bool,
) -> FirePlan | Refusal:
    """portable.air.ground_to_air: only machine guns (and anti-aircraft guns, in the artillery
    phase) engage aircraft; one die, 5 or 6 takes 1 SP."""
    weapon = world.types.weapons[weapon_id]
    if not world.switches.get("air") or not weapon.anti_aircraft:
        return Refusal(f"{unit.name} cannot engage aircraft", "portable.air.ground_to_air")
    if d > weapon.range or not arc_ok:
        return Refusal(f"{target.name} is out of range or arc", "portable.air.ground_to_air")
    amods = world.house.air_modifiers
    mods: list[Modifier] = []
    if not unit.moved:
        mods.append(Modifier(amods["not_moved"], "portable.air.ground_to_air", "not moved"))
    if commander_near(world, state, unit.side, unit.pos):
        mods.append(Modifier(amods["commander"], "portable.air.ground_to_air", "commander"))
    return FirePlan(
        unit.uid, target.uid, target.pos, weapon_id, 1, tuple(mods), world.house.air_hit, True, True
    )


def fire_options(world: World, state: PortableState, unit: Unit) -> list[FirePlan]:
    """Every shot the unit may fire now, one per target square (and per aircraft)."""
    if cannot_fire(world, state, unit) is not None:
        return []
    out: list[FirePlan] = []
    seen: set[Square] = set()
    for target in sorted(state.units.values(), key=lambda u: u.uid):
        if not target.alive or target.side == unit.side or target.carried_by is not None:
            continue
        if not target.air and target.pos in seen:
            continue
        plan = plan_fire(world, state, unit, target)
        if isinstance(plan, FirePlan):
            out.append(plan)
            if not target.air:
                seen.add(target.pos)
    return out


def shot_rule(plan_dice: int, at_aircraft: bool) -> str:
    """The rule a shot's die cites."""
    if at_aircraft:
        return "portable.air.ground_to_air"
    return "portable.fire.machine_gun_dice" if plan_dice > 1 else "portable.fire.hit_score"


def shot_die(
    mods: tuple[Modifier, ...],
    need: int,
    rule: str = "portable.fire.hit_score",
    text: Callable[[tuple[int, ...], int, bool], str] | str = "",
    **data: Any,
) -> Test:
    """portable.fire.hit_score: one die of a shot, hitting when the modified score reaches
    ``need`` (played die by die in :func:`resolve_fire`, enumerated by the odds)."""
    return d6_test(need, rule, mods, text, **data)


def shot_hits(mods: tuple[Modifier, ...], need: int, dice: int) -> Chance[int]:
    """portable.fire.machine_gun_dice: how many of a shot's ``dice`` hit."""
    return repeat(shot_die(mods, need).map(int), dice)


def resolve_fire(world: World, state: PortableState, plan: FirePlan) -> list[Event]:
    """Roll the dice; every die that hits is a hit on every enemy unit in the target square."""
    unit = state.units[plan.firer]
    unit.fired = True
    weapon = world.types.weapons[plan.weapon]
    events: list[Event] = []
    target = state.units[plan.target]
    rule = shot_rule(plan.dice, plan.at_aircraft)
    for i in range(plan.dice):
        which = f" (die {i + 1} of {plan.dice})" if plan.dice > 1 else ""

        def words(faces: tuple[int, ...], score: int, ok: bool, which: str = which) -> str:
            return (
                f"{unit.name} fires {weapon.name} at {label(plan.square)}{which}: d6 {faces[0]} "
                f"[{mods_text(plan.mods)}] = {score}, needs {plan.need}"
            )

        die = shot_die(plan.mods, plan.need, rule, words, unit=unit.uid, target=plan.target)
        hit = die.sample(state.rng, events)
        if not hit:
            continue
        if plan.at_aircraft:
            if target.alive:
                from umpire.rulesets.portable.hits import lose_sp

                events += lose_sp(world, state, target, "portable.air.ground_to_air", "hit")
            continue
        victims = [
            u
            for u in state.units.values()
            if u.alive
            and not u.air
            and u.carried_by is None
            and u.pos == plan.square
            and u.side != unit.side
        ]
        if not victims:
            events.append(note("no_target", f"{label(plan.square)} is empty now", None))
        for victim in victims:
            events += resolve_hit(
                world, state, victim, "portable.fire.hit_score", plan.destroys_tanks
            )
    return events
