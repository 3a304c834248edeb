"""Break points and scenario victory (sevendays.victory.*)."""

from __future__ import annotations

import math
from typing import Any

from umpire.core.events import Event, note
from umpire.rulesets.sevendays.state import SIDES, SevenDaysState, Side, other
from umpire.rulesets.sevendays.tally import count
from umpire.rulesets.sevendays.world import World

LEFT = frozenset({"destroyed", "removed", "exited"})  # units that have left the table


def check_break(world: World, state: SevenDaysState) -> list[Event]:
    """Rule sevendays.victory.break_point: end the game when a side's losses reach its break
    point (both at once is a draw)."""
    if state.flow.outcome is not None:
        return []
    # losses change only when a unit leaves the table: count them before summing BP (from
    # the tally of units by status, not a scan of every unit)
    gone = count(state, LEFT)
    if state.checked_losses == gone:
        return []
    from umpire.rulesets.sevendays.transport import bail_out

    bailed = bail_out(world, state)  # a transport may just have been lost
    if bailed:
        gone = count(state, LEFT)
    from umpire.rulesets.sevendays.special import breakthrough_made

    if breakthrough_made(world, state):
        attacker = world.scenario.spec.attacker
        assert attacker is not None
        return bailed + finish(world, state, attacker, "breakthrough")
    broken = [s for s in SIDES if world.lost_bp(state, s) >= world.break_point(state, s)]
    if not broken:
        state.checked_losses = gone
        return bailed
    winner = "draw" if len(broken) == 2 else other(broken[0])
    return bailed + finish(world, state, winner, "break point reached", broken=broken)


def objectives_held(world: World, state: SevenDaysState) -> dict[str, str | None]:
    """Which side holds each objective: a unit within the radius and no enemy unit there."""
    radius = world.house.objective_radius
    out: dict[str, str | None] = {}
    for objective in world.scenario.spec.objectives:
        present = {
            u.side
            for u in state.units.values()
            if u.alive
            and math.dist(u.pos, objective.at) <= radius
            and not world.is_helicopter(u)  # sevendays.air.helicopter: they hold no ground
        }
        out[objective.id] = present.pop() if len(present) == 1 else None
    return out


def end_of_game(world: World, state: SevenDaysState) -> list[Event]:
    """The turn limit: rule sevendays.victory.meeting_engagement (objectives, then BP
    destroyed, else a draw); in a capture or breakthrough the defender has held."""
    spec = world.scenario.spec
    if spec.victory in ("capture", "breakthrough") and spec.attacker is not None:
        return finish(world, state, other(spec.attacker), "the defence held")
    held = objectives_held(world, state)
    count = {s: sum(1 for h in held.values() if h == s) for s in SIDES}
    if count[Side.NATO] != count[Side.PACT]:
        winner = "nato" if count[Side.NATO] > count[Side.PACT] else "pact"
        return finish(world, state, winner, "objectives", objectives=held)
    destroyed = {s: world.lost_bp(state, other(s)) for s in SIDES}
    if destroyed[Side.NATO] != destroyed[Side.PACT]:
        winner = "nato" if destroyed[Side.NATO] > destroyed[Side.PACT] else "pact"
        return finish(world, state, winner, "turn limit", objectives=held)
    return finish(world, state, "draw", "turn limit", objectives=held)


def finish(
    world: World, state: SevenDaysState, winner: str, how: str, **details: Any
) -> list[Event]:
    rule = {
        "break point reached": "sevendays.victory.break_point",
        "breakthrough": "sevendays.victory.breakthrough",
        "the defence held": f"sevendays.victory.{world.scenario.spec.victory}",
        "objectives abandoned": "sevendays.victory.capture",
    }.get(how, "sevendays.victory.meeting_engagement")
    state.flow.outcome = {"winner": winner, "how": how, "turn": state.flow.turn, **details}
    state.flow.activation = None
    state.flow.pending = None
    if rule == "sevendays.victory.meeting_engagement":
        from umpire.rulesets.sevendays.morale import house_fired

        house_fired(state, rule)
    text = "the battle is a draw" if winner == "draw" else f"{winner.upper()} wins"
    return [note("game_over", f"{text} ({how}) on turn {state.flow.turn}", rule, winner=winner)]
