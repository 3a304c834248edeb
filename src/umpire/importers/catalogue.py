"""Any BattleScribe catalogue as Seven Days unit profiles (``force import ROSTER --data DIR``).

:mod:`umpire.importers.battlescribe` reads the files and, without ``--data``, matches a roster's
entries to the four built-in ORBATs by their English names. This module builds the profiles from
the catalogue's own stat lines instead, so a catalogue by another author, or in another
language, plays:

1. Every characteristic of a profile gets an Umpire field (:data:`FIELDS`): from the user's
   mapping file first (:class:`CatalogueMapping`), then from a short list of names the
   published data and common German and French lists use (:data:`NAMES`), then by the shape of
   its value (:func:`shape`): ``19s / 17s`` is an armour pair, ``5+`` a to-hit score, ``7h`` a
   weapon in the book's notation, ``12"`` a move, ``2d10`` a table cell. A plain number is
   only placed by its column: just before the to-hit score it is the weapon, just after it
   the morale (the book's column order Wpn, To Hit, Morale). Anything else is not guessed.
2. Profiles with no stat (movement, terrain or dice tables, text) are read as tables and left
   to the engine, which derives those from the unit type.
3. The unit type comes from the mapping, the catalogue's categories (published names, then
   words like "tank", "Kampfpanzer", "char"), and last from the unit's own move in inches
   (the book's normal moves: 6" foot, 10" MBT, 12" light vehicle).
4. Costs: the points and break-point cost types, by name or as the mapping says.

Every entry that cannot be mapped is named in one line with its profile type and the
characteristics found; the import then writes nothing, so an import that succeeds writes a
force with every unit of the roster.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from umpire.core.datafiles import format_validation_error, load_yaml
from umpire.core.errors import DataFileError
from umpire.importers.battlescribe import (
    AA_REACTION,
    AA_RULE,
    AA_RULE_SUPERSEDED_BY,
    AA_RULE_TRAIT,
    CATALOGUE_IDS,
    CATALOGUE_NATIONS,
    CATEGORY_TRAITS,
    CATEGORY_TYPES,
    DERIVED_PROFILE_TYPES,
    MAX_SELECTED,
    PROFILE_LINK_TRAITS,
    REFERENCE_CATEGORIES,
    RULE_AA_TO_HIT,
    RULE_TRAITS,
    RULES_IN_STAT_LINE,
    DataFile,
    Entry,
    Profile,
    Roster,
    RosterForce,
    read_data_file,
    read_roster,
    read_xml,
    slug,
)
from umpire.rulesets.sevendays.forces import (
    UNIT_ID,
    Force,
    ForceEntry,
    check_force,
    force_points,
    pair_passengers,
    write_force,
)
from umpire.rulesets.sevendays.orbat import TRAITS, UnitProfile, UnitType
from umpire.rulesets.sevendays.scenario import load_nation

Field_ = Literal[
    "armour",
    "armour_front",
    "armour_side",
    "weapon",
    "to_hit",
    "morale",
    "atgm_to_hit",
    "atgm_weapon",
    "aa_to_hit",
    "move",
    "points",
    "bp",
    "ignore",
]
FIELDS: tuple[str, ...] = Field_.__args__  # type: ignore[attr-defined]
STAT_FIELDS = frozenset(FIELDS) - {"move", "ignore"}
ProfileRole = Literal["unit", "weapon", "atgm", "ignore"]
CostRole = Literal["points", "bp", "ignore"]

MAX_DATA_FILES = 200  # .gst/.cat files read from one --data folder


_SPELLED_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "œ": "oe"})


def unit_id(name: str) -> str:
    """A profile id from an entry name in any language: ``Schützenpanzer`` ->
    ``schuetzenpanzer``, ``Véhicule de l'avant`` -> ``vehicule-de-l-avant``."""
    text = unicodedata.normalize("NFKD", name.lower().translate(_SPELLED_OUT))
    return slug("".join(c for c in text if not unicodedata.combining(c)))[:60].strip("-") or "unit"


def key(name: str) -> str:
    """A name reduced for matching: case-folded letters and digits of any script."""
    return re.sub(r"[\W_]+", "", name.casefold())


# --- the mapping file -----------------------------------------------------------------------


class CatalogueMapping(BaseModel):
    """A user's mapping file (YAML): what the importer cannot recognise by itself.

    Names are matched ignoring case, spaces and punctuation."""

    model_config = ConfigDict(extra="forbid")

    nation: str | None = Field(default=None, pattern=UNIT_ID, max_length=40)
    side: Literal["nato", "pact"] | None = None
    profile_types: dict[str, ProfileRole] = {}
    characteristics: dict[str, Field_] = {}
    unit_types: dict[str, UnitType] = {}  # category, profile type or entry name -> type
    traits: dict[str, list[str]] = {}  # rule, category, profile or entry name -> traits
    costs: dict[str, CostRole] = {}  # cost type name -> meaning

    @field_validator("traits")
    @classmethod
    def _known_traits(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        for name, traits in value.items():
            unknown = sorted(set(traits) - TRAITS)
            if unknown:
                raise ValueError(f"{name!r}: unknown trait(s) {unknown}; known: {sorted(TRAITS)}")
        return value

    def lookup(self, table: dict[str, Any], name: str) -> Any:
        wanted = key(name)
        return next((v for k, v in table.items() if key(k) == wanted), None)


def load_mapping(path: Path | str | None) -> CatalogueMapping:
    """Read and validate a mapping file; no file is an empty mapping."""
    if path is None:
        return CatalogueMapping()
    path = Path(path)
    data = load_yaml(path)
    try:
        return CatalogueMapping.model_validate(data or {})
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc


# --- built-in names (published data, and common English, German and French words) -----------

NAMES: dict[str, str] = {
    key(name): role
    for role, names in {
        "armour_front": ["FA", "Front", "Front Armour", "Front Armor", "Frontpanzerung"],
        "armour_side": ["SA", "Side", "Side Armour", "Side Armor", "Seitenpanzerung"],
        "armour": ["Armour", "Armor", "Panzerung", "Blindage"],
        "weapon": ["Wpn", "Weapon", "Waffe", "Arme"],
        "to_hit": ["To Hit", "Hit", "Treffer", "Toucher"],
        "morale": ["Morale", "Moral", "Moral"],
        "atgm_to_hit": ["ATGM To Hit", "ATGM Hit"],
        "atgm_weapon": ["ATGM Wpn", "ATGM Weapon"],
        "move": ["Move", "Movement", "Bewegung", "Mouvement"],
    }.items()
    for name in names
}
COST_NAMES: dict[str, str] = {
    key(name): role
    for role, names in {
        "points": ["pts", "points", "point", "pt", "Punkte", "Pkt"],
        "bp": ["BP", "Break Points", "Bruchpunkte", "Points de rupture"],
        "ignore": ["CT", "Command Tokens"],
    }.items()
    for name in names
}
# words in category or profile-type names -> unit type, tried in this order (an
# "Schützenpanzer" is a light vehicle before it is a "panzer")
TYPE_WORDS: tuple[tuple[UnitType, tuple[str, ...]], ...] = (
    (UnitType.HELICOPTER, ("helicopter", "helo", "hubschrauber", "helicoptere", "hélicoptère")),
    (
        UnitType.LIGHT,
        (
            "apc",
            "ifv",
            "light",
            "recce",
            "recon",
            "transport",
            "schützenpanzer",
            "spähpanzer",
            "leicht",
            "léger",
            "leger",
            "vtt",
            "vbci",
        ),
    ),
    (UnitType.MBT, ("mbt", "tank", "kampfpanzer", "panzer", "char")),
    (UnitType.SUPPORT, ("support", "unterstützung", "appui", "mortar", "mörser", "mortier")),
    (UnitType.INFANTRY, ("infantry", "infanterie", "grenadier", "rifle", "fantassin")),
)
# words in category or rule names -> traits (published rule names are in RULE_TRAITS)
TRAIT_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("apc", frozenset({"apc"})),
    ("transport", frozenset({"apc"})),
    ("schützenpanzer", frozenset({"apc"})),
    ("vtt", frozenset({"apc"})),
    ("thermal", frozenset({"thermal"})),
    ("wärmebild", frozenset({"thermal"})),
    ("thermique", frozenset({"thermal"})),
    ("wheeled", frozenset({"wheeled"})),
    ("radfahrzeug", frozenset({"wheeled"})),
    ("roues", frozenset({"wheeled"})),
)
ATGM_WORDS = ("atgm", "missile", "lenkflugkörper", "lenkwaffe", "panzerabwehrlenk")
# the book's normal moves (p. 13 movement table): infantry/support 6", MBT 10", light 12"
MOVE_TYPES = {6.0: UnitType.INFANTRY, 10.0: UnitType.MBT, 12.0: UnitType.LIGHT}
TABLE_PROFILE_TYPES = DERIVED_PROFILE_TYPES | {AA_REACTION}


def _words(text: str) -> str:
    return " " + re.sub(r"[\W_]+", " ", text.casefold()) + " "


def _has_word(text: str, word: str) -> bool:
    """``word`` starts a word of ``text`` or is a whole compound ending (Schützen*panzer*)."""
    folded = _words(text)
    return f" {word}" in folded or f"{word} " in folded


# --- shapes --------------------------------------------------------------------------------

_EMPTY = {"", "-", "–", "—", "n/a", "na", "n/s", "none", "keine", "aucun", "x"}
_ARMOUR_PAIR = re.compile(r"^(\d{1,2})(s?)\s*[/|]\s*(\d{1,2})(s?)$", re.I)
_ARMOUR_ONE = re.compile(r"^\d{1,2}s$", re.I)
_TO_HIT = re.compile(r"^(\d{1,2})\s*\+\s*(m?)$", re.I)
_WEAPON = re.compile(r"^(\d{1,2})\s*([ahim]*)$", re.I)
_SUFFIXED_WEAPON = re.compile(r"^\d{1,2}\s*[ahim]+$", re.I)
_DISTANCE = re.compile(r"^(\d{1,3}(?:[.,]\d+)?)\s*(\"|”|″|''|in|inch|inches|zoll|po|pouces)$", re.I)
_DICE = re.compile(r"\d*d\d+|\(d6\)", re.I)
_NUMBER = re.compile(r"^\d{1,4}$")


def shape(value: str) -> str:
    """What a characteristic value looks like: empty, armour_pair, armour_one, to_hit, weapon
    (suffixed, like 7h), number, distance, dice, or text."""
    text = value.strip()
    if text.casefold() in _EMPTY:
        return "empty"
    if _ARMOUR_PAIR.match(text):
        return "armour_pair"
    if _ARMOUR_ONE.match(text):
        return "armour_one"
    if _TO_HIT.match(text):
        return "to_hit"
    if _SUFFIXED_WEAPON.match(text):
        return "weapon"
    if _NUMBER.match(text):
        return "number"
    if _DISTANCE.match(text):
        return "distance"
    if _DICE.search(text):
        return "dice"
    return "text"


@dataclass
class ReadProfile:
    """One profile with a field for each characteristic (None: not recognised)."""

    profile: Profile
    fields: list[tuple[str, str, str | None]]  # (characteristic, value, field)
    how: list[str] = field(default_factory=list)  # notes on fields placed by shape or column

    @property
    def stats(self) -> dict[str, str]:
        return {f: v for _, v, f in self.fields if f in STAT_FIELDS and shape(v) != "empty"}

    @property
    def unrecognised(self) -> list[tuple[str, str]]:
        return [(c, v) for c, v, f in self.fields if f is None]

    def describe(self) -> str:
        cells = ", ".join(f"{c}={v!r}" for c, v, _ in self.fields) or "no characteristics"
        return f"profile type {self.profile.type_name!r} ({cells})"

    def move(self) -> float | None:
        for _, value, role in self.fields:
            match = _DISTANCE.match(value.strip())
            if role == "move" and match:
                return float(match.group(1).replace(",", "."))
        return None


def read_profile(profile: Profile, mapping: CatalogueMapping) -> ReadProfile:
    """Give each characteristic of ``profile`` an Umpire field (see the module notes)."""
    cells = list(profile.characteristics.items())
    roles: list[str | None] = [None] * len(cells)
    shapes = [shape(v) for _, v in cells]
    how: list[str] = []
    for i, (name, _) in enumerate(cells):
        roles[i] = mapping.lookup(mapping.characteristics, name) or NAMES.get(key(name))
    taken = {r for r in roles if r}

    def place(i: int, role: str, why: str) -> None:
        roles[i] = role
        taken.add(role)
        how.append(f"{cells[i][0]!r} = {cells[i][1]!r} read as {role} ({why})")

    for i, kind in enumerate(shapes):
        if roles[i] is not None:
            continue
        missile = _atgm_named(cells[i][0])
        if kind == "empty":
            roles[i] = "ignore"
        elif kind == "to_hit" and missile and "atgm_to_hit" not in taken:
            place(i, "atgm_to_hit", "a to-hit score named like a missile")
        elif kind in ("weapon", "number") and missile and "atgm_weapon" not in taken:
            place(i, "atgm_weapon", "a weapon value named like a missile")
        elif kind == "armour_pair" and "armour" not in taken:
            place(i, "armour", "shaped like front / side armour")
        elif kind == "armour_one" and "armour_front" not in taken:
            place(i, "armour_front", "shaped like special armour")
        elif kind == "armour_one" and "armour_side" not in taken:
            place(i, "armour_side", "shaped like special armour, after the front")
        elif kind == "to_hit" and "to_hit" not in taken:
            place(i, "to_hit", "shaped like a to-hit score")
        elif kind == "weapon" and "weapon" not in taken:
            place(i, "weapon", "a weapon value in the book's notation")
        elif kind == "distance" and "move" not in taken:
            place(i, "move", "a distance in inches")
        elif kind == "distance" or kind == "dice":
            roles[i] = "ignore"
    hit = next((i for i, r in enumerate(roles) if r == "to_hit"), None)
    if hit is not None:
        before, after = hit - 1, hit + 1
        if (
            before >= 0
            and roles[before] is None
            and shapes[before] == "number"
            and ("weapon" not in taken)
        ):
            place(before, "weapon", "a number in the column before the to-hit score")
        if (
            after < len(cells)
            and roles[after] is None
            and shapes[after] == "number"
            and ("morale" not in taken)
        ):
            place(after, "morale", "a number in the column after the to-hit score")
    front = next((i for i, r in enumerate(roles) if r == "armour_front"), None)
    if (
        front is not None
        and front + 1 < len(cells)
        and roles[front + 1] is None
        and shapes[front + 1] in ("number", "armour_one")
        and "armour_side" not in taken
    ):
        place(front + 1, "armour_side", "the column after the front armour")
    return ReadProfile(
        profile=profile,
        fields=[(c, v, r) for (c, v), r in zip(cells, roles, strict=True)],
        how=how,
    )


def _atgm_named(text: str) -> bool:
    return any(_has_word(text, w) for w in ATGM_WORDS)


# --- one unit -------------------------------------------------------------------------------


@dataclass
class Catalogues:
    """The game system and catalogues of a ``--data`` folder, by id."""

    system: DataFile
    catalogues: dict[str, DataFile]

    def sources(self, catalogue: DataFile | None) -> list[DataFile]:
        first = [catalogue] if catalogue is not None else []
        return first + [c for c in self.catalogues.values() if c is not catalogue] + [self.system]

    def find(self, entry_id: str, catalogue: DataFile | None) -> Entry | None:
        """The entry a roster selection names (``link::entry`` paths tried from the end)."""
        for part in reversed([p for p in entry_id.split("::") if p]):
            for source in self.sources(catalogue):
                found = source.entry(part)
                if found is not None:
                    return found
        return None


@dataclass
class UnitLine:
    """A unit profile built from a catalogue entry, and how it was read."""

    entry: str
    file: str
    profile: UnitProfile
    notes: list[str]


@dataclass
class CatalogueReport:
    """What the import could not map (each a line naming the entry), and what it decided."""

    unmapped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [f"not mapped: {u}" for u in self.unmapped] + [
            f"note: {n}" for n in dict.fromkeys(self.notes)
        ]


class Unmappable(Exception):
    """An entry the importer cannot turn into a unit profile (the message is its line)."""


def _cost_role(name: str, mapping: CatalogueMapping) -> str | None:
    role: str | None = mapping.lookup(mapping.costs, name)
    return role if role is not None else COST_NAMES.get(key(name))


def unit_line(
    entry: Entry,
    data: Catalogues,
    catalogue: DataFile | None,
    mapping: CatalogueMapping,
    chosen: Iterable[Entry] = (),
    option_costs: Mapping[str, float] | None = None,
) -> UnitLine:
    """The unit profile of a catalogue entry (with the child entries a roster chose, e.g. its
    weapons). Raises :class:`Unmappable` with a one-line reason naming the entry."""
    where = f"{entry.file}: {entry.name}"
    notes: list[str] = []
    base = catalogue or data.system
    own: list[Profile] = list(entry.profiles)
    for target, name in zip(entry.profile_link_ids, entry.profile_links, strict=False):
        linked = base.profiles.get(target) or data.system.profiles.get(target)
        if linked is not None:
            own.append(linked)
        else:
            notes.append(f"{where}: linked profile {name!r} not found")
    weapons: list[Profile] = [p for child in chosen for p in child.profiles]

    units: list[ReadProfile] = []
    guns: list[ReadProfile] = []
    missiles: list[ReadProfile] = []
    tables: list[ReadProfile] = []
    for origin, profiles in (("own", own), ("chosen", weapons)):
        for profile in profiles:
            role = mapping.lookup(mapping.profile_types, profile.type_name)
            if role == "ignore" or (role is None and profile.type_name in TABLE_PROFILE_TYPES):
                continue
            read = read_profile(profile, mapping)
            found = read.stats
            if role is None:
                if not found:
                    tables.append(read)
                    continue
                if origin == "own" and not units:
                    role = "unit"  # the entry's first stat line is the unit's own
                elif "atgm_to_hit" in found or _atgm_named(profile.name + " " + profile.type_name):
                    hull = set(found) & {"armour", "armour_front", "morale"}
                    role = "unit" if hull and not units else "atgm"
                elif origin == "own" and set(found) & {"armour", "armour_front", "morale"}:
                    role = "unit"
                else:
                    role = "weapon"
            {"unit": units, "weapon": guns, "atgm": missiles}[role].append(read)
    shown = units + guns + missiles or tables
    described = "; ".join(r.describe() for r in shown) or "no profile"
    if not units and not guns:
        raise Unmappable(f"{where}: no stat line found ({described})")
    for read in units + guns + missiles:
        if read.unrecognised:
            cells = ", ".join(f"{c}={v!r}" for c, v in read.unrecognised)
            raise Unmappable(
                f"{where}: {read.describe()}: cannot tell what {cells} is (name it in a mapping "
                "file's characteristics)"
            )
        notes += [f"{where}: {h}" for h in read.how]

    stats: dict[str, str] = {}
    for read in units:
        for name, value in read.stats.items():
            stats.setdefault(name, value)
    for read in guns:
        gun = read.stats
        if "weapon" in stats and "weapon" in gun:
            notes.append(
                f"{where}: {read.profile.name!r} not used (one gun per unit in Seven Days; "
                f"the first is {stats['weapon']})"
            )
            continue
        for name in ("weapon", "to_hit"):
            if name in gun:
                stats.setdefault(name, gun[name])
    for read in missiles:
        missile = read.stats
        hit = missile.get("atgm_to_hit") or missile.get("to_hit")
        weapon = missile.get("atgm_weapon") or missile.get("weapon")
        if hit and weapon and "atgm_to_hit" not in stats:
            stats["atgm_to_hit"], stats["atgm_weapon"] = hit, weapon

    line: dict[str, Any] = {"id": unit_id(entry.name), "name": entry.name}
    traits: set[str] = set()

    def bad(name: str, why: str) -> Unmappable:
        return Unmappable(f"{where}: {described}: {name} {stats.get(name)!r} {why}")

    if "armour" in stats:
        match = _ARMOUR_PAIR.match(stats["armour"].strip())
        if not match:
            raise bad("armour", "is not a front / side pair like 19s / 17s")
        line["armour"] = [match.group(1) + match.group(2), match.group(3) + match.group(4)]
    elif "armour_front" in stats or "armour_side" in stats:
        front, side = stats.get("armour_front"), stats.get("armour_side")
        if front is None or side is None:
            raise bad("armour_front" if front is None else "armour_side", "(armour needs both)")
        for name, value in (("armour_front", front), ("armour_side", side)):
            if not re.fullmatch(r"\d{1,2}s?", value.strip(), re.I):
                raise bad(name, "is not an armour value like 17 or 19s")
        line["armour"] = [front.strip().lower(), side.strip().lower()]
    if "weapon" in stats:
        match = _WEAPON.match(stats["weapon"].strip())
        if not match:
            raise bad("weapon", "is not a weapon value like 10, 7h or 4a")
        line["weapon"] = match.group(1) + match.group(2).lower()
    if "to_hit" in stats:
        match = _TO_HIT.match(stats["to_hit"].strip())
        if not match:
            raise bad("to_hit", "is not a score like 4+")
        line["to_hit"] = f"{match.group(1)}+"
        if match.group(2):
            traits.add("mortar")
    if "morale" in stats:
        if not stats["morale"].strip().isdigit():
            raise bad("morale", "is not a number")
        line["morale"] = int(stats["morale"])
    if "atgm_to_hit" in stats or "atgm_weapon" in stats:
        hit, weapon = stats.get("atgm_to_hit", ""), stats.get("atgm_weapon", "")
        hit_match, weapon_match = _TO_HIT.match(hit.strip()), _WEAPON.match(weapon.strip())
        if not hit_match or not weapon_match:
            raise bad("atgm_to_hit", f"and atgm_weapon {weapon!r} are not like 3+ and 12h")
        line["atgm"] = {
            "to_hit": f"{hit_match.group(1)}+",
            "weapon": weapon_match.group(1) + weapon_match.group(2).lower(),
        }
    if "aa_to_hit" in stats:
        match = _TO_HIT.match(stats["aa_to_hit"].strip())
        if not match:
            raise bad("aa_to_hit", "is not a score like 6+")
        line["aa_to_hit"] = f"{match.group(1)}+"
        traits.add("aa")

    # unit type: mapping, then published category names, then words, then the move
    names = [name for name, primary in entry.categories if primary] + [
        name for name, primary in entry.categories if not primary
    ]
    kinds = [r.profile.type_name for r in units]
    unit_type: UnitType | None = None
    for name in [entry.name, *names, *kinds]:
        unit_type = unit_type or mapping.lookup(mapping.unit_types, name)
    for name in names:
        unit_type = unit_type or CATEGORY_TYPES.get(name)
    for name in [*names, *kinds]:
        for kind, words in TYPE_WORDS:
            if unit_type is None and any(_has_word(name, w) for w in words):
                unit_type = kind
                notes.append(f"{where}: unit type {kind.value} from the name {name!r}")
    if unit_type is None:
        move = next((m for r in units if (m := r.move()) is not None), None)
        if move in MOVE_TYPES:
            unit_type = MOVE_TYPES[move]
            if unit_type is UnitType.INFANTRY and "morale" not in stats:
                unit_type = UnitType.SUPPORT
            notes.append(f'{where}: unit type {unit_type.value} from its {move:g}" move')
    if unit_type is None:
        listed = ", ".join(repr(n) for n in names) or "none"
        raise Unmappable(
            f"{where}: {described}: no unit type (categories: {listed}); name one in a mapping "
            "file's unit_types"
        )
    line["type"] = unit_type.value

    # traits: published rule and category names, words, the mapping
    generic_aa = False
    for name in [*names]:
        traits |= CATEGORY_TRAITS.get(name, set())
    for rule in entry.rules:
        if rule in RULE_TRAITS:
            traits |= RULE_TRAITS[rule]
            if rule in RULE_AA_TO_HIT:
                line["aa_to_hit"] = RULE_AA_TO_HIT[rule]
        elif rule == AA_RULE:
            generic_aa = True
        elif (
            rule not in RULES_IN_STAT_LINE
            and mapping.lookup(mapping.traits, rule) is None
            and not any(_has_word(rule, w) for w, _ in TRAIT_WORDS)
        ):
            notes.append(f"{where}: rule {rule!r} has no Umpire trait (left out)")
    for profile in own:
        if profile.type_name == AA_REACTION and profile.name in PROFILE_LINK_TRAITS:
            traits |= PROFILE_LINK_TRAITS[profile.name]
    for name in [entry.name, *names, *entry.rules, *(p.name for p in own), *kinds]:
        traits |= set(mapping.lookup(mapping.traits, name) or ())
    for name in [*names, *entry.rules]:
        for word, given in TRAIT_WORDS:
            if _has_word(name, word) and not given <= traits:
                traits |= given
                notes.append(f"{where}: {sorted(given)} from the name {name!r}")
    if unit_type is UnitType.SUPPORT and "atgm" in line and "weapon" not in line:
        traits.add("atgm_team")
    if generic_aa and not traits & AA_RULE_SUPERSEDED_BY:
        traits.add(AA_RULE_TRAIT)
    if "apc" in traits and unit_type not in (UnitType.LIGHT, UnitType.MBT):
        traits.discard("apc")
    if traits:
        line["traits"] = sorted(traits)

    # costs: the catalogue's own, per model
    for name, amount in entry.costs.items():
        meaning = _cost_role(name, mapping)
        if meaning in ("points", "bp"):
            line.setdefault("points" if meaning == "points" else "bp", amount)
    for name, amount in (option_costs or {}).items():
        meaning = _cost_role(name, mapping)
        if meaning in ("points", "bp") and amount:
            field_name = "points" if meaning == "points" else "bp"
            line[field_name] = line.get(field_name, 0.0) + amount
            notes.append(f"{where}: the options chosen add {amount:g} {name} a model")
        elif meaning is None and amount:
            notes.append(f"{where}: cost {name!r} = {amount:g} has no Umpire meaning (left out)")
    for name in ("points", "bp"):
        if name in stats and name not in line:
            cell = stats[name].strip()
            line[name] = float(cell) if cell.isdigit() else cell
    costs = ", ".join(f"{n}={v:g}" for n, v in entry.costs.items()) or "none"
    for name, what in (("points", "points"), ("bp", "break points")):
        if name not in line:
            raise Unmappable(
                f"{where}: {described}: no {what} among its costs ({costs}); name the cost "
                "type in a mapping file's costs"
            )
        value = line[name]
        if not isinstance(value, float) or value != int(value) or value < 0:
            raise Unmappable(f"{where}: {described}: {what} {value!r} is not a whole number")
        line[name] = int(value)
    page = entry.page or (units[0].profile.page if units else "")
    if page.isdigit():
        line["page"] = int(page)
    try:
        built = UnitProfile.model_validate(line)
    except ValidationError as exc:
        first = exc.errors()[0]
        field_name = ".".join(str(p) for p in first["loc"])
        raise Unmappable(f"{where}: {described}: {field_name}: {first['msg']}") from None
    return UnitLine(entry.name, entry.file, built, notes)


# --- a data folder and a roster --------------------------------------------------------------


def load_catalogues(folder: Path | str, game_system_id: str | None = None) -> Catalogues:
    """The game system (the one with ``game_system_id`` when given) and its catalogues in
    ``folder``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataFileError(f"{folder}: not a folder of BattleScribe data (.gst and .cat files)")
    files = sorted(
        p for p in folder.iterdir() if p.suffix.lower() in (".gst", ".gstz", ".cat", ".catz")
    )
    if len(files) > MAX_DATA_FILES:
        raise DataFileError(f"{folder}: more than {MAX_DATA_FILES} .gst/.cat files")
    systems = [p for p in files if p.suffix.lower().startswith(".gst")]
    system: DataFile | None = None
    for path in systems:
        if game_system_id is None or read_xml(path).get("id") == game_system_id:
            system = read_data_file(path)
            break
    if system is None:
        wanted = f" with id {game_system_id!r}" if game_system_id else ""
        raise DataFileError(f"{folder}: no game system file (.gst){wanted}")
    catalogues: dict[str, DataFile] = {}
    for path in files:
        if path.suffix.lower().startswith(".cat"):
            if read_xml(path).get("gameSystemId") not in (system.id, None, ""):
                continue
            data = read_data_file(path, system)
            catalogues[data.id] = data
    return Catalogues(system, catalogues)


def _catalogue_of(force: RosterForce, data: Catalogues, path: Path) -> DataFile:
    found = data.catalogues.get(force.catalogue_id) or next(
        (c for c in data.catalogues.values() if key(c.name) == key(force.catalogue_name)), None
    )
    if found is None:
        known = ", ".join(repr(c.name) for c in data.catalogues.values()) or "none"
        raise DataFileError(
            f"{path}: force {force.name!r}: catalogue {force.catalogue_name!r} "
            f"({force.catalogue_id}) is not in the data folder (found: {known})"
        )
    return found


def _unit_selections(
    selection: Entry,
    data: Catalogues,
    catalogue: DataFile,
    mapping: CatalogueMapping,
    report: CatalogueReport,
) -> Iterator[tuple[Entry, Entry, list[Entry], dict[str, float]]]:
    """(selection, catalogue entry, chosen child entries, their costs per model) for each unit
    in a selection."""
    entry = data.find(selection.id, catalogue)
    if entry is None:
        report.unmapped.append(
            f"{selection.file}: {selection.name}: entry {selection.id!r} is in no catalogue "
            "of the data folder"
        )
        return
    if any(name in REFERENCE_CATEGORIES for name, _ in entry.categories):
        return
    children = [(c, data.find(c.id, catalogue)) for c in selection.children]
    has_stats = any(
        read_profile(p, mapping).stats
        for p in entry.profiles
        if p.type_name not in TABLE_PROFILE_TYPES
        and mapping.lookup(mapping.profile_types, p.type_name) != "ignore"
    ) or bool(entry.profile_link_ids and entry.type in ("model", "unit"))
    if has_stats or entry.type in ("model", "unit"):
        chosen = [(s, c) for s, c in children if c is not None and not _is_unit(c, mapping)]
        costs: dict[str, float] = {}
        for option, picked in chosen:  # an option's cost, shared by the selection's models
            share = max(option.number, 1) / max(selection.number, 1)
            for name, amount in picked.costs.items():
                costs[name] = costs.get(name, 0.0) + amount * share
        yield selection, entry, [c for _, c in chosen], costs
        for child, found in children:
            if found is not None and _is_unit(found, mapping):
                yield from _unit_selections(child, data, catalogue, mapping, report)
        return
    for child, _ in children:
        yield from _unit_selections(child, data, catalogue, mapping, report)
    if not children and any(v for v in selection.costs.values()):
        seen = "; ".join(read_profile(p, mapping).describe() for p in entry.profiles)
        report.unmapped.append(
            f"{selection.file}: {selection.name}: costs points but has no stat line "
            f"({seen or 'no profile'})"
        )


def _is_unit(entry: Entry, mapping: CatalogueMapping) -> bool:
    if entry.type in ("model", "unit"):
        return True
    return any(
        {"armour", "armour_front", "morale"} & set(read_profile(p, mapping).stats)
        for p in entry.profiles
        if p.type_name not in TABLE_PROFILE_TYPES
    )


def _points_limit(roster: Roster, mapping: CatalogueMapping) -> int | None:
    for name, value in roster.cost_limits.items():
        if _cost_role(name, mapping) == "points" and value >= 1:
            return int(value)
    return None


def _side(catalogue: DataFile, mapping: CatalogueMapping) -> Literal["nato", "pact"] | None:
    if mapping.side is not None:
        return mapping.side
    nation = CATALOGUE_IDS.get(catalogue.id) or CATALOGUE_NATIONS.get(catalogue.name)
    if nation is None:
        return None
    side = load_nation(nation).side
    return "pact" if side == "pact" else "nato"


def roster_to_catalogue_force(
    roster_path: Path | str,
    data_dir: Path | str,
    mapping_path: Path | str | None = None,
) -> tuple[Force, CatalogueReport]:
    """A force with its own unit profiles, built from the catalogues a roster was made with.

    Raises :class:`DataFileError`: a missing game system or catalogue, any entry that cannot be
    mapped (one line each, after a summary line), or a force over the roster's points limit.
    """
    path = Path(roster_path)
    mapping = load_mapping(mapping_path)
    roster = read_roster(path)
    data = load_catalogues(data_dir, roster.game_system_id or None)
    report = CatalogueReport()
    profiles: dict[str, UnitProfile] = {}
    entries: list[ForceEntry] = []
    catalogues: list[DataFile] = []
    for force in roster.forces:
        catalogue = _catalogue_of(force, data, path)
        catalogues.append(catalogue)
        for selection in force.selections:
            found = _unit_selections(selection, data, catalogue, mapping, report)
            for picked, entry, chosen, option_costs in found:
                try:
                    line = unit_line(entry, data, catalogue, mapping, chosen, option_costs)
                except Unmappable as exc:
                    report.unmapped.append(str(exc))
                    continue
                report.notes += line.notes
                profile = line.profile
                uid, n = profile.id, 1
                while uid in profiles and profiles[uid] != profile:
                    n += 1
                    uid = f"{profile.id}-{n}"
                profile = profile.model_copy(update={"id": uid})
                profiles[uid] = profile
                number = max(picked.number, 1)
                if entries and entries[-1].profile == uid and entries[-1].count + number <= 99:
                    entries[-1] = entries[-1].model_copy(
                        update={"count": entries[-1].count + number}
                    )
                else:
                    entries.append(ForceEntry(profile=uid, count=min(number, MAX_SELECTED)))
    if report.unmapped:
        lines = "\n".join(f"  {u}" for u in report.unmapped)
        raise DataFileError(
            f"{path}: {len(report.unmapped)} roster entr"
            f"{'y' if len(report.unmapped) == 1 else 'ies'} cannot be mapped; nothing written "
            f"(a mapping file, --mapping, can name what is not recognised):\n{lines}"
        )
    if not entries:
        raise DataFileError(f"{path}: the roster selects no unit")
    sides = {_side(c, mapping) for c in catalogues} - {None}
    if len(sides) > 1:
        raise DataFileError(f"{path}: the roster's catalogues fight for both sides")
    first = catalogues[0]
    nation = mapping.nation or unit_id(first.name)[:40].strip("-")
    limit = _points_limit(roster, mapping)
    try:
        result = Force(
            nation=nation,
            name=roster.name or path.stem,
            points=limit,
            source=f"BattleScribe roster {path.name} with {first.path.name}",
            side=sides.pop() if sides else None,
            profiles=list(profiles.values()),
            units=entries,
        )
    except ValidationError as exc:
        raise DataFileError(format_validation_error(path, exc)) from exc
    total = force_points(result)
    if limit is not None and total > limit:
        raise DataFileError(
            f"{path}: the force costs {total} points by its catalogue, {total - limit} over the "
            f"roster's limit of {limit}"
        )
    result, pairings = pair_passengers(result)
    report.notes += [f"paired (the roster does not say who rides where): {p}" for p in pairings]
    try:
        check_force(result, source=path)  # what is written passes umpire force check
    except DataFileError as exc:
        raise DataFileError(f"{exc}; nothing written") from None
    if result.side is None:
        report.notes.append("the catalogue does not say its side: it may play nato or pact")
    return result, report


def import_with_catalogues(
    roster: Path | str,
    out: Path | str,
    data_dir: Path | str,
    mapping: Path | str | None = None,
) -> tuple[Force, CatalogueReport]:
    """``umpire force import ROSTER --data DIR [--mapping FILE] --out FILE``."""
    force, report = roster_to_catalogue_force(roster, data_dir, mapping)
    try:
        write_force(force, out)
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise DataFileError(f"{str(out)[:200]}: cannot be written ({reason})") from exc
    return force, report
