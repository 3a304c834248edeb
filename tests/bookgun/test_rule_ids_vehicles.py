"""The Book and The Gun: vehicles and passengers, mounting and dismounting, entry by window,
night fire and laser sights, smoke and thermal sights, steep slopes and scouts - each test
follows the rulebook's wording (seed 002, page cited) or the specification's completion
(/work/shared/rules/book-and-gun.md, section cited)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tests.bookgun.test_rule_ids import _place, _state
from tests.bookgun.test_rule_ids_terrain_weather import _with
from umpire.core.actions import Action
from umpire.core.errors import DataFileError, IllegalActionError
from umpire.core.events import Event
from umpire.rulesets.bookgun import combat
from umpire.rulesets.bookgun.allowance import Allowance, path_length
from umpire.rulesets.bookgun.chances import HitsUnder, mount_chance
from umpire.rulesets.bookgun.common import world
from umpire.rulesets.bookgun.movement import carry, move_problem, roll_allowance
from umpire.rulesets.bookgun.ruleset import (
    Activate,
    Charge,
    MoveTo,
    Window,
    mount,
    mount_choices,
    window_entries,
)
from umpire.rulesets.bookgun.scenario import SCENARIOS, load_scenario_file
from umpire.rulesets.bookgun.state import BookGunState
from umpire.rulesets.bookgun.tables import tables_with
from umpire.rulesets.bookgun.world import World, world_for

BLACK = "5-spades"  # an army card (Night Raid: army black)


def _raid(seed: int = 1) -> BookGunState:
    """Night Raid after set-up (first legal choices: the cell under a marker in K1, the lookout
    in K2, dummies in S1 and H1); the squad rides the Humvee at (18, 2)."""
    return _state("night-raid", seed)


def _card(s: BookGunState, card: str = BLACK) -> None:
    s.flow.phase, s.card, s.acted = "movement", card, []
    s.flow.stack.clear()


def _rolls(events: list[Event]) -> list[list[int]]:
    return [list(e.get("dice") or []) for e in events if e.kind == "roll"]


def _down(s: BookGunState, where: tuple[float, float] = (17.0, 3.0)) -> None:
    """Take the squad off the Humvee and stand it in a row at ``where``."""
    s.units["squad"].aboard = None
    _place(s, "squad", where[0], where[1])


# -- bookgun.move.vehicles: dice, rough ground, road, motion ---------------------------------------
def test_a_light_wheeled_vehicle_rolls_4d6_across_country_6d6_on_the_road() -> None:
    """bookgun.move.vehicles (spec §4.6 completes the p.14 chart's lost dice: light wheeled 4D6
    cross-country, 6D6 on a road); p.14: wheeled vehicles lose the high die in rough ground,
    tracked vehicles the low die. The Humvee starts on the road: six dice are rolled, the
    first four are its cross-country move."""
    s = _raid()
    hv = s.units["humvee"]
    events: list[Event] = []
    al = roll_allowance(s, hv, None, False, events)
    faces = _rolls(events)[0]
    assert len(faces) == 6
    assert al.road == sum(faces) and al.clear == sum(faces[:4])
    assert al.rough == sum(faces[:4]) - max(faces[:4])
    hv.vehicle = "light_tracked"
    events = []
    al = roll_allowance(s, hv, None, False, events)
    faces = _rolls(events)[0]
    assert len(faces) == 5  # light tracked: 5D6 on the road
    assert al.rough == sum(faces[:4]) - min(faces[:4])


def test_horse_drawn_vehicles_may_not_enter_rough_ground_and_vehicles_not_cross_walls() -> None:
    """bookgun.move.vehicles / bookgun.move.rough / bookgun.obstacle.cross - p.18 (1.2 rough
    terrain): horse-drawn vehicles may not move through or in rough ground; p.19 (3.1 e): vehicles
    may not cross walls; p.19 (4.2): vehicles may not occupy a building."""
    s = _raid()
    hv = s.units["humvee"]
    al = Allowance(clear=20.0, rough=10.0, road=20.0)
    hv.vehicle = "horse_drawn"
    s.figures["hmv"].x, s.figures["hmv"].y = 8.0, 18.0
    s.flow.stack.clear()
    events: list[Event] = []
    rolled = roll_allowance(s, hv, None, False, events)
    assert rolled.rough == 0.0
    problem = move_problem(s, hv, rolled, (4.0, 13.0), None)  # into the brush
    assert problem is not None and "may not enter rough ground" in problem
    hv.vehicle = "light_wheeled"
    problem = move_problem(s, hv, al, (8.0, 23.0), None)  # over the yard wall (y 21.6-22)
    assert problem is not None and "vehicles may not cross walls" in problem
    problem = move_problem(s, hv, al, None, "K2")
    assert problem is not None and "may not enter buildings" in problem


def test_a_vehicle_that_used_half_its_move_is_in_motion_and_fires_at_minus_4() -> None:
    """bookgun.move.vehicles / bookgun.fire.mods - p.15 (2.2): a vehicle is in motion if it used
    half or more of its diced movement allowance; spec §4.1: firing from a moving vehicle -4 (house:
    instead of the -2 a figure that moved takes). The Humvee's M2 (HMG) on the revealed cell 10 in.
    away in the open: short range, Cat II, 7 - in motion, 7 - 4 = 3."""
    s = _raid()
    _place(s, "cell", 20.0, 12.0)
    s.units["cell"].spotted = True
    hv = s.units["humvee"]
    s.figures["hmv"].x, s.figures["hmv"].y = 18.0, 2.0
    shots = combat.plan_shots(s, hv, s.unit_figures(hv), s.units["cell"], False)
    assert shots and shots[0].band == "short" and shots[0].category == "II"
    assert shots[0].number == 7
    from umpire.rulesets.bookgun.ruleset import drive

    al = Allowance(clear=10.0, rough=8.0, road=14.0)
    drive(s, hv, al, (18.0, 8.0), False)  # 6 of 14 on the road: under half
    assert hv.moved and not hv.in_motion
    drive(s, hv, al, (18.0, 2.0), False)  # 6 of 14 again
    assert not hv.in_motion
    drive(s, hv, al, (18.0, 9.0), False)  # 7 of 14: half
    assert hv.in_motion
    shots = combat.plan_shots(s, hv, s.unit_figures(hv), s.units["cell"], False)
    assert shots[0].number == 3


def test_backing_up_is_1d6_wheeled_2d6_tracked_straight_back_without_turning() -> None:
    """bookgun.move.vehicles - p.15 (2.3): horse-drawn vehicles may never back up; wheeled vehicles
    back up 1D6, tracked 2D6, in a straight line in the reverse of the vehicle's facing, with no
    turn."""
    s = _raid()
    _card(s)
    s.figures["hmv"].x, s.figures["hmv"].y, s.figures["hmv"].facing = 18.0, 20.0, 90.0
    opts = list(Activate().options(s, "army"))
    assert Action("activate", unit="humvee", option="back") in opts
    events = Activate().resolve(s, "army", Action("activate", unit="humvee", option="back"))
    faces = _rolls(events)[0]
    assert len(faces) == 1
    moves = list(MoveTo().options(s, "army"))
    assert moves and all(a.point is not None and a.point[0] == 18.0 for a in moves)
    assert max(20.0 - (a.point or (0, 0))[1] for a in moves) == pytest.approx(sum(faces))
    with pytest.raises(IllegalActionError, match="straight back"):
        MoveTo().check(s, "army", Action("move_to", unit="humvee", point=(17.0, 19.5)))
    MoveTo().resolve(s, "army", moves[-1])
    assert s.figures["hmv"].facing == 90.0  # backed, not turned
    assert s.figures["sq-sl"].pos == s.figures["hmv"].pos  # passengers ride along
    s2 = _raid()
    _card(s2)
    s2.units["humvee"].vehicle = "heavy_tracked"
    s2.units["squad"].aboard = None  # a tank carries nobody inside (p.15)
    events = Activate().resolve(s2, "army", Action("activate", unit="humvee", option="back"))
    assert len(_rolls(events)[0]) == 2
    s3 = _raid()
    _card(s3)
    s3.units["humvee"].vehicle = "horse_drawn"
    assert Action("activate", unit="humvee", option="back") not in list(
        Activate().options(s3, "army")
    )


# -- passengers (p.15) --------------------------------------------------------------------------
def test_a_vehicle_carries_at_most_its_passengers(tmp_path: Path) -> None:
    """bookgun.move.vehicles - p.15 (2.7/2.8): light wheeled vehicles carry up to 7 passengers,
    heavy tracked none inside. Night Raid's squad of 7 fills the Humvee; an eighth man, or a tank,
    is a one-line error naming the field."""
    text = (SCENARIOS / "night-raid.yaml").read_text()
    extra = "      - {id: sq-r3, name: Rifleman C, weapon: assault_rifle}\n  - id: cell"
    bad = tmp_path / "full.yaml"
    bad.write_text(text.replace("  - id: cell", extra, 1))
    with pytest.raises(DataFileError) as err:
        load_scenario_file(bad)
    assert str(err.value).startswith(f"{bad}: field units.1.aboard: humvee carries at most 7")
    assert "\n" not in str(err.value)
    tank = tmp_path / "tank.yaml"
    tank.write_text(text.replace("vehicle: light_wheeled", "vehicle: heavy_tracked"))
    with pytest.raises(DataFileError, match="carries at most 0"):
        load_scenario_file(tank)
    nokind = tmp_path / "nokind.yaml"
    nokind.write_text(text.replace("    vehicle: light_wheeled\n", ""))
    with pytest.raises(DataFileError, match="units.0"):
        load_scenario_file(nokind)


def test_passengers_ride_with_the_vehicle_neither_fire_nor_are_fired_on() -> None:
    """bookgun.move.mount (house, spec §4.8 keeps fire against vehicles out of scope): the
    squad aboard moves with the Humvee, does not fire from inside, and neither it nor the
    vehicle is a target or in a blast."""
    s = _raid()
    squad, hv = s.units["squad"], s.units["humvee"]
    assert all(f.pos == s.figures["hmv"].pos for f in s.unit_figures(squad))
    s.figures["hmv"].x, s.figures["hmv"].y = 18.0, 9.0
    carry(s, hv)
    assert all(f.pos == (18.0, 9.0) for f in s.unit_figures(squad))
    assert combat.firing_figures(s, squad) == []
    _place(s, "cell", 20.0, 16.0)
    targets = combat.fire_targets(s, s.units["cell"], s.unit_figures(s.units["cell"]))
    assert "squad" not in targets and "humvee" not in targets
    events = combat.burst(s, (18.0, 9.0), "insurgents", (20.0, 16.0))
    assert not [e for e in events if e.kind == "casualty"]
    assert all(f.fit for f in s.unit_figures(squad))


def test_spotting_from_inside_a_vehicle_is_at_one_half() -> None:
    """bookgun.spot.roll - p.10 spotting chart: 'any unit attempting to spot from inside vehicle at
    one half'. By day, the Humvee (army, no leader) looking 10 in.: the chart's 10 (spec §4.5, <= 12
    in. without leader) halves to 5."""
    s = _raid()
    w = _with(s, light="day")
    probe = [s.figures["c-l"]]
    probe[0].x, probe[0].y, probe[0].room = 18.0, 12.0, None
    s.figures["hmv"].x, s.figures["hmv"].y = 18.0, 2.0
    events: list[Event] = []
    combat._look(s, w, [s.units["humvee"]], probe, "the cell", events, static=False)
    assert "need 5 or less" in events[-1].text
    _down(s, (18.0, 2.0))
    events = []
    combat._look(s, w, [s.units["squad"]], probe, "the cell", events, static=False)
    assert "need 12 or less" in events[-1].text  # on foot, with the squad leader: 12


# -- bookgun.move.mount (p.16 4.2) ---------------------------------------------------------------
def test_mounting_moves_up_to_1d6_and_every_figure_must_reach_the_vehicle() -> None:
    """bookgun.move.mount - p.16 (4.2): units may move up to 1D6 in the phase they mount; dismounted
    figures must start adjacent or reach their mounts during that 1D6. Exact odds from the same roll
    and judge as play: the farthest figure 4.5 in. off, boarding reach 1 in. -> 1D6 >= 3.5 -> 1/2;
    each sampled mount boards exactly when its rolled die plus the reach covers the distance."""
    w = world_for("night-raid", None)
    reach = w.tables.mount.reach
    assert mount_chance(1, reach, 4.5).outcomes()[True] == Fraction(1, 2)
    assert mount_chance(1, reach, 7.0).outcomes()[True] == Fraction(1, 6)
    assert mount_chance(1, reach, 2.0).outcomes()[True] == Fraction(1, 1)
    assert mount_chance(1, reach, 7.5).outcomes().get(True, Fraction(0)) == 0
    boarded = 0
    for seed in range(40):
        s = _raid(seed + 1)
        _down(s, (18.0, 2.0))
        for i, f in enumerate(s.unit_figures(s.units["squad"])):
            f.x, f.y = 18.0 - 4.5 if i == 0 else 18.0, 2.0
        events = mount(s, s.units["squad"], s.units["humvee"])
        rolled = sum(_rolls(events)[0])
        on = s.units["squad"].aboard == "humvee"
        assert on == (rolled + reach >= 4.5)
        boarded += on
        if on:
            assert all(f.pos == s.figures["hmv"].pos for f in s.unit_figures(s.units["squad"]))
    assert 8 <= boarded <= 32  # 40 draws of a 1/2 chance


def test_a_full_vehicle_or_one_out_of_reach_is_not_offered() -> None:
    """bookgun.move.mount - p.15-16: room for every figure, and every figure within the most a 1D6
    move gives."""
    s = _raid()
    _down(s, (17.0, 3.0))
    assert [v.id for v in mount_choices(s, s.units["squad"])] == ["humvee"]
    _card(s)
    assert Action("activate", unit="squad", option="mount:humvee") in list(
        Activate().options(s, "army")
    )
    base = world(s)
    small = tables_with({"vehicles": {"kinds": {"light_wheeled": {"passengers": 6}}}})
    s.world_memo = World(base.spec, small)
    assert mount_choices(s, s.units["squad"]) == []
    s.world_memo = base
    _place(s, "squad", 18.0, 12.0)  # 10 in. off: more than 1D6 + 1
    assert mount_choices(s, s.units["squad"]) == []


def test_dismounting_gives_1d6_from_the_vehicle_and_is_all_passengers_may_do() -> None:
    """bookgun.move.mount - p.16 (4.2): mounting or dismounting at the beginning or end of the
    unit's move, up to 1D6 in that phase if not charging. Aboard, the squad's only moves are to
    dismount or to hold; dismounted it may move the die rolled from the vehicle and no more."""
    s = _raid()
    s.figures["hmv"].x, s.figures["hmv"].y = 18.0, 6.0
    carry(s, s.units["humvee"])
    _card(s)
    mine = [a for a in Activate().options(s, "army") if a.unit == "squad"]
    assert mine == [Action("activate", unit="squad", option="dismount")]
    assert not [a for a in Window().options(s, "army") if a.unit == "squad"]
    events = Activate().resolve(s, "army", mine[0])
    rolled = sum(_rolls(events)[0])
    assert len(_rolls(events)[0]) == 1
    assert s.units["squad"].aboard is None and s.units["squad"].mounted == s.flow.turn
    top = s.flow.stack[-1]
    assert top.data["clear"] == rolled
    far = (18.0 + rolled + 2.0, 6.0)
    with pytest.raises(IllegalActionError, match="beyond"):
        MoveTo().check(s, "army", Action("move_to", unit="squad", point=far))


def test_dismounting_within_charge_distance_charges_with_2d6() -> None:
    """bookgun.move.mount / bookgun.move.charge - p.16 (4.2): units that dismount may conduct a
    charge in that phase provided they dismount within the distance rolled to charge; they get 2D6
    for charge movement."""
    s = _raid()
    s.figures["hmv"].x, s.figures["hmv"].y = 18.0, 8.0
    carry(s, s.units["humvee"])
    _place(s, "cell", 17.0, 15.0)
    _card(s)
    opts = [a for a in Charge().options(s, "army") if a.unit == "squad"]
    assert opts == [Action("charge", unit="squad", target="cell", option="dismount")]
    events = Charge().resolve(s, "army", opts[0])
    assert any(e.kind == "dismount" for e in events)
    assert len(_rolls(events)[0]) == 2
    assert s.units["squad"].aboard is None


# -- bookgun.building.windows (p.19 4.4) ---------------------------------------------------------
def test_a_figure_at_a_window_climbs_in_next_turn_one_per_window() -> None:
    """bookgun.building.windows - p.19 (4.4): move up to the window and stop; next turn be placed
    inside with the window at your back and stop; only one figure per turn through the same window.
    Night Raid's shed S1 (a dummy's marker, no one inside) has windows at (23, 22) and (23, 19)."""
    s = _raid()
    _down(s, (30.0, 5.0))
    squad = s.units["squad"]
    figs = s.unit_figures(squad)
    figs[0].x, figs[0].y = 23.0, 23.0  # outside the north window
    figs[1].x, figs[1].y = 23.4, 23.2  # the same window
    figs[2].x, figs[2].y = 23.0, 18.0  # outside the south window
    entries = window_entries(s, squad)
    assert sorted(f.id for f, _ in entries["S1"]) == sorted([figs[0].id, figs[2].id])
    _card(s)
    assert Action("window", unit="squad", option="S1") in list(Window().options(s, "army"))
    events = Window().resolve(s, "army", Action("window", unit="squad", option="S1"))
    assert [e.get("figure") for e in events if e.kind == "window"] == [figs[0].id, figs[2].id]
    assert figs[0].room == "S1" and figs[2].room == "S1" and figs[1].room is None
    assert squad.moved and "squad" in s.acted
    assert not [a for a in Window().options(s, "army") if a.unit == "squad"]  # stopped


def test_no_entry_by_window_into_an_enemy_room_and_a_hidden_one_is_found() -> None:
    """bookgun.building.windows - p.19 (4.4): troops may not move through windows into enemy-
    occupied rooms. The cell is under its marker in K1: climbing in at K1's window finds it
    (bookgun.conceal.reveal); once seen, K1's windows are closed to the army."""
    s = _raid()
    _down(s, (30.0, 5.0))
    fig = s.unit_figures(s.units["squad"])[0]
    fig.x, fig.y = 8.0, 31.0  # outside K1's north window (8, 30)
    assert "K1" in window_entries(s, s.units["squad"])
    _card(s)
    events = Window().resolve(s, "army", Action("window", unit="squad", option="K1"))
    assert any(e.kind == "reveal" and e.get("unit") == "cell" for e in events)
    assert fig.room is None
    assert "K1" not in window_entries(s, s.units["squad"])


# -- bookgun.los.dark: the night fire modifier and laser sights (p.11) -----------------------------
def test_at_night_fire_is_at_minus_2_unless_goggles_or_a_laser_sight() -> None:
    """bookgun.los.dark / bookgun.fire.mods - p.11 (2.2): darkness; night-vision goggles restore
    sight; a laser-aiming device offsets any aiming penalty. Spec §4.1: night without night-vision
    -2. The cell's rifles on the dismounted squad 10 in. off in the open: medium, Cat II: 5, trained
    insurgents -1 = 4; at night 2 (hit chance 4/20 -> 2/20); with goggles or lasers 4 again."""
    s = _raid()
    _down(s, (8.0, 5.0))
    cell = s.units["cell"]
    _place(s, "cell", 8.0, 15.0, facing=270.0)
    rifle = [f for f in s.unit_figures(cell) if f.weapon == "assault_rifle"][:1]

    def number(**spec: object) -> int:
        _with(s, **spec)
        shots = combat.plan_shots(s, cell, rifle, s.units["squad"], False)
        assert shots[0].band == "medium" and shots[0].category == "II"
        return int(shots[0].number)

    assert number(light="day", laser_sights=[], night_vision=[]) == 4
    night = number(light="night", laser_sights=[], night_vision=[])
    assert night == 2
    assert number(light="night", laser_sights=["insurgents"], night_vision=[]) == 4
    assert number(light="night", laser_sights=[], night_vision=["insurgents"]) == 4
    hit = HitsUnder(1, 20, night, "bookgun.fire.table", 20).outcomes()
    assert hit[1] == Fraction(2, 20)
    # the army in Night Raid has lasers: no night penalty on its fire
    _with(s, light="night", laser_sights=["army"], night_vision=[])
    sq = s.units["squad"]
    shots = combat.plan_shots(s, sq, s.unit_figures(sq)[3:4], cell, False)
    assert shots[0].number == 5  # medium, Cat II: 5, regulars 0


# -- bookgun.los.smoke / thermal sights (p.11, p.19) ---------------------------------------------
def test_smoke_blocks_sight_except_to_thermal_sights() -> None:
    """bookgun.los.smoke - p.11 (2.3): a target in or beyond smoke cannot be seen; thermal imaging
    sights restore sight through smoke. Night Raid's burning tyres (x 13-23, y 13-16) lie between
    (18, 10) and (18, 20); the army has thermal sights, the insurgents none."""
    s = _raid()
    w = world(s)
    a, b = (18.0, 10.0), (18.0, 20.0)
    assert w.sight(a, b)  # nothing else in the way
    assert w.sight_for("army", a, b) and not w.sight_for("insurgents", a, b)
    assert not w.sight_for("insurgents", a, (18.0, 14.0))  # a target in the smoke
    assert w.sight_for("insurgents", (10.0, 10.0), (10.0, 12.0))  # clear of it
    _down(s, (18.0, 10.0))
    _place(s, "cell", 18.0, 20.0, facing=270.0)
    f, t = s.unit_figures(s.units["squad"])[0], s.unit_figures(s.units["cell"])[0]
    assert combat.sees(w, f, t) and not combat.sees(w, t, f)
    assert "squad" not in combat.fire_targets(s, s.units["cell"], s.unit_figures(s.units["cell"]))


def test_fog_does_not_halve_thermal_sights_rain_and_snow_do() -> None:
    """bookgun.weather.visibility - p.19 (2.2): fog, rain or falling snow halve spotting distances;
    the reduction applies to thermal imagery for rain and falling snow, not fog. By day an army
    spotter with a leader at 10 in.: 12 (<= 12 in.); halved (reads 20 in.): 8."""
    s = _raid()
    army = s.units["squad"]
    w = _with(s, light="day", weather="fog", thermal_sights=["army"])
    assert combat.spot_number(w, army, 10.0, True) == 12
    w = _with(s, light="day", weather="rain", thermal_sights=["army"])
    assert combat.spot_number(w, army, 10.0, True) == 8
    w = _with(s, light="day", weather="fog", thermal_sights=[])
    assert combat.spot_number(w, army, 10.0, True) == 8


# -- bookgun.move.slope (p.18 1.4) -----------------------------------------------------------------
def test_steep_slopes_are_climbed_or_crossed_at_half_and_descended_straight_at_full() -> None:
    """bookgun.move.slope - p.18 (1.4): troops climb or cross steep slopes at half speed (half the
    value of each die) but move straight down slope at full speed. Night Raid's hillside (x 25-36, y
    18-32) climbs eastward."""
    s = _raid()
    _down(s, (27.0, 20.0))
    squad = s.units["squad"]
    al = Allowance(clear=10.0, rough=8.0, road=10.0)
    assert path_length(s, squad, al, (31.0, 20.0))[1] == 5.0  # uphill
    assert path_length(s, squad, al, (27.0, 24.0))[1] == 5.0  # across
    _place(s, "squad", 31.0, 20.0)
    assert path_length(s, squad, al, (27.0, 20.0))[1] == 10.0  # straight down
    _place(s, "squad", 10.0, 5.0)
    assert path_length(s, squad, al, (14.0, 5.0))[1] == 10.0  # flat ground


# -- bookgun.move.scouts (p.17 4.5) ----------------------------------------------------------------
def test_a_scout_moves_3d6_stays_within_range_of_his_leader_and_is_open_order() -> None:
    """bookgun.move.scouts - p.17 (4.5): a scout may operate up to 12 in. from his unit's leader, 24
    in. with a radio; he moves 3D6 and counts as an open-order target (Category II in the open)."""
    s = _raid()
    lk, cell = s.units["lookout"], s.units["cell"]
    _place(s, "cell", 10.0, 20.0)
    _place(s, "lookout", 20.0, 20.0)
    events: list[Event] = []
    roll_allowance(s, lk, None, False, events)
    assert len(_rolls(events)[0]) == 3
    al = Allowance(clear=18.0, rough=18.0, road=18.0)
    assert lk.radio
    assert move_problem(s, lk, al, (24.0, 32.0), None) is None or "24" not in str(
        move_problem(s, lk, al, (24.0, 32.0), None)
    )
    problem = move_problem(s, lk, al, (35.0, 20.0), None)  # 25 in. from the cell's leader
    assert problem is not None and "within 24 in." in problem
    lk.radio = False
    problem = move_problem(s, lk, al, (23.0, 20.0), None)  # 13 in.
    assert problem is not None and "within 12 in." in problem
    assert move_problem(s, lk, al, (21.0, 20.0), None) is None
    lk.formation = "close"
    fig = s.unit_figures(lk)[0]
    assert combat.category(world(s), s, fig, lk, (20.0, 10.0)) == "II"
    del cell


def test_a_charged_scout_evades_back_to_his_unit() -> None:
    """bookgun.move.scouts - p.17 (4.5): if charged, a scout may evade back to his parent unit
    (house: he does)."""
    s = _raid()
    _place(s, "cell", 8.0, 18.0)
    _place(s, "lookout", 18.0, 16.0)
    _down(s, (18.0, 11.0))
    _card(s)
    act = Action("charge", unit="squad", target="lookout")
    assert act in list(Charge().options(s, "army"))
    events = Charge().resolve(s, "army", act)
    assert any(e.kind == "evade" for e in events)
    lk = s.unit_figures(s.units["lookout"])[0]
    assert abs(lk.x - 8.0) <= 3.0 and abs(lk.y - 18.0) <= 3.0


def test_civilian_mobs_have_no_scouts(tmp_path: Path) -> None:
    """bookgun.move.scouts - p.17 (4.5): civilian mobs may not use scouts - a scenario giving one is
    refused."""
    text = (SCENARIOS / "market-day.yaml").read_text()
    scout = (
        "  - {id: civ-scout, name: Watcher, side: civilians, troop: civilians, quality: none,"
        " formation: open, at: [20, 20], scout_of: crowd,"
        " figures: [{id: w1, name: Watcher, weapon: unarmed}]}\n"
        "victory:"
    )
    bad = tmp_path / "scout.yaml"
    bad.write_text(text.replace("victory:", scout, 1))
    with pytest.raises(DataFileError, match="civilian mobs have no scouts"):
        load_scenario_file(bad)


def test_night_raid_loads_with_its_night_vehicle_smoke_slope_and_scout() -> None:
    """The scenario data that puts these rules in play (house scenario)."""
    w = world_for("night-raid", None)
    assert w.spec.light == "night" and w.spec.laser_sights == ["army"]
    assert w.spec.thermal_sights == ["army"] and w.smoke and w.slopes
    units = {u.id: u for u in w.spec.units}
    assert units["humvee"].vehicle == "light_wheeled" and units["squad"].aboard == "humvee"
    assert units["lookout"].scout_of == "cell"


# -- bookgun.building.doors and bookgun.building.breach (p.19 4.3, spec §3.9) ----------------------
def _cell_seen_in_k1(s: BookGunState) -> None:
    """Reveal the cell (under its marker in K1 after the first-choice set-up; the two men
    K1 has no room for, put in K2 by the set-up, are moved into K1 for the test)."""
    cell = s.units["cell"]
    assert all(f.room == "K1" for f in s.unit_figures(cell)[:4])
    for f in s.unit_figures(cell):
        f.room, f.x, f.y = "K1", 8.0, 27.0
    _place(s, "lookout", 33.0, 25.0)  # out of the lookout's set-up room K2
    events = combat.reveal(s, s.markers[str(cell.marker)], "is seen")
    assert events and not cell.concealed


def test_the_doors_of_a_building_the_enemy_holds_are_locked() -> None:
    """bookgun.building.doors - p.19 (4.3): a door is locked (barricaded) if the building is
    occupied by the enemy; to open it a shaped charge must be planted. The cell holds K1 of the
    compound house: its door (into K2) is locked to the army, though K2 itself is empty; a
    building the army cannot see anyone in stays open (house: hidden occupants are found by
    going in)."""
    s = _raid()
    _down(s, (16.0, 27.0))
    squad = s.units["squad"]
    al = Allowance(clear=12.0, rough=12.0, road=12.0)
    assert move_problem(s, squad, al, None, "K2") is None  # the cell is still hidden
    _cell_seen_in_k1(s)
    assert all(f.room != "K2" for f in s.figures.values())
    problem = move_problem(s, squad, al, None, "K2")
    assert problem is not None and "locked" in problem
    problem = move_problem(s, squad, al, None, "K1")
    assert problem is not None and "held by the enemy" in problem


def test_a_shaped_charge_placed_at_the_wall_blows_in_the_fire_phase_and_opens_it() -> None:
    """bookgun.building.breach (house; p.19 4.3 names the shaped charge, the procedure is cut
    off, open question 12): a figure at an outer wall spends his move placing a charge; it blows
    at the end of the fire phase, making an opening that is never locked; those in the room
    within 2 in. roll a d20 at the Cat II blast number (10: exactly 1/2 each)."""
    from umpire.rulesets.bookgun.chances import RollUnder
    from umpire.rulesets.bookgun.ruleset import Breach, blow_charges, breach_spots

    s = _raid()
    _cell_seen_in_k1(s)
    _down(s, (12.0, 31.0))  # north of K2's wall (y 30)
    squad = s.units["squad"]
    tl = s.figures["sq-tl1"]
    assert tl.charges == 1
    tl.x, tl.y = 12.5, 31.0
    spots = breach_spots(s, squad)
    assert "K2" in spots and spots["K2"][0].id in ("sq-tl1", "sq-tl2")
    assert "K1" not in spots  # nobody carrying a charge stands at K1's wall
    _card(s)
    act = Action("breach", unit="squad", option="K2")
    assert act in list(Breach().options(s, "army"))
    who = spots["K2"][0]
    events = Breach().resolve(s, "army", act)
    assert any(e.kind == "breach" for e in events) and who.charges == 0
    assert squad.moved and "squad" in s.acted
    al = Allowance(clear=12.0, rough=12.0, road=12.0)
    assert "locked" in str(move_problem(s, squad, al, None, "K2"))  # not blown yet
    victim = s.unit_figures(s.units["cell"])[0]
    victim.room, victim.x, victim.y = "K2", 12.0, 29.5  # 0.5 in. from the charge
    far = s.unit_figures(s.units["cell"])[1]
    assert far.room == "K1"  # in the next room: untouched
    events = blow_charges(s)
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls) == 1 and "need 10 or less" in rolls[0].text
    assert victim.name in rolls[0].text
    assert RollUnder(20, 10, "bookgun.building.breach").outcomes()[True] == Fraction(1, 2)
    assert s.breaches[0]["blown"]
    victim.status = "killed"  # K2 free of the enemy: the opening lets the squad in
    _down(s, (12.0, 32.0))
    assert move_problem(s, squad, al, None, "K2") is None
    assert blow_charges(s) == [] or not [e for e in blow_charges(s) if e.kind == "breach"]


# -- bookgun.move.artillery (p.16 3.1-3.4) ---------------------------------------------------------
def _gun(s: BookGunState) -> None:
    """Night Raid's SPG-9 team (recoilless rifle, gunner, loader, assistant: one short of the
    four-man crew) on the hillside; the squad dismounted 10 in. south-west of it."""
    _down(s, (24.0, 14.0))
    _card(s, "5-hearts")  # an insurgent card


def test_a_gun_fires_he_as_a_blast_and_push_and_fire_reloads_two_turns() -> None:
    """bookgun.move.artillery - p.16 (3.2): light artillery and recoilless rifles may move and
    shoot but must reload 2 full turns; spec §4.1: a gun firing HE at men is a blast weapon.
    Unmoved, the rifle takes the base reload marker and its blast weapon's extra one (2);
    manhandled this turn, 2 more for push and fire (4)."""
    s = _raid()
    _gun(s)
    spg = s.units["spg"]
    gun = s.figures["spg-gun"]
    shots = combat.plan_shots(s, spg, [gun], s.units["squad"], False)
    assert shots and shots[0].blast == "recoilless_rifle" and shots[0].dice == 1
    combat.resolve_fire(s, spg, [gun], "squad", False)
    # on the gun's own markers (spec §4.1 step 5: kept per weapon group), not the crew's rifles
    assert spg.reload_heavy == 2 and spg.reload == 0
    s2 = _raid()
    _gun(s2)
    s2.units["spg"].moved = True  # it was manhandled this turn
    assert combat.gun_serves(s2, s2.units["spg"])
    combat.resolve_fire(s2, s2.units["spg"], [s2.figures["spg-gun"]], "squad", False)
    assert s2.units["spg"].reload_heavy == 4


def test_manhandling_needs_two_figures_and_heavy_guns_neither_push_nor_fire_after_moving() -> None:
    """bookgun.move.artillery - p.16 (3.1): at least two figures are needed to move a gun, and
    only light artillery and recoilless rifles may be manhandled; the move is the whole turn at
    the push-and-fire rate (spec §4.6: 1D6). (3.2): no other artillery may move and shoot."""
    s = _raid()
    _gun(s)
    spg = s.units["spg"]
    opts = [a.option for a in Activate().options(s, "insurgents") if a.unit == "spg"]
    assert "manhandle" in opts and "limber" in opts and None not in opts
    events = Activate().resolve(s, "insurgents", Action("activate", unit="spg", option="manhandle"))
    assert len(_rolls(events)[0]) == 1
    assert s.flow.stack[-1].data["clear"] == max(1.0, sum(_rolls(events)[0]))
    s.flow.stack.clear()
    s.figures["spg-l"].status = "killed"
    s.figures["spg-a"].status = "killed"  # one crewman left
    opts = [a.option for a in Activate().options(s, "insurgents") if a.unit == "spg"]
    assert "manhandle" not in opts
    spg.gun = "heavy_gun"
    s.figures["spg-l"].status = s.figures["spg-a"].status = "fit"
    opts = [a.option for a in Activate().options(s, "insurgents") if a.unit == "spg"]
    assert "manhandle" not in opts
    assert combat.gun_serves(s, spg)
    spg.moved = True
    assert not combat.gun_serves(s, spg)
    assert s.figures["spg-gun"] not in combat.firing_figures(s, spg)


def test_limbering_takes_a_turn_and_one_more_per_missing_crewman() -> None:
    """bookgun.move.artillery - p.16 (3.3): one full turn to limber or unlimber with a full
    crew, one turn more per crewman under a full crew (four, p.6). Three men: two turns, in
    which the gun neither fires nor moves; limbered, it does not fire and may be towed."""
    from umpire.rulesets.bookgun.ruleset import _turn_begin

    s = _raid()
    _gun(s)
    spg = s.units["spg"]
    events = Activate().resolve(s, "insurgents", Action("activate", unit="spg", option="limber"))
    assert events[0].get("turns") == 2 and spg.limbering == "limber"
    assert not combat.gun_serves(s, spg)
    for turn in (2, 3):
        s.flow.turn = turn
        _turn_begin(s)
        _card(s, "5-hearts")
        if turn == 2:
            assert spg.limbering == "limber" and not spg.limbered
            assert not [a for a in Activate().options(s, "insurgents") if a.unit == "spg"]
    assert spg.limbered and spg.limbering is None
    assert not combat.gun_serves(s, spg)
    assert Action("activate", unit="spg", option="unlimber") in list(
        Activate().options(s, "insurgents")
    )


def test_prone_gunners_may_not_fire_the_gun() -> None:
    """bookgun.move.artillery - p.16 (3.4): gun crewmen may go prone around a gun in action but
    may not fire the gun while prone."""
    s = _raid()
    _gun(s)
    spg = s.units["spg"]
    assert s.figures["spg-gun"] in combat.firing_figures(s, spg)
    Activate().resolve(s, "insurgents", Action("activate", unit="spg", option="prone"))
    assert all(f.prone for f in s.unit_figures(spg) if f.role != "gun")
    assert not combat.gun_serves(s, spg)
    assert s.figures["spg-gun"] not in combat.firing_figures(s, spg)


def test_a_limbered_gun_is_towed_crew_aboard_and_guns_keep_out_of_walls_and_houses() -> None:
    """bookgun.move.artillery / bookgun.move.vehicles - p.15 (2.6): a limber carries only the
    crew of the gun it tows; p.19 (3.1 d): guns may not cross walls (house: nor go indoors).
    The gun is no target (spec §4.8)."""
    s = _raid()
    _gun(s)
    spg = s.units["spg"]
    assert mount_choices(s, spg) == []  # unlimbered: nothing to hook on
    spg.limbered = True
    s.units["humvee"].side = "insurgents"  # a borrowed tow for the test
    s.units["squad"].aboard = None
    s.figures["hmv"].x, s.figures["hmv"].y = 33.0, 21.0
    assert [v.id for v in mount_choices(s, spg)] == ["humvee"]
    from umpire.rulesets.bookgun.ruleset import riders

    assert riders(s, spg) == 3
    al = Allowance(clear=10.0, rough=10.0, road=10.0)
    for f in s.unit_figures(spg):
        f.x, f.y = 10.0, 20.5
    assert "may not cross walls" in str(move_problem(s, spg, al, (10.0, 23.0), None))
    assert "building" in str(move_problem(s, spg, al, None, "S1"))
    seen = combat.visible_targets(s, world(s), s.figures["sq-sl"], spg, True)
    assert s.figures["spg-gun"] not in seen


def test_the_odds_of_a_fire_action_at_night_and_from_a_moving_vehicle() -> None:
    """bookgun.los.dark / bookgun.fire.mods in ``umpire odds bookgun`` (the same primitives as
    play): one rifle at 10 in. on Cat II needs 5 (1/4) by day, 3 at night without goggles or
    laser (3/20); an HMG from a vehicle in motion at 10 in. on Cat II: 7 - 4 = 3, five dice."""
    from umpire.rulesets.bookgun.odds_cli import ODDS, fire_parts

    t = world_for("night-raid", None).tables
    (day,) = fire_parts(t, "assault_rifle", 10.0, "II", "regular", False)
    (night,) = fire_parts(t, "assault_rifle", 10.0, "II", "regular", False, night=True)
    assert (day.number, night.number) == (5, 3)
    assert night.outcomes()[1] == Fraction(3, 20)
    (hmg,) = fire_parts(t, "hmg", 10.0, "II", "regular", True, moving_vehicle=True)
    assert (hmg.count, hmg.number) == (5, 3)
    data, _ = ODDS.answer(
        {"mode": "fire", "weapons": "assault_rifle", "range": 10.0, "category": "II", "night": True}
    )
    assert "1d20 <= 3" in str(data)


def test_a_scout_evading_to_a_hidden_unit_names_only_its_marker() -> None:
    """bookgun.move.scouts / bookgun.conceal.markers: a charged scout whose cell is still under
    its marker runs back to the marker; the event the army reads names the marker, never the
    unit under it (the marker is now known to hold troops, as when it stirs)."""
    s = _raid()
    cell = s.units["cell"]
    assert cell.concealed and cell.marker in s.markers
    marker = s.markers[str(cell.marker)]
    _place(s, "lookout", 18.0, 16.0)
    _down(s, (18.0, 11.0))
    _card(s)
    events = Charge().resolve(s, "army", Action("charge", unit="squad", target="lookout"))
    evade = next(e for e in events if e.kind == "evade")
    assert f"marker {marker.id}" in evade.text and cell.name not in evade.text
    assert marker.stirred


def test_the_enemy_does_not_see_who_rides_inside_an_armoured_vehicle() -> None:
    """bookgun.move.mount (house) with bookgun.spot.roll: Night Raid's Humvee is armoured, so
    the insurgents' view, the events they read and their board hold the vehicle but not the
    squad inside - its holding back and its spotting name only the vehicle - until it
    dismounts in their sight; the army sees its own men throughout."""
    from umpire.rulesets.bookgun import RULESET
    from umpire.rulesets.bookgun.ruleset import Hold

    s = _raid()
    ins, army = RULESET.observation(s, "insurgents"), RULESET.observation(s, "army")
    assert "squad" in army["units"] and "sq-sl" in army["figures"]
    assert "squad" not in ins["units"] and not [f for f in ins["figures"] if f.startswith("sq-")]
    assert "humvee" in ins["units"]
    _card(s)
    (ev,) = Hold().resolve(s, "army", Action("hold", unit="squad"))[:1]
    assert ev.seen_by("army") is ev and ev.seen_by("insurgents") is None
    assert "squad" not in RULESET.observation(s, "insurgents")["acted"]
    w = _with(s, light="day")
    probe = [s.figures["c-l"]]
    probe[0].x, probe[0].y, probe[0].room = 18.0, 12.0, None
    events: list[Event] = []
    combat._look(s, w, [s.units["squad"]], probe, "the cell", events, static=False)
    assert "someone inside Humvee" in events[-1].text and "Raid squad" not in events[-1].text
    s2 = _raid()
    s2.figures["hmv"].x, s2.figures["hmv"].y = 18.0, 6.0
    carry(s2, s2.units["humvee"])
    _card(s2)
    Activate().resolve(s2, "army", Action("activate", unit="squad", option="dismount"))
    assert "squad" in RULESET.observation(s2, "insurgents")["units"]
