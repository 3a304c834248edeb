"""Attack helicopters and air defence (rules sevendays.air.*, book p20-21).

Only air-defence units engage a helicopter: an AA gun (``aa``: 6+, two dice for a rapid-fire
autocannon, keep the best), a vehicle SAM (``sam``: 5+) or man-portable SAMs (``manpad``: 8+);
a line's ``aa_to_hit`` overrides its AA gun's score. A hit is followed by the AA hit-effect d6
(vehicle SAMs add 2): evades (no attack), damaged (completes its attack, then removed) or shot
down. Normally the AA shot is a reaction to the helicopter's activation; an AA unit may also
engage a helicopter in its own activation (house), when "evades" means no effect and "damaged"
removes the helicopter at once, there being no attack for it to complete.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from umpire.core.chance import Chance, Faces, Fixed, TableLookup
from umpire.core.events import Event, note
from umpire.geometry.table import in_arc
from umpire.rulesets.sevendays.config import AaEffectRow, HouseRules
from umpire.rulesets.sevendays.los import sight
from umpire.rulesets.sevendays.orbat import UnitProfile, Weapon
from umpire.rulesets.sevendays.shots import (
    Refusal,
    ShotPlan,
    fire_arc,
    morale_modifiers,
    to_hit,
)
from umpire.rulesets.sevendays.state import SevenDaysState, Status, Unit
from umpire.rulesets.sevendays.world import World

AA_WEAPON = Weapon(value=0)  # an AA shot has no penetration value: the effect table decides
ATTACKS = frozenset({"fire", "atgm", "rockets"})  # the actions an "evades" result cancels


class AaSystem(NamedTuple):
    """How a unit engages helicopters: which system, its d10 score, dice and effect bonus."""

    label: str  # "AA gun", "SAM" or "MANPAD"
    to_hit: int
    dice: int
    effect_bonus: int


def aa_system(profile: UnitProfile, house: HouseRules) -> AaSystem | None:
    """Rule sevendays.air.aa_reaction: the unit's best air-defence system, if it has one."""
    air = house.air
    options: list[AaSystem] = []
    traits = profile.traits
    if "sam" in traits:
        options.append(AaSystem("SAM", air.aa_to_hit["sam"], 1, air.sam_effect_bonus))
    if "aa" in traits:
        score = profile.aa_to_hit or air.aa_to_hit["gun"]
        autocannon = profile.weapon is not None and profile.weapon.autocannon
        options.append(AaSystem("AA gun", score, 2 if autocannon else 1, 0))
    if "manpad" in traits:
        options.append(AaSystem("MANPAD", air.aa_to_hit["manpad"], 1, 0))
    if not options:
        return None
    return max(options, key=_worth)


def _worth(system: AaSystem) -> float:
    """Rough chance that the system hits and brings the helicopter down (to pick the best)."""
    miss = min(1.0, max(0.0, (system.to_hit - 1) / 10))
    return (1 - miss**system.dice) * min(1.0, (4 + system.effect_bonus) / 6)


def aa_plan_from(
    system: AaSystem, distance: float, firer_markers: int, names: tuple[str, str]
) -> ShotPlan:
    """The AA shot: the system's score, worse by one per morale marker on the firer."""
    mods = tuple(morale_modifiers(firer_markers))
    return ShotPlan(
        firer=names[0],
        target=names[1],
        weapon_kind="aa",
        weapon=AA_WEAPON,
        dice=system.dice,
        base=system.to_hit,
        need=system.to_hit + firer_markers,
        range=distance,
        target_is_vehicle=True,  # one hit at most, as against a vehicle
        modifiers=mods,
        aa_bonus=system.effect_bonus,
    )


def plan_aa(world: World, state: SevenDaysState, firer: Unit, target: Unit) -> ShotPlan | Refusal:
    """Rules sevendays.air.aa_reaction, sevendays.air.aa_fire and sevendays.air.helicopter:
    ``firer``'s AA shot at the
    helicopter ``target``, or why it may not take one."""
    profile = world.profile(firer)
    system = aa_system(profile, world.house)
    if system is None:
        return Refusal(
            "sevendays.air.helicopter",
            f"{firer.name} has no air defence: only AA guns, SAMs and MANPADs engage helicopters",
        )
    if not in_arc(firer.pos, firer.facing, fire_arc(profile), target.pos):
        return Refusal("sevendays.fire.arc", f"{target.name} is outside {firer.name}'s arc")
    if not sight(world, state, firer, target, obscured=False).visible:
        return Refusal("sevendays.los.blockers", f"{firer.name} cannot see {target.name}")
    distance = math.dist(firer.pos, target.pos)
    return aa_plan_from(system, distance, firer.markers, (firer.uid, target.uid))


def effect_row(table: Sequence[AaEffectRow], total: int) -> AaEffectRow:
    """Rule sevendays.air.aa_effect: the row for an effect roll (die plus bonus)."""
    for row in table:
        if total <= row.max:
            return row
    return table[-1]


def aa_effect_lookup(
    table: Sequence[AaEffectRow],
    bonus: int,
    text: Callable[[Faces, int, str], str] | str = "",
    **data: Any,
) -> TableLookup[str]:
    """Rule sevendays.air.aa_effect as one chance: a d6 plus ``bonus`` (a vehicle SAM's +2)
    read off the AA hit-effect table; the outcome is the row's result ("evades", "damaged" or
    "shot_down"). Sampled in play after a hit, enumerated by the odds."""
    return TableLookup(
        sides=6,
        row=lambda total: effect_row(table, total).result,
        rule="sevendays.air.aa_effect",
        drm=bonus,
        text=text,
        data=data,
    )


def aa_shot_chance(
    plan: ShotPlan,
    table: Sequence[AaEffectRow],
    firer: Unit | None = None,
    heli: Unit | None = None,
    effect_text: Callable[[Faces, int, str], str] | str = "",
    **data: Any,
) -> Chance[str | None]:
    """An AA shot as one chance: the roll to hit (one hit at most), then on a hit the AA
    hit-effect die. The outcome is None for a miss, else the effect's result. Play samples it
    (the two roll events in this order) and then applies the result; the odds enumerate it."""
    effect = aa_effect_lookup(table, plan.aa_bonus, effect_text, **data).map(_effect_of_a_hit)
    miss: Chance[str | None] = Fixed(None)
    return to_hit(plan, firer, heli).then(lambda hits: effect if hits else miss)


def _effect_of_a_hit(result: str) -> str | None:
    return result


def brings_down(result: str) -> bool:
    """The helicopter is lost (removed after its attack or shot down): all but "evades"."""
    return result != "evades"


def resolve_aa(world: World, state: SevenDaysState, plan: ShotPlan) -> list[Event]:
    """Roll an AA shot and, on a hit, the AA hit-effect die, and apply the result."""
    firer = state.units[plan.firer]
    heli = state.units[plan.target]
    plus = f" +{plan.aa_bonus}" if plan.aa_bonus else ""
    events: list[Event] = []
    result = aa_shot_chance(
        plan,
        world.house.air.effect,
        firer,
        heli,
        lambda faces, _total, result: (
            f"AA hit effect on {heli.name}: d6 {faces[0]}{plus} -> {result.replace('_', ' ')}"
        ),
        unit=heli.uid,
    ).sample(state.rng, events)
    if result is None:
        return events
    act = state.flow.activation
    attacking = act is not None and act.unit == heli.uid
    if result == "evades":
        if attacking:
            assert act is not None
            act.fired = True  # no attack in this activation
            if state.flow.pending is not None and state.flow.pending.kind in ATTACKS:
                state.flow.pending = None
            events.append(
                note("evades", f"{heli.name} evades and makes no attack", "sevendays.air.aa_effect")
            )
        else:
            events.append(note("evades", f"{heli.name} evades", "sevendays.air.aa_effect"))
        return events
    if result == "damaged" and attacking:
        assert act is not None
        act.doomed = True
        events.append(
            note(
                "damaged",
                f"{heli.name} is badly damaged: it may complete its attack, then is removed",
                "sevendays.air.aa_effect",
                unit=heli.uid,
            )
        )
        return events
    why = "shot down" if result == "shot_down" else "so badly damaged it is removed"
    return events + bring_down(state, heli, why)


def bring_down(state: SevenDaysState, heli: Unit, why: str) -> list[Event]:
    """A helicopter lost: destroyed (its BP count), leaving no wreck on the table."""
    heli.status = Status.DESTROYED
    heli.wreck = False
    state.touch()
    return [note("destroyed", f"{heli.name} is {why}", "sevendays.air.aa_effect", unit=heli.uid)]


def end_of_activation(state: SevenDaysState, unit: Unit, doomed: bool) -> list[Event]:
    """Rule sevendays.air.aa_effect: a badly damaged helicopter leaves once its attack is done."""
    if doomed and unit.alive:
        return bring_down(state, unit, "removed after completing its attack")
    return []
