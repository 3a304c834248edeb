"""Seven Days state: flow metadata (turn, initiative, pools, whose decision) apart from the
game data (units). Everything here is plain data that round-trips through JSON."""

from __future__ import annotations

import copy
import itertools
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any

from umpire.core.actions import Action
from umpire.core.events import Event
from umpire.core.flow import FlowState, Pending, SecretCommit
from umpire.core.rng import RandomStream


class Side(StrEnum):
    """The two sides (a StrEnum equals its string: records and JSON are unchanged)."""

    NATO = "nato"
    PACT = "pact"


class Status(StrEnum):
    """Where a unit is: on the table, destroyed, removed by morale, in reserve, off the table
    by the exit edge, or riding in a transport."""

    ACTIVE = "active"
    DESTROYED = "destroyed"
    REMOVED = "removed"
    RESERVE = "reserve"
    EXITED = "exited"
    EMBARKED = "embarked"
    # about to be removed by its morale markers while its owner may still play Against All
    # Odds (sevendays.cards.against_all_odds): off the table's play, not yet a loss
    DOOMED = "doomed"


class Phase(StrEnum):
    """What the game waits for: the card swap before turn 1, an activation (or a pass), the
    active unit's actions, the enemy's reaction, an answer to a card, or nothing (over).

    ``activate`` is the turn's one phase of the core flow (see ``turns.FLOW``); ``swap``,
    ``act``, ``react`` and ``card`` are the stages of the pending decisions on its stack."""

    SWAP = "swap"
    DEPLOY = "deploy"  # free deployment before the swap (deployment.py; option deployment)
    ACTIVATE = "activate"
    ACT = "act"
    REACT = "react"
    CARD = "card"
    RESCUE = "rescue"  # a unit is about to be removed: its owner may play Against All Odds
    OFF_BOARD = "off_board"  # Divisional Artillery: an off-board unit takes the roll or stays off
    OVER = "over"


SIDES = (Side.NATO, Side.PACT)

# The action kinds each decision allows, in the order a menu lists them (see kinds.py).
ACTIVATE_KINDS = ("activate", "pass", "card")
SHOT_KINDS = ("fire", "atgm", "rockets")
ACT_KINDS = (
    *SHOT_KINDS,
    "move",
    "turn",
    "rapid",
    "road",
    "morale",
    "fall_back",
    "assault",
    "smoke",
    "exit",
    "embark",
    "disembark",
    "end",
    "card",
)
REACT_KINDS = ("react", "no_react", "card")
CARD_KINDS = ("card", "no_response")
RESCUE_KINDS = ("card", "no_response")  # Against All Odds on the unit, or let it go
OFF_BOARD_KINDS = ("off_board",)
SWAP_KINDS = ("card", "swap")

# Every arrangement of units on the table gets a number never used before, so caches of
# geometry (sight lines, shot plans) can key on it safely across games, clones and branches.
_GEOMETRY = itertools.count(1)


def new_geometry() -> int:
    return next(_GEOMETRY)


# arrangement -> its number, kept for the latest few thousand arrangements (a number is never
# given twice: an arrangement forgotten and seen again gets a new one, and only its cached
# sight lines and plans are lost)
_ARRANGEMENTS: dict[tuple[object, ...], int] = {}


def arrangement_key(state: SevenDaysState) -> int:
    """The number of ``state``'s arrangement of units (see ``SevenDaysState.geometry``)."""
    place = unit_place
    return arrangement_number(
        (
            tuple(map(place, state.units.values())),
            tuple(state.smoke),
            tuple(state.mortar_marks),
        )
    )


def arrangement_number(arrangement: tuple[object, ...]) -> int:
    """The number of an arrangement: (each unit's ``unit_place`` in table order, the smoke, the
    mortar marks), all tuples."""
    found = _ARRANGEMENTS.get(arrangement)
    if found is None:
        if len(_ARRANGEMENTS) >= 1024:
            _ARRANGEMENTS.clear()
        found = _ARRANGEMENTS[arrangement] = next(_GEOMETRY)
    return found


def copy_cards(cards: dict[str, Any] | None) -> dict[str, Any] | None:
    """An independent copy of the card state (plain lists and dicts)."""
    if cards is None:
        return None
    return {
        "deck": list(cards["deck"]),
        "hands": {side: list(hand) for side, hand in cards["hands"].items()},
        "discard": list(cards["discard"]),
        "set_aside": {side: list(c) for side, c in cards.get("set_aside", {}).items()},
        "chain": [dict(entry) for entry in cards["chain"]],
    }


def other(side: str) -> Side:
    return Side.PACT if side == Side.NATO else Side.NATO


class WriteLog:
    """Every unit whose field was written to, in the order of the writes (a unit once per
    write; see :meth:`Unit.__setattr__`), so that a reader that remembers its place in the log
    reads again only the units written since (visibility.observed_units) instead of every
    unit.

    When the log reaches ``KEPT`` entries a new list takes its place (``units``); the old one
    is never changed again, so a reader holding it (another thread's game, say) reads it
    whole, and a reader whose list is no longer the log's (or whose memo was copied) reads
    every unit again. A write sets the field first and then appends to the list that is the
    log at that moment: a reader that took a list before a write either reads the new value
    or finds the write in its list or a newer one."""

    KEPT = 4096

    __slots__ = ("units",)

    def __init__(self) -> None:
        self.units: list[Unit] = []

    def clear(self) -> list[Unit]:
        """Start a new list (the old one is left as it is to whoever holds it)."""
        fresh: list[Unit] = []
        self.units = fresh
        return fresh


WRITES = WriteLog()


class WriteCursor:
    """One reader's place in :data:`WRITES` (visibility's unit records, tally's groups): made
    before the reader reads the units, so a write after that is found by :meth:`since`."""

    __slots__ = ("log", "place")

    def __init__(self) -> None:
        self.log = WRITES.units  # this reader's list: it is only ever appended to
        self.place = len(self.log)

    def holds(self) -> bool:
        """Whether the reader's list is still the log (else it must read every unit again)."""
        return self.log is WRITES.units

    def since(self) -> list[Unit]:
        """The units written since the last call (in the order written, once per write)."""
        written = self.log
        place, end = self.place, len(written)
        if place == end:
            return []
        self.place = end
        return written[place:end]


_set_slot = object.__setattr__


@dataclass(slots=True)
class Unit:
    """One model or stand on the table.

    Every write to a field is noted in :data:`WRITES` (the rules change units in place in
    many modules; the log lets a reader find the few units an action changed)."""

    uid: str
    side: Side
    profile: str  # "nation/unit-id", e.g. "uk/chieftain-mk9"
    name: str
    x: float
    y: float
    facing: float  # degrees, 0 = +x (east), 90 = +y (north)
    tokens: int = 0  # command tokens placed on it this turn (activations and reactions)
    markers: int = 0  # morale markers
    status: Status = Status.ACTIVE
    wreck: bool = False
    commander: bool = False
    hidden: bool = False  # a hidden marker the enemy sees only as ``marker``
    marker: str | None = None  # the opaque id the enemy knows a hidden marker by
    dug_in: bool = False
    carried_by: str | None = None  # the transport it rides in (status "embarked")
    barred_turn: int = 0  # an off-board unit that avoided Divisional Artillery: not this turn

    def __setattr__(self, name: str, value: object) -> None:
        _set_slot(self, name, value)  # first the field, then the note (see WriteLog)
        log = WRITES.units
        if len(log) >= WriteLog.KEPT:
            log = WRITES.clear()
        log.append(self)

    @property
    def alive(self) -> bool:
        return self.status == "active"

    @property
    def pos(self) -> tuple[float, float]:
        return (self.x, self.y)


UNIT_FIELDS = tuple(f.name for f in fields(Unit))
_unit_values = attrgetter(*UNIT_FIELDS)  # in the order Unit() takes them
_new_object = object.__new__


def copy_unit(unit: Unit) -> Unit:
    """A copy of ``unit`` (every field is a plain value), made without noting its fields'
    writes in :data:`WRITES`: a new Unit is no reader's, and readers know their units by
    identity (the log is for changes to units a reader has seen)."""
    twin: Unit = _new_object(Unit)
    for name, value in zip(UNIT_FIELDS, _unit_values(unit), strict=True):
        _set_slot(twin, name, value)
    return twin


# what a sight line or a shot plan may read of a unit: all but its command tokens and its
# morale markers (a shot plan keys on its firer's markers itself)
unit_place = attrgetter(*(f for f in UNIT_FIELDS if f not in ("tokens", "markers")))


@dataclass(slots=True)
class Activation:
    """The unit now activated and what it has done so far in this activation."""

    unit: str
    actions_left: int = 2
    moved: bool = False
    fired: bool = False
    # its shot was declared with a move after it (sevendays.fire.modifier.moved: "fires and
    # moves"); a unit that fired without declaring one may not move in this activation
    then_move: bool = False
    window_used: bool = False  # the enemy's one reaction window for this activation
    doomed: bool = False  # a helicopter to be removed once its attack is done (sevendays.air)
    platoon: list[str] = field(default_factory=list)  # units activated with it (platoon action)


def copy_stack(stack: list[Pending | SecretCommit]) -> list[Pending | SecretCommit]:
    """An independent copy of a decision stack (Seven Days pushes only :class:`Pending`)."""
    return [
        Pending(d.side, d.kinds, d.stage, dict(d.data))
        if isinstance(d, Pending)
        else SecretCommit(d.sides, d.kinds, d.stage, dict(d.committed), dict(d.data))
        for d in stack
    ]


def copy_core(core: FlowState) -> FlowState:
    return FlowState(
        core.turn, core.phase, core.stage, core.active, copy_stack(core.stack), core.over
    )


@dataclass(slots=True)
class Flow:
    """Flow metadata (boardgame.io's ``ctx``).

    ``core`` is the position of the core flow (``turns.FLOW``): the turn's phase and the stack
    of pending decisions (the card swap, the active unit's acts, the enemy's reaction window,
    a card response window). It alone decides who acts; ``phase`` and ``to_act`` are its
    reading for observers (written by ``turns.sync`` after every step), kept because players
    and views read them."""

    turn: int = 1
    initiative: Side = Side.NATO
    phase: Phase = Phase.ACTIVATE  # derived from ``core`` (see turns.sync)
    to_act: Side | None = Side.NATO  # derived from ``core`` (see turns.sync)
    pools: dict[str, int] = field(default_factory=lambda: {"nato": 0, "pact": 0})
    passes: int = 0  # consecutive passes of the initiative
    activation: Activation | None = None
    pending: Action | None = None  # action declared by the active unit, awaiting reactions
    seized_by: Side | None = None  # a side that seized the initiative during this activation
    reacting_to_move: bool = False  # the open reaction window follows a move
    outcome: dict[str, Any] | None = None
    objectives_left_on: int | None = None  # capture: turn the defender left every objective
    turn_over: bool = False  # both sides passed, or neither has a token left
    core: FlowState = field(default_factory=FlowState)


FLOW_FIELDS = tuple(f.name for f in fields(Flow))
ACTIVATION_FIELDS = tuple(f.name for f in fields(Activation))


def flow_dict(flow: Flow) -> dict[str, Any]:
    """``asdict(flow)`` with the pending action in its JSON form, written out: every
    observation reads it, and ``asdict`` deep-copies field by field (20x slower). The keys in
    the fields' order (``FLOW_FIELDS``, ``ACTIVATION_FIELDS``: tests/sevendays/test_flow_dict
    holds them to it), as one literal (a third quicker than a comprehension over the names)."""
    act = flow.activation
    pending = flow.pending
    outcome = flow.outcome
    return {
        "turn": flow.turn,
        "initiative": flow.initiative,
        "phase": flow.phase,
        "to_act": flow.to_act,
        "pools": dict(flow.pools),
        "passes": flow.passes,
        "activation": None
        if act is None
        else {
            "unit": act.unit,
            "actions_left": act.actions_left,
            "moved": act.moved,
            "fired": act.fired,
            "then_move": act.then_move,
            "window_used": act.window_used,
            "doomed": act.doomed,
            "platoon": list(act.platoon),
        },
        "pending": pending.to_dict() if pending else None,
        "seized_by": flow.seized_by,
        "reacting_to_move": flow.reacting_to_move,
        "outcome": copy.deepcopy(outcome) if outcome is not None else None,
        "objectives_left_on": flow.objectives_left_on,
        "turn_over": flow.turn_over,
        "core": flow.core.to_dict(),
    }


@dataclass
class SevenDaysState:
    scenario: str
    seed: int
    rng: RandomStream
    flow: Flow
    units: dict[str, Unit]
    options: dict[str, Any] = field(default_factory=dict)
    house_fired: dict[str, int] = field(default_factory=dict)
    actions_played: int = 0
    setup_events: list[Event] = field(default_factory=list)
    # Tactical Advantage cards (see cards.py): deck, hands, discard, chain; None when not in play
    cards: dict[str, Any] | None = None
    # smoke screens this turn, (x, y, radius) (sevendays.smoke), and where mortars have fired
    # this turn (sevendays.mortar.ranging)
    smoke: list[tuple[float, float, float]] = field(default_factory=list)
    mortar_marks: list[tuple[float, float]] = field(default_factory=list)
    # not saved: the number of the arrangement of units (see ``geometry``), 0 until asked for
    arrangement: int = field(default=0, repr=False, compare=False)
    # not saved: units off the table when no side was last found broken (victory.py)
    checked_losses: int = field(default=-1, repr=False, compare=False)
    # not saved: the static World this state plays on (see SevenDays.world)
    world_memo: Any = field(default=None, repr=False, compare=False)
    # not saved: the last reaction options computed on this state (see reactions.py)
    reaction_memo: tuple[tuple[object, ...], tuple[Any, ...]] | None = field(
        default=None, repr=False, compare=False
    )
    # not saved: a reaction window's per-reactor answers (see reactions.shot_option)
    reactor_memo: tuple[tuple[object, ...], dict[str | None, Any]] | None = field(
        default=None, repr=False, compare=False
    )
    # not saved: the units by status and by carrier, kept from the log of writes (tally.py)
    tally_memo: Any = field(default=None, repr=False, compare=False)
    # not saved: each unit's latest observed record, by uid (see visibility.unit_record)
    record_memo: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] | None = field(
        default=None, repr=False, compare=False
    )

    def records(self) -> dict[str, tuple[tuple[Any, ...], dict[str, Any]]]:
        """The memo of observed unit records (made on first use)."""
        memo = self.record_memo
        if memo is None:
            memo = self.record_memo = {}
        return memo

    @property
    def geometry(self) -> int:
        """The key of the sight and shot-plan caches: the number of this arrangement of units
        (every unit's fields but its command tokens and morale markers, the smoke and the mortar
        marks), worked out when first asked for after a :meth:`touch`. States that look
        alike share it (a clone, a replay, a side's picture of the table when that side knows
        it all), so they share what was worked out."""
        key = self.arrangement
        if not key:
            key = self.arrangement = arrangement_key(self)
        return key

    def touch(self) -> None:
        """Note that a unit moved, turned, or left the table (invalidates geometry caches)."""
        self.arrangement = 0

    def alive(self, side: str | None = None) -> list[Unit]:
        # Unit.alive, written out (a property call per unit costs more than the comparison)
        if side is None:
            return [u for u in self.units.values() if u.status == "active"]
        return [u for u in self.units.values() if u.status == "active" and u.side == side]

    # -- JSON ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        flow = flow_dict(self.flow)
        return {
            "scenario": self.scenario,
            "seed": self.seed,
            "rng": self.rng.to_dict(),
            "flow": flow,
            # unit fields are all plain values: a shallow copy is a full copy (and much faster
            # than dataclasses.asdict, which deep-copies)
            "units": [{f: getattr(u, f) for f in UNIT_FIELDS} for u in self.units.values()],
            "options": self.options,
            "house_fired": dict(self.house_fired),
            "actions_played": self.actions_played,
            "cards": copy_cards(self.cards),
            "smoke": [list(c) for c in self.smoke],
            "mortar_marks": [list(m) for m in self.mortar_marks],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SevenDaysState:
        raw_flow = dict(data["flow"])
        activation = raw_flow.pop("activation", None)
        pending = raw_flow.pop("pending", None)
        core = raw_flow.pop("core", None)
        names = {f.name for f in fields(Flow)}
        flow = Flow(**{k: v for k, v in raw_flow.items() if k in names})
        flow.initiative = Side(flow.initiative)
        flow.phase = Phase(flow.phase)
        flow.to_act = Side(flow.to_act) if flow.to_act is not None else None
        if flow.seized_by is not None:
            flow.seized_by = Side(flow.seized_by)
        flow.activation = Activation(**activation) if activation else None
        flow.pending = Action.from_dict(pending) if pending else None
        flow.core = FlowState.from_dict(core) if core else FlowState()
        units = {
            u["uid"]: Unit(**{**u, "side": Side(u["side"]), "status": Status(u["status"])})
            for u in data["units"]
        }
        return cls(
            scenario=data["scenario"],
            seed=int(data["seed"]),
            rng=RandomStream.from_dict(data["rng"]),
            flow=flow,
            units=units,
            options=dict(data.get("options", {})),
            house_fired=dict(data.get("house_fired", {})),
            actions_played=int(data.get("actions_played", 0)),
            cards=copy_cards(data.get("cards")),
            smoke=[(float(x), float(y), float(r)) for x, y, r in data.get("smoke", [])],
            mortar_marks=[(float(x), float(y)) for x, y in data.get("mortar_marks", [])],
        )

    def clone(self) -> SevenDaysState:
        flow = Flow(
            turn=self.flow.turn,
            initiative=self.flow.initiative,
            phase=self.flow.phase,
            to_act=self.flow.to_act,
            pools=dict(self.flow.pools),
            passes=self.flow.passes,
            activation=(
                Activation(**asdict(self.flow.activation)) if self.flow.activation else None
            ),
            pending=self.flow.pending,
            seized_by=self.flow.seized_by,
            reacting_to_move=self.flow.reacting_to_move,
            outcome=dict(self.flow.outcome) if self.flow.outcome else None,
            objectives_left_on=self.flow.objectives_left_on,
            turn_over=self.flow.turn_over,
            core=copy_core(self.flow.core),
        )
        # every field is a plain value: a copy of each value is a full copy (asdict's deep
        # copy, field by field, costs far more)
        units = {k: copy_unit(u) for k, u in self.units.items()}
        return SevenDaysState(
            scenario=self.scenario,
            seed=self.seed,
            rng=self.rng.clone(),
            flow=flow,
            units=units,
            options=self.options,
            house_fired=dict(self.house_fired),
            actions_played=self.actions_played,
            cards=copy_cards(self.cards),
            smoke=list(self.smoke),
            mortar_marks=list(self.mortar_marks),
            setup_events=list(self.setup_events),  # immutable events: a shallow copy is full
        )
