"""The end of the battle and who won it (the published rules end the battle when both sides
are exhausted; who won, and the turn limit, are house rules)."""

from __future__ import annotations

from typing import Any

from umpire.core.events import Event, note
from umpire.geometry.squaregrid import label
from umpire.rulesets.portable.common import standing
from umpire.rulesets.portable.exhaustion import check_exhaustion, exhausted, lost_sp
from umpire.rulesets.portable.state import SIDES, PortableState, other
from umpire.rulesets.portable.world import World


def update_holders(world: World, state: PortableState) -> None:
    """An objective belongs to the last side with a unit standing on it."""
    if not world.objectives:
        return
    at = {u.pos: u.side for u in standing(state)}
    for sq in world.objectives:
        if sq in at:
            state.holders[label(sq)] = at[sq]


def score(world: World, state: PortableState, side: str) -> tuple[int, float]:
    """(objective points, negative fraction of SP lost): higher is better."""
    held = sum(1 for s in state.holders.values() if s == side)
    initial = max(1, state.initial_sp.get(side, 1))
    return held * world.house.victory["objective"], -lost_sp(state, side) / initial


def decide(world: World, state: PortableState, how: str) -> dict[str, Any]:
    """portable.victory.result: objectives, then the smaller share of SP lost."""
    a, b = (score(world, state, s) for s in SIDES)
    winner = SIDES[0] if a > b else SIDES[1] if b > a else "draw"
    return {
        "winner": winner,
        "how": how,
        "objectives": {s: sum(1 for h in state.holders.values() if h == s) for s in SIDES},
        "sp_lost": {s: lost_sp(state, s) for s in SIDES},
    }


def check_annihilation(world: World, state: PortableState) -> list[Event]:
    """portable.victory.annihilation: a side with no ground units left has lost."""
    if state.turn_info.outcome is not None:
        return []
    for side in SIDES:
        if not state.ground(side):
            state.turn_info.outcome = {
                **decide(world, state, "annihilation"),
                "winner": other(side),
            }
            return [
                note(
                    "game_over",
                    f"{side.upper()} has no units left: {other(side).upper()} wins",
                    "portable.victory.annihilation",
                )
            ]
    return []


def end_of_turn(world: World, state: PortableState) -> list[Event]:
    """portable.exhaustion.check (step 5 of the turn), portable.exhaustion.end and
    portable.victory.turn_limit."""
    events: list[Event] = []
    for side in check_exhaustion(world, state):
        events.append(
            note(
                "exhaustion",
                f"{side.upper()} has reached its exhaustion point ({lost_sp(state, side)} SP "
                "lost) and takes no more aggressive action",
                "portable.exhaustion.check",
            )
        )
    tired = [s for s in SIDES if exhausted(world, state, s)]
    how = None
    rule = None
    if len(tired) == len(SIDES):
        how, rule = "both sides exhausted", "portable.exhaustion.end"
    elif state.flow.turn >= world.spec.turns:
        how, rule = "turn limit", "portable.victory.turn_limit"
    if how is None:
        return events
    state.turn_info.outcome = decide(world, state, how)
    winner = state.turn_info.outcome["winner"]
    headline = "a draw" if winner == "draw" else f"{winner.upper()} wins"
    events.append(note("game_over", f"The battle ends ({how}): {headline}", rule))
    events.append(
        note("result", "Objectives held and share of SP lost decide", "portable.victory.result")
    )
    return events
