"""Firing: who may shoot whom, how many dice, what they need, and resolving the shot.

Rules sevendays.fire.* (book p15-16). A shot is first *planned* (legality, dice and the score
needed with every modifier and its reason), then *resolved* with the game's random stream.
"""

from __future__ import annotations

import math
from itertools import product
from typing import NamedTuple
from weakref import WeakKeyDictionary

from umpire.core.events import Event, note
from umpire.geometry.table import in_arc
from umpire.rulesets.sevendays.air import plan_aa
from umpire.rulesets.sevendays.config import HouseRules
from umpire.rulesets.sevendays.los import needs_obscured, sight
from umpire.rulesets.sevendays.mortars import plan_mortar
from umpire.rulesets.sevendays.orbat import UnitProfile, UnitType, Weapon
from umpire.rulesets.sevendays.shots import (
    CLOSE_RANGE,
    GRENADE_LAUNCHER,
    MORTAR_WEAPON,
    SHOT_VERBS,
    SHOT_WEAPONS,
    WEAPON_KINDS,
    Modifier,
    Refusal,
    ShotPlan,
    Situation,
    describe_modifiers,
    fire_arc,
    hits_front,
    hits_scored,
    morale_modifiers,
    moved_modifiers,
    roll_to_hit,
    weapon_for,
)
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World

# the shot types moved to shots.py; adapters that still import them from here keep working
__all__ = [
    "CLOSE_RANGE",
    "describe_modifiers",
    "dice_count",
    "fire_arc",
    "GRENADE_LAUNCHER",
    "hits_front",
    "hits_scored",
    "Modifier",
    "morale_modifiers",
    "moved_modifiers",
    "MORTAR_WEAPON",
    "note_refusal",
    "plan_from_situation",
    "plan_shot",
    "Refusal",
    "roll_to_hit",
    "shot_refusal",
    "situation_key",
    "situation_key_of",
    "target_facts",
    "TargetFacts",
    "situation_plans",
    "SHOT_VERBS",
    "SHOT_WEAPONS",
    "ShotPlan",
    "Situation",
    "weapon_for",
    "WEAPON_KINDS",
]


def keeps_highest(firer: UnitProfile, weapon: Weapon, kind: str) -> bool:
    """Rule sevendays.fire.autocannon: a vehicle's rapid-fire autocannon rolls two dice and
    keeps the highest, against every kind of target (one hit at most)."""
    return firer.is_vehicle and weapon.autocannon and kind == "gun"


def dice_count(
    firer: UnitProfile, weapon: Weapon, kind: str, target_vehicle: bool, rng: float, moved: bool
) -> int:
    """Rule sevendays.fire.dice: the book's two dice tables."""
    close = rng <= CLOSE_RANGE
    if firer.is_vehicle:
        if keeps_highest(firer, weapon, kind):
            return 2
        if target_vehicle:
            return 1
        return 2 if close else 1
    if firer.type is UnitType.INFANTRY:
        if target_vehicle:
            return 1
        if moved:
            return 1
        return 2 if close else 1
    return 1  # support teams


def plan_shot(
    world: World,
    state: SevenDaysState,
    firer: Unit,
    target: Unit,
    kind: str,
    *,
    moved: bool = False,
    reaction: bool = False,
    target_moving: bool = False,
    actions_left: int = 2,
    known_only: bool = False,
) -> ShotPlan | Refusal:
    """Plan ``firer``'s ``kind`` shot at ``target`` or say which rule forbids it.

    ``known_only``: the plan as the firer's side can make it, from what it knows — the
    enemy's hidden markers do not count (the menu and odds a side reads); without it, the
    umpire's plan from the whole truth (what is rolled).

    Plans depend only on the table geometry, the firer's markers and the arguments, so they
    are cached per arrangement of units (``state.geometry``)."""
    key = (
        state.geometry,
        firer.uid,
        target.uid,
        kind,
        moved,
        reaction,
        target_moving,
        actions_left >= 2,
        firer.markers,
        known_only and world.has_hidden,
    )
    cache = world.plan_cache
    found = cache.get(key)
    if found is None:
        if len(cache) > 50_000:
            cache.clear()
        found = cache[key] = _plan_shot(
            world,
            state,
            firer,
            target,
            kind,
            moved=moved,
            reaction=reaction,
            target_moving=target_moving,
            actions_left=actions_left,
            known_only=known_only and world.has_hidden,
        )
    return found


def _plan_shot(
    world: World,
    state: SevenDaysState,
    firer: Unit,
    target: Unit,
    kind: str,
    *,
    moved: bool = False,
    reaction: bool = False,
    target_moving: bool = False,
    actions_left: int = 2,
    known_only: bool = False,
) -> ShotPlan | Refusal:
    """Measure the situation on the table (sight last: it is the dear part) and plan."""
    profile = world.profile(firer)
    tprofile = world.profile(target)
    if not target.alive or target.side == firer.side:
        return Refusal("sevendays.fire.base", "the target must be an enemy unit on the table")
    if target.hidden:
        return Refusal("sevendays.scenario.hidden_deployment", "a hidden marker cannot be targeted")
    if tprofile.type is UnitType.HELICOPTER:
        if kind != "gun":
            return Refusal(
                "sevendays.air.helicopter",
                "helicopters are engaged only by air defence (AA guns, SAMs, MANPADs)",
            )
        return plan_aa(world, state, firer, target)
    if kind == "gun" and "mortar" in profile.traits:
        return plan_mortar(
            world,
            state,
            firer,
            target,
            moved=moved,
            reaction=reaction,
            target_moving=target_moving,
            foot_close=_enemy_foot_close(world, state, firer, known_only),
        )
    distance = math.dist(firer.pos, target.pos)
    target_vehicle = tprofile.is_vehicle
    buildings = kind == "atgm" and not target_vehicle and world.in_buildings(target)
    names = (firer.name, target.name)
    early = shot_refusal(
        profile,
        tprofile,
        kind,
        distance,
        buildings,
        moved=moved,
        reaction=reaction,
        actions_left=actions_left,
        names=names,
        house=world.house,
    )
    if early is not None:
        return early
    # what _plan_measured does with the Situation measured here, without making one
    arc = fire_arc(profile)
    if arc < 360.0 and not in_arc((firer.x, firer.y), firer.facing, arc, (target.x, target.y)):
        return Refusal("sevendays.fire.arc", f"{names[1]} is outside {names[0]}'s arc")
    seen = sight(world, state, firer, target, obscured=needs_obscured(world, firer, target))
    if not seen.visible:
        return Refusal("sevendays.los.blockers", f"{names[0]} cannot see {names[1]}")
    return _plan_seen(
        profile,
        tprofile,
        kind,
        distance,
        seen.obscured,
        _cover_of(world, target, target_vehicle),
        _enemy_foot_close(world, state, firer, known_only),
        not target_vehicle or hits_front(target, firer.pos),
        moved,
        reaction,
        target_moving,
        firer.markers,
        (firer.uid, target.uid),
        world.house,
    )


def situation_plans(
    world: World,
    firer: Unit,
    target: Unit,
    kind: str,
    *,
    moved: bool = False,
    reaction: bool = False,
    target_moving: bool = False,
    actions_left: int = 2,
    easiest: bool = False,
) -> tuple[ShotPlan, ...] | None:
    """Every plan :func:`plan_shot` can make for this shot, whatever the two dear facts turn
    out to be: the sight line (clear or more than 50% obscured, sevendays.los.obscured) and
    enemy infantry close to the firer (sevendays.fire.modifier.infantry_close). The other facts
    (range band, the target's cover and facing, buildings) are measured as plan_shot does, so
    plan_shot's answer, when it is a possible plan, is one of these (a player may bound a
    shot's worth by them before planning it). ``None``: the shot is planned another way (an AA
    shot at a helicopter, a mortar), with no such set.

    ``easiest``: of the plans the two dear facts could give, only the one they make easiest
    (clear sight, no infantry close: each of the others needs one or two more, its dice and
    everything else the same). A higher score needed never raises a shot's chances: each die
    that hits at the higher score hits at the lower, and what follows the hits (one hit at
    most on a vehicle, penetration and damage independent of the score; a marker per hit on
    foot and conversion dice per hit) gives as much or more for more hits. So that plan's odds
    of putting the target out and its expected markers are the most of the set."""
    profile = world.profile(firer)
    tprofile = world.profile(target)
    if not target.alive or target.side == firer.side or target.hidden:
        return ()
    if tprofile.type is UnitType.HELICOPTER or (kind == "gun" and "mortar" in profile.traits):
        return None
    distance = math.dist(firer.pos, target.pos)
    _close, cover, front, buildings = situation_key(world, firer, target, kind)
    plans = []
    dear = (False,) if easiest else (False, True)
    for obscured, foot_close in product(dear, dear):
        plan = plan_from_situation(
            profile,
            tprofile,
            kind,
            Situation(
                distance,
                obscured=obscured,
                target_cover=cover,
                target_in_buildings=buildings,
                enemy_foot_close=foot_close,
                front=front,
            ),
            moved=moved,
            reaction=reaction,
            target_moving=target_moving,
            actions_left=actions_left,
            firer_markers=firer.markers,
            names=(firer.uid, target.uid),
            house=world.house,
        )
        if isinstance(plan, ShotPlan) and plan.possible:
            plans.append(plan)
    return tuple(plans)


# what shot_outlook foretells of plan_shot's answer
REFUSED = "refused"  # a Refusal, whatever the sight line
POSSIBLE = "possible"  # a possible ShotPlan exactly when the firer sees the target
IMPOSSIBLE = "impossible"  # never a possible plan (an impossible ShotPlan, or a Refusal)
UNKNOWN = "unknown"  # the sight line's obscured test or enemy infantry close may decide


def shot_outlook(
    world: World,
    firer: Unit,
    target: Unit,
    kind: str,
    *,
    moved: bool = False,
    reaction: bool = False,
    target_moving: bool = False,
    actions_left: int = 2,
) -> str:
    """What :func:`plan_shot` (same arguments, either ``known_only``) answers, from the
    facts read before the sight line: :data:`REFUSED` when a rule refuses the shot before
    anyone looks along the line (the target, :func:`shot_refusal`, the firer's arc, in
    :func:`_plan_shot`'s order); :data:`POSSIBLE` when every plan the two dear facts could
    give (:func:`situation_plans`: obscured or not, enemy infantry close or not) is possible,
    so the answer is a possible plan exactly when the firer sees the target (sight's
    ``visible`` does not depend on the obscured test); :data:`IMPOSSIBLE` when none of them
    is; :data:`UNKNOWN` otherwise, and for the shots planned another way (AA at a
    helicopter, a mortar)."""
    profile = world.profile(firer)
    tprofile = world.profile(target)
    if not target.alive or target.side == firer.side or target.hidden:
        return REFUSED
    if tprofile.type is UnitType.HELICOPTER:
        return REFUSED if kind != "gun" else UNKNOWN
    if kind == "gun" and "mortar" in profile.traits:
        return UNKNOWN
    distance = math.dist(firer.pos, target.pos)
    target_vehicle = tprofile.is_vehicle
    buildings = kind == "atgm" and not target_vehicle and world.in_buildings(target)
    early = shot_refusal(
        profile,
        tprofile,
        kind,
        distance,
        buildings,
        moved=moved,
        reaction=reaction,
        actions_left=actions_left,
        house=world.house,
    )
    if early is not None:
        return REFUSED
    arc = fire_arc(profile)
    if arc < 360.0 and not in_arc((firer.x, firer.y), firer.facing, arc, (target.x, target.y)):
        return REFUSED
    # the score needed with neither dear fact and with both (each adds a modifier or
    # nothing, so every other combination needs a score between the two): as _plan_seen
    # would find it, from the same remembered parts
    cover = _cover_of(world, target, target_vehicle)
    markers = firer.markers
    house = world.house
    hardest = _parts(
        profile,
        tprofile,
        kind,
        distance,
        True,
        cover,
        True,
        moved,
        reaction,
        target_moving,
        markers,
        house,
    )[4]
    if hardest <= 10:  # type: ignore[operator]
        return POSSIBLE  # (ShotPlan.possible)
    easiest = _parts(
        profile,
        tprofile,
        kind,
        distance,
        False,
        cover,
        False,
        moved,
        reaction,
        target_moving,
        markers,
        house,
    )[4]
    return IMPOSSIBLE if easiest > 10 else UNKNOWN  # type: ignore[operator]


def situation_key(
    world: World, firer: Unit, target: Unit, kind: str
) -> tuple[bool, str, bool, bool]:
    """The cheap facts :func:`situation_plans` measures, as a key: within close range, the
    target's cover, whether the firer is in its front arc (a vehicle target), whether the
    target is in buildings (an ATGM at infantry or support)."""
    return situation_key_of(world, target_facts(world, target), firer, kind)


class TargetFacts(NamedTuple):
    """What :func:`situation_key` reads of the target alone (worked out once per target when
    many firers or weapons are weighed against it)."""

    target: Unit
    vehicle: bool
    cover: str
    facing: tuple[float, float]  # unit vector of the target's facing (vehicles only)


def target_facts(world: World, target: Unit) -> TargetFacts:
    """The :class:`TargetFacts` of ``target``."""
    vehicle = world.is_vehicle(target)
    facing = (0.0, 0.0)
    if vehicle:
        angle = math.radians(target.facing)
        facing = (math.cos(angle), math.sin(angle))
    return TargetFacts(target, vehicle, _cover_of(world, target, vehicle), facing)


def situation_key_of(
    world: World, facts: TargetFacts, firer: Unit, kind: str
) -> tuple[bool, str, bool, bool]:
    """:func:`situation_key` from the target's :class:`TargetFacts`."""
    target = facts.target
    vehicle = facts.vehicle
    front = True
    if vehicle:
        # sevendays.hit.facing (hits_front) by the sign of a dot product, asking hits_front
        # itself only on the edge of the arc, where rounding could tell them apart
        dx, dy = firer.x - target.x, firer.y - target.y
        dot = dx * facts.facing[0] + dy * facts.facing[1]
        edge = 1e-7 * (abs(dx) + abs(dy))
        front = dot > edge or (dot >= -edge and hits_front(target, firer.pos))
    return (
        math.dist((firer.x, firer.y), (target.x, target.y)) <= CLOSE_RANGE,
        facts.cover,
        front,
        kind == "atgm" and not vehicle and world.in_buildings(target),
    )


def _cover_of(world: World, target: Unit, vehicle: bool) -> str:
    """The target's cover; dug in (sevendays.scenario.dug_in, house): infantry and support
    count as fortified, vehicles as in cover."""
    if target.dug_in:
        return "cover" if vehicle else "fortified"
    return "cover" if world.in_cover(target) else "open"


def shot_refusal(
    profile: UnitProfile,
    tprofile: UnitProfile,
    kind: str,
    distance: float,
    target_in_buildings: bool,
    *,
    moved: bool = False,
    reaction: bool = False,
    actions_left: int = 2,
    names: tuple[str, str] = ("the firer", "the target"),
    house: HouseRules | None = None,
) -> Refusal | None:
    """The rules that forbid a shot before anyone looks along the line of fire."""
    if tprofile.type is UnitType.HELICOPTER:
        return Refusal(
            "sevendays.air.helicopter",
            "helicopters are engaged only by air defence (AA guns, SAMs, MANPADs)",
        )
    if weapon_for(profile, kind, house) is None:
        what = {"atgm": "an ATGM", "rockets": "rockets"}.get(kind, "a weapon it can fire directly")
        return Refusal("sevendays.fire.base", f"{names[0]} has no {what}")
    target_vehicle = tprofile.is_vehicle
    if kind == "atgm":
        if not reaction and (moved or actions_left < 2):
            return Refusal(
                "sevendays.fire.atgm_actions",
                "firing an ATGM takes both actions of an activation without moving",
            )
        if distance <= CLOSE_RANGE:
            return Refusal("sevendays.fire.atgm_min_range", 'ATGMs cannot fire at 12" or less')
        if not target_vehicle and not target_in_buildings:
            return Refusal(
                "sevendays.fire.atgm_actions",
                "ATGMs target vehicles, or infantry/support only in buildings",
            )
    if profile.type is UnitType.INFANTRY and target_vehicle and distance > CLOSE_RANGE:
        return Refusal(
            "sevendays.fire.infantry_at_range", 'infantry fire at vehicles only up to 12"'
        )
    return None


def plan_from_situation(
    profile: UnitProfile,
    tprofile: UnitProfile,
    kind: str,
    situation: Situation,
    *,
    moved: bool = False,
    reaction: bool = False,
    target_moving: bool = False,
    actions_left: int = 2,
    firer_markers: int = 0,
    names: tuple[str, str] = ("the firer", "the target"),
    house: HouseRules | None = None,
) -> ShotPlan | Refusal:
    """Plan a ``kind`` shot ("gun", "atgm" or "rockets") in ``situation``, or say which rule
    forbids it: the dice, the score needed and every modifier with its rule (sevendays.fire.*)."""
    refusal = shot_refusal(
        profile,
        tprofile,
        kind,
        situation.distance,
        situation.target_in_buildings,
        moved=moved,
        reaction=reaction,
        actions_left=actions_left,
        names=names,
        house=house,
    )
    if refusal is not None:
        return refusal
    return _plan_measured(
        profile,
        tprofile,
        kind,
        situation,
        moved=moved,
        reaction=reaction,
        target_moving=target_moving,
        firer_markers=firer_markers,
        names=names,
        ids=names,
        house=house,
    )


def _plan_measured(
    profile: UnitProfile,
    tprofile: UnitProfile,
    kind: str,
    situation: Situation,
    *,
    moved: bool,
    reaction: bool,
    target_moving: bool,
    firer_markers: int,
    names: tuple[str, str],
    ids: tuple[str, str],
    house: HouseRules | None = None,
) -> ShotPlan | Refusal:
    """The plan once no rule of :func:`shot_refusal` forbids the shot."""
    if not situation.in_arc:
        return Refusal("sevendays.fire.arc", f"{names[1]} is outside {names[0]}'s arc")
    if not situation.visible:
        return Refusal("sevendays.los.blockers", f"{names[0]} cannot see {names[1]}")
    return _plan_seen(
        profile,
        tprofile,
        kind,
        situation.distance,
        situation.obscured,
        situation.target_cover,
        situation.enemy_foot_close,
        situation.front,
        moved,
        reaction,
        target_moving,
        firer_markers,
        ids,
        house,
    )


# the parts of a plan read from a few small facts (see _plan_seen), by those facts; a part is
# kept with the profiles and house rules it was made from, so that a key made of their ids
# cannot be taken by other objects later given the same ids
_PARTS: dict[tuple[object, ...], tuple[object, object, object, tuple[object, ...]]] = {}


def _plan_seen(
    profile: UnitProfile,
    tprofile: UnitProfile,
    kind: str,
    distance: float,
    obscured: bool,
    cover: str,
    foot_close: bool,
    front: bool,
    moved: bool,
    reaction: bool,
    target_moving: bool,
    firer_markers: int,
    ids: tuple[str, str],
    house: HouseRules | None,
) -> ShotPlan:
    """The plan of a shot in arc and in sight. Everything in it but the two units' ids, the
    range and the target's facing depends only on the profiles, the kind of shot, whether the
    range is close, the cover, the obscured and infantry-close facts, the firer's movement and
    markers and the reaction flags: those parts are worked out once per such set of facts."""
    weapon_kind, weapon, dice, base, need, vehicle, mods, heavy, best_die = _parts(
        profile,
        tprofile,
        kind,
        distance,
        obscured,
        cover,
        foot_close,
        moved,
        reaction,
        target_moving,
        firer_markers,
        house,
    )
    return ShotPlan._make(
        (
            ids[0],
            ids[1],
            weapon_kind,
            weapon,
            dice,
            base,
            need,
            distance,
            vehicle,
            mods,
            heavy,
            cover,
            front,
            0,
            best_die,
        )
    )


def _parts(
    profile: UnitProfile,
    tprofile: UnitProfile,
    kind: str,
    distance: float,
    obscured: bool,
    cover: str,
    foot_close: bool,
    moved: bool,
    reaction: bool,
    target_moving: bool,
    firer_markers: int,
    house: HouseRules | None,
) -> tuple[object, ...]:
    """:func:`_plan_parts`, remembered by the facts it reads (see :func:`_plan_seen`)."""
    key = (
        id(profile),
        id(tprofile),
        id(house),
        kind,
        distance <= CLOSE_RANGE,
        obscured,
        cover,
        foot_close,
        moved,
        reaction,
        target_moving,
        firer_markers,
    )
    found = _PARTS.get(key)
    if (
        found is None
        or found[0] is not profile
        or found[1] is not tprofile
        or found[2] is not house
    ):
        if len(_PARTS) > 50_000:
            _PARTS.clear()
        parts = _plan_parts(
            profile,
            tprofile,
            kind,
            distance,
            obscured,
            cover,
            foot_close,
            moved,
            reaction,
            target_moving,
            firer_markers,
            house,
        )
        found = _PARTS[key] = (profile, tprofile, house, parts)
    return found[3]


def _plan_parts(
    profile: UnitProfile,
    tprofile: UnitProfile,
    kind: str,
    distance: float,
    obscured: bool,
    cover: str,
    foot_close: bool,
    moved: bool,
    reaction: bool,
    target_moving: bool,
    firer_markers: int,
    house: HouseRules | None,
) -> tuple[object, ...]:
    """What :func:`_plan_seen` keeps: the weapon, dice, base and score needed with every
    modifier and its rule (sevendays.fire.*), in the order of :class:`ShotPlan`'s fields."""
    chosen = weapon_for(profile, kind, house)
    assert chosen is not None  # shot_refusal checked it
    weapon, base = chosen
    target_vehicle = tprofile.is_vehicle
    mods: list[Modifier] = []
    mods += moved_modifiers(profile, moved)
    if reaction and target_moving:
        mods.append(
            Modifier("sevendays.fire.modifier.reaction_moving", 1, "reaction fire at a mover")
        )
    if "thermal" not in profile.traits:
        in_terrain = cover != "open"
        if in_terrain or obscured:
            why = "target in terrain" if in_terrain else "target >50% obscured"
            mods.append(Modifier("sevendays.fire.modifier.cover", 1, why))
    if foot_close:
        mods.append(
            Modifier(
                "sevendays.fire.modifier.infantry_close", 1, 'enemy infantry within 12" of firer'
            )
        )
    mods += morale_modifiers(firer_markers)
    need = base + sum(m.delta for m in mods)
    moving_infantry = profile.type is UnitType.INFANTRY and moved
    dice = dice_count(profile, weapon, kind, target_vehicle, distance, moving_infantry)
    heavy = (
        kind in ("atgm", "rockets")  # sevendays.air.rockets: heavy against infantry
        or "grenade_launcher" in profile.traits
        or (profile.is_vehicle and weapon.value >= 7)
    )
    best_die = keeps_highest(profile, weapon, kind)
    return (kind, weapon, dice, base, need, target_vehicle, tuple(mods), heavy, best_die)


def _enemy_foot_close(
    world: World, state: SevenDaysState, firer: Unit, known_only: bool = False
) -> bool:
    """Rule sevendays.fire.modifier.infantry_close (the firer itself does not count as the
    friendly infantry that cancels it); ``known_only``: as the firer's side knows it, the
    enemy's hidden markers not counted. Cached per arrangement of units."""
    key = (state.geometry, firer.uid, known_only)
    found = world.foot_close_cache.get(key)
    if found is None:
        if len(world.foot_close_cache) > 50_000:
            world.foot_close_cache.clear()
        found = world.foot_close_cache[key] = _foot_close(world, state, firer, known_only)
    return found


def _foot_close(world: World, state: SevenDaysState, firer: Unit, known_only: bool) -> bool:
    if state.units.get(firer.uid) is firer:
        # the arrangement's foot units, listed once: measured cheaper than the unit index's
        # cells around the firer on tables of 52 and 104 units too (issue 19)
        return _foot_close_listed(world, state, firer, known_only)
    if world.holds(state, firer):
        # only the units within close range, from the unit index (a friend farther away than
        # the nearest enemy within close range cannot change the answer)
        nearest_enemy = nearest_friend = math.inf
        fx, fy = firer.x, firer.y
        side, me = firer.side, firer.uid
        for _, x, y, p in world.unit_index(state).alive.around(fx, fy, CLOSE_RANGE):
            if not p.alive or not p.foot or p.uid == me:
                continue
            if known_only and p.hidden and p.side != side:
                continue
            d = math.hypot(x - fx, y - fy)
            if p.side == side:
                nearest_friend = min(nearest_friend, d)
            else:
                nearest_enemy = min(nearest_enemy, d)
        return nearest_enemy <= CLOSE_RANGE and nearest_friend > nearest_enemy
    if state.units.get(firer.uid) is firer:
        return _foot_close_listed(world, state, firer, known_only)
    return _foot_close_scan(world, state, firer, known_only)


def _foot_close_listed(world: World, state: SevenDaysState, firer: Unit, known_only: bool) -> bool:
    """``_foot_close`` for the state's own unit on a table below the unit index's size: a
    scan of the arrangement's foot units only (listed once per arrangement, told apart from
    the firer by uid; the same units and distances as :func:`_foot_close_scan`)."""
    nearest_enemy = math.inf
    nearest_friend = math.inf
    fx, fy = firer.x, firer.y
    me, side = firer.uid, firer.side
    # a foot unit farther than close range in x or y is farther than close range: it is
    # neither an enemy within close range nor a friend nearer than one (the answer is the
    # same without it, as the unit index's box around the firer leaves it out)
    reach = CLOSE_RANGE + 1e-6  # (a margin for the rounding of the box's edges)
    x0, x1, y0, y1 = fx - reach, fx + reach, fy - reach, fy + reach
    for uid, foot_side, hidden, x, y in _foot_list(world, state):
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            continue
        if uid == me or (known_only and hidden and foot_side != side):
            continue  # (a marker: the firer's side does not know what it is)
        d = math.hypot(x - fx, y - fy)
        if foot_side == side:
            nearest_friend = min(nearest_friend, d)
        else:
            nearest_enemy = min(nearest_enemy, d)
    return nearest_enemy <= CLOSE_RANGE and nearest_friend > nearest_enemy


# per world: the foot units on the table of the arrangement asked for last (_foot_list)
_FOOT: WeakKeyDictionary[World, tuple[int, list[tuple[str, str, bool, float, float]]]]
_FOOT = WeakKeyDictionary()


def _foot_list(world: World, state: SevenDaysState) -> list[tuple[str, str, bool, float, float]]:
    """The living foot units of ``state`` in table order (uid, side, hidden, x, y), kept for
    the arrangement asked for last (``state.geometry``)."""
    key = state.geometry
    memo = _FOOT.get(world)
    if memo is not None and memo[0] == key:
        return memo[1]
    is_foot = world.is_foot
    found: list[tuple[str, str, bool, float, float]] = [
        (u.uid, u.side, u.hidden, u.x, u.y) for u in state.units.values() if u.alive and is_foot(u)
    ]
    _FOOT[world] = (key, found)
    return found


def _foot_close_scan(world: World, state: SevenDaysState, firer: Unit, known_only: bool) -> bool:
    """``_foot_close`` by a scan of every unit (what the unit index and the list of foot
    units must answer alike)."""
    nearest_enemy = math.inf
    nearest_friend = math.inf
    fx, fy = firer.x, firer.y
    for u in state.units.values():
        if not u.alive or u is firer or not world.is_foot(u):
            continue
        if known_only and u.hidden and u.side != firer.side:
            continue  # a marker: the firer's side does not know what it is
        d = math.hypot(u.x - fx, u.y - fy)
        if u.side == firer.side:
            nearest_friend = min(nearest_friend, d)
        else:
            nearest_enemy = min(nearest_enemy, d)
    return nearest_enemy <= CLOSE_RANGE and nearest_friend > nearest_enemy


def note_refusal(refusal: Refusal) -> Event:
    return note("refused", refusal.reason, refusal.rule)
