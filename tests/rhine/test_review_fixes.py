"""Rule discrepancies found by review Y6 (findings F1-F13) and the rules the review found
implemented but untested: each test follows the wording of the specification
(``shared/rules/rhine-operational.md``, cited by section) on a position built by hand."""

from __future__ import annotations

from tests.rhine.helpers import board, dests
from umpire.core.actions import Action
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.ruleset import world
from umpire.rulesets.rhine.state import RhineState
from umpire.rulesets.rhine.victory import victory_points


def _phase(s: RhineState, phase: str, **order: str) -> RhineState:
    s.flow.phase = phase
    s.phase_done = False
    s.order = {"pact": "move-fight", "nato": "move-fight", **order}
    s.memo.clear()
    return s


# -- F1: leaving the map is leaving the hex (spec 3.9, 5.7) --------------------------------------
def test_exit_from_an_enemy_zone_only_at_night_rhine_scenario_exit_rhine_zoc_nonrecon() -> None:
    """rhine.zoc.nonrecon (spec 3.9): a non-recon unit "may leave an EZOC hex only during a
    night turn, paying +1 MP"; rhine.scenario.exit (spec 5.7): leaving the map from column 01
    costs 1 MP. So by day no exit from an EZOC hex, at night 1 + 1 MP."""
    day = board({"P-79-TR1": "0105", "N-3-TB1": "0205"}, turn=1)
    assert "0105" in R.ezoc(world(day), R.occupancy(world(day), day), "pact")
    assert "exit" not in dests(day, "P-79-TR1")
    night = board({"P-79-TR1": "0105", "N-3-TB1": "0205"}, turn=3)
    assert world(night).night(3)
    assert dests(night, "P-79-TR1")["exit"] == 2
    # outside any zone the exit still costs 1 MP (spec 5.7)
    free = board({"P-79-TR1": "0105"}, turn=1)
    assert dests(free, "P-79-TR1")["exit"] == 1


def test_no_exit_in_the_move_that_enters_an_enemy_zone_rhine_zoc_nonrecon() -> None:
    """rhine.zoc.nonrecon (spec 3.9): a non-recon unit entering an EZOC hex "must stop there",
    so it cannot go on off the map in the same move. Through 0103 (in NATO's zone, 4 MP) the
    exit would cost 5 MP; it must go round by 0106, outside every zone, for 4.5 + 1 MP."""
    s = _phase(board({"P-79-TR1": "0302", "N-3-TB1": "0101", "N-3-TB2": "0104"}), "pact_1")
    w = world(s)
    zone = R.ezoc(w, R.occupancy(w, s), "pact")
    assert {"0102", "0103", "0105"} <= zone and "0106" not in zone
    found = R.move_options(w, s, "P-79-TR1", 1, paths=True)
    options = {o.dest: o for o in found if o.mode == "normal"}
    assert options["0103"].cost == 4  # it may move there and stop
    out = options["exit"]
    assert out.path[-1] == "0106" and not zone & set(out.path) and out.cost == 5.5
    # with 0106 in a zone too, no column-01 hex is left to exit from without stopping
    s = _phase(
        board({"P-79-TR1": "0302", "N-3-TB1": "0101", "N-3-TB2": "0104", "N-3-MI1": "0107"}),
        "pact_1",
    )
    assert "exit" not in dests(s, "P-79-TR1")
    assert Action("move", unit="P-79-TR1", cell="exit", option="normal") not in set(
        RULESET.legal_actions(s)
    )


def test_recon_exit_pays_to_leave_the_zone_rhine_zoc_recon() -> None:
    """rhine.zoc.recon (spec 3.9): recon pays "+1 MP to leave an EZOC hex (day or night)", so
    its exit from one costs 1 + 1 MP by day too."""
    s = board({"P-79-RB": "0105", "N-3-TB1": "0205"}, turn=1)
    assert world(s).units["P-79-RB"].recon
    assert dests(s, "P-79-RB")["exit"] == 2


def test_exit_note_names_the_hex_left_rhine_scenario_exit() -> None:
    """rhine.scenario.exit (spec 5.7): the unit leaves the map from a column-01 hex; the log
    names that hex, not the hex the move started in."""
    s = _phase(board({"P-79-TR1": "0302"}), "pact_1")
    events = RULESET.apply(s, Action("move", unit="P-79-TR1", cell="exit", option="normal"))
    assert s.status["P-79-TR1"] == "exited"
    text = events[0].text
    left = text.rsplit(" ", 1)[-1]
    assert world(s).column(left) == world(s).exit_column
    assert left != "0302"


# -- F3: stacking during a retreat (spec 3.12.7) -------------------------------------------------
def test_nato_retreat_obeys_stacking_on_the_way_rhine_retreat_stacking() -> None:
    """rhine.retreat.stacking (spec 3.12.7): "stacking limits apply during and at the end of
    the retreat (both sides)". The 11 ACR may not share a hex with 3 AD (spec 3.8: NATO units of
    one division), so a two-hex retreat from 0705 may not pass through 3 AD's hexes."""
    s = board(
        {
            "N-11-SQ1": "0705",
            "N-3-TB1": "0604",
            "N-3-TB2": "0605",
            "N-3-MI1": "0606",
            "P-79-TR1": "0805",
        }
    )
    w = world(s)
    occ = R.occupancy(w, s)
    assert not any(R.can_join(w, occ, h, ["N-11-SQ1"]) for h in ("0604", "0605", "0606"))
    paths = R.retreat_options(w, s, ["N-11-SQ1"], "0705", ["0805"], 2)
    assert all(p[0] not in ("0604", "0605", "0606") for p in paths)
    # with 3 AD gone those hexes are open on the way again
    s = board({"N-11-SQ1": "0705", "P-79-TR1": "0805"})
    paths = R.retreat_options(world(s), s, ["N-11-SQ1"], "0705", ["0805"], 2)
    assert any(p[0] == "0605" for p in paths)


# -- F5: the Pact helicopter and full Pact stacks (spec 3.8) -----------------------------------
def test_pact_helicopter_may_not_fly_through_a_full_pact_stack_rhine_stack_pact() -> None:
    """rhine.stack.pact (spec 3.8): at most 2 Pact units per hex, "applies at all times,
    including during movement"; a unit of no division "counts against the limit"
    (rhine.stack.independent). So P-AAB may neither end in nor fly through 1005, where two 79 GTD
    units stand."""
    s = board(
        {
            "P-AAB": "1105",
            "P-79-TR1": "1005",
            "P-79-TR2": "1005",
            "N-3-TB1": "0806",
            "N-3-TB2": "0804",
        }
    )
    flights = [o for o in R.move_options(world(s), s, "P-AAB", 1) if o.mode == "heli"]
    assert flights
    assert all("1005" not in o.path for o in flights)
    assert "1006" in {o.dest for o in flights}  # reached round the stack
    # with one unit in 1005 the helicopter may fly over it (it could even stop there)
    s = board({"P-AAB": "1105", "P-79-TR1": "1005", "N-3-TB1": "0806", "N-3-TB2": "0804"})
    flights = [o for o in R.move_options(world(s), s, "P-AAB", 1) if o.mode == "heli"]
    assert any("1005" in o.path[1:-1] for o in flights)


# -- F6: the Pact heliborne unit may exit (spec 5.7, 5.9) ---------------------------------------
def test_pact_heliborne_unit_may_exit_the_map_rhine_scenario_exit() -> None:
    """rhine.scenario.exit (spec 5.7): "a Pact unit in a column-01 hex may leave the map";
    spec 5.9 scores each exited Pact unit of strength 3 or more. P-AAB (strength 3) flies to
    column 01 and leaves (its unlimited MA covers the 1 MP)."""
    s = board({"P-AAB": "0105"}, turn=2)
    assert "exit" in dests(s, "P-AAB", "heli")
    s = _phase(board({"P-AAB": "0605"}, turn=2), "pact_1")
    assert world(s).units["P-AAB"].strength >= 3
    act = Action("move", unit="P-AAB", cell="exit", option="heli")
    assert act in set(RULESET.legal_actions(s))
    before = victory_points(s)["exits"]
    RULESET.apply(s, act)
    assert s.status["P-AAB"] == "exited" and s.pos["P-AAB"] is None
    assert victory_points(s)["exits"] > before


def test_pact_helicopter_exit_after_crossing_enemy_hexes_rolls_for_loss_rhine_heli_loss() -> None:
    """rhine.heli.loss (spec 3.11.4): "after each heliborne move, if the unit entered any
    enemy-occupied or EZOC hex during the move ... roll 1d6 once"; leaving the map is such a
    move. With NATO in 0101, 0103, 0106 and 0109 every other column-01 hex is in its zone, so
    the flight off the map crosses a hostile hex and rolls once, with the +1 for crossing."""
    s = _phase(board({"P-AAB": "0105", "N-3-TB1": "0205"}, turn=2), "pact_1")
    exits = [o for o in R.move_options(world(s), s, "P-AAB", 2) if o.dest == "exit"]
    assert len(exits) == 1 and exits[0].cost == 0  # it stands in column 01: nothing crossed
    ring = {"N-3-TB1": "0101", "N-3-TB2": "0103", "N-3-MI1": "0106", "N-3-MI2": "0109"}
    s = _phase(board({"P-AAB": "0306", **ring}, turn=2), "pact_1")
    (out,) = [o for o in R.move_options(world(s), s, "P-AAB", 2) if o.dest == "exit"]
    assert out.cost >= 1  # every column-01 hex it may reach is in NATO's zone
    events = RULESET.apply(s, Action("move", unit="P-AAB", cell="exit", option="heli"))
    rolls = [e for e in events if e.get("rule") == "rhine.heli.loss"]
    assert rolls and "+1" in rolls[0].text
    assert s.status["P-AAB"] in ("exited", "eliminated")
    assert (s.status["P-AAB"] == "eliminated") == any(e["kind"] == "eliminated" for e in events)
