"""The set-up phase before the first turn's order choice (spec 5.5, 5.6): the sides set up in
the scenario's order of steps, NATO first (its fixed garrisons stand on their hexes, then
11 ACR, then 3 AD), then the Pact (rhine.setup.order); each unit goes to a hex of its step's
area (rhine.setup.area), never in a hex holding enemy units (rhine.move.enemy) and within the
stacking limits (rhine.stack.*); or a side takes the scenario's suggested set-up in one step
(rhine.setup.suggested). Both sides see every unit set up, as on a real map; a unit still to
set up is on no hex (status ``setup``).

Under rule switches only the area has a switch: under ``advise`` or ``off`` (a game at a
physical table, a free set-up) a unit may be set up in any hex of the map, each hex of its area
listed first, with a warning under ``advise`` for a hex outside it; the order of set-up, the
enemy's hexes and the stacking limits stay enforced."""

from __future__ import annotations

from collections.abc import Iterable

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind
from umpire.core.ruleset import DeployStep
from umpire.core.switches import switches_in
from umpire.rulesets.rhine.position import ST, enter, world
from umpire.rulesets.rhine.setup import initial_control

TO_SET_UP = "setup"  # a unit's status while it waits to be set up
ORDER_RULE = "rhine.setup.order"
AREA_RULE = "rhine.setup.area"
SUGGESTED_RULE = "rhine.setup.suggested"
ENEMY_RULE = "rhine.move.enemy"  # never in a hex the enemy holds (as in a move)


def setup_step(state: ST) -> int | None:
    """The set-up step now due: the first of the scenario's steps with a unit still to set up
    (None: the set-up is over, or the scenario has none)."""
    if state.flow.turn != 1:
        return None  # the set-up is done before turn 1's order choice, never later
    status = state.status
    for j, (_side, _fixed, _area, units) in enumerate(world(state).setup_steps):
        for u in units:
            if status.get(u) == TO_SET_UP:
                return j
    return None


def setup_to_act(state: ST) -> str | None:
    j = setup_step(state)
    return None if j is None else world(state).setup_steps[j][0]


def in_play(state: ST) -> bool:
    """Whether the decision now due is play rather than the set-up."""
    return setup_step(state) is None


def place_refusal(state: ST, side: str, unit: str, h: str) -> str | None:
    """Why ``side`` may not set ``unit`` up in ``h`` now (None: it may), under the game's
    rule switches."""
    found = place_problem(state, side, unit, h)
    return None if found is None else found[0]


def place_problem(state: ST, side: str, unit: str, h: str) -> tuple[str, str] | None:
    """Why ``side`` may not set ``unit`` up in ``h`` now and the rule that forbids it (None:
    it may). The area (rhine.setup.area) is read through the game's switches: enforced, a
    hex outside it is refused first; under ``advise`` its warning is noted last, only for a
    placement every other rule allows."""
    w = world(state)
    j = setup_step(state)
    if j is None:
        return "the set-up is over", ORDER_RULE
    step_side, _fixed, area, units = w.setup_steps[j]
    if unit not in w.units:
        return f"no unit {unit!r}", ORDER_RULE
    if w.units[unit].side != side:
        return f"{unit} is not {side}'s", ORDER_RULE
    if state.status.get(unit) != TO_SET_UP:
        return f"{unit} is not waiting to set up", ORDER_RULE
    if unit not in units:
        return (
            f"{unit} sets up in a later step: {side} sets up "
            f"{', '.join(u for u in units if state.status.get(u) == TO_SET_UP)} first",
            ORDER_RULE,
        )
    if h not in w.hex:
        return f"no hex {h} on the map", AREA_RULE
    switches = switches_in(state.options)
    outside = h not in area
    if outside and not switches.relaxed(AREA_RULE):
        return f"{h} is outside the set-up area of {unit} ({_area_words(area)})", AREA_RULE
    here = [u for u, p in state.pos.items() if p == h]
    if any(w.units[u].side != step_side for u in here):
        return f"{h} holds enemy units", ENEMY_RULE
    from umpire.rulesets.rhine.rules import stack_ok

    if not stack_ok(w, [w.units[u] for u in [*here, unit]]):
        stack = f"rhine.stack.{step_side}"
        return f"{unit} would over-stack {h} ({stack}): {', '.join(here)}", stack
    if outside:  # advise: the warning, for a placement every other rule allows
        detail = f"{unit} is set up in {h}, outside its set-up area ({_area_words(area)})"
        switches.allows(AREA_RULE, False, detail)
    return None


def setup_hexes(state: ST, area: tuple[str, ...]) -> tuple[str, ...]:
    """The hexes a unit of a step with ``area`` may be listed in: the area when
    rhine.setup.area is enforced, else every hex of the map, the area's first."""
    if not switches_in(state.options).relaxed(AREA_RULE):
        return area
    inside = set(area)
    return (*area, *(h for h in world(state).ids if h not in inside))


def _area_words(area: tuple[str, ...]) -> str:
    cols = sorted({int(h[:2]) for h in area})
    if cols and len(area) == len(cols) * len({h[2:] for h in area}):
        return f"columns {cols[0]:02d}-{cols[-1]:02d}"
    return ", ".join(area)


class PlaceKind(ActionKind[ST]):
    """Set one unit of the step now due up in a hex of its area (rhine.setup.area; under
    ``advise`` or ``off``, in any hex of the map)."""

    name = "place"
    rule = AREA_RULE

    def options(self, state: ST, side: str) -> Iterable[Action]:
        """Every unit of the step now due in every hex of its area it may go to (every hex
        of the map, the area's first, where rhine.setup.area is not enforced): the checks of
        :func:`place_problem`, with the map's stacks read once."""
        j = setup_step(state)
        if j is None:
            return []
        w = world(state)
        step_side, _fixed, area, units = w.setup_steps[j]
        if step_side != side:
            return []
        from umpire.rulesets.rhine.rules import stack_ok

        infos = w.units
        occ: dict[str, list[str]] = {}
        for u, p in state.pos.items():
            if p is not None:
                occ.setdefault(p, []).append(u)
        hexes = setup_hexes(state, area)
        out = []
        for u in units:
            if state.status.get(u) != TO_SET_UP:
                continue
            info = infos[u]
            for h in hexes:
                here = occ.get(h)
                if here is not None and (
                    any(infos[x].side != side for x in here)
                    or not stack_ok(w, [*(infos[x] for x in here), info])
                ):
                    continue
                out.append(Action("place", unit=u, cell=h))
        return out

    def check(self, state: ST, side: str, action: Action) -> None:
        if (
            action.unit is None
            or action.cell is None
            or action != Action("place", unit=action.unit, cell=action.cell)
        ):
            raise IllegalActionError("a placement names a unit and a hex", self.rule)
        found = place_problem(state, side, action.unit, action.cell)
        if found is not None:
            raise IllegalActionError(*found)

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        assert action.unit is not None and action.cell is not None
        # on its hex, which comes under its side's control as a hex entered does
        # (rhine.control.change): a change only for a hex outside the area (not enforced)
        enter(state, action.unit, [action.cell])
        return [
            note(
                "place",
                f"{side} sets {action.unit} up in {action.cell}",
                self.rule,
                side=side,
                unit=action.unit,
                cell=action.cell,
            )
        ]

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"place {action.unit} in {action.cell}"


class SuggestedKind(ActionKind[ST]):
    """Take the scenario's suggested set-up for all of the side's units still to set up and
    those it has set up by hand (rhine.setup.suggested): each on its ``at`` hex."""

    name = "setup_suggested"
    rule = SUGGESTED_RULE
    action = Action("setup_suggested")

    def options(self, state: ST, side: str) -> Iterable[Action]:
        if setup_to_act(state) != side or _suggested_blocked(state, side) is not None:
            return []
        return [self.action]

    def refusal(self, state: ST, side: str, action: Action) -> str:
        blocked = _suggested_blocked(state, side) if setup_to_act(state) == side else None
        if blocked is not None:
            return (
                f"the suggested set-up is closed: {blocked} holds enemy units "
                f"({ENEMY_RULE}; set up unit by unit)"
            )
        return super().refusal(state, side, action)

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        w = world(state)
        placed = []
        moving = [
            u for s, fixed, _area, units in w.setup_steps if s == side and not fixed for u in units
        ]
        # a hex a unit was set up in by hand and now leaves, with nothing of its side left in
        # it, is controlled again as at the start (rhine.control.initial): the set-up is taken
        # back, not a move (only possible with rhine.setup.area relaxed)
        left = {state.pos[u] for u in moving if state.pos[u] not in (None, w.suggested[u])}
        for u in moving:
            state.pos[u] = None
        for h in sorted(h for h in left if h is not None):
            if not any(w.units[u].side == side for u in state.units_at(h)):
                start = initial_control(w, h)
                if start is None:
                    state.control.pop(h, None)
                else:
                    state.control[h] = start
        for u in moving:
            enter(state, u, [w.suggested[u]])  # rhine.control.change, as a unit set up by hand
            placed.append(f"{u} {w.suggested[u]}")
        return [
            note(
                "setup",
                f"{side} takes the suggested set-up: {', '.join(placed)}",
                self.rule,
                side=side,
            )
        ]

    def describe(self, state: ST, side: str, action: Action) -> str:
        return "take the suggested set-up (every unit still to set up on its suggested hex)"


def _suggested_blocked(state: ST, side: str) -> str | None:
    """The first hex of ``side``'s suggested set-up that holds enemy units (None: none does).
    Only a unit set up outside its area (rhine.setup.area under ``advise`` or ``off``) can
    stand on a hex of the other side's suggested set-up."""
    w = world(state)
    mine = {
        w.suggested[u]
        for s, fixed, _area, units in w.setup_steps
        if s == side and not fixed
        for u in units
    }
    for u, p in state.pos.items():
        if p in mine and w.units[u].side != side:
            return p
    return None


def setup_begin(state: ST) -> list[Event]:
    """The set-up's opening note (turn 1 only): who sets up in which order, and the units
    that stand fixed."""
    if setup_step(state) is None:
        return []
    w = world(state)
    words = []
    for side, fixed, area, units in w.setup_steps:
        if fixed:
            words.append(f"{side} {', '.join(f'{u} {w.suggested[u]}' for u in units)} (fixed)")
        else:
            words.append(f"{side} {', '.join(units)} in {_area_words(area)}")
    return [note("setup", "set-up, in order: " + "; ".join(words), ORDER_RULE)]


def deployment(state: ST) -> DeployStep | None:
    """The set-up step now due, for the web table's zone drawing and "deploy for me" (which
    takes the suggested set-up)."""
    j = setup_step(state)
    if j is None or state.outcome is not None:
        return None
    side, _fixed, area, units = world(state).setup_steps[j]
    pieces = tuple(u for u in units if state.status.get(u) == TO_SET_UP)
    zone = {"cells": list(area)}
    return DeployStep(side, ("place", "setup_suggested"), zone, pieces, False, AREA_RULE)
