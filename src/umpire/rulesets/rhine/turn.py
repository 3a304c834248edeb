"""The turn's sequence (rhine.sequence.turn): its beginning (rhine.scale.turn, support back
from rest, rhine.cs.pool), each side's choice of order (rhine.order.choose), the player-turn
segments it sets (rhine.order.effect.phases), and the kind that stops placing markers, ends
a phase or declines a momentum attack."""

from __future__ import annotations

from collections.abc import Iterable

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind
from umpire.rulesets.rhine.model import SIDES
from umpire.rulesets.rhine.position import ST, phase_side, segment, world

ORDERS = ("move-fight", "fight-move")


# the order actions, made once (actions are immutable values)
_ORDER_ACTIONS = tuple(Action("order", option=o) for o in ORDERS)


class OrderKind(ActionKind[ST]):
    name = "order"
    rule = "rhine.order.choose"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        return list(_ORDER_ACTIONS)

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        assert action.option is not None
        state.order[side] = action.option
        limit = world(state).tables.cs.artillery_limit[action.option]  # type: ignore[index]
        return [
            note(
                "order",
                f"{side} chooses {action.option} (artillery support up to {limit} per combat)",
                "rhine.order.choose",
                side=side,
                order=action.option,
            )
        ]

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"choose {action.option}"


class StopKind(ActionKind[ST]):
    """Stop placing markers (air, EW) or end a phase."""

    def __init__(self, name: str, rule: str, words: str) -> None:
        self.name = name
        self.rule = rule
        self.words = words
        self.action = Action(name)  # the one action of this kind (an immutable value)

    def options(self, state: ST, side: str) -> Iterable[Action]:
        return [self.action]

    def check(self, state: ST, side: str, action: Action) -> None:
        """Allowed exactly when it is the one listed action (the core's default check)."""
        if action is not self.action and action != self.action:
            raise IllegalActionError(self.refusal(state, side, action), self.rule)

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        if self.name == "stop_air":
            state.air_to_place = 0
        elif self.name == "stop_ew":
            state.ew_to_place = 0
        elif self.name == "end_phase":
            state.phase_done = True
        elif self.name == "decline":
            state.flow.stack.pop()
            return [note("momentum", f"{side} makes no momentum attack", "rhine.momentum")]
        return [note(self.name, f"{side} {self.words}", self.rule)]

    def describe(self, state: ST, side: str, action: Action) -> str:
        return self.words


def on_turn_begin(state: ST) -> list[Event]:
    w = world(state)
    turn = state.flow.turn
    state.order = {}
    state.momentum_used = []
    state.probed = []
    state.heli_ma = {}
    back = []
    for m in state.cs:
        if m.status in ("later", "resting") and m.back <= turn:
            m.status = "ready"
            back.append(m.id)
    label = w.turns[turn - 1].label
    events = [
        note("turn", f"Turn {turn} of {len(w.turns)}: {label}", "rhine.scale.turn", turn=turn)
    ]
    if back:
        events.append(
            note(
                "cs_back",
                f"support available again or arriving: {', '.join(back)}",
                "rhine.cs.pool",
            )
        )
    return events


def order_to_act(state: ST) -> str | None:
    for s in SIDES:
        if s not in state.order:
            return s
    return None


def segment_begin(state: ST) -> list[Event]:
    state.phase_done = False
    state.moved = []
    state.attacked = []
    side = phase_side(state)
    return [note("phase", f"{side} {segment(state)} phase", "rhine.order.effect.phases")]


def segment_to_act(state: ST) -> str | None:
    return None if state.phase_done else phase_side(state)
