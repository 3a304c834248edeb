"""The Book and The Gun: fixes from a verification review of the 0.3 changes, each test
written from the rulebook's wording (page cited) and the specification
(/work/shared/rules/book-and-gun.md) before the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bookgun.helpers import past_setup as _state
from tests.bookgun.helpers import place_in_open as _place
from umpire.core.events import Event
from umpire.core.rng import RandomStream
from umpire.rulesets.bookgun import combat


# -- D. a defensive circle faces outwards all round: no flank or rear charge on it ----------------
def _stand_roll(formation: str, facing: float, seed: int) -> Event | None:
    s = _state()
    _place(s, "cell-1", 10.0, 2.0, facing=90.0)
    _place(s, "team-a", 10.0, 3.5, facing=facing)
    s.units["team-a"].formation = formation
    s.rng = RandomStream(seed)
    events = combat.fight(s, s.units["cell-1"], s.units["team-a"])
    stand = [e for e in events if e.get("rule") == "bookgun.cc.stand" and e.get("kind") == "roll"]
    return stand[0] if stand else None


def test_a_defensive_circle_is_never_charged_in_flank_or_rear() -> None:
    """p.10 V.11 (a defensive circle is the all-round formation standing in for the square, a
    stationary formation for close combat) with spec §4.3 step 3 bookgun.cc.stand (+1 if
    charged in flank or rear): the circle's men face outwards every way, so a charge from
    behind its leader's facing is no rear charge - the open-order team facing away from the
    chargers stands on +1, the same team in a circle does not."""
    s = _state()
    _place(s, "team-a", 10.0, 3.5, facing=90.0)
    s.units["team-a"].formation = "circle"
    for charger in ((10.0, 0.0), (14.0, 10.0), (5.0, 3.5), (20.0, 3.5)):
        assert not combat.flank_or_rear(s, s.units["team-a"], charger), charger
    for seed in range(1, 40):
        open_rear = _stand_roll("open", 90.0, seed)  # facing north, the chargers to the south
        circle = _stand_roll("circle", 90.0, seed)
        if open_rear is None or circle is None:
            continue  # the charge did not close
        assert "+1 (charged in flank or rear)" in open_rear.text
        assert "flank or rear" not in circle.text, circle.text
        return
    raise AssertionError("no charge closed")


# -- C. the gully hides only the prone men lying in it ---------------------------------------------
def test_the_gully_hides_prone_men_in_it_not_beyond_it() -> None:
    """Spec §6 Market Day (in the gully, prone figures are unseen from the same level) and
    p.16 4.3 bookgun.move.prone (a prone figure behind an elevation change is unseen to a
    same-level observer): a depression hides the men lying in it, not those lying on the far
    side of it - a prone man at (35, 24) beyond the gully is seen from (31, 8) across it; a
    prone man in the gully is not; an observer in the same depression sees him."""
    from umpire.rulesets.bookgun.common import world

    s = _state()
    w = world(s)
    looker, man = s.figures["a-r"], s.figures["c1-l"]
    looker.x, looker.y, looker.room, looker.prone = 31.0, 8.0, None, False
    man.x, man.y, man.room, man.prone = 35.0, 24.0, None, True
    assert combat.sees(w, looker, man)  # beyond the gully
    man.x, man.y = 33.0, 15.0
    assert not combat.sees(w, looker, man)  # lying in it
    looker.x, looker.y = 32.0, 13.0
    assert combat.sees(w, looker, man)  # the observer is in the same depression
    # a stall is a screen to lie behind: a prone man just beyond it stays unseen
    looker.x, looker.y = 22.0, 10.0
    man.x, man.y = 22.0, 14.6
    assert not combat.sees(w, looker, man)


def test_hides_prone_reads_behind_or_inside(tmp_path: Path) -> None:
    """The scenario field hides_prone is ``behind`` (a wall or stall to lie behind; ``true``
    still means it) or ``inside`` (a depression hiding only the men in it); anything else is a
    one-line error naming the file and the field."""
    from umpire.core.errors import DataFileError
    from umpire.rulesets.bookgun.scenario import SCENARIOS, load_scenario_file

    text = (SCENARIOS / "market-day.yaml").read_text()
    spec = load_scenario_file(SCENARIOS / "market-day.yaml")
    kinds = {t.id: t.hides_prone for t in spec.terrain}
    assert kinds["gully"] == "inside" and kinds["stall-1"] == "behind"
    path = tmp_path / "md.yaml"
    path.write_text(text.replace("hides_prone: inside", "hides_prone: true"))
    spec = load_scenario_file(path)
    assert {t.id: t.hides_prone for t in spec.terrain}["gully"] == "behind"
    path.write_text(text.replace("hides_prone: inside", "hides_prone: under"))
    with pytest.raises(DataFileError) as caught:
        load_scenario_file(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message and "hides_prone" in message, message


# -- B. a flight runs in a straight line: it stops short of a building in its way ---------------
def test_a_mob_whose_straight_run_crosses_house_b_stops_short_of_it() -> None:
    """Spec §5.3 (the mob runs straight away) and p.7 III.2.3 with bookgun.morale.rout (a
    flight is a straight run; buildings and high walls stop it): the crowd centred at
    (23, 14.4) running due north meets house B (x 21-27, y 24-30) after 9.6 in. Whatever it
    rolls it neither lands beyond the house nor leaves the table through it: a roll past the
    house ends short of it (and a roll past the table edge 21.6 in. away too)."""
    from umpire.rulesets.bookgun.movement import flee

    seen = {"beyond the house": 0, "beyond the edge": 0}
    for seed in range(1, 120):
        s = _state()
        crowd = s.units["crowd"]
        n = len(s.unit_figures(crowd))
        _place(s, "crowd", 23.0 - 0.25 * (n - 1), 14.4, gap=0.5)
        s.rng = RandomStream(seed)
        events: list[Event] = []
        flee(s, crowd, 5, "bookgun.morale.rout", "runs", events, (23.0, 5.0), directly=True)
        roll = sum(float(d) for e in events if e.get("kind") == "roll" for d in e["dice"])
        if roll < 10.0:
            continue
        seen["beyond the edge" if roll >= 21.6 else "beyond the house"] += 1
        assert crowd.status != "out", (seed, roll)
        run = next(e for e in events if e.get("kind") == "flee")
        assert run["y"] < 24.0, (seed, roll, run.text)
        for f in s.unit_figures(crowd):
            assert f.room is None and not (21.0 < f.x < 27.0 and 24.0 <= f.y <= 30.0), f
    assert all(seen.values()), seen
