"""A tiny two-player ruleset with secrets, to check that nothing hidden leaks to a seat.

Each side has a visible unit and a secret one, and a hand of cards. ``observation`` strips the
other side's secret unit and hand; events about secrets carry ``visible_to`` (one with a public
stand-in). Nothing in the server knows this ruleset: it registers at run time.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note, roll
from umpire.core.ruleset import Capabilities, Outcome, RulesetBase, RulesetMeta

SECRETS = ("b-secret", "B-KING-OF-SPADES", "SECRET-B-MOVE", "SECRET-B-DEPLOY")


class _State(dict[str, Any]):
    """Plain data, plus the set-up events ``RulesetBase.setup_events`` reads."""

    setup_events: list[Event]


class HexBoard:
    """A hex board, to show that the page is not tied to one layout."""

    kind = "hexes"

    def board(
        self, game: Any, observation: Mapping[str, Any], viewer: str | None
    ) -> dict[str, Any]:
        return {
            "layout": "hex",
            "width": 4,
            "height": 6,
            "cells": [{"x": x, "y": y, "terrain": "open"} for x in range(4) for y in range(6)],
            "units": [
                {
                    "id": u["uid"],
                    "name": u["uid"],
                    "side": u["side"],
                    "x": u["x"],
                    "y": u["y"],
                    "facing": 90,
                    "sidc": "SFGPUCI--------" if u["side"] == viewer else "SHGPUCI--------",
                }
                for u in observation["units"]
            ],
            "hand": observation["hands"].get(viewer, []),
            "status": {"turn": observation["turn"]},
        }

    def action_details(
        self, game: Any, observation: Mapping[str, Any], viewer: str, action: Action
    ) -> dict[str, Any] | None:
        if action.kind == "shoot":
            return {"p_hit": 0.5, "p_kill": 0.5}
        return None


class StubHidden(RulesetBase[_State]):
    meta = RulesetMeta(
        id="stubhidden",
        version="1",
        title="Stub with secrets",
        players=("a", "b"),
        information="imperfect",
    )
    capabilities = Capabilities(board=HexBoard(), side_colours={"a": "green", "b": "purple"})

    def scenario_ids(self) -> list[str]:
        return ["duel"]

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> _State:
        state = _State(
            {
                "turn": 0,
                "to_act": "a",
                "units": [
                    {"uid": "a-1", "side": "a", "x": 1, "y": 1},
                    {"uid": "a-secret", "side": "a", "x": 2, "y": 1, "hidden": True},
                    {"uid": "b-1", "side": "b", "x": 1, "y": 5},
                    {"uid": "b-secret", "side": "b", "x": 2, "y": 5, "hidden": True},
                ],
                "hands": {"a": ["A-QUEEN-OF-HEARTS"], "b": ["B-KING-OF-SPADES"]},
            }
        )
        state.setup_events = [
            note("setup", "duel"),
            note("deploy", "A hides A-SECRET-DEPLOY", visible_to=["a"]),
            note(
                "deploy",
                "B hides SECRET-B-DEPLOY at 2,5",
                visible_to=["b"],
                public=note("deploy", "B hides a unit"),
            ),
        ]
        return state

    def to_act(self, state: _State) -> str | None:
        return None if state["turn"] >= 6 else str(state["to_act"])

    def legal_actions(self, state: _State) -> list[Action]:
        if state["turn"] >= 6:
            return []
        if state["to_act"] == "a":
            return [Action("pass"), Action("shoot", unit="a-1", target="b-1")]
        return [Action("pass"), Action("sneak", unit="b-secret", point=(3, 5))]

    def apply(self, state: _State, action: Action) -> list[Event]:
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"{action.kind} is not allowed now", "stub.order")
        side = state["to_act"]
        events: list[Event] = [note("note", f"{side} plays {action.kind}")]
        if action.kind == "sneak":
            events.append(note("note", "SECRET-B-MOVE to 3,5", visible_to=["b"]))
            state["units"][3]["x"] = 3
        if action.kind == "shoot":
            events.append(roll("stub.shoot", "shot", [4], 4, 4, True))
        state["turn"] += 1
        state["to_act"] = "b" if side == "a" else "a"
        return events

    def outcome(self, state: _State) -> Outcome | None:
        return Outcome("draw", "turn limit") if state["turn"] >= 6 else None

    def observation(self, state: _State, player: str) -> dict[str, Any]:
        data = copy.deepcopy(dict(state))
        data["units"] = [u for u in data["units"] if u["side"] == player or not u.get("hidden")]
        data["hands"] = {player: data["hands"][player]}
        return data

    def state_to_dict(self, state: _State) -> dict[str, Any]:
        return copy.deepcopy(dict(state))

    def state_from_dict(self, data: Mapping[str, Any]) -> _State:
        return _State(copy.deepcopy(dict(data)))

    def clone(self, state: _State) -> _State:
        return copy.deepcopy(state)

    def describe(self, state: _State, action: Action) -> str:
        return f"{action.kind} {action.target or ''}".strip()

    def summary(self, state: _State) -> dict[str, Any]:
        return {"turns": state["turn"]}
