"""Engineering work: engineers lay or lift a minefield in an adjacent square (3 or 5 turns in
place); foot units put up or cut barbed wire in their own square (1 turn)."""

from __future__ import annotations

from umpire.core.events import Event, note
from umpire.geometry.squaregrid import Square, label
from umpire.rulesets.portable.common import kind
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.units import WIRE_LAYERS
from umpire.rulesets.portable.world import World

TASK_RULES = {
    "lay_mines": "portable.engineers.lay_mines",
    "clear_mines": "portable.engineers.clear_mines",
    "lay_wire": "portable.terrain.wire.lay",
    "clear_wire": "portable.terrain.wire.clear",
}


def task_turns(world: World, task: str) -> int:
    house = world.house
    return {
        "lay_mines": house.lay_minefield_turns,
        "clear_mines": house.clear_minefield_turns,
        "lay_wire": house.wire_turns,
        "clear_wire": house.wire_turns,
    }[task]


def work_options(world: World, state: PortableState, unit: Unit) -> list[tuple[str, Square]]:
    """Tasks the unit may start now: (task, square)."""
    if unit.air or unit.carried_by is not None or unit.moved or unit.busy or unit.task:
        return []
    out: list[tuple[str, Square]] = []
    k = kind(world, unit)
    if k == "engineers":
        occupied = {u.pos for u in state.units.values() if u.alive and not u.air}
        for sq in world.grid.neighbours(unit.pos):
            if not world.passable(sq) or world.in_river(sq):
                continue
            if state.has_mines(sq):
                out.append(("clear_mines", sq))
            elif sq not in occupied:
                out.append(("lay_mines", sq))
    if k in WIRE_LAYERS and not unit.fired:
        out.append(("clear_wire" if state.has_wire(unit.pos) else "lay_wire", unit.pos))
    return out


def start(world: World, state: PortableState, unit: Unit, task: str, square: Square) -> list[Event]:
    unit.task = {
        "kind": task,
        "square": [square[0], square[1]],
        "at": [unit.x, unit.y],
        "done": 0,
        "need": task_turns(world, task),
    }
    unit.busy = True
    what = task.replace("_", " ").replace("mines", "a minefield").replace("wire", "barbed wire")
    return [
        note(
            "work",
            f"{unit.name} starts to {what} in {label(square)} ({unit.task['need']} turn(s))",
            TASK_RULES[task],
            unit=unit.uid,
        )
    ]


def progress(world: World, state: PortableState) -> list[Event]:
    """At the end of each turn every unit that stayed in place advances its work."""
    events: list[Event] = []
    for unit in sorted(state.units.values(), key=lambda u: u.uid):
        task = unit.task
        if task is None:
            continue
        rule = TASK_RULES[task["kind"]]
        if not unit.alive or [unit.x, unit.y] != task["at"]:
            unit.task = None
            events.append(note("work", f"{unit.name}'s work is abandoned", rule))
            continue
        task["done"] += 1
        if task["done"] < task["need"]:
            continue
        unit.task = None
        sq = task["square"]
        where = label((sq[0], sq[1]))
        if task["kind"] == "lay_mines" and sq not in state.minefields:
            state.minefields.append(list(sq))
            events.append(note("work", f"{unit.name} has laid a minefield in {where}", rule))
        elif task["kind"] == "clear_mines" and sq in state.minefields:
            state.minefields.remove(sq)
            events.append(note("work", f"{unit.name} has cleared the minefield in {where}", rule))
        elif task["kind"] == "lay_wire" and sq not in state.wire:
            state.wire.append(list(sq))
            events.append(note("work", f"{unit.name} has put up barbed wire in {where}", rule))
        elif task["kind"] == "clear_wire" and sq in state.wire:
            state.wire.remove(sq)
            events.append(note("work", f"{unit.name} has cut the barbed wire in {where}", rule))
    return events
