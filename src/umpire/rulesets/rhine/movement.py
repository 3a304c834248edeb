"""The movement phase's decisions: which units may move (rhine.move.static,
rhine.reinf.entry), a move by normal, column or helicopter movement (rhine.move.costs,
rhine.move.column, rhine.heli.ignore) with its helicopter loss roll (rhine.heli.loss), and
the roll of a jammed helicopter's movement allowance (rhine.ew.effect.one)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.move_answers import (
    checked_answers,
    checked_listing,
    modes_for,
    unit_answers,
    unit_moves,
)
from umpire.rulesets.rhine.position import ST, eliminate, enter, segment, world


def movable(state: ST, side: str) -> list[str]:
    key = ("movable", side)
    found = state.memo.get(key)
    if found is None:
        found = state.memo[key] = R.movable_units(
            world(state), state.status, state.moved, side, state.flow.turn
        )
    return list(found)


def may_move(state: ST, side: str, unit: str | None) -> bool:
    """Whether ``unit`` is one of :func:`movable` (rules.movable_units) for ``side``, read
    for that unit alone: ``side``'s, not moved this phase, not a static garrison, and on
    the map or a reinforcement due by this turn (rhine.reinf.entry, rhine.move.static)."""
    found = state.memo.get(("movable", side))
    if found is not None:
        return unit in found
    if unit is None:
        return False
    info = world(state).units.get(unit)
    if info is None or info.side != side or unit in state.moved or info.static:
        return False
    here = state.status[unit]
    if here == "on":
        return True
    if here == "waiting":
        spec = world(state).entry.get(unit)
        return spec is not None and spec.turn <= state.flow.turn
    return False


# move actions are immutable values: each is made once and listed again in later positions
_MOVE_ACTIONS: dict[tuple[str, str, str], Action] = {}


# each unit's move actions, with the answers they were made from: while a later position
# gives the unit the very same answers (by identity), the same actions are listed again
_UNIT_ACTIONS: dict[str, tuple[tuple[tuple[R.MoveOption, ...], ...], list[Action]]] = {}


# each unit's move actions per answer (by the answer's identity, the answer kept alongside)
_ANSWER_ACTIONS: dict[tuple[str, int], tuple[tuple[R.MoveOption, ...], list[Action]]] = {}


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


class MoveKind(ActionKind[ST]):
    name = "move"
    rule = "rhine.move.costs"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        if segment(state) != "move":
            return []
        out: list[Action] = []
        known = _MOVE_ACTIONS
        if len(known) > 65536:
            known.clear()
        for u in movable(state, side):
            answers = unit_answers(state, u)
            made = _UNIT_ACTIONS.get(u)
            if made is not None and _same(made[0], answers):
                out.extend(made[1])
                continue
            acts = []
            for answer in answers:
                # each answer's actions for this unit, made once while the answer lives
                made_for = _ANSWER_ACTIONS.get((u, id(answer)))
                if made_for is not None and made_for[0] is answer:
                    acts.extend(made_for[1])
                    continue
                these = []
                for opt in answer:
                    key = (u, opt.dest, opt.mode)
                    a = known.get(key)
                    if a is None:
                        a = known[key] = Action("move", unit=u, cell=opt.dest, option=opt.mode)
                    these.append(a)
                if len(_ANSWER_ACTIONS) > 4096:
                    _ANSWER_ACTIONS.clear()
                _ANSWER_ACTIONS[(u, id(answer))] = (answer, these)
                acts.extend(these)
            _UNIT_ACTIONS[u] = (answers, acts)
            out.extend(acts)
        return out

    def _find(self, state: ST, side: str, action: Action, paths: bool = False) -> R.MoveOption:
        if segment(state) != "move":
            raise IllegalActionError("units move only in their movement phase", self.rule)
        u = action.unit
        if u is None or not may_move(state, side, u):
            raise IllegalActionError(f"{u} cannot move now (moved, static or not yours)", self.rule)
        checked = state.memo.get("move_checked")
        answer: tuple[R.MoveOption, ...] | R.GroundListing
        opt: R.MoveOption
        if checked is not None and checked[0] is action:
            answer, opt = checked[1], checked[2]  # found by the check in this position
        else:
            answer, opt = self._answer(state, u, action)
            state.memo["move_checked"] = (action, answer, opt)
        if not paths or opt.mode == "heli":
            return opt  # a flight's route is listed with it
        # the route is walked only to the destination asked for, from the search the
        # listing made; should that be forgotten, by a listing of the mode asked for walked
        # to that destination (the same option)
        route = R.answer_route(answer, opt.dest)
        if route is not None:
            return R.MoveOption(opt.dest, opt.mode, opt.cost, route)
        found = unit_moves(state, u, True, action.cell, modes_for(action.option))
        for walked in found:
            if walked.dest == action.cell and walked.mode == action.option:
                return walked
        raise IllegalActionError(  # (the listing and the walk disagree: never expected)
            f"{u} cannot reach {action.cell} by {action.option} movement", self.rule
        )

    def _answer(
        self, state: ST, u: str, action: Action
    ) -> tuple[tuple[R.MoveOption, ...] | R.GroundListing, R.MoveOption]:
        """The answer holding the move asked for, and its option in it: for a ground move
        in a position not listed, read from the listing of its mode without making every
        option (rules.ground_listing)."""
        cell, mode = action.cell, action.option
        applies, listing = checked_listing(state, u, mode)
        if applies:
            opt = None if listing is None or mode is None else listing.option(cell or "", mode)
            if listing is not None and opt is not None:
                return listing, opt
            raise IllegalActionError(f"{u} cannot reach {cell} by {mode} movement", self.rule)
        for answer in checked_answers(state, u, mode):
            for opt in answer:
                if opt.dest == cell and opt.mode == mode:
                    return answer, opt
        raise IllegalActionError(f"{u} cannot reach {cell} by {mode} movement", self.rule)

    def check(self, state: ST, side: str, action: Action) -> None:
        self._find(state, side, action)

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        w = world(state)
        opt = self._find(state, side, action, paths=True)
        state.memo.clear()  # the position changes below
        u = opt_unit = action.unit
        assert u is not None and opt_unit is not None
        state.moved.append(u)
        frm = state.pos[u] or "off-map"
        events: list[Event] = []
        path = [h for h in opt.path if h != state.pos[u]]
        if opt.dest == "exit":
            if opt.mode == "heli" and opt.cost > 0:
                # rhine.heli.loss: a flight that crossed enemy hexes or zones on its way off
                # the map rolls as any other (it ends in no city)
                test = R.heli_loss_test(w, state.air_holder == R.other(side), True, False, u)
                if test.sample(state.rng, events):
                    enter(state, u, path)
                    events.append(eliminate(state, u, "helicopter loss roll", "rhine.heli.loss"))
                    return events
            enter(state, u, path)
            state.pos[u] = None
            state.status[u] = "exited"
            return [
                *events,
                note(
                    "exit",
                    f"{u} leaves the map westward from {path[-1] if path else frm}",
                    "rhine.scenario.exit",
                    unit=u,
                ),
            ]
        enter(state, u, path)
        rule = {"column": "rhine.move.column", "heli": "rhine.heli.ignore"}.get(
            opt.mode, "rhine.move.costs"
        )
        words = "" if opt.mode == "normal" else f" in {opt.mode} mode"
        spent = "" if opt.mode == "heli" else f" ({opt.cost:g} MP)"
        events.append(
            note(
                "move",
                f"{u} moves {frm} -> {opt.dest}{words}{spent}",
                rule,
                unit=u,
                path=list(opt.path),
                mode=opt.mode,
            )
        )
        if frm == "off-map":
            events.append(note("arrive", f"{u} enters the map at {path[0]}", "rhine.reinf.entry"))
        if opt.mode == "heli":
            crossed = opt.cost > 0
            city = w.is_city(opt.dest)
            if crossed or city:
                test = R.heli_loss_test(w, state.air_holder == R.other(side), crossed, city, u)
                if test.sample(state.rng, events):
                    events.append(eliminate(state, u, "helicopter loss roll", "rhine.heli.loss"))
        return events

    def describe(self, state: ST, side: str, action: Action) -> str:
        mode = "" if action.option == "normal" else f" ({action.option})"
        if action.cell == "exit":
            return f"{action.unit} exits the map{mode}"
        return f"move {action.unit} to {action.cell}{mode}"


class HeliMAKind(ActionKind[ST]):
    name = "heli_ma"
    rule = "rhine.ew.effect.one"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        if segment(state) != "move":
            return []
        return [
            Action("heli_ma", unit=u)
            for u in R.heli_ma_units(world(state), movable(state, side), state.ew, state.heli_ma)
        ]

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        from umpire.core.chance import Roll

        assert action.unit is not None
        events: list[Event] = []
        faces = Roll(
            2,
            6,
            self.rule,
            lambda f: f"{action.unit} is jammed: its helicopter MA is 2d6 {list(f)} = {sum(f)}",
        ).sample(state.rng, events)
        state.heli_ma[action.unit] = sum(faces)
        return events

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"roll {action.unit}'s jammed helicopter MA"
