"""Air defence and attack helicopters in the shipped ORBAT files.

Autocannon and AA gun lines that the BattleScribe catalogues let engage helicopters have the
``aa`` trait (the ZSU-57 with its own 7+ score); SAM vehicles keep ``sam`` and MANPAD carriers
``manpad``, never ``aa`` as well; the helicopters with rockets have ``rockets``; each nation has
one house MANPAD team. West German house copies carry their source line's traits.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.rulesets.sevendays import orbat as orbat_module
from umpire.rulesets.sevendays.orbat import Orbat, UnitType, load_orbat

ORBATS = Path(orbat_module.__file__).resolve().parent / "data" / "orbat"
NATIONS = ("uk", "ussr", "us", "wg")
AIR_TRAITS = frozenset({"aa", "sam", "manpad", "rockets"})

# unit id -> its air-defence and rockets traits, by nation (lines not listed have none, except
# infantry, which carry MANPADs: see INFANTRY)
EXPECTED: dict[str, dict[str, frozenset[str]]] = {
    "uk": {
        "scimitar": frozenset({"aa"}),
        "fox": frozenset({"aa"}),
        "warrior": frozenset({"aa"}),
        "tracked-rapier": frozenset({"sam"}),
        "blowpipe-team": frozenset({"manpad"}),
    },
    "ussr": {
        "mi24-hind": frozenset({"rockets", "aa"}),
        "bmp2": frozenset({"aa"}),
        "bmd2": frozenset({"aa"}),
        "zsu23-shilka": frozenset({"aa"}),
        "zsu57": frozenset({"aa"}),
        "sam8-gecko": frozenset({"sam"}),
        "sam9-gaskin": frozenset({"sam"}),
        "sam13-gopher": frozenset({"sam"}),
        "sa7-team": frozenset({"manpad"}),
    },
    "us": {
        "ah64-apache": frozenset({"rockets"}),
        "ah1-cobra": frozenset({"rockets"}),
        "m2-bradley": frozenset({"aa"}),
        "lav-25": frozenset({"aa"}),
        "m163": frozenset({"aa"}),
        "sgt-york": frozenset({"aa"}),
        "mim72-chaparral": frozenset({"sam"}),
        "hmmwv-sam": frozenset({"manpad"}),
        "stinger-team": frozenset({"manpad"}),
    },
    "wg": {
        "gepard": frozenset({"aa"}),
        "roland": frozenset({"sam"}),
        "marder-1a2": frozenset({"aa"}),
        "luchs": frozenset({"aa"}),
        "fliegerfaust-team": frozenset({"manpad"}),
    },
}
INFANTRY = {"uk": "infantry", "ussr": "motor-rifles", "us": "infantry", "wg": "panzergrenadiere"}
MANPAD_TEAMS = {
    "uk": ("blowpipe-team", "Blowpipe team"),
    "ussr": ("sa7-team", "SA-7 Grail team"),
    "us": ("stinger-team", "Stinger team"),
    "wg": ("fliegerfaust-team", "Fliegerfaust team"),
}


def _orbat(nation: str) -> Orbat:
    return load_orbat(ORBATS / f"{nation}.yaml")


# rules: sevendays.air.aa_reaction
@pytest.mark.parametrize("nation", NATIONS)
def test_air_defence_and_rockets_traits(nation: str) -> None:
    expected = dict(EXPECTED[nation])
    expected[INFANTRY[nation]] = frozenset({"manpad"})
    found = {u.id: u.traits & AIR_TRAITS for u in _orbat(nation).units if u.traits & AIR_TRAITS}
    assert found == expected


# rules: sevendays.air.aa_reaction
@pytest.mark.parametrize("nation", NATIONS)
def test_no_line_has_aa_besides_a_missile_trait(nation: str) -> None:
    """A SAM vehicle or MANPAD carrier's "AA" rule only lets it engage helicopters."""
    both = [u.id for u in _orbat(nation).units if "aa" in u.traits and u.traits & {"sam", "manpad"}]
    assert not both


# rules: sevendays.air.aa_reaction
def test_only_the_zsu57_has_its_own_aa_score() -> None:
    scores = {
        (nation, u.id): u.aa_to_hit
        for nation in NATIONS
        for u in _orbat(nation).units
        if u.aa_to_hit is not None
    }
    assert scores == {("ussr", "zsu57"): 7}
    assert "aa" in _orbat("ussr").profile("zsu57").traits


# rules: sevendays.air.aa_reaction
@pytest.mark.parametrize("nation", NATIONS)
def test_each_nation_has_a_house_manpad_team(nation: str) -> None:
    unit_id, name = MANPAD_TEAMS[nation]
    team = _orbat(nation).profile(unit_id)
    assert team.name == name
    assert team.type is UnitType.SUPPORT
    assert team.traits == {"manpad"}
    assert team.weapon is None and team.to_hit is None and team.atgm is None
    assert team.armour is None
    assert (team.morale, team.points, team.bp) == (3, 15, 2)
    assert team.page is None
    assert team.note is not None and team.note.startswith("Provenance: house")
    infantry = _orbat(nation).profile(INFANTRY[nation])
    assert team.points * 2 < infantry.points


# rules: sevendays.air.aa_reaction
@pytest.mark.parametrize("nation", NATIONS)
def test_helicopters_have_no_armour_and_no_morale(nation: str) -> None:
    helicopters = [u for u in _orbat(nation).units if u.type is UnitType.HELICOPTER]
    assert helicopters
    for helicopter in helicopters:
        assert helicopter.armour is None, helicopter.id
        assert helicopter.morale is None, helicopter.id


# rules: sevendays.air.aa_reaction
@pytest.mark.parametrize("nation", NATIONS)
def test_no_stale_notes_about_missing_air_traits(nation: str) -> None:
    stale = [
        u.id
        for u in _orbat(nation).units
        if u.note and "no trait" in u.note and ("rocket" in u.note or "AA" in u.note)
    ]
    assert not stale
    text = (ORBATS / f"{nation}.yaml").read_text(encoding="utf-8")
    assert "no trait for rockets" not in text
