"""The turn sequence (portable.turn.sequence), declared as a :class:`~umpire.core.flow.Flow`:
the artillery fire phase (both sides declare, then every shell lands together), initiative,
then each side's activations, and at the end of the turn engineering work and the exhaustion
check.

Interrupts are pending decisions on the flow's stack: the activated unit's acts (then its
facing after a move, its advance after a close combat it won) and, above them, every hit
unit's choice to retreat or stand. :func:`settle` answers the ones that leave no choice (a
unit that cannot retreat stands; a unit with one way to face the enemy turns to it) and runs
the automatic phases until a side has a decision to make.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from umpire.core.actions import Action
from umpire.core.events import Event, note
from umpire.core.flow import Flow, Pending, Phase
from umpire.core.switches import OPTION_KEY
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
from umpire.rulesets.portable.engineers import TASK_RULES, progress
from umpire.rulesets.portable.enums import SIDES, Decision, Side, Stage
from umpire.rulesets.portable.enums import Phase as TurnPhase
from umpire.rulesets.portable.hits import retreat_squares, stand
from umpire.rulesets.portable.movement import facing_options
from umpire.rulesets.portable.state import PortableState
from umpire.rulesets.portable.victory import check_annihilation, end_of_turn
from umpire.rulesets.portable.world import World, world_of

ARTILLERY_KINDS = ("bombard", "gas", "flak", "hold")
ACTIVATION_KINDS = ("activate", "done")
# in the order a menu lists them (an aircraft's bombs before its move, as before)
ACT_KINDS = ("fire", "assault", "bomb", "move", "turn", "load", "unload", *TASK_RULES, "end")
FACE_KINDS = ("face",)
ADVANCE_KINDS = ("advance", "stay")


# -- the artillery fire phase -------------------------------------------------------------------
def gun_choices(state: PortableState, side: str, how: str) -> list[Action]:
    """What ``side``'s guns may still declare of kind ``how`` (bombard, gas or flak)."""
    world = world_of(state)
    if how == "gas" and not world.switches.get("gas", False):
        return []
    out: list[Action] = []
    for gun in sorted(state.units.values(), key=lambda u: u.uid):
        if gun.side != side or not gun.alive or gun.air:
            continue
        if how == "flak":
            out += [
                Action("flak", unit=gun.uid, target=p.uid) for p in flak_options(world, state, gun)
            ]
        elif how == "bombard" or gun.gas_shells > 0:
            out += [
                Action(how, unit=gun.uid, target=p.target)
                for p in bombard_options(world, state, gun)
            ]
    return out


def artillery_choices(state: PortableState, side: str) -> list[Action]:
    """Every declaration ``side``'s guns may still make, gun by gun (holding fire aside)."""
    found = [a for how in ("bombard", "gas", "flak") for a in gun_choices(state, side, how)]
    return sorted(found, key=lambda a: a.unit or "")


# whether a side's guns may declare, by position: asked at every look at the artillery phase
# (who is to act, the menu, the check, the observation's summary) in one position
_DECLARE_MEMO: dict[tuple[Any, ...], tuple[World, bool]] = {}
_DECLARE_MEMO_SIZE = 256
_GUN_FACTS = attrgetter(
    *("uid", "side", "type", "artillery", "x", "y", "facing", "status", "air", "carried_by"),
    *("fired", "crossing"),
)


def may_declare(state: PortableState, side: str) -> bool:
    """Whether any of ``side``'s guns may still declare a target.

    Remembered by position (every unit's square, facing, side, type, gun, status, load, fire
    and trench crossing this turn) when no rule is switched (under ``advise`` the checks note
    advice as they go)."""
    world = world_of(state)
    if state.options.get(OPTION_KEY):
        return _may_declare(world, state, side)
    key = (
        id(world),
        side,
        tuple(map(_GUN_FACTS, state.units.values())),
    )
    found = _DECLARE_MEMO.get(key)
    if found is None:
        if len(_DECLARE_MEMO) >= _DECLARE_MEMO_SIZE:
            _DECLARE_MEMO.clear()
        found = _DECLARE_MEMO[key] = (world, _may_declare(world, state, side))
    return found[1]


def _may_declare(world: World, state: PortableState, side: str) -> bool:
    for gun in sorted(state.units.values(), key=lambda u: u.uid):
        if gun.side != side or not gun.alive or gun.air:
            continue
        if bombard_options(world, state, gun) or flak_options(world, state, gun):
            return True
    return False


def _artillery_to_act(state: PortableState) -> str | None:
    held = state.turn_info.held
    return next((s for s in SIDES if s not in held and may_declare(state, s)), None)


def _bombardment(state: PortableState) -> list[Event]:
    """portable.artillery.simultaneous: every declared shell lands, then every hit is taken."""
    if not state.turn_info.declared:
        return []
    return resolve_artillery(world_of(state), state)


# -- initiative and activations ----------------------------------------------------------------
def _initiative(state: PortableState) -> list[Event]:
    return roll_initiative(world_of(state), state)


def _mover(index: int) -> Callable[[PortableState], Side]:
    def mover(state: PortableState) -> Side:
        return state.turn_info.order[index]

    return mover


def _begin_activations(index: int) -> Callable[[PortableState], list[Event]]:
    def begin(state: PortableState) -> list[Event]:
        side = state.turn_info.order[index]
        state.flow.active = str(side)
        return roll_activation(world_of(state), state, side)

    return begin


def _end_activations(index: int) -> Callable[[PortableState], list[Event]]:
    def end(state: PortableState) -> list[Event]:
        side = state.turn_info.order[index]
        state.flow.active = None
        return crash_unactivated(world_of(state), state, side)

    return end


def _activating(index: int) -> Callable[[PortableState], str | None]:
    """portable.activation.count: the side activates while it has activations left and a unit
    that may still be activated."""

    def to_act(state: PortableState) -> str | None:
        side = state.turn_info.order[index]
        if state.turn_info.activations_left > 0 and any(
            can_activate(world_of(state), state, u) for u in state.units.values() if u.side == side
        ):
            return str(side)
        return None

    return to_act


# -- the turn's ends ---------------------------------------------------------------------------
def start_turn(state: PortableState) -> list[Event]:
    """portable.turn.sequence: a new turn; per-turn marks are cleared."""
    world = world_of(state)
    events: list[Event] = [
        note("turn", f"--- Turn {state.flow.turn} ---", "portable.turn.sequence")
    ]
    for u in state.units.values():
        u.moved = u.fired = u.fought = u.activated = u.busy = u.advanced = False
        u.full_move = u.crossing = False
        u.target_before, u.target_now = u.target_now, None
    if world.switches.get("air"):
        events += air.start_of_turn(world, state)
    if state.clouds:
        events += gas.age_and_drift(world, state)
    state.turn_info.held = []
    state.turn_info.declared = []
    return events


def end_turn(state: PortableState) -> list[Event]:
    """Engineering work goes on; portable.exhaustion.end and portable.victory.turn_limit."""
    world = world_of(state)
    return progress(world, state) + end_of_turn(world, state)


def _checked(
    hook: Callable[[PortableState], list[Event]],
) -> Callable[[PortableState], list[Event]]:
    """``hook`` followed by portable.victory.annihilation (checked after every step)."""

    def run(state: PortableState) -> list[Event]:
        return hook(state) + check_annihilation(world_of(state), state)

    return run


def _over(state: PortableState) -> bool:
    return state.turn_info.outcome is not None


FLOW: Flow[PortableState] = Flow(
    [
        Phase(TurnPhase.ARTILLERY, ARTILLERY_KINDS, to_act=_artillery_to_act),
        Phase(TurnPhase.BOMBARDMENT, on_begin=_checked(_bombardment)),
        Phase(TurnPhase.INITIATIVE, on_begin=_checked(_initiative)),
        Phase(
            TurnPhase.FIRST,
            ACTIVATION_KINDS,
            to_act=_activating(0),
            on_begin=_checked(_begin_activations(0)),
            on_end=_checked(_end_activations(0)),
        ),
        Phase(
            TurnPhase.SECOND,
            ACTIVATION_KINDS,
            to_act=_activating(1),
            on_begin=_checked(_begin_activations(1)),
            on_end=_checked(_end_activations(1)),
        ),
    ],
    lambda state: state.flow,
    on_turn_begin=_checked(start_turn),
    on_turn_end=_checked(end_turn),
    game_over=_over,
)


def in_play(state: PortableState) -> bool:
    """Whether the decision now due is play: a side's activations (portable.turn.sequence).
    The artillery targets both sides declare before the initiative is rolled are
    simultaneous, so the first player of ``umpire simulate`` (the ``in_play`` capability) is
    the side that activates first, not the one whose declaration the engine asks for first."""
    return state.flow.phase in (TurnPhase.FIRST, TurnPhase.SECOND) and not state.flow.over


# -- the activated unit -------------------------------------------------------------------------
def activate(state: PortableState, side: str, uid: str) -> None:
    """Push the activated unit's decisions (it acts until it ends its activation)."""
    FLOW.push(
        state,
        Pending(
            side=side,
            kinds=ACT_KINDS,
            stage=Stage.ACT,
            data={"unit": uid, "must_face": False, "assault_square": None, "advance_to": None},
        ),
    )


def activation(state: PortableState) -> Pending | None:
    """The activated unit's pending decision, if a unit is activated."""
    for decision in reversed(state.flow.stack):
        if isinstance(decision, Pending) and decision.stage != Stage.RETREAT:
            return decision
    return None


def end_activation(state: PortableState) -> None:
    found = activation(state)
    if found is not None:
        state.flow.stack.remove(found)


def _set_stage(decision: Pending, stage: Stage, kinds: tuple[str, ...]) -> None:
    decision.stage = stage
    decision.kinds = kinds


def settle(state: PortableState) -> list[Event]:
    """Run the automatic steps of the turn until someone must decide (or the battle is over)."""
    world = world_of(state)
    flow = state.flow
    events: list[Event] = []
    while True:
        events += check_annihilation(world, state)
        events += FLOW.advance(state)
        if flow.over or not flow.stack:
            return events
        top = flow.stack[-1]
        assert isinstance(top, Pending)
        unit = state.units[top.data["unit"]]
        if top.stage == Stage.RETREAT:
            if not unit.alive:
                flow.stack.pop()
            elif not retreat_squares(world, state, unit):
                flow.stack.pop()
                spare = bool(top.data.get("spares_last_sp"))
                events += stand(world, state, unit, unable=True, spare=spare)
            else:
                return events
            continue
        data = top.data
        if not unit.alive:
            flow.stack.pop()
            continue
        if data["assault_square"] is not None:
            square = (data["assault_square"][0], data["assault_square"][1])
            data["assault_square"] = None
            empty = not any(u.alive and not u.air and u.pos == square for u in state.units.values())
            if empty and adjacent(unit.pos, square) and may_advance(world, state, unit):
                data["advance_to"] = [square[0], square[1]]
            continue
        if data["advance_to"] is not None:
            _set_stage(top, Stage.ADVANCE, ADVANCE_KINDS)
            return events
        if data["must_face"]:
            options = facing_options(world, state, unit)
            if len(options) == 1:
                data["must_face"] = False
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
            _set_stage(top, Stage.FACE, FACE_KINDS)
            return events
        _set_stage(top, Stage.ACT, ACT_KINDS)
        return events


def begin(state: PortableState) -> list[Event]:
    """Turn 1 begins (at set-up)."""
    return FLOW.start(state) + settle(state)


# -- what players read ---------------------------------------------------------------------------
def decision(state: PortableState) -> tuple[Decision, str | None, str | None]:
    """The decision the game waits for, who makes it and the unit it is about."""
    if state.flow.over:
        return Decision.OVER, None, None
    top = FLOW.top(state)
    if isinstance(top, Pending):
        return Decision(str(top.stage)), top.side, top.data.get("unit")
    side, _ = FLOW.decision(state)
    if state.flow.phase == TurnPhase.ARTILLERY:
        return Decision.ARTILLERY, side, None
    return Decision.ACTIVATE, side, None


def flow_summary(state: PortableState) -> dict[str, Any]:
    """The flow as menus and the web table read it: the core position plus the decision, the
    side to act, the activated unit and the activations left."""
    kind, side, unit = decision(state)
    act = activation(state)
    return {
        **state.flow.to_dict(),
        "decision": str(kind),
        "to_act": side,
        "unit": unit,
        "activation": {"unit": act.data["unit"]} if act is not None else None,
        "activations_left": state.turn_info.activations_left,
        "order": [str(s) for s in state.turn_info.order],
    }


def where(square: list[int]) -> str:
    return label((square[0], square[1]))
