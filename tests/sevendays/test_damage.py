"""Hits on vehicles and on infantry/support teams."""

from __future__ import annotations

from fractions import Fraction

from umpire.rulesets.sevendays.damage import conversion, heat_vs_special
from umpire.rulesets.sevendays.odds import p_penetrate
from umpire.rulesets.sevendays.orbat import Weapon
from umpire.rulesets.sevendays.shots import hits_front
from umpire.rulesets.sevendays.state import Unit


def test_penetration_must_exceed_armour() -> None:
    # d10 + 10 vs armour 19: only a 10 makes 20 > 19 (the reviews' "pretty much invulnerable")
    assert p_penetrate(10, 19, heat_special=False) == Fraction(1, 10)
    # equal is not enough: d10 + 10 vs 17 needs 8+ -> 3 in 10
    assert p_penetrate(10, 17, heat_special=False) == Fraction(3, 10)


def test_heat_against_special_armour_keeps_the_lowest_of_2d10() -> None:
    assert heat_vs_special(Weapon.parse("11h"), special=True)
    assert not heat_vs_special(Weapon.parse("11h"), special=False)
    assert not heat_vs_special(Weapon.parse("10"), special=True)
    assert not heat_vs_special(Weapon.parse("8i"), special=True)  # LAW/RPG are exempt
    # 11h vs 19s: needs 9+ on both dice -> 0.2 * 0.2
    assert p_penetrate(11, 19, heat_special=True) == Fraction(1, 25)


# rules: sevendays.hit.facing
def test_facing_front_half() -> None:
    tank = Unit("t", "pact", "ussr/t64b", "T", 0.0, 0.0, facing=90.0)  # facing north (+y)
    assert hits_front(tank, (0.0, 20.0))
    assert hits_front(tank, (10.0, 1.0))
    assert not hits_front(tank, (0.0, -20.0))


# rules: sevendays.hit.foot_conversion
def test_conversion_table_transcription_p19() -> None:
    assert conversion(heavy=False, cover="open") == (1, 4)
    assert conversion(heavy=False, cover="cover") == (1, 5)
    assert conversion(heavy=False, cover="fortified") == (1, 6)
    assert conversion(heavy=True, cover="open") == (2, 4)
    assert conversion(heavy=True, cover="cover") == (2, 4)
    assert conversion(heavy=True, cover="fortified") == (2, 5)
