"""Force files for Seven Days to the River Rhine: a nation's units bought to a points limit.

A force file is TOML (read with :mod:`tomllib`, written by :func:`force_to_toml`)::

    ruleset = "sevendays"
    nation = "uk"
    name = "Chieftain squadron group"
    points = 500                      # the limit it was built to (optional)

    [[units]]
    profile = "chieftain-mk9"         # a unit id of the nation's ORBAT
    count = 3                         # or ids = ["chieftain-1", ...]
    commander = true                  # the first of these is the battlegroup commander

    [[units]]
    profile = "fv432"

    [[units]]
    profile = "infantry"
    embarked_in = "fv432"             # a transport's unit id, or its profile (first free one)

Legality (:func:`check_force`): every profile exists in the nation's ORBAT, unit ids are unique,
at most one commander, passengers are infantry or support units riding in an APC with room for
them, every APC carries a passenger (the book sells APCs only with one), and the force costs no
more than its points limit. Every problem is one line naming the file and the field.

:func:`deploy_force` turns a force into scenario unit specs placed in the side's deployment zone.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from umpire.core.datafiles import format_validation_error
from umpire.core.errors import DataFileError
from umpire.geometry.table import Table
from umpire.rulesets.sevendays.orbat import Orbat, UnitProfile, UnitType
from umpire.rulesets.sevendays.scenario import load_nation

if TYPE_CHECKING:
    from umpire.rulesets.sevendays.scenario_spec import SideSpec

UNIT_ID = r"^[a-z0-9][a-z0-9-]*$"
ROSTER_SUFFIXES = (".ros", ".rosz")

# how many foot units each kind of transport carries
_CAPACITY = {"apc_plus": 2, "apc": 1, "apc_minus": 1}


class ForceEntry(BaseModel):
    """One line of a force: ``count`` units of one ORBAT profile."""

    model_config = ConfigDict(extra="forbid")

    profile: str = Field(min_length=1)
    count: int = Field(default=1, ge=1, le=99)
    ids: list[str] | None = None
    embarked_in: str | list[str] | None = None
    commander: bool = False

    @model_validator(mode="before")
    @classmethod
    def _count_from_ids(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("ids"), list) and "count" not in data:
            data = {**data, "count": len(data["ids"])}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> ForceEntry:
        if self.ids is not None:
            if len(self.ids) != self.count:
                raise ValueError(f"count is {self.count} but {len(self.ids)} ids are given")
            for uid in self.ids:
                if not re.match(UNIT_ID, uid):
                    raise ValueError(f"unit id {uid!r} must be lower-case letters, digits and -")
        if isinstance(self.embarked_in, list) and len(self.embarked_in) != self.count:
            raise ValueError(
                f"embarked_in lists {len(self.embarked_in)} transports for {self.count} units"
            )
        return self


class Force(BaseModel):
    """A force file: the nation, an optional points limit and the units bought."""

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["sevendays"] = "sevendays"
    nation: str = Field(min_length=1)
    name: str = ""
    points: int | None = Field(default=None, ge=1, le=100_000)  # no game is near this
    source: str | None = None
    # a force with its own unit profiles (imported from a BattleScribe catalogue): ``units``
    # name these instead of a built-in ORBAT's, ``nation`` is just its label, and ``side`` the
    # side it fights for (None: either)
    side: Literal["nato", "pact"] | None = None
    # the plain profiles the rules read, validated by pydantic with the bounds and notations
    # their fields carry (its one-line errors name profiles.N.field)
    profiles: list[UnitProfile] = Field(default_factory=list, max_length=1000)
    units: list[ForceEntry] = Field(min_length=1)

    @model_validator(mode="after")
    def _own_profiles(self) -> Force:
        if self.profiles:
            if not re.match(UNIT_ID, self.nation) or len(self.nation) > 64:
                raise ValueError(
                    f"nation {self.nation[:80]!r}: a force with its own profiles needs a nation "
                    "label of lower-case letters, digits and -"
                )
            ids = [p.id for p in self.profiles]
            twice = sorted({i for i in ids if ids.count(i) > 1})
            if twice:
                raise ValueError(f"profile id(s) {twice} are given twice")
        return self


@dataclass(frozen=True)
class ForceUnit:
    """One model of a checked force, with its id, profile and transport."""

    id: str
    profile: UnitProfile
    entry: int
    commander: bool = False
    embarked_in: str | None = None


@dataclass(frozen=True)
class ForceSummary:
    """What :func:`check_force` found: the units, their cost and break points."""

    orbat: Orbat
    units: tuple[ForceUnit, ...]
    points: int
    bp: int

    def unit(self, unit_id: str) -> ForceUnit:
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise KeyError(unit_id)


# --- reading and writing --------------------------------------------------------------------


def force_orbat(force: Force) -> Orbat:
    """The ORBAT a force buys from: its own ``profiles`` where it has them (an imported
    catalogue; ``side`` defaults to nato for the label only), else its nation's."""
    if force.profiles:
        return Orbat(
            nation=force.nation,
            side=force.side or "nato",
            name=force.name or force.nation,
            source=force.source or "force file",
            units=tuple(force.profiles),
        )
    return load_nation(force.nation)


def load_force(path: Path | str) -> Force:
    """Read a TOML force file (a BattleScribe roster is read by
    :func:`umpire.importers.roster.load_force_file`, which depends on this module).

    Only the file's shape is checked here; call :func:`check_force` for points and legality.
    """
    path = Path(path)
    if path.suffix.lower() in ROSTER_SUFFIXES:
        raise DataFileError(
            f"{path}: a BattleScribe roster; import it with umpire force import, or name it "
            "as a side's force (--nato-force/--pact-force)"
        )
    if path.suffix.lower() != ".toml":
        raise DataFileError(
            f"{path}: unknown force file type {path.suffix or '(none)'!r}; "
            "expected .toml, .ros or .rosz"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DataFileError(f"{path}: file not found") from exc
    except UnicodeDecodeError as exc:
        raise DataFileError(f"{path}: not a UTF-8 text file") from exc
    except OSError as exc:  # a folder, a name too long, no permission
        raise DataFileError(f"{str(path)[:200]}: cannot be read ({exc.strerror or exc})") from exc
    return parse_force(text, path)


def parse_force(text: str, source: Path | str = "<force>") -> Force:
    """Parse force-file TOML text (``source`` names it in errors)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{source}: not valid TOML ({exc})") from exc
    except RecursionError as exc:  # absurdly nested arrays or tables
        raise DataFileError(f"{source}: nested too deeply") from exc
    except ValueError as exc:  # an integer beyond Python's digit limit
        raise DataFileError(f"{source}: {str(exc)[:120]}") from exc
    try:
        return Force.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(format_validation_error(source, exc)) from exc


def _toml_string(text: str) -> str:
    out = ['"']
    for char in text:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _toml_value(value: str | int | bool | list[str]) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_string(v) for v in value) + "]"
    return _toml_string(value)


def force_to_toml(force: Force) -> str:
    """The force as TOML text that :func:`parse_force` reads back to an equal Force.

    Each unit table gets a comment with the unit's name and cost where the ORBAT knows it.
    """
    try:
        orbat: Orbat | None = force_orbat(force)
    except DataFileError:
        orbat = None
    lines = [
        "# Umpire force file for Seven Days to the River Rhine (check: umpire force check FILE)",
        f"ruleset = {_toml_value(force.ruleset)}",
        f"nation = {_toml_value(force.nation)}",
    ]
    if force.name:
        lines.append(f"name = {_toml_value(force.name)}")
    if force.points is not None:
        lines.append(f"points = {force.points}")
    if force.source:
        lines.append(f"source = {_toml_value(force.source)}")
    if force.side is not None:
        lines.append(f"side = {_toml_value(force.side)}")
    for own in force.profiles:
        lines += ["", *_profile_toml(own)]
    for entry in force.units:
        lines.append("")
        profile = _profile_or_none(orbat, entry.profile)
        if profile is not None:
            each = f"{profile.points} pts" + (" each" if entry.count > 1 else "")
            lines.append(f"# {profile.name}: {each}")
        lines.append("[[units]]")
        lines.append(f"profile = {_toml_value(entry.profile)}")
        if entry.ids is not None:
            lines.append(f"ids = {_toml_value(entry.ids)}")
        elif entry.count != 1:
            lines.append(f"count = {entry.count}")
        if entry.embarked_in is not None:
            lines.append(f"embarked_in = {_toml_value(entry.embarked_in)}")
        if entry.commander:
            lines.append("commander = true")
    return "\n".join(lines) + "\n"


def _profile_toml(profile: UnitProfile) -> list[str]:
    """A ``[[profiles]]`` table in the ORBAT's own notation (armour ["19s", "17s"], "7h")."""
    out = ["[[profiles]]", f"id = {_toml_value(profile.id)}"]
    out.append(f"name = {_toml_value(profile.name)}")
    out.append(f"type = {_toml_value(profile.type.value)}")
    if profile.armour is not None:
        s = "s" if profile.armour.special else ""
        pair = [f"{profile.armour.front}{s}", f"{profile.armour.side}{s}"]
        out.append(f"armour = {_toml_value(pair)}")
    if profile.weapon is not None:
        out.append(f"weapon = {_toml_value(str(profile.weapon))}")
    for name in ("to_hit", "morale", "aa_to_hit"):
        value = getattr(profile, name)
        if value is not None:
            out.append(f"{name} = {value}")
    if profile.atgm is not None:
        atgm = profile.atgm
        out.append(
            f"atgm = {{ to_hit = {atgm.to_hit}, weapon = {_toml_value(str(atgm.weapon))}, "
            f"min_range = {atgm.min_range!r} }}"
        )
    if profile.traits:
        out.append(f"traits = {_toml_value(sorted(profile.traits))}")
    out += [f"points = {profile.points}", f"bp = {profile.bp}"]
    if profile.page is not None:
        out.append(f"page = {profile.page}")
    if profile.note:
        out.append(f"note = {_toml_value(profile.note)}")
    return out


def write_force(force: Force, path: Path | str) -> Path:
    """Write the force as TOML to ``path`` (parent folders must exist)."""
    path = Path(path)
    path.write_text(force_to_toml(force), encoding="utf-8")
    return path


def _profile_or_none(orbat: Orbat | None, unit_id: str) -> UnitProfile | None:
    if orbat is None:
        return None
    try:
        return orbat.profile(unit_id)
    except KeyError:
        return None


def describe_force(
    force: Force, summary: ForceSummary, points_limit: int | None = None
) -> list[str]:
    """A force as lines for a person: each unit with its cost, then the totals."""
    limit = points_limit if points_limit is not None else force.points
    title = force.name or "force"
    out = [f"{title} ({summary.orbat.name})"]
    for unit in summary.units:
        ride = f", in {unit.embarked_in}" if unit.embarked_in else ""
        boss = ", commander" if unit.commander else ""
        out.append(
            f"  {unit.id:<20} {unit.profile.name:<22} {unit.profile.points:4} pts "
            f"{unit.profile.bp:3} BP{ride}{boss}"
        )
    of = f" of {limit}" if limit is not None else ""
    out.append(f"{len(summary.units)} units, {summary.points}{of} points, {summary.bp} BP")
    return out


# --- legality -------------------------------------------------------------------------------


def capacity(profile: UnitProfile) -> int:
    """How many infantry or support units the profile carries (0: not a transport)."""
    return max((n for trait, n in _CAPACITY.items() if trait in profile.traits), default=0)


def can_carry(transport: UnitProfile, passenger: UnitProfile) -> bool:
    """Whether ``passenger`` may ride in ``transport`` (ignoring how full it is)."""
    if not transport.is_apc or not passenger.is_foot:
        return False
    if "apc_minus" in transport.traits and not (transport.traits & {"apc", "apc_plus"}):
        return passenger.type is UnitType.SUPPORT
    return True


def suggest(word: str, choices: Iterable[str]) -> str:
    """'; did you mean ...?' for close matches of ``word``, or '' when none is close."""
    close = difflib.get_close_matches(word, list(choices), n=3, cutoff=0.5)
    return f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""


def _where(force: Force, source: Path | str | None) -> str:
    if source is not None:
        return str(source)
    return f"force {force.name!r}" if force.name else f"{force.nation} force"


def force_problems(
    force: Force, points_limit: int | None = None, source: Path | str | None = None
) -> list[str]:
    """Every legality problem of the force, one line each (empty when it is legal)."""
    try:
        summary = _resolve(force, source, strict_transport=False)
    except DataFileError as exc:
        return [str(exc)]
    problems = list(_transport_problems(force, summary, source))
    limit = points_limit if points_limit is not None else force.points
    if limit is not None and summary.points > limit:
        problems.append(
            f"{_where(force, source)}: field points: the force costs {summary.points} points, "
            f"{summary.points - limit} over the limit of {limit}"
        )
    return problems


def check_force(
    force: Force, points_limit: int | None = None, source: Path | str | None = None
) -> ForceSummary:
    """Check the force is legal and within ``points_limit`` (default: the file's own limit).

    Raises :class:`DataFileError` with the first problem on one line (and how many more there
    are); returns the resolved units, points and break points.
    """
    problems = force_problems(force, points_limit, source)
    if problems:
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        raise DataFileError(problems[0] + more)
    return _resolve(force, source, strict_transport=True)


def force_points(force: Force) -> int:
    """What the force costs (raises :class:`DataFileError` for an unknown nation or profile)."""
    orbat = force_orbat(force)
    total = 0
    for index, entry in enumerate(force.units):
        total += _profile(orbat, entry.profile, force, None, index).points * entry.count
    return total


def _profile(
    orbat: Orbat, unit_id: str, force: Force, source: Path | str | None, index: int
) -> UnitProfile:
    try:
        return orbat.profile(unit_id)
    except KeyError:
        ids = [u.id for u in orbat.units]
        hint = suggest(unit_id, ids) or suggest(unit_id.lower(), ids)
        known = hint or f" (known: {', '.join(ids)})"
        raise DataFileError(
            f"{_where(force, source)}: field units.{index}.profile: no unit {unit_id!r} in the "
            f"{orbat.nation} ORBAT{known}"
        ) from None


def _resolve(force: Force, source: Path | str | None, strict_transport: bool) -> ForceSummary:
    where = _where(force, source)
    try:
        orbat = force_orbat(force)
    except DataFileError as exc:
        raise DataFileError(f"{where}: field nation: {exc}") from None
    profiles = [_profile(orbat, e.profile, force, source, i) for i, e in enumerate(force.units)]

    commanders = [i for i, e in enumerate(force.units) if e.commander]
    if len(commanders) > 1:
        raise DataFileError(
            f"{where}: field units.{commanders[1]}.commander: a battlegroup has one commander "
            f"(units.{commanders[0]} is already it)"
        )

    # unit ids: explicit ones first, then profile-1, profile-2 ... skipping taken ones
    taken: set[str] = set()
    for index, entry in enumerate(force.units):
        for uid in entry.ids or ():
            if uid in taken:
                raise DataFileError(
                    f"{where}: field units.{index}.ids: unit id {uid!r} is used twice"
                )
            taken.add(uid)
    numbers: dict[str, int] = {}
    ids: list[list[str]] = []
    for entry in force.units:
        if entry.ids is not None:
            ids.append(list(entry.ids))
            continue
        mine = []
        for _ in range(entry.count):
            n = numbers.get(entry.profile, 0)
            while True:
                n += 1
                uid = f"{entry.profile}-{n}"
                if uid not in taken:
                    break
            numbers[entry.profile] = n
            taken.add(uid)
            mine.append(uid)
        ids.append(mine)

    by_id = {uid: profiles[i] for i, group in enumerate(ids) for uid in group}
    load: dict[str, list[str]] = {uid: [] for uid, p in by_id.items() if p.is_apc}
    embarked: dict[str, str] = {}

    def board(index: int, uid: str, transport: str) -> None:
        passenger = by_id[uid]
        carrier = by_id[transport]
        field = f"{where}: field units.{index}.embarked_in"
        if not carrier.is_apc:
            raise DataFileError(f"{field}: {carrier.name} ({transport}) is not an APC")
        if not passenger.is_foot:
            raise DataFileError(
                f"{field}: {passenger.name} cannot ride in an APC (only infantry and support "
                "units can)"
            )
        if not can_carry(carrier, passenger):
            raise DataFileError(f"{field}: {carrier.name} carries support teams only")
        if len(load[transport]) >= capacity(carrier):
            raise DataFileError(
                f"{field}: {carrier.name} ({transport}) is full (it carries "
                f"{capacity(carrier)}: {', '.join(load[transport])})"
            )
        load[transport].append(uid)
        embarked[uid] = transport

    # passengers naming a transport by unit id board first, then those naming a profile
    wanted: list[tuple[int, str, str]] = []
    for index, entry in enumerate(force.units):
        if entry.embarked_in is None:
            continue
        targets = (
            entry.embarked_in
            if isinstance(entry.embarked_in, list)
            else [entry.embarked_in] * entry.count
        )
        wanted += [(index, uid, t) for uid, t in zip(ids[index], targets, strict=True)]
    for index, uid, target in wanted:
        if target in by_id:
            board(index, uid, target)
    for index, uid, target in wanted:
        if target in by_id:
            continue
        if target not in {p.id for p in by_id.values()}:
            hint = suggest(target, list(load) + sorted({by_id[t].id for t in load}))
            raise DataFileError(
                f"{where}: field units.{index}.embarked_in: {target!r} is neither a unit nor a "
                f"unit type of this force{hint}"
            )
        # an empty transport of that type first, else the one with the most room
        free = [
            t
            for t in load
            if by_id[t].id == target
            and len(load[t]) < capacity(by_id[t])
            and can_carry(by_id[t], by_id[uid])
        ]
        candidates = [t for t in load if by_id[t].id == target]
        if free:
            board(index, uid, min(free, key=lambda t: len(load[t])))
        elif candidates:
            board(index, uid, candidates[0])  # reports why it cannot board
        else:
            carrier = next(p for p in by_id.values() if p.id == target)
            raise DataFileError(
                f"{where}: field units.{index}.embarked_in: {carrier.name} ({target}) is not an APC"
            )

    units: list[ForceUnit] = []
    for index, (entry, group) in enumerate(zip(force.units, ids, strict=True)):
        for n, uid in enumerate(group):
            units.append(
                ForceUnit(
                    id=uid,
                    profile=profiles[index],
                    entry=index,
                    commander=entry.commander and n == 0,
                    embarked_in=embarked.get(uid),
                )
            )
    summary = ForceSummary(
        orbat=orbat,
        units=tuple(units),
        points=sum(u.profile.points for u in units),
        bp=sum(u.profile.bp for u in units),
    )
    if strict_transport:
        problems = _transport_problems(force, summary, source)
        if problems:
            raise DataFileError(problems[0])
    return summary


def _transport_problems(
    force: Force, summary: ForceSummary, source: Path | str | None
) -> list[str]:
    carried = {u.embarked_in for u in summary.units if u.embarked_in}
    return [
        f"{_where(force, source)}: field units.{u.entry}: APC {u.profile.name} ({u.id}) has no "
        "passenger; an APC is bought only together with an infantry or support unit riding in "
        f'it (give that unit embarked_in = "{u.id}")'
        for u in summary.units
        if u.profile.is_apc and u.id not in carried
    ]


def pair_passengers(force: Force) -> tuple[Force, list[str]]:
    """A copy of the force in which every APC without a passenger takes one of the foot units
    that ride in nothing yet (in file order, infantry before support teams), and one line per
    pairing made.

    For sources that do not say who rides where (BattleScribe rosters). Units that already name
    a transport keep it; an entry is split where only some of its units board. The force is
    returned unchanged where it names unknown profiles (:func:`check_force` reports those).
    """
    try:
        summary = _resolve(force, None, strict_transport=False)
    except DataFileError:
        return force, []
    carried = {u.embarked_in for u in summary.units if u.embarked_in}
    missing: dict[str, int] = {}  # APC profile id -> how many of them are empty
    carriers: dict[str, UnitProfile] = {}
    for unit in summary.units:
        if unit.profile.is_apc and unit.id not in carried:
            missing[unit.profile.id] = missing.get(unit.profile.id, 0) + 1
            carriers[unit.profile.id] = unit.profile
    profiles = {u.entry: u.profile for u in summary.units}
    walking = [
        i for i, e in enumerate(force.units) if e.embarked_in is None and profiles[i].is_foot
    ]
    walking.sort(key=lambda i: profiles[i].type is not UnitType.INFANTRY)
    pieces: dict[int, list[ForceEntry]] = {}
    notes: list[str] = []
    for index in walking:
        entry = force.units[index]
        remaining = entry.count
        ids = list(entry.ids) if entry.ids is not None else None
        split: list[ForceEntry] = []
        for apc, empty in missing.items():
            if not empty or not remaining or not can_carry(carriers[apc], profiles[index]):
                continue
            take = min(empty, remaining)
            split.append(
                entry.model_copy(
                    update={
                        "count": take,
                        "ids": ids[:take] if ids is not None else None,
                        "embarked_in": apc,
                        "commander": entry.commander and not split,
                    }
                )
            )
            if ids is not None:
                ids = ids[take:]
            missing[apc] -= take
            remaining -= take
            notes.append(f"{take} x {profiles[index].name} ride in {carriers[apc].name}")
        if not split:
            continue
        if remaining:
            split.append(
                entry.model_copy(update={"count": remaining, "ids": ids, "commander": False})
            )
        pieces[index] = split
    if not pieces:
        return force, []
    units = [p for i, e in enumerate(force.units) for p in pieces.get(i, [e])]
    return force.model_copy(update={"units": units}), notes


# --- deployment -----------------------------------------------------------------------------

DEPLOY_DEPTH = 12.0  # inches from the side's table edge
SPACING = 2.5  # closest two deployed units may stand, centre to centre
EDGE_MARGIN = 1.5


def _mover_class(profile: UnitProfile) -> str:
    # the same classes as World._mover_class (movement and terrain tests)
    if profile.is_foot:
        return "foot"
    if "atv" in profile.traits:
        return "atv"
    if "wheeled" in profile.traits:
        return "wheeled"
    return "tracked"


def home_edge(side_spec: SideSpec, table: Table) -> Literal["south", "north", "west", "east"]:
    """The table edge the side's scenario units stand nearest to (their average position)."""
    xs = [u.at[0] for u in side_spec.units]
    ys = [u.at[1] for u in side_spec.units]
    x, y = sum(xs) / len(xs), sum(ys) / len(ys)
    gaps: dict[Literal["south", "north", "west", "east"], float] = {
        "south": y,
        "north": table.height - y,
        "west": x,
        "east": table.width - x,
    }
    return min(gaps, key=lambda edge: gaps[edge])


def deploy_force(
    force: Force,
    side_spec: SideSpec,
    table: Table,
    source: Path | str | None = None,
) -> list[dict[str, Any]]:
    """Unit specs (``id``, ``profile``, ``at``, ``commander``: the scenario's ``UnitSpec``
    fields) for the force, placed in the side's deployment zone.

    Scenarios have no deployment-zone field, so the zone is the band within 12" of the table
    edge the side's own scenario units start nearest to. Units are spread evenly along it in
    force order, vehicles 4" in from the edge, each passenger embarked in its APC; nobody is
    put on terrain that is not open going for it (falling back to passable terrain), and no two
    units closer than 2.5". A force without a commander gets its dearest unit that is not an
    APC as commander. The force is checked first (its own points limit applies).
    """
    summary = check_force(force, source=source)
    where = _where(force, source)
    commander = next((u.id for u in summary.units if u.commander), None)
    if commander is None:
        choices = [u for u in summary.units if not u.profile.is_apc] or list(summary.units)
        commander = max(choices, key=lambda u: u.profile.points).id

    edge = home_edge(side_spec, table)
    along_length = table.width if edge in ("south", "north") else table.height
    depth_limit = min(DEPLOY_DEPTH, (table.height if edge in ("south", "north") else table.width))

    def to_table(along: float, depth: float) -> tuple[float, float]:
        if edge == "south":
            return (along, depth)
        if edge == "north":
            return (along, table.height - depth)
        if edge == "west":
            return (depth, along)
        return (table.width - depth, along)

    groups: list[list[ForceUnit]] = []
    riders: dict[str, list[ForceUnit]] = {}
    for unit in summary.units:
        if unit.embarked_in:
            riders.setdefault(unit.embarked_in, []).append(unit)
    for unit in summary.units:
        if not unit.embarked_in:
            groups.append([unit, *riders.get(unit.id, [])])

    placed: list[tuple[float, float]] = []
    specs: list[dict[str, Any]] = []
    count = len(groups)
    usable = along_length - 2 * EDGE_MARGIN
    for slot, group in enumerate(groups):
        along = EDGE_MARGIN + usable * (slot + 0.5) / count
        head = group[0]
        home = 4.0 if head.profile.is_vehicle else 6.0
        spot = _free_spot(table, placed, head.profile, along, home, depth_limit, to_table)
        if spot is None:
            raise DataFileError(
                f"{where}: no room to deploy {head.profile.name} ({head.id}) within "
                f'{depth_limit:g}" of the {edge} edge'
            )
        placed.append(spot[1])
        specs.append(_spec(head, spot[1], commander))
        for rider in group[1:]:  # passengers start in their transport
            specs.append({**_spec(rider, spot[1], commander), "embarked_in": head.id})
    return specs


def deploy_side(
    force: Force,
    side: str,
    side_spec: SideSpec,
    table: Table,
    source: Path | str | None = None,
) -> dict[str, Any]:
    """A whole scenario side (``nation``, ``facing``, ``units``: the scenario's ``SideSpec``
    fields) fielding ``force`` instead of the scenario's own units. The force's nation must
    fight for ``side``."""
    if force.profiles:  # its own ORBAT travels with the side (the record replays without it)
        if force.side is not None and force.side != side:
            raise DataFileError(
                f"{_where(force, source)}: field side: this force fights for {force.side}, "
                f"not {side}"
            )
        orbat = force_orbat(force).model_copy(update={"side": side})
        # a label no built-in ORBAT and no other force's profiles share
        digest = hashlib.sha256(orbat.model_dump_json().encode()).hexdigest()[:10]
        nation = f"{force.nation[:40]}-{digest}"
        return {
            "nation": nation,
            "facing": side_spec.facing,
            "units": deploy_force(force, side_spec, table, source),
            "orbat": orbat.model_copy(update={"nation": nation}).model_dump(mode="json"),
        }
    orbat = load_nation(force.nation)
    if orbat.side != side:
        raise DataFileError(
            f"{_where(force, source)}: field nation: {orbat.nation!r} fights for {orbat.side}, "
            f"not {side}"
        )
    return {
        "nation": force.nation,
        "facing": side_spec.facing,
        "units": deploy_force(force, side_spec, table, source),
    }


def _spec(unit: ForceUnit, at: tuple[float, float], commander: str) -> dict[str, Any]:
    return {
        "id": unit.id,
        "profile": unit.profile.id,
        "at": [at[0], at[1]],
        "commander": unit.id == commander,
    }


def _free_spot(
    table: Table,
    placed: Sequence[tuple[float, float]],
    profile: UnitProfile,
    along: float,
    depth: float,
    depth_limit: float,
    to_table: Any,
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The nearest free point to (along, depth) in the zone: open going first, then any
    passable terrain. Returns ((along, depth), (x, y)) or None."""
    mover = _mover_class(profile)
    depth = min(max(depth, 1.0), depth_limit - 0.5)
    candidates: list[tuple[float, float, float]] = []
    step = 0.5
    reach = int(max(table.width, table.height) / step)
    for i in range(-reach, reach + 1):
        for j in range(1, int(depth_limit / step)):
            a, d = along + i * step, j * step
            if d > depth_limit - 0.5:
                continue
            candidates.append((math.hypot(a - along, d - depth), a, d))
    candidates.sort()
    for wanted in ("open", "passable"):
        for _, a, d in candidates:
            x, y = to_table(a, d)
            if not table.inside(x, y, EDGE_MARGIN):
                continue
            if any(math.hypot(x - px, y - py) < SPACING for px, py in placed):
                continue
            goings = [area.kind.going.get(mover, "open") for area in table.areas_at(x, y)]
            if "impassable" in goings or (wanted == "open" and any(g != "open" for g in goings)):
                continue
            if mover == "wheeled" and "very_rough" in goings:
                continue  # no d6 gets a wheeled vehicle through very rough going
            return (a, d), (round(x, 2), round(y, 2))
    return None
