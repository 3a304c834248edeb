"""Plain-data state of a Book and The Gun game; round-trips through JSON."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from copy import deepcopy
from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypeVar

from umpire.core.deck import Deck
from umpire.core.events import Event
from umpire.core.flow import FlowState, plain_copy
from umpire.core.rng import RandomStream

SIDES = ("army", "insurgents")
FIT, WOUNDED, KILLED, CAPTURED, GONE = "fit", "wounded", "killed", "captured", "gone"
OK, SHAKEN, ROUTED, PINNED, OUT = "ok", "shaken", "routed", "pinned", "out"


@dataclass
class Figure:
    id: str
    name: str
    unit: str
    side: str
    weapon: str
    second: str | None
    role: str
    x: float
    y: float
    facing: float
    status: str = FIT
    prone: bool = False
    room: str | None = None
    grenades: int = 0
    rounds: int = 0
    crew: int = 1
    group_leader: bool = False
    charges: int = 0  # bookgun.building.breach: shaped charges carried
    hit_by: str | None = None  # the side whose fire or fight hit this figure
    # bookgun.los.figure (p.11 VI.2.2): this figure fired a weapon this turn / last turn, so
    # he is seen even where he would otherwise be hidden (prone behind a low screen)
    fired: bool = False
    fired_last: bool = False

    @property
    def pos(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def fit(self) -> bool:
        return self.status == FIT

    @property
    def present(self) -> bool:
        """Still on the table (fit or wounded)."""
        return self.status in (FIT, WOUNDED)


@dataclass
class Unit:
    id: str
    name: str
    side: str
    troop: str
    quality: str
    formation: str
    figures: list[str]
    leader: str | None
    start: int
    concealed: bool = False
    marker: str | None = None
    status: str = OK
    reload: int = 0
    # bookgun.fire.reload (spec §4.1 step 5, markers per weapon group): the markers on the
    # unit's heavy weapons (RPG, recoilless rifle, gun: a row with reload_extra); ``reload`` is
    # its other weapons'
    reload_heavy: int = 0
    moved: bool = False
    fired: bool = False
    fought: bool = False
    moved_last: bool = False
    fired_last: bool = False
    fought_last: bool = False
    fired_at: list[str] = field(default_factory=list)  # enemy units this one fired on this turn
    fired_at_last: list[str] = field(default_factory=list)
    spotted: bool = False  # spotted by the enemy for this fire phase
    charging: str | None = None
    lost: int = 0  # figures lost this turn
    leader_killed: bool = False
    cc_margin: int = 0
    routed_turn: int = 0
    arrives: int | None = None  # off the table until this turn (or until a card brings it)
    entered: int = 0
    arrive_cards: list[str] = field(default_factory=list)  # cards that bring it on
    arrive_from: int = 0  # ... in a movement phase of this turn or later
    extra_die: int = 0
    minus_d6: bool = False
    vehicle: str | None = None  # bookgun.move.vehicles: the kind of a vehicle unit
    armoured: bool = False  # a closed vehicle: the enemy does not see its passengers
    aboard: str | None = None  # bookgun.move.mount: the vehicle unit carrying this one
    mounted: int = 0  # the turn it last mounted or dismounted (not both in one phase)
    # a closed vehicle the enemy saw someone act from inside (a spotting roll) since a unit last
    # got out of it: it is known to hold a rider (what re-sampling must keep, house)
    occupied_seen: bool = False
    in_motion: bool = False  # a vehicle that used half or more of its rolled move (p.15)
    scout_of: str | None = None  # bookgun.move.scouts: the unit this scout ranges ahead of
    radio: bool = False
    gun: str | None = None  # bookgun.move.artillery: the kind of a gun unit
    limbered: bool = False
    limbering: str | None = None  # "limber" or "unlimber" under way ...
    limber_until: int = 0  # ... done at the end of this turn
    # bookgun.move.cavalry / bookgun.move.bicycles: the unit's mounts ("horse" or "bicycle")
    # and whether it is on them now; mounts_turn: the turn it last got on or off
    ride: str | None = None
    riding: bool = False
    # bookgun.cavalry.holders / bookgun.cavalry.stampede (p.17 5.3-5.4): the figures holding the
    # led horses while the unit is on foot, and whether its horses stampeded away (lost)
    holders: list[str] = field(default_factory=list)
    horses_lost: bool = False
    amphibious: bool = False  # bookgun.move.amphibious: a land vehicle that swims at 1D6
    landed: bool = False  # bookgun.move.helicopters: a helicopter on the ground (else hovering)
    rides: str | None = None  # bookgun.move.tank_riders: the vehicle it rides on the outside
    rides_fit: int = 0  # ... and its fit figures when it climbed on (a hit: all jump off)
    # bookgun.move.boats / helicopters: passengers this boat or helicopter took on ("mount") or
    # landed ("dismount") in turn ``loaded_turn`` (not both in one turn)
    loaded: str | None = None
    loaded_turn: int = 0


@dataclass
class Marker:
    id: str
    x: float
    y: float
    site: str
    unit: str | None  # None: a dummy (the owner's secret)
    stirred: bool = False  # seen by the enemy to activate or move: it holds a unit, not a dummy


@dataclass
class BookGunState:
    scenario: str
    seed: int
    options: dict[str, Any]
    rng: RandomStream
    flow: FlowState
    deck: Deck
    casualties: Deck
    figures: dict[str, Figure]
    units: dict[str, Unit]
    markers: dict[str, Marker] = field(default_factory=dict)
    to_deploy: list[str] = field(default_factory=list)  # units, then "dummy-N", to place
    cache_room: str | None = None
    cache_chosen: bool = False
    cache_found: bool = False
    searched: list[str] = field(default_factory=list)
    # bookgun.search (spec §4.7): rooms rolled for, as "turn:room" - one roll a room a turn
    search_rolls: list[str] = field(default_factory=list)
    # bookgun.rally.chart (p.17 6.1): the leader figures who have tried a rally this turn
    rallies: list[str] = field(default_factory=list)
    # bookgun.lead.cinc (p.8): each side's secret Commander-in-Chief (side -> figure id), set
    # in the set-up by a side with three or more basic units
    commanders: dict[str, str] = field(default_factory=dict)
    ied: list[float] | None = None
    ied_chosen: bool = False
    ied_done: bool = False
    card: str | None = None
    acted: list[str] = field(default_factory=list)  # units (or figures) done this phase
    fire_points: list[list[float]] = field(default_factory=list)  # [turn, x, y]
    over: dict[str, Any] | None = None
    setup_events: list[Event] = field(default_factory=list)
    world_memo: Any = None
    # bookgun.building.breach: charges placed - {room, x, y, turn, side, blown}
    breaches: list[dict[str, Any]] = field(default_factory=list)

    # -- queries ---------------------------------------------------------------------------
    def unit_figures(self, unit: Unit | str, present_only: bool = True) -> list[Figure]:
        u = self.units[unit] if isinstance(unit, str) else unit
        out = [self.figures[f] for f in u.figures]
        return [f for f in out if f.present] if present_only else out

    def fit_figures(self, unit: Unit | str) -> list[Figure]:
        return [f for f in self.unit_figures(unit) if f.fit]

    def leader_of(self, unit: Unit) -> Figure | None:
        if unit.leader is None:
            return None
        f = self.figures[unit.leader]
        return f if f.fit else None

    def unseen_inside(self, unit: Unit, viewer: str | None) -> bool:
        """``unit`` rides inside a closed vehicle, so ``viewer`` (not its side) cannot see it
        (bookgun.move.mount, house)."""
        if unit.aboard is None or viewer == unit.side:
            return False
        vehicle = self.units.get(unit.aboard)
        return vehicle is not None and vehicle.armoured

    def on_table(self, unit: Unit) -> bool:
        return unit.status != OUT and bool(self.unit_figures(unit)) and unit.arrives is None

    def clone(self) -> BookGunState:
        """An independent copy for search and play-on: every mutable part copied structurally
        (no ``to_dict``/``deepcopy`` round trip), the scenario's world shared (built once from
        the scenario and never changed in play) and the set-up events shared one by one (an
        event is immutable). How each field is copied is in :data:`_STATE_COPIERS` (the plain
        fields by their declared type); a field whose type it cannot copy stops the import."""
        twin = object.__new__(BookGunState)
        twin.__dict__.update({name: copy(self.__dict__[name]) for name, copy in _STATE_COPIERS})
        return twin

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "seed": self.seed,
            "options": self.options,
            "rng": self.rng.to_dict(),
            "flow": self.flow.to_dict(),
            "deck": self.deck.to_dict(),
            "casualties": self.casualties.to_dict(),
            "figures": {k: asdict(v) for k, v in self.figures.items()},
            "units": {k: asdict(v) for k, v in self.units.items()},
            "markers": {k: asdict(v) for k, v in self.markers.items()},
            **{
                f.name: getattr(self, f.name)
                for f in fields(self)
                if f.name
                in (
                    "to_deploy",
                    "cache_room",
                    "cache_chosen",
                    "cache_found",
                    "searched",
                    "search_rolls",
                    "rallies",
                    "commanders",
                    "ied",
                    "ied_chosen",
                    "ied_done",
                    "card",
                    "acted",
                    "fire_points",
                    "over",
                    "breaches",
                )
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BookGunState:
        import copy

        d = copy.deepcopy(dict(data))
        return cls(
            scenario=d["scenario"],
            seed=d["seed"],
            options=d["options"],
            rng=RandomStream.from_dict(d["rng"]),
            flow=FlowState.from_dict(d["flow"]),
            deck=Deck.from_dict(d["deck"]),
            casualties=Deck.from_dict(d["casualties"]),
            figures={k: Figure(**v) for k, v in d["figures"].items()},
            units={k: Unit(**v) for k, v in d["units"].items()},
            markers={k: Marker(**v) for k, v in d["markers"].items()},
            to_deploy=d["to_deploy"],
            cache_room=d["cache_room"],
            cache_chosen=d["cache_chosen"],
            cache_found=d["cache_found"],
            searched=d["searched"],
            search_rolls=d.get("search_rolls", []),  # saves from before it was kept
            rallies=d.get("rallies", []),
            commanders=_commanders(d),
            ied=d["ied"],
            ied_chosen=d["ied_chosen"],
            ied_done=d["ied_done"],
            card=d["card"],
            acted=d["acted"],
            fire_points=d["fire_points"],
            over=d["over"],
            breaches=d.get("breaches", []),
        )


def _commanders(d: Mapping[str, Any]) -> dict[str, str]:
    """The Commanders-in-Chief of a saved state; a save from before both sides could name one
    kept the army's alone (``commander``)."""
    if "commanders" in d:
        return dict(d["commanders"])
    return {"army": d["commander"]} if d.get("commander") else {}


# -- clone: a structural copy of the mutable parts ------------------------------------------
# The copy of each field is chosen once, at import, from the field's declared type: a scalar
# (str, int, float, bool, None and unions of them) is shared, a JSON container (list, dict of
# scalars, lists, tuples and dicts) is copied by ``plain_copy``; the fields holding objects
# say how they are copied in ``_OBJECT_COPIERS``. A field of any other type (a new object
# kind, a set) is deep-copied - always right, but slow - and named in ``SLOW_COPIES``, which
# tests/bookgun/test_clone.py requires to be empty (it also checks every field at run time),
# so a field added later is never shared by mistake and never silently slow.

T = TypeVar("T")
_SCALARS = frozenset({"str", "int", "float", "bool", "None"})
_JSON_WORDS = _SCALARS | {"list", "dict", "tuple", "Any"}
SLOW_COPIES: list[str] = []  # fields copied by ``copy.deepcopy`` (see above): keep it empty


def _words(annotation: object) -> list[str]:
    text = str(annotation)
    for mark in "[],|":
        text = text.replace(mark, " ")
    return text.split()


def _scalar(annotation: object) -> bool:
    return all(word in _SCALARS for word in _words(annotation))


def _plain(annotation: object) -> bool:
    return all(word in _JSON_WORDS for word in _words(annotation))


def _share(value: T) -> T:
    return value


def _record_copier(cls: type[T]) -> Callable[[T], T]:
    """A copier for a record of ``cls`` (a figure, a unit, a marker): its attributes copied
    at once, the containers among them (lists of ids) copied again so none is shared."""
    containers: list[str] = []
    for f in fields(cls):  # type: ignore[arg-type]
        if _scalar(f.type):
            continue
        if not _plain(f.type):
            SLOW_COPIES.append(f"{cls.__name__}.{f.name}")
        containers.append(f.name)
    new = object.__new__
    slow = {name for name in containers if f"{cls.__name__}.{name}" in SLOW_COPIES}

    if not containers:

        def copy_flat(item: T) -> T:
            twin = new(cls)
            twin.__dict__.update(item.__dict__)
            return twin

        return copy_flat

    def copy(item: T) -> T:
        twin = new(cls)
        attrs = twin.__dict__
        attrs.update(item.__dict__)
        for name in containers:
            attrs[name] = plain_copy(attrs[name]) if name not in slow else deepcopy(attrs[name])
        return twin

    return copy


_copy_figure = _record_copier(Figure)
_copy_unit = _record_copier(Unit)
_copy_marker = _record_copier(Marker)


_OBJECT_COPIERS: dict[str, Callable[[Any], Any]] = {
    "rng": RandomStream.clone,
    "flow": FlowState.clone,
    "deck": Deck.clone,
    "casualties": Deck.clone,
    "figures": lambda table: {k: _copy_figure(v) for k, v in table.items()},
    "units": lambda table: {k: _copy_unit(v) for k, v in table.items()},
    "markers": lambda table: {k: _copy_marker(v) for k, v in table.items()},
    "setup_events": list,  # the list copied, each (immutable) event shared
    "world_memo": _share,  # the scenario's world (terrain, buildings, tables): read only
}


def _state_copiers() -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    out: list[tuple[str, Callable[[Any], Any]]] = []
    for f in fields(BookGunState):
        if f.name in _OBJECT_COPIERS:
            out.append((f.name, _OBJECT_COPIERS[f.name]))
        elif _scalar(f.type):
            out.append((f.name, _share))
        elif _plain(f.type):
            out.append((f.name, plain_copy))
        else:
            SLOW_COPIES.append(f"BookGunState.{f.name}")
            out.append((f.name, deepcopy))
    return tuple(out)


_STATE_COPIERS = _state_copiers()
