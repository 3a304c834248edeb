"""The reads and changes of a position that every phase of the turn shares: the state's map
(:func:`world`), the player-turn segment and its side (rhine.order.effect.phases), the
decision on top of the flow's stack, a unit entering hexes (rhine.control.change) or being
eliminated, and a stack's EW markers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from umpire.core.events import Event, note
from umpire.core.flow import Pending
from umpire.rulesets.rhine.model import World, world_for
from umpire.rulesets.rhine.state import RhineState

ST = RhineState


SEGMENTS = ("pact_1", "pact_2", "nato_1", "nato_2")


def world(state: RhineState) -> World:
    found = state.world_memo
    if found is None:
        found = state.world_memo = world_for(state.scenario, state.options.get("house_rules"))
    assert isinstance(found, World)
    return found


# each player-turn phase's side and whether it is the side's first segment
_SEGMENT_OF = {name: (name.split("_")[0], name.endswith("_1")) for name in SEGMENTS}


def segment(state: RhineState) -> str | None:
    """``move`` or ``combat`` for the current player-turn phase (rhine.order.effect.phases)."""
    found = _SEGMENT_OF.get(state.flow.phase)
    if found is None:
        return None
    side, first_segment = found
    first = "move" if state.order.get(side, "move-fight") == "move-fight" else "combat"
    if first_segment:
        return first
    return "combat" if first == "move" else "move"


def phase_side(state: RhineState) -> str | None:
    found = _SEGMENT_OF.get(state.flow.phase)
    return found[0] if found is not None else None


def top(state: RhineState) -> Any:
    return state.flow.stack[-1] if state.flow.stack else None


def momentum_units(state: RhineState) -> set[str] | None:
    t = top(state)
    if isinstance(t, Pending) and t.stage == "momentum":
        return set(t.data["units"])
    return None


def eliminate(state: RhineState, unit: str, why: str, rule: str) -> Event:
    info = world(state).units[unit]
    state.pos[unit] = None
    state.status[unit] = "eliminated"
    state.ew.pop(unit, None)
    state.losses[info.side] += 1
    return note("eliminated", f"{unit} eliminated ({why})", rule, unit=unit)


def enter(state: RhineState, unit: str, path: Iterable[str]) -> None:
    """Move a unit along ``path``; every hex entered comes under its side's control
    (rhine.control.change), except a hex holding enemy units, which a helicopter may pass
    over (rhine.heli.ignore) but never takes: its garrison still holds it (reconstructed)."""
    units = world(state).units
    side = units[unit].side
    path = list(path)
    held: set[str] = set()
    if len(path) > 1:
        held = {h for u, h in state.pos.items() if h is not None and units[u].side != side}
    last = None
    for h in path:
        if h not in held:
            state.control[h] = side
        last = h
    if last is not None:
        state.pos[unit] = last
        state.status[unit] = "on"


def hex_ew(state: ST, h: str) -> int:
    return max((state.ew.get(u, 0) for u in state.units_at(h)), default=0)
