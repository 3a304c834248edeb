"""Portable Wargame state: the flow's position (turn, phase, pending decisions: the core
:class:`~umpire.core.flow.FlowState`) and what the turn keeps (order, activations, declared
fire) apart from the game data (units, minefields, wire, gas clouds). Everything round-trips
through JSON."""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

from umpire.core.events import Event
from umpire.core.flow import FlowState, Pending
from umpire.core.rng import RandomStream
from umpire.geometry.squaregrid import Square
from umpire.rulesets.portable.enums import SIDES, Side, Stage, Status

RETREAT_KINDS = ("retreat", "stand")
_ACTIVE = Status.ACTIVE

__all__ = ["SIDES", "PortableState", "Side", "Status", "TurnInfo", "Unit", "other"]


def other(side: str) -> Side:
    """The enemy of ``side``."""
    return Side(side).other


_SIDES_BY_NAME = {str(s): s for s in Side}
_STATUS_BY_NAME = {str(s): s for s in Status}


def _side(name: str) -> Side:
    """``Side(name)`` (a look-up, not the enum's call, for the units read at every decision)."""
    found = _SIDES_BY_NAME.get(name)
    return Side(name) if found is None else found


def _status(name: str) -> Status:
    found = _STATUS_BY_NAME.get(name)
    return Status(name) if found is None else found


@dataclass(slots=True)
class Unit:
    """A unit on the board (or an aircraft over it)."""

    uid: str
    side: Side
    type: str
    name: str
    quality: str
    sp: int
    max_sp: int
    x: int
    y: int
    facing: str
    status: Status = Status.ACTIVE
    air: bool = False
    artillery: str | None = None
    carried_by: str | None = None
    moved: bool = False  # this turn
    full_move: bool = False  # this turn: moved its whole allowance, so it may not fire
    fired: bool = False  # this turn
    fought: bool = False  # this turn
    activated: bool = False  # this turn
    busy: bool = False  # loading, unloading, limbering or unlimbering this turn
    crossing: bool = False  # this turn: has moved out of a trench (portable.terrain.trench.*)
    target_now: list[int] | None = None  # artillery: this turn's target square
    target_before: list[int] | None = None  # artillery: last turn's target square
    gas_shells: int = 0
    bombs: int = 0
    arrives: int = 1
    turns_flown: int = 0
    task: dict[str, Any] | None = None  # engineering work under way
    # this turn: advanced after winning a close combat (it may fight again, but has fought:
    # portable.fire.or_close_combat)
    advanced: bool = False

    @property
    def alive(self) -> bool:
        return self.status is _ACTIVE

    @property
    def pos(self) -> Square:
        return (self.x, self.y)

    def to_dict(self) -> dict[str, Any]:
        """The unit as ``dataclasses.asdict`` gives it (same keys in the same order, lists and
        the task copied), written out: ``asdict`` deep-copies every field one by one, and the
        units are saved at every observation."""
        now, before, task = self.target_now, self.target_before, self.task
        return {
            "uid": self.uid,
            "side": self.side,
            "type": self.type,
            "name": self.name,
            "quality": self.quality,
            "sp": self.sp,
            "max_sp": self.max_sp,
            "x": self.x,
            "y": self.y,
            "facing": self.facing,
            "status": self.status,
            "air": self.air,
            "artillery": self.artillery,
            "carried_by": self.carried_by,
            "moved": self.moved,
            "full_move": self.full_move,
            "fired": self.fired,
            "fought": self.fought,
            "activated": self.activated,
            "busy": self.busy,
            "crossing": self.crossing,
            "target_now": None if now is None else list(now),
            "target_before": None if before is None else list(before),
            "gas_shells": self.gas_shells,
            "bombs": self.bombs,
            "arrives": self.arrives,
            "turns_flown": self.turns_flown,
            "task": None if task is None else deepcopy(task),
            "advanced": self.advanced,
        }


@dataclass(slots=True)
class TurnInfo:
    """What the turn's phases keep beside the flow's position: the order of play this turn,
    activations left to the side activating, the guns' declarations, the sides done declaring
    and, once the battle is over, its result."""

    order: list[Side] = field(default_factory=lambda: list(SIDES))
    activations_left: int = 0
    declared: list[dict[str, Any]] = field(default_factory=list)
    held: list[Side] = field(default_factory=list)  # sides done declaring artillery this turn
    outcome: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "order": [str(s) for s in self.order],
            "activations_left": self.activations_left,
            "declared": [dict(d) for d in self.declared],
            "held": [str(s) for s in self.held],
            "outcome": self.outcome,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnInfo:
        return cls(
            order=[Side(s) for s in data.get("order", SIDES)],
            activations_left=int(data.get("activations_left", 0)),
            declared=[dict(d) for d in data.get("declared", [])],
            held=[Side(s) for s in data.get("held", [])],
            outcome=data.get("outcome"),
        )


@dataclass
class PortableState:
    """The whole game state."""

    scenario: str
    seed: int
    rng: RandomStream
    flow: FlowState
    units: dict[str, Unit]
    turn_info: TurnInfo = field(default_factory=TurnInfo)
    minefields: list[list[int]] = field(default_factory=list)
    wire: list[list[int]] = field(default_factory=list)
    clouds: list[dict[str, Any]] = field(default_factory=list)
    holders: dict[str, str | None] = field(default_factory=dict)
    initial_sp: dict[str, int] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    house_fired: dict[str, int] = field(default_factory=dict)
    exhausted_sides: list[Side] = field(default_factory=list)  # found at step 5 of a turn
    actions_played: int = 0
    setup_events: list[Event] = field(default_factory=list)
    world_memo: Any = field(default=None, repr=False, compare=False)  # not saved

    def alive(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.units.values() if u.alive and (side is None or u.side == side)]

    def ground(self, side: str | None = None) -> list[Unit]:
        """Ground units on the board (carried ones included)."""
        return [
            u
            for u in self.units.values()
            if u.alive and not u.air and (side is None or u.side == side)
        ]

    def at(self, square: Square) -> list[Unit]:
        """Ground units in a square, carried ones included."""
        x, y = square
        return [u for u in self.units.values() if u.alive and not u.air and u.x == x and u.y == y]

    def has_mines(self, square: Square) -> bool:
        return [square[0], square[1]] in self.minefields

    def has_wire(self, square: Square) -> bool:
        return [square[0], square[1]] in self.wire

    def cloud_at(self, square: Square) -> bool:
        return any(c["x"] == square[0] and c["y"] == square[1] for c in self.clouds)

    def queue_retreat(self, unit: Unit, spares_last_sp: bool = False) -> None:
        """portable.hit.retreat_or_lose: the owner of ``unit`` must choose to retreat or stand.

        The choice is a pending decision; several of them (one artillery phase hits many
        units) are answered in the order the hits were resolved, before whatever was pending
        underneath (the activated unit's next act). ``spares_last_sp``: the hit came from a
        weapon that cannot destroy the unit (portable.fire.destroy_tanks), so standing never
        costs it its last SP."""
        stack = self.flow.stack
        at = len(stack)
        while at > 0 and stack[at - 1].stage == Stage.RETREAT:
            at -= 1
        decision = Pending(
            side=str(unit.side),
            kinds=RETREAT_KINDS,
            stage=Stage.RETREAT,
            data={
                "unit": unit.uid,
                "rule": "portable.hit.retreat_or_lose",
                "spares_last_sp": spares_last_sp,
            },
        )
        stack.insert(at, decision)

    def fired_house(self, rule: str) -> None:
        self.house_fired[rule] = self.house_fired.get(rule, 0) + 1

    # -- JSON ------------------------------------------------------------------------------
    def _flow_dict(self) -> dict[str, Any]:
        """The flow's position with each pending decision's data copied, so a saved position
        does not change when the game goes on (the acts write into that data)."""
        flow = self.flow.to_dict()
        flow["stack"] = [
            {**d, "data": dict(d["data"])} if isinstance(d.get("data"), dict) else d
            for d in flow["stack"]
        ]
        return flow

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "seed": self.seed,
            "rng": self.rng.to_dict(),
            **self.board_dict(self._flow_dict()),
        }

    def board_dict(self, flow: dict[str, Any]) -> dict[str, Any]:
        """:meth:`to_dict` without the seed and the random stream (what a side may see), in the
        same order, with ``flow`` for the flow's position (an observation shows a summary of
        it, so it is not copied here only to be replaced)."""
        return {
            "scenario": self.scenario,
            "flow": flow,
            "turn_info": self.turn_info.to_dict(),
            "units": [u.to_dict() for u in self.units.values()],
            "minefields": [list(m) for m in self.minefields],
            "wire": [list(w) for w in self.wire],
            "clouds": [dict(c) for c in self.clouds],
            "holders": dict(self.holders),
            "initial_sp": dict(self.initial_sp),
            "options": self.options,
            "house_fired": dict(self.house_fired),
            "exhausted_sides": [str(s) for s in self.exhausted_sides],
            "actions_played": self.actions_played,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], stand_in: RandomStream | None = None) -> PortableState:
        """The state saved by :meth:`to_dict`; with ``stand_in``, the board without its dice
        (an observation, :meth:`board_dict`): ``stand_in`` is the stream and the seed 0."""
        units = {}
        for u in data["units"]:
            unit = units[u["uid"]] = Unit(**u)
            unit.side = _side(u["side"])
            unit.status = _status(u["status"])
        return cls(
            scenario=data["scenario"],
            seed=0 if stand_in is not None else int(data["seed"]),
            rng=stand_in if stand_in is not None else RandomStream.from_dict(data["rng"]),
            flow=FlowState.from_dict(data["flow"]),
            units=units,
            turn_info=TurnInfo.from_dict(data.get("turn_info", {})),
            minefields=[list(m) for m in data.get("minefields", [])],
            wire=[list(w) for w in data.get("wire", [])],
            clouds=[dict(c) for c in data.get("clouds", [])],
            holders=dict(data.get("holders", {})),
            initial_sp=dict(data.get("initial_sp", {})),
            options=dict(data.get("options", {})),
            house_fired=dict(data.get("house_fired", {})),
            exhausted_sides=[Side(s) for s in data.get("exhausted_sides", [])],
            actions_played=int(data.get("actions_played", 0)),
        )

    def clone(self) -> PortableState:
        twin = PortableState.from_dict(self.to_dict())
        twin.world_memo = self.world_memo
        twin.setup_events = list(self.setup_events)
        return twin
