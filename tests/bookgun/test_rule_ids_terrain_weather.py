"""The Book and The Gun: the rule ids of time, dense ground, weather and darkness (each test
follows the procedure of /work/shared/rules/book-and-gun.md), and the ids still not
modelled (cavalry, horses), pinned so that a scenario asking for them is refused,
not silently ignored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bookgun.test_rule_ids import _place, _state
from umpire.core.errors import DataFileError
from umpire.core.events import Event
from umpire.rulesets.bookgun.allowance import Allowance
from umpire.rulesets.bookgun.combat import spot_number
from umpire.rulesets.bookgun.movement import dense_move, move_problem, roll_allowance
from umpire.rulesets.bookgun.ruleset import _turn_begin
from umpire.rulesets.bookgun.scenario import SCENARIOS, load_scenario_file
from umpire.rulesets.bookgun.state import BookGunState
from umpire.rulesets.bookgun.world import World, world_for


def _with(s: BookGunState, **spec: Any) -> World:
    """The state's world with some scenario fields changed (weather, light, ground...)."""
    base = world_for(s.scenario, None)
    w = World(base.spec.model_copy(update=spec), base.tables)
    s.world_memo = w
    return w


# -- bookgun.scale.time ---------------------------------------------------------------------------
def test_each_turn_is_two_minutes_of_the_action() -> None:
    """bookgun.scale.time (p.5): one full turn = 2 minutes; turn 3 covers minutes 4-6."""
    s = _state()
    s.flow.turn = 3
    text = next(e.text for e in _turn_begin(s) if e.kind == "turn")
    assert text.startswith("turn 3 of 10 (minutes 4-6 of the action)")
    s.flow.turn = 10
    text = next(e.text for e in _turn_begin(s) if e.kind == "turn")
    assert "(minutes 18-20 of the action)" in text


# -- bookgun.move.dense ---------------------------------------------------------------------------
def test_dense_ground_drops_the_rough_die_and_subtracts_it_again() -> None:
    """bookgun.move.dense (p.14): the rough-ground die is dropped and its value taken off once
    more; a unit may always move 1 in. Army 3D6 [2, 6, 4]: drop the 6, 6 - 6 = 0 -> 1 in.;
    insurgents drop the lowest (house): 10 - 2 = 8; civilians have no rough penalty: 12."""
    assert dense_move([2, 6, 4], "highest", 1.0) == 1.0
    assert dense_move([5, 1, 3], "highest", 1.0) == 1.0  # 4 - 5 < 0: still 1 in.
    assert dense_move([3, 3, 4], "highest", 1.0) == 2.0  # 6 - 4
    assert dense_move([2, 6, 4], "lowest", 1.0) == 8.0
    assert dense_move([2, 6, 4], "none", 1.0) == 12.0


def test_a_move_into_the_thicket_is_held_to_the_dense_allowance() -> None:
    """bookgun.move.dense / bookgun.terrain.kinds: Convoy Ambush's thicket (x 2-7, y 37-43) is
    dense; a 4.5 in. move into it needs 4.5 in. of dense allowance, the same move in rough
    ground only the rough allowance."""
    s = _state("convoy-ambush")
    w = world_for("convoy-ambush", None)
    assert w.dense and w.in_area((4.0, 40.0), w.dense)
    _place(s, "lead-team", 8.5, 40.0, 180.0)
    unit = s.units["lead-team"]
    dense = Allowance(clear=12.0, rough=8.0, road=12.0, prone=False, dense=3.0)
    assert move_problem(s, unit, dense, (6.0, 40.0), None) is None
    problem = move_problem(s, unit, dense, (4.0, 40.0), None)
    assert problem is not None and "beyond the 3 in. rolled" in problem
    as_rough = Allowance(clear=12.0, rough=8.0, road=12.0, prone=False, dense=None)
    assert move_problem(s, unit, as_rough, (4.0, 40.0), None) is None


def test_the_allowance_on_a_table_with_dense_ground_reports_the_dense_move() -> None:
    """bookgun.move.dense: the rolled allowance names the dense-ground figure (from the same
    dice as clear and rough ground)."""
    s = _state("convoy-ambush")
    events: list[Event] = []
    al = roll_allowance(s, s.units["lead-team"], None, False, events)
    faces = list(events[0].get("dice") or [])
    cross = faces[:3]  # column: 3D6 across country (the 4th die is the road's)
    assert al.clear == sum(cross) and len(faces) == 4
    assert al.dense == dense_move(cross, "highest", 1.0)
    assert f"{al.dense:g} in dense terrain" in events[-1].text


# -- bookgun.move.weather -------------------------------------------------------------------------
@pytest.mark.parametrize("ground", ["snow", "mud"])
def test_snow_and_mud_drop_the_highest_die_cross_country_and_the_lowest_on_roads(
    ground: str,
) -> None:
    """bookgun.move.weather (p.15): snow or mud - on roads drop the lowest die, cross-country
    the highest. The convoy's lead team starts in column on the road (4D6 road, 3D6 across)."""
    s = _state("convoy-ambush")
    _with(s, ground=ground)
    unit = s.units["lead-team"]
    events: list[Event] = []
    al = roll_allowance(s, unit, None, False, events)
    faces = list(events[0].get("dice") or [])
    assert len(faces) == 4  # column on a road: the road count
    cross = faces[:3]
    assert al.clear == sum(cross) - max(cross)
    assert al.road == sum(faces) - min(faces)
    assert f"{ground} drops a die" in events[-1].text
    _with(s, ground="dry")
    events = []
    al = roll_allowance(s, unit, None, False, events)
    faces = list(events[0].get("dice") or [])
    assert al.clear == sum(faces[:3]) and al.road == sum(faces)


# -- bookgun.weather.visibility / bookgun.los.dark ------------------------------------------------
def test_fog_rain_and_snow_halve_spotting_distances() -> None:
    """bookgun.weather.visibility (p.19) with the chart of spec §4.5: an army spotter with a
    leader at 10 in. needs 12 in clear weather (<= 12 in. band); in fog 10 in. reads as 20 in.
    (> 12 in.: 8); 3 in. is automatic when clear, 6 in. in fog (<= 6 in.: 16)."""
    s = _state()
    army = s.units["team-a"]
    w = _with(s, weather="clear")
    assert spot_number(w, army, 10.0, True) == 12
    assert spot_number(w, army, 3.0, True) is None
    for weather in ("fog", "rain", "snow"):
        w = _with(s, weather=weather)
        assert spot_number(w, army, 10.0, True) == 8, weather
        assert spot_number(w, army, 3.0, True) == 16, weather
        assert spot_number(w, army, 1.9, True) is None, weather  # automatic within 2 in.


def test_darkness_halves_sight_unless_the_side_has_night_vision() -> None:
    """bookgun.los.dark (p.11): darkness halves line of sight (on the chart: distances count
    double), night-vision goggles restore it. Insurgent spotter with a leader at 5 in.: 14 by
    day (<= 6 in.), 10 at night (10 in.: <= 12 in.); army goggles leave the army at 14-16."""
    s = _state()
    army, cell = s.units["team-a"], s.units["cell-1"]
    w = _with(s, light="day")
    assert spot_number(w, cell, 5.0, True) == 14
    w = _with(s, light="night", night_vision=[])
    assert spot_number(w, cell, 5.0, True) == 10
    assert spot_number(w, army, 5.0, True) == 12
    w = _with(s, light="night", night_vision=["army"])
    assert spot_number(w, army, 5.0, True) == 16
    assert spot_number(w, cell, 5.0, True) == 10
    w = _with(s, light="night", night_vision=[], weather="fog")  # both: 5 in. reads as 20
    assert spot_number(w, cell, 5.0, True) == 6


# -- catalogued as not modelled in v1: a scenario asking for them is refused -------------------
def _refused(tmp_path: Path, old: str, new: str) -> str:
    text = (SCENARIOS / "convoy-ambush.yaml").read_text()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(DataFileError) as err:
        load_scenario_file(bad)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{bad}: field ")
    return message


def test_cavalry_loose_guns_and_kindless_vehicles_are_refused_not_ignored(tmp_path: Path) -> None:
    """bookgun.move.vehicles is modelled (a unit of troop vehicle names its kind, spec §4.6)
    and so is bookgun.move.artillery (a gun unit with a figure of role gun); a vehicle without
    a kind, cavalry (horses are not modelled), a gun carried by a rifleman and an unknown
    weapon are errors that name the field, so no scenario plays them as infantry by mistake."""
    troop = "troop: army\n    quality: regular\n    formation: column\n    facing: 90\n"
    troop += "    at: [11.5, 8]"
    message = _refused(tmp_path, troop, troop.replace("troop: army", "troop: cavalry"))
    assert "units.0.troop" in message
    message = _refused(tmp_path, troop, troop.replace("troop: army", "troop: vehicle"))
    assert "units.0" in message and "vehicle" in message
    rifle = "weapon: recoilless_rifle, role: key}"
    message = _refused(tmp_path, "weapon: lmg, role: key}", rifle)
    assert "units.0" in message and "role gun" in message
    flamer = "weapon: flamethrower, role: key}"
    message = _refused(tmp_path, "weapon: lmg, role: key}", flamer)
    assert "units.0.figures.2.weapon" in message and "flamethrower" in message


def test_a_scout_is_a_unit_not_a_role(tmp_path: Path) -> None:
    """bookgun.move.scouts: a scout is a one-figure unit with scout_of (Night Raid's lookout);
    a figure with role scout inside a unit is refused, naming the field."""
    message = _refused(tmp_path, "role: key}", "role: scout}")
    assert "units.0.figures.2.role" in message


def test_a_steep_slope_needs_its_uphill_bearing(tmp_path: Path) -> None:
    """bookgun.move.slope: steep ground must say which way is up (the uphill bearing), or
    nothing could tell climbing from descending; smoke needs nothing more."""
    message = _refused(tmp_path, "kind: rough, rect: [8.5", "kind: steep, rect: [8.5")
    assert "terrain.1" in message and "uphill" in message
    text = (SCENARIOS / "convoy-ambush.yaml").read_text()
    ok = tmp_path / "smoke.yaml"
    ok.write_text(text.replace("kind: rough, rect: [8.5", "kind: smoke, rect: [8.5", 1))
    assert load_scenario_file(ok).terrain[1].kind == "smoke"
