"""Contiguous units moving together at road rate on one card (bookgun.move.road_column; p.14
2.4, p.16 4.1, p.17 5.1).

Published: a unit on road rate is on the road in a column (up to two figures wide; vehicles one
wide) and starts and ends its move on a road; a set of contiguous units all moving at road rate
may all activate on one card and move at the rate of the slowest unit.

House (catalogued): "contiguous" is each unit within ``road_column.contiguous`` inches (figure to
figure) of another of the set, found by chaining; the set is every such unit of the side that may
still move this phase - foot units in column with every figure on a road, ground vehicles on a road
(not swimming), none concealed, aboard, riding a tank, in a building, prone, shaken or under a
joker's effect; one roll of the slowest unit's road dice serves all (a wounded or separated
unit's lost die, or snow or mud, counts for the whole set); the player moves the unit whose card it
is and the others follow by the same displacement, each one checked (ending on a road, no wall or
building in the way); if it stays, all stay."""

from __future__ import annotations

import math
from collections.abc import Callable

from umpire.core.actions import Action
from umpire.core.events import Event, note
from umpire.geometry.table import Vec
from umpire.rulesets.bookgun.chances import movement_roll
from umpire.rulesets.bookgun.common import centre, dist, world
from umpire.rulesets.bookgun.state import OK, BookGunState, Unit

RULE = "bookgun.move.road_column"


def road_ready(state: BookGunState, unit: Unit) -> bool:
    """On road rate now: in column with every figure on a road (a ground vehicle on a road)."""
    w = world(state)
    if (
        unit.concealed
        or unit.aboard is not None
        or unit.rides is not None
        or unit.gun is not None
        or unit.status != OK
        or unit.extra_die
        or unit.minus_d6
        or unit.scout_of is not None
    ):
        return False
    figs = state.unit_figures(unit)
    if not figs or any(f.room is not None or f.prone for f in figs):
        return False
    if unit.vehicle is not None:
        from umpire.rulesets.bookgun.watercraft import medium, swimming

        if medium(state, unit) != "land" or swimming(state, unit):
            return False
    elif unit.formation != "column":
        return False
    return all(w.on_road(f.pos) for f in figs)


def _touching(state: BookGunState, a: Unit, b: Unit, gap: float) -> bool:
    return any(
        dist(f.pos, g.pos) <= gap + 1e-9
        for f in state.unit_figures(a)
        for g in state.unit_figures(b)
    )


def _pool(state: BookGunState, side: str, movable: Callable[[Unit], bool]) -> list[Unit]:
    return [
        u
        for u in sorted(state.units.values(), key=lambda u: u.id)
        if u.side == side and movable(u) and road_ready(state, u)
    ]


def _component(state: BookGunState, lead: Unit, pool: list[Unit]) -> list[Unit]:
    gap = world(state).tables.road_column.contiguous
    group, frontier = [lead], [lead]
    while frontier:
        cur = frontier.pop()
        for u in pool:
            if u not in group and _touching(state, cur, u, gap):
                group.append(u)
                frontier.append(u)
    return group


def group_of(state: BookGunState, lead: Unit, movable: Callable[[Unit], bool]) -> list[Unit]:
    """The contiguous set (by chaining) of units on road rate that includes ``lead``."""
    pool = _pool(state, lead.side, movable)
    return _component(state, lead, pool) if lead in pool else []


def convoy_options(state: BookGunState, side: str, movable: Callable[[Unit], bool]) -> list[Action]:
    """One "convoy" activation per unit of a contiguous set of two or more on road rate."""
    pool = _pool(state, side, movable)
    if len(pool) < 2:
        return []
    groups: dict[str, list[Unit]] = {}
    for u in pool:
        if u.id not in groups:
            group = _component(state, u, pool)
            for g in group:
                groups[g.id] = group
    out = []
    for u in pool:  # in unit-id order
        group = groups[u.id]
        if len(group) >= 2:
            others = tuple(sorted(g.id for g in group if g is not u))
            out.append(Action("activate", unit=u.id, option="convoy", units=others))
    return out


def road_dice(state: BookGunState, unit: Unit) -> int:
    from umpire.rulesets.bookgun.movement import dice_for

    return dice_for(world(state), unit, "road", "column")


def start(
    state: BookGunState, lead: Unit, others: list[Unit], events: list[Event]
) -> dict[str, object]:
    """Roll the slowest unit's road dice once for the set; returns the pending move's data."""
    from umpire.rulesets.bookgun.allowance import Allowance
    from umpire.rulesets.bookgun.movement import keep_dice, snow_vehicle

    w = world(state)
    group = [lead, *others]
    slowest = min(group, key=lambda u: (road_dice(state, u), u.id))
    dice = road_dice(state, slowest)
    names = ", ".join(u.name for u in group)
    faces = list(
        movement_roll(dice, RULE, f"{names} move together on the road").sample(state.rng, events)
    )
    reasons: list[str] = []
    radius = w.tables.command.radius
    separated = any(
        (lead_fig := state.leader_of(u)) is not None
        and any(dist(f.pos, lead_fig.pos) > radius for f in state.fit_figures(u))
        for u in group
    )
    if separated or any(f.status == "wounded" for u in group for f in state.unit_figures(u)):
        faces = keep_dice(faces, "highest")
        reasons.append("a unit of the set drops its highest die (wounded or separated)")
    if w.spec.ground != "dry" and not all(snow_vehicle(w, u) for u in group):
        # over-snow vehicles on snow keep the die (bookgun.move.over_snow, house); a set with
        # any other unit loses it, as that unit would
        faces = keep_dice(faces, "lowest")
        reasons.append(f"bookgun.move.weather: {w.spec.ground} drops the lowest die on roads")
    road = max(w.tables.movement.minimum_move, float(sum(faces)))
    al = Allowance(0.0, 0.0, road, False, None)
    text = (
        f"{names} may move {road:g} in. along the road at the rate of the slowest "
        f"({slowest.name}, {dice}D6)"
    )
    if reasons:
        text += " (" + "; ".join(reasons) + ")"
    events.append(
        note(
            "allowance",
            text,
            RULE,
            unit=lead.id,
            clear=0.0,
            rough=0.0,
            road=road,
            prone=False,
        )
    )
    return {"unit": lead.id, "convoy": [u.id for u in others], **al.to_dict()}


def convoy_problem(
    state: BookGunState, lead: Unit, others: list[Unit], al: object, point: Vec
) -> str | None:
    """Why the set may not move so that ``lead`` ends at ``point`` (the rest by the same
    displacement), or None."""
    from umpire.rulesets.bookgun.movement import move_problem

    w = world(state)
    c = centre(state, lead)
    dx, dy = point[0] - c[0], point[1] - c[1]
    for u in [lead, *others]:
        uc = centre(state, u)
        dest = (round(uc[0] + dx, 2), round(uc[1] + dy, 2)) if u is not lead else point
        if not w.on_road(dest):
            return f"{u.name} would leave the road (road rate ends on a road, {RULE})"
        problem = move_problem(state, u, al, dest, None)  # type: ignore[arg-type]
        if problem is not None:
            return f"{u.name}: {problem}"
    return None


def convoy_points(state: BookGunState, lead: Unit, others: list[Unit], al: object) -> list[Vec]:
    """Destinations for the lead unit: sixteen bearings at a quarter to all of the road roll,
    those every unit of the set can follow."""
    from umpire.rulesets.bookgun.allowance import Allowance

    assert isinstance(al, Allowance)
    c = centre(state, lead)
    out: list[Vec] = []
    for k in range(16):
        a = math.radians(22.5 * k)
        for frac in (0.25, 0.5, 0.75, 1.0):
            d = al.road * frac - 1e-3
            p = (round(c[0] + math.cos(a) * d, 2), round(c[1] + math.sin(a) * d, 2))
            if p not in out and convoy_problem(state, lead, others, al, p) is None:
                out.append(p)
    return out


def move_all(
    state: BookGunState, lead: Unit, others: list[Unit], al: object, point: Vec
) -> list[Event]:
    """Move the set: ``lead`` to ``point``, the others by the same displacement; vehicles are
    in motion when they used half the roll (p.15)."""
    from umpire.rulesets.bookgun.allowance import Allowance
    from umpire.rulesets.bookgun.movement import do_move

    assert isinstance(al, Allowance)
    c = centre(state, lead)
    dx, dy = point[0] - c[0], point[1] - c[1]
    length = math.hypot(dx, dy)
    share = world(state).tables.vehicles.in_motion
    events: list[Event] = []
    for u in [lead, *others]:
        uc = centre(state, u)
        dest = point if u is lead else (round(uc[0] + dx, 2), round(uc[1] + dy, 2))
        where = do_move(state, u, dest, None)
        u.moved = True
        if u.vehicle is not None:
            u.in_motion = length >= share * al.road - 1e-9
        if u is not lead:
            state.acted.append(u.id)
        events.append(
            note("move", f"{u.name} moves {where} on the road", RULE, unit=u.id, to=where)
        )
    return events
