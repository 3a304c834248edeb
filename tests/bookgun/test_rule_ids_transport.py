"""The Book and The Gun: the movement clauses of pages 14-17 beyond foot and ground vehicles -
cavalry, bicycles, boats and amphibious vehicles, helicopters, tank riders, and contiguous units
moving together at road rate on one card. Each test follows the rulebook's wording (seed 002, page
and paragraph cited; spec /work/shared/rules/book-and-gun.md §3.8 and §4.6) and plays through the
same action kinds as a game. The table is the test-only scenario ``tests/bookgun/scenarios/
transport.yaml`` (not shipped, so no scenario's balance changes)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import umpire.rulesets.bookgun.scenario as scenario_mod
from tests.bookgun.test_rule_ids import _place
from umpire.core.actions import Action
from umpire.core.errors import DataFileError, IllegalActionError
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.rulesets.bookgun import RULESET, combat
from umpire.rulesets.bookgun.allowance import Allowance, path_length
from umpire.rulesets.bookgun.common import centre, dist, world
from umpire.rulesets.bookgun.convoy import group_of
from umpire.rulesets.bookgun.mounts import change, horse_holders
from umpire.rulesets.bookgun.movement import (
    carry,
    dice_for,
    do_move,
    formation_points,
    move_problem,
    roll_allowance,
)
from umpire.rulesets.bookgun.riders import ride_choices
from umpire.rulesets.bookgun.ruleset import (
    Activate,
    Charge,
    MoveTo,
    Stay,
    _after,
    mount_choices,
)
from umpire.rulesets.bookgun.scenario import load_scenario_file
from umpire.rulesets.bookgun.state import WOUNDED, BookGunState
from umpire.rulesets.bookgun.watercraft import landing_point

HERE = Path(__file__).parent
SCENARIO = HERE / "scenarios" / "transport.yaml"
BLACK = "5-spades"  # an army card (army black)
NEW = {"get_on", "get_off", "ride", "dismount", "land", "take_off", "convoy"}


@pytest.fixture(autouse=True)
def _test_scenarios(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Load scenarios from tests/bookgun/scenarios for the length of each test."""
    monkeypatch.setattr(scenario_mod, "SCENARIOS", HERE / "scenarios")
    scenario_mod.load_scenario.cache_clear()
    yield
    scenario_mod.load_scenario.cache_clear()


def _state(seed: int = 1) -> BookGunState:
    state = Game(RULESET, "transport", seed).state
    assert isinstance(state, BookGunState)
    return state


def _card(s: BookGunState, card: str = BLACK) -> None:
    s.flow.phase, s.card, s.acted = "movement", card, []
    s.flow.stack.clear()


def _rolls(events: list[Event]) -> list[list[int]]:
    return [list(e.get("dice") or []) for e in events if e.kind == "roll"]


def _mine(s: BookGunState, unit: str) -> list[Action]:
    return [a for a in Activate().options(s, "army") if a.unit == unit]


def _put(s: BookGunState, unit: str, x: float, y: float) -> None:
    """Move a vehicle's model (and whoever rides it) to (x, y)."""
    u = s.units[unit]
    m = s.figures[u.figures[0]]
    m.x, m.y = x, y
    carry(s, u)


def _column(s: BookGunState, unit: str, x: float, y: float) -> None:
    u = s.units[unit]
    u.formation = "column"
    for f, p in zip(
        s.unit_figures(u), formation_points(len(u.figures), (x, y), 90.0, "column"), strict=True
    ):
        f.x, f.y, f.facing, f.room, f.prone = p[0], p[1], 90.0, None, False


# -- bookgun.move.cavalry (p.14 chart, p.17 5.2-5.3) ----------------------------------------------
def test_mounted_cavalry_roll_the_mounted_figure_of_the_chart_and_the_infantry_one_on_foot() -> (
    None
):
    """bookgun.move.cavalry - p.14: 'Numbers such as 4/5 are the number of D6 to be rolled for
    with dismounted infantry/mounted cavalry movement': army column 3/4 across country, 4/5 on a
    road, 3/5 to charge, 4/6 to charge on a road; close order 2/4, 3/5. Mounted, the troop rolls
    the second figure; on foot the first. Rough ground drops the army's highest die (p.14)."""
    s = _state()
    w = world(s)
    troop = s.units["troop"]
    assert troop.ride == "horse" and troop.riding
    assert [dice_for(w, troop, c) for c in ("cross", "road", "charge", "charge_road")] == [
        4,
        5,
        5,
        6,
    ]
    troop.formation = "close"
    assert (dice_for(w, troop, "cross"), dice_for(w, troop, "charge")) == (4, 5)
    troop.riding = False
    assert (dice_for(w, troop, "cross"), dice_for(w, troop, "charge")) == (2, 3)
    troop.formation = "column"
    assert (dice_for(w, troop, "cross"), dice_for(w, troop, "road")) == (3, 4)
    troop.riding = True
    events: list[Event] = []
    al = roll_allowance(s, troop, None, False, events)  # in column on the road: 5 dice
    faces = _rolls(events)[0]
    assert len(faces) == 5
    assert al.road == sum(faces) and al.clear == sum(faces[:4])
    assert al.rough == max(1.0, sum(faces[:4]) - max(faces[:4]))


def test_getting_off_the_horses_is_all_a_troop_does_besides_a_1d6_move_and_no_charge() -> None:
    """bookgun.move.cavalry - p.17 (5.2): units that mount or dismount horses may not charge in
    that phase; mounting or dismounting takes place at the beginning or end of the move, mount or
    dismount, not both; up to 1D6 in that phase; dismounted scouts 2D6 in the phase they mount.
    p.17 (5.3): a quarter of the men hold the horses, rounded in the mounted player's favour
    (18 men -> 4 holders)."""
    s = _state()
    troop = s.units["troop"]
    _card(s)
    opts = _mine(s, "troop")
    assert Action("activate", unit="troop", option="get_off") in opts
    assert not [a for a in opts if a.option in ("prone", "get_on")]  # mounted: no prone (house)
    events = Activate().resolve(s, "army", Action("activate", unit="troop", option="get_off"))
    assert [len(r) for r in _rolls(events)] == [1]
    rolled = sum(_rolls(events)[0])
    assert not troop.riding and troop.mounted == s.flow.turn
    assert s.flow.stack[-1].data["clear"] == max(1, rolled)
    assert any("1 of its men hold the horses" in e.text for e in events)
    far = (centre(s, troop)[0], centre(s, troop)[1] + rolled + 1.5)
    with pytest.raises(IllegalActionError, match="beyond"):
        MoveTo().check(s, "army", Action("move_to", unit="troop", point=far))
    Stay().resolve(s, "army", Action("stay", unit="troop"))
    s.card, s.flow.stack = BLACK, []
    _place(s, "cell", 17.0, 9.0)
    assert not [a for a in Charge().options(s, "army") if a.unit == "troop"]
    assert not _mine(s, "troop")  # its card is spent: it may not get on again this phase
    _card(s)
    assert Action("activate", unit="troop", option="get_on") in _mine(s, "troop")
    assert [a.target for a in Charge().options(s, "army") if a.unit == "troop"] == ["cell"]
    assert horse_holders(world(s), 18) == 4 and horse_holders(world(s), 7) == 1
    troop.scout_of = "cyclists"  # a dismounted scout mounting moves 2D6
    events = []
    change(s, troop, world(s), events)
    assert [len(r) for r in _rolls(events)] == [2] and troop.riding


def test_mounted_figures_stay_out_of_buildings() -> None:
    """bookgun.move.cavalry (house): mounted figures go into no building and climb in at no
    window - they dismount first (p.17 5.2: dismounting at the start of the move)."""
    s = _state()
    al = Allowance(20.0, 20.0, 20.0)
    problem = move_problem(s, s.units["troop"], al, None, "A1")
    assert problem is not None and "dismount before going into a building" in problem


# -- bookgun.move.bicycles (p.14 2.5, p.18 1.4) ---------------------------------------------------
def test_cyclists_roll_3d6_riding_2d6_pushing_and_push_with_the_high_die_lost_in_rough() -> None:
    """bookgun.move.bicycles - p.14: bicycles 2/3 across country and 3/4 on a road (pushing /
    riding); 'Cyclists must dismount in rough terrain and lose the highest die of their
    dismounted movement as well.' On the road in column riding: 4 dice rolled, the first three
    are the cross-country move, the first two (pushing) less their highest the rough-ground move;
    a move into the wood leaves the unit pushing its bicycles."""
    s = _state()
    w = world(s)
    cy = s.units["cyclists"]
    assert [dice_for(w, cy, c) for c in ("cross", "road", "charge")] == [3, 4, 0]
    cy.riding = False
    assert [dice_for(w, cy, c) for c in ("cross", "road")] == [2, 3]
    cy.riding = True
    for _ in range(20):  # twenty rolls of the game's stream
        events: list[Event] = []
        al = roll_allowance(s, cy, None, False, events)
        faces = _rolls(events)[0]
        assert len(faces) == 4
        assert al.clear == sum(faces[:3]) and al.road == sum(faces)
        assert al.rough == max(1.0, sum(faces[:2]) - max(faces[:2]))
    _place(s, "cyclists", 9.5, 13.0)
    where = do_move(s, cy, (6.0, 13.0), None)
    assert not cy.riding and "pushing" in where
    cy.riding = True
    _place(s, "cell", 12.0, 13.0)
    assert Charge().targets(s, cy) == []  # the chart has no charge for bicycles


def test_bicycles_double_their_move_straight_downhill() -> None:
    """bookgun.move.slope / bookgun.move.bicycles - p.18 (1.4): steep slopes are climbed at half
    speed and descended straight down at full; 'Bicycles double their downhill movement.' The
    test hill climbs north: riding south straight down counts double, up it half."""
    s = _state()
    cy = s.units["cyclists"]
    al = Allowance(5.0, 5.0, 5.0)
    _place(s, "cyclists", 6.0, 33.0)
    assert path_length(s, cy, al, (6.0, 25.0)) == (8.0, 10.0)
    _place(s, "cyclists", 6.0, 25.0)
    assert path_length(s, cy, al, (6.0, 28.0)) == (3.0, 2.5)
    cy.riding = False
    _place(s, "cyclists", 6.0, 33.0)
    assert path_length(s, cy, al, (6.0, 25.0)) == (8.0, 5.0)


# -- bookgun.move.boats (p.15) -------------------------------------------------------------------
def test_boats_move_only_on_water_and_nothing_else_goes_on_it() -> None:
    """bookgun.move.boats - p.15: 'Boats may only move on water'; motor patrol boats roll 5D6
    (p.14). Troops on foot and land vehicles do not enter water (house: no fording)."""
    s = _state()
    boat = s.units["boat"]
    events: list[Event] = []
    al = roll_allowance(s, boat, None, False, events)
    assert [len(r) for r in _rolls(events)] == [5] and al.clear == sum(_rolls(events)[0])
    al = Allowance(10.0, 10.0, 10.0)
    problem = move_problem(s, boat, al, (22.0, 10.0), None)
    assert problem is not None and "only on water" in problem
    assert move_problem(s, boat, al, (28.0, 14.0), None) is None
    s.units["troop"].riding = False
    problem = move_problem(s, s.units["troop"], al, (27.0, 4.0), None)
    assert problem is not None and "water" in problem
    tank_problem = move_problem(s, s.units["tank"], al, (27.0, 14.0), None)
    assert tank_problem is not None and "water" in tank_problem


def test_a_boat_lands_figures_only_at_the_shore_first_and_then_moves_half() -> None:
    """bookgun.move.boats - p.15: boats mount or dismount by moving next to a wharf or shoreline;
    mounting or dismounting must be done first during the movement phase; boats cannot mount and
    dismount in the same turn; in any turn a boat mounts or dismounts it moves half the distance
    rolled; boats carry up to 9 figures."""
    s = _state()
    boat = s.units["boat"]
    _card(s)
    assert _mine(s, "marines") == []  # 5 in. out on the lake: no one gets off
    _put(s, "boat", 27.0, 10.0)  # 1 in. off the shore
    s.acted.append("boat")  # ... but the boat has already moved this phase
    assert _mine(s, "marines") == []
    _card(s)
    assert _mine(s, "marines") == [Action("activate", unit="marines", option="dismount")]
    Activate().resolve(s, "army", _mine(s, "marines")[0])
    landed = landing_point(s, boat)
    assert landed is not None and landed[0] < 26.0  # on the dry bank
    assert all(not world(s).in_water(f.pos) for f in s.unit_figures(s.units["marines"]))
    assert boat.loaded == "dismount"
    events: list[Event] = []
    al = roll_allowance(s, boat, None, False, events)
    assert al.clear == max(1.0, sum(_rolls(events)[0]) / 2)
    riders = s.units["riders"]
    riders.rides = None
    _place(s, "riders", 23.0, 10.0)
    assert "boat" not in [v.id for v in mount_choices(s, riders)]  # not both in one turn
    s.flow.turn += 1
    assert "boat" in [v.id for v in mount_choices(s, riders)]


# -- bookgun.move.amphibious (p.15) --------------------------------------------------------------
def test_an_amphibious_vehicle_swims_1d6_never_land_and_water_in_one_turn() -> None:
    """bookgun.move.amphibious - p.15: such vehicles move on the water using 1D6; they may not
    move on land and in water in the same turn; they mount or dismount passengers on land only.
    House: a land move may end 1.5 in. at most into the water, a water move that far up the bank."""
    s = _state()
    am = s.units["amtrac"]
    al = Allowance(12.0, 12.0, 12.0)
    assert move_problem(s, am, al, (27.0, 4.0), None) is None
    problem = move_problem(s, am, al, (31.0, 4.0), None)
    assert problem is not None and "land and in water" in problem
    _put(s, "amtrac", 28.0, 4.0)
    events: list[Event] = []
    swim = roll_allowance(s, am, None, False, events)
    assert [len(r) for r in _rolls(events)] == [1] and swim.clear == max(1, _rolls(events)[0][0])
    al = Allowance(6.0, 6.0, 6.0)
    assert move_problem(s, am, al, (32.0, 6.0), None) is None
    assert move_problem(s, am, al, (25.0, 4.0), None) is None  # up the bank
    problem = move_problem(s, am, al, (22.5, 4.0), None)
    assert problem is not None and "land and in water" in problem
    s.units["marines"].aboard = "amtrac"
    carry(s, am)
    _card(s)
    assert _mine(s, "marines") == []  # afloat: nobody gets out
    _put(s, "amtrac", 24.0, 4.0)
    assert _mine(s, "marines") == [Action("activate", unit="marines", option="dismount")]


# -- bookgun.move.helicopters (p.14-16) ----------------------------------------------------------
def test_a_helicopter_lands_to_let_out_or_take_on_never_both_in_one_phase() -> None:
    """bookgun.move.helicopters - p.15-16: helicopters must land in order to mount or dismount
    passengers; landing is done at the beginning of the movement phase, so the helicopter must
    be hovering on the landing zone; they can land and dismount, or mount and take off, in one
    movement phase, and cannot mount and dismount in the same phase."""
    s = _state()
    helo = s.units["helo"]
    _card(s)
    assert _mine(s, "helo") == [Action("activate", unit="helo", option="take_off")]
    assert _mine(s, "air-team") == [Action("activate", unit="air-team", option="dismount")]
    Activate().resolve(s, "army", _mine(s, "air-team")[0])
    assert s.units["air-team"].aboard is None and helo.loaded == "dismount"
    riders = s.units["riders"]
    riders.rides = None
    _place(s, "riders", 7.0, 6.0)
    assert mount_choices(s, riders) == []  # it let men out this phase: it takes none on
    s.flow.turn += 1
    _card(s)
    assert [v.id for v in mount_choices(s, riders)] == ["helo"]
    riders.aboard = "helo"
    carry(s, helo)
    helo.landed = False  # in the air nobody gets in or out
    assert _mine(s, "riders") == []
    assert _mine(s, "helo") == [
        Action("activate", unit="helo"),
        Action("activate", unit="helo", option="land"),
    ]
    _put(s, "helo", 31.0, 10.0)  # hovering over the lake: no landing there
    assert _mine(s, "helo") == [Action("activate", unit="helo")]


def test_a_helicopter_flies_anywhere_keeps_its_facing_sideways_and_hovers_still() -> None:
    """bookgun.move.helicopters - p.14: aircraft do not pay any terrain costs and have an
    unlimited movement allowance; p.15: helicopters can hover (a non-moving target) and move to
    their side while facing 90 degrees to their direction of movement; a vehicle is in motion if
    it used half its move (house for the unlimited helicopter: if it moved at all)."""
    s = _state()
    helo = s.units["helo"]
    _card(s)
    events = Activate().resolve(s, "army", Action("activate", unit="helo", option="take_off"))
    assert not helo.landed and not _rolls(events)
    assert s.flow.stack[-1].data["clear"] == pytest.approx(math.hypot(36, 36))
    over_the_lake = (33.0, 20.0)  # over the wood's corner, the wall and the water
    MoveTo().check(s, "army", Action("move_to", unit="helo", point=over_the_lake))
    MoveTo().resolve(s, "army", Action("move_to", unit="helo", point=over_the_lake))
    model = s.figures["hl"]
    assert model.pos == over_the_lake and helo.in_motion
    assert model.facing == 90.0  # flew diagonally, still facing north
    assert all(f.pos == over_the_lake for f in s.unit_figures(s.units["air-team"]))
    _card(s)  # next phase, flying on: anywhere but off the table or into a building
    Activate().resolve(s, "army", Action("activate", unit="helo"))
    with pytest.raises(IllegalActionError, match="off the table"):
        MoveTo().check(s, "army", Action("move_to", unit="helo", point=(40.0, 20.0)))
    MoveTo().check(s, "army", Action("move_to", unit="helo", point=(2.0, 34.0)))
    assert move_problem(s, helo, Allowance(50.0, 50.0, 50.0), None, "A1") is not None


# -- bookgun.move.tank_riders (p.15 2.9) ---------------------------------------------------------
def test_tank_riders_ride_outside_can_be_shot_and_all_jump_off_when_one_is_hit() -> None:
    """bookgun.move.tank_riders - p.15 (2.9): tanks carry 7 riders outside; tank riders can be
    attacked as personnel targets separately from the vehicle; 'Any attack that is successful on
    any tank riders will cause all tank riders to jump off the vehicle at the point of attack.'"""
    s = _state()
    riders, tank = s.units["riders"], s.units["tank"]
    assert riders.rides == "tank" and riders.aboard is None
    assert combat.targetable(riders) and not combat.targetable(tank)
    do_move(s, tank, (22.0, 20.0), None)
    assert all(f.pos == (22.0, 20.0) for f in s.unit_figures(riders))
    assert riders.moved  # they fire as figures that moved (house)
    _place(s, "cell", 22.0, 25.0, facing=270.0)  # within 6 in.: no spotting roll (p.10)
    targets = combat.fire_targets(s, s.units["cell"], s.unit_figures(s.units["cell"]))
    assert "riders" in targets and "tank" not in targets
    assert _after(s) == []  # no hit, nobody jumps
    s.figures["rd-1"].status = WOUNDED
    events = _after(s)
    assert [e.get("rule") for e in events] == ["bookgun.move.tank_riders"]
    assert riders.rides is None
    assert all(0 < dist(f.pos, (22.0, 20.0)) <= 5.0 for f in s.unit_figures(riders))
    _put(s, "tank", 22.0, 24.0)
    assert all(dist(f.pos, (22.0, 24.0)) > 0.5 for f in s.unit_figures(riders))


def test_climbing_onto_a_tank_is_a_mount_and_only_tanks_and_armoured_cars_take_riders() -> None:
    """bookgun.move.tank_riders - p.15 (2.9): 'Tanks, self-propelled guns and armored cars may
    carry passengers on the outside of the vehicle, each can carry 7 passengers as riders.' House:
    climbing on is the mounting of p.16 (4.2: 1D6 that phase, every figure must reach it); the
    light tracked amphibian takes no riders; riders charge only once off."""
    s = _state()
    riders = s.units["riders"]
    riders.rides = None
    _place(s, "riders", 23.0, 11.0)
    assert [v.id for v in ride_choices(s, riders, False)] == ["tank"]
    _card(s)
    assert Action("activate", unit="riders", option="ride:tank") in _mine(s, "riders")
    boarded = 0
    for seed in range(30):
        s = _state(seed + 1)
        riders = s.units["riders"]
        riders.rides = None
        _place(s, "riders", 22.0, 10.0)  # a row east from 4 in. south of the tank
        far = max(dist(f.pos, s.figures["tk"].pos) for f in s.unit_figures(riders))
        _card(s)
        ride = Action("activate", unit="riders", option="ride:tank")
        events = Activate().resolve(s, "army", ride)
        rolled = sum(_rolls(events)[0])
        on = riders.rides == "tank"
        assert on == (rolled + 1.0 >= far - 1e-9)  # 1D6 plus the 1 in. boarding reach
        if on:
            assert all(f.pos == s.figures["tk"].pos for f in s.unit_figures(riders))
        boarded += on
    assert 3 <= boarded <= 20  # the farthest man 5.4 in. off: a 5 or 6, 1/3
    s = _state()
    _place(s, "riders", 24.0, 5.0)
    s.units["riders"].rides = None
    assert "amtrac" not in [v.id for v in ride_choices(s, s.units["riders"], False)]
    s = _state()
    _place(s, "cell", 22.0, 20.0)
    s.units["riders"].rides = "tank"
    carry(s, s.units["tank"])
    _card(s)
    assert not [a for a in Charge().options(s, "army") if a.unit == "riders"]


def test_riders_beyond_the_vehicle_limit_are_a_one_line_error(tmp_path: Path) -> None:
    """bookgun.move.tank_riders - p.15: at most 7 riders a vehicle; the scenario that puts more on
    names the field; other transport fields are checked the same way (a boat on land, a ride of
    an unknown kind, an amphibious boat)."""
    text = SCENARIO.read_text()
    more = "".join(
        f"      - {{id: rd-x{i}, name: Extra {i}, weapon: assault_rifle}}\n" for i in range(4)
    )
    bad = tmp_path / "riders.yaml"
    bad.write_text(text.replace("  - id: boat\n", more + "  - id: boat\n", 1))
    with pytest.raises(DataFileError) as err:
        load_scenario_file(bad)
    assert str(err.value).startswith(f"{bad}: field units.3.rides: tank carries at most 7 riders")
    assert "\n" not in str(err.value)
    for old, new, field in (
        ("at: [31, 10]", "at: [20, 10]", "units.4.at"),
        ("ride: horse", "ride: camel", "units.0.ride"),
        ("vehicle: patrol_boat", "vehicle: patrol_boat\n    amphibious: true", "units.4"),
        ("landed: true\n    at: [6, 4]", "landed: true\n    at: [30, 4]", "units.7.landed"),
    ):
        path = tmp_path / "bad.yaml"
        path.write_text(text.replace(old, new, 1))
        with pytest.raises(DataFileError) as err:
            load_scenario_file(path)
        assert f"field {field}" in str(err.value) and "\n" not in str(err.value)


# -- bookgun.move.road_column (p.14 2.4, p.16 4.1, p.17 5.1) -------------------------------------
def test_contiguous_units_on_road_rate_move_on_one_card_at_the_slowest_rate() -> None:
    """bookgun.move.road_column - p.16 (4.1): the unit must be on the road in a column up to two
    figures wide; 'A set of contiguous units all moving at road rate may all activate on one card;
    they move at the rate of the slowest unit'; road movement starts and ends on a road. The
    mounted troop rolls 5D6 on the road, the cyclists 4D6: together they roll 4D6 once."""
    s = _state()
    _column(s, "troop", 17.0, 4.0)
    _column(s, "cyclists", 17.0, 7.0)  # its rear rank 1.9 in. from the troop's front
    _card(s)
    convoy = [a for a in Activate().options(s, "army") if a.option == "convoy"]
    assert Action("activate", unit="troop", option="convoy", units=("cyclists",)) in convoy
    events = Activate().resolve(s, "army", convoy[[a.unit for a in convoy].index("troop")])
    faces = _rolls(events)[0]
    assert len(faces) == 4
    data = s.flow.stack[-1].data
    assert data["convoy"] == ["cyclists"] and data["road"] == sum(faces)
    moves = list(MoveTo().options(s, "army"))
    assert moves and all(a.unit == "troop" for a in moves)
    before = {u: centre(s, s.units[u]) for u in ("troop", "cyclists")}
    off = (11.0, before["troop"][1] + 2.0)
    with pytest.raises(IllegalActionError, match="road"):
        MoveTo().check(s, "army", Action("move_to", unit="troop", point=off))
    best = max(moves, key=lambda a: (a.point or (0.0, 0.0))[1])
    MoveTo().check(s, "army", best)
    MoveTo().resolve(s, "army", best)
    assert best.point is not None
    dy = best.point[1] - before["troop"][1]
    assert dy > 0
    after = centre(s, s.units["cyclists"])
    assert after[1] - before["cyclists"][1] == pytest.approx(dy, abs=0.02)
    assert {"troop", "cyclists"} <= set(s.acted)


def test_a_unit_not_in_column_or_off_the_road_is_not_in_the_set_and_a_staying_set_all_stays() -> (
    None
):
    """bookgun.move.road_column - p.16 (4.1): only units on the road in column are on road rate;
    units too far apart are not contiguous (house: within 3 in.). If the set's unit stays, the
    whole set has used its card (house)."""
    s = _state()
    _column(s, "troop", 17.0, 4.0)
    _column(s, "cyclists", 17.0, 7.0)
    s.units["cyclists"].formation = "open"
    assert group_of(s, s.units["troop"], lambda u: True) == [s.units["troop"]]
    _column(s, "cyclists", 17.0, 12.0)  # 6.9 in. apart
    assert len(group_of(s, s.units["troop"], lambda u: True)) == 1
    _column(s, "cyclists", 17.0, 7.0)
    _card(s)
    Activate().resolve(
        s, "army", Action("activate", unit="cyclists", option="convoy", units=("troop",))
    )
    Stay().resolve(s, "army", Action("stay", unit="cyclists"))
    assert {"troop", "cyclists"} <= set(s.acted)


# -- play ----------------------------------------------------------------------------------------
def test_every_way_of_moving_is_played_through_legal_actions_and_apply() -> None:
    """Random legal play on the transport table reaches the end of the game; over a few seeds it
    uses every new activation (get on / off, ride a tank, dismount, land, lift off, convoy)."""
    used: set[str] = set()
    for seed in range(12):
        game = Game(RULESET, "transport", seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if game.state.over is not None:
                break
            # (a defensive circle, bookgun.form.kinds, stands still: not formed in this walk)
            legal = [a for a in game.legal_actions() if a.option != "circle"] or [
                *game.legal_actions()
            ]
            new = [a for a in legal if str(a.option or "").split(":")[0] in NEW]
            action = rng.choice(new if new and rng.random() < 0.5 else legal)
            if action.kind == "activate" and action.option:
                used.add(str(action.option).split(":")[0])
            game.apply(action)
        assert game.state.over is not None
    assert used >= NEW


def test_a_resample_keeps_the_riders_outside_where_both_sides_see_them() -> None:
    """bookgun.move.tank_riders (house: riders stay in view): re-sampling for the search AI keeps
    the observation of either side - riders outside are not re-seated like passengers inside an
    armoured vehicle (bookgun.move.mount)."""
    s = _state()
    for side in ("army", "insurgents"):
        for k in range(5):
            twin = RULESET.resample(s, side, random.Random(k))
            assert RULESET.observation(twin, side) == RULESET.observation(s, side)
            assert twin.units["riders"].rides == "tank"
            assert twin.units["marines"].aboard == "boat"


def test_the_web_table_shows_water_riders_mounts_and_a_landed_helicopter() -> None:
    """The board (bookgun/board.py) draws the lake as water and names, in each unit's stats, the
    vehicle tank riders are on, whether horses or bicycles are ridden and whether the helicopter
    is on the ground - all things both sides see."""
    from umpire.rulesets.bookgun.board import BOARD

    game = Game(RULESET, "transport", 1)
    for viewer in ("army", "insurgents"):
        b = BOARD.board(game, game.observation(viewer), viewer)
        assert any(t["kind"] == "water" for t in b["terrain"])
        stats = {u["id"]: u["stats"] for u in b["units"]}
        assert stats["riders"]["rides"] == "tank"
        assert stats["troop"]["mounts"] == "horse" and stats["troop"]["riding"] is True
        assert stats["cyclists"]["mounts"] == "bicycle"
        assert stats["helo"]["landed"] is True


def test_a_boat_falling_back_stays_on_the_water_and_riders_stay_on_their_tank() -> None:
    """bookgun.move.boats - p.15 'Boats may only move on water', also when a joker (p.13: fall
    back 2D6) or a rout moves them (house: the move stops at the water's edge); a joker's fall
    back or charge for tank riders leaves them on the tank (house, as for passengers)."""
    from umpire.rulesets.bookgun.movement import flee

    for seed in range(10):
        s = _state(seed + 1)
        events: list[Event] = []
        flee(s, s.units["boat"], 2, "bookgun.turn.joker", "falls back", events, (36.0, 10.0))
        model = s.figures["bt"].pos
        assert world(s).in_water(model) and model[0] <= 31.0
        assert all(f.pos == model for f in s.unit_figures(s.units["marines"]))
    s = _state()
    from umpire.rulesets.bookgun.ruleset import Joker

    s.flow.phase, s.card, s.acted = "movement", "joker-2", []
    s.flow.stack.clear()
    for _ in range(12):
        Joker().resolve(s, "army", Action("joker", unit="riders"))
        assert s.units["riders"].rides == "tank"
        assert all(f.pos == s.figures["tk"].pos for f in s.unit_figures(s.units["riders"]))
        s.flow.phase, s.card, s.acted = "movement", "joker-2", []
        s.flow.stack.clear()
        s.units["riders"].extra_die, s.units["riders"].minus_d6 = 0, False
