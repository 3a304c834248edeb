"""Morale markers, removal, battlegroup morale checks and falling back (sevendays.morale.*)."""

from __future__ import annotations

from umpire.core.chance import TableLookup
from umpire.core.events import Event, note
from umpire.rulesets.sevendays.state import SevenDaysState, Status, Unit
from umpire.rulesets.sevendays.visibility import about
from umpire.rulesets.sevendays.world import World


def house_fired(state: SevenDaysState, rule: str) -> None:
    """Count a house rule that changed the game (reported in the battle report)."""
    state.house_fired[rule] = state.house_fired.get(rule, 0) + 1


RESCUE_CARD = "against_all_odds"


def may_rescue(state: SevenDaysState, unit: Unit) -> bool:
    """May ``unit``'s owner hold Against All Odds, as far as the enemy knows (cards in play,
    a card in its hand, not every copy in the discard pile)? Only public facts decide: whether
    the owner is asked must not tell the enemy what the owner holds."""
    cards = state.cards
    if cards is None or not cards["hands"].get(unit.side):
        return False
    from umpire.rulesets.sevendays.cards import load_deck

    copies = load_deck().cards[RESCUE_CARD].count
    return bool(cards["discard"].count(RESCUE_CARD) < copies)


def remove(state: SevenDaysState, unit: Unit, markers: int, morale: int) -> Event:
    """Rule sevendays.morale.removal: the unit leaves the table."""
    unit.status = Status.REMOVED
    state.touch()
    return about(
        unit,
        note(
            "removed",
            f"{unit.name} is removed: {markers} markers reach morale {morale}",
            "sevendays.morale.removal",
            unit=unit.uid,
        ),
        f"{unit.marker} is removed",
    )


def add_markers(
    world: World,
    state: SevenDaysState,
    unit: Unit,
    count: int,
    rule: str,
    why: str,
    *,
    off_board: bool = False,
    embarked: bool = False,
) -> list[Event]:
    """Put ``count`` morale markers on ``unit``; remove it when they reach its morale value.

    When its owner holds Against All Odds the unit is not removed yet: it is *doomed* (out of
    play, not yet a loss) and the owner is offered the card once the action that doomed it has
    resolved (see ``cards.offer_rescue``). ``off_board``: the unit waits off the table (a
    reserve taking the Divisional Artillery roll); ``embarked``: the unit rides in a transport
    (the same card's roll on a passenger)."""
    if count <= 0 or world.is_helicopter(unit):
        return []  # sevendays.air.helicopter: helicopters carry no morale markers
    if not (
        unit.alive
        or (off_board and unit.status == Status.RESERVE)
        or (embarked and unit.status == Status.EMBARKED)
    ):
        return []
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
        if not may_rescue(state, unit):
            events.append(remove(state, unit, unit.markers, morale))
            return events
        unit.status = Status.DOOMED  # sevendays.cards.against_all_odds: about to be removed
        state.touch()
        events.append(
            about(
                unit,
                note(
                    "doomed",
                    f"{unit.name} is about to be removed: {unit.markers} markers reach "
                    f"morale {morale}",
                    "sevendays.morale.removal",
                    unit=unit.uid,
                ),
                f"{unit.marker} is about to be removed",
            )
        )
    return events


def battlegroup_roll(world: World, name: str, markers: int, uid: str) -> TableLookup[int]:
    """The d6 a unit with ``markers`` morale markers rolls in a battlegroup check: how many
    markers it removes (two at ``remove_two``+, one at ``remove_one``+, never more than it has).
    Play samples it; the odds enumerate it."""
    cfg = world.house.battlegroup_check

    def removes(die: int) -> int:
        wanted = 2 if die >= cfg.remove_two else 1 if die >= cfg.remove_one else 0
        return min(wanted, markers)

    def text(faces: tuple[int, ...], die: int, removed: int) -> str:
        return (
            f"{name} rallies: d6 {die} need {cfg.remove_one}+ -> "
            f"removes {removed} marker(s), {markers - removed} left"
        )

    return TableLookup(
        sides=6,
        row=removes,
        rule="sevendays.morale.battlegroup_check",
        text=text,
        data={"unit": uid},
        success=lambda removed: removed > 0,
        need=cfg.remove_one,
    )


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
        rolled: list[Event] = []
        removed = battlegroup_roll(world, friend.name, friend.markers, friend.uid).sample(
            state.rng, rolled
        )
        friend.markers -= removed
        rallied = rolled[0]
        events.append(about(friend, rallied, f"{friend.marker} rallies"))
    return events
