"""A combat's result worked through (rhine.crt.results): attacker or defender eliminated,
exchanges and the attacker's choice of losses, retreats by their paths (rhine.retreat.path,
static garrisons eliminated, rhine.move.static), advance after combat (rhine.advance) and the
momentum attack it opens; each step with one possible outcome settled, the others pushed as
decisions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from umpire.core.actions import Action
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind, Pending
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.attacks import push_momentum
from umpire.rulesets.rhine.position import ST, eliminate, enter, top, world


class RetreatKind(ActionKind[ST]):
    name = "retreat"
    rule = "rhine.retreat.path"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        t = top(state)
        return [Action("retreat", cell=p[-1]) for p in t.data["paths"]]

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        t = state.flow.stack.pop()
        path = next(p for p in t.data["paths"] if p[-1] == action.cell)
        return do_retreat(state, t.data["units"], t.data["from"], path) + proceed_combat(state)

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"retreat to {action.cell}"


class ExLossKind(ActionKind[ST]):
    name = "ex_loss"
    rule = "rhine.crt.results"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        t = top(state)
        return [Action("ex_loss", units=tuple(o)) for o in t.data["options"]]

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        state.flow.stack.pop()
        events = [eliminate(state, u, "exchange", self.rule) for u in action.units]
        return events + proceed_combat(state)

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"lose {'+'.join(action.units)} in the exchange"


def advance_options(state: ST) -> list[tuple[str, ...]]:
    combat = state.combat
    assert combat is not None
    w = world(state)
    target = combat["target"]
    if state.units_at(target):
        return []
    alive = [
        u
        for u in combat["units"]
        if state.pos.get(u) and target in w.neighbours[state.pos[u] or ""] and not w.units[u].static
    ]
    occ = R.occupancy(w, state)
    out: list[tuple[str, ...]] = []
    import itertools

    for k in range(1, len(alive) + 1):
        for combo in itertools.combinations(alive, k):
            if R.can_join(w, occ, target, combo):
                out.append(combo)
    return out


class AdvanceKind(ActionKind[ST]):
    name = "advance"
    rule = "rhine.advance"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        opts = [Action("advance", units=o) for o in advance_options(state)]
        if side == "nato" or not opts:
            opts.append(Action("advance", units=()))
        return opts

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        state.flow.stack.pop()
        combat = state.combat
        assert combat is not None
        target = combat["target"]
        for u in action.units:
            enter(state, u, [target])
        combat["advanced"] = list(action.units)
        if not action.units:
            ev = note("advance", f"{side} does not advance into {target}", self.rule)
        else:
            ev = note(
                "advance",
                f"{', '.join(action.units)} advance into {target}",
                self.rule,
                units=list(action.units),
                cell=target,
            )
        return [ev] + proceed_combat(state)

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"advance {'+'.join(action.units)}" if action.units else "do not advance"


def do_retreat(state: ST, units: list[str], frm: str, path: list[str]) -> list[Event]:
    for u in units:
        enter(state, u, path)
    return [
        note(
            "retreat",
            f"{', '.join(units)} retreat {frm} -> {' -> '.join(path)}",
            "rhine.retreat.path",
            units=list(units),
            path=list(path),
        )
    ]


def proceed_combat(state: ST) -> list[Event]:
    """Work through the steps a combat result left (retreats, losses, advance, momentum),
    settling those with one possible outcome and pushing a decision for the others."""
    combat = state.combat
    events: list[Event] = []
    w = world(state)
    while combat is not None and combat["todo"]:
        step = combat["todo"].pop(0)
        kind = step["step"]
        if kind == "retreat":
            units = [u for u in step["units"] if state.pos.get(u)]
            if not units:
                continue
            paths = R.retreat_options(w, state, units, step["from"], step["away"], step["length"])
            if not paths:
                for u in units:
                    events.append(eliminate(state, u, "no retreat open", "rhine.retreat.path"))
            elif len(paths) == 1:
                events += do_retreat(state, units, step["from"], list(paths[0]))
            else:
                state.flow.stack.append(
                    Pending(
                        step["side"],
                        ("retreat",),
                        "retreat",
                        {"units": units, "from": step["from"], "paths": [list(p) for p in paths]},
                    )
                )
                return events
        elif kind == "ex_loss":
            units = [u for u in step["units"] if state.pos.get(u)]
            opts = R.ex_loss_options(w, units, step["need"])
            if len(opts) == 1:
                for u in opts[0]:
                    events.append(eliminate(state, u, "exchange", "rhine.crt.results"))
            else:
                state.flow.stack.append(
                    Pending(
                        combat["attacker"],
                        ("ex_loss",),
                        "ex_loss",
                        {"options": [list(o) for o in opts]},
                    )
                )
                return events
        elif kind == "advance":
            opts = advance_options(state)
            if not opts:
                continue
            state.flow.stack.append(
                Pending(combat["attacker"], ("advance",), "advance", {"target": combat["target"]})
            )
            return events
        elif kind == "momentum" and not combat.get("momentum") and combat.get("advanced"):
            side = combat["attacker"]
            state.combat = None
            push_momentum(state, side, list(combat["advanced"]))
            return events
    state.combat = None
    if combat is not None and combat.get("momentum_rest"):
        # a momentum attack over: the other advancing units still have theirs (rhine.momentum)
        push_momentum(state, combat["attacker"], list(combat["momentum_rest"]))
    return events


def apply_result(state: ST, result: str) -> list[Event]:
    combat = state.combat
    assert combat is not None
    w = world(state)
    attacker = combat["attacker"]
    target = combat["target"]
    units = [u for u in combat["units"] if state.pos.get(u)]
    defenders = [u for u in combat["defenders"] if state.pos.get(u)]
    events: list[Event] = []
    todo: list[dict[str, Any]] = []
    if result == "AE":
        events += [eliminate(state, u, "AE", "rhine.crt.results") for u in units]
    elif result == "AR":
        by_hex: dict[str, list[str]] = {}
        for u in units:
            by_hex.setdefault(state.pos[u] or "", []).append(u)
        for h, group in sorted(by_hex.items()):
            todo.append(
                {
                    "step": "retreat",
                    "side": attacker,
                    "units": group,
                    "from": h,
                    "away": [target],
                    "length": 1,
                }
            )
    elif result == "EX":
        need = sum(w.units[u].strength for u in defenders)
        events += [eliminate(state, u, "EX", "rhine.crt.results") for u in defenders]
        todo.append({"step": "ex_loss", "units": units, "need": need})
        todo += [{"step": "advance"}, {"step": "momentum"}]
    elif result in ("DR1", "DR2"):
        mobile = [u for u in defenders if not w.units[u].static]
        for u in defenders:
            if w.units[u].static:
                events.append(
                    eliminate(state, u, "a static garrison cannot retreat", "rhine.move.static")
                )
        if mobile:
            todo.append(
                {
                    "step": "retreat",
                    "side": R.other(attacker),
                    "units": mobile,
                    "from": target,
                    "away": combat["from"],
                    "length": 1 if result == "DR1" else 2,
                }
            )
        todo += [{"step": "advance"}, {"step": "momentum"}]
    elif result == "DE":
        events += [eliminate(state, u, "DE", "rhine.crt.results") for u in defenders]
        todo += [{"step": "advance"}, {"step": "momentum"}]
    combat["todo"] = todo
    return events + proceed_combat(state)
