"""Portable Wargame state: flow metadata (turn, stage, whose decision) apart from the game data
(units, minefields, wire, gas clouds). Everything round-trips through JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from umpire.core.events import Event
from umpire.core.rng import RandomStream
from umpire.geometry.squaregrid import Square
from umpire.rulesets.portable.enums import SIDES, Side, Status

__all__ = ["SIDES", "Activation", "Flow", "PortableState", "Side", "Status", "Unit", "other"]


def other(side: str) -> Side:
    """The enemy of ``side``."""
    return Side(side).other


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
    fired: bool = False  # this turn
    fought: bool = False  # this turn
    activated: bool = False  # this turn
    busy: bool = False  # loading, unloading, limbering or unlimbering this turn
    crossing: bool = False  # moved into a trench (or ford) square and is crossing it
    target_now: list[int] | None = None  # artillery: this turn's target square
    target_before: list[int] | None = None  # artillery: last turn's target square
    gas_shells: int = 0
    bombs: int = 0
    arrives: int = 1
    turns_flown: int = 0
    task: dict[str, Any] | None = None  # engineering work under way

    @property
    def alive(self) -> bool:
        return self.status is Status.ACTIVE

    @property
    def pos(self) -> Square:
        return (self.x, self.y)


@dataclass(slots=True)
class Activation:
    """The unit now activated and what it has done in this activation."""

    unit: str
    must_face: bool = False
    assault_square: list[int] | None = None  # square of the enemy just fought
    advance_to: list[int] | None = None  # square the winner may advance into


@dataclass(slots=True)
class Flow:
    """Flow metadata (boardgame.io's ``ctx``)."""

    turn: int = 1
    stage: str = "artillery"  # artillery | initiative | roll | activate | end_turn
    phase: str = "artillery"  # the decision now: artillery|activate|act|face|advance|retreat|over
    to_act: str | None = "blue"
    order: list[str] = field(default_factory=lambda: list(SIDES))
    side_index: int = 0
    activations_left: int = 0
    declared: list[dict[str, Any]] = field(default_factory=list)
    held: list[str] = field(default_factory=list)  # sides done declaring artillery this turn
    activation: Activation | None = None
    retreats: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None


@dataclass
class PortableState:
    """The whole game state."""

    scenario: str
    seed: int
    rng: RandomStream
    flow: Flow
    units: dict[str, Unit]
    minefields: list[list[int]] = field(default_factory=list)
    wire: list[list[int]] = field(default_factory=list)
    clouds: list[dict[str, Any]] = field(default_factory=list)
    holders: dict[str, str | None] = field(default_factory=dict)
    initial_sp: dict[str, int] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    house_fired: dict[str, int] = field(default_factory=dict)
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

    def fired_house(self, rule: str) -> None:
        self.house_fired[rule] = self.house_fired.get(rule, 0) + 1

    # -- JSON ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "seed": self.seed,
            "rng": self.rng.to_dict(),
            "flow": asdict(self.flow),
            "units": [asdict(u) for u in self.units.values()],
            "minefields": [list(m) for m in self.minefields],
            "wire": [list(w) for w in self.wire],
            "clouds": [dict(c) for c in self.clouds],
            "holders": dict(self.holders),
            "initial_sp": dict(self.initial_sp),
            "options": self.options,
            "house_fired": dict(self.house_fired),
            "actions_played": self.actions_played,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PortableState:
        raw_flow = dict(data["flow"])
        activation = raw_flow.pop("activation", None)
        names = {f.name for f in fields(Flow)}
        flow = Flow(**{k: v for k, v in raw_flow.items() if k in names})
        flow.activation = Activation(**activation) if activation else None
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
            minefields=[list(m) for m in data.get("minefields", [])],
            wire=[list(w) for w in data.get("wire", [])],
            clouds=[dict(c) for c in data.get("clouds", [])],
            holders=dict(data.get("holders", {})),
            initial_sp=dict(data.get("initial_sp", {})),
            options=dict(data.get("options", {})),
            house_fired=dict(data.get("house_fired", {})),
            actions_played=int(data.get("actions_played", 0)),
        )

    def clone(self) -> PortableState:
        twin = PortableState.from_dict(self.to_dict())
        twin.world_memo = self.world_memo
        return twin
