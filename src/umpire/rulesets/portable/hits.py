"""Resolving hits on units: the quality die, losing SP, retreating, destruction, and what
happens to units carried by a unit that is hit or destroyed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from umpire.core.chance import Chance, Test
from umpire.core.events import Event, note
from umpire.geometry.squaregrid import Square, label
from umpire.rulesets.portable.common import cargo_of, commander_near, d6_test, enemies_of, kind
from umpire.rulesets.portable.config import HouseRules, Quality
from umpire.rulesets.portable.enums import HitResult, Status
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.units import TANKS, ArtilleryType, WeaponType
from umpire.rulesets.portable.world import World


# -- the pure rules of a hit: the game plays with these, and so does the odds calculator ----
def loses_sp_on(quality: str, house: HouseRules) -> int:
    """portable.hit.quality: the highest quality die on which a unit of ``quality`` loses 1 SP."""
    return house.hit_loses_sp[cast(Quality, quality)]


def hit_quality_result(die: int, quality: str, house: HouseRules) -> HitResult:
    """portable.hit.quality: ``lose_sp`` on a low roll for the unit's quality, else
    ``retreat_or_lose`` (portable.hit.retreat_or_lose)."""
    return _result(quality_die(quality, house).judge((die,)).success)


def quality_die(
    quality: str,
    house: HouseRules,
    text: Callable[[tuple[int, ...], int, bool], str] | str = "",
    **data: Any,
) -> Test:
    """portable.hit.quality: the hit unit's d6; it passes (only has to retreat or lose 1 SP,
    portable.hit.retreat_or_lose) above the score at which a unit of ``quality`` loses 1 SP."""
    return d6_test(loses_sp_on(quality, house) + 1, "portable.hit.quality", (), text, **data)


def hit_loses_sp(quality: str, house: HouseRules) -> Chance[bool]:
    """Whether one hit costs a unit of ``quality`` 1 SP straight away (for the odds)."""
    return quality_die(quality, house).map(lambda ok: not ok)


def _result(passed: bool) -> HitResult:
    return HitResult.RETREAT_OR_LOSE if passed else HitResult.LOSE_SP


def quality_result(die: int, quality: str, world: World) -> HitResult:
    """:func:`hit_quality_result` with the house rules of ``world``."""
    return hit_quality_result(die, quality, world.house)


def can_destroy_tanks(weapon: WeaponType | ArtilleryType) -> bool:
    """portable.fire.destroy_tanks: small arms and machine guns cannot destroy tanks; every
    other weapon, and every gun of the artillery, can."""
    return isinstance(weapon, ArtilleryType) or weapon.destroys_tanks


def spares_last_sp(destroys_tanks: bool, target_kind: str) -> bool:
    """portable.fire.destroy_tanks: a hit by a weapon that cannot destroy tanks never takes a
    tank's last SP (nor does standing instead of retreating from such a hit)."""
    return not destroys_tanks and target_kind in TANKS


def resolve_hit(
    world: World, state: PortableState, unit: Unit, cause: str, destroys_tanks: bool = True
) -> list[Event]:
    """One hit on ``unit`` and on everything it carries or tows."""
    carried = cargo_of(state, unit)
    events = _hit_one(world, state, unit, cause, destroys_tanks)
    for c in carried:
        if not c.alive:
            continue
        rider = kind(world, unit) == "tanks"
        rule = "portable.option.tank_riders" if rider else "portable.transport.hits_on_carried"
        events.append(note("hit", f"{c.name} is hit too, carried by {unit.name}", rule))
        events += _hit_one(world, state, c, cause, True)
    return events


def _hit_one(
    world: World, state: PortableState, unit: Unit, cause: str, destroys_tanks: bool
) -> list[Event]:
    if not unit.alive:
        return []
    if unit.air:
        return lose_sp(world, state, unit, cause, "hit")
    spare = spares_last_sp(destroys_tanks, kind(world, unit))
    limit = loses_sp_on(unit.quality, world.house)

    def words(faces: tuple[int, ...], score: int, ok: bool) -> str:
        return f"{unit.name} ({unit.quality}) is hit: d6 {faces[0]}, loses 1 SP on {limit} or less"

    events: list[Event] = []
    die = quality_die(unit.quality, world.house, words, unit=unit.uid, cause=cause)
    if _result(die.sample(state.rng, events)) is HitResult.LOSE_SP:
        return events + lose_sp(world, state, unit, "portable.hit.quality", "hit", spare)
    state.queue_retreat(unit, spare)
    events.append(
        note(
            "must_retreat",
            f"{unit.name} survives but must retreat 1 square or lose 1 SP",
            "portable.hit.retreat_or_lose",
            unit=unit.uid,
        )
    )
    return events


def lose_sp(
    world: World, state: PortableState, unit: Unit, rule: str, why: str, spare: bool = False
) -> list[Event]:
    """Take 1 SP off ``unit`` (destroyed at 0). With the optional commander-in-combat rule a
    friendly commander in the square may take the risk instead. ``spare``: the loss comes
    from a weapon that cannot destroy the unit, which keeps its last SP
    (portable.fire.destroy_tanks)."""
    if spare and unit.sp <= 1:
        return [
            note(
                "no_effect",
                f"{unit.name} keeps its last SP: the weapon cannot destroy tanks",
                "portable.fire.destroy_tanks",
                unit=unit.uid,
            )
        ]
    events: list[Event] = []
    if (
        world.switches.get("commander_attached")
        and not unit.air
        and kind(world, unit) != "commanders"
    ):
        commander = next(
            (
                c
                for c in state.units.values()
                if c.alive
                and not c.air
                and c.side == unit.side
                and c.pos == unit.pos
                and kind(world, c) == "commanders"
            ),
            None,
        )
        if commander is not None:

            def words(faces: tuple[int, ...], score: int, killed: bool) -> str:
                return f"{commander.name} with {unit.name}: d6 {faces[0]}, killed on 6" + (
                    "" if killed else f"; {unit.name} loses no SP"
                )

            risk = d6_test(6, "portable.hit.commander_attached", (), words, unit=commander.uid)
            if not risk.sample(state.rng, events):
                return events
            events += destroy(world, state, commander, "portable.hit.commander_attached")
    unit.sp -= 1
    events.append(
        note(
            "sp_lost",
            f"{unit.name} loses 1 SP ({why}), {unit.sp} left",
            rule,
            unit=unit.uid,
            sp=unit.sp,
        )
    )
    if unit.sp <= 0:
        events += destroy(world, state, unit, "portable.units.destroyed")
    return events


def destroy(world: World, state: PortableState, unit: Unit, rule: str) -> list[Event]:
    """Remove ``unit``; riders on a destroyed tank die with it, other loads dismount."""
    unit.sp = 0
    unit.status = Status.DESTROYED
    unit.task = None
    events = [note("destroyed", f"{unit.name} is destroyed", rule, unit=unit.uid)]
    for c in cargo_of(state, unit):
        if kind(world, unit) == "tanks":
            events += destroy(world, state, c, "portable.option.tank_riders")
        else:
            c.carried_by = None
            c.facing = unit.facing
            events.append(
                note(
                    "dismount",
                    f"{c.name} is left in {label(c.pos)} as its transport is destroyed",
                    "portable.transport.hits_on_carried",
                    unit=c.uid,
                )
            )
    return events


def retreat_squares(world: World, state: PortableState, unit: Unit) -> list[Square]:
    """portable.hit.retreat: orthogonally adjacent empty squares not next to an enemy unit
    (and, portable.terrain.retreat_minefield, not into a minefield)."""
    if unit.carried_by is not None or unit.air or not unit.alive:
        return []  # portable.transport.cargo_retreat: a load cannot retreat on its own
    occupied = {u.pos for u in state.units.values() if u.alive and not u.air}
    near_enemy: set[Square] = set()
    for e in enemies_of(state, unit.side):
        x, y = e.pos
        near_enemy.update(((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)))
    return [
        sq
        for sq in world.grid.neighbours(unit.pos)
        if world.passable(sq)
        and sq not in occupied
        and sq not in near_enemy
        and not state.has_mines(sq)
    ]


def retreat(world: World, state: PortableState, unit: Unit, square: Square) -> list[Event]:
    """Move ``unit`` (and its load) one square back; facing is kept."""
    start = unit.pos
    for u in [unit, *cargo_of(state, unit)]:
        u.x, u.y = square
        u.task = None
    return [
        note(
            "retreat",
            f"{unit.name} retreats from {label(start)} to {label(square)}",
            "portable.hit.retreat",
            unit=unit.uid,
        )
    ]


def stand(
    world: World, state: PortableState, unit: Unit, unable: bool, spare: bool = False
) -> list[Event]:
    """The unit does not retreat and loses 1 SP instead (never its last SP to a weapon that
    cannot destroy it: ``spare``, portable.fire.destroy_tanks)."""
    if unable:
        rule = (
            "portable.transport.cargo_retreat"
            if unit.carried_by is not None
            else "portable.hit.unable_to_retreat"
        )
        if unit.carried_by is not None:
            state.fired_house(rule)
        return lose_sp(world, state, unit, rule, "cannot retreat", spare)
    return lose_sp(world, state, unit, "portable.hit.unable_to_retreat", "stands its ground", spare)


def commander_bonus(world: World, state: PortableState, unit: Unit) -> bool:
    """Shortcut used by several modules: a friendly commander in or next to the unit's square."""
    return commander_near(world, state, unit.side, unit.pos)
