"""The board drawn in plain text: one cell per square with its terrain, the unit in it (side,
type, SP, facing arrow) and a second line for a second unit, an aircraft or gas."""

from __future__ import annotations

from typing import Any

from umpire.geometry.squaregrid import ARROWS, label
from umpire.rulesets.portable.exhaustion import exhausted
from umpire.rulesets.portable.state import SIDES, PortableState, Unit
from umpire.rulesets.portable.world import World, world_of

TERRAIN = {"open": ".", "woods": "W", "town": "T", "hill": "H", "river": "~"}
ABBREV = {
    "infantry": "Inf",
    "infantry_at": "IAT",
    "engineers": "Eng",
    "dismounted_cavalry": "DCv",
    "mounted_cavalry": "MCv",
    "cyclists": "Cyc",
    "machine_guns": "MG ",
    "mortars": "Mor",
    "artillery": "Art",
    "armoured_cars": "ACr",
    "light_tanks": "LTk",
    "tanks": "Tnk",
    "assault_guns": "AGn",
    "sp_artillery": "SPA",
    "half_tracks": "HT ",
    "trucks": "Trk",
    "horse_transport": "Hrs",
    "spotters": "Spt",
    "commanders": "Cmd",
    "reconnaissance": "Rcn",
    "fighter": "Ftr",
    "two_seat_fighter": "F2s",
    "bomber": "Bmr",
}
CELL = 7  # characters per square where the board is narrow enough
WIDTH = 80  # the drawing fits a terminal this wide
KEY = (
    "key: b/r blue/red unit (B/R aircraft), type, SP, facing ^>v<; + carrying",
    "     . open W woods T town H hill ~ river = ford # road E trench M mines x wire",
    "     * objective",
)


def unit_tag(unit: Unit) -> str:
    """e.g. ``bTnk3>``: side, type, SP, facing."""
    side = unit.side[0] if not unit.air else unit.side[0].upper()
    return f"{side}{ABBREV.get(unit.type, unit.type[:3])}{unit.sp}{ARROWS[unit.facing]}"


def _terrain_mark(world: World, state: PortableState, sq: tuple[int, int]) -> str:
    if state.has_mines(sq):
        return "M"
    if state.has_wire(sq):
        return "x"
    if sq in world.fords:
        return "="
    if sq in world.trenches:
        return "E"
    if sq in world.roads and world.kind(sq) == "open":
        return "#"
    return TERRAIN.get(world.kind(sq), "?")


def render(world: World, state: PortableState, width: int = WIDTH) -> str:
    """The board, north at the top, with a key, no line wider than ``width``: a square is
    seven characters where that fits (terrain and first unit on one line, a second unit, an
    aircraft or gas under it), else six, with the terrain on a line of its own."""
    w, h = world.grid.width, world.grid.height
    cell = CELL if 4 + CELL * w <= width else max(4, (width - 4) // w)
    ground: dict[tuple[int, int], list[Unit]] = {}
    air: dict[tuple[int, int], Unit] = {}
    for u in sorted(state.units.values(), key=lambda u: (u.carried_by is not None, u.uid)):
        if not u.alive:
            continue
        if u.air:
            air[u.pos] = u
        elif u.carried_by is None:
            ground.setdefault(u.pos, []).append(u)
    objectives = set(world.objectives)
    header = "    " + "".join(label((x, 0))[:-1].center(cell) for x in range(w))
    lines = [header.rstrip()]
    for y in range(h - 1, -1, -1):
        rows: list[list[str]] = [[f"{y + 1:>3} "], ["    "]]
        if cell < CELL:
            rows.append(["    "])
        for x in range(w):
            sq = (x, y)
            mark = _terrain_mark(world, state, sq)
            here = ground.get(sq, [])
            first = unit_tag(here[0]) if here else ""
            loaded = here and any(
                c.carried_by == here[0].uid for c in state.units.values() if c.alive
            )
            carry = "+" if loaded else ""
            extra = ""
            if len(here) > 1:
                extra = unit_tag(here[1])
            elif sq in air:
                extra = unit_tag(air[sq])
            elif state.cloud_at(sq):
                extra = "gas"
            obj = "*" if sq in objectives else " "
            if cell >= CELL:
                rows[0].append((mark + first + carry).ljust(cell)[:cell])
                bottom = obj + extra
                if len(here) > 1 and sq in air:
                    bottom = obj + unit_tag(here[1])[:5] + "A"
                rows[1].append(bottom.ljust(cell)[:cell])
            else:  # terrain and objective, then the first unit, then the second
                rows[0].append((mark + obj.strip() + carry).ljust(cell)[:cell])
                rows[1].append(first.ljust(cell)[:cell])
                second = extra if not (len(here) > 1 and sq in air) else unit_tag(here[1])
                rows[2].append(second.ljust(cell)[:cell])
        lines += ["".join(row).rstrip() for row in rows]
    lines += list(KEY)
    return "\n".join(lines)


def draw(state: Any, viewer: str | None = None) -> str:
    """The render capability: the board as ``viewer`` sees it (everything: the Portable
    Wargame has no hidden information)."""
    assert isinstance(state, PortableState)
    return render(world_of(state), state)


def status_line(state: Any) -> str:
    """The status capability: turn, phase, activations left, the active unit, exhaustion."""
    assert isinstance(state, PortableState)
    from umpire.rulesets.portable.turns import activation, decision

    world = world_of(state)
    tired = [s for s in SIDES if exhausted(world, state, s)]
    extra = f", exhausted: {', '.join(tired)}" if tired else ""
    act = activation(state)
    active = f", active: {state.units[act.data['unit']].name}" if act is not None else ""
    return (
        f"turn {state.flow.turn}/{world.spec.turns}, {decision(state)[0]}, "
        f"activations left {state.turn_info.activations_left}{active}{extra}"
    )
