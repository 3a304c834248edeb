"""The pydantic schema of 7 Days to the Rhine's data files (``tables.yaml`` and scenarios).

Loaded only to validate a file a user hands us (a ``--house-rules`` override, a scenario
file): the game and ``umpire odds`` read the plain dataclasses of the same names and fields in
:mod:`umpire.rulesets.rhine.model`, built from the packaged files without pydantic (issue 19).
A test validates every packaged file with this schema and checks the plain build gives the
same values."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Side = Literal["pact", "nato"]
Result = Literal["AE", "AR", "NE", "EX", "DR1", "DR2", "DE"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- tables -------------------------------------------------------------------------------------
class CRT(_Strict):
    provenance: str = "house"
    source: str = ""
    columns: list[str] = Field(min_length=1)
    low: int
    high: int
    rows: dict[int, list[Result]]


class TerrainEffect(_Strict):
    cost: float = Field(ge=0)
    drm: int


class HexsideEffect(_Strict):
    cost: float = Field(ge=0)
    drm: int
    ends_move: bool = False


class TEC(_Strict):
    provenance: str = "house"
    source: str = ""
    terrain: dict[str, TerrainEffect]
    hexsides: dict[str, HexsideEffect]
    road_cost: float = Field(gt=0)
    autobahn_cost: float = Field(gt=0)
    ezoc_cost: float = Field(ge=0)
    refugee_cost: float = Field(ge=0)
    air_range_cost: float = Field(ge=0)


class AirTable(_Strict):
    provenance: str = "published"
    source: str = ""
    day_dice: int = Field(ge=1)
    day_bonus_divisor: int = Field(ge=1)
    night_dice: int = Field(ge=1)
    night_bonus_divisor: int = Field(ge=1)
    max_markers: int = Field(ge=1)
    range: int = Field(ge=0)
    turn1_dice: int = Field(ge=1)
    drm_cap: int | None = None


class EWTable(_Strict):
    provenance: str = "published"
    source: str = ""
    dice: int = Field(ge=1)
    bonus_divisor: int = Field(ge=1)
    max_markers: int = Field(ge=1)
    per_hex: int = Field(ge=1)
    turn1_dice: int = Field(ge=1)


class CSTable(_Strict):
    provenance: str = "published"
    source: str = ""
    artillery_limit: dict[Literal["move-fight", "fight-move"], int]
    pact_city_artillery: int = Field(ge=0)
    helicopter_limit: int = Field(ge=0)


class HeliTable(_Strict):
    provenance: str = "published"
    source: str = ""
    need: int
    enemy_air: int
    entered_enemy: int
    city: int


class AttritionTable(_Strict):
    provenance: str = "published"
    source: str = ""
    losses_per_marker: dict[Side, int]
    heli_loss_on: int = Field(ge=1, le=6)
    ammo_pact_divisor: int = Field(ge=1)
    ammo_nato_divisor: int = Field(ge=1)


class RefugeeTable(_Strict):
    provenance: str = "published"
    source: str = ""
    first_turn: int = Field(ge=1)
    dice: int = Field(ge=0)


class Tables(_Strict):
    crt: CRT
    tec: TEC
    air: AirTable
    ew: EWTable
    cs: CSTable
    heliborne: HeliTable
    attrition: AttritionTable
    refugees: RefugeeTable
    switches: dict[str, bool]


# -- scenarios ----------------------------------------------------------------------------------
class EntrySpec(_Strict):
    turn: int = Field(ge=1)
    hexes: list[str] = Field(min_length=1)


class UnitSpec(_Strict):
    id: str
    side: Side
    nation: str
    division: str | None
    type: Literal["tank", "mech", "infantry", "recon", "heliborne", "static_garrison"]
    strength: int = Field(ge=0)
    defence_only: bool = False
    ma: int | None = None  # default by type (rhine.unit.ma)
    at: str | None = None
    enter: EntrySpec | None = None


class DivisionSpec(_Strict):
    name: str
    side: Side
    nation: str
    colour: str = "grey"


class MapSpec(_Strict):
    width: int = Field(ge=1, le=99)
    height: int = Field(ge=1, le=99)
    layout: Literal["even-q", "odd-q"] = "even-q"
    terrain: list[str]
    minor_rivers: list[tuple[str, str]] = []
    major_rivers: list[tuple[str, str]] = []
    autobahns: list[list[str]] = []
    roads: list[list[str]] = []
    cities: dict[str, list[str]] = {}
    border_after_column: int | None = None


class TurnSpec(_Strict):
    label: str
    night: bool


class ControlSpec(_Strict):
    nato_columns: tuple[int, int]
    pact_columns: tuple[int, int]


class CSSpec(_Strict):
    side: Side
    nation: str
    type: Literal["artillery", "helicopter"]
    count: int = Field(ge=0)
    from_turn: int = Field(ge=1, default=1)


class ScenarioRules(_Strict):
    air_drm_cap: int | None = None
    heli_attrition: bool = False
    ammunition: bool = False
    exit_column: int | None = None


class VictorySpec(_Strict):
    sudden_death: list[str] = []
    city_vp: dict[str, int] = {}
    per_hex: bool = True
    exit_vp: int = 0
    exit_min_strength: int = 0
    per_nato_losses: int = Field(ge=1, default=3)
    per_pact_losses: int = Field(ge=1, default=3)
    pact_decisive: int
    pact_marginal: int
    draw: int


class ScenarioSpec(_Strict):
    id: str
    title: str
    briefing: str = ""
    provenance: str = "house"
    source: str = ""
    map: MapSpec
    turns: list[TurnSpec] = Field(min_length=1, max_length=50)  # bounded game length
    control: ControlSpec
    divisions: list[DivisionSpec]
    units: list[UnitSpec]
    cs: list[CSSpec] = []
    rules: ScenarioRules = ScenarioRules()
    victory: VictorySpec
