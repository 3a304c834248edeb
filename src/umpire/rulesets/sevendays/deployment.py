"""Free deployment (game option ``deployment: free``; rule ``sevendays.scenario.free_deployment``,
house): before the card swap each side places its units on the table one by one, in its own
deployment zone, instead of standing where the scenario file puts them.

The defender (the side that is not the scenario's attacker; NATO where there is none) places all
its units first, then the other side. A unit the scenario deploys hidden is placed as its marker:
the enemy reads where and whose (the marker's number, dealt at random at set-up), never what.
Units in reserve keep waiting off the table; passengers ride in their transport and are placed
with it. Until it is placed a unit stands off the table (``OFF``), where nothing can see it.

Zones (house; the scenario files have no zone field): the band within 12" of the table edge the
side's scenario units stand nearest to (as a deployed force file, ``forces.deploy_force``). In a
scenario whose defender deploys hidden behind the attacker's start line (Capture, seed p32: "at
least 12 inches from the start line"), the attacker's start line is the line through its
foremost scenario unit: the attacker places between that line and its edge, the defender
anywhere at least 12" beyond it. A unit is placed at least 1.5" inside the table, on terrain
it may enter, and no nearer than 2.5" to a unit already placed (either side's).
The 12" and the 2.5" are house-rule numbers (`free_deployment.depth` and `.spacing` in
`house_rules.yaml`, overridable with `--house-rules`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind, Pending
from umpire.core.ruleset import DeployStep
from umpire.rulesets.sevendays.forces import home_edge
from umpire.rulesets.sevendays.state import Phase, SevenDaysState, Side, Status, Unit
from umpire.rulesets.sevendays.world import World

RULE = "sevendays.scenario.free_deployment"
KINDS = ("place",)
OFF = (-100.0, -100.0)  # where an unplaced unit stands: off the table
MARGIN = 1.5  # inside the table edges (forces.EDGE_MARGIN)
GRID = 6.0  # spacing of the listed placements (any point of the zone is accepted)

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in inches


def free(options: Mapping[str, Any]) -> bool:
    """Whether the game's options ask for free deployment (default: fixed positions)."""
    return str(options.get("deployment") or "fixed") == "free"


def zones(world: World) -> dict[str, Rect]:
    """Each side's deployment zone (see the module's docstring)."""
    spec = world.scenario.spec
    table = world.table
    edges = {side: home_edge(side_spec, table) for side, side_spec in spec.sides.items()}
    out: dict[str, Rect] = {}
    depth_band = world.house.free_deployment.depth  # house_rules.yaml: free_deployment.depth
    for side, edge in edges.items():
        out[side] = _band(edge, depth_band, table.width, table.height)
    attacker = spec.attacker
    if attacker is not None:
        defender = next(s for s in spec.sides if s != attacker)
        if any(u.hidden for u in spec.sides[defender].units):
            edge = edges[attacker]
            placed = [u.at for u in spec.sides[attacker].units if not u.reserve]
            depth = max(_from_edge(edge, p, table.width, table.height) for p in placed)
            out[attacker] = _band(edge, depth, table.width, table.height)
            out[defender] = _beyond(edge, depth + depth_band, table.width, table.height)
    return out


def _from_edge(edge: str, at: Sequence[float], width: float, height: float) -> float:
    x, y = at[0], at[1]
    return {"south": y, "north": height - y, "west": x, "east": width - x}[edge]


def _band(edge: str, depth: float, width: float, height: float) -> Rect:
    """The strip within ``depth`` of ``edge``."""
    if edge == "south":
        return (0.0, 0.0, width, min(depth, height))
    if edge == "north":
        return (0.0, max(0.0, height - depth), width, height)
    if edge == "west":
        return (0.0, 0.0, min(depth, width), height)
    return (max(0.0, width - depth), 0.0, width, height)


def _beyond(edge: str, depth: float, width: float, height: float) -> Rect:
    """The table at least ``depth`` from ``edge``."""
    if edge == "south":
        return (0.0, min(depth, height), width, height)
    if edge == "north":
        return (0.0, 0.0, width, max(0.0, height - depth))
    if edge == "west":
        return (min(depth, width), 0.0, width, height)
    return (0.0, 0.0, max(0.0, width - depth), height)


def order(world: World) -> list[str]:
    """The sides in the order they deploy: the defender first."""
    spec = world.scenario.spec
    sides: list[str] = list(spec.sides)
    if spec.attacker is not None:
        sides.sort(key=lambda s: s == spec.attacker)
    return sides


def _label(unit: Unit) -> str:
    """How the step's open list names ``unit``: its marker while hidden, else its id."""
    return str(unit.marker) if unit.hidden else unit.uid


def set_up(world: World, state: SevenDaysState) -> list[Event]:
    """Take every unit that will be placed off the table and push each side's placement
    decision (the defender's on top); nothing when the game's positions are fixed."""
    if not free(state.options):
        return []
    events: list[Event] = []
    decisions: list[Pending] = []
    area = zones(world)
    for side in order(world):
        mine = [u for u in state.units.values() if u.side == side and u.status == Status.ACTIVE]
        for unit in mine:
            unit.x, unit.y = OFF
        for rider in state.units.values():
            if rider.side == side and rider.carried_by is not None:
                rider.x, rider.y = OFF
        if not mine:
            continue
        left = sorted(_label(u) for u in mine)
        decisions.append(Pending(side, KINDS, Phase.DEPLOY, {"left": left}))
        x0, y0, x1, y1 = area[side]
        events.append(
            note(
                "deployment",
                f"{side.upper()} places {len(left)} units in its zone "
                f'({x0:g}-{x1:g}" across, {y0:g}-{y1:g}" up the table)',
                RULE,
                side=side,
                zone=[x0, y0, x1, y1],
            )
        )
    state.flow.core.stack += list(reversed(decisions))  # the first to deploy on top
    state.touch()
    return events


def _top(state: SevenDaysState) -> Pending | None:
    stack = state.flow.core.stack
    if not stack:
        return None
    top = stack[-1]
    return top if isinstance(top, Pending) and top.stage == Phase.DEPLOY else None


def unplaced(state: SevenDaysState, side: str) -> list[Unit]:
    """``side``'s units still to place at the decision on top (none when it is not one)."""
    top = _top(state)
    if top is None or top.side != side:
        return []
    left = set(top.data.get("left", ()))
    return sorted(
        (u for u in state.units.values() if u.side == side and _label(u) in left),
        key=lambda u: u.uid,
    )


def refusal(world: World, state: SevenDaysState, unit: Unit, x: float, y: float) -> str | None:
    """Why ``unit`` may not be placed at (x, y), or None if it may."""
    x0, y0, x1, y1 = zones(world)[unit.side]
    table = world.scenario.spec.table
    if not (max(x0, MARGIN) <= x <= min(x1, table.width - MARGIN)):
        return f"{x:g}, {y:g} is outside {unit.side.upper()}'s deployment zone"
    if not (max(y0, MARGIN) <= y <= min(y1, table.height - MARGIN)):
        return f"{x:g}, {y:g} is outside {unit.side.upper()}'s deployment zone"
    mover = world.mover_class(unit)
    if mover != "air":
        for area in world.table.areas_at(x, y):
            if world._cannot_enter(mover, area):
                return f"{unit.name} cannot stand in {area.id}"
    spacing = world.house.free_deployment.spacing  # house_rules.yaml: free_deployment.spacing
    near = _placed_near(state, unit, x, y, spacing)
    if near is not None:
        return f'within {spacing:g}" of a unit already placed'
    return None


def _placed_near(
    state: SevenDaysState, unit: Unit, x: float, y: float, spacing: float
) -> Unit | None:
    for other in state.units.values():
        if other is unit or other.status != Status.ACTIVE or (other.x, other.y) == OFF:
            continue
        if math.hypot(other.x - x, other.y - y) < spacing:
            return other
    return None


def spots(world: World, state: SevenDaysState, unit: Unit) -> list[tuple[float, float]]:
    """The listed placements of ``unit``: its scenario position first when it is in the
    zone and free, then a grid across the zone (any other legal point is accepted too)."""
    out: list[tuple[float, float]] = []
    home = _home(world, unit)
    if home is not None and refusal(world, state, unit, *home) is None:
        out.append(home)
    x0, y0, x1, y1 = zones(world)[unit.side]
    table = world.scenario.spec.table
    xs = _steps(max(x0, MARGIN), min(x1, table.width - MARGIN))
    ys = _steps(max(y0, MARGIN), min(y1, table.height - MARGIN))
    for y in ys:
        for x in xs:
            if (x, y) != home and refusal(world, state, unit, x, y) is None:
                out.append((x, y))
    return out


def _steps(low: float, high: float) -> list[float]:
    if high < low:
        return []
    count = max(1, int((high - low) // GRID) + 1)
    pad = (high - low - GRID * (count - 1)) / 2
    return [round(low + pad + GRID * i, 2) for i in range(count)]


def _home(world: World, unit: Unit) -> tuple[float, float] | None:
    side, _, uid = unit.uid.partition("-")
    for spec in world.scenario.spec.sides[side].units:  # type: ignore[index]
        if spec.id == uid:
            return (round(float(spec.at[0]), 2), round(float(spec.at[1]), 2))
    return None


class Place(ActionKind[SevenDaysState]):
    """sevendays.scenario.free_deployment: put one of the side's units on the table."""

    name = "place"
    rule = RULE

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        world = state.world_memo
        if world is None:
            return []
        return [
            Action("place", unit=u.uid, point=p)
            for u in unplaced(state, side)
            for p in spots(world, state, u)
        ]

    def check(self, state: SevenDaysState, side: str, action: Action) -> None:
        world = state.world_memo
        mine = {u.uid: u for u in unplaced(state, side)}
        unit = mine.get(str(action.unit))
        if world is None or unit is None:
            raise IllegalActionError(f"{side} has no unit {action.unit!r} to place", RULE)
        if action.point is None:
            raise IllegalActionError("say where to place it (a point)", RULE)
        why = refusal(world, state, unit, *action.point)
        if why is not None:
            raise IllegalActionError(why, RULE)

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        unit = state.units[str(action.unit)]
        assert action.point is not None
        x, y = action.point
        unit.x, unit.y = x, y
        for rider in state.units.values():
            if rider.carried_by == unit.uid:
                rider.x, rider.y = x, y
        top = _top(state)
        assert top is not None
        label = _label(unit)
        top.data["left"] = [v for v in top.data.get("left", ()) if v != label]  # a new list
        if not top.data["left"]:
            state.flow.core.stack.pop()
        state.touch()
        text = f"{side.upper()} places {unit.name} at {x:g}, {y:g}"
        if not unit.hidden:
            return [note("place", text, RULE, unit=unit.uid, point=[x, y])]
        own = note("place", text + f" as {unit.marker}", RULE, unit=unit.uid, point=[x, y])
        public = note(
            "place",
            f"{side.upper()} places hidden marker {unit.marker} at {x:g}, {y:g}",
            RULE,
            marker=unit.marker,
            point=[x, y],
        )
        return [own.restricted((unit.side,), public=public)]

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        unit = state.units.get(str(action.unit))
        name = unit.name if unit is not None else str(action.unit)
        at = action.point or (0.0, 0.0)
        hidden = f", hidden as {unit.marker}" if unit is not None and unit.hidden else ""
        where = _landmark(state, at[0], at[1])
        return f"place {name} at {at[0]:g}, {at[1]:g}{where}{hidden}"


def _landmark(state: SevenDaysState, x: float, y: float) -> str:
    """Words for a point a player can find: the terrain it is in, the nearest objective."""
    world = state.world_memo
    if world is None:
        return ""
    words = [area.id.replace("-", " ") for area in world.table.areas_at(x, y)]
    objectives = world.scenario.spec.objectives
    if objectives:
        near = min(objectives, key=lambda o: math.dist(o.at, (x, y)))
        words.append(f'{math.dist(near.at, (x, y)):.0f}" from {near.id.replace("-", " ")}')
    return f" ({', '.join(words)})" if words else ""


PLACE = Place()


def step(state: SevenDaysState) -> DeployStep | None:
    """The ``deployment`` capability: the placement now due, if any."""
    top = _top(state)
    world = state.world_memo
    if top is None or world is None:
        return None
    x0, y0, x1, y1 = zones(world)[top.side]
    mine = unplaced(state, top.side)
    return DeployStep(
        side=top.side,
        kinds=KINDS,
        zone={"rects": [[x0, y0, x1, y1]]},
        pieces=tuple(u.uid for u in mine),
        hidden=any(u.hidden for u in mine),
        rule=RULE,
    )


def choose(world: World, side: str, legal: Sequence[Action]) -> Action:
    """A legal placement for a player who lets the rules deploy: the first unit still to
    place (by id) at its scenario position when that is listed (free and in the zone), else at
    the listed spot nearest to it (the scenario author's layout, kept as far as the zone
    allows). Reads only the side's own legal actions and the scenario file."""
    mine = [a for a in legal if a.kind == "place" and a.point is not None]
    if not mine:
        raise IllegalActionError(f"{side} has nothing to place", RULE)
    first = min(str(a.unit) for a in mine)
    theirs = [a for a in mine if a.unit == first]
    unit_side, _, uid = first.partition("-")
    sides = world.scenario.spec.sides
    home = (
        next(
            (u.at for u in sides[unit_side].units if u.id == uid),  # type: ignore[index,unused-ignore]
            None,
        )
        if unit_side in sides
        else None
    )
    if home is None:
        return theirs[0]
    return min(theirs, key=lambda a: math.dist(a.point or (0.0, 0.0), home))


class DeployingScripted:
    """The Seven Days scripted player, which also places its units at a free deployment step
    (:func:`choose`); every other decision is the scripted player's own."""

    name = "scripted"

    def __init__(self, side: str, seed: int = 0) -> None:
        from umpire.rulesets.sevendays.agent import SevenDaysScripted

        self.inner = SevenDaysScripted(side, seed)
        self.side = side
        self.seed = seed

    @property
    def last_reason(self) -> str:
        return str(self.inner.last_reason)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        obs = view.observation
        if obs["flow"].get("phase") == Phase.DEPLOY:  # (the legal list is not read otherwise)
            world = view.ruleset.world_for(
                obs["scenario"], (obs.get("options") or {}).get("house_rules")
            )
            self.inner.last_reason = "deploy where the scenario puts the unit, or nearest"
            return choose(world, self.side, legal)
        return self.inner.choose(view, legal)


def in_zone(world: World, side: str | Side, x: float, y: float) -> bool:
    """Whether (x, y) lies in ``side``'s zone (tests and the page's drawing)."""
    x0, y0, x1, y1 = zones(world)[str(side)]
    return x0 <= x <= x1 and y0 <= y <= y1
