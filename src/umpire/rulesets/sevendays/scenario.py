"""Scenario files: table, terrain, objectives and the forces of each side."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from umpire.core.datafiles import format_validation_error, load_yaml
from umpire.core.errors import DataFileError, UnknownScenarioError
from umpire.geometry.table import Area, Road, Table, polygon_from_spec
from umpire.rulesets.sevendays.config import DATA, MAX_TURNS, HouseRules
from umpire.rulesets.sevendays.orbat import Orbat, UnitProfile, UnitType, load_orbat

SCENARIOS = DATA / "scenarios"
ORBATS = DATA / "orbat"


class TerrainSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    kind: str
    polygon: list[tuple[float, float]] | None = None
    rect: tuple[float, float, float, float] | None = None
    circle: tuple[tuple[float, float], float] | None = None

    @model_validator(mode="after")
    def _one_shape(self) -> TerrainSpec:
        given = [s for s in (self.polygon, self.rect, self.circle) if s is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of polygon, rect, circle")
        return self


class RoadSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    path: list[tuple[float, float]] = Field(min_length=2)
    width: float = 2.0


class Objective(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    at: tuple[float, float]


class UnitSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    profile: str
    at: tuple[float, float]
    commander: bool = False
    hidden: bool = False  # deploys as a hidden marker (sevendays.scenario.hidden_deployment)
    dug_in: bool = False  # dug in and waiting (sevendays.scenario.dug_in)
    reserve: bool = False  # off table; enters at ``at`` (sevendays.scenario.reserves)
    embarked_in: str | None = None  # id of the side's transport it starts in


class SideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nation: str
    facing: float = 90.0
    units: list[UnitSpec] = Field(min_length=1)
    # a deployed force's own ORBAT (imported from a BattleScribe catalogue), used instead of
    # the built-in ORBAT of ``nation`` (see side_orbat)
    orbat: Orbat | None = None


class TableSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width: float = Field(gt=0)
    height: float = Field(gt=0)


class ScenarioSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    provenance: Literal["published", "reconstructed", "house"]
    description: str
    table: TableSpec
    turns: int = Field(ge=1, le=MAX_TURNS)  # bounded: a game ends far below the action cap
    # exact fractions ("2/3"): a BP total divisible by 3 breaks at exactly two thirds of it
    break_point_fraction: dict[Literal["nato", "pact"], Fraction]
    first_initiative: Literal["nato", "pact", "roll"] = "roll"
    objectives: list[Objective] = []
    terrain: list[TerrainSpec] = []
    roads: list[RoadSpec] = []
    sides: dict[Literal["nato", "pact"], SideSpec]
    # special rules (sevendays.scenario.*); all optional so a plain scenario needs none
    attacker: Literal["nato", "pact"] | None = None
    victory: Literal["meeting", "capture", "breakthrough"] = "meeting"
    reserves_from: int = Field(default=2, ge=1)
    random_length: bool = False  # Random Operation Length after ``turns``
    extra_tokens: dict[Literal["nato", "pact"], int] = {}  # d6 per unit, this score or more: +1
    attacker_moved: bool = False  # the attacker's units count as having moved on turn 1
    exit_edge: Literal["north", "south"] | None = None  # breakthrough: where the attacker exits
    exit_fraction: float = Field(default=0.25, gt=0, le=1)  # of the attacker's BP to exit
    cards: bool = False  # Tactical Advantage cards in play (sevendays.cards.*)
    # the most of the attacker's units that start on the table ("2/3" in Capture, book p32);
    # the others wait in reserve (sevendays.scenario.deployment)
    attacker_deploys: Fraction | None = None

    @field_validator("break_point_fraction", mode="before")
    @classmethod
    def _exact_fractions(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {side: _fraction(v) for side, v in value.items()}
        return value

    @field_validator("attacker_deploys", mode="before")
    @classmethod
    def _exact_fraction(cls, value: Any) -> Any:
        return None if value is None else _fraction(value)

    @field_validator("break_point_fraction", "attacker_deploys")
    @classmethod
    def _a_fraction_of_the_whole(cls, value: Any) -> Any:
        shares = value.values() if isinstance(value, Mapping) else [value]
        for share in shares:
            if share is not None and not 0 < share <= 1:
                raise ValueError(f"{share} is not a fraction in (0, 1]")
        return value


def _fraction(value: Any) -> Any:
    """A written fraction ("2/3") or a decimal (0.5) as an exact Fraction: a float is read
    by its decimal text, so 0.1 is 1/10 and not the nearest binary number."""
    if isinstance(value, bool):
        return value  # refused by the field's type
    if isinstance(value, float | int | str):
        try:
            return Fraction(str(value).strip())
        except (ValueError, ZeroDivisionError):
            return value  # refused by the field's type, with pydantic's message
    return value


def house_profile(profile: UnitProfile, key: str, house: HouseRules) -> UnitProfile:
    """``profile`` as this game plays it: with the house switch sevendays.orbat.bp_corrections
    on, the break points it lists for ``key`` (``nation/unit-id``) replace the printed ones."""
    fix = house.bp_corrections
    if fix.use and key in fix.bp and fix.bp[key] != profile.bp:
        return profile.model_copy(update={"bp": fix.bp[key]})
    return profile


def deploy_limit(spec: ScenarioSpec, side: str) -> int | None:
    """Rule sevendays.scenario.deployment: how many of ``side``'s units may start on the table
    (``None``: no limit)."""
    if spec.attacker_deploys is None or spec.attacker != side:
        return None
    return math.floor(spec.attacker_deploys * len(spec.sides[side].units))


class Scenario:
    """A loaded scenario: its spec, table geometry and resolved unit profiles."""

    def __init__(self, spec: ScenarioSpec, house: HouseRules, source: Path) -> None:
        self.spec = spec
        self.source = source
        self.house = house
        self.table = _build_table(spec, house, source)
        self.profiles: dict[str, UnitProfile] = {}
        for side, side_spec in spec.sides.items():
            orbat = side_orbat(side_spec, source)
            if orbat.side != side:
                raise DataFileError(
                    f"{source}: field sides.{side}.nation: {orbat.nation!r} fights for "
                    f"{orbat.side}, not {side}"
                )
            for index, unit in enumerate(side_spec.units):
                where = f"{source}: field sides.{side}.units.{index}.profile"
                try:
                    profile = orbat.profile(unit.profile)
                except KeyError as exc:
                    raise DataFileError(f"{where}: {exc.args[0]}") from exc
                if profile.type is UnitType.HELICOPTER and (unit.hidden or unit.embarked_in):
                    raise DataFileError(
                        f"{where}: {profile.name} is a helicopter: it cannot deploy hidden or "
                        "embarked (sevendays.air.helicopter)"
                    )
                key = f"{orbat.nation}/{unit.profile}"
                profile = house_profile(profile, key, house)
                if self.profiles.get(key, profile) != profile:
                    raise DataFileError(
                        f"{where}: two sides call different profiles {key!r}; give one force "
                        "another nation label"
                    )
                self.profiles[key] = profile
                if unit.embarked_in is not None:
                    self._check_rider(side, side_spec, index, unit, profile, orbat)
                if not self.table.inside(*unit.at):
                    raise DataFileError(
                        f"{source}: field sides.{side}.units.{index}.at: {unit.at} is off the table"
                    )
            limit = deploy_limit(spec, side)
            on_table = sum(1 for u in side_spec.units if not u.reserve)
            if limit is not None and on_table > limit:
                raise DataFileError(
                    f"{source}: field sides.{side}.units: the attacker deploys at most "
                    f"{spec.attacker_deploys} of its {len(side_spec.units)} units ({limit}), not "
                    f"{on_table}; mark the others reserve: true (sevendays.scenario.deployment)"
                )

    def _check_rider(
        self,
        side: str,
        side_spec: SideSpec,
        index: int,
        unit: UnitSpec,
        profile: UnitProfile,
        orbat: Orbat,
    ) -> None:
        """Rule sevendays.transport.capacity: a passenger starts in a transport with room."""
        where = f"{self.source}: field sides.{side}.units.{index}.embarked_in"
        carrier = next((u for u in side_spec.units if u.id == unit.embarked_in), None)
        if carrier is None:
            raise DataFileError(f"{where}: no unit {unit.embarked_in!r} on this side")
        carrier_profile = orbat.profile(carrier.profile)
        traits = carrier_profile.traits
        seats = 2 if "apc_plus" in traits else 1 if traits & {"apc", "apc_minus"} else 0
        riders = sum(1 for u in side_spec.units if u.embarked_in == carrier.id)
        if not profile.is_foot:
            raise DataFileError(f"{where}: only infantry and support teams ride in transports")
        if seats == 0 or riders > seats:
            raise DataFileError(
                f"{where}: {carrier_profile.name} carries {seats} unit(s), not {riders}"
            )
        if "apc_minus" in traits and profile.type is not UnitType.SUPPORT:
            raise DataFileError(f"{where}: {carrier_profile.name} carries support teams only")

    @property
    def id(self) -> str:
        return self.spec.id


def _build_table(spec: ScenarioSpec, house: HouseRules, source: Path) -> Table:
    areas = []
    for index, t in enumerate(spec.terrain):
        if t.kind not in house.terrain_kinds:
            known = ", ".join(sorted(house.terrain_kinds))
            raise DataFileError(
                f"{source}: field terrain.{index}.kind: unknown terrain kind {t.kind!r} "
                f"(known: {known})"
            )
        shape: dict[str, Any] = t.model_dump(
            exclude_none=True, include={"polygon", "rect", "circle"}
        )
        polygon = polygon_from_spec(shape)
        if not polygon.is_valid:
            raise DataFileError(f"{source}: field terrain.{index}: polygon is self-intersecting")
        areas.append(Area(t.id, house.terrain_kind(t.kind), polygon))
    from shapely.geometry import LineString  # only a table needs it (issue 19: cold odds)

    roads = [Road(r.id, LineString(r.path), r.width) for r in spec.roads]
    return Table(spec.table.width, spec.table.height, areas, roads)


@cache
def load_nation(nation: str, source: Path | None = None) -> Orbat:
    path = ORBATS / f"{nation}.yaml"
    # a name, not a path: nothing outside the ORBAT folder, no name the system refuses
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", str(nation)) or not path.exists():
        known = ", ".join(sorted(p.stem for p in ORBATS.glob("*.yaml")))
        where = f"{source}: " if source else ""
        raise DataFileError(f"{where}unknown nation {str(nation)[:80]!r} (known: {known})")
    return load_orbat(path)


def side_orbat(side_spec: SideSpec, source: Path | None = None) -> Orbat:
    """The ORBAT a scenario side's units come from: the side's own (a deployed force with
    imported profiles) or its nation's built-in one."""
    if side_spec.orbat is not None:
        if side_spec.orbat.nation != side_spec.nation:
            where = f"{source}: " if source else ""
            raise DataFileError(
                f"{where}side nation {side_spec.nation!r} is not its ORBAT's "
                f"{side_spec.orbat.nation!r}"
            )
        return side_spec.orbat
    return load_nation(side_spec.nation, source)


def _hold_back(data: dict[str, Any], deployed: set[str]) -> dict[str, Any]:
    """A force file deployed as the attacker of a scenario that limits its deployment
    (sevendays.scenario.deployment; which units wait is house): the last units listed wait in
    reserve, entering where they were placed, until at most the allowed share is on the
    table. The commander, transports with passengers and passengers stay on the table."""
    attacker, share = data.get("attacker"), data.get("attacker_deploys")
    if attacker not in deployed or share is None:
        return data
    side = data["sides"][attacker]
    units = [dict(u) for u in side.get("units", [])]
    limit = math.floor(Fraction(str(share)) * len(units))
    carriers = {u.get("embarked_in") for u in units if u.get("embarked_in")}
    on_table = sum(1 for u in units if not u.get("reserve"))
    for unit in reversed(units):
        if on_table <= limit:
            break
        keep = unit.get("commander") or unit.get("embarked_in") or unit.get("id") in carriers
        if not unit.get("reserve") and not keep:
            unit["reserve"] = True
            on_table -= 1
    return {**data, "sides": {**data["sides"], attacker: {**side, "units": units}}}


def scenario_ids() -> list[str]:
    return sorted(p.stem for p in SCENARIOS.glob("*.yaml"))


def scenario_path(scenario_id: str) -> Path:
    path = SCENARIOS / f"{scenario_id}.yaml"
    if not path.exists():
        raise UnknownScenarioError(
            f"unknown scenario {scenario_id!r} for sevendays; known: {', '.join(scenario_ids())}"
        )
    return path


def load_scenario(
    scenario: str, house: HouseRules, sides: Mapping[str, Any] | None = None
) -> Scenario:
    """Load a scenario by id, or from a path to a YAML file; ``sides`` replaces whole sides
    (``nation``, ``facing``, ``units``), e.g. a force file deployed by ``forces.deploy_side``."""
    path = Path(scenario) if scenario.endswith((".yaml", ".yml")) else scenario_path(scenario)
    data = load_yaml(path)
    if sides:
        data = {**data, "sides": {**data.get("sides", {}), **sides}}
        data = _hold_back(data, set(sides))
    try:
        spec = ScenarioSpec.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc
    return Scenario(spec, house, path)
