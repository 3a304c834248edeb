"""Scenario files: table, terrain, objectives and the forces of each side."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.core.datafiles import format_validation_error, load_yaml
from umpire.core.errors import DataFileError, UnknownScenarioError
from umpire.geometry.table import Area, Road, Table, polygon_from_spec
from umpire.rulesets.sevendays.config import DATA, HouseRules
from umpire.rulesets.sevendays.orbat import Orbat, UnitProfile, UnitType, load_orbat

if TYPE_CHECKING:  # the scenario file's pydantic models, imported when a scenario is loaded
    from umpire.rulesets.sevendays.scenario_spec import (
        ScenarioSpec,
        SideSpec,
        UnitSpec,
    )

SCENARIOS = DATA / "scenarios"
ORBATS = DATA / "orbat"
_SPEC_NAMES = frozenset(
    {"Objective", "RoadSpec", "ScenarioSpec", "SideSpec", "TableSpec", "TerrainSpec", "UnitSpec"}
)


def __getattr__(name: str) -> Any:
    """The scenario file's models (``ScenarioSpec``, ``SideSpec``, ...) by their old names,
    loaded on first use (they need pydantic; a shot's odds do not)."""
    if name in _SPEC_NAMES:
        from umpire.rulesets.sevendays import scenario_spec

        return getattr(scenario_spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
        found = next(
            ((k, u) for k, u in enumerate(side_spec.units) if u.id == unit.embarked_in), None
        )
        if found is None:
            raise DataFileError(f"{where}: no unit {unit.embarked_in!r} on this side")
        carrier_index, carrier = found
        try:  # a transport listed after its passenger has not had its profile checked yet
            carrier_profile = orbat.profile(carrier.profile)
        except KeyError as exc:
            raise DataFileError(
                f"{self.source}: field sides.{side}.units.{carrier_index}.profile: {exc.args[0]}"
            ) from exc
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
    from pydantic import ValidationError

    from umpire.rulesets.sevendays.scenario_spec import ScenarioSpec

    try:
        spec = ScenarioSpec.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc
    return Scenario(spec, house, path)
