"""Morale markers, removal, battlegroup morale checks and falling back (sevendays.morale.*)."""

from __future__ import annotations

from umpire.core.events import Event, note, roll
from umpire.rulesets.sevendays.state import SevenDaysState, Status, Unit
from umpire.rulesets.sevendays.visibility import about
from umpire.rulesets.sevendays.world import World


def house_fired(state: SevenDaysState, rule: str) -> None:
    """Count a house rule that changed the game (reported in the battle report)."""
    state.house_fired[rule] = state.house_fired.get(rule, 0) + 1


def add_markers(
    world: World, state: SevenDaysState, unit: Unit, count: int, rule: str, why: str
) -> list[Event]:
    """Put ``count`` morale markers on ``unit``; remove it when they reach its morale value."""
    if count <= 0 or not unit.alive or world.is_helicopter(unit):
        return []  # sevendays.air.helicopter: helicopters carry no morale markers
    unit.markers += count
    events = [
        about(
            unit,
            note(
                "markers",
                f"{unit.name} takes {count} morale marker(s) ({why}); now {unit.markers}",
                rule,
                unit=unit.uid,
                markers=unit.markers,
            ),
            f"{unit.marker} takes {count} morale marker(s) ({why})",
        )
    ]
    morale = world.profile(unit).morale
    if morale is not None and unit.markers >= morale:
        unit.status = Status.REMOVED
        state.touch()
        events.append(
            about(
                unit,
                note(
                    "removed",
                    f"{unit.name} is removed: {unit.markers} markers reach morale {morale}",
                    "sevendays.morale.removal",
                    unit=unit.uid,
                ),
                f"{unit.marker} is removed",
            )
        )
    return events


def battlegroup_check(world: World, state: SevenDaysState, unit: Unit) -> list[Event]:
    """Rule sevendays.morale.battlegroup_check (house procedure, two actions)."""
    rule = "sevendays.morale.battlegroup_check"
    cfg = world.house.battlegroup_check
    house_fired(state, rule)
    events = [note("action", f"{unit.name} calls a battlegroup morale check", rule, unit=unit.uid)]
    r2 = cfg.radius * cfg.radius
    for friend in state.units.values():
        if not friend.alive or friend.side != unit.side or friend.markers == 0:
            continue
        if (friend.x - unit.x) ** 2 + (friend.y - unit.y) ** 2 > r2:
            continue
        die = state.rng.d(6)
        removed = 2 if die >= cfg.remove_two else 1 if die >= cfg.remove_one else 0
        removed = min(removed, friend.markers)
        friend.markers -= removed
        rallied = roll(
            rule,
            f"{friend.name} rallies: d6 {die} need {cfg.remove_one}+ -> "
            f"removes {removed} marker(s), {friend.markers} left",
            [die],
            die,
            cfg.remove_one,
            removed > 0,
            unit=friend.uid,
        )
        events.append(about(friend, rallied, f"{friend.marker} rallies"))
    return events
