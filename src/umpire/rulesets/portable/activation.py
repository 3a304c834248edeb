"""Initiative and unit activation: both sides roll for initiative; each side then throws its
activation dice (one for the commander, one per five other units, rounded up) and may activate
as many units as the total thrown."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from umpire.core.chance import Roll, TableLookup
from umpire.core.events import Event, note, roll
from umpire.core.switches import switches_in
from umpire.rulesets.portable.common import kind
from umpire.rulesets.portable.state import SIDES, PortableState, Side, Unit, other
from umpire.rulesets.portable.world import World


def activation_dice(world: World, state: PortableState, side: str) -> int:
    """portable.activation.dice: one die for the side's commander and one for every five of
    its other units, rounded up (a second commander is one of the other units);
    portable.air.activation_count: aircraft over the board count as units."""
    units = [u for u in state.units.values() if u.alive and u.side == side]
    commander = any(kind(world, u) == "commanders" for u in units)
    others = len(units) - (1 if commander else 0)
    per = world.house.activation_units_per_die
    return (1 if commander else 0) + math.ceil(others / per)


def roll_initiative(world: World, state: PortableState) -> list[Event]:
    """portable.initiative.roll: the higher d6 moves first; portable.initiative.tie."""
    events: list[Event] = []
    first = world.spec.first_initiative
    if first != "roll" and state.flow.turn == 1:
        state.turn_info.order = [Side(first), other(first)]
        return [
            note(
                "initiative",
                f"{first.upper()} has the initiative on the first turn",
                "portable.initiative.roll",
            )
        ]
    while True:
        a, b = initiative_roll().sample(state.rng, events)
        if a != b:
            winner = SIDES[0] if a > b else SIDES[1]
            break
        if world.house.initiative_ties == "first_player":
            winner = SIDES[0]
            break
        state.fired_house("portable.initiative.tie")
        events.append(
            roll(
                "portable.initiative.tie",
                f"Initiative tied {a}-{b}: roll again",
                [a, b],
                a,
                None,
                False,
            )
        )
    state.turn_info.order = [winner, other(winner)]
    events.append(
        roll(
            "portable.initiative.roll",
            f"Initiative: BLUE {a}, RED {b}: {winner.upper()} moves first",
            [a, b],
            max(a, b),
            None,
            True,
            winner=winner,
        )
    )
    return events


@dataclass(frozen=True, eq=False)
class InitiativeRoll(Roll):
    """portable.initiative.roll's two d6 (a plain :class:`Roll`: the game words the event),
    worded for the players at a physical table (companion mode)."""

    def table_words(self, count: int, sides: int) -> str:
        return (
            f"roll {count}d{sides} for portable.initiative.roll: the first die is BLUE's, the "
            "second RED's; the higher moves first"
        )


def initiative_roll() -> Roll:
    """portable.initiative.roll: one d6 for each side, BLUE's first (the game words the
    event, as a tie may be rolled again)."""
    return InitiativeRoll(2, 6)


def activation_roll(
    dice: int, text: Callable[[tuple[int, ...], int, int], str] | str = "", **data: Any
) -> TableLookup[int]:
    """portable.activation.count: ``dice`` d6, whose total is how many units may be activated."""
    return TableLookup(
        sides=6,
        count=dice,
        row=_total,
        rule="portable.activation.count",
        text=text,
        data=data,
    )


def _total(score: int) -> int:
    return score


def roll_activation(world: World, state: PortableState, side: str) -> list[Event]:
    """portable.activation.count: the total thrown is how many units may be activated."""
    n = activation_dice(world, state, side)

    def words(faces: tuple[int, ...], score: int, allowed: int) -> str:
        return (
            f"{side.upper()} throws {n} activation dice {list(faces)}: "
            f"may activate {allowed} unit(s)"
        )

    events: list[Event] = []
    state.turn_info.activations_left = activation_roll(n, words, side=side).sample(
        state.rng, events
    )
    return events


def can_activate(world: World, state: PortableState, unit: Unit) -> bool:
    """portable.activation.once: each unit is activated at most once a turn (a rule switch:
    advise / off let a unit be activated again)."""
    if not unit.alive:
        return False
    if unit.activated and not switches_in(state.options).allows(
        "portable.activation.once", False, f"{unit.name} is activated a second time this turn"
    ):
        return False
    if unit.carried_by is not None:
        carrier = state.units[unit.carried_by]
        return not (carrier.moved or carrier.busy)
    return True


def crash_unactivated(world: World, state: PortableState, side: str) -> list[Event]:
    """portable.air.forced_activation: an aircraft not activated this turn crashes."""
    from umpire.rulesets.portable.hits import destroy

    events: list[Event] = []
    for plane in sorted(state.units.values(), key=lambda u: u.uid):
        if plane.air and plane.alive and plane.side == side and not plane.activated:
            events.append(
                note(
                    "air",
                    f"{plane.name} was not activated and crashes",
                    "portable.air.forced_activation",
                )
            )
            events += destroy(world, state, plane, "portable.air.forced_activation")
    return events
