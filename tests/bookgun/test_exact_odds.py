"""The Book and The Gun: exact probabilities of spotting, fire, casualty cards and the joker
table, checked against figures worked out by hand from the specification's tables
(/work/shared/rules/book-and-gun.md §4.1, §4.5, §5.2 and p.13's joker table), through the same
chance definitions play samples and ``umpire odds bookgun`` enumerates."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.bookgun.test_rule_ids import _place, _state
from umpire.core.chance import TableLookup
from umpire.core.events import Event
from umpire.rulesets.bookgun.chances import (
    HitsUnder,
    RollUnder,
    cards_effects,
    fire_casualties,
    movement_roll,
    total_hits,
)
from umpire.rulesets.bookgun.combat import spot_number, spotting
from umpire.rulesets.bookgun.odds_cli import ODDS, fire_parts
from umpire.rulesets.bookgun.tables import base_tables
from umpire.rulesets.bookgun.world import world_for

# spec §4.5, typed from the document: (spotter, distance) -> (with leader, without); None =
# automatic, 0 = cannot spot
CHART = {
    ("army", 3.0): (None, None),
    ("army", 4.0): (None, None),
    ("army", 5.0): (16, 14),
    ("army", 6.0): (16, 14),
    ("army", 10.0): (12, 10),
    ("army", 12.0): (12, 10),
    ("army", 20.0): (8, 6),
    ("insurgents", 2.0): (None, None),
    ("insurgents", 6.0): (14, 12),
    ("insurgents", 11.0): (10, 8),
    ("insurgents", 30.0): (6, 4),
    ("civilians", 4.0): (None, None),
    ("civilians", 7.0): (10, 8),
    ("civilians", 8.0): (10, 8),
    ("civilians", 12.0): (8, 6),
    ("civilians", 13.0): (0, 0),
}


@pytest.mark.parametrize(("spotter", "distance"), sorted(CHART))
def test_spotting_chance_is_the_chart_number_in_twenty(spotter: str, distance: float) -> None:
    """bookgun.spot.roll / bookgun.spot.chart: d20 at or under the chart number, so the chance
    is number/20 (army at 10 in. with a leader: 12/20 = 3/5); automatic within 4 in."""
    s = _state()
    unit = next(u for u in s.units.values() if u.troop == spotter)
    w = world_for("market-day", None)
    for leader, expected in zip((True, False), CHART[(spotter, distance)], strict=True):
        number = spot_number(w, unit, distance, leader)
        assert number == expected
        if number:
            p = RollUnder(20, number, "bookgun.spot.roll").outcomes()[True]
            assert p == Fraction(number, 20)
    assert RollUnder(20, 12, "bookgun.spot.roll").outcomes()[True] == Fraction(3, 5)


def test_play_rolls_the_chart_number_for_the_nearest_spotter() -> None:
    """bookgun.spot.roll / bookgun.spot.static: in the fire phase an army unit 10 in. from an
    insurgent unit that stood still rolls d20 needing 12 or less (leader present)."""
    s = _state()
    cell = s.units["cell-1"]
    if cell.marker in s.markers:
        del s.markers[str(cell.marker)]
    cell.concealed, cell.marker = False, None
    _place(s, "cell-1", 20.0, 8.0 + 10.0, 270.0)
    _place(s, "team-a", 20.0 - 1.2 * 2, 8.0, 90.0)  # nearest pair: 10 in. apart
    for u in s.units.values():
        u.moved = u.moved_last = u.fired = u.fired_last = False
    s.flow.phase = "fire"
    events: list[Event] = spotting(s)
    rolls = [e for e in events if e.kind == "roll" and "looks for Cell 1" in e.text]
    assert rolls, [e.text for e in events]
    assert "need 12 or less" in rolls[0].text and " at 10.0 in." in rolls[0].text


# -- fire (spec §4.1) ------------------------------------------------------------------------------
def test_the_spec_tuning_check_a_us_squad_on_men_in_a_building() -> None:
    """bookgun.fire.procedure / bookgun.fire.table / bookgun.fire.weapons: 5 assault rifles
    (1 die) + 2 SAWs (2 dice beyond short) at medium range (14 in.) on Cat IV need 2 on a d20:
    9 dice at 1/10, expected 0.9 hits; none at all (9/10)^9. The same men in the open in open
    order (Cat II, 5): 9 x 1/4 = 2.25 hits expected."""
    t = base_tables()
    parts = fire_parts(t, "assault_rifle*5,lmg*2", 14.0, "IV", "regular", False)
    assert sorted((p.count, p.number) for p in parts) == [(1, 2)] * 5 + [(2, 2)] * 2
    hits = total_hits(parts).outcomes()
    assert hits[0] == Fraction(9, 10) ** 9
    assert hits[1] == 9 * Fraction(1, 10) * Fraction(9, 10) ** 8
    assert sum(k * p for k, p in hits.items()) == Fraction(9, 10)
    in_open = total_hits(fire_parts(t, "assault_rifle*5,lmg*2", 14.0, "II", "regular", False))
    assert sum(k * p for k, p in in_open.outcomes().items()) == Fraction(9, 4)
    # the odds tool: 2 men visible, so casualties are min(hits, 2):
    # E = P(hits >= 1) + P(hits >= 2)
    data, _ = ODDS.answer(
        {"weapons": "assault_rifle*5,lmg*2", "range": 14.0, "category": "IV", "visible": 2}
    )
    at_least_1 = 1 - hits[0]
    at_least_2 = at_least_1 - hits[1]
    assert data["expected_casualties"] == pytest.approx(float(at_least_1 + at_least_2), abs=1e-12)
    assert data["casualties"]["0"] == pytest.approx(float(hits[0]), abs=1e-15)


def test_hit_numbers_with_quality_movement_and_the_floor() -> None:
    """bookgun.fire.mods: trained insurgents -1, firer moved -2; the hit number never drops
    below 1 and a natural 20 always misses. AK at 6 in. on Cat I: 10 - 1 = 9 -> 9/20; having
    moved 7/20; at 30 in. on Cat IV: 1 - 1 -> 1 -> 1/20; a pistol cannot reach 13 in."""
    t = base_tables()

    def p(weapon: str, rng: float, cat: str, quality: str, moved: bool) -> Fraction:
        (part,) = fire_parts(t, weapon, rng, cat, quality, moved)
        return part.p_hit

    assert p("assault_rifle", 6.0, "I", "trained_insurgent", False) == Fraction(9, 20)
    assert p("assault_rifle", 6.0, "I", "trained_insurgent", True) == Fraction(7, 20)
    assert p("assault_rifle", 30.0, "IV", "trained_insurgent", False) == Fraction(1, 20)
    assert p("assault_rifle", 6.0, "I", "regular", False) == Fraction(10, 20)
    assert HitsUnder(1, 20, 30, "bookgun.fire.table").p_hit == Fraction(19, 20)
    with pytest.raises(Exception, match="does not reach"):
        fire_parts(t, "pistol", 13.0, "I", "regular", False)


def test_casualty_cards_kill_four_hits_in_thirteen() -> None:
    """bookgun.casualty.card / bookgun.lead.ace (spec §5.2): a hit kills on a heart (13 cards)
    or an ace on the leader (3 more): 16/52 = 4/13, the spec's "about 30 % of hits kill".
    Two sure hits on 7 visible men: both kill with (16 x 15) / (52 x 51) = 20/221 (cards are
    drawn without replacement); the leader is hit with 1 - (48 x 47) / (52 x 51) = 33/221."""
    sure = HitsUnder(1, 20, 20, "bookgun.fire.table", always_miss=0)
    assert sure.p_hit == 1
    one = fire_casualties([sure], True, 7).outcomes()
    killed = sum((p for (k, _w, _l), p in one.items() if k == 1), Fraction(0))
    assert killed == Fraction(4, 13)
    two = fire_casualties([sure, sure], True, 7).outcomes()
    both = sum((p for (k, _w, _l), p in two.items() if k == 2), Fraction(0))
    assert both == Fraction(20, 221)
    leader = sum((p for (_k, _w, lead), p in two.items() if lead), Fraction(0))
    assert leader == 1 - Fraction(48 * 47, 52 * 51) == Fraction(33, 221)
    # hits beyond the visible figures are lost: two sure hits on one visible man = one card
    capped = fire_casualties([sure, sure], True, 1).outcomes()
    assert all(k + w == 1 for (k, w, _l), p in capped.items() if p)
    assert sum((p for (k, _w, _l), p in capped.items() if k), Fraction(0)) == Fraction(4, 13)


# -- the joker table (p.13) ------------------------------------------------------------------------
def test_joker_table_results_and_their_odds() -> None:
    """bookgun.turn.joker (p.13): 1 add a die, 2 no move, 3 fall back 2D6, 4 subtract 1D6,
    5 heal the wounded, 6 charge the nearest enemy - each 1/6; a joker makes the unit move
    away or charge (3 or 6) with 1/3; the fall-back is 2D6: 7 in. with 1/6, 10 or more 1/6."""
    results = base_tables().joker.results
    assert dict(results) == {
        1: "extra_die",
        2: "no_move",
        3: "fall_back",
        4: "minus_d6",
        5: "heal",
        6: "charge",
    }
    dist = TableLookup(6, dict(results), "bookgun.turn.joker").outcomes()
    assert dist["fall_back"] + dist["charge"] == Fraction(1, 3)
    assert sum(dist.values()) == 1
    back = movement_roll(2, "bookgun.turn.joker", "falls back").map(sum).outcomes()
    assert back[7] == Fraction(1, 6)
    assert sum(p for total, p in back.items() if total >= 10) == Fraction(1, 6)
    assert sum(total * p for total, p in back.items()) == 7


# bookgun.casualty.card: a card per hit, drawn without replacement from the casualty pile
@pytest.mark.parametrize("hits", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("leader", [True, False])
def test_card_effects_closed_form_equals_the_card_by_card_draws(hits: int, leader: bool) -> None:
    from umpire.rulesets.bookgun.chances import CASUALTY_DECK, CardEffects, _effects

    for pile in (CASUALTY_DECK, CASUALTY_DECK[5:30], CASUALTY_DECK[:3]):
        chance = cards_effects(hits, leader, list(pile))
        assert isinstance(chance, CardEffects)
        draw_by_draw = _effects(chance.hits, chance.left).outcomes()
        assert chance.outcomes() == draw_by_draw
        assert sum(draw_by_draw.values()) == 1


def test_a_large_volley_enumerates_in_closed_form() -> None:
    """Twelve figures' hits: the card-by-card tree would be 5**12 branches; the closed form
    gives the whole distribution (every effect count from 0 to 12 cards)."""
    outcomes = cards_effects(12, True).outcomes()
    assert sum(outcomes.values()) == 1
    assert all(len(effects) == 12 for effects in outcomes)
    # all twelve cards hearts below the face cards (killed): C(9 hearts 2-10, 12) is impossible
    assert ("killed",) * 12 not in outcomes
