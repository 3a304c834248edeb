"""Spotting, concealment, fire, casualty cards, close combat, morale and the civilians."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from umpire.core.chance import Modifier, Roll
from umpire.core.deck import card_suit
from umpire.core.events import Event, note
from umpire.core.switches import switches_in
from umpire.geometry.table import Vec, angle_between, bearing, segment_point_distance
from umpire.rulesets.bookgun.chances import (
    HitsUnder,
    RollUnder,
    casualty_effect,
    door_shot,
    draw_card,
    movement_roll,
    pair_roll,
)
from umpire.rulesets.bookgun.common import (
    active_units,
    centre,
    dist,
    known_enemies,
    secret,
    world,
)
from umpire.rulesets.bookgun.mounts import holding, led_horses
from umpire.rulesets.bookgun.movement import dice_for, flee, locked, place_outside, unit_room
from umpire.rulesets.bookgun.state import (
    CAPTURED,
    FIT,
    GONE,
    KILLED,
    OK,
    OUT,
    PINNED,
    ROUTED,
    SHAKEN,
    WOUNDED,
    BookGunState,
    Figure,
    Marker,
    Unit,
)
from umpire.rulesets.bookgun.world import World

BANDS = ("short", "medium", "long")
CATS = ("I", "II", "III", "IV")
DOOR = "door:"  # a fire target naming a door: ``door:ROOM`` (bookgun.building.door_fire)
DOOR_RULE = "bookgun.building.door_fire"


def relaxed(state: BookGunState, rule: str, detail: str) -> bool:
    """Whether a rule the action breaks lets it through all the same (issue 21's switches:
    never under ``enforce``; under ``advise`` the breach is noted for the menu and the log)."""
    return switches_in(state.options).allows(rule, False, detail)


# -- concealment ----------------------------------------------------------------------------------
def reveal(state: BookGunState, marker: Marker, why: str) -> list[Event]:
    """Turn a marker over (bookgun.conceal.reveal): a dummy is removed, a unit is placed."""
    del state.markers[marker.id]
    if marker.unit is None:
        return [
            note(
                "reveal",
                f"marker {marker.id} {why}: a dummy, removed",
                "bookgun.conceal.reveal",
                marker=marker.id,
                dummy=True,
            )
        ]
    unit = state.units[marker.unit]
    unit.concealed = False
    unit.marker = None
    figs = state.unit_figures(unit)
    where = [{"id": f.id, "x": round(f.x, 2), "y": round(f.y, 2), "room": f.room} for f in figs]
    text = f"marker {marker.id} {why}: {unit.name}, {len(figs)} figures, placed on the table"
    return [
        note(
            "reveal", text, "bookgun.conceal.reveal", marker=marker.id, unit=unit.id, figures=where
        )
    ]


def marker_points(state: BookGunState, marker: Marker) -> list[Vec]:
    if marker.unit is None:
        return [(marker.x, marker.y)]
    return [f.pos for f in state.unit_figures(marker.unit)] or [(marker.x, marker.y)]


def check_reveals(state: BookGunState) -> list[Event]:
    """Markers the army has come close to (within 4 in., or 6 in. in sight) are turned over."""
    w = world(state)
    c = w.tables.conceal
    army = [f for u in active_units(state, "army") for f in state.fit_figures(u)]
    events: list[Event] = []
    for marker in list(state.markers.values()):
        pts = marker_points(state, marker)
        hit = False
        for a in army:
            for p in pts:
                d = dist(a.pos, p)
                if d <= c.reveal_near or (d <= c.reveal_sight and w.sight_for("army", a.pos, p)):
                    hit = True
                    break
            if hit:
                break
        if hit:
            events += reveal(state, marker, "is closed with")
    return events


# -- sight and spotting ----------------------------------------------------------------------------
def sees(w: World, a: Figure, b: Figure) -> bool:
    """Line of sight from figure ``a`` to figure ``b``: rooms, buildings, walls, and smoke
    (bookgun.los.smoke) unless ``a``'s side has thermal sights; a prone ``b`` behind a low
    screen only if he himself fired this turn or last (bookgun.los.figure)."""
    if w.smoke and w.smoke_blocks(a.pos, b.pos, getattr(a, "side", None)):
        return False
    if a.room is not None and b.room is not None:
        ra, rb = w.rooms[a.room], w.rooms[b.room]
        if a.room == b.room:
            return True
        return ra.building == rb.building and ra.floor == rb.floor and b.room in ra.neighbours
    if (a.room is None) != (b.room is None):
        inside = a if a.room is not None else b
        if w.rooms[inside.room or ""].floor > 0 and dist(a.pos, b.pos) < 1.0:
            return False
    lying = getattr(b, "prone", False)  # the board's sight lines pass plain records
    fired = bool(getattr(b, "fired", False) or getattr(b, "fired_last", False))
    if lying and not fired and b.room is None and (a.room is None or w.rooms[a.room].floor == 0):
        # bookgun.move.prone (p.16 4.3): a prone figure behind a short wall or an elevation
        # change is unseen to an observer on the same level - here one on the ground outside
        # the screen he lies behind (a low wall, a stall: hides_prone behind), or outside the
        # depression he lies in (the gully: hides_prone inside - it hides nobody beyond it);
        # unless he fired this turn or last (p.11 2.2: the figure that fired can be seen -
        # that figure, not the rest of his unit)
        for screen in w.prone_screens:
            if not screen.contains(*a.pos) and screen.touches_segment(
                a.pos[0], a.pos[1], b.pos[0], b.pos[1]
            ):
                return False
        for hollow in w.prone_hollows:
            if hollow.contains(*b.pos) and not hollow.contains(*a.pos):
                return False
    return w.sight(a.pos, b.pos)


def sight_factor(w: World, side: str) -> float:
    """How much farther everything looks to ``side``'s spotters: fog, rain and falling snow
    halve spotting distances (bookgun.weather.visibility, p.19), and so does darkness for a side
    without night-vision goggles (bookgun.los.dark, p.11) - both read as every distance on the
    spotting chart counting double; they compound."""
    factor = 1.0
    # thermal sights are halved by rain and falling snow, not by fog (p.19)
    if w.spec.weather != "clear" and not (
        w.spec.weather == "fog" and side in w.spec.thermal_sights
    ):
        factor *= 2.0
    if w.spec.light == "night" and side not in w.spec.night_vision:
        factor *= 2.0
    return factor


def spot_number(w: World, spotter: Unit, d: float, leader: bool) -> int | None:
    """The spotting chart (bookgun.spot.chart): None = automatic, 0 = cannot spot."""
    troop = spotter.troop if spotter.troop != "vehicle" else str(spotter.side)
    chart = w.tables.spotting.for_type(troop)
    d *= sight_factor(w, str(getattr(spotter, "side", spotter.troop)))  # callers may pass a troop
    if d <= chart.auto:
        return None
    for edge, with_leader, without in chart.bands:
        if d <= edge:
            return with_leader if leader else without
    return 0


def fired_on(unit: Unit, by_side: str, state: BookGunState) -> bool:
    targets = unit.fired_at + unit.fired_at_last
    return any(state.units[t].side == by_side for t in targets if t in state.units)


def spotting(state: BookGunState) -> list[Event]:
    """Start of the fire phase: each side looks for the enemy (bookgun.spot.*)."""
    w = world(state)
    events: list[Event] = []
    for side in ("army", "insurgents"):
        spotters = [u for u in active_units(state, side) if u.status != ROUTED]
        for target in known_enemies(state, side):
            if not targetable(target):
                target.spotted = True  # a vehicle is in plain view; passengers ride inside
                continue
            if fired_on(target, side, state) or target.fought or target.fought_last:
                target.spotted = True
                continue
            if target.moved or target.moved_last:
                target.spotted = False
                continue
            target.spotted = _look(
                state,
                w,
                spotters,
                [f for f in state.unit_figures(target)],
                target.name,
                events,
                static=True,
            )
        if side == "army":
            for marker in list(state.markers.values()):
                pts = marker_points(state, marker)
                probe = [
                    Figure("probe", "", "", "", "unarmed", None, "ordinary", p[0], p[1], 0.0)
                    for p in pts
                ]
                if _look(state, w, spotters, probe, f"marker {marker.id}", events, static=False):
                    events += reveal(state, marker, "is spotted")
    return events


def _look(
    state: BookGunState,
    w: World,
    spotters: list[Unit],
    targets: list[Figure],
    name: str,
    events: list[Event],
    static: bool,
) -> bool:
    best: tuple[float, Unit, Figure] | None = None
    for u in spotters:
        for f in state.fit_figures(u):
            for t in targets:
                d = dist(f.pos, t.pos)
                if (best is None or d < best[0]) and sees(w, f, t):
                    best = (d, u, f)
    if best is None:
        return False
    d, u, f = best
    if static and d <= w.tables.spotting.static_range:
        return False  # fireable anyway: no roll needed
    number = spot_number(w, u, d, state.leader_of(u) is not None)
    who = u.name
    if state.unseen_inside(u, "army" if u.side == "insurgents" else "insurgents"):
        who = f"someone inside {state.units[str(u.aboard)].name}"  # riders stay unseen
        state.units[str(u.aboard)].occupied_seen = True  # ... but the enemy knows someone is in
    if number is None:
        events.append(
            note("spot", f"{who} spots {name} at {d:.1f} in. (automatic)", "bookgun.spot.roll")
        )
        return True
    if number == 0:
        return False
    if u.aboard is not None or u.vehicle is not None:
        # bookgun.spot.roll (p.10): spotting from inside a vehicle is at one half
        number //= 2
        if number <= 0:
            return False
    test = RollUnder(20, number, "bookgun.spot.roll", text=f"{who} looks for {name} at {d:.1f} in.")
    return test.sample(state.rng, events)


# -- fire ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Shot:
    """One figure's fire at a unit: its dice and the number it needs."""

    firer: str
    dice: int
    number: int
    band: str
    category: str
    distance: float
    blast: str | None = None  # weapon fired as a blast


def category(w: World, state: BookGunState, fig: Figure, unit: Unit, firer: Vec) -> str:
    """Target category of one figure (bookgun.fire.category, bookgun.building.cover)."""
    if fig.room is not None:
        return "IV"
    if w.forts and w.in_area(fig.pos, w.forts):  # spec §4.1: in a fort, Category IV
        return "IV"
    for wall in w.low_walls:
        if wall.polygon.distance(_point(fig.pos)) <= 1.0 and wall.touches_segment(
            firer[0], firer[1], fig.x, fig.y
        ):
            return "IV"
    if fig.prone or w.in_rough(fig.pos):
        return "III"
    if unit.rides is not None or (unit.ride == "horse" and unit.riding):
        return "I"  # spec §4.1: mounted figures and tank riders are Category I
    if unit.formation in ("open", "unformed") or unit.scout_of is not None:
        # bookgun.move.scouts (p.17): a scout counts as an open-order target
        return "II"
    return "I"


def _point(p: Vec) -> object:
    from shapely.geometry import Point

    return Point(p)


def charged_by(state: BookGunState, unit: Unit) -> bool:
    return any(u.charging == unit.id for u in state.units.values())


def firing_figures(state: BookGunState, unit: Unit) -> list[Figure]:
    """Fit figures able to shoot: carriers of wounded do not (bookgun.move.wounded)."""
    if unit.aboard is not None:
        return []  # passengers do not fire from inside (house)
    fit = state.fit_figures(unit)
    wounded = sum(1 for f in state.unit_figures(unit) if f.status == WOUNDED)
    carriers = {f.id for f in [f for f in reversed(fit) if f.role == "ordinary"][:wounded]}
    w = world(state)
    if led_horses(unit):  # bookgun.cavalry.holders (house): a man holding horses does not fire
        carriers |= set(unit.holders)
    out = [f for f in fit if f.id not in carriers and w.tables.weapons.types[f.weapon].dice[0] > 0]
    if unit.gun is not None and not gun_serves(state, unit):
        out = [f for f in out if f.role != "gun"]
    return out


def gun_serves(state: BookGunState, unit: Unit) -> bool:
    """bookgun.move.artillery (p.16): a gun fires only unlimbered (not limbering), with a fit
    crewman standing (prone gunners may not fire it, 3.4), and - unless it is a light gun or
    recoilless rifle (push and fire, 3.2) - only if it did not move this turn."""
    w = world(state)
    if unit.gun is None or unit.limbered or unit.limbering is not None:
        return False
    if unit.moved and not w.tables.artillery.kinds[unit.gun].push_fire:
        return False
    return any(f.role != "gun" and not f.prone for f in state.fit_figures(unit))


def visible_targets(
    state: BookGunState, w: World, f: Figure, target: Unit, any_arc: bool
) -> list[Figure]:
    out = []
    for t in state.unit_figures(target):
        if t.role in ("gun", "vehicle"):
            continue  # fire against guns and vehicles is out of scope (spec §4.8)
        if not any_arc and not in_view(state, f, t.pos, target.name):
            continue
        if sees(w, f, t):  # a prone man who fired is seen (p.11 2.2, per figure)
            out.append(t)
    return out


def in_view(state: BookGunState, f: Figure, p: Vec, what: str) -> bool:
    """bookgun.move.facing (p.15): a figure outside a building sees, and so fires, only within
    180 degrees of its front (switchable: under ``advise``/``off`` it fires all round)."""
    if f.room is None and angle_between(f.facing, bearing(f.pos, p)) > 90.0:
        who = state.units[f.unit].name
        return relaxed(
            state,
            "bookgun.move.facing",
            f"{who} fires at {what} with figures facing away (outside their 180-degree view)",
        )
    return True


def heavy(w: World, weapon: str | None) -> bool:
    """A heavy weapon (bookgun.fire.reload): its row takes extra reload markers (RPG,
    recoilless rifle, guns) and they are kept apart from the unit's other weapons'."""
    kind = w.tables.weapons.types.get(weapon or "")
    return kind is not None and kind.reload_extra > 0


def reload_kept(state: BookGunState) -> bool:
    """Whether reload markers stop fire (the rule switched on)."""
    return not switches_in(state.options).relaxed("bookgun.fire.reload")


def loaded(state: BookGunState, unit: Unit, f: Figure) -> bool:
    """``f`` has a weapon whose group carries no reload marker (bookgun.fire.reload, spec §4.1
    step 5: "Track markers per weapon group so one RPG does not silence the rifles"): a gun
    when the unit's heavy weapons have none; anyone else when its other weapons have none, or
    an RPG gunner with a round left when only those carry markers."""
    w = world(state)
    if f.role == "gun" and heavy(w, f.weapon):
        return unit.reload_heavy == 0
    if unit.reload == 0:
        return True
    return unit.reload_heavy == 0 and heavy(w, f.second) and f.rounds > 0


def plan_shots(
    state: BookGunState, unit: Unit, figs: list[Figure], target: Unit, blast: bool
) -> list[Shot]:
    """What each figure would roll against ``target`` (bookgun.fire.procedure). Reload
    markers (spec §4.1 step 5, per weapon group): with markers on the heavy weapons a gun does
    not fire and an RPG gunner uses his rifle; with markers on the others only heavy weapons
    fire."""
    w = world(state)
    tb = w.tables
    kept = reload_kept(state)
    heavy_wait = kept and unit.reload_heavy > 0
    small_wait = kept and unit.reload > 0
    any_arc = unit.concealed or charged_by(state, unit)
    shots: list[Shot] = []
    ground = state.options.get("double_ranges") and 2.0 or 1.0
    for f in figs:
        seen = visible_targets(state, w, f, target, any_arc)
        if not seen:
            continue
        d = min(dist(f.pos, t.pos) for t in seen)
        weapon_name = f.weapon
        blast_name = None
        if f.role == "gun":  # a gun fires HE: always a blast (house, spec §4.1)
            if heavy_wait and heavy(w, f.weapon):
                continue
            blast_name = f.weapon
        elif blast:
            if (
                f.second in ("rpg", "grenade_launcher")
                and f.rounds > 0
                and not (heavy_wait and heavy(w, f.second))
            ):
                weapon_name = blast_name = f.second
            elif f.grenades > 0 and d <= tb.blast.grenade_range:
                blast_name = "grenade"
        weapon = tb.weapons.types[weapon_name]
        band_index = next((i for i, edge in enumerate(weapon.bands) if d <= edge * ground), None)
        if blast_name == "grenade":
            band_index = 0
        if band_index is None or (weapon.min_range and d < weapon.min_range):
            if blast_name is None:
                continue
            blast_name, weapon = None, tb.weapons.types[f.weapon]
            band_index = next(
                (i for i, edge in enumerate(weapon.bands) if d <= edge * ground), None
            )
            if band_index is None:
                continue
        if small_wait and not heavy(w, blast_name):
            continue  # markers on the unit's other weapons: only a heavy one may fire
        band = BANDS[band_index]
        cats = Counter(category(w, state, t, target, f.pos) for t in seen)
        cat = max(cats, key=lambda c: (cats[c], CATS.index(c)))
        number = tb.fire_table.number(band, cat)
        number += tb.fire_mods.quality.get(unit.quality, 0) + weapon.hit_mod
        if unit.vehicle is not None:
            if unit.in_motion:  # firing from a vehicle in motion (p.15), instead of "moved"
                number += tb.fire_mods.moving_vehicle
        elif unit.moved:
            number += tb.fire_mods.moved
        number += night_mod(w, unit.side)
        number = max(tb.fire_table.minimum, number)
        dice = 1 if blast_name else weapon.dice[band_index]
        # spec §4.1: an MMG with only one of its crew left rolls 2 dice (the crew are the
        # gunner and the fit men of his unit, house)
        if (
            not blast_name
            and weapon.short_crew_dice
            and f.crew > 1
            and len(state.fit_figures(unit)) < f.crew
        ):
            dice = min(dice, weapon.short_crew_dice)
        if dice <= 0:
            continue
        shots.append(Shot(f.id, dice, number, band, cat, d, blast_name))
    return shots


def night_mod(w: World, side: str) -> int:
    """bookgun.los.dark (p.11): at night a side without night-vision goggles fires at -2,
    unless it has laser aiming devices, which offset the aiming penalty."""
    if w.spec.light != "night":
        return 0
    if side in w.spec.night_vision or side in w.spec.laser_sights:
        return 0
    return w.tables.fire_mods.night


def targetable(unit: Unit) -> bool:
    """Units fire and charges may be aimed at: not a vehicle and not riding inside one (fire
    against vehicles is out of scope, spec §4.8 - house: passengers inside are shielded)."""
    return unit.vehicle is None and unit.aboard is None


def roe_problem(state: BookGunState, unit: Unit, figs: list[Figure], target_id: str) -> str | None:
    """Why the rules of engagement forbid this fire (army only), or None."""
    found = _roe(state, unit, figs, target_id)
    return None if found is None else f"{found[1]} [rule {found[0]}]"


def roe_allows(state: BookGunState, unit: Unit, figs: list[Figure], target_id: str) -> bool:
    """The rules of engagement let this fire through: kept, or switched to advise/off."""
    found = _roe(state, unit, figs, target_id)
    if found is None:
        return True
    rule, why = found
    return relaxed(state, rule, f"{unit.name} fires at {_target_words(state, target_id)}: {why}")


def _target_words(state: BookGunState, target_id: str) -> str:
    if target_id.startswith(DOOR):
        return f"the door of {target_id[len(DOOR) :]}"
    if target_id in state.markers:
        return f"marker {target_id}"
    return state.units[target_id].name


def _roe(
    state: BookGunState, unit: Unit, figs: list[Figure], target_id: str
) -> tuple[str, str] | None:
    """(rule, why) when the rules of engagement forbid this fire (army only)."""
    if unit.side != "army":
        return None
    roe = world(state).spec.roe
    w = world(state)
    if target_id in state.markers:
        return (
            None
            if roe == 4
            else ("bookgun.roe.3", f"no speculative fire at markers under ROE {roe}")
        )
    civs = [f for f in state.figures.values() if f.side == "civilians" and f.present]
    if target_id.startswith(DOOR):  # an HE round at a locked door (bookgun.building.door_fire)
        door = door_at(state, target_id[len(DOOR) :])
        if roe <= 2 and door is not None:
            for f in figs:
                if any(
                    segment_point_distance(f.pos, door, c.pos) <= w.tables.collateral.line
                    for c in civs
                ):
                    return (
                        f"bookgun.roe.{roe}",
                        f"civilians near the line of fire under ROE {roe}",
                    )
        if roe == 1:
            return ("bookgun.roe.1", "ROE 1: fire only back at a spotted unit that fired on us")
        if roe == 2 and state.leader_of(unit) is None:
            return ("bookgun.roe.2", "ROE 2: no leader to authorise fire")
        return None
    target = state.units[target_id]
    if target.side == "civilians":
        return (
            None
            if roe == 4
            else (f"bookgun.roe.{roe}", f"civilians may not be targeted under ROE {roe}")
        )
    if roe <= 2:
        for f in figs:
            for t in state.unit_figures(target):
                if any(
                    segment_point_distance(f.pos, t.pos, c.pos) <= w.tables.collateral.line
                    for c in civs
                ):
                    return (
                        f"bookgun.roe.{roe}",
                        f"civilians near the line of fire under ROE {roe}",
                    )
    # p.7: "fire only when fired upon, only at that firer" - the firing unit itself was shot at
    if roe == 1 and not (target.spotted and unit.id in target.fired_at + target.fired_at_last):
        return ("bookgun.roe.1", "ROE 1: fire only back at a spotted unit that fired on us")
    if roe == 2:
        lead = state.leader_of(unit)
        if lead is None:
            return ("bookgun.roe.2", "ROE 2: no leader to authorise fire")
        radius = w.tables.command.radius
        if any(dist(f.pos, lead.pos) > radius for f in figs):
            # p.7: the leader on the spot authorises all fire - not a man beyond his 6 in.
            return ("bookgun.roe.2", "ROE 2: a firer beyond his leader's 6 in. (unauthorised)")
    return None


def fireable(state: BookGunState, target: Unit, shots: list[Shot]) -> bool:
    """bookgun.spot.static: a unit that neither moved nor fired last turn (p.10 VI.1 b) may be
    fired at only within 6 in. or spotted."""
    if (
        target.side == "civilians"
        or target.spotted
        or target.moved
        or target.moved_last
        or target.fired_last
    ):
        return True
    static = world(state).tables.spotting.static_range
    return any(s.distance <= static for s in shots)


def fire_targets(state: BookGunState, unit: Unit, figs: list[Figure]) -> list[str]:
    """What ``figs`` of ``unit`` may fire at: seen enemy units (and, for the army, civilians
    and markers where its rules of engagement allow), then locked doors an HE weapon can open
    (``door:ROOM``, bookgun.building.door_fire)."""
    out: list[str] = []
    enemies = [e for e in known_enemies(state, unit.side) if targetable(e)]
    if unit.side == "army":
        enemies += [u for u in active_units(state, "civilians")]
    for target in enemies:
        if target_allowed(state, unit, figs, target.id):
            out.append(target.id)
    if unit.side == "army":
        for m in state.markers.values():
            if any(dist(f.pos, (m.x, m.y)) <= 32 for f in figs) and roe_allows(
                state, unit, figs, m.id
            ):
                out.append(m.id)
    if any(he_weapon(state, unit, f) for f in figs):
        for room in sorted(locked_doors(state, unit.side)):
            if target_allowed(state, unit, figs, DOOR + room):
                out.append(DOOR + room)
    return out


def target_allowed(state: BookGunState, unit: Unit, figs: list[Figure], target_id: str) -> bool:
    """Whether ``figs`` may fire at one target: a shot, fireable (bookgun.spot.static), allowed
    by the rules of engagement; each guard may be switched (issue 21)."""
    if target_id.startswith(DOOR):
        room = target_id[len(DOOR) :]
        return bool(door_shots(state, unit, figs, room)) and roe_allows(
            state, unit, figs, target_id
        )
    if target_id in state.markers:
        return roe_allows(state, unit, figs, target_id)
    target = state.units[target_id]
    shots = plan_shots(state, unit, figs, target, False)
    if not shots and unit.reload > 0:  # only heavy weapons loaded: they fire as blasts
        shots = plan_shots(state, unit, figs, target, True)
    if not shots:
        return False
    if not fireable(state, target, shots):
        static = world(state).tables.spotting.static_range
        if not relaxed(
            state,
            "bookgun.spot.static",
            f"{unit.name} fires at {target.name}, unspotted and still, from beyond {static:g} in.",
        ):
            return False
    return roe_allows(state, unit, figs, target_id)


# -- HE at a locked door (bookgun.building.door_fire) ------------------------------------------
@dataclass(frozen=True)
class DoorShot:
    """One figure's HE round at a door: the weapon, its range band and the d20 it needs."""

    firer: str
    weapon: str
    band: str
    need: int
    distance: float


def he_weapon(state: BookGunState, unit: Unit, f: Figure) -> str | None:
    """The HE weapon ``f`` can fire (p.19: an HE/HEAT hit opens a locked door): a served gun,
    an RPG with a round left, a grenade launcher; hand grenades are thrown, not fired."""
    w = world(state)
    types = w.tables.weapons.types
    kept = reload_kept(state)
    found: str | None = None
    if f.role == "gun":
        found = f.weapon if gun_serves(state, unit) and types[f.weapon].blast else None
    elif f.second == "rpg" and f.rounds > 0:
        found = "rpg"
    elif f.second == "grenade_launcher" and f.rounds > 0:  # 6 rounds a grenadier (spec §4.1)
        found = "grenade_launcher"
    # reload markers, per weapon group (spec §4.1 step 5)
    waits = unit.reload_heavy > 0 if heavy(w, found) else unit.reload > 0
    if found is not None and kept and waits:
        return None
    return found


def door_at(state: BookGunState, room: str) -> Vec | None:
    w = world(state)
    r = w.rooms.get(room)
    return r.doors[0] if r is not None and r.doors else None


def locked_doors(state: BookGunState, side: str) -> dict[str, tuple[Vec, Vec]]:
    """bookgun.building.doors (p.19): the doors locked to ``side`` (the enemy is seen to hold
    the building) and not yet opened, by the room they lead into: (the door, just outside)."""
    w = world(state)
    opened = {br["room"] for br in state.breaches if br["blown"]}
    out: dict[str, tuple[Vec, Vec]] = {}
    for b in sorted(w.buildings.values(), key=lambda b: b.id):
        doors = [(at, room) for at, room in b.doors if room not in opened]
        if doors and locked(state, side, b.id):
            for at, room in doors:
                out.setdefault(room, (at, w.door_outside(at, b)))
    return out


def door_shots(state: BookGunState, unit: Unit, figs: list[Figure], room: str) -> list[DoorShot]:
    """Who of ``figs`` can put an HE round on the locked door of ``room``: outside a building,
    the door in view (bookgun.move.facing) and in sight (bookgun.los.*), within the weapon's
    range; each needs the blast weapon's on-target number for its band (bookgun.fire.blast,
    spec §4.1: 10 at short range, 6 beyond) - the door is the aim point."""
    doors = locked_doors(state, unit.side)
    if room not in doors:
        return []
    at, outside = doors[room]
    w = world(state)
    tb = w.tables
    ground = 2.0 if state.options.get("double_ranges") else 1.0
    any_arc = unit.concealed or charged_by(state, unit)
    out: list[DoorShot] = []
    for f in figs:
        weapon = he_weapon(state, unit, f)
        if weapon is None or f.room is not None or not f.fit:
            continue
        if not w.sight_for(unit.side, f.pos, outside):
            continue
        if not any_arc and not in_view(state, f, at, f"the door of {room}"):
            continue
        d = dist(f.pos, at)
        wt = tb.weapons.types[weapon]
        band_index = next((i for i, edge in enumerate(wt.bands) if d <= edge * ground), None)
        if band_index is None or (wt.min_range and d < wt.min_range):
            continue
        band = BANDS[band_index]
        need = tb.blast.on_target_short if band == "short" else tb.blast.on_target_beyond
        out.append(DoorShot(f.id, weapon, band, need, d))
    return out


def add_reload(
    state: BookGunState,
    unit: Unit,
    small: bool,
    heavy_fired: bool,
    gun: bool,
    extra: int,
    prone: bool,
) -> None:
    """bookgun.fire.reload (spec §4.1 step 5): 1 marker, +1 if the unit moved this turn, +1
    prone firers; a heavy weapon's markers (+1 RPG or recoilless, a pushed gun 2 for moving)
    are kept apart from the other weapons' so one RPG does not silence the rifles."""
    w = world(state)
    tm = w.tables.fire_mods
    moved = tm.reload_moved if unit.moved else 0
    lying = tm.reload_prone if prone else 0
    if small:
        unit.reload += tm.reload_base + moved + lying
    if heavy_fired:
        if unit.moved and gun:
            moved = w.tables.artillery.push_reload  # push and fire: reload 2 full turns (p.16)
        unit.reload_heavy += tm.reload_base + moved + extra + lying


def resolve_door_fire(
    state: BookGunState, unit: Unit, figs: list[Figure], room: str
) -> list[Event]:
    """bookgun.building.door_fire (house on p.19's "an HE/HEAT hit"): the unit's HE weapons
    fire at the door one after another until one round lands on it (the blast's on-target d20,
    bookgun.fire.blast); that round blows the door open for good (an entry never locked, like
    a breach) and everyone in the room within the blast radius of it rolls as Category II
    (spec §4.1, a burst inside a room); hidden occupants are revealed. A round that misses
    scatters 1D6 in. in the d10's direction and bursts there. Reload markers as for blast
    weapons (bookgun.fire.reload)."""
    w = world(state)
    events: list[Event] = []
    if unit.concealed and unit.marker is not None and unit.marker in state.markers:
        events += reveal(state, state.markers[unit.marker], "opens fire")
    doors = locked_doors(state, unit.side)
    at, outside = doors[room]
    shots = door_shots(state, unit, figs, room)
    events.append(
        note(
            "fire",
            f"{unit.name} fires HE at the locked door of {room}",
            DOOR_RULE,
            unit=unit.id,
            target=DOOR + room,
        )
    )
    extra = 0
    fired: list[Figure] = []
    for s in shots:
        f = state.figures[s.firer]
        fired.append(f)
        if s.weapon in ("rpg", "grenade_launcher"):
            f.rounds -= 1
        extra = max(extra, w.tables.weapons.types[s.weapon].reload_extra)
        f.facing = bearing(f.pos, at)
        text = f"{f.name}'s {s.weapon} at the door of {room} ({s.band}, {s.distance:.1f} in.)"
        if door_shot(s.need, text).sample(state.rng, events):
            state.breaches.append(
                {
                    "room": room,
                    "x": float(at[0]),
                    "y": float(at[1]),
                    "turn": state.flow.turn,
                    "side": unit.side,
                    "blown": True,
                    "how": "he",
                }
            )
            events.append(
                note(
                    "breach",
                    f"the door of {room} is blown open at ({at[0]:.1f}, {at[1]:.1f})",
                    DOOR_RULE,
                    room=room,
                    x=float(at[0]),
                    y=float(at[1]),
                )
            )
            for g in sorted(state.figures.values(), key=lambda x: x.id):
                owner = state.units[g.unit]
                if (
                    g.room == room
                    and g.present
                    and owner.concealed
                    and owner.marker in state.markers
                ):
                    events += reveal(state, state.markers[str(owner.marker)], "is blown open")
            events += room_blast(state, room, at, unit.side, DOOR_RULE, f"the {s.weapon} round")
            break
        aim = scatter(state, outside, events)
        events.append(
            note(
                "burst",
                f"the {s.weapon} misses the door and bursts at ({aim[0]:.1f}, {aim[1]:.1f})",
                "bookgun.fire.blast",
                x=aim[0],
                y=aim[1],
            )
        )
        events += burst(state, aim, unit.side, f.pos)
    big = [s for s in shots[: len(fired)] if heavy(w, s.weapon)]
    add_reload(
        state,
        unit,
        small=len(big) < len(fired) or not fired,
        heavy_fired=bool(big),
        gun=any(state.figures[s.firer].role == "gun" for s in big),
        extra=extra,
        prone=any(f.prone for f in fired),
    )
    unit.fired = True
    for f in fired:  # spec §5.3: the mob runs from the nearest figure that fired
        f.fired = True  # bookgun.los.figure (p.11 2.2)
        state.fire_points.append([float(state.flow.turn), f.x, f.y])
    return events


LEADERS = ("leader", "officer")


def choose_victim(
    state: BookGunState, target: Unit, effect: str, visible: list[Figure]
) -> Figure | None:
    fit = [f for f in visible if f.fit]
    if effect == "leader":
        officers = [f for f in fit if f.role == "officer"]
        lead = [f for f in fit if f.role == "leader"]
        found = officers or lead
        return found[0] if found else None
    # bookgun.cavalry.holders (p.17 5.3): horse holders with their dismounted unit are key
    # figures for fire (the firer's pick of a face card after the unit's own key men, house)
    held = set(target.holders) if led_horses(target) else set()
    order = (
        ("key", "holder", "ordinary") if effect.startswith("key") else ("ordinary", "key", "holder")
    )
    for role in order:
        pool = [f for f in fit if ("holder" if f.id in held else f.role) == role]
        if pool:
            return pool[0]
    # bookgun.lead.ace (p.7): a card but an ace hits a leader (or officer) only if he was
    # specifically targeted - a sniper's named man (sniper_cards), or (house) a leader the
    # firer sees with no other figure of the unit in view, so that he is the one aimed at
    hurt = [f for f in visible if f.status == WOUNDED and f.role not in LEADERS]
    if hurt:
        return hurt[0]
    if all(f.role in LEADERS for f in visible):
        lead = [f for f in fit if f.role == "officer"] + [f for f in fit if f.role == "leader"]
        hurt_lead = [f for f in visible if f.status == WOUNDED]
        found = lead or hurt_lead
        return found[0] if found else None
    return None


def cinc_revealed(state: BookGunState, fig: Figure) -> str:
    """bookgun.lead.cinc (p.8): the words that reveal ``fig`` as his side's secret
    Commander-in-Chief - when he is killed or captured, not when wounded."""
    if fig.status in (KILLED, CAPTURED) and state.commanders.get(fig.side) == fig.id:
        return " (the Commander-in-Chief)"
    return ""


def apply_hit(
    state: BookGunState, fig: Figure, killed: bool, by: str, rule: str, events: list[Event]
) -> None:
    unit = state.units[fig.unit]
    was = fig.status
    fig.status = KILLED if killed or was == WOUNDED else WOUNDED
    fig.hit_by = by
    fig.prone = fig.prone and fig.status == WOUNDED
    if was == FIT:
        unit.lost += 1
    if fig.status == KILLED and fig.id == unit.leader:
        unit.leader_killed = True
    words = "killed" if fig.status == KILLED else "wounded"
    extra = cinc_revealed(state, fig)
    events.append(
        note(
            "casualty",
            f"{fig.name} ({fig.id}) is {words}{extra}",
            rule,
            figure=fig.id,
            status=fig.status,
        )
    )


def casualty_cards(
    state: BookGunState,
    target: Unit,
    hits: int,
    visible: list[Figure],
    by: str,
    why: str,
    events: list[Event],
    horses: bool = False,
    leader_anywhere: bool = False,
) -> int:
    """One card per hit (bookgun.casualty.card); hits beyond the visible figures are lost.
    With ``leader_anywhere`` (fire at a unit) an ace kills the unit's leader (an attached
    officer first) whether or not the firer sees him (p.7 IV.1: 'A leader in a targeted unit
    is killed anytime an Ace is drawn'; spec §5.2); number and face cards stay with the
    figures in view.
    With ``horses`` (fire at a unit on foot with its led horses in view), a key-figure card with
    none of the unit's own key men visible hits a led horse instead (bookgun.cavalry.holders,
    p.17 5.3: the led horses are key figures; house: the firer's pick). Returns the horse hits."""
    horse_hits = 0
    for _ in range(min(hits, len(visible))):
        pile = state.casualties
        if not pile.pile:
            pile.pile, pile.discard = sorted(pile.discard), []
            pile.reshuffles += 1
        card = draw_card(sorted(pile.pile), "bookgun.casualty.card", why).sample(state.rng, events)
        pile.pile.remove(card)
        pile.discard.append(card)
        leaders = state.fit_figures(target) if leader_anywhere else visible
        lead_here = any(f.fit and f.role in LEADERS for f in leaders)
        effect = casualty_effect(card, lead_here)
        if (
            horses
            and effect.startswith("key")
            and led_horses(target)
            and not any(f.fit and f.role == "key" for f in visible)
        ):
            horse_hits += 1
            events.append(
                note(
                    "casualty",
                    f"a led horse of {target.name} is "
                    + ("killed" if effect == "key_killed" else "hit"),
                    "bookgun.cavalry.holders",
                    unit=target.id,
                )
            )
            continue
        victim = choose_victim(state, target, effect, leaders if effect == "leader" else visible)
        if victim is None:
            continue
        rule = "bookgun.lead.ace" if effect == "leader" else "bookgun.casualty.card"
        if effect == "leader" and victim.role == "officer":
            rule = "bookgun.lead.higher"
        apply_hit(state, victim, effect in ("leader", "killed", "key_killed"), by, rule, events)
    return horse_hits


SNIPER = "sniper_rifle"


def sniper_mark(
    state: BookGunState, w: World, f: Figure, target: Unit, unit: Unit
) -> Figure | None:
    """The figure a sniper names (spec §4.1, leader included, p.7): house - the firer's pick
    is the most valuable fit figure he sees, an officer or the leader first, then a key man."""
    any_arc = unit.concealed or charged_by(state, unit)
    seen = [t for t in visible_targets(state, w, f, target, any_arc) if t.fit]
    rank = {"officer": 0, "leader": 1, "key": 2}
    return min(seen, key=lambda t: (rank.get(t.role, 3), t.id)) if seen else None


def sniper_cards(
    state: BookGunState, named: Figure, hits: int, by: str, who: str, events: list[Event]
) -> None:
    """Each sniper hit draws a casualty card that decides only killed (a heart) or wounded,
    on the figure he named (spec §4.1 weapons table; bookgun.casualty.card)."""
    for _ in range(hits):
        if named.status not in (FIT, WOUNDED):
            return  # a second hit on a wounded man kills him (apply_hit)
        pile = state.casualties
        if not pile.pile:
            pile.pile, pile.discard = sorted(pile.discard), []
            pile.reshuffles += 1
        why = f"{who}'s aimed shot at {named.name}"
        card = draw_card(sorted(pile.pile), "bookgun.casualty.card", why).sample(state.rng, events)
        pile.pile.remove(card)
        pile.discard.append(card)
        killed = card_suit(card) == "hearts"
        apply_hit(state, named, killed, by, "bookgun.fire.weapons", events)


def resolve_fire(
    state: BookGunState, unit: Unit, figs: list[Figure], target_id: str, blast: bool
) -> list[Event]:
    w = world(state)
    if target_id.startswith(DOOR):
        return resolve_door_fire(state, unit, figs, target_id[len(DOOR) :])
    events: list[Event] = []
    if unit.concealed and unit.marker is not None and unit.marker in state.markers:
        events += reveal(state, state.markers[unit.marker], "opens fire")
    if target_id in state.markers:
        marker = state.markers[target_id]
        roe = w.spec.roe
        events.append(
            note(
                "fire",
                f"{unit.name} fires on marker {marker.id} (ROE {roe})",
                f"bookgun.roe.{roe}",
            )
        )
        events += reveal(state, marker, "is fired on")
        if marker.unit is None:
            unit.fired = True
            for f in figs:
                f.fired = True  # bookgun.los.figure: each man who fired gives himself away
            unit.reload += w.tables.fire_mods.reload_base
            return events
        target_id = marker.unit
    target = state.units[target_id]
    if target.side == "civilians":
        for f in figs:
            f.status = GONE
            events.append(
                note(
                    "sanction",
                    f"{f.name} deliberately fired on civilians and is removed",
                    "bookgun.roe.4",
                )
            )
        unit.fired = True
        for f in figs:
            f.fired = True  # bookgun.los.figure
        return events
    shots = plan_shots(state, unit, figs, target, blast)
    events.append(
        note(
            "fire",
            f"{unit.name} fires on {target.name} with {len(shots)} figure(s)",
            "bookgun.fire.procedure",
            unit=unit.id,
            target=target.id,
        )
    )
    total = 0
    twenties: list[Figure] = []
    extra_reload = 0
    for s in shots:
        f = state.figures[s.firer]
        if s.blast:
            # spec §4.1 step 5: +1 for an RPG or recoilless rifle - not for a thrown grenade
            # (no row of its own in the weapons table: no extra marker)
            kind = w.tables.weapons.types.get(s.blast)
            extra_reload = max(extra_reload, kind.reload_extra if kind is not None else 0)
            events += blast_at(state, f, unit, target, s)
            continue
        chance = HitsUnder(
            s.dice,
            20,
            s.number,
            "bookgun.fire.table",
            w.tables.fire_table.always_miss,
            text=f"{f.name} at {s.distance:.1f} in. ({s.band}, Cat {s.category})",
            data={"figure": f.id},
        )
        hits, faces = chance.sample_faces(state.rng, events)
        if f.weapon == SNIPER and hits:
            named = sniper_mark(state, w, f, target, unit)
            if named is not None:
                sniper_cards(state, named, hits, unit.side, f.name, events)
                hits = 0
        total += hits
        twenties += [f] * sum(1 for x in faces if x == w.tables.fire_table.always_miss)
        f.facing = bearing(f.pos, centre(state, target))
    visible = sorted(
        {t.id: t for f in figs for t in visible_targets(state, w, f, target, True)}.values(),
        key=lambda t: t.id,
    )
    horse_hits = casualty_cards(
        state,
        target,
        total,
        visible,
        unit.side,
        f"hit on {target.name}",
        events,
        horses=True,
        leader_anywhere=True,
    )
    if horse_hits:
        events += stampede_check(state, target, unit)
    for f in twenties:
        events += collateral(state, f, target)
    big = [s for s in shots if heavy(w, s.blast)]
    add_reload(
        state,
        unit,
        small=len(big) < len(shots) or not shots,
        heavy_fired=bool(big),
        gun=any(state.figures[s.firer].role == "gun" for s in big),
        extra=extra_reload,
        prone=any(f.prone for f in figs),
    )
    unit.fired = True
    unit.fired_at.append(target.id)
    for s in shots:  # spec §5.3: the mob runs from the nearest figure that fired
        f = state.figures[s.firer]
        f.fired = True  # bookgun.los.figure (p.11 2.2): he, not his unit, is now seen
        state.fire_points.append([float(state.flow.turn), f.x, f.y])
    return events


def stampede_check(state: BookGunState, target: Unit, firer: Unit) -> list[Event]:
    """bookgun.cavalry.stampede (p.17 5.4): led horses fired at with at least one horse hit test
    on the stand-and-fight chart (bookgun.cc.stand, the line of the holders' troop type) - the
    with-leader column while an un-hit holder holds them, the without-leader column when every
    holder is hit or there is none. Failing, the un-hit horses stampede 5D6 directly away from
    the firers; house: they are lost to the unit for the rest of the game (it fights on foot and
    its holders are free to fight), their path is not played out."""
    w = world(state)
    held = holding(state, target)
    need = w.tables.close_combat.stand[target.troop][0 if held else 1]
    words = "held" if held else "with no holder"
    events: list[Event] = []
    if RollUnder(
        6, need, "bookgun.cavalry.stampede", text=f"{target.name}'s led horses ({words}) stand"
    ).sample(state.rng, events):
        events.append(
            note(
                "stampede",
                f"{target.name}'s horses stand",
                "bookgun.cavalry.stampede",
                unit=target.id,
            )
        )
        return events
    dice = w.tables.cavalry.stampede_dice
    run = sum(
        movement_roll(dice, "bookgun.cavalry.stampede", f"{target.name}'s horses stampede").sample(
            state.rng, events
        )
    )
    away = bearing(centre(state, firer), centre(state, target))
    target.horses_lost = True
    target.holders = []
    events.append(
        note(
            "stampede",
            f"{target.name}'s horses stampede {run} in. away from {firer.name} "
            f"(bearing {away:.0f}) and are lost to it",
            "bookgun.cavalry.stampede",
            unit=target.id,
        )
    )
    return events


def collateral(state: BookGunState, firer: Figure, target: Unit) -> list[Event]:
    """bookgun.fire.collateral: a natural 20 hits a civilian near the line or the target."""
    w = world(state)
    c = w.tables.collateral
    events: list[Event] = []
    tpos = centre(state, target)
    for civ in sorted(
        (f for f in state.figures.values() if f.side == "civilians" and f.fit), key=lambda f: f.id
    ):
        if (
            segment_point_distance(firer.pos, tpos, civ.pos) <= c.line
            or dist(civ.pos, tpos) <= c.target
        ):
            casualty_cards(
                state,
                state.units[civ.unit],
                1,
                [civ],
                firer.side,
                f"a stray round near {civ.name}",
                events,
            )
            break
    return events


def blast_at(state: BookGunState, f: Figure, unit: Unit, target: Unit, s: Shot) -> list[Event]:
    """bookgun.fire.blast: on target on a d20 roll, else scatter; everyone near rolls."""
    w = world(state)
    b = w.tables.blast
    events: list[Event] = []
    if s.blast == "grenade":
        f.grenades -= 1
    elif s.blast in ("rpg", "grenade_launcher"):
        f.rounds -= 1
    seen = visible_targets(state, w, f, target, True)
    aim = (
        (sum(t.x for t in seen) / len(seen), sum(t.y for t in seen) / len(seen))
        if seen
        else centre(state, target)
    )
    need = b.on_target_short if s.band == "short" else b.on_target_beyond
    on = RollUnder(20, need, "bookgun.fire.blast", text=f"{f.name}'s {s.blast} on target").sample(
        state.rng, events
    )
    rooms = {t.room for t in seen}
    room = next(iter(rooms)) if on and len(rooms) == 1 else None
    if not on:
        aim = scatter(state, aim, events)
    events.append(
        note(
            "burst",
            f"the {s.blast} bursts at ({aim[0]:.1f}, {aim[1]:.1f})",
            "bookgun.fire.blast",
            x=aim[0],
            y=aim[1],
        )
    )
    events += burst(state, aim, unit.side, f.pos, room)
    return events


def scatter(state: BookGunState, at: Vec, events: list[Event]) -> Vec:
    """Where a round off target lands (bookgun.fire.blast): 1D6 inches from ``at`` in one of
    ten directions (1D10, clockwise from straight up)."""
    drift = Roll(1, 6, "bookgun.fire.blast", "scatter distance").sample(state.rng, events)[0]
    way = Roll(1, 10, "bookgun.fire.blast", "scatter direction").sample(state.rng, events)[0]
    ang = math.radians(90 - 36 * (way - 1))
    return (at[0] + math.cos(ang) * drift, at[1] + math.sin(ang) * drift)


def burst_room(state: BookGunState, at: Vec) -> str | None:
    """The ground-floor room a burst at ``at`` is inside, if any (house: a round that lands on
    a building without aiming at a room's occupants bursts in the room on the ground)."""
    for room in world(state).rooms.values():
        if room.floor == 0 and room.polygon.covers(_point(at)):
            return room.id
    return None


def burst(
    state: BookGunState, at: Vec, by: str, origin: Vec, room: str | None = None
) -> list[Event]:
    """bookgun.fire.blast (spec §4.1): every figure within 2 in. of the burst rolls a d20 at its
    category's blast number; "a burst inside a room treats everyone in that room as Cat II" -
    ``room`` (the room of the figures the round landed on, else the room under ``at``): its
    occupants all roll, as Category II."""
    w = world(state)
    b = w.tables.blast
    events: list[Event] = []
    if room is None:
        room = burst_room(state, at)
    for fig in sorted(state.figures.values(), key=lambda x: x.id):
        in_room = room is not None and fig.room == room
        if not fig.present or (dist(fig.pos, at) > b.radius and not in_room):
            continue
        u = state.units[fig.unit]
        if not targetable(u) or fig.role == "gun":
            continue  # a vehicle, its passengers, a gun (spec §4.8: no fire against vehicles)
        cat = "II" if in_room else category(w, state, fig, u, origin)
        number = dict(b.numbers)[cat]  # type: ignore[index]
        text = f"{fig.name} in the burst (Cat {cat})"
        if RollUnder(20, number, "bookgun.fire.blast", text=text).sample(state.rng, events):
            casualty_cards(state, u, 1, [fig], by, f"blast on {fig.name}", events)
    return events


def room_blast(
    state: BookGunState,
    room: str,
    at: Vec,
    by: str,
    rule: str = "bookgun.building.breach",
    what: str = "the breaching charge",
) -> list[Event]:
    """bookgun.building.breach (house): figures in ``room`` within the blast radius of the
    charge (or HE round, bookgun.building.door_fire) at ``at`` roll a d20 as Category II (a
    burst inside a room, spec §4.1)."""
    w = world(state)
    b = w.tables.blast
    events: list[Event] = []
    for fig in sorted(state.figures.values(), key=lambda x: x.id):
        if not fig.present or fig.room != room or dist(fig.pos, at) > b.radius:
            continue
        u = state.units[fig.unit]
        number = dict(b.numbers)["II"]
        text = f"{fig.name} by {what} (Cat II)"
        if RollUnder(20, number, rule, text=text).sample(state.rng, events):
            casualty_cards(state, u, 1, [fig], by, f"blast on {fig.name}", events)
    return events


# -- close combat ------------------------------------------------------------------------------
FRONT_ARC = 45.0  # house: a charge from more than this off the unit's facing is a flank charge


def flank_or_rear(state: BookGunState, unit: Unit, charger: Vec) -> bool:
    """bookgun.cc.stand (spec §4.3 step 3: +1 if charged in flank or rear): the charge comes
    from outside the 90-degree front of the unit's facing (its leader's, else its first fit
    figure's; house). A unit in a building faces every way, and so does a defensive circle
    (p.10 V.11: the all-round formation standing in for the square)."""
    if unit.formation == "circle" or unit_room(state, unit) is not None:
        return False
    figs = state.fit_figures(unit)
    lead = state.leader_of(unit)
    face = lead if lead is not None else (figs[0] if figs else None)
    if face is None:
        return False
    here = centre(state, unit)
    if dist(here, charger) < 1e-9:
        return False
    return angle_between(face.facing, bearing(here, charger)) > FRONT_ARC + 1e-9


def normal_move_dice(state: BookGunState, unit: Unit) -> int:
    """ "One normal move" (spec §4.3, p.12): the unit's own cross-country dice in its
    formation (bookgun.move.chart), the distance a fall-back after close combat runs."""
    return max(1, dice_for(world(state), unit, "cross"))


def half_strength(state: BookGunState, unit: Unit) -> bool:
    fit = len(state.fit_figures(unit))
    return fit * 2 <= unit.start


def cc_mod(state: BookGunState, f: Figure, unit: Unit, charged: bool, defending_cover: bool) -> int:
    cc = world(state).tables.close_combat
    m = 0
    if charged:
        m += cc.charged_bonus
    if f.role in ("leader", "officer"):
        m += cc.leader_bonus
    if defending_cover:
        m += cc.defending_cover_bonus
    if f.weapon in ("smg", "pistol"):
        m += cc.short_weapon_bonus
    if f.weapon in ("lmg", "mmg", "hmg"):
        m += cc.heavy_weapon_penalty
    if f.weapon == "unarmed":
        m += cc.unarmed_penalty
    if unit.quality == "special_forces":
        m += 1
    return m


def close_combats(state: BookGunState) -> list[Event]:
    """bookgun.turn.close_combat: complete every charge, in unit order."""
    events: list[Event] = []
    # p.18 7.4: a shaken unit flees a charge at once only before its move; one that was shaken
    # when this phase began has had its move (a shaken unit charged before it fled in the
    # movement phase), so it takes the charge as usual
    moved_shaken = {u.id for u in state.units.values() if u.status == SHAKEN}
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.charging is None:
            continue
        target = state.units.get(unit.charging)
        unit.charging = None
        if (
            target is None
            or not state.on_table(target)
            or not state.on_table(unit)
            or unit.status in (ROUTED, OUT)
        ):
            continue
        events += fight(state, unit, target, shaken_flee=target.id not in moved_shaken)
    return events


def fighters(state: BookGunState, unit: Unit) -> list[Figure]:
    """bookgun.cavalry.holders (p.17 5.3): a dismounted unit's horse holders stay out of its close
    combat until every other figure of it is a casualty (or gone); house: contact by a flank or
    rear charge that would draw them in is not modelled."""
    fit = state.fit_figures(unit)
    held = {f.id for f in holding(state, unit)}
    others = [f for f in fit if f.id not in held]
    return others or fit


def flee_from_charge(state: BookGunState, charger: Unit, target: Unit, events: list[Event]) -> None:
    """p.18 7.4: a shaken unit charged before its move has no chance to rally: it runs its
    rout dice away from ``charger`` toward the nearest edge at once (bookgun.rally.chart,
    bookgun.morale.rout); the events go to ``events``."""
    events.append(
        note(
            "flee",
            f"{target.name} is shaken and flees from the charge",
            "bookgun.rally.chart",
            unit=target.id,
        )
    )
    rout_dice = world(state).tables.morale.rout_dice
    flee(state, target, rout_dice, "bookgun.morale.rout", "flees", events, centre(state, charger))


def fight(state: BookGunState, unit: Unit, target: Unit, shaken_flee: bool = True) -> list[Event]:
    """Complete ``unit``'s charge on ``target`` (spec §4.3); with ``shaken_flee`` a shaken
    target whose move is still to come flees instead (p.18 7.4)."""
    w = world(state)
    cc = w.tables.close_combat
    events: list[Event] = [
        note("charge", f"{unit.name} charges home on {target.name}", "bookgun.move.charge")
    ]
    if target.concealed and target.marker in state.markers:
        events += reveal(state, state.markers[str(target.marker)], "is charged")
    lead = state.leader_of(unit) is not None
    mods: list[Modifier] = []
    if unit.lost:
        mods.append(Modifier("bookgun.cc.close", 1, "lost figures this turn"))
    if half_strength(state, unit):
        mods.append(Modifier("bookgun.cc.close", 1, "at half strength"))
    if unit.quality == "special_forces":
        mods.append(Modifier("bookgun.cc.close", -1, "special forces"))
    need = cc.close[unit.troop][0 if lead else 1]
    if not RollUnder(6, need, "bookgun.cc.close", tuple(mods), text=f"{unit.name} closes").sample(
        state.rng, events
    ):
        unit.status = PINNED
        for f in state.unit_figures(unit):
            f.prone = True
        events.append(
            note(
                "pinned", f"{unit.name} is pinned and goes prone", "bookgun.cc.close", unit=unit.id
            )
        )
        return events
    if target.status == SHAKEN and shaken_flee:
        flee_from_charge(state, unit, target, events)
        return events
    if target.status == ROUTED:
        return events + capture_routed(state, unit, target)
    in_cover = unit_room(state, target) is not None or any(
        category(w, state, f, target, centre(state, unit)) == "IV"
        for f in state.unit_figures(target)
    )
    smods: list[Modifier] = []
    if in_cover:  # spec §4.3 step 3: one -1 for a building, a wall (or fort) or a circle
        smods.append(Modifier("bookgun.cc.stand", -1, "in a building or behind a wall"))
    elif target.formation == "circle":
        smods.append(Modifier("bookgun.cc.stand", -1, "in defensive circle"))
    if flank_or_rear(state, target, centre(state, unit)):
        smods.append(Modifier("bookgun.cc.stand", 1, "charged in flank or rear"))
    if half_strength(state, target):
        smods.append(Modifier("bookgun.cc.stand", 1, "at half strength"))
    lead_t = state.leader_of(target) is not None
    sneed = cc.stand[target.troop][0 if lead_t else 1]
    if not RollUnder(
        6, sneed, "bookgun.cc.stand", tuple(smods), text=f"{target.name} stands"
    ).sample(state.rng, events):
        target.status = SHAKEN
        events.append(
            note(
                "shaken",
                f"{target.name} falls back shaken; no fight",
                "bookgun.cc.stand",
                unit=target.id,
            )
        )
        old = centre(state, target)
        flee(
            state,
            target,
            normal_move_dice(state, target),
            "bookgun.cc.stand",
            "falls back",
            events,
            centre(state, unit),
        )
        if state.on_table(unit):
            place_outside(
                state,
                unit,
                old if w.building_at(old) is None else centre(state, unit),
                bearing(centre(state, unit), old),
            )
        return events
    attackers = fighters(state, unit)
    defenders = fighters(state, target)
    room = unit_room(state, target)
    if room is not None:
        defenders = [f for f in defenders if f.room == room][:4] or defenders[:4]
        attackers = attackers[: w.tables.building.room_capacity]
    else:
        attackers = attackers[: 2 * max(1, len(defenders))]
        defenders = defenders[: 2 * max(1, len(attackers))]
    if not defenders or not attackers:
        return events
    losses = {unit.id: 0, target.id: 0}
    # bookgun.cc.pairs (spec §4.3 step 4): each charger pairs with a defender and surplus
    # figures of either side double up, a figure contacted by two fighting both pairs in turn
    for i in range(max(len(attackers), len(defenders))):
        a, d = attackers[i % len(attackers)], defenders[i % len(defenders)]
        if not (a.fit and d.fit):
            continue
        am = cc_mod(state, a, unit, True, False)
        dm = cc_mod(state, d, target, False, in_cover)
        diff = pair_roll(am, dm, "bookgun.cc.roll", f"{a.name} against {d.name}: d6").sample(
            state.rng, events
        )
        if diff == 0:
            continue
        loser, lu = (d, target) if diff > 0 else (a, unit)
        by = unit.side if diff > 0 else target.side
        casualty_cards(state, lu, 1, [loser], by, f"{loser.name} loses the fight", events)
        losses[lu.id] += 1
    for side_unit in (unit, target):
        fit_left = state.fit_figures(side_unit)
        if not fit_left:
            for f in state.unit_figures(side_unit):
                if f.status == WOUNDED:
                    f.status = CAPTURED
                    f.hit_by = (target if side_unit is unit else unit).side
                    text = f"{f.name} is captured{cinc_revealed(state, f)}"
                    events.append(note("capture", text, "bookgun.capture", figure=f.id))
    unit.fought = target.fought = True
    # bookgun.cc.outcome (spec §4.3 step 7): more casualties loses, a tie goes to the defender
    loser_unit = unit if losses[unit.id] >= losses[target.id] else target
    winner = target if loser_unit is unit else unit
    margin = abs(losses[unit.id] - losses[target.id])
    loser_unit.cc_margin = margin
    events.append(
        note(
            "cc_result",
            f"{winner.name} wins the close combat "
            f"({losses[winner.id]} to {losses[loser_unit.id]} casualties)",
            "bookgun.cc.outcome",
        )
    )
    if state.on_table(loser_unit):
        if morale_test(state, loser_unit, events):
            loser_unit.status = SHAKEN
            flee(
                state,
                loser_unit,
                normal_move_dice(state, loser_unit),
                "bookgun.cc.outcome",
                "falls back",
                events,
                centre(state, winner),
            )
        else:
            rout(state, loser_unit, events)
    return events


def capture_routed(state: BookGunState, unit: Unit, target: Unit) -> list[Event]:
    """A charge home on a routed unit (spec §4.4: routed units do not fire or fight; §4.7
    bookgun.capture: a routed figure unable to move away from a contacting enemy is captured -
    a routed unit does not move until it rallies): no stand test, no fight; the figures the
    chargers contact are captured - each charger one, the surplus doubling up as in
    bookgun.cc.pairs (in a room, the room's figures up to its capacity) - and its wounded go
    with them when no fit man is left."""
    cap = world(state).tables.building.room_capacity
    attackers = fighters(state, unit)
    defenders = state.fit_figures(target)
    room = unit_room(state, target)
    if room is not None:
        defenders = [f for f in defenders if f.room == room][:cap] or defenders[:cap]
        attackers = attackers[:cap]
    defenders = defenders[: 2 * len(attackers)]
    events: list[Event] = []
    taken = list(defenders)
    if len(taken) == len(state.fit_figures(target)):
        taken += [f for f in state.unit_figures(target) if f.status == WOUNDED]
    for f in taken:
        if f.status == FIT:
            target.lost += 1
        f.status = CAPTURED
        f.hit_by = unit.side
        f.prone = False
        text = f"{f.name} is captured (routed){cinc_revealed(state, f)}"
        events.append(note("capture", text, "bookgun.capture", figure=f.id))
    unit.fought = target.fought = True
    return events


# -- morale ----------------------------------------------------------------------------------------
def in_fort(state: BookGunState, unit: Unit) -> bool:
    """Whether the unit is in a fort (terrain kind fort): its fit figures all inside one."""
    w = world(state)
    figs = state.fit_figures(unit)
    return bool(w.forts and figs) and all(w.in_area(f.pos, w.forts) for f in figs)


def morale_test(state: BookGunState, unit: Unit, events: list[Event]) -> bool:
    w = world(state)
    lead = state.leader_of(unit) is not None
    mods: list[Modifier] = []
    if half_strength(state, unit):
        mods.append(Modifier("bookgun.morale.table", 1, "at half strength"))
    if unit.leader_killed:
        mods.append(Modifier("bookgun.morale.table", 1, "leader killed this turn"))
    if unit.cc_margin >= 2:
        mods.append(Modifier("bookgun.morale.table", 1, "lost a close combat by 2+"))
    if unit_room(state, unit) is not None:  # spec §4.4: -1 in a building or fort
        mods.append(Modifier("bookgun.morale.table", -1, "in a building"))
    elif in_fort(state, unit):
        mods.append(Modifier("bookgun.morale.table", -1, "in a fort"))
    # bookgun.lead.cinc (spec §4.4): -1 with the side's own Commander-in-Chief within 6"
    cinc = state.commanders.get(unit.side)
    if cinc is not None:
        c = state.figures[cinc]
        if c.fit and dist(c.pos, centre(state, unit)) <= w.tables.command.radius:
            mods.append(Modifier("bookgun.lead.cinc", -1, "Commander-in-Chief near"))
    need = w.tables.morale.table[unit.troop][0 if lead else 1]
    test = RollUnder(
        6,
        need,
        "bookgun.morale.table",
        tuple(mods),
        frozenset({1}),
        frozenset({6}),
        text=f"{unit.name} tests morale",
    )
    if cinc is not None and state.figures[cinc].status not in (KILLED, CAPTURED):
        # while the Commander-in-Chief is secret the enemy reads only the result of every
        # morale test of his side: the roll, its modifiers and the number needed would tell
        # whether he stands within 6" of the unit (so the log keeps one form, near him or not)
        log: list[Event] = []
        ok = test.sample(state.rng, log)
        public = note(
            "roll",
            f"{unit.name} tests morale: {'passes' if ok else 'fails'}",
            "bookgun.morale.table",
        )
        events += [e.restricted((unit.side,), public=public) for e in log]
        return ok
    return test.sample(state.rng, events)


def rout(state: BookGunState, unit: Unit, events: list[Event]) -> None:
    unit.status = ROUTED
    unit.routed_turn = state.flow.turn
    unit.charging = None
    events.append(note("rout", f"{unit.name} routs", "bookgun.morale.rout", unit=unit.id))
    flee(state, unit, world(state).tables.morale.rout_dice, "bookgun.morale.rout", "runs", events)


def rally_leader(state: BookGunState, unit: Unit) -> Figure | None:
    """Who leads ``unit``'s rally (bookgun.rally.chart, p.17 6.1: "a leader figure within 6
    inches of the unit", and "that leader may only attempt 1 rally per turn"): a fit leader or
    officer of its side within 6 in. of it who has not tried a rally this turn - its own
    leader first, then the nearest (house); a leader of another unit still hidden under a
    marker, or riding inside a vehicle, does not step out to rally it (house)."""
    w = world(state)
    here = centre(state, unit)
    reach = w.tables.rally.leader_range

    def may(f: Figure) -> bool:
        owner = state.units[f.unit]
        return (
            f.side == unit.side
            and f.fit
            and f.present
            and f.role in LEADERS
            and f.id not in state.rallies
            and dist(f.pos, here) <= reach
            and (owner.id == unit.id or not (owner.concealed or owner.aboard is not None))
        )

    own = state.leader_of(unit)
    if own is not None and may(own):
        return own
    near = [f for f in state.figures.values() if may(f)]
    return min(near, key=lambda f: (dist(f.pos, here), f.id)) if near else None


def rally_test(state: BookGunState, unit: Unit, events: list[Event]) -> bool:
    w = world(state)
    lead = rally_leader(state, unit)
    if lead is not None:
        state.rallies.append(lead.id)
    need = w.tables.rally.table[unit.troop][0 if lead is not None else 1]
    if need <= 0:
        return False
    led = f" (led by {lead.name})" if lead is not None else ""
    return RollUnder(
        6, need, "bookgun.rally.chart", text=f"{unit.name} tries to rally{led}"
    ).sample(state.rng, events)


def morale_phase(state: BookGunState) -> list[Event]:
    """bookgun.turn.morale: routed units rally or go, reloads come off, tests are taken."""
    events: list[Event] = []
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.side == "civilians" or not state.on_table(unit):
            continue
        unit.reload = max(0, unit.reload - 1)
        unit.reload_heavy = max(0, unit.reload_heavy - 1)
        if unit.status == ROUTED:
            if unit.routed_turn < state.flow.turn:
                if rally_test(state, unit, events):
                    unit.status = SHAKEN
                    events.append(
                        note(
                            "rally",
                            f"{unit.name} rallies, shaken",
                            "bookgun.rally.chart",
                            unit=unit.id,
                        )
                    )
                else:
                    unit.status = OUT
                    for f in state.unit_figures(unit):
                        f.status = GONE
                    events.append(
                        note(
                            "removed",
                            f"{unit.name} fails to rally and is removed",
                            "bookgun.rally.chart",
                            unit=unit.id,
                        )
                    )
            continue
        needs = (unit.lost and half_strength(state, unit)) or unit.leader_killed
        if needs:
            ev: list[Event] = []
            ok = morale_test(state, unit, ev)
            if unit.concealed:
                ev = [secret(unit.side, e, "a hidden unit tests its morale") for e in ev]
            events += ev
            if not ok:
                rout(state, unit, events)
    return events


# -- civilians ------------------------------------------------------------------------------------
def civilians_move(state: BookGunState) -> list[Event]:
    """bookgun.civ.automaton: a mob that heard firing runs from the nearest firer."""
    w = world(state)
    events: list[Event] = []
    hear = w.tables.civilians.hear
    for unit in active_units(state, "civilians"):
        c = centre(state, unit)
        recent = [(p[1], p[2]) for p in state.fire_points if p[0] >= state.flow.turn - 1]
        near = [p for p in recent if dist(p, c) <= hear]
        if not near:
            continue
        src = min(near, key=lambda p: dist(p, c))
        dice = w.tables.movement.dice["civilians"]["open"].cross
        flee(
            state,
            unit,
            dice,
            "bookgun.civ.flee",
            "flees from the firing",
            events,
            src,
            directly=True,
        )
    return events


def ied_check(state: BookGunState) -> list[Event]:
    """bookgun.scenario.ied: the device goes off when an army figure first comes near."""
    if state.ied is None or state.ied_done:
        return []
    w = world(state)
    spec = w.spec.ied
    assert spec is not None
    at = (state.ied[0], state.ied[1])
    for u in active_units(state, "army"):
        for f in state.fit_figures(u):
            if dist(f.pos, at) <= spec.trigger:
                state.ied_done = True
                events = [
                    note(
                        "ied",
                        f"an IED explodes at ({at[0]:.1f}, {at[1]:.1f})",
                        "bookgun.scenario.ied",
                        x=at[0],
                        y=at[1],
                    )
                ]
                return events + burst(state, at, "insurgents", at)
    return []


def unit_state_words(unit: Unit) -> str:
    return {OK: "", SHAKEN: "shaken", ROUTED: "routed", PINNED: "pinned", OUT: "out"}.get(
        unit.status, unit.status
    )


__all__ = ["CAPTURED", "GONE", "FIT", "KILLED", "WOUNDED", "OK"]
