"""Measuring aids: range, line of sight and cover between entered positions, with the digital
table's geometry, checked against the scenario's own terrain (capture.yaml, armoured-meeting.yaml)
and the rules' wording on what blocks sight (sevendays house_rules.yaml terrain kinds: woods,
buildings and hills block, rough gives cover; Portable: woods and built-up squares between the
two squares block sight, woods and towns give cover)."""

from __future__ import annotations

import pytest

from umpire.companion.errors import Refused
from umpire.companion.measure import Measure, Spot
from umpire.core.game import new_game


def test_seven_days_sight_and_cover_between_positions() -> None:
    measure = Measure(new_game("sevendays/capture", 1), "nato")
    # north-wood is the polygon (40,35) (47,34) (48,39) (41,40): a line across it is blocked
    across = measure.between(Spot((44.0, 30.0)), Spot((44.0, 44.0)))
    assert 'range 14.0"' in across and "line of sight blocked by terrain" in across
    open_ground = measure.between(Spot((4.0, 38.0)), Spot((16.0, 44.0)))
    assert "line of sight clear" in open_ground and "target no cover" in open_ground
    # west-wood (6,27) (14,26) (18,30) (15,35) (8,34): a unit within 2" of its edge sees out
    # (woods see_into 2.0, house_rules.yaml); one 4" deep does not
    assert "line of sight clear" in measure.between(Spot((12.0, 33.5)), Spot((12.0, 44.0)))
    deep = measure.between(Spot((12.0, 30.0)), Spot((12.0, 44.0)))
    assert "line of sight blocked by terrain" in deep
    assert "in cover (woods)" in measure.between(Spot((40.0, 37.0)), Spot((44.0, 37.0)))
    assert "in cover (rough)" in measure.between(Spot((22.0, 30.0)), Spot((22.0, 36.0)))


def test_seven_days_positions_are_checked_on_the_table() -> None:
    measure = Measure(new_game("sevendays/capture", 1), "nato")
    assert measure.position("72, 48") == (72.0, 48.0)
    for text in ("72.1,10", "-0.5,3", "10,48.5"):
        with pytest.raises(Refused, match="is off the table"):
            measure.position(text)
    with pytest.raises(Refused, match="is not a position"):
        measure.position("north")
    # a unit of the other side that NATO cannot see is unknown to NATO
    with pytest.raises(Refused, match="no unit called"):
        measure.unit_id("nobody", "nato")
    assert measure.unit_id("chieftain-1", "nato") == "nato-chieftain-1"
    with pytest.raises(Refused, match="names 2 units"):
        measure.unit_id("infantry-1", "nato")  # NATO's and PACT's: the id tells them apart


def test_a_hidden_unit_is_unknown_to_the_enemy() -> None:
    measure = Measure(new_game("sevendays/capture", 1), "pact")
    # NATO deploys hidden in Capture: PACT cannot name, measure to or ask about its units
    with pytest.raises(Refused, match="no unit called 'chieftain-1'"):
        measure.spot("chieftain-1", "pact")


def test_portable_squares() -> None:
    measure = Measure(new_game("portable/armoured-meeting", 1), "blue")
    # woods at K2 lies between I2 and L2; A1 to A4 crosses nothing
    assert "line of sight blocked by terrain" in measure.between(
        Spot(measure.position("I2")), Spot(measure.position("L2"))
    )
    clear = measure.between(Spot(measure.position("A1")), Spot(measure.position("A4")))
    assert "range 3 square(s)" in clear and "line of sight clear" in clear
    assert "F6 is town, in cover" in measure.between(
        Spot(measure.position("F4")), Spot(measure.position("F6"))
    )
    for text in ("M1", "A10", "A0"):
        with pytest.raises(Refused):
            measure.position(text)
    assert measure.spot("B-ac", "blue") == Spot((4.0, 1.0), "blue-ac")
