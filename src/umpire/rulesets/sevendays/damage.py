"""Effects of hits: vehicles (penetration, damage) and infantry/support (markers, conversion).

Rules sevendays.hit.* (digest 'Hits against vehicles', transcription p19).
"""

from __future__ import annotations

from collections.abc import Sequence

from umpire.core.events import Event, note, roll
from umpire.rulesets.sevendays.config import DamageRow
from umpire.rulesets.sevendays.morale import add_markers, house_fired
from umpire.rulesets.sevendays.orbat import Weapon
from umpire.rulesets.sevendays.shots import ShotPlan
from umpire.rulesets.sevendays.state import SevenDaysState, Status, Unit
from umpire.rulesets.sevendays.world import World


def heat_vs_special(weapon: Weapon, special: bool) -> bool:
    """Rule sevendays.hit.heat_vs_special (infantry LAW/RPG are exempt)."""
    return weapon.heat and special and not weapon.infantry_at


def conversion(heavy: bool, cover: str) -> tuple[int, int]:
    """Rule sevendays.hit.foot_conversion: (dice per hit, score needed on each d6)."""
    if heavy:
        return 2, {"open": 4, "cover": 4, "fortified": 5}[cover]
    return 1, {"open": 4, "cover": 5, "fortified": 6}[cover]


def penetration_dice(heat_special: bool) -> int:
    """Rules sevendays.hit.penetration / .heat_vs_special: d10, or 2d10 keep the lowest."""
    return 2 if heat_special else 1


def penetration_die(dice: Sequence[int]) -> int:
    """The die that counts for penetration (the lowest when two are rolled)."""
    return min(dice)


def penetrates(die: int, weapon_value: int, armour: int) -> bool:
    """Rule sevendays.hit.penetration: die + weapon value must exceed the armour."""
    return die + weapon_value > armour


def damage_row(table: Sequence[DamageRow], die: int) -> DamageRow:
    """Rule sevendays.hit.damage: the house damage table's row for a d6 score."""
    return next(r for r in table if die <= r.max)


def conversion_markers(dice: Sequence[int], need: int) -> int:
    """Rule sevendays.hit.foot_conversion: each conversion die at or above ``need`` adds one
    more morale marker."""
    return sum(1 for d in dice if d >= need)


def mortar_damage(die: int) -> int:
    """Rule sevendays.mortar.damage: a mortar's damage die is halved (rounded down, at least
    1), so with the house table it can only damage."""
    return max(1, die // 2)


def resolve_vehicle_hit(
    world: World, state: SevenDaysState, plan: ShotPlan, target: Unit
) -> list[Event]:
    if plan.weapon.mortar:
        return _mortar_vehicle_hit(world, state, target)
    armour = world.profile(target).armour
    assert armour is not None
    value = armour.front if plan.front else armour.side
    facing = "front" if plan.front else "side"
    weapon = plan.weapon
    special = heat_vs_special(weapon, armour.special)
    dice = state.rng.dice(penetration_dice(special), 10)
    die = penetration_die(dice)
    if special:
        how = "HEAT vs special armour: 2d10 keep lowest"
        rule = "sevendays.hit.heat_vs_special"
    else:
        how = "d10"
        rule = "sevendays.hit.penetration"
    total = die + weapon.value
    pen = penetrates(die, weapon.value, value)
    events: list[Event] = [
        roll(
            rule,
            f"penetration on {target.name}'s {facing} armour {value}: {how} {dice} "
            f"+ {weapon.value} = {total} (must exceed {value}) -> "
            + ("penetrates" if pen else "no penetration"),
            dice,
            total,
            value + 1,
            pen,
            unit=target.uid,
        )
    ]
    if not pen:
        house_fired(state, "sevendays.hit.no_penetration")
        events += add_markers(
            world,
            state,
            target,
            world.house.no_penetration_markers,
            "sevendays.hit.no_penetration",
            "shaken by a non-penetrating hit",
        )
        return events
    die = state.rng.d(6)
    row = damage_row(world.house.damage_table, die)
    house_fired(state, "sevendays.hit.damage")
    events.append(
        roll(
            "sevendays.hit.damage",
            f"damage d6 {die} -> {row.result}",
            [die],
            die,
            None,
            row.result == "destroyed",
            unit=target.uid,
        )
    )
    if row.result == "destroyed":
        target.status = Status.DESTROYED
        state.touch()
        target.wreck = True
        events.append(
            note(
                "destroyed",
                f"{target.name} is destroyed and leaves a wreck",
                "sevendays.hit.damage",
                unit=target.uid,
            )
        )
    else:
        events += add_markers(world, state, target, row.markers, "sevendays.hit.damage", "damaged")
    return events


def _mortar_vehicle_hit(world: World, state: SevenDaysState, target: Unit) -> list[Event]:
    die = state.rng.d(6)
    row = damage_row(world.house.damage_table, mortar_damage(die))
    house_fired(state, "sevendays.hit.damage")
    events: list[Event] = [
        roll(
            "sevendays.mortar.damage",
            f"mortar hit on {target.name}: no penetration roll; damage d6 {die} halved to "
            f"{mortar_damage(die)} -> {row.result}",
            [die],
            mortar_damage(die),
            None,
            row.result == "destroyed",
            unit=target.uid,
        )
    ]
    if row.result == "destroyed":
        target.status = Status.DESTROYED
        target.wreck = True
        state.touch()
        events.append(note("destroyed", f"{target.name} is destroyed", "sevendays.mortar.damage"))
        return events
    return events + add_markers(
        world, state, target, row.markers, "sevendays.mortar.damage", "damaged"
    )


def resolve_foot_hits(
    world: World, state: SevenDaysState, plan: ShotPlan, hits: int, target: Unit
) -> list[Event]:
    cover = plan.cover
    per_hit, need = conversion(plan.heavy, cover)
    events = add_markers(world, state, target, hits, "sevendays.hit.foot_marker", f"{hits} hit(s)")
    if not target.alive:
        return events
    dice = state.rng.dice(per_hit * hits, 6)
    extra = conversion_markers(dice, need)
    events.append(
        roll(
            "sevendays.hit.foot_conversion",
            f"conversion vs {target.name} in the {cover}: {len(dice)}d6 {dice} need {need}+ "
            f"-> {extra} more marker(s)",
            dice,
            extra,
            need,
            extra > 0,
            unit=target.uid,
        )
    )
    events += add_markers(
        world, state, target, extra, "sevendays.hit.foot_conversion", "conversion"
    )
    return events
