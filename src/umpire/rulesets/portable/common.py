"""Small shared pieces: modifiers, unit look-ups by square and side, commanders nearby."""

from __future__ import annotations

from typing import Any, NamedTuple

from umpire.core import chance
from umpire.core.events import Event, roll
from umpire.geometry.squaregrid import Square, distance, squares_between
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.units import STACK_EXEMPT
from umpire.rulesets.portable.world import COVER, World


class Modifier(NamedTuple):
    """A die modifier and the rule behind it."""

    value: int
    rule: str
    text: str


class Refusal(NamedTuple):
    """Why something may not be done, and the rule that forbids it."""

    reason: str
    rule: str


def total(mods: tuple[Modifier, ...] | list[Modifier]) -> int:
    return sum(m.value for m in mods)


def chance_mods(mods: tuple[Modifier, ...] | list[Modifier]) -> tuple[chance.Modifier, ...]:
    """The modifiers as the chance primitives take them."""
    return tuple(chance.Modifier(m.rule, m.value, m.text) for m in mods)


def d6_test(
    need: int,
    rule: str,
    mods: tuple[Modifier, ...] | list[Modifier] = (),
    text: Any = "",
    **data: Any,
) -> chance.Test:
    """One d6 plus ``mods`` that passes on ``need`` or more: the shape of most Portable rolls
    (a shot's die, the quality die, close combat, air attacks). ``text(faces, total, ok)``
    words the roll event; ``data`` goes into it."""
    return chance.Test(
        sides=6, need=need, rule=rule, modifiers=chance_mods(mods), text=text, data=data
    )


def restate(event: Event, need: int | None, success: bool, **data: Any) -> Event:
    """A sampled table roll recorded with the target number and verdict the game reports for
    it (a landing on target, a cloud that stays) and any data known only once it is read."""
    extra = {k: v for k, v in event.data.items() if k not in ("dice", "result", "need", "success")}
    return roll(
        str(event.rule),
        event.text,
        list(event["dice"]),
        int(event["result"]),
        need,
        success,
        **{**extra, **data},
    )


def in_reach(squares: float, reach: int) -> bool:
    """portable.fire.range, portable.artillery.ranges: a target ``squares`` away is in reach."""
    return squares <= reach


def mods_text(mods: tuple[Modifier, ...] | list[Modifier]) -> str:
    return ", ".join(f"{m.value:+d} {m.text}" for m in mods if m.value) or "no modifiers"


def kind(world: World, unit: Unit) -> str:
    """The unit's kind (``aircraft`` for aircraft)."""
    if unit.air:
        return "aircraft"
    return world.types.ground[unit.type].kind


def standing(state: PortableState, side: str | None = None) -> list[Unit]:
    """Ground units on the board that are not being carried."""
    return [
        u
        for u in state.units.values()
        if u.alive and not u.air and u.carried_by is None and (side is None or u.side == side)
    ]


def enemies_of(state: PortableState, side: str) -> list[Unit]:
    """Enemy ground units on the board, not carried."""
    return [
        u
        for u in state.units.values()
        if u.alive and not u.air and u.carried_by is None and u.side != side
    ]


def cargo_of(state: PortableState, unit: Unit) -> list[Unit]:
    return [c for c in state.units.values() if c.alive and c.carried_by == unit.uid]


def fighting(world: World, state: PortableState, unit: Unit) -> bool:
    """Counts as the one fighting unit of its square: not a transport, spotter or commander,
    unless it is a transport with a load (portable.transport.stacking)."""
    if kind(world, unit) not in STACK_EXEMPT:
        return True
    return any(c.carried_by == unit.uid and c.alive for c in state.units.values())


def commander_near(
    world: World, state: PortableState, side: str, square: Square, same_square: bool = True
) -> bool:
    """A friendly commander in the same (if allowed) or an orthogonally adjacent square."""
    for u in state.units.values():
        if u.alive and not u.air and u.side == side and kind(world, u) == "commanders":
            d = distance(u.pos, square)
            if d == 1 or (same_square and d == 0):
                return True
    return False


def in_cover(world: World, unit: Unit) -> bool:
    """In cover (woods, built-up area) or fortifications (a trench)."""
    sq = unit.pos
    return world.terrain.get(sq) in COVER or sq in world.trenches


def hidden_by_cover(world: World, square: Square) -> bool:
    """portable.artillery.indirect: the square is cover (woods or built-up area: 'terrain that
    can hide or obscure a target from view'); fortifications are counted apart."""
    return world.terrain.get(square) in COVER


def edge_ok(world: World, origin: Square, target: Square) -> bool:
    """Fire out of woods, built-up areas or fortifications only from their edge: the adjacent
    square in the direction of fire is not such terrain (or is the target's own square)."""
    if not world.blocks_fire(origin):
        return True
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    steps: list[Square] = []
    if abs(dx) >= abs(dy) and dx:
        steps.append((origin[0] + (1 if dx > 0 else -1), origin[1]))
    if abs(dy) >= abs(dx) and dy:
        steps.append((origin[0], origin[1] + (1 if dy > 0 else -1)))
    return any(sq == target or not world.blocks_fire(sq) for sq in steps)


def beyond_first_square(world: World, origin: Square, target: Square) -> bool:
    """portable.fire.into_cover ('Firing' j): non-artillery fire reaches one square into woods,
    built-up areas and fortifications, so a target in such terrain may not lie behind another
    such square on the line of fire (the square the line crosses last before the target's).
    Woods and built-up squares crossed block sight anyway; this is what stops a mortar firing
    over them, and any fire along a trench, further in."""
    if not world.blocks_fire(target):
        return False
    between = squares_between(origin, target)
    return bool(between) and world.blocks_fire(between[-1])
