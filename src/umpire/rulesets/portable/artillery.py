"""The artillery fire phase: guns declare targets, then every landing is rolled and every hit
resolved together (fire is simultaneous). Anti-aircraft guns engage aircraft here too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from umpire.core.chance import TableLookup, Test
from umpire.core.events import Event, note
from umpire.core.switches import switches_in
from umpire.geometry.squaregrid import Square, distance, in_arc, label, squares_between, toward
from umpire.rulesets.portable.common import (
    Modifier,
    Refusal,
    commander_near,
    d6_test,
    edge_ok,
    hidden_by_cover,
    in_cover,
    in_reach,
    kind,
    mods_text,
    restate,
    standing,
    total,
)
from umpire.rulesets.portable.config import HouseRules
from umpire.rulesets.portable.enums import Landing
from umpire.rulesets.portable.hits import can_destroy_tanks, lose_sp, resolve_hit
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.units import ARTILLERY, ArtilleryType
from umpire.rulesets.portable.world import World


class ArtilleryPlan(NamedTuple):
    """A gun's shot at a square: modifiers, and whether the gun sees the target."""

    gun: str
    target: str
    square: Square
    mods: tuple[Modifier, ...]
    direct: bool


# -- the pure rules of a gun's shot: the game plays with these, and so does the odds calculator
def artillery_modifiers(
    house: HouseRules, *, cover: bool, observed: bool, same_target: bool, commander: bool
) -> tuple[Modifier, ...]:
    """portable.artillery.modifier.*: the modifiers on the landing die, given whether the target
    is in cover, the gun or a spotter sees it, the gun fired at it last turn and a commander is
    with the gun."""
    am = house.artillery_modifiers
    mods: list[Modifier] = []
    if cover:
        mods.append(Modifier(am["cover"], "portable.artillery.modifier.cover", "target in cover"))
    if observed:
        mods.append(Modifier(am["observed"], "portable.artillery.modifier.observed", "observed"))
    if same_target:
        mods.append(
            Modifier(am["same_target"], "portable.artillery.modifier.same_target", "same target")
        )
    if commander:
        mods.append(Modifier(am["commander"], "portable.artillery.modifier.commander", "commander"))
    return tuple(mods)


def artillery_reach(art: ArtilleryType) -> int:
    """portable.artillery.ranges: the gun class's reach in squares."""
    return art.range


def landing_on(score: int, house: HouseRules) -> Landing:
    """portable.artillery.landing: ``target``, ``front`` (short), ``behind`` (over) or ``none``."""
    table = house.artillery_landing
    if score >= table.on_target:
        return Landing.TARGET
    if score in table.in_front:
        return Landing.FRONT
    if score in table.behind:
        return Landing.BEHIND
    return Landing.NONE


def landing_roll(
    mods: tuple[Modifier, ...],
    house: HouseRules,
    text: Callable[[tuple[int, ...], int, Landing], str] | str = "",
    **data: Any,
) -> TableLookup[Landing]:
    """portable.artillery.landing: a gun's d6 plus its modifiers, read off the landing table
    (played in :func:`resolve_artillery`, enumerated by the odds)."""
    return TableLookup(
        sides=6,
        row=lambda score: landing_on(score, house),
        rule="portable.artillery.landing",
        drm=total(mods),
        text=text,
        data=data,
    )


def flak_die(
    mods: tuple[Modifier, ...],
    house: HouseRules,
    text: Callable[[tuple[int, ...], int, bool], str] | str = "",
    **data: Any,
) -> Test:
    """portable.air.ground_to_air: an anti-aircraft gun's d6 at an aircraft."""
    return d6_test(house.air_hit, "portable.air.ground_to_air", mods, text, **data)


def landing(score: int, world: World) -> Landing:
    """:func:`landing_on` with the house rules of ``world``."""
    return landing_on(score, world.house)


def landing_square(world: World, gun: Square, square: Square, where: str) -> Square | None:
    """portable.artillery.front_behind: short is one square towards the gun, over one beyond."""
    if where == "none":
        return None
    if where == "target":
        return square
    dx, dy = toward(square, gun)
    if where == "behind":
        dx, dy = -dx, -dy
    out = (square[0] + dx, square[1] + dy)
    return out if world.grid.inside(out) else None


def can_bombard(world: World, state: PortableState, gun: Unit) -> Refusal | None:
    if not gun.alive or gun.air or kind(world, gun) not in ARTILLERY:
        return Refusal(f"{gun.name} is not artillery", "portable.fire.no_artillery")
    if gun.carried_by is not None:
        return Refusal(f"{gun.name} is limbered", "portable.transport.limber")
    if gun.fired:
        return Refusal(f"{gun.name} has fired this turn", "portable.artillery.once")
    if world.in_river(gun.pos):
        return Refusal(f"{gun.name} is in a river", "portable.terrain.river.no_fire")
    if gun.crossing:
        return Refusal(f"{gun.name} is crossing a trench", "portable.terrain.trench.no_fire")
    return None


def direct_sight(world: World, origin: Square, square: Square) -> bool:
    """portable.artillery.indirect: a direct line of sight from ``origin`` to a target in
    ``square``: nothing in between hides it and the target is not in cover there (a target
    that cannot be seen or is in cover is under indirect fire)."""
    return world.terrain_line_clear(origin, square) and not hidden_by_cover(world, square)


def observed(world: World, state: PortableState, gun: Unit, square: Square) -> bool:
    """portable.artillery.modifier.observed: the gun or a friendly spotter has a direct line
    of sight to the target square."""
    if direct_sight(world, gun.pos, square):
        return True
    return any(
        kind(world, u) == "spotters" and direct_sight(world, u.pos, square)
        for u in standing(state, gun.side)
    )


def plan_bombard(
    world: World, state: PortableState, gun: Unit, target: Unit
) -> ArtilleryPlan | Refusal:
    """The shot ``gun`` would fire at ``target``'s square, or why it may not."""
    refusal = can_bombard(world, state, gun)
    if refusal is not None:
        return refusal
    if target.air or not target.alive or target.side == gun.side or target.carried_by:
        return Refusal(f"{target.name} is not a ground target", "portable.artillery.ranges")
    art = world.types.artillery[gun.artillery or "field"]
    square = target.pos
    d = distance(gun.pos, square)
    reach, rule = artillery_reach(art), "portable.artillery.ranges"
    if world.same_wood(gun.pos, square):
        reach, rule = min(reach, 1), "portable.terrain.woods.range"
    if not in_reach(d, reach):
        return Refusal(f"{label(square)} is {d} squares away, range {reach}", rule)
    if not in_arc(gun.pos, gun.facing, square) and not switches_in(state.options).allows(
        "portable.artillery.arc", False, f"{label(square)} is outside {gun.name}'s arc"
    ):
        return Refusal(f"{label(square)} is outside the 90-degree arc", "portable.artillery.arc")
    if not edge_ok(world, gun.pos, square):
        return Refusal(
            f"{gun.name} is not at the edge of its cover", "portable.artillery.out_of_cover"
        )
    sees = direct_sight(world, gun.pos, square)
    if not art.indirect:
        between = set(squares_between(gun.pos, square))
        blocked = any(u.pos in between for u in state.units.values() if u.alive and not u.air)
        if not sees or blocked:
            why = "is in cover" if hidden_by_cover(world, square) else "cannot be seen"
            return Refusal(
                f"{gun.name} fires only directly, and its target in {label(square)} {why}",
                "portable.artillery.direct_only",
            )
    mods = artillery_modifiers(
        world.house,
        cover=in_cover(world, target),
        observed=observed(world, state, gun, square),
        same_target=gun.target_before == [square[0], square[1]],
        commander=commander_near(world, state, gun.side, gun.pos),
    )
    direct = sees
    return ArtilleryPlan(gun.uid, target.uid, square, mods, direct)


def bombard_options(world: World, state: PortableState, gun: Unit) -> list[ArtilleryPlan]:
    """Every target square the gun may fire at now (one plan per square)."""
    if can_bombard(world, state, gun) is not None:
        return []
    out: list[ArtilleryPlan] = []
    seen: set[Square] = set()
    for target in sorted(standing(state), key=lambda u: u.uid):
        if target.side == gun.side or target.pos in seen:
            continue
        plan = plan_bombard(world, state, gun, target)
        if isinstance(plan, ArtilleryPlan):
            out.append(plan)
            seen.add(target.pos)
    return out


def flak_options(world: World, state: PortableState, gun: Unit) -> list[Unit]:
    """portable.air.ground_to_air: aircraft an anti-aircraft gun may engage."""
    if not world.switches.get("air") or can_bombard(world, state, gun) is not None:
        return []
    art = world.types.artillery[gun.artillery or "field"]
    if not art.anti_aircraft:
        return []
    return [
        u
        for u in sorted(state.units.values(), key=lambda u: u.uid)
        if u.alive
        and u.air
        and u.side != gun.side
        and distance(gun.pos, u.pos) <= art.range
        and in_arc(gun.pos, gun.facing, u.pos)
    ]


def declare(gun: Unit, square: Square, target: str, how: str) -> dict[str, Any]:
    """Mark the gun as having fired and return its declaration (resolved with all others)."""
    gun.fired = True
    gun.target_now = [square[0], square[1]]
    return {"gun": gun.uid, "target": target, "square": [square[0], square[1]], "how": how}


def resolve_artillery(world: World, state: PortableState) -> list[Event]:
    """portable.artillery.simultaneous: roll every landing, then resolve every hit."""
    from umpire.rulesets.portable.gas import place_cloud

    events: list[Event] = []
    landed: list[tuple[Unit, Square, str]] = []
    for decl in state.turn_info.declared:
        gun = state.units[decl["gun"]]
        square = (decl["square"][0], decl["square"][1])
        if decl["how"] == "flak":
            events += _flak(world, state, gun, state.units[decl["target"]])
            continue
        gun.fired = False  # re-plan as declared (the gun was marked when it declared)
        plan = plan_bombard(world, state, gun, state.units[decl["target"]])
        gun.fired = True
        if isinstance(plan, Refusal):
            events.append(note("cancelled", f"{gun.name}'s fire is lost: {plan.reason}", plan.rule))
            continue
        shell = "gas shell" if decl["how"] == "gas" else "fire"
        fire = "direct" if plan.direct else "indirect"

        def words(
            faces: tuple[int, ...],
            score: int,
            where: Landing,
            gun: Unit = gun,
            square: Square = square,
            plan: ArtilleryPlan = plan,
            how: str = f"{fire} {shell}",
        ) -> str:
            at = landing_square(world, gun.pos, square, where)
            text = {
                "target": f"on {label(square)}",
                "front": f"short, in {label(at)}" if at else "short, off the board",
                "behind": f"over, in {label(at)}" if at else "over, off the board",
                "none": "totally ineffective",
            }[where]
            return (
                f"{gun.name} ({how}) at {label(square)}: d6 {faces[0]} "
                f"[{mods_text(plan.mods)}] = {score}: lands {text}"
            )

        rolled: list[Event] = []
        where = landing_roll(plan.mods, world.house, words, unit=gun.uid).sample(state.rng, rolled)
        at = landing_square(world, gun.pos, square, where)
        events.append(
            restate(
                rolled[0],
                world.house.artillery_landing.on_target,
                where is Landing.TARGET,
                landed=list(at) if at else None,
            )
        )
        if at is not None:
            landed.append((gun, at, decl["how"]))
    for gun, at, how in landed:
        if how == "gas":
            events += place_cloud(world, state, gun, at)
            continue
        victims = [u for u in standing(state) if u.pos == at]
        for victim in sorted(victims, key=lambda u: u.uid):
            events.append(
                note(
                    "hit",
                    f"{victim.name} in {label(at)} is under {gun.name}'s fire",
                    "portable.artillery.hits_all",
                )
            )
            art = world.types.artillery[gun.artillery or "field"]
            events += resolve_hit(
                world, state, victim, "portable.artillery.landing", can_destroy_tanks(art)
            )
    state.turn_info.declared = []
    return events


def _flak(world: World, state: PortableState, gun: Unit, plane: Unit) -> list[Event]:
    if not plane.alive:
        return [note("cancelled", f"{plane.name} is gone", "portable.air.ground_to_air")]
    am = world.house.air_modifiers
    mods = [Modifier(am["not_moved"], "portable.air.ground_to_air", "not moved")]
    if commander_near(world, state, gun.side, gun.pos):
        mods.append(Modifier(am["commander"], "portable.air.ground_to_air", "commander"))

    def words(faces: tuple[int, ...], score: int, ok: bool) -> str:
        return f"{gun.name} fires at {plane.name}: d6 {faces[0]} [{mods_text(mods)}] = {score}"

    events: list[Event] = []
    die = flak_die(tuple(mods), world.house, words, unit=gun.uid, target=plane.uid)
    if die.sample(state.rng, events):
        events += lose_sp(world, state, plane, "portable.air.ground_to_air", "hit")
    return events
