"""BattleScribe data: game systems (.gst), catalogues (.cat) and rosters (.ros, .rosz).

Two layers:

- Reading is generic: :func:`read_data_file` and :func:`read_roster` turn any BattleScribe file
  (plain XML, or zipped like .rosz/.catz/.gstz) into plain dataclasses, whatever its namespace.
- Mapping is for Seven Days to the River Rhine: :func:`entry_to_line` turns a catalogue entry (or
  a roster selection) into an ORBAT line, :func:`catalogue_lines` does a whole catalogue,
  :func:`compare_with_orbat` sets the result against our YAML, and :func:`roster_to_force` turns a
  roster into an Umpire force.

Nothing is guessed: a characteristic, special rule, category, cost or entry that has no Umpire
meaning is listed in the :class:`ImportReport`, and a unit that cannot be mapped is left out (and
listed) rather than approximated.
"""

from __future__ import annotations

import math
import re
import struct
import xml.etree.ElementTree as ET
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import defusedxml.ElementTree as defused
from defusedxml import DefusedXmlException, DTDForbidden, EntitiesForbidden
from pydantic import ValidationError

from umpire.core.datafiles import format_validation_error
from umpire.core.errors import DataFileError
from umpire.rulesets.sevendays.forces import Force, ForceEntry, pair_passengers, write_force
from umpire.rulesets.sevendays.orbat import Orbat, UnitProfile, UnitType
from umpire.rulesets.sevendays.scenario import load_nation

# --- reading ----------------------------------------------------------------------------------


@dataclass
class Profile:
    """A BattleScribe profile: a named row of characteristics of one profile type."""

    id: str
    name: str
    type_name: str
    characteristics: dict[str, str]
    page: str = ""


@dataclass
class Entry:
    """A selection entry of a game system or catalogue (or a selection of a roster)."""

    id: str
    name: str
    type: str
    file: str
    page: str = ""
    hidden: bool = False
    number: int = 1  # rosters: how many were selected
    profiles: list[Profile] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)  # names of special rules (own or linked)
    profile_links: list[str] = field(default_factory=list)  # names of linked shared profiles
    profile_link_ids: list[str] = field(default_factory=list)  # their target ids, in order
    categories: list[tuple[str, bool]] = field(default_factory=list)  # (category name, primary)
    costs: dict[str, float] = field(default_factory=dict)  # by cost-type name: pts, BP, CT
    children: list[Entry] = field(default_factory=list)

    def walk(self) -> Iterator[Entry]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class DataFile:
    """A game system (``kind`` "gameSystem") or catalogue (``kind`` "catalogue")."""

    path: Path
    kind: str
    id: str
    name: str
    revision: str
    game_system_id: str | None
    entries: list[Entry]
    categories: dict[str, str]  # category entry id -> name
    rules: dict[str, str]  # rule id -> name
    profiles: dict[str, Profile]  # shared profile id -> profile
    profile_types: dict[str, str]  # profile type id -> name
    cost_types: dict[str, str]  # cost type id -> name
    links: dict[str, str]  # entry link id -> target entry id

    def all_entries(self) -> Iterator[Entry]:
        for entry in self.entries:
            yield from entry.walk()

    def entry(self, entry_id: str) -> Entry | None:
        """The entry with this id (or the target of the entry link with this id)."""
        entry_id = self.links.get(entry_id, entry_id)
        return next((e for e in self.all_entries() if e.id == entry_id), None)


@dataclass
class RosterForce:
    name: str
    catalogue_id: str
    catalogue_name: str
    selections: list[Entry]


@dataclass
class Roster:
    path: Path
    name: str
    game_system_id: str
    game_system_name: str
    cost_limits: dict[str, float]
    forces: list[RosterForce]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _kids(element: ET.Element, *path: str) -> list[ET.Element]:
    """Children along a path of local tag names, whatever the namespace."""
    found = [element]
    for step in path:
        found = [child for node in found for child in node if _local(child.tag) == step]
    return found


XML_SUFFIXES = (".gst", ".cat", ".ros")

MAX_XML_BYTES = 16 * 1024 * 1024
"""The most bytes of XML read from one BattleScribe file, plain or once unzipped (the largest
real catalogues are a few MB). A zip that would inflate past it is refused while reading, so a
small archive that inflates to gigabytes never reaches memory."""
MAX_ZIP_MEMBERS = 8
"""A zipped BattleScribe file holds one XML file; an archive listing more than this many
members is refused from its end record, before the member list is read."""
MAX_DEPTH = 64
"""The deepest nesting of selection entries or selections read (real data nests a handful)."""

_END_RECORD = struct.Struct("<4s4H2LH")  # zip end of central directory record
_END_SIGNATURE = b"PK\x05\x06"


def _read_capped(handle: IO[bytes], path: Path, what: str) -> bytes:
    """At most :data:`MAX_XML_BYTES` from ``handle``, read in chunks; more is an error."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = handle.read(1 << 20)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > MAX_XML_BYTES:
            raise DataFileError(
                f"{path}: {what} is larger than {MAX_XML_BYTES // (1024 * 1024)} MB; "
                "not a BattleScribe file"
            )
        chunks.append(chunk)


def _zip_member_count(path: Path) -> int:
    """The member count a zip's end record declares, read without reading the member list
    (zip64 archives, which BattleScribe never writes, count as too many)."""
    with path.open("rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        handle.seek(max(0, size - (_END_RECORD.size + 0xFFFF)))
        tail = handle.read()
    at = tail.rfind(_END_SIGNATURE)
    if at < 0 or len(tail) - at < _END_RECORD.size:
        raise zipfile.BadZipFile("no end of central directory record")
    count = int(_END_RECORD.unpack_from(tail, at)[4])
    return MAX_ZIP_MEMBERS + 1 if count == 0xFFFF else count


def _unzip(path: Path) -> bytes:
    """The one XML member of a zipped BattleScribe file, within the caps."""
    try:
        count = _zip_member_count(path)
        if count > MAX_ZIP_MEMBERS:
            raise DataFileError(
                f"{path}: a zipped BattleScribe file holds one .ros/.cat/.gst file; this one "
                f"lists {count} members"
            )
        with zipfile.ZipFile(path) as archive:
            infos = [i for i in archive.infolist() if not i.is_dir()]
            if len(infos) > MAX_ZIP_MEMBERS:
                raise DataFileError(f"{path}: lists {len(infos)} members; not a BattleScribe file")
            xml = [i for i in infos if i.filename.lower().endswith(XML_SUFFIXES)] or infos
            if len(xml) != 1:
                found = ", ".join(i.filename[:80] for i in infos) or "nothing"
                raise DataFileError(
                    f"{path}: a zipped BattleScribe file holds one .ros/.cat/.gst file; "
                    f"this one holds {found}"
                )
            member = xml[0]
            what = f"{member.filename[:80]!r} unzipped"
            if member.file_size > MAX_XML_BYTES:  # what the archive declares: refused unread
                raise DataFileError(
                    f"{path}: {what} would be {member.file_size:,} bytes, larger than "
                    f"{MAX_XML_BYTES // (1024 * 1024)} MB; not a BattleScribe file"
                )
            with archive.open(member) as handle:  # and what it really inflates to
                return _read_capped(handle, path, what)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError) as exc:
        raise DataFileError(f"{path}: damaged zip archive ({str(exc)[:120]})") from exc
    except (RuntimeError, ValueError, zlib.error) as exc:  # encrypted, bad compression data
        raise DataFileError(f"{path}: cannot be unzipped ({str(exc)[:120]})") from exc
    except OSError as exc:
        raise DataFileError(f"{path}: cannot be read ({exc.strerror or exc})") from exc


def parse_xml(raw: bytes, path: Path | str) -> ET.Element:
    """XML bytes to a root element through ``defusedxml``: a document type declaration of any
    kind (and so any entity, internal or external, of any size) is refused, as is bad XML;
    every error is one line naming the file."""
    try:
        root: ET.Element = defused.fromstring(raw, forbid_dtd=True)
    except DTDForbidden as exc:
        raise DataFileError(
            f"{path}: has a document type declaration (<!DOCTYPE {exc.name}>); BattleScribe "
            "files have none, and entities are not expanded"
        ) from exc
    except EntitiesForbidden as exc:
        raise DataFileError(f"{path}: declares entity {exc.name!r}; entities are refused") from exc
    except DefusedXmlException as exc:
        raise DataFileError(f"{path}: refused ({type(exc).__name__})") from exc
    except ET.ParseError as exc:
        raise DataFileError(f"{path}: not valid XML ({exc})") from exc
    except LookupError as exc:  # an encoding Python does not know
        raise DataFileError(f"{path}: not valid XML ({str(exc)[:120]})") from exc
    except (ValueError, RecursionError) as exc:
        raise DataFileError(f"{path}: not valid XML ({str(exc)[:120]})") from exc
    return root


def read_xml(path: Path | str) -> ET.Element:
    """The root element of a BattleScribe file, unzipping it first where it is a zip archive
    (.rosz, .catz, .gstz hold one XML file). Sizes and member counts are capped
    (:data:`MAX_XML_BYTES`, :data:`MAX_ZIP_MEMBERS`), XML is parsed by :func:`parse_xml`, and
    every error is one line naming the file."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            head = handle.read(4)
            if head == b"PK\x03\x04":
                raw = b""
            else:
                handle.seek(0)
                raw = _read_capped(handle, path, "the file")
    except FileNotFoundError as exc:
        raise DataFileError(f"{path}: file not found") from exc
    except IsADirectoryError as exc:
        raise DataFileError(f"{path}: is a folder, not a BattleScribe file") from exc
    except (OSError, ValueError) as exc:  # permission, a name too long, an embedded NUL
        reason = getattr(exc, "strerror", None) or str(exc)
        raise DataFileError(f"{str(path)[:200]}: cannot be read ({reason})") from exc
    if head == b"PK\x03\x04":
        raw = _unzip(path)
    elif path.suffix.lower().endswith("z"):
        raise DataFileError(f"{path}: a {path.suffix} file should be a zip archive, and is not")
    return parse_xml(raw, path)


def _profile(element: ET.Element) -> Profile:
    return Profile(
        id=element.get("id", ""),
        name=element.get("name", ""),
        type_name=element.get("typeName", ""),
        characteristics={
            c.get("name", ""): (c.text or "").strip()
            for c in _kids(element, "characteristics", "characteristic")
        },
        page=element.get("page", ""),
    )


MAX_NUMBER = 1e9  # no cost or limit in any BattleScribe data comes near
MAX_SELECTED = 99  # the most units one roster selection may hold (as a force line)


def _number(text: str | None, what: str, where: str) -> float:
    shown = (text or "")[:40]
    try:
        value = float(text or "0")
    except ValueError:
        raise DataFileError(f"{where}: {what} {shown!r} is not a number") from None
    if not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise DataFileError(f"{where}: {what} {shown!r} is not a number between -1e9 and 1e9")
    return value


def _too_deep(where: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise DataFileError(f"{where}: nested more than {MAX_DEPTH} levels deep")


def _entry(
    element: ET.Element,
    file: str,
    cost_types: dict[str, str],
    categories: dict[str, str],
    depth: int = 0,
) -> Entry:
    name = element.get("name", "")
    where = f"{file}: entry {name[:80]!r}"
    _too_deep(where, depth)
    entry = Entry(
        id=element.get("id", ""),
        name=name,
        type=element.get("type", ""),
        file=file,
        page=element.get("page", ""),
        hidden=element.get("hidden") == "true",
        profiles=[_profile(p) for p in _kids(element, "profiles", "profile")],
        rules=[r.get("name", "") for r in _kids(element, "rules", "rule")],
    )
    for link in _kids(element, "infoLinks", "infoLink"):
        if link.get("type") == "rule":
            entry.rules.append(link.get("name", ""))
        elif link.get("type") == "profile":
            entry.profile_links.append(link.get("name", ""))
            entry.profile_link_ids.append(link.get("targetId", ""))
    for link in _kids(element, "categoryLinks", "categoryLink"):
        target = link.get("targetId", "")
        entry.categories.append(
            (categories.get(target, link.get("name", "")), link.get("primary") == "true")
        )
    for cost in _kids(element, "costs", "cost"):
        kind = cost_types.get(cost.get("typeId", ""), cost.get("name", ""))
        entry.costs[kind] = _number(cost.get("value"), f"cost {kind}", where)
    for step in ("selectionEntries", "sharedSelectionEntries"):
        for child in _kids(element, step, "selectionEntry"):
            entry.children.append(_entry(child, file, cost_types, categories, depth + 1))
    for group in _kids(element, "selectionEntryGroups", "selectionEntryGroup"):
        entry.children.append(_entry(group, file, cost_types, categories, depth + 1))
    return entry


def read_data_file(path: Path | str, game_system: DataFile | None = None) -> DataFile:
    """Read a game system (.gst/.gstz) or catalogue (.cat/.catz).

    Category, rule, profile and cost-type names are looked up in the file itself and, for a
    catalogue, in ``game_system`` (BattleScribe catalogues refer to the game system's ids).
    """
    path = Path(path)
    root = read_xml(path)
    kind = _local(root.tag)
    if kind not in ("gameSystem", "catalogue"):
        raise DataFileError(
            f"{path}: not a BattleScribe game system or catalogue (root element <{kind}>)"
        )
    base = game_system
    categories = dict(base.categories) if base else {}
    categories |= {
        e.get("id", ""): e.get("name", "") for e in _kids(root, "categoryEntries", "categoryEntry")
    }
    rules = dict(base.rules) if base else {}
    rules |= {
        r.get("id", ""): r.get("name", "")
        for step in ("sharedRules", "rules")
        for r in _kids(root, step, "rule")
    }
    profiles = dict(base.profiles) if base else {}
    profiles |= {
        p.get("id", ""): _profile(p)
        for step in ("sharedProfiles", "profiles")
        for p in _kids(root, step, "profile")
    }
    profile_types = dict(base.profile_types) if base else {}
    profile_types |= {
        t.get("id", ""): t.get("name", "") for t in _kids(root, "profileTypes", "profileType")
    }
    cost_types = dict(base.cost_types) if base else {}
    cost_types |= {t.get("id", ""): t.get("name", "") for t in _kids(root, "costTypes", "costType")}
    entries = [
        _entry(e, path.name, cost_types, categories)
        for step in ("selectionEntries", "sharedSelectionEntries")
        for e in _kids(root, step, "selectionEntry")
    ]
    links = {
        link.get("id", ""): link.get("targetId", "")
        for link in root.iter()
        if _local(link.tag) == "entryLink"
    }
    return DataFile(
        path=path,
        kind=kind,
        id=root.get("id", ""),
        name=root.get("name", ""),
        revision=root.get("revision", ""),
        game_system_id=root.get("gameSystemId") if kind == "catalogue" else root.get("id"),
        entries=entries,
        categories=categories,
        rules=rules,
        profiles=profiles,
        profile_types=profile_types,
        cost_types=cost_types,
        links=links,
    )


def _selection(element: ET.Element, file: str, depth: int = 0) -> Entry:
    name = element.get("name", "")
    where = f"{file}: selection {name[:80]!r}"
    _too_deep(where, depth)
    number = element.get("number", "1")
    if not re.fullmatch(r"[0-9]{1,9}", number) or int(number) < 1:
        raise DataFileError(f"{where}: number {number[:40]!r} is not a positive whole number")
    if int(number) > MAX_SELECTED:
        raise DataFileError(
            f"{where}: number {int(number)} is more than the {MAX_SELECTED} units a force "
            "line may hold"
        )
    entry = Entry(
        id=element.get("entryId", ""),
        name=name,
        type=element.get("type", ""),
        file=file,
        number=int(number),
        profiles=[_profile(p) for p in _kids(element, "profiles", "profile")],
        rules=[r.get("name", "") for r in _kids(element, "rules", "rule")],
        categories=[
            (c.get("name", ""), c.get("primary") == "true")
            for c in _kids(element, "categories", "category")
        ],
    )
    for cost in _kids(element, "costs", "cost"):
        kind = cost.get("name", "")
        entry.costs[kind] = _number(cost.get("value"), f"cost {kind}", where)
    entry.children = [
        _selection(s, file, depth + 1) for s in _kids(element, "selections", "selection")
    ]
    return entry


def read_roster(path: Path | str) -> Roster:
    """Read a roster (.ros, or .rosz: the same XML zipped)."""
    path = Path(path)
    root = read_xml(path)
    if _local(root.tag) != "roster":
        raise DataFileError(
            f"{path}: not a BattleScribe roster (root element <{_local(root.tag)}>)"
        )
    limits = {
        c.get("name", ""): _number(c.get("value"), "cost limit", str(path))
        for c in _kids(root, "costLimits", "costLimit")
    }
    forces = [
        RosterForce(
            name=f.get("name", ""),
            catalogue_id=f.get("catalogueId", ""),
            catalogue_name=f.get("catalogueName", ""),
            selections=[_selection(s, path.name) for s in _kids(f, "selections", "selection")],
        )
        for f in root.iter()
        if _local(f.tag) == "force"
    ]
    if not forces:
        raise DataFileError(f"{path}: the roster has no force")
    return Roster(
        path=path,
        name=root.get("name", ""),
        game_system_id=root.get("gameSystemId", ""),
        game_system_name=root.get("gameSystemName", ""),
        cost_limits=limits,
        forces=forces,
    )


# --- the report -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unmapped:
    """One thing the importer found no Umpire meaning for."""

    file: str
    entry: str
    what: str  # entry, selection, characteristic, value, rule, profile, category, cost
    detail: str

    def __str__(self) -> str:
        return f"{self.file}: {self.entry}: {self.what} {self.detail}"


@dataclass
class ImportReport:
    """What an import could not map (never guessed) and what it decided (notes)."""

    unmapped: list[Unmapped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # entries that are not units (tables)

    def add(self, entry: Entry, what: str, detail: str) -> None:
        self.unmapped.append(Unmapped(entry.file, entry.name, what, detail))

    def extend(self, other: ImportReport) -> None:
        self.unmapped += other.unmapped
        self.notes += other.notes
        self.skipped += other.skipped

    def unmapped_units(self) -> list[Unmapped]:
        return [u for u in self.unmapped if u.what in ("entry", "selection")]

    def raise_for_unmapped_units(self) -> None:
        """Raise :class:`DataFileError` naming the first unit that could not be imported."""
        units = self.unmapped_units()
        if units:
            more = f" (+{len(units) - 1} more)" if len(units) > 1 else ""
            raise DataFileError(f"{units[0]}{more}")

    def lines(self) -> list[str]:
        """The report for a person: unmapped items grouped by what and detail, then notes."""
        grouped: dict[tuple[str, str], list[str]] = {}
        for item in self.unmapped:
            grouped.setdefault((item.what, item.detail), []).append(item.entry)
        out = []
        for (what, detail), names in grouped.items():
            shown = ", ".join(dict.fromkeys(names))
            out.append(f"not mapped: {what} {detail} ({len(names)}: {shown})")
        out += [f"note: {n}" for n in self.notes]
        return out


# --- Seven Days mapping -----------------------------------------------------------------------

STATS = "Stats"
STAT_FIELDS = ("FA", "SA", "Wpn", "To Hit", "Morale", "ATGM To Hit", "ATGM Wpn")

# primary category -> unit type (categories are read by name: links carry ids, resolved above)
CATEGORY_TYPES = {
    "Main Battle Tank": UnitType.MBT,
    "MBT": UnitType.MBT,
    "Main Battle Tank - Fast": UnitType.MBT,
    "Atk Helo": UnitType.HELICOPTER,
    "Support": UnitType.SUPPORT,
    "SPRT": UnitType.SUPPORT,
    "Infantry": UnitType.INFANTRY,
    "INF": UnitType.INFANTRY,
    "Light (Tracked)": UnitType.LIGHT,
    "Light (Wheeled)": UnitType.LIGHT,
    "Light (ATV)": UnitType.LIGHT,
    "APC": UnitType.LIGHT,
}
CATEGORY_TRAITS = {
    "APC": {"apc"},
    "Main Battle Tank - Fast": {"fast"},
    "Light (Wheeled)": {"wheeled"},
    "Light (ATV)": {"atv", "wheeled"},
}
# entries in this category are the game system's reference tables, not units
REFERENCE_CATEGORIES = {"Global profiles"}
RULE_TRAITS = {
    "APC": {"apc"},
    "Thermal": {"thermal"},
    "Recce": {"recce"},
    "SAM": {"sam"},
    "Mortar": {"mortar"},
    "ATV": {"atv", "wheeled"},
    "Fixed forward": {"fixed_forward"},
    "AA Gun (6+)": {"aa"},
    "AA Gun (7+)": {"aa"},
    "Rockets": {"rockets"},
    "LAW": {"law"},
    "MANPAD": {"manpad"},
    "Grenade launcher": {"grenade_launcher"},
    "Concealed shooter / 'Cherry Picker'": {"cherry_picker"},
    "Fast MBT": {"fast"},
}
# AA gun rules whose score is not the aa trait's default (6+): rule -> the line's aa_to_hit
RULE_AA_TO_HIT = {"AA Gun (7+)": "7+"}
# The generic "AA" rule only says the unit may shoot at helicopters: it gives the aa trait to a
# gun, but on a SAM vehicle or a MANPAD carrier (sam, manpad) it adds nothing to those traits.
AA_RULE = "AA"
AA_RULE_TRAIT = "aa"
AA_RULE_SUPERSEDED_BY = frozenset({"sam", "manpad"})
# rules the stat line itself carries (a suffix or a column); checked, not turned into traits
RULES_IN_STAT_LINE = {"HEAT rounds", "Special Armour", "ATGM", "Rapid Fire Auto Cannon"}
# linked profiles of the game system's "AA reaction" type -> traits. The autocannon's AA
# reaction profile is named like the autocannon rule, so a link counts only where its profile
# is of this type (or of unknown type, where the caller gave no profile types).
AA_REACTION = "AA reaction"
PROFILE_LINK_TRAITS = {
    "Rapid Fire Auto Cannon": {"aa"},
    "SAM AA reaction": {"sam"},
    "MANPAD SAM": {"manpad"},
}
# profile types whose tables the engine derives from the unit type (movement, dice, tests)
DERIVED_PROFILE_TYPES = {
    "Firing at",
    "Stationary firing at",
    "Moving firing at",
    "Movement",
    "Terrain test",
}
DERIVED_PROFILE_LINKS = {
    "Infantry/Support movement",
    "MBT movement",
    "Light Vehicles, APC & Fast MBT movement",
    "Infantry/Support terrain test",
    "Tracked terrain test",
    "Wheeled terrain test",
    "ATV terrain test",
}
KNOWN_COSTS = {"pts", "BP", "CT"}
MAPPED_TRAITS = frozenset().union(
    *RULE_TRAITS.values(),
    *CATEGORY_TRAITS.values(),
    *PROFILE_LINK_TRAITS.values(),
    {AA_RULE_TRAIT, "atgm_team", "mortar"},
)

# BattleScribe catalogue -> Umpire nation, by catalogue name and by id
CATALOGUE_NATIONS = {
    "British Army on the Rhine": "uk",
    "Soviet Union": "ussr",
    "United States": "us",
}
CATALOGUE_IDS = {
    "2893-4f26-98fd-ddde": "uk",
    "4481-1406-21c9-5489": "ussr",
    "6ed7-8bcf-4140-c175": "us",
}
# catalogue entry names that differ from our ORBAT names beyond case and punctuation
ENTRY_NAMES: dict[str, dict[str, str]] = {
    "uk": {},
    "ussr": {"infantry": "motor-rifles", "2s9nonamortar": "2s9-nona"},
    "us": {"m1imp": "m1ip"},
}

_ARMOUR = re.compile(r"^\d+s?$")
_WEAPON = re.compile(r"^\d+[ahim]*$")
_TO_HIT = re.compile(r"^(\d+)\+(m?)$")


def name_key(name: str) -> str:
    """A name reduced to lower-case letters and digits, for matching."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def slug(name: str) -> str:
    """An ORBAT id made from a name: ``M1 'Imp'`` -> ``m1-imp``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unit"


def _cell(text: str | None) -> str | None:
    cell = (text or "").strip()
    return None if cell.lower() in {"", "n/a", "n/s", "-"} else cell


def is_reference_table(entry: Entry) -> bool:
    """Entries the game system offers as reference tables (no stat line, no cost)."""
    return any(name in REFERENCE_CATEGORIES for name, _ in entry.categories)


def entry_to_line(
    entry: Entry, report: ImportReport, profile_types: dict[str, str] | None = None
) -> dict[str, Any] | None:
    """The ORBAT line (a dict :class:`UnitProfile` accepts) for a catalogue entry or roster
    selection, or None where it has no stat line or something on it could not be mapped (the
    report says what). ``profile_types`` maps shared-profile names to their type names so
    linked profiles can be told apart (movement tables are derived; AA reaction profiles give
    the air-defence traits)."""
    stats = [p for p in entry.profiles if p.type_name == STATS]
    if not stats:
        if is_reference_table(entry) or entry.type == "upgrade":
            report.skipped.append(f"{entry.file}: {entry.name} (no stat line)")
        else:
            report.add(entry, "entry", "has no Stats profile, so no stat line to import")
        return None
    if len(stats) > 1:
        report.add(entry, "entry", f"has {len(stats)} Stats profiles; expected one")
        return None
    cells = stats[0].characteristics
    ok = True
    for name in cells:
        if name not in STAT_FIELDS:
            report.add(entry, "characteristic", f"{name!r} (not a Seven Days stat)")
    values = {name: _cell(cells.get(name)) for name in STAT_FIELDS}

    def bad(name: str, why: str) -> None:
        nonlocal ok
        ok = False
        report.add(entry, "value", f"{name} = {cells.get(name)!r} ({why})")

    line: dict[str, Any] = {"id": slug(entry.name), "name": entry.name}
    traits: set[str] = set()
    front, side = values["FA"], values["SA"]
    if (front is None) != (side is None):
        bad("FA" if front is None else "SA", "armour needs both front and side")
    elif front is not None and side is not None:
        if _ARMOUR.match(front) and _ARMOUR.match(side):
            line["armour"] = [front, side]
        else:
            bad("FA/SA", "armour must look like 17 or 19s")
    if values["Wpn"] is not None:
        if _WEAPON.match(values["Wpn"]):
            line["weapon"] = values["Wpn"]
        else:
            bad("Wpn", "weapon must look like 10, 7h or 4a")
    if values["To Hit"] is not None:
        match = _TO_HIT.match(values["To Hit"])
        if match:
            line["to_hit"] = f"{match.group(1)}+"
            if match.group(2):
                traits.add("mortar")
        else:
            bad("To Hit", "must look like 4+ or 8+m")
    if values["Morale"] is not None:
        if values["Morale"].isdigit():
            line["morale"] = int(values["Morale"])
        else:
            bad("Morale", "must be a number")
    atgm_hit, atgm_weapon = values["ATGM To Hit"], values["ATGM Wpn"]
    if (atgm_hit is None) != (atgm_weapon is None):
        bad("ATGM To Hit" if atgm_hit is None else "ATGM Wpn", "an ATGM needs both columns")
    elif atgm_hit is not None and atgm_weapon is not None:
        if _TO_HIT.match(atgm_hit) and _WEAPON.match(atgm_weapon):
            line["atgm"] = {"to_hit": atgm_hit, "weapon": atgm_weapon}
        else:
            bad("ATGM", "must look like 3+ and 12h")

    unit_type: UnitType | None = None
    primaries = [name for name, primary in entry.categories if primary] or [
        name for name, _ in entry.categories
    ]
    for name, _ in entry.categories:
        if name not in CATEGORY_TYPES:
            report.add(entry, "category", f"{name!r}")
            continue
        traits |= CATEGORY_TRAITS.get(name, set())
    for name in primaries:
        if name in CATEGORY_TYPES and unit_type is None:
            unit_type = CATEGORY_TYPES[name]
    if unit_type is None:
        ok = False
        report.add(entry, "entry", "has no unit-type category (MBT, Light, Infantry, ...)")
    else:
        line["type"] = unit_type.value

    generic_aa = False
    for rule in entry.rules:
        if rule in RULE_TRAITS:
            traits |= RULE_TRAITS[rule]
            if rule in RULE_AA_TO_HIT:
                line["aa_to_hit"] = RULE_AA_TO_HIT[rule]
        elif rule == AA_RULE:
            generic_aa = True
        elif rule in RULES_IN_STAT_LINE:
            _check_rule_in_line(entry, rule, line, report)
        else:
            report.add(entry, "rule", f"{rule!r} (no engine trait)")
    for name in entry.profile_links:
        kind = (profile_types or {}).get(name, "")
        if name in PROFILE_LINK_TRAITS and kind in (AA_REACTION, ""):
            traits |= PROFILE_LINK_TRAITS[name]
        elif name not in DERIVED_PROFILE_LINKS and kind not in DERIVED_PROFILE_TYPES:
            report.add(entry, "profile", f"{name!r} ({kind or 'linked profile'}; no engine use)")
    for profile in entry.profiles:
        if profile.name in PROFILE_LINK_TRAITS and profile.type_name == AA_REACTION:
            traits |= PROFILE_LINK_TRAITS[profile.name]  # rosters copy linked profiles in
        elif profile.type_name not in DERIVED_PROFILE_TYPES and profile.type_name != STATS:
            report.add(entry, "profile", f"{profile.name!r} of type {profile.type_name!r}")
    if unit_type is UnitType.SUPPORT and "atgm" in line and "weapon" not in line:
        traits.add("atgm_team")
    if generic_aa and not traits & AA_RULE_SUPERSEDED_BY:
        traits.add(AA_RULE_TRAIT)
    if traits:
        line["traits"] = sorted(traits)

    for name in entry.costs:
        if name not in KNOWN_COSTS:
            report.add(entry, "cost", f"{name!r} (not pts, BP or CT)")
    number = max(entry.number, 1)
    points, bp = entry.costs.get("pts"), entry.costs.get("BP")
    if points is None or bp is None:
        ok = False
        report.add(entry, "cost", "pts and BP are both needed")
    else:
        points, bp = points / number, bp / number
        if points != int(points) or bp != int(bp) or points < 0 or bp < 0:
            ok = False
            report.add(entry, "cost", f"pts {points:g} / BP {bp:g} are not whole numbers")
        line["points"], line["bp"] = int(points), int(bp)
    tokens = entry.costs.get("CT")
    if tokens is not None and unit_type is not None:
        engine = 0 if "apc" in traits else 1
        if tokens / number != engine:
            report.add(
                entry,
                "cost",
                f"CT {tokens / number:g}: the engine gives this unit {engine} command token(s) "
                "(it follows the apc trait only)",
            )
    page = entry.page or stats[0].page
    if page.isdigit():
        line["page"] = int(page)
    if not ok:
        return None
    try:
        UnitProfile.model_validate(line)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        report.add(entry, "entry", f"stat line rejected: {where}: {first['msg']}")
        return None
    return line


def _check_rule_in_line(
    entry: Entry, rule: str, line: dict[str, Any], report: ImportReport
) -> None:
    weapons = [str(line.get("weapon", "")), str(line.get("atgm", {}).get("weapon", ""))]
    armour = line.get("armour") or []
    carried = {
        "HEAT rounds": any("h" in w for w in weapons),
        "Special Armour": any(str(a).endswith("s") for a in armour),
        "ATGM": "atgm" in line,
        "Rapid Fire Auto Cannon": "a" in weapons[0],
    }[rule]
    if not carried:
        report.add(entry, "rule", f"{rule!r} (the stat line does not show it)")


@dataclass
class CatalogueLine:
    """An ORBAT line converted from a catalogue entry, with where it came from."""

    entry_id: str
    entry_name: str
    file: str
    line: dict[str, Any]

    def profile(self) -> UnitProfile:
        return UnitProfile.model_validate(self.line)


def find_game_system(catalogue: Path) -> Path:
    """The .gst beside a catalogue whose id the catalogue names."""
    root = read_xml(catalogue)
    wanted = root.get("gameSystemId", "")
    for candidate in sorted(catalogue.parent.glob("*.gst*")):
        if read_xml(candidate).get("id") == wanted:
            return candidate
    raise DataFileError(
        f"{catalogue}: no game system file (.gst) with id {wanted!r} beside it; name one"
    )


def catalogue_lines(
    catalogue: Path | str,
    game_system: Path | str | None = None,
    *,
    include_game_system: bool = True,
) -> tuple[list[CatalogueLine], ImportReport]:
    """Every unit of a catalogue as an ORBAT line, and what could not be mapped.

    ``catalogue`` may also be the game system file itself. With ``include_game_system`` the game
    system's own units (the generic infantry and mortar) follow the catalogue's, except where
    the catalogue has a unit of the same name.
    """
    catalogue = Path(catalogue)
    report = ImportReport()
    root_kind = _local(read_xml(catalogue).tag)
    if root_kind == "gameSystem":
        system = read_data_file(catalogue)
        sources = [system]
    else:
        gst = Path(game_system) if game_system is not None else find_game_system(catalogue)
        system = read_data_file(gst)
        own = read_data_file(catalogue, system)
        if own.kind != "catalogue":
            raise DataFileError(f"{catalogue}: not a catalogue")
        if own.game_system_id and own.game_system_id != system.id:
            raise DataFileError(
                f"{catalogue}: belongs to game system {own.game_system_id!r}, not "
                f"{system.name!r} ({system.id})"
            )
        sources = [own, system] if include_game_system else [own]
    types = {p.name: p.type_name for p in system.profiles.values()}
    lines: list[CatalogueLine] = []
    seen: set[str] = set()
    for source in sources:
        for entry in source.all_entries():
            if entry.type not in ("model", "unit", "upgrade") or name_key(entry.name) in seen:
                continue
            line = entry_to_line(entry, report, types)
            if line is None:
                continue
            seen.add(name_key(entry.name))
            lines.append(CatalogueLine(entry.id, entry.name, entry.file, line))
    return lines, report


def match_profile(orbat: Orbat, name: str) -> UnitProfile | None:
    """Our ORBAT line for a BattleScribe entry name (exact up to case and punctuation, or by
    the known renamings in :data:`ENTRY_NAMES`), or None."""
    key = name_key(name)
    alias = ENTRY_NAMES.get(orbat.nation, {}).get(key)
    for unit in orbat.units:
        if unit.id == alias or name_key(unit.name) == key:
            return unit
    return None


@dataclass(frozen=True)
class Difference:
    """One field where a catalogue line and our ORBAT line disagree."""

    unit: str
    field: str
    catalogue: Any
    orbat: Any
    documented: bool  # our line's note explains it (e.g. a corrected break point)

    def __str__(self) -> str:
        why = " (explained in the ORBAT note)" if self.documented else ""
        return f"{self.unit}: {self.field}: catalogue {self.catalogue!r}, ORBAT {self.orbat!r}{why}"


def compare_with_orbat(lines: Sequence[CatalogueLine], orbat: Orbat) -> list[Difference]:
    """Every difference between converted catalogue lines and our ORBAT: fields that differ,
    catalogue units missing from the ORBAT (field ``missing``). Traits are compared only where
    the importer can derive them (:data:`MAPPED_TRAITS`)."""
    out: list[Difference] = []
    for converted in lines:
        ours = match_profile(orbat, converted.entry_name)
        theirs = converted.profile()
        if ours is None:
            out.append(Difference(converted.entry_name, "missing", theirs.id, None, False))
            continue
        note = ours.note or ""
        pairs: dict[str, tuple[Any, Any]] = {
            "type": (theirs.type.value, ours.type.value),
            "armour": (_armour(theirs), _armour(ours)),
            "weapon": (_text(theirs.weapon), _text(ours.weapon)),
            "to_hit": (theirs.to_hit, ours.to_hit),
            "morale": (theirs.morale, ours.morale),
            "atgm": (_atgm(theirs), _atgm(ours)),
            "aa_to_hit": (theirs.aa_to_hit, ours.aa_to_hit),
            "points": (theirs.points, ours.points),
            "bp": (theirs.bp, ours.bp),
            "traits": (sorted(theirs.traits), sorted(ours.traits & MAPPED_TRAITS)),
        }
        for name, (cat, mine) in pairs.items():
            if cat == mine:
                continue
            if name == "bp":
                documented = "BP corrected" in note and str(cat) in note
            elif name == "traits":
                changed = set(cat) ^ set(mine)
                documented = all(t in note for t in changed)
            else:
                documented = False
            out.append(Difference(ours.id, name, cat, mine, documented))
    return out


def _armour(profile: UnitProfile) -> str | None:
    armour = profile.armour
    if armour is None:
        return None
    s = "s" if armour.special else ""
    return f"{armour.front}{s}/{armour.side}{s}"


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _atgm(profile: UnitProfile) -> str | None:
    return None if profile.atgm is None else f"{profile.atgm.to_hit}+ {profile.atgm.weapon}"


# --- rosters ------------------------------------------------------------------------------------


def roster_nation(force: RosterForce, path: Path) -> str:
    """The Umpire nation of a roster force, from its catalogue's id or name."""
    nation = CATALOGUE_IDS.get(force.catalogue_id) or next(
        (
            n
            for name, n in CATALOGUE_NATIONS.items()
            if name_key(name) == name_key(force.catalogue_name)
        ),
        None,
    )
    if nation is None:
        known = ", ".join(f"{name!r}" for name in CATALOGUE_NATIONS)
        raise DataFileError(
            f"{path}: force {force.name!r}: no Umpire ORBAT for catalogue "
            f"{force.catalogue_name!r} (known: {known}); give --data DIR (its .gst/.cat "
            "files) to import its own stat lines"
        )
    return nation


def roster_to_force(path: Path | str) -> tuple[Force, ImportReport]:
    """Convert a roster to an Umpire :class:`~umpire.rulesets.sevendays.forces.Force`.

    Each selection is matched to the nation's ORBAT line by name; its stat line, special rules
    and costs (as the roster copies them from the catalogue) are checked against ours and any
    difference is reported (our line, with its documented corrections, is what is used). A
    selection that matches no ORBAT line is left out and reported, as is anything else without
    an Umpire meaning. Rosters do not say who rides in which APC: empty APCs take foot units in
    roster order, and the report notes each pairing. No commander is chosen.
    """
    path = Path(path)
    roster = read_roster(path)
    report = ImportReport()
    nations = {roster_nation(f, path) for f in roster.forces}
    if len(nations) > 1:
        raise DataFileError(
            f"{path}: the roster mixes nations ({', '.join(sorted(nations))}); an Umpire force "
            "is one nation's"
        )
    nation = nations.pop()
    orbat = load_nation(nation)
    entries: list[ForceEntry] = []
    for force in roster.forces:
        for selection in force.selections:
            for item in _units_of(selection, report):
                unit = match_profile(orbat, item.name)
                if unit is None:
                    report.add(item, "selection", f"matches no unit of the {nation} ORBAT")
                    continue
                _compare_selection(item, unit, report)
                if (
                    entries
                    and entries[-1].profile == unit.id
                    and entries[-1].count + item.number <= MAX_SELECTED
                ):
                    entries[-1] = entries[-1].model_copy(
                        update={"count": entries[-1].count + item.number}
                    )
                else:
                    entries.append(ForceEntry(profile=unit.id, count=item.number))
    if not entries:
        raise DataFileError(f"{path}: no selection of the roster maps to a {nation} unit")
    limit = roster.cost_limits.get("pts")
    try:
        result = Force(
            nation=nation,
            name=roster.name or path.stem,
            points=int(limit) if limit is not None and limit >= 1 else None,
            source=f"BattleScribe roster {path.name}",
            units=entries,
        )
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc
    result, pairings = pair_passengers(result)
    report.notes += [f"paired (the roster does not say who rides where): {p}" for p in pairings]
    report.notes.append("no battlegroup commander chosen: set commander = true on one unit")
    return result, report


def import_roster(roster: Path | str, out: Path | str) -> tuple[Force, ImportReport]:
    """``umpire force import FILE.ros|.rosz --out FILE.toml``: convert a roster and write the
    force file. Returns the force and the report (print ``report.lines()``); raises
    :class:`DataFileError` when no unit of the roster could be mapped. Units that could not be
    mapped are left out of the file and listed in the report."""
    force, report = roster_to_force(roster)
    try:
        write_force(force, out)
    except (OSError, ValueError) as exc:  # no such folder, a name too long, no permission
        reason = getattr(exc, "strerror", None) or str(exc)
        raise DataFileError(f"{str(out)[:200]}: cannot be written ({reason})") from exc
    return force, report


def _units_of(selection: Entry, report: ImportReport) -> Iterator[Entry]:
    """The selection itself if it is a unit, and any units chosen inside it."""
    if is_reference_table(selection):
        report.skipped.append(f"{selection.file}: {selection.name} (reference table)")
        return
    if any(p.type_name == STATS for p in selection.profiles) or selection.type in ("model", "unit"):
        yield selection
    for child in selection.children:
        if child.costs.get("pts", 0) == 0 and not any(p.type_name == STATS for p in child.profiles):
            report.skipped.append(
                f"{child.file}: {child.name} (free option inside {selection.name})"
            )
            continue
        yield from _units_of(child, report)


def _compare_selection(selection: Entry, unit: UnitProfile, report: ImportReport) -> None:
    if not any(p.type_name == STATS for p in selection.profiles):
        report.notes.append(
            f"{selection.name}: the roster copies no stat line; used the ORBAT's {unit.id}"
        )
        return
    scratch = ImportReport()
    line = entry_to_line(selection, scratch)
    report.unmapped += [u for u in scratch.unmapped if u.what != "entry"]
    if line is None:
        report.notes.append(f"{selection.name}: its stat line could not be read; used {unit.id}")
        return
    converted = CatalogueLine(selection.id, selection.name, selection.file, line)
    orbat = Orbat(nation="-", side="nato", name="-", source="-", units=(unit,))
    for difference in compare_with_orbat([converted], _as_alias(orbat, unit, selection.name)):
        report.notes.append(f"{selection.name}: {difference}; used the ORBAT's value")


def _as_alias(orbat: Orbat, unit: UnitProfile, name: str) -> Orbat:
    """A one-line ORBAT whose line matches ``name`` whatever the renaming."""
    return orbat.model_copy(update={"units": (unit.model_copy(update={"name": name}),)})
