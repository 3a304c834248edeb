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
