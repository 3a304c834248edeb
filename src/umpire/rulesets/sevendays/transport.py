"""Transports (sevendays.transport.*): APC capacities, embarking and disembarking as actions,
passengers riding with their carrier, and the fate of passengers when it is lost.

A passenger is off the table while it rides (status ``embarked``, ``carried_by`` its APC): it
cannot be shot, activated or react, holds no objective, but still brings its command token and
is no loss. It moves with its carrier.
"""

from __future__ import annotations

import math

from umpire.core.events import Event, note
from umpire.rulesets.sevendays.morale import add_markers
from umpire.rulesets.sevendays.orbat import UnitProfile, UnitType
from umpire.rulesets.sevendays.state import SevenDaysState, Status, Unit
from umpire.rulesets.sevendays.tally import carried_by, with_status
from umpire.rulesets.sevendays.visibility import about, label
from umpire.rulesets.sevendays.world import World


def capacity(profile: UnitProfile) -> tuple[int, bool]:
    """Rule sevendays.transport.capacity: (seats, support teams only)."""
    traits = profile.traits
    if "apc_plus" in traits:
        return 2, False
    if "apc_minus" in traits:
        return 1, True
    if "apc" in traits:
        return 1, False
    return 0, False


def passengers(state: SevenDaysState, carrier: Unit) -> list[Unit]:
    return carried_by(state, carrier.uid)  # the units' order, as a scan finds them


def has_room(world: World, state: SevenDaysState, carrier: Unit, rider: Unit) -> bool:
    seats, support_only = capacity(world.profile(carrier))
    if support_only and world.profile(rider).type is not UnitType.SUPPORT:
        return False
    return len(passengers(state, carrier)) < seats


def carriers_near(world: World, state: SevenDaysState, rider: Unit) -> list[Unit]:
    """Friendly transports with room within reach of ``rider``."""
    if not world.is_foot(rider):
        return []
    return [
        u
        for u in state.alive(rider.side)
        if capacity(world.profile(u))[0]
        and math.dist(u.pos, rider.pos) <= world.house.transport_reach + 1e-9
        and has_room(world, state, u, rider)
    ]


def embark(state: SevenDaysState, rider: Unit, carrier: Unit) -> list[Event]:
    """Rule sevendays.transport.embark."""
    rider.status = Status.EMBARKED
    rider.carried_by = carrier.uid
    rider.x, rider.y = carrier.x, carrier.y
    rider.dug_in = False
    state.touch()
    event = note(
        "embark",
        f"{rider.name} embarks in {carrier.name}",
        "sevendays.transport.embark",
        unit=rider.uid,
    )
    public = f"{label(rider)} embarks in {label(carrier)}"
    return [about(carrier, about(rider, event, public), public)]


def drop_point(world: World, state: SevenDaysState, carrier: Unit) -> tuple[float, float]:
    """Where a passenger gets out: behind its carrier, else beside it, on the table."""
    reach = world.house.transport_reach
    back = math.radians(carrier.facing + 180.0)
    for turn in (0.0, 90.0, -90.0, 180.0):
        angle = back + math.radians(turn)
        x = carrier.x + reach * math.cos(angle)
        y = carrier.y + reach * math.sin(angle)
        if world.table.inside(x, y):
            return (round(x, 2), round(y, 2))
    return carrier.pos


def disembark(world: World, state: SevenDaysState, rider: Unit, why: str = "") -> list[Event]:
    """Rule sevendays.transport.disembark: the passenger is placed by its carrier."""
    carrier = state.units[rider.carried_by or ""]
    rider.status = Status.ACTIVE
    rider.carried_by = None
    rider.x, rider.y = drop_point(world, state, carrier)
    rider.facing = carrier.facing
    state.touch()
    event = note(
        "disembark",
        f"{rider.name} disembarks from {carrier.name}{why}",
        "sevendays.transport.disembark",
        unit=rider.uid,
    )
    public = f"{label(rider)} disembarks from {label(carrier)}"
    return [about(carrier, about(rider, event, public), public)]


def ride_along(state: SevenDaysState, carrier: Unit) -> None:
    """Passengers are where their carrier is."""
    for rider in passengers(state, carrier):
        rider.x, rider.y, rider.facing = carrier.x, carrier.y, carrier.facing


def bail_out(world: World, state: SevenDaysState) -> list[Event]:
    """Rule sevendays.transport.destroyed (house): passengers of a transport that is destroyed
    or removed get out where it was and take two morale markers."""
    events: list[Event] = []
    for rider in with_status(state, Status.EMBARKED):
        carrier = state.units.get(rider.carried_by or "")
        if carrier is None or carrier.alive or carrier.status == "doomed":
            continue  # a doomed carrier may yet be saved (sevendays.cards.against_all_odds)
        if carrier.status == "exited":  # it broke through with its passengers aboard
            rider.status = Status.EXITED
            state.touch()
            continue
        events += disembark(world, state, rider, f" as {carrier.name} is lost")
        events += add_markers(
            world,
            state,
            rider,
            world.house.bail_out_markers,
            "sevendays.transport.destroyed",
            "bailing out of a lost transport",
        )
    return events
