"""Optional gas rules: one gas shell per gun, clouds that last three turns and drift."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from umpire.core.chance import TableLookup
from umpire.core.events import Event, note
from umpire.geometry.squaregrid import Square, label, toward
from umpire.rulesets.portable.common import restate, standing
from umpire.rulesets.portable.config import HouseRules
from umpire.rulesets.portable.enums import Drift
from umpire.rulesets.portable.hits import resolve_hit
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.world import World


def drift_on(die: int, house: HouseRules) -> Drift:
    """portable.gas.drift: ``stay``, ``front`` or ``behind`` for a d6."""
    table = house.gas_drift
    if die in table.stay:
        return Drift.STAY
    if die in table.in_front:
        return Drift.FRONT
    return Drift.BEHIND


def drift(die: int, world: World) -> Drift:
    """:func:`drift_on` with the house rules of ``world``."""
    return drift_on(die, world.house)


def drift_roll(
    house: HouseRules, text: Callable[[tuple[int, ...], int, Drift], str] | str = ""
) -> TableLookup[Drift]:
    """portable.gas.drift: a cloud's d6, read off the drift table."""
    return TableLookup(
        sides=6, row=lambda die: drift_on(die, house), rule="portable.gas.drift", text=text
    )


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

        def goes(way: Drift, here: Square = here, cloud: dict[str, Any] = cloud) -> Square:
            sign = 1 if way is Drift.FRONT else -1
            if way is Drift.STAY:
                return here
            return (here[0] + sign * cloud["dx"], here[1] + sign * cloud["dy"])

        def words(faces: tuple[int, ...], die: int, way: Drift, here: Square = here) -> str:
            moved = "stays" if way is Drift.STAY else f"drifts to {label(goes(way))}"
            return f"Gas in {label(here)}: d6 {die}: " + moved

        rolled: list[Event] = []
        way = drift_roll(world.house, words).sample(state.rng, rolled)
        to = goes(way)
        events.append(restate(rolled[0], None, way is Drift.STAY))
        if not world.grid.inside(to):
            events.append(note("gas", "The cloud drifts off the board", "portable.gas.drift"))
            continue
        cloud["x"], cloud["y"] = to
        kept.append(cloud)
        if to != here:
            events += _gas_hits(world, state, to)
    state.clouds = kept
    return events
