"""Every kind of Seven Days action, defined once: what a side may choose now (``options``),
whether a submitted action is allowed (``check``, refusing with the rule that forbids it), what
it does (``resolve``) and how a player reads it (``describe``).

``options`` and ``check`` read the same rule functions (``move_options``/``check_move``,
``plan_shot``, ``assault_targets``, ``carriers_near``...), and where listing is cheap the check
is simply "is it among the options" — so the menu and the check of a typed action agree.

Decisions (see ``turns.py``): the side with the initiative activates or passes (``activate``
phase); the active unit acts (a pending ``act`` decision); the enemy may react to a move or a
declared shot (a pending ``react`` decision above it); a card opens the enemy's response
window (a pending ``card`` decision above any other). Before turn 1 each side swaps cards.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind, FixedChoice, Pending
from umpire.geometry.table import bearing, in_arc
from umpire.rulesets.sevendays import cards, platoon, special, transport
from umpire.rulesets.sevendays.close_combat import assault, assault_targets
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.firing import (
    IMPOSSIBLE,
    POSSIBLE,
    REFUSED,
    UNKNOWN,
    plan_shot,
    shot_outlook,
)
from umpire.rulesets.sevendays.los import prefetch_between, sight, terrain_blocked
from umpire.rulesets.sevendays.morale import battlegroup_check, house_fired
from umpire.rulesets.sevendays.mortars import is_mortar, lay_smoke, smoke_targets
from umpire.rulesets.sevendays.movement import (
    THEN_MOVE,
    check_move,
    do_move,
    fall_back_point,
    move_after_fire_refusal,
    move_options,
    owes_move,
)
from umpire.rulesets.sevendays.odds import shot_odds
from umpire.rulesets.sevendays.orbat import UnitType
from umpire.rulesets.sevendays.reactions import (
    ReactionOption,
    any_reaction,
    best_plan,
    reaction_actions,
    reaction_for,
    reaction_options,
    roll_reaction,
)
from umpire.rulesets.sevendays.shots import (
    SHOT_WEAPONS,
    Refusal,
    ShotPlan,
    describe_modifiers,
    fire_arc,
)
from umpire.rulesets.sevendays.state import (
    REACT_KINDS,
    SHOT_KINDS,
    Phase,
    SevenDaysState,
    Status,
    Unit,
    other,
)
from umpire.rulesets.sevendays.turns import (
    activate,
    activation_need,
    end_activation,
    pass_initiative,
    world_of,
)
from umpire.rulesets.sevendays.victory import check_break
from umpire.rulesets.sevendays.visibility import about, label
from umpire.rulesets.sevendays.world import World

Kind = ActionKind[SevenDaysState]

MOVE_SPEEDS = {"move": "normal", "rapid": "rapid", "road": "road"}
ACTION_COST = {
    "move": 1,
    "turn": 1,
    "fire": 1,
    "rockets": 1,
    "rapid": 2,
    "road": 2,
    "atgm": 2,
    "morale": 2,
    "fall_back": 2,
    "exit": 1,
    "embark": 1,
    "disembark": 1,
    "smoke": 1,
    "assault": 2,
    "end": 0,
}
# acts after which the enemy may react (sevendays.reaction.window): declared first (the
# reaction comes before the act) or done first (the reaction answers the move). Every act that
# can begin an activation is one or the other: the enemy may react whenever a unit activates
# (transcription p12), whatever its first action
DECLARED = frozenset({*SHOT_KINDS, "morale", "assault", "smoke", "embark", "disembark", "exit"})
MOVES = frozenset({"move", "rapid", "road", "turn", "fall_back"})
# the one refusal of a shot that moving could change (an ATGM needs both actions without a
# move, sevendays.fire.atgm_actions): every other refusal (no weapon, range, arc, sight, a
# mortar's spotters, a helicopter target) reads only the table, so a shot refused standing is
# refused with a move declared too, and the shoot-and-move menu skips it
MOVE_MAY_LIFT = frozenset({"sevendays.fire.atgm_actions"})
# the outlooks of a shot (firing.shot_outlook) the sight line's centre alone settles
BY_SIGHT = frozenset({POSSIBLE, IMPOSSIBLE})
# what a unit that declared a move after its shot may do once it has fired (the move it owes;
# "end" only when no move is open: sevendays.fire.declared_move)
AFTER_DECLARED_MOVE = frozenset({"move", "turn", "exit", "end"})


def _top(state: SevenDaysState, stage: Phase) -> Pending | None:
    stack = state.flow.core.stack
    top = stack[-1] if stack else None
    return top if isinstance(top, Pending) and top.stage == stage else None


def counts_moved(world: World, state: SevenDaysState, unit: Unit) -> bool:
    """Moved this activation, or (sevendays.scenario.attacker_moved) an attacker on turn 1 of
    a scenario whose attackers all count as having moved."""
    act = state.flow.activation
    spec = world.scenario.spec
    if act is not None and (act.moved or act.then_move):
        return True  # sevendays.fire.modifier.moved: it moved, or declared a move after firing
    return spec.attacker_moved and state.flow.turn == 1 and unit.side == spec.attacker


def known_plan(
    world: World,
    state: SevenDaysState,
    unit: Unit,
    target: Unit,
    weapon: str,
    then_move: bool = False,
) -> ShotPlan | Refusal:
    """The active unit's shot as its side knows it: the menu, its check and its odds
    (``then_move``: the shot declared with a move after it, sevendays.fire.modifier.moved)."""
    act = state.flow.activation
    assert act is not None
    return plan_shot(
        world,
        state,
        unit,
        target,
        weapon,
        moved=then_move or counts_moved(world, state, unit),
        actions_left=act.actions_left,
        known_only=True,
    )


def may_declare_move(state: SevenDaysState, kind: str) -> bool:
    """Rule sevendays.fire.declared_move: a shot of ``kind`` may be declared with a move after
    it ("shoot and move", book p8) when it leaves an action for the move and the unit has not
    moved yet in this activation."""
    act = state.flow.activation
    return act is not None and not act.moved and ACTION_COST[kind] < act.actions_left


def declares_moving(action: Action) -> bool:
    """Whether a declared act makes its unit a target moving in its activation (book p15
    modifier table, sevendays.fire.modifier.reaction_moving): an assault (a move into
    contact), or a shot declared with a move after it ("shoot and move", book p8; the book's
    own 'firer moved' note counts a unit that fires and then moves as moving)."""
    return action.kind == "assault" or (action.kind in SHOT_KINDS and action.option == THEN_MOVE)


def nearest_enemies(state: SevenDaysState, unit: Unit, n: int) -> list[Unit]:
    enemies = [u for u in state.units.values() if u.alive and u.side != unit.side]
    enemies.sort(key=lambda e: math.dist(e.pos, unit.pos))
    return enemies[:n]


def may_embark(world: World, state: SevenDaysState, unit: Unit) -> bool:
    """Rule sevendays.transport.combos: infantry may move or fire and embark; a support team
    may fire and embark, but not move and embark."""
    act = state.flow.activation
    if act is None or not world.is_foot(unit):
        return False
    profile = world.profile(unit)
    return not (profile.type is UnitType.SUPPORT and act.moved)


def reserves(world: World, state: SevenDaysState) -> list[Unit]:
    """Reserve units of the side with the initiative that may come on now."""
    if not world.has_reserves or state.flow.turn < world.scenario.spec.reserves_from:
        return []
    side = state.flow.initiative
    turn = state.flow.turn
    return [
        u
        for u in state.units.values()
        if u.side == side and u.status == "reserve" and u.barred_turn != turn
    ]


def after_action(world: World, state: SevenDaysState) -> list[Event]:
    """After an act (and any reaction to it): spotting, break points, and the activation ends
    once the unit is gone or has no actions left."""
    flow = state.flow
    act = flow.activation
    assert act is not None
    events = special.reveal_spotted(world, state) + check_break(world, state)
    if flow.outcome is not None:
        return events
    unit = state.units[act.unit]
    if not unit.alive or act.actions_left <= 0:
        return events + end_activation(world, state)
    return events


def after_cards(world: World, state: SevenDaysState) -> list[Event]:
    """Back to the game after a chain: losses may have broken a side or the active unit."""
    flow = state.flow
    events = special.reveal_spotted(world, state) + check_break(world, state)
    act = flow.activation
    if flow.outcome is not None or act is None:
        return events
    if not state.units[act.unit].alive:
        return events + end_activation(world, state)
    return events


# -- before turn 1: the swap ---------------------------------------------------------------------
class Swap(Kind):
    """sevendays.cards.deal: before turn 1 each side may exchange cards of its hand."""

    name = "swap"
    rule = "sevendays.cards.deal"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        return [Action("swap", option=o) for o in cards.swap_options(state, side)]

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        state.flow.core.stack.pop()
        return cards.swap(state, side, action.option or "")

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return cards.describe_swap(state, side, action.option or "")


# -- cards -----------------------------------------------------------------------------------------
class Card(Kind):
    """sevendays.cards.play: a card played at a side's decision, or in answer to the enemy's."""

    name = "card"
    rule = "sevendays.cards.play"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        if state.cards is None:
            return []
        world = world_of(state)
        if state.cards["chain"]:
            return cards.responses(world, state, side)
        return cards.playable(world, state, side)

    def check(self, state: SevenDaysState, side: str, action: Action) -> None:
        if state.cards is None:
            raise IllegalActionError("no cards are in play in this game", self.rule)
        if (action.option or "").partition("|")[0] == "communications":
            # sevendays.cards.communications: any legal move action, not only the menu's points
            refusal = cards.communications_refusal(world_of(state), state, side, action)
            if refusal is not None:
                raise refusal
            return
        if action not in set(self.options(state, side)):
            raise cards.refuse_play(state, side, action)

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        world = world_of(state)
        events = cards.play(world, state, side, action)
        if _top(state, Phase.CARD) is not None:  # a response window is open
            return events
        return events + after_cards(world, state)

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return cards.describe_play(world_of(state), state, side, action)


class NoResponse(FixedChoice[SevenDaysState]):
    """The side lets the card on top of the chain stand, or (sevendays.cards.against_all_odds)
    plays no card on its unit about to be removed."""

    name = "no_response"
    rule = "sevendays.cards.play"

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        world = world_of(state)
        if _top(state, Phase.RESCUE) is not None:
            return cards.let_go(world, state, side) + after_cards(world, state)
        return cards.decline(world, state, side) + after_cards(world, state)

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return cards.describe_decline(world_of(state), state, side)


class OffBoard(Kind):
    """sevendays.cards.divisional_artillery: an off-board unit takes the roll, or stays off the
    table this turn."""

    name = "off_board"
    rule = "sevendays.cards.divisional_artillery"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        top = _top(state, Phase.OFF_BOARD)
        if top is None:
            return []
        uid = str(top.data["unit"])
        # staying off first: where reserves cannot enter this turn anyway it costs nothing
        return [
            Action("off_board", unit=uid, option="stay"),
            Action("off_board", unit=uid, option="roll"),
        ]

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        world = world_of(state)
        return cards.off_board_choice(world, state, side, action) + after_cards(world, state)

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return cards.describe_off_board(state, action)


# -- activation --------------------------------------------------------------------------------
class Activate(Kind):
    """sevendays.activation.token: spend a token on a unit (sevendays.activation.platoon: with
    its platoon; sevendays.scenario.reserves: a reserve coming on)."""

    name = "activate"
    rule = "sevendays.activation.token"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        world = world_of(state)
        own = state.alive(side)
        acts = [Action("activate", unit=u.uid) for u in own]
        can_lead = platoon.leaders(world, state, side)
        acts += [Action("activate", unit=u.uid, option="platoon") for u in own if u.uid in can_lead]
        return acts + [Action("activate", unit=u.uid) for u in reserves(world, state)]

    def check(self, state: SevenDaysState, side: str, action: Action) -> None:
        world = world_of(state)
        unit = state.units.get(action.unit or "")
        if unit is not None and unit.status == "reserve" and unit.side == side:
            if unit.barred_turn == state.flow.turn:
                raise IllegalActionError(
                    f"{unit.name} avoided the Divisional Artillery roll: it may not enter "
                    "the table this turn",
                    "sevendays.cards.divisional_artillery",
                )
            if unit not in reserves(world, state):
                raise IllegalActionError(
                    f"reserves may come on from turn {world.scenario.spec.reserves_from}",
                    "sevendays.scenario.reserves",
                )
            alive = True
        else:
            alive = unit is not None and unit.alive
        if unit is None or unit.side != side or not alive:
            raise IllegalActionError(
                f"{action.unit!r} is not a {side.upper()} unit on the table", self.rule
            )
        if action.option == "platoon":
            if unit.status == "reserve" or not platoon.can_lead(world, state, unit):
                raise IllegalActionError(
                    f"{unit.name} has no unit of its type within "
                    f'{world.house.platoon.reach:g}" to lead in a platoon action',
                    platoon.RULE,
                )
        elif action.option is not None:
            raise IllegalActionError(
                f"unknown activation option {action.option!r} (only 'platoon')", self.rule
            )

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        world = world_of(state)
        unit = state.units[action.unit or ""]
        events: list[Event] = []
        if unit.status == "reserve":
            events += special.enter_reserve(state, unit)
        events += special.reveal(state, unit, "it activates")
        members = platoon.platoon_of(world, state, unit) if action.option == "platoon" else []
        return events + activate(world, state, unit, members)

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        unit = state.units[action.unit or ""]
        if action.option == "platoon":
            members = platoon.platoon_of(world_of(state), state, unit)
            need = activation_need(platoon.worst([unit, *members]))
            names = ", ".join(m.name for m in members)
            test = f", test {need}+" if need is not None else ""
            return f"activate {unit.name} as a platoon with {names} [one token{test}]"
        need = activation_need(unit)
        test = f", test {need}+" if need is not None else ""
        return f"activate {unit.name} [{unit.markers} markers{test}]"


class Pass(FixedChoice[SevenDaysState]):
    """sevendays.initiative.pass."""

    name = "pass"
    rule = "sevendays.initiative.pass"

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        return pass_initiative(world_of(state), state)

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return "pass the initiative"


# -- the active unit's acts ----------------------------------------------------------------------
class Act(Kind):
    """An act of the active unit (sevendays.activation.actions: two actions, each kind at its
    cost; one move and one shot per activation; a platoon moves and shoots only). The enemy's
    reaction window (sevendays.reaction.window) opens once per activation: before a declared
    shot or morale check, or after a move or turn."""

    rule = "sevendays.activation.actions"

    # -- what every act shares ---------------------------------------------------------------
    def active(self, state: SevenDaysState) -> Unit:
        act = state.flow.activation
        assert act is not None
        return state.units[act.unit]

    def open(self, state: SevenDaysState) -> Unit | None:
        """The active unit, if this kind is open to it at all now (cost, platoon, one move)."""
        act = state.flow.activation
        if act is None:
            return None
        if ACTION_COST[self.name] > act.actions_left:
            return None
        if act.platoon and self.name not in platoon.ACTIONS:
            return None
        if owes_move(act) and self.name not in AFTER_DECLARED_MOVE:
            return None
        return state.units[act.unit]

    def check(self, state: SevenDaysState, side: str, action: Action) -> None:
        act = state.flow.activation
        assert act is not None
        unit = state.units[act.unit]
        if action.unit not in (None, unit.uid):
            raise IllegalActionError(
                f"{unit.name} is the active unit, not {action.unit}", "sevendays.activation.actions"
            )
        cost = ACTION_COST[self.name]
        if cost > act.actions_left:
            raise IllegalActionError(
                f"{self.name} needs {cost} actions, {act.actions_left} left",
                "sevendays.activation.actions",
            )
        if act.platoon and self.name not in platoon.ACTIONS:
            raise IllegalActionError(
                f"a platoon action moves and shoots only, not {self.name!r}", platoon.RULE
            )
        if owes_move(act) and self.name not in AFTER_DECLARED_MOVE:
            raise IllegalActionError(
                f"{unit.name} declared a move after its shot: it moves now, not {self.name!r}",
                "sevendays.fire.declared_move",
            )
        self.check_act(world_of(state), state, unit, action)

    def check_act(self, world: World, state: SevenDaysState, unit: Unit, action: Action) -> None:
        """This kind's own conditions (by default: among the options)."""
        if action not in set(self.options(state, unit.side)):
            raise IllegalActionError(self.refusal(state, unit.side, action), self.rule)

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        world = world_of(state)
        flow = state.flow
        act = flow.activation
        assert act is not None
        unit = state.units[act.unit]
        first = not act.window_used
        if self.name in DECLARED and first:
            act.window_used = True
            moving = declares_moving(action)
            if any_reaction(world, state, unit, moving):
                flow.pending = action
                flow.reacting_to_move = moving
                flow.core.stack.append(Pending(other(unit.side), REACT_KINDS, Phase.REACT))
                target = state.units[action.target] if action.target else None
                then = ", then a move" if action.option == THEN_MOVE else ""
                if target is None:
                    return [note("declare", f"{unit.name} declares {self.name}{then}", None)]
                declared = note(
                    "declare", f"{unit.name} declares {self.name} at {target.name}{then}", None
                )
                # a hidden target (a transport boarded, a marker) is named as the enemy knows
                # it (sevendays.scenario.hidden_deployment)
                public = f"{unit.name} declares {self.name} at {label(target)}{then}"
                return [about(target, declared, public)]
        events = self.carry_out(world, state, unit, action)
        if self.name in MOVES and first and unit.alive:
            act.window_used = True
            if any_reaction(world, state, unit, self.name != "turn"):
                flow.reacting_to_move = self.name != "turn"
                flow.core.stack.append(Pending(other(unit.side), REACT_KINDS, Phase.REACT))
                return events
        return events + after_action(world, state)

    def carry_out(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        """Spend the act's cost and do it (after any reaction to its declaration)."""
        act = state.flow.activation
        assert act is not None
        act.actions_left -= ACTION_COST[self.name]
        return self.effect(world, state, unit, action)

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        raise NotImplementedError

    def members(self, state: SevenDaysState) -> list[Unit]:
        act = state.flow.activation
        assert act is not None
        return [state.units[u] for u in act.platoon]

    def name_of(self, state: SevenDaysState, action: Action) -> str:
        unit = state.units.get(action.unit or "")
        return unit.name if unit is not None else ""

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return f"{self.name_of(state, action)}: {self.name}"


class End(Act):
    name = "end"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        if unit is None or self.move_owed(state, side):
            return []
        return [Action("end", unit=unit.uid)]

    @staticmethod
    def move_owed(state: SevenDaysState, side: str) -> bool:
        """sevendays.fire.declared_move: the unit declared a move after its shot, has fired,
        and a move is open to it: it makes that move before its activation ends."""
        if not owes_move(state.flow.activation):
            return False
        return any(any(ACT_KIND[k].options(state, side)) for k in ("move", "turn"))

    def check_act(self, world: World, state: SevenDaysState, unit: Unit, action: Action) -> None:
        if self.move_owed(state, unit.side):
            raise IllegalActionError(
                f"{unit.name} declared a move after its shot: it makes it before ending",
                "sevendays.fire.declared_move",
            )

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        unit = self.active(state)
        events = [note("end", f"{unit.name} ends its activation", None)]
        return events + end_activation(world_of(state), state)

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return f"{self.name_of(state, action)}: end activation"


class Move(Act):
    """sevendays.move.normal / rapid / road: a move to a point in reach."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.speed = MOVE_SPEEDS[name]
        self.rule = f"sevendays.move.{self.speed}"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        act = state.flow.activation
        if unit is None or act is None or act.moved or move_after_fire_refusal(act):
            return []
        world = world_of(state)
        return [
            Action(self.name, unit=unit.uid, point=p)
            for p in move_options(world, state, unit, self.speed)
        ]

    def check_act(self, world: World, state: SevenDaysState, unit: Unit, action: Action) -> None:
        act = state.flow.activation
        assert act is not None
        if act.moved:
            raise IllegalActionError(
                f"{unit.name} has already moved in this activation",
                "sevendays.activation.actions",
            )
        after_fire = move_after_fire_refusal(act)
        if after_fire is not None:
            raise IllegalActionError(f"{unit.name} {after_fire.reason}", after_fire.rule)
        if action.point is None:
            raise IllegalActionError(f"{self.name} needs a point", "sevendays.move.normal")
        refusal = check_move(world, state, unit, self.speed, action.point)
        if refusal:
            raise IllegalActionError(refusal.reason, refusal.rule)

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None and action.point is not None
        act.moved = True
        start = unit.pos
        events = do_move(world, state, unit, self.speed, action.point)
        members = self.members(state)
        if members:
            events += platoon.follow_move(world, state, members, self.speed, start, unit.pos)
        return events

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        name = self.name_of(state, action)
        if action.point is None:
            return f"{name}: {self.name}"
        d = math.dist(state.units[action.unit or ""].pos, action.point)
        return f'{self.name} {name} {d:.1f}" to ({action.point[0]:.1f}, {action.point[1]:.1f})'


class Turn(Act):
    """sevendays.move.turret: a vehicle with a limited arc turns to face an enemy (its move)."""

    name = "turn"
    rule = "sevendays.move.turret"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        act = state.flow.activation
        if unit is None or act is None or act.moved or move_after_fire_refusal(act):
            return []
        arc = fire_arc(world_of(state).profile(unit))
        if arc >= 360:
            return []
        return [
            Action("turn", unit=unit.uid, target=enemy.uid)
            for enemy in nearest_enemies(state, unit, 3)
            if not in_arc(unit.pos, unit.facing, arc, enemy.pos)
        ]

    def check_act(self, world: World, state: SevenDaysState, unit: Unit, action: Action) -> None:
        act = state.flow.activation
        assert act is not None
        if act.moved:
            raise IllegalActionError(
                f"{unit.name} has already moved in this activation",
                "sevendays.activation.actions",
            )
        after_fire = move_after_fire_refusal(act)
        if after_fire is not None:
            raise IllegalActionError(f"{unit.name} {after_fire.reason}", after_fire.rule)
        if state.units.get(action.target or "") is None:
            raise IllegalActionError("turn needs a unit to face", self.rule)

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        act.moved = True
        target = state.units[action.target or ""]
        unit.facing = round(bearing(unit.pos, target.pos), 1)
        state.touch()
        events = [note("turn", f"{unit.name} turns to face {target.name}", self.rule)]
        members = self.members(state)
        return events + (platoon.follow_turn(state, members, unit.facing) if members else [])

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        target = state.units.get(action.target or "")
        return f"{self.name_of(state, action)} turns to face {target.name if target else ''}"


class Shoot(Act):
    """sevendays.fire.*: fire (a gun), atgm (a guided missile, both actions) or rockets."""

    rule = "sevendays.fire.base"

    def __init__(self, name: str) -> None:
        self.name = name
        self.weapon = SHOT_WEAPONS[name]

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        act = state.flow.activation
        if unit is None or act is None or act.fired:
            return []
        world = world_of(state)
        if self.weapon not in world.shot_kinds(unit):
            return []
        enemies = [t for t in state.units.values() if t.alive and t.side != unit.side]
        # what the facts before the sight line foretell of each target's plan (as
        # known_plan would make it; firing.shot_outlook): a target whose shot is possible
        # whenever the unit sees it, or never, needs the centre line only (whether it sees),
        # not the obscured test's rays nor the full plan (tests/sevendays/test_shot_menu.py)
        moved = counts_moved(world, state, unit)
        outlooks = [
            shot_outlook(world, unit, t, self.weapon, moved=moved, actions_left=act.actions_left)
            for t in enemies
        ]
        full = [t for t, o in zip(enemies, outlooks, strict=True) if o == UNKNOWN]
        seen = [t for t, o in zip(enemies, outlooks, strict=True) if o in BY_SIGHT]
        if seen:  # (first: a lazy prefetch's queue lasts until the next prefetch_between)
            prefetch_between(world, [unit], seen, lazy=False, rays=False)
        prefetch_between(world, [unit], full)
        out = []
        open_to_move: list[Unit] = []  # targets a shot declared with a move may still reach
        # terrain surely blocking the line (known already from the prefetch) refuses every
        # shot but a mortar's (sevendays.los.blockers; a mortar fires on any friendly unit's
        # sight, sevendays.mortar.fire), standing or declared with a move: no plan is made
        sighted = self.weapon != "gun" or not is_mortar(world.profile(unit))
        for target, outlook in zip(enemies, outlooks, strict=True):
            if sighted and terrain_blocked(world, unit, target):
                continue
            if outlook in BY_SIGHT:
                # a ShotPlan (possible or not, as foretold) when the unit sees the target,
                # else the refusal sevendays.los.blockers (not one a move could lift)
                if sight(world, state, unit, target, obscured=False).visible:
                    if outlook == POSSIBLE:
                        out.append(Action(self.name, unit=unit.uid, target=target.uid))
                    open_to_move.append(target)
                continue
            plan = known_plan(world, state, unit, target, self.weapon)
            if isinstance(plan, ShotPlan):
                if plan.possible:
                    out.append(Action(self.name, unit=unit.uid, target=target.uid))
                open_to_move.append(target)
            elif plan.rule in MOVE_MAY_LIFT:
                open_to_move.append(target)
        if may_declare_move(state, self.name):  # sevendays.fire.modifier.moved: shoot and move
            for target in open_to_move:
                outlook = shot_outlook(
                    world, unit, target, self.weapon, moved=True, actions_left=act.actions_left
                )
                if outlook in (REFUSED, IMPOSSIBLE):
                    continue  # never a possible plan
                if outlook == POSSIBLE:
                    possible = sight(world, state, unit, target, obscured=False).visible
                else:
                    plan = known_plan(world, state, unit, target, self.weapon, then_move=True)
                    possible = isinstance(plan, ShotPlan) and plan.possible
                if possible:
                    out.append(
                        Action(self.name, unit=unit.uid, target=target.uid, option=THEN_MOVE)
                    )
        return out

    def check_act(self, world: World, state: SevenDaysState, unit: Unit, action: Action) -> None:
        act = state.flow.activation
        assert act is not None
        if act.fired:
            raise IllegalActionError(
                f"{unit.name} has already fired in this activation", "sevendays.fire.one_shot"
            )
        target = state.units.get(action.target or "")
        if target is None:
            raise IllegalActionError(f"no unit {action.target!r}", self.rule)
        if action.option not in (None, THEN_MOVE):
            raise IllegalActionError(
                f"unknown shot option {action.option!r} (only {THEN_MOVE!r})", self.rule
            )
        then_move = action.option == THEN_MOVE
        if then_move and not may_declare_move(state, self.name):
            raise IllegalActionError(
                f"{unit.name} cannot declare a move after this shot (it has moved already, "
                "or the shot leaves no action for a move)",
                "sevendays.fire.declared_move",
            )
        plan = known_plan(world, state, unit, target, self.weapon, then_move)
        if isinstance(plan, Refusal):
            raise IllegalActionError(plan.reason, plan.rule)
        if not plan.possible:
            raise IllegalActionError(
                f"{unit.name} cannot hit {target.name} with {plan.weapon_kind} "
                f"(needs {plan.need}+ on a d10)",
                "sevendays.fire.base",
            )

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        act.fired = True
        act.then_move = action.option == THEN_MOVE  # declared before the roll
        target = state.units[action.target or ""]
        plan = plan_shot(
            world,
            state,
            unit,
            target,
            self.weapon,
            moved=counts_moved(world, state, unit),
            actions_left=2 if self.name == "atgm" else act.actions_left + 1,
        )
        if isinstance(plan, Refusal):
            return [note("cancelled", f"{unit.name}'s shot is lost: {plan.reason}", plan.rule)]
        events = resolve_shot(world, state, plan)
        members = self.members(state)
        if members:
            moved = counts_moved(world, state, unit)
            events += platoon.follow_fire(world, state, members, target, self.weapon, moved)
        return events

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        world = world_of(state)
        units = state.units
        name = self.name_of(state, action)
        target = units[action.target or ""]
        then_move = action.option == THEN_MOVE
        plan = known_plan(world, state, units[action.unit or ""], target, self.weapon, then_move)
        if isinstance(plan, Refusal):
            return f"fire at {target.name} (not possible: {plan.reason})"
        odds = shot_odds(world, plan, units[plan.firer], target)
        return (
            f'{name} fires {plan.weapon_kind} at {target.name} {plan.range:.0f}"'
            + (", then moves" if then_move else "")
            + f": {plan.dice}d10 need {plan.need}+ [{describe_modifiers(plan)}] "
            f"P hit {odds.hit:.0%}, P kill {odds.out:.0%}"
        )


class Morale(Act):
    """sevendays.morale.battlegroup_check: a battlegroup morale check (both actions)."""

    name = "morale"
    rule = "sevendays.morale.battlegroup_check"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        if unit is None or not any(u.markers for u in state.alive(unit.side)):
            return []
        return [Action("morale", unit=unit.uid)]

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        return battlegroup_check(world, state, unit)

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return f"{self.name_of(state, action)}: battlegroup morale check (both actions)"


class FallBack(Act):
    """sevendays.morale.fall_back: a rapid move away that sheds markers (both actions)."""

    name = "fall_back"
    rule = "sevendays.morale.fall_back"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        if unit is None or not unit.markers:
            return []
        if fall_back_point(world_of(state), state, unit) is None:
            return []
        return [Action("fall_back", unit=unit.uid)]

    def refusal(self, state: SevenDaysState, side: str, action: Action) -> str:
        return f"{self.name_of(state, action)} cannot fall back (no markers or no room)"

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        act.moved = True
        point = fall_back_point(world, state, unit)
        if point is None:
            return [note("cancelled", f"{unit.name} has no room to fall back", None)]
        house_fired(state, self.rule)
        events = do_move(world, state, unit, "rapid", point)
        removed = min(unit.markers, world.house.fall_back_markers)
        unit.markers -= removed
        events.append(
            note(
                "rally",
                f"{unit.name} falls back and sheds {removed} marker(s)",
                self.rule,
                unit=unit.uid,
            )
        )
        return events

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return f"{self.name_of(state, action)}: fall back (both actions, sheds a marker)"


class Assault(Act):
    """sevendays.close_combat: infantry or support that has not acted assaults an enemy in
    reach of a normal move (both actions)."""

    name = "assault"
    rule = "sevendays.close_combat"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        act = state.flow.activation
        if unit is None or act is None or act.moved or act.fired:
            return []
        return [
            Action("assault", unit=unit.uid, target=t.uid)
            for t in assault_targets(world_of(state), state, unit)
        ]

    def refusal(self, state: SevenDaysState, side: str, action: Action) -> str:
        return (
            f"{self.name_of(state, action)} cannot assault {action.target!r}: infantry or "
            "support that has not acted, with an enemy in reach of a normal move"
        )

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        act.moved = act.fired = True
        target = state.units[action.target or ""]
        if target not in assault_targets(world, state, unit):
            # declared before the enemy's reaction (sevendays.reaction.window), which may have
            # moved the target out of reach (a recce-spotted reaction move)
            return [note("cancelled", f"{unit.name} can no longer reach {target.name}", self.rule)]
        return assault(world, state, unit, target)


class Smoke(Act):
    """sevendays.smoke: a mortar that has not fired lays smoke on an enemy a friend sees."""

    name = "smoke"
    rule = "sevendays.smoke"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        act = state.flow.activation
        world = world_of(state)
        if unit is None or act is None or act.fired or not is_mortar(world.profile(unit)):
            return []
        return [
            Action("smoke", unit=unit.uid, target=t.uid)
            for t in smoke_targets(world, state, unit, counts_moved(world, state, unit))
        ]

    def refusal(self, state: SevenDaysState, side: str, action: Action) -> str:
        return (
            f"{self.name_of(state, action)} cannot lay smoke there (a mortar that has not "
            'fired, on an enemy a friend sees beyond 12")'
        )

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        act.fired = True
        target = state.units[action.target or ""]
        if target not in smoke_targets(world, state, unit, counts_moved(world, state, unit)):
            # declared before the enemy's reaction (sevendays.reaction.window), which may have
            # changed the table (a recce-spotted reaction move)
            return [note("cancelled", f"{unit.name} can no longer lay smoke there", self.rule)]
        return lay_smoke(world, state, unit, target.pos)


class Exit(Act):
    """sevendays.victory.breakthrough: a unit at the edge it must break out by leaves."""

    name = "exit"
    rule = "sevendays.victory.breakthrough"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        if unit is None or not special.can_exit(world_of(state), unit):
            return []
        return [Action("exit", unit=unit.uid)]

    def refusal(self, state: SevenDaysState, side: str, action: Action) -> str:
        return f"{self.name_of(state, action)} is not at the edge it must break out by"

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        unit.status = Status.EXITED
        state.touch()
        act.actions_left = 0
        return [
            note(
                "exited",
                f"{unit.name} breaks through and leaves the table",
                self.rule,
                unit=unit.uid,
            )
        ]


class Embark(Act):
    """sevendays.transport.embark: into a friendly transport with room within 2"."""

    name = "embark"
    rule = "sevendays.transport.embark"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        world = world_of(state)
        if unit is None or not may_embark(world, state, unit):
            return []
        return [
            Action("embark", unit=unit.uid, target=c.uid)
            for c in transport.carriers_near(world, state, unit)
        ]

    def refusal(self, state: SevenDaysState, side: str, action: Action) -> str:
        return (
            f"{self.name_of(state, action)} cannot embark there "
            '(a friendly transport with room within 2")'
        )

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        act.actions_left = 0  # the passenger is off the table: its activation is over
        return transport.embark(state, unit, state.units[action.target or ""])


class Disembark(Act):
    """sevendays.transport.disembark: a transport lets a passenger out."""

    name = "disembark"
    rule = "sevendays.transport.disembark"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        unit = self.open(state)
        if unit is None:
            return []
        return [
            Action("disembark", unit=unit.uid, target=r.uid)
            for r in transport.passengers(state, unit)
        ]

    def refusal(self, state: SevenDaysState, side: str, action: Action) -> str:
        return f"{self.name_of(state, action)} carries no {action.target!r}"

    def effect(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        return transport.disembark(world, state, state.units[action.target or ""])


# -- the enemy's reaction --------------------------------------------------------------------
class React(Kind):
    """sevendays.reaction.window: a unit of the enemy reacts to the active unit (a shot, or a
    recce unit's move, sevendays.reaction.recce_spotting) if it passes its test."""

    name = "react"
    rule = "sevendays.reaction.window"

    def options(self, state: SevenDaysState, side: str) -> Iterable[Action]:
        world = world_of(state)
        act = state.flow.activation
        assert act is not None
        activator = state.units[act.unit]
        return reaction_actions(world, state, activator, state.flow.reacting_to_move)

    def check(self, state: SevenDaysState, side: str, action: Action) -> None:
        if self._option(state, action) is None:
            act = state.flow.activation
            assert act is not None
            raise IllegalActionError(
                f"{action.unit!r} cannot react to {state.units[act.unit].name} now", self.rule
            )

    def _option(self, state: SevenDaysState, action: Action) -> ReactionOption | None:
        """The listed option ``action`` names, found for its reactor alone (one check)."""
        act = state.flow.activation
        assert act is not None
        activator = state.units[act.unit]
        moving = state.flow.reacting_to_move
        return reaction_for(world_of(state), state, activator, action.unit, action.point, moving)

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        world = world_of(state)
        flow = state.flow
        act = flow.activation
        assert act is not None
        activator = state.units[act.unit]
        reactor = state.units[action.unit or ""]
        option = self._option(state, action)
        assert option is not None  # checked
        events = special.reveal(state, reactor, "it reacts")
        ok, rolled = roll_reaction(world, state, reactor, option)
        events += rolled
        if ok and option.plan is not None:
            # rolled from the whole truth (hidden markers count), as the umpire knows it
            truth = best_plan(
                world,
                state,
                reactor,
                activator,
                reaction=True,
                target_moving=flow.reacting_to_move,
            )
            if isinstance(truth, ShotPlan):
                events += resolve_shot(world, state, truth)
        elif ok and option.point is not None:  # sevendays.reaction.recce_spotting
            house_fired(state, "sevendays.reaction.recce_spotting")
            events += do_move(world, state, reactor, "normal", option.point)
        return events + close_window(world, state)

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        world = world_of(state)
        units = state.units
        act = state.flow.activation
        assert act is not None
        activator = units[act.unit]
        name = units[action.unit].name if action.unit in units else ""
        for o in reaction_options(world, state, activator, state.flow.reacting_to_move):
            if o.unit == action.unit and o.plan is None and o.point is not None:
                if action.point is not None and o.point == tuple(action.point):
                    x, y = o.point
                    return (
                        f"react with {name}: needs {o.need}+ on d6, then moves to "
                        f"({x:.1f}, {y:.1f}) (a recce unit sees the enemy)"
                    )
            elif o.unit == action.unit and o.plan is not None and action.point is None:
                odds = shot_odds(world, o.plan, units[o.unit], activator)
                return (
                    f"react with {name}: needs {o.need}+ on d6, then {o.plan.weapon_kind} "
                    f"needs {o.plan.need}+ (P hit {odds.hit:.0%}, P kill {odds.out:.0%})"
                )
        return f"react with {name}"


class NoReact(FixedChoice[SevenDaysState]):
    """The enemy lets the active unit's move or declared act go unanswered."""

    name = "no_react"
    rule = "sevendays.reaction.window"

    def resolve(self, state: SevenDaysState, side: str, action: Action) -> list[Event]:
        events = [note("no_react", f"{side.upper()} does not react", None)]
        return events + close_window(world_of(state), state)

    def describe(self, state: SevenDaysState, side: str, action: Action) -> str:
        return "do not react"


def close_window(world: World, state: SevenDaysState) -> list[Event]:
    """The reaction window closes: the declared act (if any) goes ahead, if its unit lives."""
    flow = state.flow
    events = check_break(world, state)
    if flow.outcome is not None:
        return events
    if _top(state, Phase.REACT) is not None:
        flow.core.stack.pop()
    act = flow.activation
    assert act is not None
    activator = state.units[act.unit]
    pending, flow.pending = flow.pending, None
    flow.reacting_to_move = False
    if pending is not None:
        if activator.alive:
            kind = ACT_KIND[pending.kind]
            events += kind.carry_out(world, state, activator, pending)
        else:
            act.actions_left = 0
    return events + after_action(world, state)


ACTS: tuple[Act, ...] = (
    *(Shoot(k) for k in SHOT_KINDS),
    Move("move"),
    Turn(),
    Move("rapid"),
    Move("road"),
    Morale(),
    FallBack(),
    Assault(),
    Smoke(),
    Exit(),
    Embark(),
    Disembark(),
    End(),
)
ACT_KIND = {k.name: k for k in ACTS}
KINDS: tuple[Kind, ...] = (
    Swap(),
    Card(),
    NoResponse(),
    OffBoard(),
    Activate(),
    Pass(),
    *ACTS,
    React(),
    NoReact(),
)
