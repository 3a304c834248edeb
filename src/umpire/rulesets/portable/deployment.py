"""Free deployment (game option ``deployment: free``; rule ``portable.setup.free_deployment``,
house): before turn 1 each side places its ground units, one by one, on squares of its own
deployment zone instead of the squares the scenario file names.

Zones (house; the scenario files name squares, not zones): a side's zone is the rows from its
own board edge (the edge behind the way its scenario units face: Blue facing north deploys from
the south edge) to the deepest row any of its scenario units stands on, at least the first two
rows (``free_deployment_min_rows`` in ``house_rules.yaml``). Blue places all its units first,
then Red (house). A unit is placed as it could end a move (portable.move.stacking,
portable.move.stack_limit, portable.terrain.river.impassable): what a unit carries or tows is
placed with it, aircraft arrive as the scenario says and are not placed. Until the last unit is
placed the turn has not begun: no die is rolled, nobody has the initiative. Unplaced units stand
off the board (``OFF``).

The Portable Wargame has no hidden information: both sides see every placement.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.ruleset import DeployStep
from umpire.geometry.squaregrid import Square, label, parse_label
from umpire.rulesets.portable.enums import SIDES
from umpire.rulesets.portable.movement import end_refusal
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.world import World, world_of

RULE = "portable.setup.free_deployment"
KINDS = ("place",)
OFF = (-1, -1)  # where an unplaced unit stands: off the board


def free(options: Mapping[str, Any]) -> bool:
    """Whether the game's options ask for free deployment (default: the scenario's squares)."""
    return str(options.get("deployment") or "fixed") == "free"


def rows(world: World) -> dict[str, tuple[int, int]]:
    """Each side's zone as a range of rows ``(first, last)``, both included."""
    spec = world.spec
    height = spec.grid.height
    out: dict[str, tuple[int, int]] = {}
    least = world.house.free_deployment_min_rows  # house_rules.yaml
    for side, side_spec in spec.sides.items():
        ys = [u.at[1] for u in side_spec.units]
        if side_spec.facing == "S":  # faces south: deploys from the north edge
            out[side] = (max(0, min(min(ys), height - least)), height - 1)
        else:
            out[side] = (0, min(height - 1, max(max(ys), least - 1)))
    return out


def zone(world: World, side: str) -> list[Square]:
    first, last = rows(world)[side]
    width = world.spec.grid.width
    return [(x, y) for y in range(first, last + 1) for x in range(width)]


def _waiting(unit: Unit) -> bool:
    return unit.alive and not unit.air and unit.carried_by is None and unit.pos == OFF


def deploying(state: PortableState) -> bool:
    """Whether the game is in its deployment step (some unit still waits to be placed)."""
    return bool(state.options.get("deployment") == "free") and any(
        _waiting(u) for u in state.units.values()
    )


def side_to_place(state: PortableState) -> str | None:
    for side in SIDES:
        if any(u.side == side and _waiting(u) for u in state.units.values()):
            return str(side)
    return None


def unplaced(state: PortableState, side: str) -> list[Unit]:
    return sorted(
        (u for u in state.units.values() if u.side == side and _waiting(u)), key=lambda u: u.uid
    )


def set_up(world: World, state: PortableState) -> list[Event]:
    """Take every ground unit off the board (what it carries with it); a note per side. No
    objective is held until a unit is placed on it (portable.victory.result counts the last
    side to stand on one)."""
    events: list[Event] = []
    state.holders.clear()
    for side in SIDES:
        mine = [u for u in state.units.values() if u.side == side and u.alive and not u.air]
        for unit in mine:
            unit.x, unit.y = OFF
        first, last = rows(world)[side]
        placing = [u for u in mine if u.carried_by is None]
        if placing:
            events.append(
                note(
                    "deployment",
                    f"{side.upper()} places {len(placing)} units in rows {first + 1}-{last + 1}",
                    RULE,
                    side=str(side),
                    rows=[first + 1, last + 1],
                )
            )
    return events


def refusal(world: World, state: PortableState, unit: Unit, square: Square) -> str | None:
    """Why ``unit`` may not be placed on ``square``, or None if it may."""
    if square not in set(zone(world, unit.side)):
        return f"{label(square)} is outside {unit.side.upper()}'s deployment zone"
    if not world.passable(square):
        return f"{label(square)} is river without a ford"
    why = end_refusal(world, state, unit, square, tired=False)
    return None if why is None else why.reason


def options(state: PortableState, side: str) -> list[Action]:
    world = world_of(state)
    return [
        Action("place", unit=u.uid, cell=label(sq))
        for u in unplaced(state, side)
        for sq in zone(world, side)
        if refusal(world, state, u, sq) is None
    ]


def check(state: PortableState, side: str, action: Action) -> Unit:
    """The unit ``action`` places, once it is known to be a legal placement."""
    if action.kind not in KINDS:
        raise IllegalActionError(f"{side.upper()} must place a unit, not {action.kind!r}", RULE)
    mine = {u.uid: u for u in unplaced(state, side)}
    unit = mine.get(str(action.unit))
    if unit is None:
        raise IllegalActionError(f"{side.upper()} has no unit {action.unit!r} to place", RULE)
    try:
        square = parse_label(str(action.cell))
    except ValueError as exc:
        raise IllegalActionError(f"say where to place it (a square): {exc}", RULE) from exc
    why = refusal(world_of(state), state, unit, square)
    if why is not None:
        raise IllegalActionError(why, RULE)
    return unit


def resolve(state: PortableState, unit: Unit, action: Action) -> list[Event]:
    square = parse_label(str(action.cell))
    unit.x, unit.y = square
    for cargo in state.units.values():
        if cargo.carried_by == unit.uid:
            cargo.x, cargo.y = square
    return [
        note(
            "place",
            f"{unit.side.upper()} places {unit.name} on {label(square)}",
            RULE,
            unit=unit.uid,
            square=label(square),
        )
    ]


def describe(state: PortableState, action: Action) -> str:
    unit = state.units.get(str(action.unit))
    name = unit.name if unit is not None else str(action.unit)
    return f"place {name} on {action.cell}"


def flow_summary(state: PortableState) -> dict[str, Any]:
    """The flow as players read it during deployment (the turn has not begun)."""
    return {
        **state.flow.to_dict(),
        "decision": "deploy",
        "to_act": side_to_place(state),
        "unit": None,
        "activation": None,
        "activations_left": 0,
        "order": [str(s) for s in state.turn_info.order],
    }


def step(state: PortableState) -> DeployStep | None:
    """The ``deployment`` capability: the placement now due, if any."""
    if not deploying(state):
        return None
    side = side_to_place(state)
    assert side is not None
    world = world_of(state)
    return DeployStep(
        side=side,
        kinds=KINDS,
        zone={"cells": [label(sq) for sq in zone(world, side)]},
        pieces=tuple(u.uid for u in unplaced(state, side)),
        hidden=False,
        rule=RULE,
    )


def choose(world: World, side: str, legal: Sequence[Action]) -> Action:
    """A legal placement for a player who lets the rules deploy: the first unit still to
    place (by id) on its scenario square when that is listed, else on the listed square
    nearest to it."""
    mine = [a for a in legal if a.kind in KINDS and a.cell is not None]
    if not mine:
        raise IllegalActionError(f"{side} has nothing to place", RULE)
    first = min(str(a.unit) for a in mine)
    theirs = [a for a in mine if a.unit == first]
    owner, _, uid = first.partition("-")
    home: Square | None = None
    for s, side_spec in world.spec.sides.items():
        if s == owner:
            home = next((u.at for u in side_spec.units if u.id == uid), None)

    def distance(action: Action) -> int:
        if home is None:
            return 0
        x, y = parse_label(str(action.cell))
        return abs(x - home[0]) + abs(y - home[1])

    return min(theirs, key=distance)


class DeployingScripted:
    """The Portable scripted player, which also places its units at a free deployment step
    (:func:`choose`); every other decision is the scripted player's own."""

    name = "scripted"

    def __init__(self, side: str, seed: int = 0) -> None:
        from umpire.rulesets.portable.agent import PortableScripted

        self.inner = PortableScripted(side, seed)
        self.side = side
        self.seed = seed

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        obs = view.observation
        if obs["flow"].get("decision") == "deploy":
            from umpire.rulesets.portable.world import load_world

            options = obs.get("options") or {}
            world = load_world(obs["scenario"], options.get("house_rules"))
            return choose(world, self.side, legal)
        return self.inner.choose(view, legal)


def status_line(state: Any, inner: Callable[[Any], str]) -> str:
    """The terminal's status line, which says so during deployment."""
    if isinstance(state, PortableState) and deploying(state):
        return f"deployment: {str(side_to_place(state)).upper()} places its units"
    return inner(state)
