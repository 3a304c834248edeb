"""The turn sequence: artillery fire phase, initiative, each side's activations, exhaustion
check. ``proceed`` runs every automatic step until a player has a decision to make."""

from __future__ import annotations

from umpire.core.actions import Action
from umpire.core.events import Event, note
from umpire.geometry.squaregrid import adjacent, label
from umpire.rulesets.portable import air, gas
from umpire.rulesets.portable.activation import (
    can_activate,
    crash_unactivated,
    roll_activation,
    roll_initiative,
)
from umpire.rulesets.portable.artillery import (
    bombard_options,
    flak_options,
    resolve_artillery,
)
from umpire.rulesets.portable.close_combat import may_advance
from umpire.rulesets.portable.engineers import progress
from umpire.rulesets.portable.hits import retreat_squares, stand
from umpire.rulesets.portable.movement import facing_options
from umpire.rulesets.portable.state import SIDES, PortableState
from umpire.rulesets.portable.victory import check_annihilation, end_of_turn
from umpire.rulesets.portable.world import World


def start_turn(world: World, state: PortableState) -> list[Event]:
    """portable.turn.sequence: a new turn; per-turn marks are cleared."""
    flow = state.flow
    events: list[Event] = [note("turn", f"--- Turn {flow.turn} ---", "portable.turn.sequence")]
    for u in state.units.values():
        u.moved = u.fired = u.fought = u.activated = u.busy = False
        u.target_before, u.target_now = u.target_now, None
    if world.switches.get("air"):
        events += air.start_of_turn(world, state)
    if state.clouds:
        events += gas.age_and_drift(world, state)
    flow.stage = "artillery"
    flow.held = []
    flow.declared = []
    flow.activation = None
    return events


def artillery_choices(world: World, state: PortableState, side: str) -> list[Action]:
    """What ``side``'s guns may still declare this artillery phase (holding fire aside)."""
    out: list[Action] = []
    gas_ok = world.switches.get("gas", False)
    for gun in sorted(state.units.values(), key=lambda u: u.uid):
        if gun.side != side or not gun.alive or gun.air:
            continue
        plans = bombard_options(world, state, gun)
        out += [Action("bombard", unit=gun.uid, target=p.target) for p in plans]
        if gas_ok and gun.gas_shells > 0:
            out += [Action("gas", unit=gun.uid, target=p.target) for p in plans]
        out += [Action("flak", unit=gun.uid, target=p.uid) for p in flak_options(world, state, gun)]
    return out


def proceed(world: World, state: PortableState) -> list[Event]:
    """Run the automatic steps of the turn until someone must decide (or the battle is over)."""
    flow = state.flow
    events: list[Event] = []
    while True:
        if flow.outcome is None:
            events += check_annihilation(world, state)
        if flow.outcome is not None:
            flow.phase, flow.to_act, flow.activation, flow.retreats = "over", None, None, []
            return events
        if flow.retreats:
            unit = state.units[flow.retreats[0]["unit"]]
            if not unit.alive:
                flow.retreats.pop(0)
                continue
            if not retreat_squares(world, state, unit):
                flow.retreats.pop(0)
                events += stand(world, state, unit, unable=True)
                continue
            flow.phase, flow.to_act = "retreat", unit.side
            return events
        stage = flow.stage
        if stage == "artillery":
            waiting = [s for s in SIDES if s not in flow.held]
            side = next((s for s in waiting if artillery_choices(world, state, s)), None)
            if side is not None:
                flow.phase, flow.to_act = "artillery", side
                return events
            if flow.declared:
                events += resolve_artillery(world, state)
            flow.stage = "initiative"
        elif stage == "initiative":
            events += roll_initiative(world, state)
            flow.side_index = 0
            flow.stage = "roll"
        elif stage == "roll":
            events += roll_activation(world, state, flow.order[flow.side_index])
            flow.stage = "activate"
        elif stage == "activate":
            mover = flow.order[flow.side_index]
            act = flow.activation
            if act is not None:
                unit = state.units[act.unit]
                if not unit.alive:
                    flow.activation = None
                    continue
                if act.assault_square is not None:
                    square = (act.assault_square[0], act.assault_square[1])
                    act.assault_square = None
                    empty = not any(
                        u.alive and not u.air and u.pos == square for u in state.units.values()
                    )
                    if empty and adjacent(unit.pos, square) and may_advance(world, state, unit):
                        act.advance_to = [square[0], square[1]]
                    continue
                if act.advance_to is not None:
                    flow.phase, flow.to_act = "advance", mover
                    return events
                if act.must_face:
                    options = facing_options(world, state, unit)
                    if len(options) == 1:
                        act.must_face = False
                        if unit.facing != options[0]:
                            unit.facing = options[0]
                            events.append(
                                note(
                                    "face",
                                    f"{unit.name} turns to face the enemy ({options[0]})",
                                    "portable.move.face_enemy",
                                    unit=unit.uid,
                                )
                            )
                        continue
                    flow.phase, flow.to_act = "face", mover
                    return events
                flow.phase, flow.to_act = "act", mover
                return events
            if flow.activations_left > 0 and any(
                can_activate(world, state, u) for u in state.units.values() if u.side == mover
            ):
                flow.phase, flow.to_act = "activate", mover
                return events
            events += crash_unactivated(world, state, mover)
            flow.side_index += 1
            flow.stage = "roll" if flow.side_index < len(SIDES) else "end_turn"
        elif stage == "end_turn":
            events += progress(world, state)
            events += end_of_turn(world, state)
            if flow.outcome is None:
                flow.turn += 1
                events += start_turn(world, state)
        else:  # pragma: no cover - a corrupt state
            raise ValueError(f"unknown stage {stage!r}")


def where(square: list[int]) -> str:
    return label((square[0], square[1]))
