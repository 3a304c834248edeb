"""A throwaway ruleset no adapter names: two sides take 1 or 2 from a pile, whoever takes the
last wins; a d6 per take may add a bonus take. It declares a game option (``--pile N``), a
per-side option (``--SIDE-greedy``), a scripted player, odds and a status line, but no board
and no house rules, so the adapters' fallbacks are exercised too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from umpire.agents.base import View
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, UmpireError
from umpire.core.events import Event, note, roll
from umpire.core.rng import RandomStream
from umpire.core.ruleset import (
    Capabilities,
    Option,
    Outcome,
    RulesetBase,
    RulesetMeta,
    ScenarioInfo,
)

SIDES = ("north", "south")


class TakeOne:
    """Scripted: takes two when greedy or when two wins, else one."""

    name = "scripted"

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self.last_reason = ""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        pile = view.observation["pile"]
        want = "2" if pile == 2 or view.observation["greedy"].get(self.side) else "1"
        self.last_reason = f"take {want} of {pile}"
        return next((a for a in legal if a.option == want), legal[0])


class Odds:
    options = (Option("need", "d6 score for a bonus take", type="int", default=6),)

    def answer(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        need = values["need"]
        if not 1 <= need <= 6:
            raise UmpireError(f"--need {need}: 1 to 6")
        p = Fraction(7 - need, 6)
        return {"p_bonus": float(p)}, [f"bonus take on {need}+: {p}"]


class Pile(RulesetBase[dict[str, Any]]):
    meta = RulesetMeta(id="throwaway", version="1", title="Pile", players=SIDES)
    capabilities = Capabilities(
        options=(
            Option("pile", "tokens in the pile", type="int"),
            Option("greedy", "this side always takes two", type="bool", per_side=True),
        ),
        scripted=TakeOne,
        odds=Odds(),
        status_line=lambda state: f"pile {state['pile']}",
        side_colours={"north": "cyan", "south": "magenta"},
    )

    def scenario_ids(self) -> list[str]:
        return ["short", "long"]

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        return ScenarioInfo(scenario, scenario.title(), f"a {scenario} pile to empty")

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> dict[str, Any]:
        if scenario not in self.scenario_ids():
            raise UmpireError(f"unknown scenario {scenario!r}")
        pile = int(options.get("pile") or (7 if scenario == "short" else 15))
        return {
            "pile": pile,
            "to_act": "north",
            "winner": None,
            "greedy": dict(options.get("greedy") or {}),
            "rng": RandomStream(seed).to_dict(),
            "setup_events": [note("setup", f"a pile of {pile}")],
        }

    def setup_events(self, state: dict[str, Any]) -> list[Event]:
        return list(state["setup_events"])

    def to_act(self, state: dict[str, Any]) -> str | None:
        return None if state["winner"] else str(state["to_act"])

    def legal_actions(self, state: dict[str, Any]) -> list[Action]:
        if state["winner"]:
            return []
        return [Action("take", option=str(n)) for n in (1, 2) if n <= state["pile"]]

    def apply(self, state: dict[str, Any], action: Action) -> list[Event]:
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"{action.kind} {action.option} is not allowed", "pile.take")
        side = state["to_act"]
        stream = RandomStream.from_dict(state["rng"])
        die = stream.dice(1, 6)[0]
        state["rng"] = stream.to_dict()
        state["pile"] -= int(action.option or 1)
        events = [
            note("take", f"{side} takes {action.option}"),
            roll("pile.bonus", f"{side} rolls for a bonus", [die], die, 6, die == 6),
        ]
        if die == 6 and state["pile"] > 0:
            state["pile"] -= 1
            events.append(note("take", f"{side} takes a bonus one"))
        if state["pile"] <= 0:
            state["winner"] = side
            events.append(note("game_over", f"{side} takes the last"))
        state["to_act"] = SIDES[1 - SIDES.index(side)]
        return events

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return Outcome(state["winner"], "took the last") if state["winner"] else None

    def observation(self, state: dict[str, Any], player: str) -> dict[str, Any]:
        return {k: v for k, v in state.items() if k not in ("rng", "setup_events")}

    def state_to_dict(self, state: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in state.items() if k != "setup_events"}

    def state_from_dict(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)

    def clone(self, state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "greedy": dict(state["greedy"])}

    def describe(self, state: dict[str, Any], action: Action) -> str:
        return f"take {action.option}"

    def summary(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"turns": 0, "pile": state["pile"]}
