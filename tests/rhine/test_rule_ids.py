"""Tests for the rule ids the older rule tests did not reach, each following the procedure of
the specification (shared/rules/rhine-operational.md, section cited per test) on a position
built by hand. Every test's docstring names the ids it checks; test_coverage.py holds that
every catalogue id is named by at least one test."""

from __future__ import annotations

import pytest

from tests.rhine.helpers import board, dests
from umpire.core.actions import Action
from umpire.core.flow import Pending
from umpire.core.rng import RandomStream
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.model import rule_catalog
from umpire.rulesets.rhine.ruleset import (
    ENGINE,
    admin_begin,
    admin_end,
    apply_result,
    enter,
    entry_hexes,
    movable,
    on_turn_begin,
    refugee_hexes,
    segment,
    victory_points,
    world,
)
from umpire.rulesets.rhine.state import RhineState


def _legal(state: RhineState) -> list[Action]:
    state.memo.clear()
    return RULESET.legal_actions(state)


# -- scale, units, control (spec 3.1-3.3) ---------------------------------------------------
def test_scale_is_catalogued_and_the_turn_track_is_am_pm_night() -> None:
    """rhine.scale.hex, rhine.scale.units: descriptive scale with no rule of its own, carried in
    the catalogue with its published source. rhine.scale.turn: a day is AM, PM, Night: in both
    scenarios every third turn is a night turn and only those."""
    cat = rule_catalog()
    for rid in ("rhine.scale.hex", "rhine.scale.turn", "rhine.scale.units"):
        assert cat[rid].provenance == "published" and "S2d" in cat[rid].ref
    for scenario in RULESET.scenario_ids():
        w = world(RULESET.new_state(scenario, 1, {}))
        assert [t.night for t in w.turns] == [k % 3 == 2 for k in range(len(w.turns))]
        assert all(w.night(k + 1) == t.night for k, t in enumerate(w.turns))
    w = world(board({}))
    assert [t.label for t in w.turns[:3]] == ["Day 1 AM", "Day 1 PM", "Day 1 Night"]


def test_unit_record_strength_division_ma_type() -> None:
    """rhine.unit.strength: one strength; a bracketed one (defence_only) only defends.
    rhine.unit.division: division and nation are unit fields. rhine.unit.ma: recon 9, static
    0, heliborne unlimited, others 6. rhine.unit.type: tank counts for armour superiority."""
    w = world(board({}))
    u = w.units
    assert u["P-79-TR1"].strength == 8 and u["P-79-TR1"].division == "79 GTD"
    assert u["P-79-TR1"].nation == "USSR" and u["N-5-PzB"].nation == "FRG"
    assert u["N-HS-W"].defence_only and u["N-HS-W"].strength == 3
    assert (u["P-79-RB"].ma, u["N-HS-W"].ma, u["P-79-MRR"].ma) == (9, 0, 6)
    assert u["P-AAB"].heliborne and u["P-AAB"].ma == 99  # "unlimited": flights ignore it
    assert u["P-79-TR1"].tank and not u["P-79-MRR"].tank and u["P-79-RB"].recon


def test_units_have_one_step() -> None:
    """rhine.unit.steps: a result eliminates a unit whole or leaves it as printed: after EX the
    defender is gone and the attacker loses whole units (printed strength at least the
    defence), the survivors keep their full strength."""
    s = board({"P-79-TR1": "0805", "P-79-RB": "0805", "N-11-SQ1": "0705"})
    s.combat = {
        "attacker": "pact",
        "target": "0705",
        "units": ["P-79-TR1", "P-79-RB"],
        "from": ["0805"],
        "defenders": ["N-11-SQ1"],
        "momentum": False,
        "todo": [],
    }
    apply_result(s, "EX")
    assert s.status["N-11-SQ1"] == "eliminated"
    # need 4: the recon (3) alone is not enough, so the tank regiment (8) is the only choice
    assert s.status["P-79-TR1"] == "eliminated" and s.status["P-79-RB"] == "on"
    assert world(s).units["P-79-RB"].strength == 3


def test_initial_control_and_control_by_entering() -> None:
    """rhine.control.initial: columns 01-10 start NATO's, 11-12 the Pact's (spec 5.6).
    rhine.control.change: every hex a unit enters or passes through becomes its side's; a zone
    of control alone changes nothing."""
    s = RULESET.new_state("autobahn-gap", 1, {})
    assert s.control["1005"] == "nato" and s.control["1105"] == "pact"
    assert s.control["0101"] == "nato" and s.control["1210"] == "pact"
    s = board({"P-79-TR1": "1105", "N-3-TB1": "0605"})
    enter(s, "P-79-TR1", ["1005", "0905", "0805"])
    assert all(s.control[h] == "pact" for h in ("1005", "0905", "0805"))
    assert s.control["0705"] == "nato"  # next to the regiment, in its zone, still NATO's


def test_order_sets_the_phase_order() -> None:
    """rhine.order.effect.phases: move-fight puts the movement phase first in that player's
    turn, fight-move the combat phase."""
    s = board({})
    s.flow.phase = "pact_1"
    s.order = {"pact": "move-fight", "nato": "fight-move"}
    assert segment(s) == "move"
    s.flow.phase = "pact_2"
    assert segment(s) == "combat"
    s.flow.phase = "nato_1"
    assert segment(s) == "combat"
    s.flow.phase = "nato_2"
    assert segment(s) == "move"


# -- air and EW (spec 3.6, 3.7) ---------------------------------------------------------------
def test_air_range_is_six_hexes() -> None:
    """rhine.air.range: a marker covers every hex within 6 hexes, no farther."""
    s = board({})
    w = world(s)
    s.air_holder, s.air_markers = "pact", ["0605"]
    covered = R.air_range(w, s, "pact")
    assert covered == {h for h in w.ids if w.distance(h, "0605") <= 6}
    assert "0101" not in covered and w.distance("0101", "0605") == 7
    assert R.air_range(w, s, "nato") == set()  # only the holder has markers


def test_column_and_heliborne_may_not_enter_own_ew_hex() -> None:
    """rhine.ew.effect.entry: a unit moving in column or heliborne mode may not enter a hex
    holding one of its side's EW-marked units; normal movement may. (The Soviet air assault
    brigade has no division, so it may stack with the regiment: rhine.stack.independent.)"""
    s = board({"P-79-TR1": "1004", "P-79-TR2": "1105", "P-AAB": "1208"})
    assert "1004" in dests(s, "P-79-TR2", "column") and "1004" in dests(s, "P-AAB", "heli")
    s.ew["P-79-TR1"] = 1
    assert "1004" in dests(s, "P-79-TR2")
    assert "1004" not in dests(s, "P-79-TR2", "column")
    assert "1004" not in dests(s, "P-AAB", "heli")


# -- stacking and zones (spec 3.8, 3.9) -------------------------------------------------------
def test_markers_never_count_for_stacking() -> None:
    """rhine.stack.markers: a hex with an air marker, EW-marked units and a refugee marker next
    to it still takes a second unit of the division (two Pact units allowed)."""
    s = board({"P-79-TR1": "1004", "P-79-TR2": "1005"})
    s.air_holder, s.air_markers = "pact", ["1005"]
    s.ew["P-79-TR2"] = 1
    assert "1005" in dests(s, "P-79-TR1")


def test_every_unit_exerts_a_zone_even_defence_only() -> None:
    """rhine.zoc.exert: every unit, a static defence-only garrison included, exerts a ZOC into
    its six neighbours (and nowhere else)."""
    s = board({"N-HS-M": "0605"})
    w = world(s)
    zone = R.ezoc(w, R.occupancy(w, s), "pact")
    assert zone == set(w.neighbours["0605"])
    assert R.ezoc(w, R.occupancy(w, s), "nato") == set()


def test_ground_units_never_enter_enemy_hexes() -> None:
    """rhine.move.enemy: an enemy-occupied hex is never a destination nor a way through."""
    assert "0505" in dests(board({"N-3-TB1": "0305"}), "N-3-TB1")
    d = dests(board({"N-3-TB1": "0305", "P-79-RB": "0505"}), "N-3-TB1")
    assert "0505" not in d and d  # it can still move, just not there


# -- heliborne (spec 3.11.4) ----------------------------------------------------------------
def test_heliborne_unlimited_ma_and_jammed_ma() -> None:
    """rhine.heli.ma: unlimited MA (one flight crosses the map); with one EW marker the MA is
    the 2d6 rolled for it (rhine.ew.effect.one); with two, no flight."""
    s = board({"P-AAB": "1205"})
    w = world(s)
    far = dests(s, "P-AAB", "heli")
    assert "0105" in far and w.distance("1205", "0105") == 11
    s.ew["P-AAB"] = 1
    assert dests(s, "P-AAB", "heli") == {}  # not until its 2d6 is rolled
    s.heli_ma = {"P-AAB": 3}
    near = dests(s, "P-AAB", "heli")
    assert near and max(w.distance("1205", h) for h in near) == 3
    s.ew["P-AAB"] = 2
    assert dests(s, "P-AAB", "heli") == {}


def test_heliborne_ignores_zones_and_terrain_and_overflies_enemies() -> None:
    """rhine.heli.ignore / rhine.zoc.heliborne: a flight pays no terrain and is not stopped by
    a zone; it may pass over an enemy hex but never end in one."""
    s = board({"N-101-AAB": "0305", "P-79-TR1": "0405", "P-79-TR2": "0404"})
    s.pos["P-79-TR2"] = "0406"
    d = dests(s, "N-101-AAB", "heli")
    assert "0405" not in d  # may not end on the enemy
    assert "0705" in d  # beyond the zone belt, flown over it
    zone = R.ezoc(world(s), R.occupancy(world(s), s), "nato")
    assert any(h in zone for h in d)  # ends in a zone hex too


def test_heliborne_forbidden_in_enemy_air_range() -> None:
    """rhine.heli.forbidden: no flight when starting in enemy air range, and no hex in it is
    entered."""
    s = board({"N-101-AAB": "0105"})
    s.air_holder, s.air_markers = "pact", ["0905"]
    w = world(s)
    d = dests(s, "N-101-AAB", "heli")
    assert d and all(w.distance(h, "0905") > 6 for h in d)
    s.air_markers = ["0505"]
    assert dests(s, "N-101-AAB", "heli") == {}


def test_heliborne_flies_the_route_with_fewest_hostile_hexes() -> None:
    """rhine.heli.path (house): of the routes to a hex the one crossing the fewest enemy-held
    or EZOC hexes is flown; that number is what the loss roll reads (rhine.heli.loss)."""
    s = board({"N-101-AAB": "0303", "P-79-TR1": "0503"})
    opts = {o.dest: o for o in R.move_options(world(s), s, "N-101-AAB", 1) if o.mode == "heli"}
    # 0703 lies straight past the regiment, but a detour clear of its zone exists
    assert opts["0703"].cost == 0
    zone = R.ezoc(world(s), R.occupancy(world(s), s), "nato")
    assert not any(h in zone for h in opts["0703"].path[1:])
    assert opts["0603"].cost == 1  # it ends in the zone: one hostile hex


# -- reinforcements -------------------------------------------------------------------------
def test_reinforcements_enter_on_their_turn_through_free_edge_hexes() -> None:
    """rhine.reinf.entry: a unit listed for turn 3 cannot move before it; on turn 3 it enters
    through its listed edge hexes, paying the entry hex's cost, never through one held by the
    enemy."""
    s = RULESET.new_state("autobahn-gap", 1, {})
    s.flow.turn = 2
    assert "N-5-PzB" not in movable(s, "nato")
    s.flow.turn = 3
    s.memo.clear()  # a new position (the memo holds answers for one)
    assert "N-5-PzB" in movable(s, "nato")
    s.pos["P-79-RB"] = "0105"
    s.memo.clear()
    hexes = entry_hexes(s, "N-5-PzB")
    assert hexes is not None and "0105" not in hexes and "0104" in hexes
    opts = R.move_options(world(s), s, "N-5-PzB", 3, hexes)
    cost = {o.dest: o.cost for o in opts if o.mode == "normal"}
    assert world(s).terrain["0101"] == "rough" and cost["0101"] == 2
    assert "0105" not in cost


# -- combat (spec 3.12) ---------------------------------------------------------------------
def _combat(units: dict[str, str], side: str = "pact") -> RhineState:
    s = board(units)
    s.flow.phase = f"{side}_1"
    s.order = {"pact": "fight-move", "nato": "fight-move"}
    s.memo.clear()
    return s


def test_attacks_are_voluntary() -> None:
    """rhine.combat.voluntary: with attacks open, ending the combat phase is still legal."""
    s = _combat({"P-79-TR1": "0805", "N-11-SQ1": "0705"})
    kinds = {a.kind for a in _legal(s)}
    assert "attack" in kinds and "end_phase" in kinds


def test_one_defending_hex_attacked_from_several_hexes() -> None:
    """rhine.combat.one_hex: one defending hex, every unit in it defends together; attackers
    may come from several adjacent hexes, and not every unit of a hex has to join."""
    s = _combat(
        {"P-79-TR1": "0805", "P-79-TR2": "0804", "P-79-MRR": "0804", "N-11-SQ1": "0705"}
        | {"N-11-SQ2": "0705"}
    )
    legal = _legal(s)
    pair = [a for a in legal if a.cell == "0705" and set(a.units) == {"P-79-TR1", "P-79-TR2"}]
    assert pair  # two hexes, and the mech regiment in 0804 stays out
    RULESET.apply(s, pair[0])
    assert s.combat is not None
    assert sorted(s.combat["defenders"]) == ["N-11-SQ1", "N-11-SQ2"]
    assert s.combat["from"] == ["0804", "0805"]
    assert all(a.cell == "0705" for a in legal if a.kind == "attack")  # the one enemy hex


def test_each_unit_attacks_once_but_a_hex_may_be_attacked_again() -> None:
    """rhine.combat.once: a unit that attacked is not offered again this phase; another unit
    may still attack the same hex."""
    s = _combat({"P-79-TR1": "0805", "P-79-TR2": "0804", "N-3-TB1": "0705", "N-3-TB2": "0705"})
    s.attacked = ["P-79-TR1"]
    attacks = [a for a in _legal(s) if a.kind == "attack"]
    assert attacks and all("P-79-TR1" not in a.units for a in attacks)
    assert any(a.units == ("P-79-TR2",) and a.cell == "0705" for a in attacks)


def test_support_is_one_drm_point_per_marker() -> None:
    """rhine.drm.cs: +1 per attacking marker, -1 per defending marker, on top of the rest."""
    s = _combat({"P-79-TR1": "0805", "N-3-TB1": "0705"})
    w = world(s)
    base = R.combat_figures(w, s, "pact", "0705", ["P-79-TR1"], ["N-3-TB1"])
    both = R.combat_figures(w, s, "pact", "0705", ["P-79-TR1"], ["N-3-TB1"], {"pact": 3, "nato": 1})
    assert both.drm == base.drm + 2
    assert {m.value for m in both.drms if m.rule == "rhine.drm.cs"} == {3, -1}


def test_support_pool_and_arrivals() -> None:
    """rhine.cs.pool: the scenario's pool by side, nation and type (spec 5.5): Pact 6 Soviet
    artillery and 2 helicopters, NATO 4 US artillery and 2 helicopters from turn 1 and 2 West
    German artillery from turn 3, which become ready when turn 3 begins."""
    s = RULESET.new_state("autobahn-gap", 1, {})
    count: dict[tuple[str, str, str, str], int] = {}
    for m in s.cs:
        key = (m.side, m.nation, m.type, m.status)
        count[key] = count.get(key, 0) + 1
    assert count == {
        ("pact", "USSR", "artillery", "ready"): 6,
        ("pact", "USSR", "helicopter", "ready"): 2,
        ("nato", "US", "artillery", "ready"): 4,
        ("nato", "FRG", "artillery", "later"): 2,
        ("nato", "US", "helicopter", "ready"): 2,
    }
    s.flow.turn = 3
    on_turn_begin(s)
    assert all(m.status == "ready" for m in s.cs if m.nation == "FRG")


def test_support_needs_a_unit_of_its_nation() -> None:
    """rhine.cs.nation: a side may commit a marker only if one of its units in the combat has
    that nationality (US-only defenders: no West German artillery); the Pact attacking a city
    may use any Pact nation's (rhine.cs.limit.artillery)."""
    s = _combat({"P-79-TR1": "0805", "N-3-TB1": "0705"})
    for m in s.cs:
        m.status = "ready"
    w = world(s)
    _, _, nations = R.cs_limits(w, s, "nato", "pact", "0705", ["N-3-TB1"], s.order)
    assert nations == {"artillery": {"US"}, "helicopter": {"US"}}
    choices = R.cs_choices({("artillery", "FRG"): 2, ("artillery", "US"): 4}, 3, 0, nations)
    assert all(nat == "US" for c in choices for (_, nat) in c)
    _, _, any_nation = R.cs_limits(w, s, "pact", "pact", "0605", ["P-79-TR1"], s.order)
    assert any_nation["artillery"] is None


# -- retreat and advance (spec 3.12.7, 3.12.8) ------------------------------------------------
def _dr(
    units: dict[str, str], defenders: list[str], attackers: list[str], result: str
) -> RhineState:
    s = _combat(units)
    s.combat = {
        "attacker": "pact",
        "target": units[defenders[0]],
        "units": attackers,
        "from": sorted({units[a] for a in attackers}),
        "defenders": defenders,
        "momentum": False,
        "todo": [],
    }
    apply_result(s, result)
    return s


def test_retreating_units_end_together() -> None:
    """rhine.retreat.together: every unit retreating from a hex ends in one hex."""
    s = _dr(
        {"P-79-TR1": "0805", "N-3-TB1": "0705", "N-3-MI1": "0705"},
        ["N-3-TB1", "N-3-MI1"],
        ["P-79-TR1"],
        "DR1",
    )
    top = s.flow.stack[-1] if s.flow.stack else None
    if isinstance(top, Pending) and top.stage == "retreat":
        assert sorted(top.data["units"]) == ["N-3-MI1", "N-3-TB1"]
        RULESET.apply(s, _legal(s)[0])
    assert s.pos["N-3-TB1"] == s.pos["N-3-MI1"] != "0705"


def test_retreat_obeys_stacking_and_avoids_zones() -> None:
    """rhine.retreat.stacking: a retreat may not end over-stacked; rhine.retreat.ezoc /
    rhine.zoc.advance_retreat: it enters an EZOC hex only when no other hex is open."""
    w = world(board({}))
    s = board({"P-79-TR1": "0805", "N-3-MI1": "0705"})
    all_paths = R.retreat_options(w, s, ["N-3-MI1"], "0705", ["0805"], 1)
    ends = {p[-1] for p in all_paths}
    assert ends and all(w.distance(h, "0805") > 1 for h in ends)
    # fill one retreat hex with a full US stack of another division: not open to the unit
    full = sorted(ends)[0]
    s2 = board({"P-79-TR1": "0805", "N-3-MI1": "0705", "N-11-SQ1": full, "N-11-SQ2": full})
    ends2 = {p[-1] for p in R.retreat_options(w, s2, ["N-3-MI1"], "0705", ["0805"], 1)}
    assert full not in ends2
    # a Pact unit west of the retreat hexes puts some of them in its zone: those are avoided
    s3 = board({"P-79-TR1": "0805", "N-3-MI1": "0705", "P-79-RB": "0504"})
    zone = R.ezoc(w, R.occupancy(w, s3), "nato")
    ends3 = {p[-1] for p in R.retreat_options(w, s3, ["N-3-MI1"], "0705", ["0805"], 1)}
    assert ends3 and not (ends3 & zone) and (ends & zone)


def test_advance_ignores_zones() -> None:
    """rhine.zoc.advance_retreat: the advance after combat enters the vacated hex even though
    it lies in an enemy zone."""
    s = _dr(
        {"P-79-TR1": "0805", "N-11-SQ1": "0705", "N-3-TB1": "0604"},
        ["N-11-SQ1"],
        ["P-79-TR1"],
        "DE",
    )
    zone = R.ezoc(world(s), R.occupancy(world(s), s), "pact")
    assert "0705" in zone
    assert Action("advance", units=("P-79-TR1",)) in _legal(s)


def test_probe_limits() -> None:
    """rhine.probe.limits: a defence-only unit may not probe; a probe counts as the unit's
    attack for the phase (it is not offered an attack afterwards)."""
    s = _combat({"N-HS-M": "0605", "P-79-TR1": "0805"}, side="nato")
    s.pos["P-79-TR1"] = "0705"
    assert not [a for a in _legal(s) if a.kind == "probe"]
    s = _combat({"P-79-TR1": "0804", "N-3-TB1": "0704", "N-3-MI1": "0604"})
    RULESET.apply(s, Action("probe", unit="P-79-TR1", cell="0705"))
    if s.flow.stack and isinstance(s.flow.stack[-1], Pending):
        RULESET.apply(s, Action("decline"))
    assert "P-79-TR1" in s.attacked and "P-79-TR1" in s.probed
    assert not [
        a
        for a in _legal(s)
        if a.kind in ("attack", "probe") and "P-79-TR1" in (a.units or (a.unit,))
    ]


# -- administration (spec 3.13) -------------------------------------------------------------
def test_refugees_from_turn_three() -> None:
    """rhine.admin.refugees: no refugees before the administrative phase of turn 3; then the old
    markers go and the Pact places 2d6, each in an empty NATO-controlled hex."""
    s = board({"N-3-TB1": "0305"})
    s.flow.turn = 2
    admin_begin(s)
    assert s.refugees_to_place == 0
    s.flow.turn = 3
    s.refugees = ["0101"]
    events = admin_begin(s)
    rolled = [e for e in events if e.get("rule") == "rhine.admin.refugees"]
    assert rolled and s.refugees == [] and 2 <= s.refugees_to_place <= 12
    hexes = set(refugee_hexes(s))
    assert "0305" not in hexes and "1105" not in hexes and "0101" in hexes


def _used(side: str, kind: str, nation: str, seed: int, **switches: bool) -> tuple[str, int]:
    s = board({}, options=dict(switches))
    s.rng = RandomStream(seed)
    s.flow.turn = 2
    m = next(m for m in s.cs if m.side == side and m.type == kind and m.nation == nation)
    m.status = "used"
    admin_end(s)
    return m.status, m.back


def test_optional_helicopter_attrition() -> None:
    """rhine.admin.heli_attrition (optional): each helicopter marker committed this turn is
    lost for good on a 6 (1 in 6); with the rule off it always returns."""
    results = [_used("pact", "helicopter", "USSR", k, heli_attrition=True)[0] for k in range(600)]
    lost = results.count("lost")
    assert set(results) == {"lost", "ready"} and 60 <= lost <= 140  # 100 expected
    off = {_used("pact", "helicopter", "USSR", k, heli_attrition=False)[0] for k in range(50)}
    assert off == {"ready"}


@pytest.mark.parametrize(("side", "nation", "delays"), [("pact", "USSR", 6), ("nato", "US", 3)])
def test_optional_ammunition(side: str, nation: str, delays: int) -> None:
    """rhine.admin.ammo (optional): a committed artillery marker comes back after 1d6 turns for
    the Pact, after half a d6 rounded up for NATO."""
    backs = set()
    for k in range(200):
        status, back = _used(side, "artillery", nation, k, ammunition=True)
        assert status == "resting"
        backs.add(back - 2)
    assert backs == set(range(1, delays + 1))
    assert _used(side, "artillery", nation, 1, ammunition=False)[0] == "ready"


def test_attrition_takes_from_the_nation_with_most_markers() -> None:
    """rhine.scenario.attrition_choice (house): the scripted player's pick of the marker 'of
    its choice' (also taken by admin_end for positions driven by hand; in play the owner is
    asked, test_setup_phase.py): from the nation with most artillery left, so NATO's fourth
    loss costs a US marker, not a German."""
    s = board({})
    for m in s.cs:
        if m.nation == "FRG":
            m.status = "ready"
    s.losses["nato"] = 4
    admin_end(s)
    lost = [m for m in s.cs if m.status == "lost"]
    assert len(lost) == 1 and lost[0].nation == "US"


def test_pact_units_exit_west_and_score() -> None:
    """rhine.scenario.exit: a Pact unit in a column-01 hex leaves the map for 1 MP; it is
    removed and scores 2 VP (strength 3 or more, spec 5.9)."""
    s = board({"P-79-TR1": "0105"})
    s.flow.phase = "pact_1"
    s.order = {"pact": "move-fight"}
    assert dests(s, "P-79-TR1")["exit"] == 1
    before = victory_points(s)["exits"]
    RULESET.apply(s, Action("move", unit="P-79-TR1", cell="exit", option="normal"))
    assert s.status["P-79-TR1"] == "exited" and s.pos["P-79-TR1"] is None
    assert victory_points(s)["exits"] == before + 2


def test_engine_offers_the_kinds_of_the_phase_only() -> None:
    """rhine.sequence.turn: in a movement phase no attack is offered; in a combat phase no
    move."""
    s = _combat({"P-79-TR1": "0805", "P-79-TR2": "1005", "N-11-SQ1": "0705"})
    assert {a.kind for a in _legal(s)} & {"move"} == set()
    s.order["pact"] = "move-fight"
    assert {a.kind for a in _legal(s)} & {"attack", "probe"} == set()
    assert ENGINE.kinds["move"].options(s, "pact")
