"""Scenario files: the board (size, terrain by square), objectives, switches and both forces.

Squares are written as chessboard names (``C4``: column C, row 4) or as ``[x, y]`` pairs counted
from 0. Files are validated on load; a mistake is reported in one line naming file and field.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from umpire.core.datafiles import format_validation_error, load_yaml
from umpire.core.errors import DataFileError, UnknownScenarioError
from umpire.geometry.squaregrid import Square, label, parse_label
from umpire.rulesets.portable.config import DATA
from umpire.rulesets.portable.enums import SIDES
from umpire.rulesets.portable.units import ARTILLERY, MOTOR_CARGO, STACK_EXEMPT, unit_types

SCENARIOS = DATA / "scenarios"


def _square(value: Any) -> Any:
    if isinstance(value, str):
        return parse_label(value)
    return value


SquareSpec = Annotated[tuple[int, int], BeforeValidator(_square)]
FacingSpec = Literal["N", "E", "S", "W"]


class TerrainSpec(BaseModel):
    """Squares of one kind of terrain: a list, or a rectangle between two corner squares."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["woods", "town", "hill", "river"]
    squares: list[SquareSpec] = []
    rect: tuple[SquareSpec, SquareSpec] | None = None

    def all_squares(self) -> list[Square]:
        out = list(self.squares)
        if self.rect is not None:
            (x0, y0), (x1, y1) = self.rect
            out += [
                (x, y)
                for x in range(min(x0, x1), max(x0, x1) + 1)
                for y in range(min(y0, y1), max(y0, y1) + 1)
            ]
        return out


class UnitSpec(BaseModel):
    """One unit: its type, square, quality and (optionally) SP adjusted before battle."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    type: str
    at: SquareSpec
    quality: Literal["elite", "average", "poor"] = "average"
    facing: FacingSpec | None = None
    artillery: str | None = None
    sp: int | None = Field(default=None, ge=1)
    carrying: str | None = None
    arrives: int = Field(default=1, ge=1)


class SideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    facing: FacingSpec
    units: list[UnitSpec] = Field(min_length=1)


class GridSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width: int = Field(ge=2, le=26)
    height: int = Field(ge=2, le=30)


class ScenarioSpec(BaseModel):
    """A scenario file."""

    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    provenance: Literal["published", "reconstructed", "house"]
    description: str
    grid: GridSpec
    turns: int = Field(ge=1, le=50)  # bounded: a game ends far below the action cap
    first_initiative: Literal["blue", "red", "roll"] = "roll"
    optional: dict[
        Literal["cyclists", "tank_riders", "gas", "air", "commander_attached"], bool
    ] = {}
    terrain: list[TerrainSpec] = []
    roads: list[SquareSpec] = []
    fords: list[SquareSpec] = []
    trenches: list[SquareSpec] = []
    minefields: list[SquareSpec] = []
    wire: list[SquareSpec] = []
    objectives: list[SquareSpec] = []
    sides: dict[Literal["blue", "red"], SideSpec]


def _check(spec: ScenarioSpec, source: Path, optional: dict[str, bool]) -> None:
    """Cross-field checks pydantic cannot do alone; each failure names its field."""
    w, h = spec.grid.width, spec.grid.height
    types = unit_types()

    def inside(square: Square, where: str) -> None:
        if not (0 <= square[0] < w and 0 <= square[1] < h):
            raise DataFileError(
                f"{source}: field {where}: {label(square)} is off the {w}x{h} board"
            )

    terrain: dict[Square, str] = {}
    for i, t in enumerate(spec.terrain):
        for k, corner in enumerate(t.rect or ()):  # before its squares are listed
            inside(corner, f"terrain.{i}.rect.{k}")
        for sq in t.all_squares():
            inside(sq, f"terrain.{i}")
            terrain[sq] = t.kind
    for key in ("roads", "fords", "trenches", "minefields", "wire", "objectives"):
        for i, sq in enumerate(getattr(spec, key)):
            inside(sq, f"{key}.{i}")
    for i, sq in enumerate(spec.fords):
        if terrain.get(sq) != "river":
            raise DataFileError(f"{source}: field fords.{i}: {label(sq)} is not a river square")
    if set(spec.sides) != set(SIDES):
        raise DataFileError(f"{source}: field sides: give both blue and red")
    occupied: dict[Square, list[tuple[str, str, str]]] = {}
    for side, side_spec in spec.sides.items():
        ids: set[str] = set()
        by_id = {u.id: u for u in side_spec.units}
        carried = {u.carrying: u.id for u in side_spec.units if u.carrying}
        for i, u in enumerate(side_spec.units):
            where = f"sides.{side}.units.{i}"
            if u.id in ids:
                raise DataFileError(f"{source}: field {where}.id: duplicate unit id {u.id!r}")
            ids.add(u.id)
            inside(u.at, f"{where}.at")
            if u.type in types.aircraft:
                if not optional["air"]:
                    raise DataFileError(
                        f"{source}: field {where}.type: aircraft need the optional air rules "
                        "(optional: {air: true})"
                    )
                continue
            if u.type not in types.ground:
                known = ", ".join(sorted(types.ground) + sorted(types.aircraft))
                raise DataFileError(
                    f"{source}: field {where}.type: unknown unit type {u.type!r} (known: {known})"
                )
            ground = types.ground[u.type]
            if ground.kind == "cyclists" and not optional["cyclists"]:
                raise DataFileError(
                    f"{source}: field {where}.type: cyclists need the optional cyclist rules"
                )
            if ground.kind in ARTILLERY:
                if u.artillery not in types.artillery:
                    known = ", ".join(types.artillery)
                    raise DataFileError(
                        f"{source}: field {where}.artillery: give the artillery class ({known})"
                    )
            elif u.artillery is not None:
                raise DataFileError(f"{source}: field {where}.artillery: only for artillery units")
            if terrain.get(u.at) == "river" and u.at not in spec.fords:
                raise DataFileError(f"{source}: field {where}.at: {label(u.at)} is in a river")
            if u.carrying is not None:
                cargo = by_id.get(u.carrying)
                if cargo is None or cargo.at != u.at:
                    raise DataFileError(
                        f"{source}: field {where}.carrying: {u.carrying!r} is not a {side} unit "
                        "in the same square"
                    )
                if not _can_carry(u.type, cargo.type, optional):
                    raise DataFileError(
                        f"{source}: field {where}.carrying: a {ground.name} cannot carry "
                        f"{cargo.type}"
                    )
            if u.id not in carried:
                occupied.setdefault(u.at, []).append((side, u.id, ground.kind))
    for sq, here in occupied.items():
        if len({s for s, _, _ in here}) > 1:
            raise DataFileError(
                f"{source}: field sides: blue and red units share square {label(sq)}"
            )
        fighting = [uid for _, uid, kind in here if kind not in STACK_EXEMPT]
        if len(fighting) > 1:
            raise DataFileError(
                f"{source}: field sides: {', '.join(fighting)} share square {label(sq)} "
                "(one fighting unit per square)"
            )


def _can_carry(carrier: str, cargo: str, optional: dict[str, bool]) -> bool:
    types = unit_types()
    kind = types.ground[carrier].kind
    if kind == "motor_transport":
        return cargo in MOTOR_CARGO or cargo == "artillery"
    if kind == "horse_transport":
        return cargo == "artillery"
    if kind == "tanks" and optional["tank_riders"]:
        return cargo in types.ground and types.ground[cargo].kind == "infantry"
    return False


def scenario_ids() -> list[str]:
    """Ids of the scenarios shipped with the ruleset."""
    return sorted(p.stem for p in SCENARIOS.glob("*.yaml"))


def scenario_path(scenario_id: str) -> Path:
    if scenario_id.endswith((".yaml", ".yml")):
        return Path(scenario_id)
    path = SCENARIOS / f"{scenario_id}.yaml"
    if not path.exists():
        raise UnknownScenarioError(
            f"unknown scenario {scenario_id!r} for portable; known: {', '.join(scenario_ids())}"
        )
    return path


@cache
def _load_spec(path: Path, mtime: float) -> ScenarioSpec:
    data = load_yaml(path)
    try:
        return ScenarioSpec.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc


def load_scenario(
    scenario: str, defaults: dict[str, bool], user: dict[str, bool]
) -> tuple[ScenarioSpec, dict[str, bool], Path]:
    """Load and check a scenario by id or path. The optional-rule switches in force are the
    house defaults, then the scenario's own, then the user's override file."""
    path = scenario_path(scenario)
    try:
        mtime = path.stat().st_mtime
    except FileNotFoundError as exc:
        raise DataFileError(f"{path}: file not found") from exc
    except (OSError, ValueError) as exc:  # a name too long, an embedded NUL
        reason = getattr(exc, "strerror", None) or str(exc)
        raise DataFileError(f"{str(path)[:200]}: cannot be read ({reason})") from exc
    spec = _load_spec(path, mtime)
    switches: dict[str, bool] = {
        **defaults,
        **{str(k): v for k, v in spec.optional.items()},
        **user,
    }
    _check(spec, path, switches)
    return spec, switches, path
