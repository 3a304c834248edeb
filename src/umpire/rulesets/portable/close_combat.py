"""Close combat: both sides roll against their "not hit" score (front, or flank/rear when
attacked from the side or behind), with modifiers; the winner may advance."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from umpire.core.chance import Chance, Test
from umpire.core.events import Event, note
from umpire.geometry.squaregrid import aspect, label, step
from umpire.rulesets.portable.common import (
    Modifier,
    Refusal,
    commander_near,
    d6_test,
    in_cover,
    kind,
    mods_text,
)
from umpire.rulesets.portable.exhaustion import exhausted
from umpire.rulesets.portable.hits import resolve_hit
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.units import ADVANCERS, ASSAULTERS
from umpire.rulesets.portable.world import World


class Side(NamedTuple):
    """One unit's part in a close combat: the score it needs not to be hit and its modifiers."""

    unit: str
    need: int
    column: str  # front | flank
    mods: tuple[Modifier, ...]


def not_hit(die: int, mods: int, need: int) -> bool:
    """portable.cc.scores: the modified die reaches the score needed not to be hit."""
    return die + mods >= need


def combat_die(
    side: Side,
    text: Callable[[tuple[int, ...], int, bool], str] | str = "",
    **data: Any,
) -> Test:
    """portable.cc.scores (portable.cc.flank_rear when attacked from the side or behind): one
    unit's d6 in a close combat; it passes (is not hit) on its score or more."""
    rule = "portable.cc.flank_rear" if side.column == "flank" else "portable.cc.scores"
    return d6_test(side.need, rule, side.mods, text, **data)


def close_combat_hits(attacker: Side, defender: Side) -> Chance[tuple[bool, bool]]:
    """Whether the attacker and the defender are hit, rolled in that order."""
    first = combat_die(attacker)
    second = combat_die(defender)
    return first.then(lambda a: second.map(lambda d: (not a, not d)))


def cannot_assault(world: World, state: PortableState, unit: Unit) -> Refusal | None:
    if unit.air or unit.carried_by is not None or unit.busy:
        return Refusal(f"{unit.name} cannot fight now", "portable.cc.who_attacks")
    if kind(world, unit) not in ASSAULTERS:
        return Refusal(f"{unit.name} does not start close combats", "portable.cc.who_attacks")
    if unit.fought:
        return Refusal(f"{unit.name} has fought this turn", "portable.cc.advance")
    if unit.fired and not world.house.fire_and_close_combat:
        return Refusal(f"{unit.name} has fired this turn", "portable.fire.or_close_combat")
    if exhausted(world, state, unit.side):
        return Refusal(f"{unit.side} is exhausted", "portable.exhaustion.no_aggression")
    return None


def assault_targets(world: World, state: PortableState, unit: Unit) -> list[Unit]:
    """portable.cc.adjacent_facing: enemy units in the square the unit faces."""
    if cannot_assault(world, state, unit) is not None:
        return []
    front = step(unit.pos, unit.facing)
    return sorted(
        (
            u
            for u in state.units.values()
            if u.alive
            and not u.air
            and u.carried_by is None
            and u.side != unit.side
            and u.pos == front
        ),
        key=lambda u: u.uid,
    )


def combat_side(
    world: World, state: PortableState, unit: Unit, opponent: Unit, attacking: bool
) -> Side:
    """What ``unit`` needs not to be hit by ``opponent``, with the modifiers that apply."""
    scores = world.types.ground[unit.type].cc
    seen_from = aspect(unit.pos, unit.facing, opponent.pos)
    column = "front" if seen_from == "front" else "flank"  # portable.cc.flank_rear
    need = scores[0] if column == "front" else scores[1]
    cm = world.house.cc_modifiers
    mods: list[Modifier] = []
    if commander_near(world, state, unit.side, unit.pos, same_square=False):
        mods.append(Modifier(cm["commander"], "portable.cc.modifier.commander", "commander"))
    if in_cover(world, unit):
        rule = (
            "portable.terrain.woods.close_combat"
            if world.kind(unit.pos) == "woods"
            else "portable.cc.modifier.cover"
        )
        mods.append(Modifier(cm["cover"], rule, "in cover"))
    if attacking and world.kind(opponent.pos) == "hill" and world.kind(unit.pos) != "hill":
        mods.append(Modifier(cm["uphill"], "portable.terrain.hill", "attacking uphill"))
    if world.in_river(unit.pos):
        mods.append(Modifier(cm["river"], "portable.terrain.river.close_combat", "in a river"))
    if unit.crossing:
        mods.append(
            Modifier(cm["trench"], "portable.terrain.trench.close_combat", "crossing a trench")
        )
    return Side(unit.uid, need, column, tuple(mods))


def resolve_close_combat(
    world: World, state: PortableState, attacker: Unit, defender: Unit
) -> list[Event]:
    """Both roll; each unit that fails its score is hit (resolved by quality)."""
    attacker.fought = True
    events = [
        note(
            "close_combat",
            f"{attacker.name} attacks {defender.name} in {label(defender.pos)}",
            "portable.cc.scores",
            unit=attacker.uid,
            target=defender.uid,
        )
    ]
    hits: list[Unit] = []
    for unit, opponent, attacking in ((attacker, defender, True), (defender, attacker, False)):
        side = combat_side(world, state, unit, opponent, attacking)

        def words(
            faces: tuple[int, ...], score: int, ok: bool, unit: Unit = unit, side: Side = side
        ) -> str:
            return (
                f"{unit.name} ({side.column}) d6 {faces[0]} [{mods_text(side.mods)}] = {score}, "
                f"needs {side.need} not to be hit"
            )

        if not combat_die(side, words, unit=unit.uid).sample(state.rng, events):
            hits.append(unit)
    for unit in hits:
        events += resolve_hit(world, state, unit, "portable.cc.scores")
    return events


def may_advance(world: World, state: PortableState, unit: Unit) -> bool:
    """portable.cc.advance: infantry, engineers, cavalry and tanks may follow up a win."""
    return unit.alive and kind(world, unit) in ADVANCERS and not exhausted(world, state, unit.side)
