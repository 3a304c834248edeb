"""The state of a game of 7 Days to the Rhine: plain data, mutated in place by the rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from umpire.core.events import Event
from umpire.core.flow import FlowState
from umpire.core.rng import RandomStream
from umpire.rulesets.rhine.snapshot import ReadOnlyDict, ReadOnlyList

# how many times any support marker has been written to (see CSMarker.__setattr__)
_CS_WRITES = [0]


@dataclass
class CSMarker:
    """One combat-support marker: ``status`` is ``ready``, ``used`` (committed this turn),
    ``later`` (arrives on ``back``), ``resting`` (ammunition: back on ``back``) or ``lost``."""

    id: str
    side: str
    nation: str
    type: str  # artillery | helicopter
    status: str = "ready"
    back: int = 0

    def __setattr__(self, name: str, value: Any) -> None:
        # every write is counted: an observation's copy of the markers is made again only
        # after one (RhineState.observed)
        object.__setattr__(self, name, value)
        _CS_WRITES[0] += 1

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class RhineState:
    scenario: str
    seed: int
    rng: RandomStream
    flow: FlowState
    options: dict[str, Any]
    pos: dict[str, str | None]  # unit -> hex id (None: off the map)
    status: dict[str, str]  # unit -> waiting | on | eliminated | exited
    ew: dict[str, int] = field(default_factory=dict)  # unit -> EW markers on it
    control: dict[str, str] = field(default_factory=dict)  # hex -> side
    air_holder: str | None = None
    air_markers: list[str] = field(default_factory=list)
    air_to_place: int = 0
    ew_holder: str | None = None
    ew_to_place: int = 0
    order: dict[str, str] = field(default_factory=dict)  # side -> move-fight | fight-move
    phase_done: bool = False
    moved: list[str] = field(default_factory=list)  # this phase
    attacked: list[str] = field(default_factory=list)  # this phase
    momentum_used: list[str] = field(default_factory=list)  # this turn
    probed: list[str] = field(default_factory=list)  # this turn
    heli_ma: dict[str, int] = field(default_factory=dict)  # rolled 2d6 MA (one EW marker)
    refugees: list[str] = field(default_factory=list)
    refugees_to_place: int = 0
    cs: list[CSMarker] = field(default_factory=list)
    losses: dict[str, int] = field(default_factory=lambda: {"pact": 0, "nato": 0})
    attrition_taken: dict[str, int] = field(default_factory=lambda: {"pact": 0, "nato": 0})
    combat: dict[str, Any] | None = None  # the combat being resolved (plain data)
    outcome: dict[str, Any] | None = None
    setup_events: list[Event] = field(default_factory=list)
    world_memo: Any = field(default=None, repr=False, compare=False)
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    # move answers carried from one position to the next while nothing they read has changed
    # (see move_answers.unit_answers); never part of the game's data
    carry: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    # what a later position may start from when only some of what it read has changed (see
    # admin._refugee_hexes_now); never part of the game's data
    keep: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # the read-only parts last handed out in an observation (see observed); never game data
    seen: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # -- reading ---------------------------------------------------------------------------
    def units_at(self, h: str) -> list[str]:
        return [u for u, p in self.pos.items() if p == h]

    def on_map(self) -> list[str]:
        return [u for u, p in self.pos.items() if p is not None]

    # -- plain data ------------------------------------------------------------------------
    def to_dict(self, viewer: str | None = None, *, with_rng: bool = True) -> dict[str, Any]:
        status, ew = self.status, self.ew
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "seed": self.seed,
            "flow": self.flow.to_dict(viewer),
            "options": self.options,
            "units": {
                u: {"hex": h, "status": status[u], "ew": ew.get(u, 0)} for u, h in self.pos.items()
            },
            "pos": dict(self.pos),
            "status": dict(self.status),
            "ew": dict(self.ew),
            "control": dict(self.control),
            "air_holder": self.air_holder,
            "air_markers": list(self.air_markers),
            "air_to_place": self.air_to_place,
            "ew_holder": self.ew_holder,
            "ew_to_place": self.ew_to_place,
            "order": dict(self.order),
            "phase_done": self.phase_done,
            "moved": list(self.moved),
            "attacked": list(self.attacked),
            "momentum_used": list(self.momentum_used),
            "probed": list(self.probed),
            "heli_ma": dict(self.heli_ma),
            "refugees": list(self.refugees),
            "refugees_to_place": self.refugees_to_place,
            "cs": [dict(m.__dict__) for m in self.cs],  # CSMarker.to_dict, inlined
            "losses": dict(self.losses),
            "attrition_taken": dict(self.attrition_taken),
            "combat": None if self.combat is None else _copy(self.combat),
            "outcome": None if self.outcome is None else _copy(self.outcome),
        }
        if with_rng:
            out["rng"] = self.rng.to_dict()
        return out

    def observed(self, viewer: str) -> dict[str, Any]:
        """What ``viewer`` is shown: :meth:`to_dict` as ``viewer`` reads it, without the
        seed and the dice stream (they would let a side foresee the dice), built in one go
        (it is made at every decision)."""
        status, ew, pos = self.status, self.ew, self.pos
        seen = self.seen
        if ew:
            units = {u: {"hex": h, "status": status[u], "ew": ew.get(u, 0)} for u, h in pos.items()}
        else:
            units = {u: {"hex": h, "status": status[u], "ew": 0} for u, h in pos.items()}
        # the support markers: a read-only copy, made again only when a marker has been
        # written to or the list has changed (a few times a game), shared meanwhile
        cs = seen.get("cs")
        if cs is None or cs[0] != _CS_WRITES[0] or cs[1] != self.cs:
            made = ReadOnlyList(ReadOnlyDict(m.__dict__) for m in self.cs)
            cs = seen["cs"] = (_CS_WRITES[0], list(self.cs), made)
        combat, outcome = self.combat, self.outcome
        if combat is not None:
            # the combat being resolved: a read-only copy, made again only when it has changed
            # (both sides' support commitments are made in one position), shared meanwhile
            shown = seen.get("combat")
            if shown is None or shown != combat:
                shown = seen["combat"] = _frozen(combat)
            combat = shown
        return {
            "scenario": self.scenario,
            "flow": self.flow.to_dict(viewer),
            "options": self.options,
            "units": units,
            "pos": pos.copy(),
            "status": status.copy(),
            "ew": ew.copy(),
            "control": self.control.copy(),
            "air_holder": self.air_holder,
            "air_markers": self.air_markers.copy(),
            "air_to_place": self.air_to_place,
            "ew_holder": self.ew_holder,
            "ew_to_place": self.ew_to_place,
            "order": self.order.copy(),
            "phase_done": self.phase_done,
            "moved": self.moved.copy(),
            "attacked": self.attacked.copy(),
            "momentum_used": self.momentum_used.copy(),
            "probed": self.probed.copy(),
            "heli_ma": self.heli_ma.copy(),
            "refugees": self.refugees.copy(),
            "refugees_to_place": self.refugees_to_place,
            "cs": cs[2],
            "losses": self.losses.copy(),
            "attrition_taken": self.attrition_taken.copy(),
            "combat": combat,
            "outcome": None if outcome is None else _copy(outcome),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RhineState:
        return cls(
            scenario=data["scenario"],
            seed=int(data["seed"]),
            rng=RandomStream.from_dict(data["rng"]),
            flow=FlowState.from_dict(data["flow"]),
            options=dict(data.get("options", {})),
            pos=dict(data["pos"]),
            status=dict(data["status"]),
            ew={k: int(v) for k, v in data.get("ew", {}).items()},
            control=dict(data.get("control", {})),
            air_holder=data.get("air_holder"),
            air_markers=list(data.get("air_markers", [])),
            air_to_place=int(data.get("air_to_place", 0)),
            ew_holder=data.get("ew_holder"),
            ew_to_place=int(data.get("ew_to_place", 0)),
            order=dict(data.get("order", {})),
            phase_done=bool(data.get("phase_done", False)),
            moved=list(data.get("moved", [])),
            attacked=list(data.get("attacked", [])),
            momentum_used=list(data.get("momentum_used", [])),
            probed=list(data.get("probed", [])),
            heli_ma={k: int(v) for k, v in data.get("heli_ma", {}).items()},
            refugees=list(data.get("refugees", [])),
            refugees_to_place=int(data.get("refugees_to_place", 0)),
            cs=[CSMarker(**m) for m in data.get("cs", [])],
            losses=dict(data.get("losses", {"pact": 0, "nato": 0})),
            attrition_taken=dict(data.get("attrition_taken", {"pact": 0, "nato": 0})),
            combat=_copy(data["combat"]) if data.get("combat") is not None else None,
            outcome=_copy(data["outcome"]) if data.get("outcome") is not None else None,
        )

    def clone(self) -> RhineState:
        twin = RhineState.from_dict(self.to_dict())
        twin.setup_events = list(self.setup_events)
        twin.world_memo = self.world_memo
        return twin


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    """A read-only deep copy of plain data (as :func:`_copy`, with read-only containers)."""
    if isinstance(value, dict):
        return ReadOnlyDict({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return ReadOnlyList(_frozen(v) for v in value)
    return value
