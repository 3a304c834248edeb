"""Optional gas rules: one gas shell per gun, clouds that last three turns and drift."""

from __future__ import annotations

from umpire.core.events import Event, note, roll
from umpire.geometry.squaregrid import Square, label, toward
from umpire.rulesets.portable.common import standing
from umpire.rulesets.portable.hits import resolve_hit
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.world import World


def drift(die: int, world: World) -> str:
    """portable.gas.drift: ``stay``, ``front`` or ``behind`` for a d6."""
    table = world.house.gas_drift
    if die in table.stay:
        return "stay"
    if die in table.in_front:
        return "front"
    return "behind"


def _gas_hits(world: World, state: PortableState, square: Square) -> list[Event]:
    events: list[Event] = []
    for victim in sorted((u for u in standing(state) if u.pos == square), key=lambda u: u.uid):
        events.append(
            note("gas", f"{victim.name} is caught by gas in {label(square)}", "portable.gas.hit")
        )
        events += resolve_hit(world, state, victim, "portable.gas.hit")
    return events


def place_cloud(world: World, state: PortableState, gun: Unit, square: Square) -> list[Event]:
    """portable.gas.shell: a gas cloud where the shell lands; everyone there is hit."""
    dx, dy = toward(square, gun.pos)
    state.clouds.append(
        {"x": square[0], "y": square[1], "turns": world.house.gas_cloud_turns, "dx": dx, "dy": dy}
    )
    events = [note("gas", f"A gas cloud forms in {label(square)}", "portable.gas.cloud")]
    return events + _gas_hits(world, state, square)


def age_and_drift(world: World, state: PortableState) -> list[Event]:
    """portable.gas.cloud / portable.gas.drift: at each artillery phase a cloud ages a turn and,
    until it disperses, rolls to stay, drift in front or drift behind."""
    events: list[Event] = []
    kept = []
    for cloud in state.clouds:
        cloud["turns"] -= 1
        here = (cloud["x"], cloud["y"])
        if cloud["turns"] <= 0:
            events.append(note("gas", f"The gas in {label(here)} disperses", "portable.gas.cloud"))
            continue
        die = state.rng.d(6)
        way = drift(die, world)
        sign = 1 if way == "front" else -1
        to = here if way == "stay" else (here[0] + sign * cloud["dx"], here[1] + sign * cloud["dy"])
        events.append(
            roll(
                "portable.gas.drift",
                f"Gas in {label(here)}: d6 {die}: "
                + ("stays" if way == "stay" else f"drifts to {label(to)}"),
                [die],
                die,
                None,
                way == "stay",
            )
        )
        if not world.grid.inside(to):
            events.append(note("gas", "The cloud drifts off the board", "portable.gas.drift"))
            continue
        cloud["x"], cloud["y"] = to
        kept.append(cloud)
        if to != here:
            events += _gas_hits(world, state, to)
    state.clouds = kept
    return events
