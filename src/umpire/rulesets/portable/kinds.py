"""Every kind of action, defined once: what a side may choose now (``options``), whether a
submitted action is allowed (``check``, refusing with the rule that forbids it), what it does
(``resolve``) and how a player reads it (``describe``).

``options`` and ``check`` read the same rule functions (``reachable`` and ``move_refusal``,
``fire_options`` and ``plan_fire``...), so the menu and the check of a typed action agree.
"""

from __future__ import annotations

from collections.abc import Iterable

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind, FixedChoice, Pending
from umpire.core.switches import quiet_advice
from umpire.geometry.squaregrid import FACINGS, Square, distance, label
from umpire.rulesets.portable import air, engineers, transport
from umpire.rulesets.portable.activation import can_activate
from umpire.rulesets.portable.artillery import declare, plan_bombard
from umpire.rulesets.portable.close_combat import (
    assault_targets,
    cannot_assault,
    resolve_close_combat,
)
from umpire.rulesets.portable.common import Refusal, mods_text
from umpire.rulesets.portable.enums import Side, Stage
from umpire.rulesets.portable.fire import FirePlan, fire_options, plan_fire, resolve_fire, shot_hits
from umpire.rulesets.portable.hits import retreat, retreat_squares, stand
from umpire.rulesets.portable.movement import (
    Path,
    cannot_move,
    do_move,
    facing_options,
    leaves_a_shot,
    move_refusal,
    reachable,
)
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.turns import (
    activate,
    activation,
    end_activation,
    gun_choices,
)
from umpire.rulesets.portable.world import world_of

Kind = ActionKind[PortableState]


def square_of(point: tuple[float, float] | None) -> Square | None:
    if point is None:
        return None
    return (int(round(point[0])), int(round(point[1])))


def _point(square: Square) -> tuple[float, float]:
    return (float(square[0]), float(square[1]))


def _names(state: PortableState, action: Action) -> tuple[str, str, str]:
    """The acting unit's name, the target's name and square, and the square named."""
    unit = state.units.get(action.unit or "")
    target = state.units.get(action.target or "")
    square = square_of(action.point)
    return (
        unit.name if unit else "",
        f"{target.name} in {label(target.pos)}" if target else "",
        f"{label(square)} ({square[0]},{square[1]})" if square else "",
    )


# -- artillery fire phase ------------------------------------------------------------------
class Declare(Kind):
    """bombard / gas / flak: a gun declares its target (portable.artillery.simultaneous,
    portable.gas.shell, portable.air.ground_to_air)."""

    RULES = {
        "bombard": "portable.artillery.simultaneous",
        "gas": "portable.gas.shell",
        "flak": "portable.air.ground_to_air",
    }
    WHAT = {"bombard": "fire", "gas": "a gas shell", "flak": "fire"}
    WORDS = {"bombard": "fires at", "gas": "fires a gas shell at", "flak": "fires at aircraft"}
    rule = "portable.artillery.ranges"

    def __init__(self, name: str) -> None:
        self.name = name

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        return gun_choices(state, side, self.name)

    def refusal(self, state: PortableState, side: str, action: Action) -> str:
        return f"{side.upper()} cannot {action.kind} with {action.unit} at {action.target} now"

    def check(self, state: PortableState, side: str, action: Action) -> None:
        with quiet_advice():  # the listing asks about every target; this action's own below
            listed = action in set(self.options(state, side))
        gun = state.units.get(action.unit or "")
        target = state.units.get(action.target or "")
        if self.name != "flak" and gun is not None and target is not None and gun.side == side:
            plan = plan_bombard(world_of(state), state, gun, target)  # names the rule broken
            if isinstance(plan, Refusal):
                raise IllegalActionError(plan.reason, plan.rule)
        if not listed:
            raise IllegalActionError(self.refusal(state, side, action), self.rule)

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        gun = state.units[action.unit or ""]
        target = state.units[action.target or ""]
        if self.name == "gas":
            gun.gas_shells -= 1
        state.turn_info.declared.append(declare(gun, target.pos, target.uid, self.name))
        return [
            note(
                "declare",
                f"{gun.name} declares {self.WHAT[self.name]} at {target.name} "
                f"in {label(target.pos)}",
                self.RULES[self.name],
                unit=gun.uid,
            )
        ]

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        name, target, _ = _names(state, action)
        return f"{name} {self.WORDS[self.name]} {target}"


class Hold(FixedChoice[PortableState]):
    """The side's remaining guns hold their fire this turn."""

    name = "hold"
    rule = "portable.artillery.simultaneous"

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        state.turn_info.held.append(Side(side))
        return [note("hold", f"{side.upper()}'s remaining guns hold their fire", None)]

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return "hold the fire of the remaining guns"


# -- retreat or stand (a pending decision) ---------------------------------------------------
def _retreating(state: PortableState) -> Unit:
    top = state.flow.stack[-1]
    assert isinstance(top, Pending) and top.stage == Stage.RETREAT
    return state.units[top.data["unit"]]


class Retreat(Kind):
    """portable.hit.retreat: one square back, to an empty square not next to the enemy."""

    name = "retreat"
    rule = "portable.hit.retreat"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        unit = _retreating(state)
        return [
            Action("retreat", unit=unit.uid, point=_point(sq))
            for sq in retreat_squares(world_of(state), state, unit)
        ]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        unit = _retreating(state)
        if action.unit not in (None, unit.uid):
            raise IllegalActionError(f"{unit.name} must retreat or stand first", self.rule)
        if square_of(action.point) not in retreat_squares(world_of(state), state, unit):
            raise IllegalActionError(
                f"{unit.name} may retreat only to an empty adjacent square away from the enemy",
                self.rule,
            )

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        unit = _retreating(state)
        square = square_of(action.point)
        assert square is not None
        state.flow.stack.pop()
        return retreat(world_of(state), state, unit, square)

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        name, _, where = _names(state, action)
        return f"{name} retreats to {where}"


class Stand(Kind):
    """portable.hit.unable_to_retreat: the unit stays and loses 1 SP."""

    name = "stand"
    rule = "portable.hit.retreat"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        return [Action("stand", unit=_retreating(state).uid)]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        unit = _retreating(state)
        if action.unit not in (None, unit.uid):
            raise IllegalActionError(f"{unit.name} must retreat or stand first", self.rule)

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        unit = _retreating(state)
        spare = bool(state.flow.stack.pop().data.get("spares_last_sp"))
        return stand(world_of(state), state, unit, unable=False, spare=spare)

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return f"{_names(state, action)[0]} stands and loses 1 SP"


# -- activation ------------------------------------------------------------------------------
class Activate(Kind):
    """portable.activation.count / portable.activation.once: activate one more unit."""

    name = "activate"
    rule = "portable.activation.count"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        world = world_of(state)
        return [
            Action("activate", unit=u.uid)
            for u in sorted(state.units.values(), key=lambda u: u.uid)
            if u.side == side and can_activate(world, state, u)
        ]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        unit = state.units.get(action.unit or "")
        if unit is None or unit.side != side:
            raise IllegalActionError(
                f"{side.upper()} must activate one of its units or be done", self.rule
            )
        if not can_activate(world_of(state), state, unit):
            raise IllegalActionError(
                f"{unit.name} cannot be activated (again) this turn", "portable.activation.once"
            )

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        unit = state.units[action.unit or ""]
        unit.activated = True
        state.turn_info.activations_left -= 1
        activate(state, side, unit.uid)
        return [
            note(
                "activate",
                f"{unit.name} is activated in {label(unit.pos)} "
                f"({state.turn_info.activations_left} activation(s) left)",
                "portable.activation.count",
                unit=unit.uid,
            )
        ]

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        unit = state.units.get(action.unit or "")
        return f"activate {unit.name if unit else ''} in {label(unit.pos) if unit else ''}"


class Done(FixedChoice[PortableState]):
    """The side activates no more units this turn."""

    name = "done"
    rule = "portable.activation.count"

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        state.turn_info.activations_left = 0
        return [note("done", f"{side.upper()} activates no more units", None)]

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return "activate no more units this turn"


# -- the activated unit ----------------------------------------------------------------------
def _active(state: PortableState) -> tuple[Pending, Unit]:
    found = activation(state)
    assert found is not None
    return found, state.units[found.data["unit"]]


class Act(Kind):
    """What the activated unit does; every act first checks it is that unit."""

    rule = "portable.activation.once"

    def unit(self, state: PortableState, action: Action) -> Unit:
        _, unit = _active(state)
        if action.unit not in (None, unit.uid):
            raise IllegalActionError(
                f"{unit.name} is the active unit, not {action.unit}", "portable.activation.once"
            )
        return unit

    def acting(self, state: PortableState, action: Action) -> Unit:
        """The active ground unit on the board (aircraft and loads have their own acts)."""
        unit = self.unit(state, action)
        if unit.air:
            raise IllegalActionError(f"an aircraft cannot {action.kind}", "portable.air.movement")
        if unit.carried_by is not None:
            raise IllegalActionError(
                f"{unit.name} is aboard and may only get off (if its transport has not moved)",
                "portable.transport.load",
            )
        return unit

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return action.kind


class End(Act):
    name = "end"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        return [Action("end", unit=_active(state)[1].uid)]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        self.unit(state, action)

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        _, unit = _active(state)
        end_activation(state)
        return [note("end", f"{unit.name} ends its activation", None)]

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return f"{_names(state, action)[0]} ends its activation"


class Move(Act):
    """portable.move.allowance (ground) and portable.air.movement (aircraft)."""

    name = "move"
    rule = "portable.move.allowance"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        world = world_of(state)
        _, unit = _active(state)
        if unit.air:
            squares = air.move_options(world, state, unit)
        elif unit.carried_by is not None or cannot_move(world, state, unit) is not None:
            return []
        else:
            squares = sorted(reachable(world, state, unit))
        return [Action("move", unit=unit.uid, point=_point(sq)) for sq in squares]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        world = world_of(state)
        unit = self.unit(state, action)
        square = square_of(action.point)
        if unit.air:
            if square is None or square not in air.move_options(world, state, unit):
                raise IllegalActionError(
                    f"{unit.name} cannot fly there now", "portable.air.movement"
                )
            return
        unit = self.acting(state, action)
        if square is None:
            raise IllegalActionError("a move needs a square", self.rule)
        refusal = move_refusal(world, state, unit, square)
        if refusal is not None:
            raise IllegalActionError(refusal.reason, refusal.rule)

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        world = world_of(state)
        act, unit = _active(state)
        square = square_of(action.point)
        assert square is not None
        act.data["must_face"] = True
        if unit.air:
            start = unit.pos
            unit.x, unit.y = square
            unit.moved = True
            # portable.air.movement e): firing costs a square, so a full move leaves no shot
            unit.full_move = distance(start, square) >= world.types.aircraft[unit.type].move
            return [
                note(
                    "move",
                    f"{unit.name} flies {distance(start, square)} squares from "
                    f"{label(start)} to {label(square)}",
                    "portable.air.movement",
                    unit=unit.uid,
                    to=list(square),
                )
            ]
        path = reachable(world, state, unit)[square]
        # portable.move.fired_penalty: firing costs a square, so a full move leaves no shot
        unit.full_move = not leaves_a_shot(world, unit, path)
        return do_move(world, state, unit, square, path)

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        name, _, where = _names(state, action)
        return f"{name} moves to {where}"


class Turn(Act):
    """portable.move.turn_in_place: turning to face another edge uses the unit's move."""

    name = "turn"
    rule = "portable.move.turn_in_place"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        _, unit = _active(state)
        if unit.air or unit.carried_by is not None:
            return []
        if cannot_move(world_of(state), state, unit) is not None:
            return []
        return [Action("turn", unit=unit.uid, option=f) for f in FACINGS if f != unit.facing]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        unit = self.acting(state, action)
        refusal = cannot_move(world_of(state), state, unit)
        if refusal is not None:
            raise IllegalActionError(refusal.reason, refusal.rule)
        if action.option not in FACINGS:
            raise IllegalActionError("turn to N, E, S or W", "portable.grid.facing")

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        _, unit = _active(state)
        unit.facing = str(action.option)
        unit.moved = True
        state.fired_house("portable.move.turn_in_place")
        return [
            note(
                "turn",
                f"{unit.name} turns to face {unit.facing} (its move)",
                "portable.move.turn_in_place",
                unit=unit.uid,
            )
        ]

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return f"{_names(state, action)[0]} turns to face {action.option} (uses its move)"


class Fire(Act):
    """portable.fire.*: a ground unit's shot; portable.air.air_to_air and air_to_ground: an
    aircraft's guns."""

    name = "fire"
    rule = "portable.fire.range"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        world = world_of(state)
        _, unit = _active(state)
        if unit.air:
            targets = air.air_targets(world, state, unit) + air.strafe_targets(world, state, unit)
            return [Action("fire", unit=unit.uid, target=t.uid) for t in targets]
        if unit.carried_by is not None:
            return []
        return [
            Action("fire", unit=unit.uid, target=p.target) for p in fire_options(world, state, unit)
        ]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        world = world_of(state)
        unit = self.unit(state, action)
        target = state.units.get(action.target or "")
        if unit.air:
            if target is None or (
                target not in air.air_targets(world, state, unit)
                and target not in air.strafe_targets(world, state, unit)
            ):
                rule = (
                    "portable.air.fire_once"
                    if unit.fired
                    else "portable.air.movement"
                    if unit.full_move
                    else "portable.air.arcs"
                )
                raise IllegalActionError(f"{unit.name} cannot engage {action.target}", rule)
            return
        unit = self.acting(state, action)
        if target is None:
            raise IllegalActionError(f"no unit {action.target!r}", self.rule)
        plan = plan_fire(world, state, unit, target)
        if isinstance(plan, Refusal):
            raise IllegalActionError(plan.reason, plan.rule)

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        world = world_of(state)
        _, unit = _active(state)
        target = state.units[action.target or ""]
        if unit.air:
            if target in air.air_targets(world, state, unit):
                return air.air_to_air(world, state, unit, target)
            return air.strafe(world, state, unit, target)
        plan = plan_fire(world, state, unit, target)
        assert isinstance(plan, FirePlan)
        return resolve_fire(world, state, plan)

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        name, tname, _ = _names(state, action)
        unit = state.units.get(action.unit or "")
        target = state.units.get(action.target or "")
        if unit is not None and target is not None and not unit.air:
            plan = plan_fire(world_of(state), state, unit, target)
            if isinstance(plan, FirePlan):
                p = float(shot_hits(plan.mods, plan.need, plan.dice).probability(bool))
                return (
                    f"{name} fires at {tname}: {plan.dice}d6 need {plan.need} "
                    f"[{mods_text(plan.mods)}], P(hit) {p:.0%}"
                )
        return f"{name} fires at {tname}"


class Assault(Act):
    """portable.cc.*: close combat with the enemy in the square the unit faces."""

    name = "assault"
    rule = "portable.cc.adjacent_facing"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        _, unit = _active(state)
        if unit.air or unit.carried_by is not None:
            return []
        targets = assault_targets(world_of(state), state, unit)
        return [Action("assault", unit=unit.uid, target=t.uid) for t in targets]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        world = world_of(state)
        unit = self.acting(state, action)
        target = state.units.get(action.target or "")
        if target is None or target not in assault_targets(world, state, unit):
            refusal = cannot_assault(world, state, unit)
            if refusal is not None:
                raise IllegalActionError(refusal.reason, refusal.rule)
            raise IllegalActionError(
                f"{unit.name} can only attack the enemy in the square it faces", self.rule
            )

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        act, unit = _active(state)
        target = state.units[action.target or ""]
        act.data["assault_square"] = [target.x, target.y]
        return resolve_close_combat(world_of(state), state, unit, target)

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        name, tname, _ = _names(state, action)
        return f"{name} attacks {tname} in close combat"


class Load(Act):
    """portable.transport.load / limber / tank riders: board a transport in the square."""

    name = "load"
    rule = "portable.transport.load"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        _, unit = _active(state)
        if unit.air or unit.carried_by is not None:
            return []
        carriers = transport.load_options(world_of(state), state, unit)
        return [Action("load", unit=unit.uid, target=t.uid) for t in carriers]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        unit = self.acting(state, action)
        carrier = state.units.get(action.target or "")
        if carrier is None or carrier not in transport.load_options(world_of(state), state, unit):
            raise IllegalActionError(
                f"{unit.name} cannot board that this turn (same square, neither has moved, "
                "room aboard)",
                self.rule,
            )

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        _, unit = _active(state)
        end_activation(state)
        return transport.load(world_of(state), state, unit, state.units[action.target or ""])

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        name, tname, _ = _names(state, action)
        return f"{name} boards / limbers to {tname}"


class Unload(Act):
    """A carried unit gets off (or is unlimbered) while its transport has not moved."""

    name = "unload"
    rule = "portable.transport.load"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        _, unit = _active(state)
        if unit.air or not transport.can_unload(world_of(state), state, unit):
            return []
        return [Action("unload", unit=unit.uid)]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        unit = self.unit(state, action)
        if unit.air:
            raise IllegalActionError(f"an aircraft cannot {action.kind}", "portable.air.movement")
        if not transport.can_unload(world_of(state), state, unit):
            raise IllegalActionError(
                f"{unit.name} is aboard and may only get off (if its transport has not moved)",
                self.rule,
            )

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        _, unit = _active(state)
        end_activation(state)
        return transport.unload(world_of(state), state, unit)

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return f"{_names(state, action)[0]} gets off / unlimbers"


class Bomb(Act):
    """portable.air.bombs: a bomber drops some of its loads on the square below."""

    name = "bomb"
    rule = "portable.air.bombs"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        _, unit = _active(state)
        if not unit.air or not air.can_bomb(world_of(state), state, unit):
            return []
        return [Action("bomb", unit=unit.uid, option=str(n)) for n in range(1, unit.bombs + 1)]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        unit = self.unit(state, action)
        if not unit.air:
            self.acting(state, action)
        loads = int(action.option or 0) if (action.option or "").isdigit() else 0
        if not air.can_bomb(world_of(state), state, unit) or not 1 <= loads <= unit.bombs:
            raise IllegalActionError(
                f"{unit.name} cannot drop {action.option} bomb load(s) here", self.rule
            )

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        _, unit = _active(state)
        return air.bomb(world_of(state), state, unit, int(action.option or 0))

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return f"{_names(state, action)[0]} drops {action.option} bomb load(s)"


class Work(Act):
    """Engineering work: lay or clear a minefield next to the engineers, put up or cut barbed
    wire in the unit's own square (portable.engineers.*, portable.terrain.wire.*)."""

    def __init__(self, task: str) -> None:
        self.name = task
        self.rule = engineers.TASK_RULES[task]

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        _, unit = _active(state)
        return [
            Action(task, unit=unit.uid, point=_point(sq))
            for task, sq in engineers.work_options(world_of(state), state, unit)
            if task == self.name
        ]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        unit = self.acting(state, action)
        square = square_of(action.point)
        if square is None or (self.name, square) not in engineers.work_options(
            world_of(state), state, unit
        ):
            raise IllegalActionError(f"{unit.name} cannot {self.name} there now", self.rule)

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        _, unit = _active(state)
        square = square_of(action.point)
        assert square is not None
        end_activation(state)
        return engineers.start(world_of(state), state, unit, self.name, square)

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        name, _, where = _names(state, action)
        return f"{name}: {self.name.replace('_', ' ')} in {where}"


# -- after a move or a won close combat ------------------------------------------------------
class Face(Act):
    """portable.grid.facing; portable.move.face_enemy: next to the enemy, face one of them."""

    name = "face"
    rule = "portable.grid.facing"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        _, unit = _active(state)
        return [
            Action("face", unit=unit.uid, option=f)
            for f in facing_options(world_of(state), state, unit)
        ]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        unit = self.unit(state, action)
        options = facing_options(world_of(state), state, unit)
        if action.option not in options:
            rule = "portable.move.face_enemy" if len(options) < 4 else "portable.grid.facing"
            raise IllegalActionError(f"{unit.name} must face one of {', '.join(options)}", rule)

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        act, unit = _active(state)
        unit.facing = str(action.option)
        act.data["must_face"] = False
        return [
            note("face", f"{unit.name} faces {unit.facing}", "portable.grid.facing", unit=unit.uid)
        ]

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return f"{_names(state, action)[0]} faces {action.option}"


class Advance(Act):
    """portable.cc.advance: the winner of a close combat moves into the square it won."""

    name = "advance"
    rule = "portable.cc.advance"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        return [Action("advance", unit=_active(state)[1].uid)]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        self.unit(state, action)

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        world = world_of(state)
        act, unit = _active(state)
        to = act.data["advance_to"]
        square = (to[0], to[1])
        act.data["advance_to"] = None
        hazards = (square,) if state.has_mines(square) or state.cloud_at(square) else ()
        events = do_move(world, state, unit, square, Path(1, hazards, False))
        unit.fought = False  # may fight again from the square it has taken
        unit.advanced = True  # but has fought (portable.fire.or_close_combat)
        act.data["must_face"] = True
        moved = events[0]
        events[0] = note(
            moved.kind,
            f"{unit.name} advances into {label(square)}",
            "portable.cc.advance",
            **moved.data,
        )
        return events

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return f"{_names(state, action)[0]} advances into the square it won"


class Stay(Act):
    """portable.cc.advance: the winner holds its ground."""

    name = "stay"
    rule = "portable.cc.advance"

    def options(self, state: PortableState, side: str) -> Iterable[Action]:
        return [Action("stay", unit=_active(state)[1].uid)]

    def check(self, state: PortableState, side: str, action: Action) -> None:
        self.unit(state, action)

    def resolve(self, state: PortableState, side: str, action: Action) -> list[Event]:
        act, unit = _active(state)
        act.data["advance_to"] = None
        return [note("stay", f"{unit.name} holds its ground", "portable.cc.advance")]

    def describe(self, state: PortableState, side: str, action: Action) -> str:
        return f"{_names(state, action)[0]} stays where it is"


KINDS: tuple[Kind, ...] = (
    Declare("bombard"),
    Declare("gas"),
    Declare("flak"),
    Hold(),
    Retreat(),
    Stand(),
    Activate(),
    Done(),
    Fire(),
    Assault(),
    Bomb(),
    Move(),
    Turn(),
    Load(),
    Unload(),
    *(Work(task) for task in engineers.TASK_RULES),
    End(),
    Face(),
    Advance(),
    Stay(),
)
