"""Cavalry and bicycles (bookgun.move.cavalry, bookgun.move.bicycles; p.14, p.17-18).

Published: the chart's "a/b" numbers are dice for dismounted infantry / mounted cavalry (p.14);
bicycles roll 2 pushing / 3 riding across country and 3 / 4 on a road, and cyclists must get off
in rough terrain and lose the highest die of their pushing move as well (p.14 2.5); bicycles
double their downhill movement (p.18); a unit mounts or dismounts its horses at the start or end
of its move, not both in one phase, moves up to 1D6 that phase (dismounted scouts 2D6 when they
mount) and may not charge that phase (p.17 5.2); one man in four, rounded down, holds the horses
of a unit fighting dismounted (p.17 5.3).

House (catalogued): getting on or off is the start of the unit's activation and the 1D6 (2D6)
follows it; the led horses (or pushed bicycles) stay with the unit, so it can always reach them;
bicycles follow the horses' mounting rule; mounted figures do not go prone, into buildings or
through windows, and cyclists get off to cross a wall; rough and dense ground drop the die of the
rider's troop type (horses), the highest for cyclists.

Horse holders (bookgun.cavalry.holders, p.17 5.3): when a horse unit gets off, a quarter of its
fit men (rounded down) are named to hold the horses - house: ordinary figures from the end of the
roster, then key figures, never a leader; they stay with the unit and its led horses. Holders and
led horses are key figures for fire (combat.choose_victim, combat.casualty_cards); in close combat
the holders do not fight until no other fit figure of the unit is left (combat.fight); house: a
holder has no hand free to fire. Stampedes (bookgun.cavalry.stampede, p.17 5.4) are in
combat.stampede_check."""

from __future__ import annotations

from umpire.core.actions import Action
from umpire.core.events import Event, note
from umpire.rulesets.bookgun.chances import movement_roll
from umpire.rulesets.bookgun.state import OK, BookGunState, Figure, Unit
from umpire.rulesets.bookgun.world import World


def mounted_dice(w: World, unit: Unit, column: str, formation: str) -> int | None:
    """Dice for a unit with mounts: mounted cavalry's chart figure, or a bicycle's riding or
    pushing figure; None for cavalry on foot (the infantry chart)."""
    if unit.ride == "horse":
        if not unit.riding:
            return None
        table = w.tables.cavalry.dice
        row = table.get(formation) or table.get("unformed") or next(iter(table.values()))
        return int(getattr(row, column))
    if unit.ride == "bicycle":
        bikes = w.tables.bicycles
        return int(getattr(bikes.riding if unit.riding else bikes.pushing, column))
    return None


def horse_holders(w: World, figures: int) -> int:
    """p.17 (5.3): a quarter of the men hold the horses, rounded in the mounted player's favour
    (down: 18 men need 4 holders)."""
    return figures // w.tables.cavalry.holders_per


def led_horses(unit: Unit) -> bool:
    """bookgun.cavalry.holders: a horse unit on foot whose horses are still with it."""
    return unit.ride == "horse" and not unit.riding and not unit.horses_lost


def assign_holders(state: BookGunState, unit: Unit, w: World) -> list[str]:
    """p.17 (5.3): name the quarter of the fit men (rounded down) who hold the horses - house:
    ordinary figures from the end of the roster, then key figures, never a leader or officer."""
    fit = state.fit_figures(unit)
    pool = [f for f in reversed(fit) if f.role == "ordinary"]
    pool += [f for f in reversed(fit) if f.role == "key"]
    unit.holders = [f.id for f in pool[: horse_holders(w, len(fit))]]
    return unit.holders


def holding(state: BookGunState, unit: Unit) -> list[Figure]:
    """The un-hit (fit) figures holding the unit's led horses now."""
    if not led_horses(unit):
        return []
    return [state.figures[i] for i in unit.holders if state.figures[i].fit]


def mount_options(state: BookGunState, unit: Unit, in_room: bool) -> list[Action]:
    """Get on or off the unit's horses or bicycles (never in a building, when shaken or pinned)."""
    if unit.ride is None or in_room or unit.status != OK:
        return []
    if unit.horses_lost:  # bookgun.cavalry.stampede: its horses ran off (house: for good)
        return []
    return [Action("activate", unit=unit.id, option="get_off" if unit.riding else "get_on")]


def change(state: BookGunState, unit: Unit, w: World, events: list[Event]) -> float:
    """Get on (or off) and roll the 1D6 the unit may still move this phase (a dismounted scout
    getting on: 2D6). Returns the inches rolled."""
    cav = w.tables.cavalry
    getting_on = not unit.riding
    dice = cav.scout_mount_dice if (getting_on and unit.scout_of is not None) else cav.mount_dice
    rule = "bookgun.move.cavalry" if unit.ride == "horse" else "bookgun.move.bicycles"
    what = "horses" if unit.ride == "horse" else "bicycles"
    verb = "mounts its" if getting_on else "dismounts from its"
    faces = movement_roll(dice, rule, f"{unit.name} {verb} {what}").sample(state.rng, events)
    unit.riding = getting_on
    unit.mounted = state.flow.turn
    for f in state.unit_figures(unit):
        f.prone = False
    text = f"{unit.name} {verb} {what}"
    if unit.ride == "horse" and not getting_on:
        holders = assign_holders(state, unit, w)  # bookgun.cavalry.holders (p.17 5.3)
        text += f" ({len(holders)} of its men hold the horses)"
    elif unit.ride == "horse":
        unit.holders = []
    events.append(note("dismount" if not getting_on else "mount", text, rule, unit=unit.id))
    rolled = float(sum(faces))
    return max(w.tables.movement.minimum_move, rolled)
