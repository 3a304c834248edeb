"""Data files of 7 Days to the Rhine: tables, maps, units and scenarios as plain frozen
dataclasses, and the :class:`World` (the static side of a game) built from them. A user's file
is validated by pydantic against the same dataclasses, their bounds written as
``Annotated[int, Check(ge=1)]`` (:func:`umpire.core.plain.validate`, pydantic imported only
then); the packaged files are built without it (issue 19: a cold ``umpire odds`` loads no
pydantic), and a test validates each of them that way.

A bad file is a one-line :class:`~umpire.core.errors.DataFileError` naming the file and the
field: a hex off the map, an unknown terrain, an over-stacked set-up, a unit of an unknown
division."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn

from umpire.core.datafiles import check_numbers, load_yaml, merge
from umpire.core.errors import DataFileError, UnknownScenarioError
from umpire.core.lru import LruMap
from umpire.core.plain import Check, Closed, build, validate
from umpire.geometry.hexgrid import Hex, HexMap, distance, parse_hex_id

if TYPE_CHECKING:  # the catalogue is read for the rules, not for odds or play
    from umpire.core.catalog import RuleEntry

DATA = Path(__file__).parent / "data"
SIDES: tuple[str, str] = ("pact", "nato")
RESULTS = ("AE", "AR", "NE", "EX", "DR1", "DR2", "DE")
UNIT_TYPES = ("tank", "mech", "infantry", "recon", "heliborne", "static_garrison")
TERRAIN_LETTERS = {".": "clear", "F": "forest", "R": "rough", "U": "city", "M": "mountain"}

Side = Literal["pact", "nato"]
Result = Literal["AE", "AR", "NE", "EX", "DR1", "DR2", "DE"]
Cost = Annotated[float, Check(ge=0)]
AtLeastOne = Annotated[int, Check(ge=1)]
NotNegative = Annotated[int, Check(ge=0)]


# -- tables -------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class CRT(Closed):
    provenance: str = "house"
    source: str = ""
    columns: Annotated[list[str], Check(min_length=1)]
    low: int
    high: int
    rows: dict[int, list[Result]]


@dataclass(frozen=True, kw_only=True)
class TerrainEffect(Closed):
    cost: Cost
    drm: int


@dataclass(frozen=True, kw_only=True)
class HexsideEffect(Closed):
    cost: Cost
    drm: int
    ends_move: bool = False


@dataclass(frozen=True, kw_only=True)
class TEC(Closed):
    provenance: str = "house"
    source: str = ""
    terrain: dict[str, TerrainEffect]
    hexsides: dict[str, HexsideEffect]
    road_cost: Annotated[float, Check(gt=0)]
    autobahn_cost: Annotated[float, Check(gt=0)]
    ezoc_cost: Cost
    refugee_cost: Cost
    air_range_cost: Cost


@dataclass(frozen=True, kw_only=True)
class AirTable(Closed):
    provenance: str = "published"
    source: str = ""
    day_dice: AtLeastOne
    day_bonus_divisor: AtLeastOne
    night_dice: AtLeastOne
    night_bonus_divisor: AtLeastOne
    max_markers: AtLeastOne
    range: NotNegative
    turn1_dice: AtLeastOne
    drm_cap: int | None = None


@dataclass(frozen=True, kw_only=True)
class EWTable(Closed):
    provenance: str = "published"
    source: str = ""
    dice: AtLeastOne
    bonus_divisor: AtLeastOne
    max_markers: AtLeastOne
    per_hex: AtLeastOne
    turn1_dice: AtLeastOne


@dataclass(frozen=True, kw_only=True)
class CSTable(Closed):
    provenance: str = "published"
    source: str = ""
    artillery_limit: dict[Literal["move-fight", "fight-move"], int]
    pact_city_artillery: NotNegative
    helicopter_limit: NotNegative


@dataclass(frozen=True, kw_only=True)
class HeliTable(Closed):
    provenance: str = "published"
    source: str = ""
    need: int
    enemy_air: int
    entered_enemy: int
    city: int


@dataclass(frozen=True, kw_only=True)
class AttritionTable(Closed):
    provenance: str = "published"
    source: str = ""
    losses_per_marker: dict[Side, int]
    heli_loss_on: Annotated[int, Check(ge=1, le=6)]
    ammo_pact_divisor: AtLeastOne
    ammo_nato_divisor: AtLeastOne


@dataclass(frozen=True, kw_only=True)
class RefugeeTable(Closed):
    provenance: str = "published"
    source: str = ""
    first_turn: AtLeastOne
    dice: NotNegative


@dataclass(frozen=True, kw_only=True)
class Tables(Closed):
    crt: CRT
    tec: TEC
    air: AirTable
    ew: EWTable
    cs: CSTable
    heliborne: HeliTable
    attrition: AttritionTable
    refugees: RefugeeTable
    switches: dict[str, bool]


def _validate_tables(data: Mapping[str, Any], where: str, shipped: bool = False) -> Tables:
    """The tables of ``data``: a user's (``shipped`` false) validated by pydantic first; the
    packaged file built directly (a test validates it and checks both give the same tables)."""
    check_numbers(data, where)  # finite and within bounds: no billion dice, no NaN costs
    tables = build(Tables, data) if shipped else validate(Tables, data, where)
    crt = tables.crt
    for value in range(crt.low, crt.high + 1):
        if value not in crt.rows:
            raise DataFileError(f"{where}: field crt.rows: no row for modified roll {value}")
    for value, row in crt.rows.items():
        if len(row) != len(crt.columns):
            raise DataFileError(
                f"{where}: field crt.rows.{value}: {len(row)} results for "
                f"{len(crt.columns)} columns"
            )
    for column in crt.columns:
        _parse_column(column, f"{where}: field crt.columns")
    return tables


def _parse_column(text: str, where: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(":"))
    except ValueError as exc:
        raise DataFileError(f"{where}: {text!r} is not an odds column like '3:1'") from exc
    if a < 1 or b < 1 or (a != 1 and b != 1):
        raise DataFileError(f"{where}: {text!r} is not an odds column like '3:1' or '1:2'")
    return a, b


def check_house_rules(data: Mapping[str, Any], where: str) -> None:
    """A user's override file (tables.yaml keys) is valid once merged over the defaults."""
    _validate_tables(merge(_raw_tables(), dict(data)), where)


@cache
def _raw_tables() -> dict[str, Any]:
    raw = load_yaml(DATA / "tables.yaml")
    assert isinstance(raw, dict)
    return raw


def load_tables(override: Mapping[str, Any] | None = None, where: str = "") -> Tables:
    raw = _raw_tables()
    if override:
        raw = merge(raw, dict(override))
    return _validate_tables(raw, where or str(DATA / "tables.yaml"), shipped=not override)


# -- scenarios ----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class EntrySpec(Closed):
    turn: AtLeastOne
    hexes: Annotated[list[str], Check(min_length=1)]


@dataclass(frozen=True, kw_only=True)
class UnitSpec(Closed):
    id: str
    side: Side
    nation: str
    division: str | None
    type: Literal["tank", "mech", "infantry", "recon", "heliborne", "static_garrison"]
    strength: NotNegative
    defence_only: bool = False
    ma: int | None = None  # default by type (rhine.unit.ma)
    at: str | None = None
    enter: EntrySpec | None = None


@dataclass(frozen=True, kw_only=True)
class DivisionSpec(Closed):
    name: str
    side: Side
    nation: str
    colour: str = "grey"


@dataclass(frozen=True, kw_only=True)
class MapSpec(Closed):
    width: Annotated[int, Check(ge=1, le=99)]
    height: Annotated[int, Check(ge=1, le=99)]
    layout: Literal["even-q", "odd-q"] = "even-q"
    terrain: list[str]
    minor_rivers: list[tuple[str, str]] = field(default_factory=list)
    major_rivers: list[tuple[str, str]] = field(default_factory=list)
    autobahns: list[list[str]] = field(default_factory=list)
    roads: list[list[str]] = field(default_factory=list)
    cities: dict[str, list[str]] = field(default_factory=dict)
    border_after_column: int | None = None


@dataclass(frozen=True, kw_only=True)
class TurnSpec(Closed):
    label: str
    night: bool


@dataclass(frozen=True, kw_only=True)
class ControlSpec(Closed):
    nato_columns: tuple[int, int]
    pact_columns: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class CSSpec(Closed):
    side: Side
    nation: str
    type: Literal["artillery", "helicopter"]
    # bounded: the game lays out one marker per count (the shipped scenarios give at most 9)
    count: Annotated[int, Check(ge=0, le=99)]
    from_turn: AtLeastOne = 1


@dataclass(frozen=True, kw_only=True)
class ScenarioRules(Closed):
    air_drm_cap: int | None = None
    heli_attrition: bool = False
    ammunition: bool = False
    exit_column: int | None = None


@dataclass(frozen=True, kw_only=True)
class VictorySpec(Closed):
    sudden_death: list[str] = field(default_factory=list)
    city_vp: dict[str, int] = field(default_factory=dict)
    per_hex: bool = True
    exit_vp: int = 0
    exit_min_strength: int = 0
    per_nato_losses: AtLeastOne = 3
    per_pact_losses: AtLeastOne = 3
    pact_decisive: int
    pact_marginal: int
    draw: int


@dataclass(frozen=True, kw_only=True)
class SetupStepSpec(Closed):
    """One step of the set-up (spec 5.5, 5.6): ``side`` places the units of ``divisions``
    (and any listed in ``units``) in the area, the hexes of ``columns`` (first, last) and any
    listed in ``hexes``; a ``fixed`` step's units stand on their own ``at`` hex."""

    side: Side
    divisions: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    fixed: bool = False
    columns: tuple[int, int] | None = None
    hexes: list[str] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class SetupSpec(Closed):
    """The set-up phase (rhine.setup.*): its steps in order; each unit's ``at`` is its
    suggested hex, inside its step's area."""

    provenance: str = "house"
    source: str = ""
    steps: Annotated[list[SetupStepSpec], Check(min_length=1)]


@dataclass(frozen=True, kw_only=True)
class ScenarioSpec(Closed):
    id: str
    title: str
    briefing: str = ""
    provenance: str = "house"
    source: str = ""
    map: MapSpec
    turns: Annotated[list[TurnSpec], Check(min_length=1, max_length=50)]  # bounded game length
    control: ControlSpec
    divisions: list[DivisionSpec]
    units: list[UnitSpec]
    cs: list[CSSpec] = field(default_factory=list)
    rules: ScenarioRules = field(default_factory=ScenarioRules)
    victory: VictorySpec
    setup: SetupSpec | None = None  # none: every unit starts on its ``at`` hex


def default_ma(unit_type: str) -> int:
    """rhine.unit.ma: recon 9, static garrison 0, heliborne unlimited (99), others 6."""
    return {"recon": 9, "static_garrison": 0, "heliborne": 99}.get(unit_type, 6)


@dataclass(frozen=True)
class UnitInfo:
    """A unit's printed values (static)."""

    id: str
    side: str
    nation: str
    division: str | None
    type: str
    strength: int
    defence_only: bool
    ma: int

    @property
    def tank(self) -> bool:
        return self.type == "tank"

    @property
    def recon(self) -> bool:
        return self.type == "recon"

    @property
    def heliborne(self) -> bool:
        return self.type == "heliborne"

    @property
    def static(self) -> bool:
        return self.type == "static_garrison"


class World:
    """A scenario's static side: the map with ids, neighbours and distances precomputed, the
    units' printed values, the tables (house rules merged in) and the scenario's rules."""

    def __init__(
        self,
        spec: ScenarioSpec,
        tables: Tables,
        where: str,
        switches: Mapping[str, bool] | None = None,
    ) -> None:
        self.spec = spec
        self.tables = tables
        self.where = where
        m = spec.map
        self.layout = m.layout
        bare = HexMap(m.width, m.height, m.layout)
        self.ids: list[str] = sorted(bare.ids(), key=lambda i: (i[2:], i[:2]))  # row by row
        self.hex: dict[str, Hex] = {i: bare.hex_at(i) for i in self.ids}
        self.by_hex: dict[Hex, str] = {h: i for i, h in self.hex.items()}
        self.terrain: dict[str, str] = {}
        if len(m.terrain) != m.height:
            self._fail("map.terrain", f"{len(m.terrain)} rows for a map {m.height} rows high")
        for r, line in enumerate(m.terrain):
            cells = line.split()
            if len(cells) != m.width:
                self._fail(f"map.terrain.{r}", f"{len(cells)} hexes for {m.width} columns")
            for c, letter in enumerate(cells):
                kind = TERRAIN_LETTERS.get(letter)
                if kind is None or kind not in tables.tec.terrain:
                    self._fail(f"map.terrain.{r}", f"unknown terrain {letter!r}")
                self.terrain[f"{c + 1:02d}{r + 1:02d}"] = str(kind)
        self.neighbours: dict[str, tuple[str, ...]] = {
            i: tuple(self.by_hex[n] for n in bare.neighbours(h)) for i, h in self.hex.items()
        }
        self.rivers: dict[frozenset[str], str] = {}
        for name, pairs in (("minor_river", m.minor_rivers), ("major_river", m.major_rivers)):
            field_name = "map.minor_rivers" if name == "minor_river" else "map.major_rivers"
            for k, (a, b) in enumerate(pairs):
                self._pair(a, b, f"{field_name}.{k}")
                self.rivers[frozenset((a, b))] = name
        self.road_edges: set[frozenset[str]] = set()
        self.autobahn_edges: set[frozenset[str]] = set()
        for field_name, paths, edges in (
            ("map.roads", m.roads, self.road_edges),
            ("map.autobahns", m.autobahns, self.autobahn_edges),
        ):
            for k, path in enumerate(paths):
                for a, b in zip(path, path[1:], strict=False):
                    self._pair(a, b, f"{field_name}.{k}")
                    edges.add(frozenset((a, b)))
        self.city_of: dict[str, str] = {}
        for name, hexes in m.cities.items():
            for k, h in enumerate(hexes):
                self.check_hex(h, f"map.cities.{name}.{k}")
                if self.terrain[h] != "city":
                    self._fail(f"map.cities.{name}.{k}", f"{h} is {self.terrain[h]}, not city")
                self.city_of[h] = name
        self.divisions = {d.name: d for d in spec.divisions}
        self.units: dict[str, UnitInfo] = {}
        for k, u in enumerate(spec.units):
            if u.id in self.units:
                self._fail(f"units.{k}.id", f"duplicate unit {u.id}")
            if u.division is not None:
                div = self.divisions.get(u.division)
                if div is None:
                    raise DataFileError(
                        f"{self.where}: field units.{k}.division: unknown division {u.division!r}"
                    )
                if div.side != u.side or div.nation != u.nation:
                    self._fail(
                        f"units.{k}.division",
                        f"{u.division} is {div.side} {div.nation}, unit is {u.side} {u.nation}",
                    )
            if (u.at is None) == (u.enter is None):
                self._fail(f"units.{k}", "give exactly one of at (set-up hex) or enter")
            if u.at is not None:
                self.check_hex(u.at, f"units.{k}.at")
            if u.enter is not None:
                for j, h in enumerate(u.enter.hexes):
                    self.check_hex(h, f"units.{k}.enter.hexes.{j}")
            self.units[u.id] = UnitInfo(
                u.id,
                u.side,
                u.nation,
                u.division,
                u.type,
                u.strength,
                u.defence_only or u.type == "static_garrison",
                u.ma if u.ma is not None else default_ma(u.type),
            )
        # each reinforcement's entry (rhine.reinf.entry): looked up at every movement listing
        self.entry: dict[str, EntrySpec] = {u.id: u.enter for u in spec.units if u.enter}
        self.turns = spec.turns
        # whether a unit of a kind (side, nation, division, static) may join a stack, by the
        # stack's units and the kind (rules._stack_refusals): worked out once each
        self.joins: dict[tuple[tuple[str, ...], tuple[Any, ...]], bool] = {}
        self.air_cap = spec.rules.air_drm_cap if spec.rules.air_drm_cap is not None else None
        if self.air_cap is None:
            self.air_cap = tables.air.drm_cap
        # the tables' defaults, then the scenario's optional rules, then the user's choice
        self.switches = dict(tables.switches)
        self.switches["heli_attrition"] = spec.rules.heli_attrition
        self.switches["ammunition"] = spec.rules.ammunition
        self.switches.update(switches or {})
        self.exit_column = spec.rules.exit_column
        self.crt_columns = [_parse_column(c, where) for c in tables.crt.columns]
        # distances, worked out once each as they are asked for (air range: in_range)
        self._dist: dict[tuple[str, str], int] = {}
        self._rows: dict[str, dict[str, int]] = {}
        for name in spec.victory.city_vp:
            if name not in m.cities:
                self._fail(f"victory.city_vp.{name}", f"unknown city {name!r}")
        for name in spec.victory.sudden_death:
            if name not in m.cities:
                self._fail("victory.sudden_death", f"unknown city {name!r}")
        nations = {(u.side, u.nation) for u in spec.units}
        for j, pool in enumerate(spec.cs):
            if (pool.side, pool.nation) not in nations:
                # rhine.cs.nation: such a marker could never be committed
                self._fail(f"cs.{j}.nation", f"no {pool.side} unit is {pool.nation}")
        from umpire.rulesets.rhine.rules import stack_ok

        at: dict[str, list[str]] = {}
        for u in spec.units:
            if u.at is not None:
                at.setdefault(u.at, []).append(u.id)
        for k, u in enumerate(spec.units):
            if (
                u.at is not None
                and u.id == at[u.at][-1]
                and not stack_ok(self, [self.units[x] for x in at[u.at]])
            ):
                self._fail(f"units.{k}.at", f"over-stacked set-up in {u.at}: {at[u.at]}")

        self._check_setup()

    def _check_setup(self) -> None:
        """The set-up steps (spec 5.5, 5.6): known divisions and units of the step's side, an
        area on the map for each step that is not fixed, every unit with an ``at`` hex in
        exactly one step and its suggested hex inside that step's area. Sets
        ``setup_steps`` (side, fixed, area in map order, units) and ``setup_step_of``."""
        self.setup_steps: list[tuple[str, bool, tuple[str, ...], tuple[str, ...]]] = []
        self.setup_step_of: dict[str, int] = {}
        # each unit's suggested set-up hex (its ``at``)
        self.suggested: dict[str, str] = {u.id: u.at for u in self.spec.units if u.at}
        setup = self.spec.setup
        if setup is None:
            return
        m = self.spec.map
        by_division: dict[str | None, list[str]] = {}
        for u in self.spec.units:
            if u.at is not None:
                by_division.setdefault(u.division, []).append(u.id)
        for j, step in enumerate(setup.steps):
            where = f"setup.steps.{j}"
            members: list[str] = []
            for i, name in enumerate(step.divisions):
                div = self.divisions.get(name)
                if div is None:
                    self._fail(f"{where}.divisions.{i}", f"unknown division {name!r}")
                if div.side != step.side:
                    self._fail(f"{where}.divisions.{i}", f"{name} is {div.side}, not {step.side}")
                members += by_division.get(name, [])
            for i, uid in enumerate(step.units):
                info = self.units.get(uid)
                if info is None:
                    self._fail(f"{where}.units.{i}", f"unknown unit {uid!r}")
                if info.side != step.side:
                    self._fail(f"{where}.units.{i}", f"{uid} is {info.side}, not {step.side}")
                if uid in self.entry:
                    self._fail(f"{where}.units.{i}", f"{uid} enters later; it does not set up")
                members.append(uid)
            area: set[str] = set()
            if step.columns is not None:
                first, last = step.columns
                if not 1 <= first <= last <= m.width:
                    self._fail(
                        f"{where}.columns", f"columns {first}-{last} are not within 1-{m.width}"
                    )
                area |= {h for h in self.ids if first <= self.column(h) <= last}
            for i, h in enumerate(step.hexes):
                self.check_hex(h, f"{where}.hexes.{i}")
                area.add(h)
            if not step.fixed and not area:
                self._fail(where, "a step that is not fixed needs columns or hexes")
            for uid in members:
                if uid in self.setup_step_of:
                    other = self.setup_step_of[uid]
                    self._fail(where, f"{uid} already sets up in setup.steps.{other}")
                self.setup_step_of[uid] = j
            self.setup_steps.append(
                (step.side, step.fixed, tuple(h for h in self.ids if h in area), tuple(members))
            )
        areas: dict[str, set[str]] = {}
        for side, _fixed, area_ids, _units in self.setup_steps:
            areas.setdefault(side, set()).update(area_ids)
        for j, (side, fixed, area_ids, units) in enumerate(self.setup_steps):
            enemy_area = areas.get("pact" if side == "nato" else "nato", set())
            shared = sorted(enemy_area & set(area_ids))
            if shared:
                self._fail(f"setup.steps.{j}", f"area overlaps the other side's: {shared[0]}")
            for uid in units if fixed else ():
                if self.suggested[uid] in enemy_area:
                    self._fail(f"setup.steps.{j}", f"{uid} stands in the other side's area")
        for k, u in enumerate(self.spec.units):
            if u.at is None:
                continue
            found = self.setup_step_of.get(u.id)
            if found is None:
                self._fail(f"units.{k}.at", f"{u.id} is in no set-up step (setup.steps)")
            j = found
            side, fixed, area_ids, _ = self.setup_steps[j]
            if u.side != side:
                self._fail(f"units.{k}.at", f"{u.id} is {u.side}, setup.steps.{j} is {side}")
            if not fixed and u.at not in area_ids:
                self._fail(
                    f"units.{k}.at",
                    f"suggested hex {u.at} of {u.id} is outside its set-up area (setup.steps.{j})",
                )

    @cached_property
    def in_range(self) -> dict[str, frozenset[str]]:
        """Every hex's hexes within air range (``tables.air.range``), worked out once, when
        first read (a play reads it; an odds question does not, issue 19)."""
        rng = self.tables.air.range
        return {
            i: frozenset(j for j in self.ids if distance(self.hex[i], self.hex[j]) <= rng)
            for i in self.ids
        }

    # -- helpers -------------------------------------------------------------------------
    def _fail(self, field_name: str, message: str) -> NoReturn:
        raise DataFileError(f"{self.where}: field {field_name}: {message}")

    def check_hex(self, text: str, field_name: str) -> None:
        if text not in self.hex:
            try:
                parse_hex_id(text, self.layout)
            except ValueError:
                self._fail(field_name, f"{text!r} is not a hex id like '0605'")
            self._fail(
                field_name,
                f"hex {text} is off the {self.spec.map.width}x{self.spec.map.height} map",
            )

    def _pair(self, a: str, b: str, field_name: str) -> None:
        self.check_hex(a, field_name)
        self.check_hex(b, field_name)
        if b not in self.neighbours[a]:
            self._fail(field_name, f"{a} and {b} are not adjacent")

    def distance(self, a: str, b: str) -> int:
        key = (a, b)
        found = self._dist.get(key)
        if found is None:
            # geometry's hex distance, worked out on the axial coordinates directly
            ha, hb = self.hex[a], self.hex[b]
            dq, dr = ha.q - hb.q, ha.r - hb.r
            found = self._dist[key] = max(abs(dq), abs(dr), abs(dq + dr))
        return found

    def distances_from(self, a: str) -> dict[str, int]:
        """Every hex's distance from ``a`` (worked out once per hex: loops over many hexes
        read it instead of calling :meth:`distance` for each)."""
        found = self._rows.get(a)
        if found is None:
            ha = self.hex[a]
            found = self._rows[a] = {}
            for b, hb in self.hex.items():
                dq, dr = ha.q - hb.q, ha.r - hb.r
                found[b] = max(abs(dq), abs(dr), abs(dq + dr))
        return found

    def column(self, h: str) -> int:
        return int(h[:2])

    def is_city(self, h: str) -> bool:
        return self.terrain[h] == "city"

    def night(self, turn: int) -> bool:
        return self.turns[min(turn, len(self.turns)) - 1].night


def scenario_path(scenario: str) -> Path:
    path = DATA / "scenarios" / f"{scenario}.yaml"
    if not path.exists():
        known = ", ".join(scenario_ids())
        raise UnknownScenarioError(f"unknown rhine scenario {scenario!r}; known: {known}")
    return path


def scenario_ids() -> list[str]:
    return sorted(p.stem for p in (DATA / "scenarios").glob("*.yaml"))


def load_spec(path: Path) -> ScenarioSpec:
    """A scenario file: a packaged one built directly, any other validated by pydantic first
    (imported only then)."""
    raw = load_yaml(path)
    if Path(path).parent == DATA / "scenarios":
        return build(ScenarioSpec, raw)
    return validate(ScenarioSpec, raw, path)


def load_world(path: Path, override: Mapping[str, Any] | None = None) -> World:
    """A world from a scenario file (any path: tests feed broken ones)."""
    user = dict((override or {}).get("switches") or {})
    return World(load_spec(path), load_tables(override), str(path), user)


_WORLDS: LruMap[tuple[str, str], World] = LruMap()


def world_for(scenario: str, override: Mapping[str, Any] | None = None) -> World:
    import json

    # the key of no override is the text json.dumps gives for an empty mapping
    key = (scenario, json.dumps(override, sort_keys=True) if override else "{}")
    return _WORLDS.get_or_make(key, lambda: load_world(scenario_path(scenario), override))


# -- the rule catalogue -------------------------------------------------------------------------
def rule_catalog() -> dict[str, RuleEntry]:
    from umpire.core.catalog import load_catalog  # read for the rules, not for odds or play

    return load_catalog(DATA / "rules.yaml", "rhine")


def rules_markdown() -> str:
    from umpire.core.catalog import catalog_markdown

    return catalog_markdown(
        "7 Days to the Rhine (operational hex game)",
        "rhine",
        "Provenance: **published** (the publisher, or the Japanese one-page player summary of the "
        "rules, cited as `ja-summary Lnn`), **reconstructed** (our reading where the summary is "
        "ambiguous or silent), **house** (ours, so the game is playable; the tables are in "
        "`tables.yaml` and can be replaced by the official section 13.0 charts with "
        "`--house-rules FILE`). The specification is `shared/rules/rhine-operational.md`.",
        rule_catalog(),
    )
