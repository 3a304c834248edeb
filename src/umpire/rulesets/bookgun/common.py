"""Small shared helpers: the world of a state, sides, cards, positions, hidden events."""

from __future__ import annotations

import math
from collections.abc import Iterable

from umpire.core.deck import card_colour
from umpire.core.events import Event, note
from umpire.geometry.table import Vec
from umpire.rulesets.bookgun.state import OUT, ROUTED, BookGunState, Figure, Unit
from umpire.rulesets.bookgun.world import World, world_for


def world(state: BookGunState) -> World:
    found = state.world_memo
    if found is None:
        found = state.world_memo = world_for(state.scenario, state.options.get("house_rules"))
    assert isinstance(found, World)
    return found


def enemy(side: str) -> str:
    return "insurgents" if side == "army" else "army"


def card_owner(w: World, card: str) -> str:
    """Which side a card activates: its colour (joker-1 is the red joker, joker-2 black)."""
    colour = card_colour(card) or ("red" if card == "joker-1" else "black")
    for side, c in w.spec.colours.items():
        if c == colour:
            return side
    raise ValueError(f"no side owns {colour}")


def centre(state: BookGunState, unit: Unit) -> Vec:
    lead = state.leader_of(unit)
    if lead is not None:
        return lead.pos
    figs = state.unit_figures(unit)
    if not figs:
        figs = state.unit_figures(unit, present_only=False)
    return (sum(f.x for f in figs) / len(figs), sum(f.y for f in figs) / len(figs))


def dist(a: Vec, b: Vec) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def nearest(figs: Iterable[Figure], p: Vec) -> tuple[Figure | None, float]:
    best, bd = None, math.inf
    for f in figs:
        d = dist(f.pos, p)
        if d < bd:
            best, bd = f, d
    return best, bd


def active_units(state: BookGunState, side: str) -> list[Unit]:
    """Units of ``side`` on the table (not out, with a figure left, arrived)."""
    return [u for u in state.units.values() if u.side == side and state.on_table(u)]


def fighting_units(state: BookGunState, side: str) -> list[Unit]:
    return [u for u in active_units(state, side) if u.status != ROUTED]


def known_enemies(state: BookGunState, side: str) -> list[Unit]:
    """Enemy units ``side`` can see on the table (concealed ones are markers, not units)."""
    return [u for u in active_units(state, enemy(side)) if not u.concealed]


def is_out(unit: Unit) -> bool:
    return unit.status == OUT


def secret(side: str, event: Event, public_text: str | None) -> Event:
    """An event only ``side`` reads; the enemy reads ``public_text`` (or nothing)."""
    public = None
    if public_text is not None:
        public = note(event.kind, public_text, event.rule)
    return event.restricted((side,), public=public)


def room_figures(state: BookGunState, room: str) -> list[Figure]:
    return [f for f in state.figures.values() if f.room == room and f.present]
