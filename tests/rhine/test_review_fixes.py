"""Rule discrepancies found by review Y6 (findings F1-F13) and the rules the review found
implemented but untested: each test follows the wording of the specification
(``shared/rules/rhine-operational.md``, cited by section) on a position built by hand."""

from __future__ import annotations

from tests.rhine.helpers import board, dests
from umpire.core.actions import Action
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.ruleset import ENGINE, admin_end, check_victory, world
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


# -- F2: a garrisoned hex never changes control by overflight (spec 3.3, 3.11.4) ----------------
def test_overflight_never_takes_an_enemy_held_hex_rhine_control_change() -> None:
    """rhine.control.change (spec 3.3, house): a hex comes under a side's control when one of
    its units "enters or passes through it"; read (reconstructed) so that a hex holding enemy
    units never changes control by being passed over (rhine.heli.ignore lets a helicopter
    pass through enemy-occupied hexes): the garrison still holds it. The landing hex and the
    empty hexes flown over change control as before. Every neighbour of 0205 is NATO-held, so
    the flight crosses N-HS-W's 0204; without the reading the Pact would hold all of Westburg
    (sudden death, spec 5.8)."""
    s = board(
        {
            "P-AAB": "0203",
            "N-HS-W": "0204",
            "N-3-MI2": "0305",
            "N-3-TB1": "0306",
            "N-3-TB2": "0206",
            "N-3-MI1": "0106",
            "N-11-SQ1": "0105",
        }
    )
    _phase(s, "pact_1")
    (flight,) = [
        o for o in R.move_options(world(s), s, "P-AAB", 1) if o.dest == "0205" and o.mode == "heli"
    ]
    assert "0204" in flight.path
    assert s.control["0204"] == "nato"
    RULESET.apply(s, Action("move", unit="P-AAB", cell="0205", option="heli"))
    assert s.control["0204"] == "nato"  # the garrison still holds it
    if s.status["P-AAB"] == "on":
        assert s.control["0205"] == "pact"  # the landing hex is taken
    check_victory(s)
    assert s.outcome is None  # no sudden death


def test_empty_hexes_flown_over_change_control_rhine_control_change() -> None:
    """rhine.control.change (spec 3.3): the empty hexes a flight passes through come under the
    flyer's control, as the ground move's hexes do."""
    s = _phase(board({"P-AAB": "0605"}, turn=2), "pact_1")
    (flight,) = [
        o for o in R.move_options(world(s), s, "P-AAB", 2) if o.dest == "0305" and o.mode == "heli"
    ]
    assert len(flight.path) >= 3
    RULESET.apply(s, Action("move", unit="P-AAB", cell="0305", option="heli"))
    assert all(s.control[h] == "pact" for h in flight.path[1:])


# -- F4: attacks by part of the eligible units are listed (spec 3.12.1) -------------------------
def _five_next_to_0705() -> RhineState:
    s = board(
        {
            "N-3-MI1": "0705",
            "P-79-TR1": "0805",
            "P-79-TR2": "0805",
            "P-27-TR": "0804",
            "P-27-MRR1": "0804",
            "P-39-TR": "0706",
        },
        turn=4,
    )
    return _phase(s, "pact_1", pact="fight-move")


def test_attack_by_part_of_the_eligible_units_is_listed_rhine_combat_one_hex() -> None:
    """rhine.combat.one_hex (spec 3.12.1): "Attackers may come from any number of adjacent
    hexes; not every unit in an attacking hex has to join." Five Pact units stand next to
    0705: an attack by the two of 0805 alone is listed, as is one by a single unit."""
    s = _five_next_to_0705()
    listed = {a.units for a in RULESET.legal_actions(s) if a.kind == "attack" and a.cell == "0705"}
    assert ("P-79-TR1", "P-79-TR2") in listed
    assert ("P-79-TR1",) in listed
    assert len(listed) > 1


def test_every_accepted_small_attack_is_listed_rhine_combat_one_hex() -> None:
    """rhine.combat.one_hex (spec 3.12.1): every grouping of the units next to the defending
    hex that the check accepts is offered (for up to six eligible units, where every subset is
    listed)."""
    import itertools

    from umpire.core.errors import IllegalActionError

    s = _five_next_to_0705()
    listed = {
        frozenset(a.units)
        for a in RULESET.legal_actions(s)
        if a.kind == "attack" and a.cell == "0705" and a.units
    }
    units = ["P-79-TR1", "P-79-TR2", "P-27-TR", "P-27-MRR1", "P-39-TR"]
    accepted = 0
    for k in range(1, len(units) + 1):
        for g in itertools.combinations(units, k):
            act = Action("attack", cell="0705", units=g)
            try:
                ENGINE.check(s, act)
            except IllegalActionError:
                continue
            accepted += 1
            assert frozenset(g) in listed, g
    assert accepted >= 16


# -- F9: the administrative phase in the specification's order (spec 3.4 step 6) ---------------
def test_admin_phase_order_rhine_sequence_turn() -> None:
    """spec 3.4 step 6: "refugees; remove EW, air and used CS markers from the map; artillery
    attrition; optional helicopter attrition; optional artillery ammunition" (Autobahn Gap
    plays both optional rules)."""
    s = board({"N-3-TB1": "0605"}, turn=3)
    w = world(s)
    assert w.switches.get("heli_attrition") and w.switches.get("ammunition")
    for m in s.cs:
        m.status = "used"
    s.ew = {"N-3-TB1": 1}
    s.air_markers = ["0101"]
    s.losses["nato"] = 4
    order: list[str] = []
    for e in admin_end(s):
        rule = e.get("rule")
        if rule and rule.startswith("rhine.admin.") and (not order or order[-1] != rule):
            order.append(rule)
    assert order == [
        "rhine.admin.clear",
        "rhine.admin.artillery_attrition",
        "rhine.admin.heli_attrition",
        "rhine.admin.ammo",
    ]
    assert s.ew == {} and s.air_markers == []
    assert not any(m.status == "used" for m in s.cs)
    # the marker lost to attrition is not rolled for ammunition
    lost = [m for m in s.cs if m.side == "nato" and m.type == "artillery" and m.status == "lost"]
    assert len(lost) == 1


# -- F10-F13: readings kept, pinned ---------------------------------------------------------------
def test_nato_stacking_checked_at_the_end_of_each_move_rhine_stack_nato() -> None:
    """rhine.stack.nato (spec 3.8: NATO stacking "checked only at the end of each phase"). Our
    reading (reconstructed): checked at the end of each move, so no phase can end over-stacked;
    a move into a full 3 AD hex is refused until a unit has left it."""
    s = _phase(
        board({"N-3-TB1": "0505", "N-3-TB2": "0405", "N-3-MI1": "0405", "N-3-MI2": "0405"}),
        "nato_1",
    )
    assert "0405" not in dests(s, "N-3-TB1")
    RULESET.apply(s, Action("move", unit="N-3-MI2", cell="0305", option="normal"))
    assert "0405" in dests(s, "N-3-TB1")
    # a NATO unit may still pass through the full hex on its way (end of move only)
    s = board({"N-3-TB1": "0505", "N-3-TB2": "0405", "N-3-MI1": "0405", "N-3-MI2": "0405"})
    w = world(s)
    through = [o for o in R.move_options(w, s, "N-3-TB1", 1, paths=True) if "0405" in o.path[1:-1]]
    assert through


def test_bridge_does_not_cancel_the_river_modifier_rhine_tec_chart() -> None:
    """rhine.tec.chart (spec 4.3, minor river: "bridge: no MP cost when moving along the road
    across it; no combat effect"). Our reading (reconstructed): the bridge itself has no combat
    effect, so the river's -1 still applies to an attack across the road bridge 0709|0609,
    exactly as across a plain river hexside."""
    s = board({"P-79-MRR": "0709", "N-3-MI1": "0609"})
    w = world(s)
    edge = frozenset(("0609", "0709"))
    assert w.rivers.get(edge) is not None and edge in w.road_edges
    fig = R.combat_figures(w, s, "pact", "0609", ["P-79-MRR"], ["N-3-MI1"])
    terrain = [m for m in fig.drms if m.rule == "rhine.drm.terrain"]
    assert [m.value for m in terrain] == [-1] and "river" in terrain[0].why


def test_heliborne_unit_in_enemy_air_range_has_no_move_rhine_heli_forbidden() -> None:
    """rhine.heli.forbidden (spec 3.11.4) with rhine.unit.ma ("heliborne unlimited"): our
    reading (reconstructed) is that a heliborne unit moves only by helicopter, so in enemy air
    range it has no move at all (not a ground move instead)."""
    s = _phase(board({"N-101-AAB": "0305"}, turn=2), "nato_1")
    assert [a for a in RULESET.legal_actions(s) if a.kind == "move" and a.unit == "N-101-AAB"]
    s.air_holder, s.air_markers = "pact", ["0505"]
    s.memo.clear()
    assert not [a for a in RULESET.legal_actions(s) if a.kind == "move" and a.unit == "N-101-AAB"]


def test_ammunition_roll_of_one_is_back_next_turn_rhine_admin_ammo() -> None:
    """rhine.admin.ammo (spec 3.13: "returns to the pool after 1d6 turns (Pact)"). Our reading
    (reconstructed): a marker used on turn t with a roll r is ready at the start of turn t + r,
    so a roll of 1 brings it back next turn, as without the optional rule."""
    from umpire.core.rng import RandomStream

    seen: dict[int, int] = {}
    for seed in range(40):
        s = board({}, turn=2)
        s.rng = RandomStream(seed)
        m = next(m for m in s.cs if m.side == "pact" and m.type == "artillery")
        m.status = "used"
        admin_end(s)
        seen[m.back] = seed
    assert sorted(seen) == [3, 4, 5, 6, 7, 8]  # rolls 1..6
    s = board({}, turn=2)
    s.rng = RandomStream(seen[3])
    m = next(m for m in s.cs if m.side == "pact" and m.type == "artillery")
    m.status = "used"
    admin_end(s)
    assert m.status == "resting" and m.back == 3
    from umpire.rulesets.rhine.turn import on_turn_begin

    s.flow.turn = 3
    on_turn_begin(s)
    assert m.status == "ready"
