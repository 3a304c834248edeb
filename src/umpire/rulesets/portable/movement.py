"""Ground movement: allowance, stopping next to the enemy, withdrawal, stacking, and the
terrain that stops or slows a move (woods, fords, trenches, wire) or hurts it (minefields)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, NamedTuple

from umpire.core.events import Event, note
from umpire.core.switches import OPTION_KEY, quiet_advice, switches_in
from umpire.geometry.squaregrid import Square, distance, facing_towards, label, neighbours, step
from umpire.rulesets.portable.common import Refusal, cargo_of, enemies_of, fighting, kind
from umpire.rulesets.portable.exhaustion import exhausted, nearest_enemy
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.units import STACK_EXEMPT, WIRE_CROSSERS
from umpire.rulesets.portable.world import World


class Path(NamedTuple):
    """How a move reaches its square: squares moved, squares with mines or gas crossed, and
    whether the whole move was along a road."""

    steps: int
    hazards: tuple[Square, ...]
    road: bool


def allowance(world: World, unit: Unit, firing: bool = False) -> int:
    """Squares the unit may move this turn (before the road bonus); with ``firing``, what it
    may move if it also fires this turn. The square firing costs comes off the movement rate
    before the one-square limits of woods, fords and trenches (portable.move.fired_penalty)."""
    rate = world.types.ground[unit.type].move  # portable.move.allowance
    if unit.fired or firing:
        rate -= 1  # portable.move.fired_penalty
    if world.kind(unit.pos) == "woods":
        rate = min(rate, 1)  # portable.terrain.woods.slow
    if unit.pos in world.fords:
        rate = min(rate, 1)  # portable.terrain.ford: one square out of the river
    if unit.pos in world.trenches:
        rate = min(rate, 1)  # portable.terrain.trench.crossing: one square out of the trench
    return max(0, rate)


def leaves_a_shot(world: World, unit: Unit, path: Path) -> bool:
    """portable.move.fired_penalty: a move along ``path`` is one a firing unit could make
    (its rate less one square, then the limits of woods, fords and trenches, and the road
    bonus), so the unit may still fire after it: the same moves as firing first allows."""
    limit = allowance(world, unit, firing=True) + (world.house.road_bonus if path.road else 0)
    return path.steps <= limit


def cannot_move(world: World, state: PortableState, unit: Unit) -> Refusal | None:
    """Why the unit may not move at all this turn, if it may not."""
    if unit.moved:
        return Refusal(f"{unit.name} has already moved this turn", "portable.move.once")
    if unit.carried_by is not None:
        return Refusal(f"{unit.name} is being carried", "portable.transport.carry")
    if unit.busy:
        return Refusal(f"{unit.name} is loading or unloading this turn", "portable.transport.load")
    if unit.fired and kind(world, unit) == "artillery":
        return Refusal(f"{unit.name} fired this turn", "portable.move.artillery_fired")
    if start_stacked(world, state, unit) and not switches_in(state.options).allows(
        "portable.move.stacking",
        False,
        f"{unit.name} starts its move in a square with another friendly unit",
    ):
        return Refusal(
            f"{unit.name} may not start a move in a square with another friendly unit",
            "portable.move.stacking",
        )
    return None


def start_stacked(world: World, state: PortableState, unit: Unit) -> bool:
    """portable.move.stacking: apart from transport, spotters and commanders, a unit may not
    start its move in a square with another friendly unit (units carried do not count; the
    optional tank riders share a square with their tank to get on or off)."""
    if kind(world, unit) in STACK_EXEMPT:
        return False
    others = [
        u
        for u in state.units.values()
        if u.alive
        and not u.air
        and u.uid != unit.uid
        and u.side == unit.side
        and u.carried_by is None
        and u.pos == unit.pos
    ]
    return bool(others) and not rider_pair(world, state, unit, others)


# reachable squares by position: a move is listed for the menu, weighed by the scripted
# player (on its own copy of the board), checked and resolved in the same position
_REACH_MEMO: dict[tuple[Any, ...], tuple[World, dict[Square, Path]]] = {}
_REACH_MEMO_SIZE = 512
_MOVE_FACTS = attrgetter(
    *("uid", "side", "type", "x", "y", "facing", "status", "air", "carried_by"),
    *("fired", "moved", "busy"),
)


def _position_key(world: World, state: PortableState, unit: Unit) -> tuple[Any, ...]:
    """Everything :func:`reachable` reads of a position: the world, the unit, every unit's
    side, type, square, facing, status, load and what it did this turn, the hazards, wire and
    the sides found exhausted."""
    return (
        id(world),
        unit.uid,
        tuple(map(_MOVE_FACTS, state.units.values())),
        tuple(tuple(m) for m in state.minefields),
        tuple((c["x"], c["y"]) for c in state.clouds),
        tuple(tuple(w) for w in state.wire),
        tuple(state.exhausted_sides),
    )


def reachable(world: World, state: PortableState, unit: Unit) -> dict[Square, Path]:
    """Every square the unit may end its move in, with the path it takes: one square a step
    (portable.move.allowance), shortest first and, among the shortest, crossing the fewest
    minefields and gas clouds (the shared grid search, :func:`umpire.geometry.reach.reach`).

    Remembered by position (:func:`_position_key`) when no rule is switched (under ``advise``
    the search notes advice as it goes, and ``book_only`` changes what it allows)."""
    if state.options.get(OPTION_KEY):
        return _reachable(world, state, unit)
    key = _position_key(world, state, unit)
    found = _REACH_MEMO.get(key)
    if found is None:
        if len(_REACH_MEMO) >= _REACH_MEMO_SIZE:
            _REACH_MEMO.clear()
        found = _REACH_MEMO[key] = (world, _reachable(world, state, unit))
    return dict(found[1])


def _reachable(world: World, state: PortableState, unit: Unit) -> dict[Square, Path]:
    """:func:`reachable`, searched afresh."""
    if cannot_move(world, state, unit) is not None:
        return {}
    start = unit.pos
    foes = enemies_of(state, unit.side)
    enemy_squares = {e.pos for e in foes}
    next_to_enemy: set[Square] = set()
    for e in foes:
        next_to_enemy.update(neighbours(e.pos))
    fronts = {step(e.pos, e.facing) for e in foes}
    # portable.move.withdrawal: a unit faced by an adjacent enemy may withdraw, away from the
    # enemy facing it, but not to the front of another enemy unit
    facing_it = [e for e in foes if step(e.pos, e.facing) == start]
    forbidden = fronts - {start} if facing_it else set()
    crosses_wire = kind(world, unit) in WIRE_CROSSERS
    rate = allowance(world, unit)

    hazards = {(m[0], m[1]) for m in state.minefields} | {(c["x"], c["y"]) for c in state.clouds}

    def crossing(a: Square, b: Square) -> float:
        return 1.0 if b in hazards else 0.0

    stopping = (
        next_to_enemy  # portable.move.enemy_adjacent_stop
        | world.woods  # portable.terrain.woods.stop
        | world.fords  # portable.terrain.ford
        | world.trenches  # portable.terrain.trench.crossing
    )
    if not crosses_wire:
        stopping |= {(w[0], w[1]) for w in state.wire}  # portable.terrain.wire.stop

    ground: dict[Square, list[Unit]] = {}
    for u in state.units.values():
        if u.alive and not u.air:
            ground.setdefault(u.pos, []).append(u)
    tired = exhausted(world, state, unit.side)
    fired_in_trench = unit.fired and start in world.trenches

    def may_end(n: Square) -> bool:
        if n == start or end_refusal(world, state, unit, n, ground, tired) is not None:
            return False
        if fired_in_trench and n not in world.trenches:
            return False  # portable.terrain.trench.no_fire: it may not cross out this turn
        return all(distance(n, e.pos) > distance(start, e.pos) for e in facing_it)

    out: dict[Square, Path] = {}
    modes = [(rate, False)]
    if start in world.roads and rate > 0:
        modes.append((rate + world.house.road_bonus, True))  # portable.terrain.road
    for limit, road in modes:

        def may_enter(n: Square, road: bool = road) -> bool:
            if not world.passable(n) or n in enemy_squares or n in forbidden:
                return False
            return not road or n in world.roads

        found = world.grid.reach(
            start,
            limit,
            may_enter=may_enter,
            stops=stopping.__contains__,
            may_end=may_end,
            tiebreak=crossing,
        )
        for sq, cost in found.items():
            steps = int(cost)
            if sq in out and (out[sq].steps < steps or (out[sq].steps == steps and not road)):
                continue  # the shortest path; on a tie the road, which leaves more to spare
            crossed = tuple(n for n in found.path(sq)[1:] if n in hazards)
            out[sq] = Path(steps, crossed, road)
    return out


def end_refusal(
    world: World,
    state: PortableState,
    unit: Unit,
    square: Square,
    ground: dict[Square, list[Unit]] | None = None,
    tired: bool | None = None,
) -> Refusal | None:
    """Why the unit may not end its move in ``square`` (stacking, exhaustion), if it may not.

    ``ground`` (the ground units by square) and ``tired`` (whether the unit's side is
    exhausted) may be given when many squares are asked about in one position."""
    if ground is None:
        here = [u for u in state.units.values() if u.alive and not u.air and u.pos == square]
    else:
        here = ground.get(square, [])
    if any(u.side != unit.side for u in here):
        return Refusal(f"{label(square)} holds an enemy unit", "portable.move.enemy_square")
    others = [u for u in here if u.carried_by is None and u.uid != unit.uid]
    if others:
        if (
            fighting(world, state, unit)
            and not rider_pair(world, state, unit, others)
            and not switches_in(state.options).allows(
                "portable.move.stacking",
                False,
                f"{unit.name} ends its move in {label(square)} with another friendly unit",
            )
        ):
            return Refusal(
                f"{unit.name} may not end its move with another friendly unit",
                "portable.move.stacking",
            )
        if len(others) + 1 > world.house.max_stack:
            return Refusal(
                f"at most {world.house.max_stack} units in one square", "portable.move.stack_limit"
            )
    if tired is None:
        tired = exhausted(world, state, unit.side)
    if tired:
        before = nearest_enemy(state, unit.side, unit.pos)
        after = nearest_enemy(state, unit.side, square)
        if after < before:
            return Refusal(
                f"{unit.side} is exhausted and may not move towards the enemy",
                "portable.exhaustion.no_aggression",
            )
    return None


def rider_pair(world: World, state: PortableState, unit: Unit, others: list[Unit]) -> bool:
    """portable.option.tank_riders: an unloaded tank and an infantry unit may share a square
    (to get on or off)."""
    if not world.switches.get("tank_riders") or len(others) != 1:
        return False
    pair = {kind(world, unit), kind(world, others[0])}
    return pair == {"tanks", "infantry"} and not any(cargo_of(state, u) for u in (unit, others[0]))


def move_refusal(world: World, state: PortableState, unit: Unit, square: Square) -> Refusal | None:
    """Why a move to ``square`` is illegal (for a move typed by a person), or None."""
    blocked = cannot_move(world, state, unit)
    if blocked is not None:
        return blocked
    if not world.grid.inside(square):
        return Refusal(f"{label(square)} is off the board", "portable.move.allowance")
    if not world.passable(square):
        return Refusal(
            f"{label(square)} is river without a ford", "portable.terrain.river.impassable"
        )
    refusal = end_refusal(world, state, unit, square)
    if refusal is not None:
        return refusal
    if unit.fired and unit.pos in world.trenches and square not in world.trenches:
        return Refusal(
            f"{unit.name} has fired this turn and may not cross out of its trench",
            "portable.terrain.trench.no_fire",
        )
    facing_it = [e for e in enemies_of(state, unit.side) if step(e.pos, e.facing) == unit.pos]
    if any(distance(square, e.pos) <= distance(unit.pos, e.pos) for e in facing_it):
        return Refusal(
            f"{unit.name} is faced by an adjacent enemy and may only withdraw away from it",
            "portable.move.withdrawal",
        )
    with quiet_advice():  # only this square's advice counts, not every reachable one's
        found = square in reachable(world, state, unit)
    if found:
        return None
    return Refusal(
        f"{unit.name} cannot reach {label(square)} this turn "
        f"({allowance(world, unit)} squares, stopping next to the enemy and in woods)",
        "portable.move.allowance",
    )


def do_move(
    world: World, state: PortableState, unit: Unit, square: Square, path: Path
) -> list[Event]:
    """Move the unit (and its load), then resolve hits from minefields and gas crossed."""
    from umpire.rulesets.portable.hits import resolve_hit

    start = unit.pos
    for u in [unit, *cargo_of(state, unit)]:
        u.x, u.y = square
        u.task = None
    unit.moved = True
    # portable.terrain.trench.crossing: a unit that leaves its trench is crossing it this turn
    unit.crossing = start in world.trenches and square not in world.trenches
    road = " along the road" if path.road else ""
    events = [
        note(
            "move",
            f"{unit.name} moves {path.steps} square(s){road} "
            f"from {label(start)} to {label(square)}",
            "portable.terrain.road" if path.road else "portable.move.allowance",
            unit=unit.uid,
            to=list(square),
        )
    ]
    for hazard in path.hazards:
        if not unit.alive:
            break
        if state.has_mines(hazard):
            events.append(
                note(
                    "minefield",
                    f"{unit.name} crosses a minefield in {label(hazard)}",
                    "portable.terrain.minefield",
                )
            )
            events += resolve_hit(world, state, unit, "portable.terrain.minefield")
        elif state.cloud_at(hazard):
            state.fired_house("portable.gas.enter")
            events.append(
                note("gas", f"{unit.name} moves into gas in {label(hazard)}", "portable.gas.enter")
            )
            events += resolve_hit(world, state, unit, "portable.gas.enter")
    return events


def facing_options(world: World, state: PortableState, unit: Unit) -> list[str]:
    """portable.move.face_enemy: next to the enemy a unit must face one of the adjacent enemy
    units; otherwise it may face any edge (portable.grid.facing)."""
    if unit.air:
        return ["N", "E", "S", "W"]
    adjacent = sorted(
        {
            facing_towards(unit.pos, e.pos)
            for e in enemies_of(state, unit.side)
            if distance(e.pos, unit.pos) == 1
        }
    )
    return adjacent or ["N", "E", "S", "W"]
