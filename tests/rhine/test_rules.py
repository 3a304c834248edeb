"""A test per rule, following the rules' own procedure on positions built by hand."""

from __future__ import annotations

import pytest

from tests.rhine.helpers import board, dests, take_suggested_setup
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import seen_by
from umpire.core.flow import Pending, SecretCommit
from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.model import World
from umpire.rulesets.rhine.ruleset import (
    ENGINE,
    admin_end,
    apply_result,
    check_victory,
    world,
)
from umpire.rulesets.rhine.state import RhineState


def w_of(state: RhineState) -> World:
    return world(state)


# -- sequence, order, air, EW ------------------------------------------------------------------
def test_order_pact_then_nato_and_turn1_air_ew_rhine_order_choose_air_turn1_ew_turn1() -> None:
    """rhine.order.choose: the Pact picks first, then NATO; rhine.air.turn1 / rhine.ew.turn1: on
    turn 1 the Pact holds air and EW superiority with 1d6 markers each, rolled, no contest;
    rhine.sequence.turn: order, then air, then EW."""
    g = Game(RULESET, "autobahn-gap", 3)
    take_suggested_setup(g)
    assert g.to_act == "pact" and {a.option for a in g.legal_actions()} == {
        "move-fight",
        "fight-move",
    }
    g.apply(Action("order", option="fight-move"))
    assert g.to_act == "nato"
    g.apply(Action("order", option="move-fight"))
    assert g.state.air_holder == "pact" and 1 <= g.state.air_to_place <= 6
    rolls = [e for e in g.events if e.get("rule") == "rhine.air.turn1"]
    assert rolls and rolls[0]["kind"] == "roll"
    while g.state.flow.phase == "air":
        g.apply(
            Action("place_air", cell="0605")
            if "0605" not in g.state.air_markers
            else Action("stop_air")
        )
    assert g.state.flow.phase == "ew" and g.state.ew_holder == "pact"
    assert any(e.get("rule") == "rhine.ew.turn1" for e in g.events)


def test_air_markers_one_per_hex_rhine_air_place() -> None:
    """rhine.air.place: the holder places its markers one per hex."""
    g = Game(RULESET, "autobahn-gap", 3)
    take_suggested_setup(g)
    g.apply(Action("order", option="fight-move"))
    g.apply(Action("order", option="move-fight"))
    g.apply(Action("place_air", cell="0605"))
    if g.state.air_to_place:
        with pytest.raises(IllegalActionError):
            g.apply(Action("place_air", cell="0605"))


def test_ew_marks_stack_max_two_and_strips_air_rhine_ew_use() -> None:
    """rhine.ew.use: a marker goes on an enemy stack (every unit in it carries it,
    rhine.ew.status), at most two per hex; or one marker removes one enemy air marker."""
    s = board({"N-3-TB1": "0605", "N-3-MI1": "0605", "P-79-TR1": "1105"})
    s.ew_holder, s.ew_to_place = "pact", 3
    s.flow.phase = "ew"
    ENGINE.kinds["ew_mark"].resolve(s, "pact", Action("ew_mark", cell="0605"))
    ENGINE.kinds["ew_mark"].resolve(s, "pact", Action("ew_mark", cell="0605"))
    assert s.ew == {"N-3-TB1": 2, "N-3-MI1": 2}
    assert Action("ew_mark", cell="0605") not in ENGINE.kinds["ew_mark"].options(s, "pact")
    s.air_holder, s.air_markers = "nato", ["0905"]
    ENGINE.kinds["ew_strip"].resolve(s, "pact", Action("ew_strip", cell="0905"))
    assert s.air_markers == []


# -- movement ----------------------------------------------------------------------------------
def test_terrain_costs_and_no_minimum_move_rhine_move_costs_no_minimum() -> None:
    """rhine.move.costs: MP per hex from the TEC (forest 2, clear 1); rhine.move.no_minimum: with
    no MP a unit moves not even one hex."""
    s = board({"N-3-TB1": "0310"})
    d = dests(s, "N-3-TB1")
    assert w_of(s).terrain["0410"] == "forest" and d["0410"] == 2
    assert w_of(s).terrain["0210"] == "clear" and d["0210"] == 1
    s.ew["N-3-TB1"] = 2  # MA 0: not even one hex
    assert dests(s, "N-3-TB1") == {}


def test_road_autobahn_and_bridge_rhine_tec_chart() -> None:
    """rhine.tec.chart: autobahn 1/2 MP along it, across the bridge without the river's cost; a
    minor river hexside off the road +1."""
    s = board({"N-3-TB1": "0705"})
    d = dests(s, "N-3-TB1")
    assert d["0605"] == 0.5  # along the autobahn over the bridge: no river cost
    assert d["0505"] == 1.0
    s = board({"N-3-TB1": "0706"})
    d = dests(s, "N-3-TB1")
    assert d["0606"] == 2.0  # clear 1 + minor river 1


def test_ezoc_nonrecon_stops_and_no_zoc_to_zoc_rhine_zoc_nonrecon() -> None:
    """rhine.zoc.nonrecon: a non-recon unit stops on entering an EZOC hex, so nothing beyond the
    belt is reachable through it; by day it may not leave one."""
    s = board({"N-3-TB1": "0505", "P-79-TR1": "0805"})
    d = dests(s, "P-79-TR1")
    # 0705 and 0706 are next to nothing NATO; 0604/0605/0606 are in the tank's ZOC
    assert "0604" in d or "0606" in d
    # nothing west of the ZOC belt is reachable through it
    assert "0404" not in d and "0405" not in d
    # by day a unit that starts in an EZOC cannot leave it
    s2 = board({"N-3-TB1": "0505", "P-79-TR1": "0605"}, turn=1)
    assert not dests(s2, "P-79-TR1")


def test_leaving_ezoc_at_night_costs_one_more_rhine_zoc_nonrecon() -> None:
    """rhine.zoc.nonrecon: at night a unit may leave an EZOC hex for +1 MP, never straight into
    another EZOC hex."""
    s = board({"N-3-TB1": "0505", "P-79-TR1": "0605"}, turn=3)  # T3 is night
    d = dests(s, "P-79-TR1")
    assert d and "0705" in d and d["0705"] == 0.5 + 1  # autobahn 1/2 + leaving 1
    # never straight from one EZOC hex into another: 0604 only by a detour out of the zone
    assert d["0604"] > d["0705"]


def test_recon_pays_but_need_not_stop_rhine_zoc_recon() -> None:
    """rhine.zoc.recon: a recon unit pays to enter an EZOC but need not stop there."""
    s = board({"N-3-TB1": "0502", "P-79-RB": "0803"})
    d = dests(s, "P-79-RB")
    zone = R.ezoc(w_of(s), R.occupancy(w_of(s), s), "pact")
    assert any(h not in zone and h[:2] in ("03", "04") for h in d)  # slipped past


def test_column_doubles_ma_and_its_bans_rhine_move_column() -> None:
    """rhine.move.column: MA doubled; not for an EW-marked unit, nor from a hex in enemy air
    range."""
    s = board({"N-3-TB1": "0210"})
    assert max(dests(s, "N-3-TB1", "column").values()) > 6
    s.ew["N-3-TB1"] = 1
    assert dests(s, "N-3-TB1", "column") == {}
    s = board({"N-3-TB1": "0210"})
    s.air_holder, s.air_markers = "pact", ["0410"]
    assert dests(s, "N-3-TB1", "column") == {}  # starts in enemy air range


def test_air_range_costs_one_more_rhine_air_effect_move() -> None:
    """rhine.air.effect.move: +1 MP to enter a hex in range of an enemy air marker."""
    s = board({"N-3-TB1": "0210"})
    base = dests(s, "N-3-TB1")["0310"]
    s.air_holder, s.air_markers = "pact", ["0910"]
    assert dests(s, "N-3-TB1")["0310"] == base + 1


def test_refugees_cost_one_more_rhine_move_refugees() -> None:
    """rhine.move.refugees: +1 MP into a refugee hex; rhine.move.column.refugees: column movement
    may not enter it."""
    s = board({"N-3-TB1": "0210"})
    base = dests(s, "N-3-TB1")["0310"]
    s.refugees = ["0310"]
    assert dests(s, "N-3-TB1")["0310"] == base + 1
    assert "0310" not in dests(s, "N-3-TB1", "column")  # rhine.move.column.refugees


def test_ew_halves_and_stops_ma_rhine_ew_effect_one_two() -> None:
    """rhine.ew.effect.one: one marker halves MA, rounded up (9 -> 5); rhine.ew.effect.two: two
    markers, MA 0."""
    s = board({"P-79-RB": "1205"})
    assert R.movement_allowance(w_of(s), s, "P-79-RB") == 9
    s.ew["P-79-RB"] = 1
    assert R.movement_allowance(w_of(s), s, "P-79-RB") == 5
    s.ew["P-79-RB"] = 2
    assert R.movement_allowance(w_of(s), s, "P-79-RB") == 0


def test_static_never_moves_rhine_move_static() -> None:
    """rhine.move.static: a static garrison has no move."""
    s = board({"N-HS-W": "0204"})
    assert R.move_options(w_of(s), s, "N-HS-W", 1) == []


# -- stacking ----------------------------------------------------------------------------------
def test_stacking_rhine_stack_pact_nato_independent() -> None:
    """rhine.stack.pact: two Pact units of one division; rhine.stack.independent: a unit with no
    division stacks with any of its nation; rhine.stack.nato: three NATO units of one
    division, West German garrisons not counted."""
    s = board({})
    w = w_of(s)
    u = w.units
    assert R.stack_ok(w, [u["P-79-TR1"], u["P-79-TR2"]])
    assert not R.stack_ok(w, [u["P-79-TR1"], u["P-79-TR2"], u["P-79-MRR"]])
    assert not R.stack_ok(w, [u["P-79-TR1"], u["P-27-TR"]])
    assert R.stack_ok(w, [u["P-79-TR1"], u["P-AAB"]])  # no division: any of its nation
    assert R.stack_ok(w, [u["N-3-TB1"], u["N-3-TB2"], u["N-3-MI1"], u["N-HS-M"]])
    assert not R.stack_ok(w, [u["N-3-TB1"], u["N-11-SQ1"]])
    assert not R.stack_ok(w, [u["N-3-TB1"], u["N-5-PzB"]])


def test_pact_may_not_pass_through_a_full_stack_rhine_stack_pact() -> None:
    """rhine.stack.pact: the limit holds during movement, so a full stack cannot be passed
    through."""
    s = board({"P-79-TR1": "1105", "P-79-TR2": "1005", "P-79-MRR": "1005"})
    d = dests(s, "P-79-TR1")
    assert "1005" not in d


# -- combat ------------------------------------------------------------------------------------
def test_drms_air_cap_armour_ew_terrain_rhine_drm() -> None:
    """rhine.drm.air / rhine.air.effect.combat: +1 per holder's marker in range of the defending
    hex, capped by rhine.air.drm_cap (3 here); rhine.drm.armour: +2 for Soviet tanks when
    the defender has none; rhine.drm.terrain: the best single terrain DRM (city -2 over the
    river -1); rhine.drm.ew / rhine.ew.effect.combat: -1 for an EW-marked attacker, +1 for
    an EW-marked defender."""
    s = board({"P-79-TR1": "0705", "N-3-MI1": "0605"})
    s.air_holder, s.air_markers = "pact", ["0605", "0505", "0705", "0805"]
    fig = R.combat_figures(w_of(s), s, "pact", "0605", ["P-79-TR1"], ["N-3-MI1"])
    drms = {m.rule: m.value for m in fig.drms}
    assert drms["rhine.drm.air"] == 3  # four markers, capped at 3
    assert drms["rhine.drm.armour"] == 2  # Soviet tanks, no defending tanks
    assert drms["rhine.drm.terrain"] == -2  # city beats the river
    s.ew["P-79-TR1"] = 1
    s.ew["N-3-MI1"] = 1
    fig = R.combat_figures(w_of(s), s, "pact", "0605", ["P-79-TR1"], ["N-3-MI1"])
    assert sorted(m.value for m in fig.drms if m.rule == "rhine.drm.ew") == [-1, 1]


def test_river_drm_only_when_every_attacker_crosses_rhine_drm_terrain() -> None:
    """rhine.drm.terrain: the river hexside counts only if every attacking unit attacks across
    it."""
    s = board({"P-79-TR1": "0706", "P-79-TR2": "0607", "N-3-MI1": "0606"})
    one = R.combat_figures(w_of(s), s, "pact", "0606", ["P-79-TR1"], ["N-3-MI1"])
    both = R.combat_figures(w_of(s), s, "pact", "0606", ["P-79-TR1", "P-79-TR2"], ["N-3-MI1"])
    assert any(m.rule == "rhine.drm.terrain" for m in one.drms)
    assert not any(m.rule == "rhine.drm.terrain" for m in both.drms)


def test_defence_only_and_heliborne_division_rhine_combat_defonly_heliborne_div() -> None:
    """rhine.combat.defonly: a defence-only unit never attacks; rhine.combat.heliborne_div:
    heliborne units do not attack with another division."""
    s = board({"N-HS-M": "0605", "P-79-TR1": "0705"})
    assert R.attackers_eligible(w_of(s), s, "nato", "0705", set(), None) == []
    assert not R.heliborne_ok(w_of(s), ["P-AAB", "P-79-TR1"])
    assert R.heliborne_ok(w_of(s), ["P-AAB"])


def _combat_state() -> RhineState:
    s = board({"P-79-TR1": "0805", "P-79-TR2": "0805", "N-3-MI1": "0705"})
    s.order = {"pact": "fight-move", "nato": "move-fight"}
    s.flow.phase = "pact_1"
    s.phase_done = False
    return s


def test_cs_is_secret_and_simultaneous_rhine_cs_secret() -> None:
    """rhine.cs.secret: both sides commit blind and the reveal shows both at once;
    rhine.order.effect.cs: each side's artillery limit follows its own order; rhine.cs.use:
    committed markers are used for the turn."""
    s = _combat_state()
    ev = RULESET.apply(s, Action("attack", cell="0705", units=("P-79-TR1", "P-79-TR2")))
    assert isinstance(s.flow.stack[-1], SecretCommit)
    assert RULESET.to_act(s) == "pact"
    ev = RULESET.apply(s, Action("cs", option="artillery:USSR=3"))
    assert RULESET.to_act(s) == "nato"
    # NATO sees only that the Pact has committed
    assert all("USSR=3" not in e.text for e in seen_by(ev, "nato"))
    obs = RULESET.observation(s, "nato")
    assert obs["flow"]["stack"][-1]["committed"] == {"pact": "hidden"}
    assert "USSR=3" not in str(obs)
    # the limit follows each side's own order choice: NATO chose move-fight -> 1 artillery
    nato_opts = {a.option for a in RULESET.legal_actions(s)}
    assert "artillery:US=2" not in nato_opts and "artillery:US=1" in nato_opts
    ev = RULESET.apply(s, Action("cs", option="artillery:US=1"))
    reveal = [e for e in ev if e["kind"] == "cs_reveal"]
    assert reveal and reveal[0].visible_to is None and "USSR=3" in reveal[0].text
    assert sum(1 for m in s.cs if m.status == "used") == 4  # rhine.cs.use


def test_cs_limits_rhine_cs_limit_artillery_helicopter_nation() -> None:
    """rhine.cs.limit.artillery: 3 for fight-move, 6 when the Pact attacks a city;
    rhine.cs.limit.helicopter / rhine.air.heli_cs: two helicopters, none if the defending
    hex is in enemy air range; rhine.cs.heliborne: a heliborne side commits no artillery."""
    s = _combat_state()
    w = w_of(s)
    assert R.cs_limits(w, s, "pact", "pact", "0705", ["P-79-TR1"], s.order)[:2] == (3, 2)
    assert R.cs_limits(w, s, "pact", "pact", "0605", ["P-79-TR1"], s.order)[0] == 6  # city
    s.air_holder, s.air_markers = "nato", ["0705"]
    assert R.cs_limits(w, s, "pact", "pact", "0705", ["P-79-TR1"], s.order)[1] == 0
    assert R.cs_limits(w, s, "pact", "pact", "0705", ["P-AAB"], s.order)[0] == 0


def test_dr_retreat_away_and_pact_must_advance_then_momentum_rhine_retreat_advance() -> None:
    """rhine.retreat.path: each hex retreated into is farther from the attackers; rhine.advance:
    the Pact must advance at least one unit into the vacated hex, which it then controls;
    rhine.momentum: a momentum decision follows."""
    s = _combat_state()
    s.combat = {
        "attacker": "pact",
        "target": "0705",
        "units": ["P-79-TR1", "P-79-TR2"],
        "from": ["0805"],
        "defenders": ["N-3-MI1"],
        "momentum": False,
        "todo": [],
    }
    apply_result(s, "DR1")
    w = w_of(s)
    new = s.pos["N-3-MI1"]
    if isinstance(s.flow.stack[-1], Pending) and s.flow.stack[-1].stage == "retreat":
        RULESET.apply(s, RULESET.legal_actions(s)[0])
        new = s.pos["N-3-MI1"]
    assert new is not None and w.distance(new, "0805") > w.distance("0705", "0805")
    top = s.flow.stack[-1]
    assert top.stage == "advance"
    assert Action("advance", units=()) not in RULESET.legal_actions(s)  # Pact must advance
    RULESET.apply(s, Action("advance", units=("P-79-TR1",)))
    assert s.pos["P-79-TR1"] == "0705" and s.control["0705"] == "pact"
    if s.flow.stack:
        assert s.flow.stack[-1].stage == "momentum"


def test_static_garrison_dies_on_a_retreat_result_rhine_move_static() -> None:
    """rhine.move.static: a retreat result eliminates a static garrison."""
    s = board({"P-79-TR1": "0705", "N-HS-M": "0605"})
    s.combat = {
        "attacker": "pact",
        "target": "0605",
        "units": ["P-79-TR1"],
        "from": ["0705"],
        "defenders": ["N-HS-M"],
        "momentum": False,
        "todo": [],
    }
    apply_result(s, "DR2")
    assert s.status["N-HS-M"] == "eliminated" and s.losses["nato"] == 1


def test_ex_costs_attackers_at_least_the_defence_rhine_crt_results() -> None:
    """rhine.crt.results: EX costs the attacker units whose printed strengths total at least the
    defence."""
    s = board({})
    opts = R.ex_loss_options(w_of(s), ["P-79-TR1", "P-79-RB", "P-27-RB"], 5)
    assert ("P-79-TR1",) in opts and ("P-79-RB", "P-27-RB") in opts


def test_probe_into_empty_ezoc_hex_rhine_probe() -> None:
    """rhine.probe: a unit next to an enemy advances into an empty hex of the enemy's zone with no
    combat, once per turn."""
    s = board({"P-79-TR1": "0805", "N-3-MI1": "0705"})
    s.flow.phase = "pact_1"
    s.order = {"pact": "fight-move"}
    probes = [a for a in RULESET.legal_actions(s) if a.kind == "probe"]
    assert probes
    RULESET.apply(s, probes[0])
    assert s.pos["P-79-TR1"] == probes[0].cell and "P-79-TR1" in s.probed


# -- administration and victory ----------------------------------------------------------------
def test_artillery_attrition_is_cumulative_rhine_admin_artillery_attrition() -> None:
    """rhine.admin.artillery_attrition: one artillery marker lost per 4 NATO units eliminated,
    counted cumulatively (7 losses still cost one)."""
    s = board({})
    s.losses["nato"] = 4
    admin_end(s)
    assert sum(1 for m in s.cs if m.side == "nato" and m.status == "lost") == 1
    s.losses["nato"] = 7
    admin_end(s)
    assert sum(1 for m in s.cs if m.side == "nato" and m.status == "lost") == 1


def test_admin_clears_markers_rhine_admin_clear() -> None:
    """rhine.admin.clear: EW and air markers leave the map in the administrative phase."""
    s = board({"N-3-TB1": "0605"})
    s.ew = {"N-3-TB1": 1}
    s.air_markers = ["0101"]
    admin_end(s)
    assert s.ew == {} and s.air_markers == []


def test_sudden_death_rhine_victory_scenario() -> None:
    """rhine.victory.scenario: the Pact holding both Westburg hexes wins at once (spec 5.8)."""
    s = board({})
    s.control["0204"] = s.control["0205"] = "pact"
    check_victory(s)
    assert s.outcome is not None and s.outcome["winner"] == "pact"
