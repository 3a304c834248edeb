"""core/flow.py: phases advance with their hooks in order, turns wrap, pending decisions come
first, and a secret commitment shows the later side nothing of the earlier one's choice."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import pytest

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note, seen_by
from umpire.core.flow import (
    ActionKind,
    Flow,
    FlowRules,
    FlowState,
    Pending,
    Phase,
    SecretCommit,
)


@dataclass
class Toy:
    flow: FlowState = field(default_factory=FlowState)
    calls: list[str] = field(default_factory=list)
    moves: dict[str, int] = field(default_factory=dict)  # moves made this turn, by side
    bids: dict[str, str] = field(default_factory=dict)
    stop: bool = False


def hook(name: str, push: bool = False) -> Callable[[Toy], list[Event]]:
    def run(state: Toy) -> list[Event]:
        state.calls.append(f"{name}@{state.flow.turn}")
        if push:
            state.flow.stack.append(SecretCommit(("a", "b"), ("bid",), "bid"))
        return [note("hook", name)]

    return run


class Move(ActionKind[Toy]):
    name, rule = "move", "toy.move"

    def options(self, state: Toy, side: str) -> Iterable[Action]:
        return [Action("move", option="1"), Action("move", option="2")]

    def resolve(self, state: Toy, side: str, action: Action) -> list[Event]:
        state.moves[side] = state.moves.get(side, 0) + 1
        if action.option == "2":  # a move of 2 lets the other side answer first
            state.flow.stack.append(Pending("b" if side == "a" else "a", ("answer",), "react"))
        return [note("move", f"{side} moves {action.option}", self.rule)]


class Answer(ActionKind[Toy]):
    name, rule = "answer", "toy.answer"

    def options(self, state: Toy, side: str) -> Iterable[Action]:
        return [Action("answer")]

    def resolve(self, state: Toy, side: str, action: Action) -> list[Event]:
        state.flow.stack.pop()
        return [note("answer", f"{side} answers", self.rule)]


class Bid(ActionKind[Toy]):
    name, rule = "bid", "toy.bid"

    def options(self, state: Toy, side: str) -> Iterable[Action]:
        return [Action("bid", option=str(n)) for n in range(3)]

    def resolve(self, state: Toy, side: str, action: Action) -> list[Event]:
        state.bids[side] = str(action.option)
        return [note("bid", f"{side} bid {action.option}", self.rule)]

    def describe(self, state: Toy, side: str, action: Action) -> str:
        return f"bid {action.option}"


def mover(state: Toy) -> str | None:
    return next((s for s in ("a", "b") if state.moves.get(s, 0) == 0), None)


def clear(state: Toy) -> list[Event]:
    state.calls.append(f"turn_begin@{state.flow.turn}")
    state.moves = {}
    return []


def rules(with_bids: bool = False) -> FlowRules[Toy]:
    phases = [
        Phase[Toy]("bids", on_begin=hook("bids.begin", push=with_bids)),
        Phase[Toy](
            "moves",
            ("move",),
            to_act=mover,
            on_begin=hook("moves.begin"),
            on_end=hook("moves.end"),
        ),
        Phase[Toy]("admin", on_begin=hook("admin.begin")),
    ]
    flow = Flow(
        phases,
        lambda s: s.flow,
        on_turn_begin=clear,
        on_turn_end=hook("turn_end"),
        game_over=lambda s: s.stop,
    )
    return FlowRules(flow, [Move(), Answer(), Bid()])


def test_phases_advance_hooks_fire_in_order_and_the_turn_wraps() -> None:
    game, state = rules(), Toy()
    game.flow.start(state)
    assert state.calls == ["turn_begin@1", "bids.begin@1", "moves.begin@1"]
    assert (state.flow.phase, game.to_act(state)) == ("moves", "a")
    game.apply(state, Action("move", option="1"))
    assert game.to_act(state) == "b"
    state.calls.clear()
    events = game.apply(state, Action("move", option="1"))
    assert state.calls == [
        "moves.end@1",
        "admin.begin@1",
        "turn_end@1",
        "turn_begin@2",
        "bids.begin@2",
        "moves.begin@2",
    ]
    assert [e.text for e in events][1:] == [
        "moves.end",
        "admin.begin",
        "turn_end",
        "bids.begin",
        "moves.begin",
    ]
    assert (state.flow.turn, state.flow.phase, game.to_act(state)) == (2, "moves", "a")


def test_game_over_stops_the_flow() -> None:
    game, state = rules(), Toy()
    game.flow.start(state)
    state.stop = True
    game.apply(state, Action("move", option="1"))
    assert state.flow.over and game.to_act(state) is None and game.legal_actions(state) == []
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(state, Action("move", option="1"))


def test_a_pending_decision_comes_first() -> None:
    game, state = rules(), Toy()
    game.flow.start(state)
    game.apply(state, Action("move", option="2"))
    assert game.to_act(state) == "b"
    assert game.legal_actions(state) == [Action("answer")]
    with pytest.raises(IllegalActionError, match="answer"):
        game.apply(state, Action("move", option="1"))
    assert len(state.flow.stack) == 1 and state.moves == {"a": 1}
    game.apply(state, Action("answer"))
    assert game.to_act(state) == "b" and game.legal_actions(state)[0].kind == "move"


def test_an_action_not_among_the_options_is_refused_with_the_rule() -> None:
    game, state = rules(), Toy()
    game.flow.start(state)
    with pytest.raises(IllegalActionError, match=r"rule toy\.move"):
        game.apply(state, Action("move", option="9"))
    assert state.moves == {}


def test_flow_declarations_are_checked() -> None:
    with pytest.raises(ValueError, match="repeat"):
        Flow([Phase[Toy]("x"), Phase[Toy]("x")], lambda s: s.flow)
    with pytest.raises(ValueError, match="undefined kinds"):
        FlowRules(Flow([Phase[Toy]("x", ("fly",))], lambda s: s.flow), [Move()])


def _after_first_bid(bid: str) -> tuple[FlowRules[Toy], Toy, list[Event]]:
    game, state = rules(with_bids=True), Toy()
    events = game.flow.start(state)
    assert game.to_act(state) == "a"
    events += game.apply(state, Action("bid", option=bid))
    return game, state, events


def test_secret_commit_shows_the_second_side_nothing_of_the_first_choice() -> None:
    views = []
    for bid in ("0", "1", "2"):
        game, state, events = _after_first_bid(bid)
        assert game.to_act(state) == "b"
        views.append(
            (
                state.flow.to_dict(viewer="b"),
                [e.to_dict() for e in seen_by(events, "b")],
                game.legal_actions(state),
                [game.describe(state, a) for a in game.legal_actions(state)],
            )
        )
        # the first side reads its own choice
        assert state.flow.to_dict(viewer="a")["stack"][0]["committed"]["a"]["option"] == bid
        assert any(f"bid {bid}" in e.text for e in seen_by(events, "a"))
        assert state.bids == {}  # nothing resolved before both have committed
    assert views[0] == views[1] == views[2]
    assert views[0][0]["stack"][0]["committed"] == {"a": "hidden"}


def test_secret_commit_reveals_together_in_declared_order() -> None:
    game, state, _ = _after_first_bid("2")
    events = game.apply(state, Action("bid", option="0"))
    assert state.bids == {"a": "2", "b": "0"}
    assert [e.text for e in events if e.kind == "bid"] == ["a bid 2", "b bid 0"]
    commit = events[0]
    assert commit.visible_to == frozenset({"b"}) and commit.public is not None
    assert game.to_act(state) == "a" and state.flow.phase == "moves"


def test_flow_state_round_trips_with_its_stack() -> None:
    state = FlowState(turn=3, phase="moves", stage="react", active="a")
    state.stack = [
        Pending("b", ("answer",), "react", {"unit": "u1"}),
        SecretCommit(("a", "b"), ("bid",), "bid", committed={"a": {"kind": "bid"}}),
    ]
    back = FlowState.from_dict(state.to_dict())
    assert back == state
    assert state.clone() == state and state.clone() is not state
    assert state.to_dict(viewer="b")["stack"][1]["committed"] == {"a": "hidden"}


def test_a_saved_position_does_not_change_when_play_goes_on() -> None:
    """FlowState.to_dict is a snapshot: a pending decision's data (and a secret commitment's)
    shares no dict or list with the live game, nor does a state read back from it."""
    from umpire.core.flow import FlowState, Pending, SecretCommit

    live = FlowState(
        stack=[
            Pending("a", ("react",), "react", {"units": ["u1"], "at": {"x": 1}}),
            SecretCommit(("a", "b"), ("cs",), "support", data={"hexes": ["0101"]}),
        ]
    )
    saved = live.to_dict()
    pending, secret = live.stack
    assert isinstance(pending, Pending) and isinstance(secret, SecretCommit)
    pending.data["units"].append("u2")
    pending.data["at"]["x"] = 9
    secret.data["hexes"].append("0202")
    assert saved["stack"][0]["data"] == {"units": ["u1"], "at": {"x": 1}}
    assert saved["stack"][1]["data"] == {"hexes": ["0101"]}
    restored = FlowState.from_dict(saved)
    restored_pending = restored.stack[0]
    assert isinstance(restored_pending, Pending)
    restored_pending.data["units"].append("u3")
    assert saved["stack"][0]["data"]["units"] == ["u1"]
