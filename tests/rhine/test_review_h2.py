"""Rule discrepancies found by review H2 (findings G1-...): each test follows the wording of
the specification (``shared/rules/rhine-operational.md``, cited by section) on a position built
by hand, and failed before its fix."""

from __future__ import annotations

from tests.rhine.helpers import board, dests
from umpire.core.actions import Action
from umpire.core.flow import Pending
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.ruleset import world


# -- G1: only the jammed side's own EW-marked stacks bar its helicopters (spec 3.7) -------------
def test_helicopter_may_overfly_an_enemy_ew_marked_stack_rhine_ew_effect_entry() -> None:
    """rhine.ew.effect.entry (spec 3.7): units *of the jammed side* moving in column or
    heliborne mode may not enter a hex holding one of *their own* EW-marked units. An EW marker
    the Pact put on a NATO stack bars NATO's column and helicopter moves, not the Pact's: P-AAB
    may still pass over the jammed NATO unit in 0201 (rhine.heli.ignore), here its only way out
    of the corner 0101 (0102 holds a full Pact stack it may not fly through, spec 3.8)."""
    units = {"P-AAB": "0101", "P-79-TR1": "0102", "P-79-TR2": "0102", "N-3-TB1": "0201"}
    s = board(units)
    free = dests(s, "P-AAB", "heli")
    s = board(units)
    s.ew["N-3-TB1"] = 1
    jammed_enemy = dests(s, "P-AAB", "heli")
    assert "0301" in jammed_enemy
    assert jammed_enemy == free


def test_helicopter_may_not_enter_its_own_sides_ew_marked_stack_rhine_ew_effect_entry() -> None:
    """rhine.ew.effect.entry (spec 3.7), the other half: NATO's helicopter may not enter a hex
    holding a NATO unit the Pact has jammed. From the corner 0101 with both neighbours holding
    jammed NATO units it cannot fly at all; with one of them unjammed it flies through it."""
    units = {"N-101-AAB": "0101", "N-3-TB1": "0102", "N-11-SQ1": "0201"}
    s = board(units)
    s.ew.update({"N-3-TB1": 1, "N-11-SQ1": 1})
    assert dests(s, "N-101-AAB", "heli") == {}
    s = board(units)
    s.ew["N-3-TB1"] = 1
    found = dests(s, "N-101-AAB", "heli")
    assert "0301" in found and "0102" not in found


# -- G2: a retreat enters an enemy zone hex only when no other hex is open (spec 3.12.7) ---------
def test_retreat_enters_an_enemy_zone_hex_only_when_no_other_is_open_rhine_retreat_ezoc() -> None:
    """rhine.retreat.ezoc (spec 3.12.7): "a retreat may enter an EZOC hex only if no other
    legal hex exists", hex by hex. N-3-TB1 retreats two hexes from 0605 away from 0705; 0506
    holds a Pact unit, so both first hexes open to it (0606, 0505) lie in the Pact's zone and
    it must enter one. From there a hex outside every zone is open (0607 from 0606, 0404 from
    0505), so it may not go on into another zone hex (0507, 0405)."""
    s = board({"N-3-TB1": "0605", "P-79-TR1": "0705", "P-27-MRR1": "0506"})
    w = world(s)
    zone = R.ezoc(w, R.occupancy(w, s), "nato")
    assert {"0606", "0505", "0507", "0405"} <= zone and not {"0607", "0404"} & zone
    paths = R.retreat_options(w, s, ["N-3-TB1"], "0605", ["0705"], 2)
    assert sorted(paths) == [("0505", "0404"), ("0606", "0607")]
    # with no Pact unit in 0506 a first hex outside every zone is open, and only such hexes
    s = board({"N-3-TB1": "0605", "P-79-TR1": "0705"})
    w = world(s)
    zone = R.ezoc(w, R.occupancy(w, s), "nato")
    paths = R.retreat_options(w, s, ["N-3-TB1"], "0605", ["0705"], 2)
    assert paths and all(h not in zone for p in paths for h in p)


# -- G3: "of any nationality" is the Pact's city artillery only (spec 3.12.5) --------------------
def test_pact_city_attack_frees_the_artillerys_nation_not_the_helicopters_rhine_cs_nation() -> None:
    """rhine.cs.limit.artillery (spec 3.12.5): when the Pact attacks a city it may commit up to
    6 *artillery* markers of any Pact nation; rhine.cs.nation still holds for its helicopter
    markers: one of its units in the combat must share the marker's nation. Soviet tanks
    attacking Mittelstadt (0605) may take East German artillery, not East German helicopters."""
    s = board({"P-79-TR1": "0705", "N-HS-M": "0605"})
    s.order = {"pact": "move-fight", "nato": "move-fight"}
    w = world(s)
    art, heli, nations = R.cs_limits(w, s, "pact", "pact", "0605", ["P-79-TR1"], s.order)
    assert art == 6 and heli == 2
    ready = {("artillery", "GDR"): 2, ("helicopter", "GDR"): 2, ("helicopter", "USSR"): 1}
    choices = R.cs_choices(ready, art, heli, nations)
    assert {"artillery:GDR=2", "artillery:GDR=2;helicopter:USSR=1"} <= set(map(R.cs_code, choices))
    assert not any(k == ("helicopter", "GDR") for c in choices for k in c)
    # outside a city the artillery's nation is bound too (rhine.cs.nation)
    art, heli, nations = R.cs_limits(w, s, "pact", "pact", "0705", ["P-79-TR1"], s.order)
    choices = R.cs_choices(ready, art, heli, nations)
    assert all(nat == "USSR" for c in choices for (_, nat) in c)


# -- G4: each advancing unit's own momentum attack (spec 3.12.9) ---------------------------------
def test_a_second_advancing_unit_keeps_its_momentum_attack_rhine_momentum() -> None:
    """rhine.momentum (spec 3.12.9; ja-summary L70-L73 "a unit that advanced ... may attack
    again before another unit's attack"): the right is each advancing unit's, once per game
    turn. P-79-TR1 and P-79-TR2 advanced into 0705; TR1 makes its momentum attack on 0605
    alone. Once that combat is over TR2 may still make its own, on 0604, before any other
    unit attacks; TR1 may not make a second."""
    from umpire.rulesets.rhine.attacks import push_momentum

    units = {"P-79-TR1": "0705", "P-79-TR2": "0705", "N-3-TB1": "0605", "N-3-MI1": "0604"}
    units["P-27-TR"] = "0704"  # a Pact unit next to both NATO hexes that did not advance
    s = board(units)
    s.flow.phase = "pact_1"
    s.phase_done = False
    s.order = {"pact": "fight-move", "nato": "move-fight"}
    push_momentum(s, "pact", ["P-79-TR1", "P-79-TR2"])
    RULESET.apply(s, Action("attack", cell="0605", units=("P-79-TR1",)))
    RULESET.apply(s, Action("cs", option="none"))  # the Pact, then NATO, commit nothing
    RULESET.apply(s, Action("cs", option="none"))
    while s.flow.stack and s.flow.stack[-1].stage in ("retreat", "ex_loss", "advance"):
        RULESET.apply(s, RULESET.legal_actions(s)[0])
    top = s.flow.stack[-1] if s.flow.stack else None
    assert isinstance(top, Pending) and top.stage == "momentum"
    assert top.data["units"] == ["P-79-TR2"]
    legal = RULESET.legal_actions(s)
    assert Action("attack", cell="0604", units=("P-79-TR2",)) in legal
    assert not any("P-79-TR1" in a.units or "P-27-TR" in a.units for a in legal)
    assert "P-79-TR1" in s.momentum_used


def test_a_momentum_probe_leaves_the_other_units_theirs_rhine_momentum() -> None:
    """rhine.momentum / rhine.probe (spec 3.12.9-10): a momentum attack may be a probe; the
    advancing units that did not probe keep their own momentum attack. TR1 probes from 0705
    into the empty 0706 (in NATO's zone); TR2 may then attack 0605."""
    from umpire.rulesets.rhine.attacks import push_momentum

    s = board({"P-79-TR1": "0705", "P-79-TR2": "0705", "N-3-TB1": "0605"})
    s.flow.phase = "pact_1"
    s.phase_done = False
    s.order = {"pact": "fight-move", "nato": "move-fight"}
    push_momentum(s, "pact", ["P-79-TR1", "P-79-TR2"])
    RULESET.apply(s, Action("probe", unit="P-79-TR1", cell="0706"))
    assert s.pos["P-79-TR1"] == "0706"
    top = s.flow.stack[-1] if s.flow.stack else None
    assert isinstance(top, Pending) and top.stage == "momentum"
    assert top.data["units"] == ["P-79-TR2"]
    legal = RULESET.legal_actions(s)
    assert Action("attack", cell="0605", units=("P-79-TR2",)) in legal
    assert not any(a.unit == "P-79-TR1" or "P-79-TR1" in a.units for a in legal)
