"""Turn flow: token pools, initiative, activations and passing (sevendays.tokens.*,
sevendays.initiative.*, sevendays.activation.*), declared as a core :class:`Flow`.

The turn has one phase of decisions, ``activate``: the side with the initiative activates a
unit or passes until both pass or neither has a token (``Flow.turn_over``); its ``on_begin``
is the start of the turn (tokens, the initiative roll) and its ``on_end`` the end-of-turn
checks (break point, abandoned objectives, the last turn). An empty ``swap`` phase leads the
turn: before turn 1 each side's card swap is a pending decision pushed at the deal, so turn 1
begins only once both have swapped.

Everything else is a :class:`Pending` decision on the flow's stack: the activated unit's acts
(stage ``act``), above it the enemy's reaction window (``react``), and above any decision a
card's response window (``card``). The top decision is answered first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from umpire.core.chance import DiceOff
from umpire.core.events import Event, note
from umpire.core.flow import Flow, Pending
from umpire.core.flow import Phase as FlowPhase
from umpire.core.switches import Mode, switches_in, verdict_events
from umpire.rulesets.sevendays import special
from umpire.rulesets.sevendays.air import end_of_activation
from umpire.rulesets.sevendays.dice import d6_test
from umpire.rulesets.sevendays.morale import house_fired
from umpire.rulesets.sevendays.platoon import worst
from umpire.rulesets.sevendays.state import (
    ACT_KINDS,
    ACTIVATE_KINDS,
    SIDES,
    Activation,
    Phase,
    SevenDaysState,
    Side,
    Unit,
    other,
)
from umpire.rulesets.sevendays.victory import check_break, end_of_game, finish
from umpire.rulesets.sevendays.world import World

if TYPE_CHECKING:
    from umpire.core.catalog import RuleEntry


def world_of(state: SevenDaysState) -> World:
    """The static side of the game ``state`` plays on (remembered on the state)."""
    found = state.world_memo
    if found is None:
        from umpire.rulesets.sevendays.ruleset import SevenDays

        found = SevenDays.shared().world(state)
    return found  # type: ignore[no-any-return]


def pool_size(world: World, state: SevenDaysState, side: str) -> int:
    """Rules sevendays.tokens.pool / .apc / .commander."""
    size = 0
    for unit in state.units.values():
        if (unit.alive or unit.status == "embarked") and unit.side == side:
            if world.generates_token(unit):
                size += 1
            if unit.commander:
                size += 2
    return size


ACTIVATION_TEST = "sevendays.activation.test"  # a rule switch (umpire.core.switches)


def _catalog() -> Mapping[str, RuleEntry]:
    from umpire.rulesets.sevendays.config import rule_catalog

    return rule_catalog()


def activation_need(unit: Unit) -> int | None:
    """Rule sevendays.activation.test: ``None`` for a first activation, else the d6 score
    needed (higher than tokens + markers; a natural 6 always passes, so never above 6)."""
    return activation_score(unit.tokens, unit.markers)


def activation_score(tokens: int, markers: int) -> int | None:
    """The d6 score an activation test needs with ``tokens`` already on the unit and
    ``markers`` morale markers (``None``: the first activation needs no test)."""
    if tokens == 0:
        return None
    return min(6, tokens + markers + 1)


def start_turn(world: World, state: SevenDaysState) -> list[Event]:
    flow = state.flow
    events: list[Event] = [note("turn", f"--- Turn {flow.turn} ---", None, turn=flow.turn)]
    for unit in state.units.values():
        unit.tokens = 0
    if state.smoke or state.mortar_marks:  # sevendays.smoke / sevendays.mortar.ranging
        state.smoke.clear()
        state.mortar_marks.clear()
        state.touch()
    for side in SIDES:
        flow.pools[side] = pool_size(world, state, side)
    for side in SIDES:
        extra, rolled = special.extra_tokens(world, state, side)
        flow.pools[side] += extra
        events += rolled
    events.append(
        note(
            "pools",
            f"command tokens: NATO {flow.pools['nato']}, PACT {flow.pools['pact']}",
            "sevendays.tokens.pool",
            pools=dict(flow.pools),
        )
    )
    first = world.scenario.spec.first_initiative
    if flow.turn == 1 and first != "roll":
        flow.initiative = Side(first)
        events.append(note("initiative", f"{first.upper()} starts with the initiative", None))
    else:
        while True:  # a tie is rolled again
            difference = INITIATIVE_ROLL.sample(state.rng, events)
            if difference:
                flow.initiative = Side.NATO if difference > 0 else Side.PACT
                break
    flow.passes = 0
    flow.turn_over = False
    flow.activation = None
    flow.pending = None
    flow.seized_by = None
    events += settle_initiative(world, state)
    return events


def _initiative_words(nato: int, pact: int, _a: int, _b: int) -> str:
    winner = " -> NATO" if nato > pact else " -> PACT" if pact > nato else " -> tie, roll again"
    return f"initiative: NATO {nato} vs PACT {pact}{winner}"


# sevendays.initiative.roll: a d6 each, NATO's first; the higher takes the initiative
INITIATIVE_ROLL = DiceOff(
    "sevendays.initiative.roll", 6, text=_initiative_words, success=lambda d: d != 0
)


def settle_initiative(world: World, state: SevenDaysState) -> list[Event]:
    """Hand the initiative on when its holder has no tokens; end the turn when neither has."""
    flow = state.flow
    if flow.outcome is not None:
        return []
    events: list[Event] = []
    if flow.pools[flow.initiative] <= 0:
        if flow.pools[other(flow.initiative)] <= 0:
            flow.turn_over = True
            return events
        house_fired(state, "sevendays.initiative.exhausted")
        flow.initiative = other(flow.initiative)
        events.append(
            note(
                "initiative",
                f"{other(flow.initiative).upper()} has no tokens left: "
                f"{flow.initiative.upper()} takes the initiative",
                "sevendays.initiative.exhausted",
            )
        )
    return events


def pass_initiative(world: World, state: SevenDaysState) -> list[Event]:
    """Rule sevendays.initiative.pass."""
    flow = state.flow
    side = flow.initiative
    flow.passes += 1
    events = [note("pass", f"{side.upper()} passes the initiative", "sevendays.initiative.pass")]
    if flow.passes >= 2 or flow.pools[other(side)] <= 0:
        flow.turn_over = True
        return events
    flow.initiative = other(side)
    return events


def activate(
    world: World, state: SevenDaysState, unit: Unit, platoon: list[Unit] | None = None
) -> list[Event]:
    """Spend a token on ``unit``; test if it already acted this turn. With a ``platoon``
    (sevendays.activation.platoon) the same token activates them all: the worst unit tests,
    and each takes a token."""
    flow = state.flow
    members = platoon or []
    tester = worst([unit, *members]) if members else unit
    need = activation_need(tester)
    flow.pools[unit.side] -= 1
    for u in (unit, *members):
        u.tokens += 1
    flow.passes = 0
    events: list[Event] = []
    if members:
        house_fired(state, "sevendays.activation.platoon")
        names = ", ".join(u.name for u in members)
        events.append(
            note(
                "platoon",
                f"{unit.name} leads a platoon action with {names}",
                "sevendays.activation.platoon",
                unit=unit.uid,
                platoon=[u.uid for u in members],
            )
        )
    test = switches_in(state.options).mode(ACTIVATION_TEST)
    if need is not None and test is Mode.OFF:  # a rule switch: no activation test is rolled
        events.append(
            note(
                "activate",
                f"{unit.name} activates (its activation test is switched off)",
                "sevendays.activation.token",
                unit=unit.uid,
            )
        )
    elif need is not None:
        ok, _, event = d6_test(
            state,
            "sevendays.activation.test",
            need,
            f"{tester.name} activation test (tokens {tester.tokens - 1} + markers "
            f"{tester.markers})",
            ("activates", "fails, token lost"),
            six_passes=True,
            unit=unit.uid,
        )
        events.append(event)
        verdict = switches_in(state.options).check(
            ACTIVATION_TEST, ok, f"{tester.name} failed its activation test and activates anyway"
        )
        if not verdict.allowed:
            return events + end_activation(world, state)
        events += verdict_events(verdict, _catalog(), unit.side)
    else:
        events.append(
            note("activate", f"{unit.name} activates", "sevendays.activation.token", unit=unit.uid)
        )
    flow.activation = Activation(unit=unit.uid, platoon=[u.uid for u in members])
    flow.core.stack.append(Pending(unit.side, ACT_KINDS, Phase.ACT, {"unit": unit.uid}))
    return events


def end_activation(world: World, state: SevenDaysState) -> list[Event]:
    flow = state.flow
    act = flow.activation
    done: list[Event] = []
    if act is not None and act.doomed:  # sevendays.air.aa_effect: leaves after its attack
        done = end_of_activation(state, state.units[act.unit], True)
    flow.activation = None
    flow.pending = None
    flow.reacting_to_move = False
    # the activation's decisions (its acts, an open reaction window) leave the stack
    flow.core.stack[:] = [d for d in flow.core.stack if d.stage not in (Phase.ACT, Phase.REACT)]
    events = done + check_break(world, state)
    if flow.outcome is not None:
        return events
    if flow.seized_by is not None:
        if flow.seized_by != flow.initiative:
            events.append(
                note(
                    "initiative",
                    f"{flow.seized_by.upper()} seizes the initiative",
                    "sevendays.reaction.seize",
                )
            )
        flow.initiative = flow.seized_by
        flow.seized_by = None
    return events + settle_initiative(world, state)


def end_turn(world: World, state: SevenDaysState) -> list[Event]:
    """The end-of-turn checks: a broken side, abandoned objectives (sevendays.victory.capture),
    the last turn (and, in a scenario of random length, whether the operation goes on)."""
    flow = state.flow
    events = check_break(world, state)
    if flow.outcome is not None:
        return events
    if special.capture_lost(world, state):
        attacker = world.scenario.spec.attacker
        assert attacker is not None
        return events + finish(world, state, attacker, "objectives abandoned")
    if flow.turn >= world.scenario.spec.turns:
        if not world.scenario.spec.random_length:
            return events + end_of_game(world, state)
        more, rolled = special.operation_continues(world, state)
        events += rolled
        if not more:
            return events + end_of_game(world, state)
    return events


# -- the flow -------------------------------------------------------------------------------
def _begin_turn(state: SevenDaysState) -> list[Event]:
    state.flow.turn = state.flow.core.turn
    return []


def _initiative_holder(state: SevenDaysState) -> str | None:
    flow = state.flow
    return None if flow.turn_over else str(flow.initiative)


FLOW: Flow[SevenDaysState] = Flow(
    [
        FlowPhase(Phase.SWAP),
        FlowPhase(
            Phase.ACTIVATE,
            ACTIVATE_KINDS,
            to_act=_initiative_holder,
            on_begin=lambda state: start_turn(world_of(state), state),
            on_end=lambda state: end_turn(world_of(state), state),
        ),
    ],
    lambda state: state.flow.core,
    on_turn_begin=_begin_turn,
    game_over=lambda state: state.flow.outcome is not None,
)


def in_play(state: SevenDaysState) -> bool:
    """Whether the decision now due is play: turn 1 has begun. The card swap before it, and
    any card played during the swap, are set-up (the ``in_play`` capability: ``umpire
    simulate`` names the side of the first decision in play as the first player)."""
    return state.flow.core.phase == Phase.ACTIVATE and not state.flow.core.over


_PHASES = {p.value: p for p in Phase}  # a member's value (or itself) -> the member
_SIDES = {s.value: s for s in Side}


def sync(state: SevenDaysState) -> None:
    """Write the flow's reading for observers: ``phase`` (the stage of the decision on top of
    the stack, ``activate`` when none, ``over``) and the side ``to_act``."""
    flow = state.flow
    core = flow.core
    if core.over or flow.outcome is not None:
        flow.phase, flow.to_act = Phase.OVER, None
    elif core.stack:
        top = core.stack[-1]
        # the members by value, looked up (an enum's constructor is a Python call)
        flow.phase, flow.to_act = _PHASES[top.stage], _SIDES[top.side]
    else:
        flow.phase, flow.to_act = Phase.ACTIVATE, flow.initiative
