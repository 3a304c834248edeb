"""Transport: trucks and half-tracks carry foot units or tow guns, horse teams tow guns, and
(optional) tanks carry infantry riders. Loading, unloading, limbering and unlimbering each take
the turn of both units, which must spend it in the same square."""

from __future__ import annotations

from umpire.core.events import Event, note
from umpire.geometry.squaregrid import label
from umpire.rulesets.portable.common import cargo_of, kind
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.units import MOTOR_CARGO, TOWED
from umpire.rulesets.portable.world import World


def can_carry(world: World, carrier: Unit, cargo: Unit) -> bool:
    """portable.transport.carry / tow and portable.option.tank_riders."""
    if carrier.air or cargo.air:
        return False
    k = kind(world, carrier)
    if k == "motor_transport":
        return cargo.type in MOTOR_CARGO or cargo.type in TOWED
    if k == "horse_transport":
        return cargo.type in TOWED
    if k == "tanks" and world.switches.get("tank_riders"):
        return kind(world, cargo) == "infantry"
    return False


def rule_for(world: World, carrier: Unit, cargo: Unit) -> str:
    if cargo.type in TOWED:
        return "portable.transport.limber"
    if kind(world, carrier) == "tanks":
        return "portable.option.tank_riders"
    return "portable.transport.load"


def idle(unit: Unit) -> bool:
    """Has spent none of this turn yet (so may spend it loading or unloading)."""
    return not (unit.moved or unit.fired or unit.fought or unit.busy)


def load_options(world: World, state: PortableState, unit: Unit) -> list[Unit]:
    """Transports in the unit's square that could take it aboard (or in tow) this turn."""
    if unit.air or unit.carried_by is not None or not idle(unit) or cargo_of(state, unit):
        return []
    from umpire.rulesets.portable.common import fighting

    # portable.transport.stacking: a loaded transport counts as a fighting unit, so it may
    # not take a load where another fighting unit stands
    here = [
        u
        for u in state.units.values()
        if u.alive
        and not u.air
        and u.carried_by is None
        and u.pos == unit.pos
        and u.uid != unit.uid
    ]

    def crowded(carrier: Unit) -> bool:
        return any(fighting(world, state, u) for u in here if u.uid != carrier.uid)

    return sorted(
        (
            t
            for t in state.units.values()
            if t.alive
            and not t.air
            and t.side == unit.side
            and t.uid != unit.uid
            and t.pos == unit.pos
            and t.carried_by is None
            and idle(t)
            and not cargo_of(state, t)
            and can_carry(world, t, unit)
        ),
        key=lambda t: t.uid,
    )


def can_unload(world: World, state: PortableState, unit: Unit) -> bool:
    """A carried unit may get off (or be unlimbered) if its transport has not moved yet."""
    if unit.carried_by is None or unit.moved or unit.busy:
        return False
    carrier = state.units[unit.carried_by]
    return idle(carrier)


def load(world: World, state: PortableState, unit: Unit, carrier: Unit) -> list[Event]:
    unit.carried_by = carrier.uid
    unit.busy = carrier.busy = True
    rule = rule_for(world, carrier, unit)
    verb = "is limbered to" if rule == "portable.transport.limber" else "boards"
    return [
        note(
            "load",
            f"{unit.name} {verb} {carrier.name} in {label(unit.pos)}",
            rule,
            unit=unit.uid,
            target=carrier.uid,
        )
    ]


def unload(world: World, state: PortableState, unit: Unit) -> list[Event]:
    assert unit.carried_by is not None
    carrier = state.units[unit.carried_by]
    rule = rule_for(world, carrier, unit)
    unit.carried_by = None
    unit.facing = carrier.facing
    unit.busy = carrier.busy = True
    verb = "is unlimbered from" if rule == "portable.transport.limber" else "gets off"
    return [
        note(
            "unload",
            f"{unit.name} {verb} {carrier.name} in {label(unit.pos)}",
            rule,
            unit=unit.uid,
            target=carrier.uid,
        )
    ]
