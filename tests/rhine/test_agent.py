"""The scripted player on positions built by hand: from its own observation it chooses the kind
of action a player of the game would (issue 13: attacks at good odds with support where it
counts, uses momentum and probes, keeps stacking and ZOC in mind, holds cities, withdraws in
column behind the line). Each test builds the position, hands the agent its side's view and the
legal actions, and checks the choice."""

from __future__ import annotations

from tests.rhine.helpers import board
from umpire.core.actions import Action
from umpire.core.flow import Pending
from umpire.core.view import View
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.ruleset import world
from umpire.rulesets.rhine.state import RhineState


def decide(state: RhineState, side: str, seed: int = 0) -> tuple[Action, list[Action]]:
    """The scripted player's choice for ``side`` from that side's view only."""
    legal = RULESET.legal_actions(state)
    assert RULESET.to_act(state) == side, "the position must give the move to this side"
    view = View(RULESET, side, lambda: RULESET.observation(state, side))
    choice = RhineScripted(side, seed).choose(view, legal)
    assert choice in legal
    return choice, legal


def combat_phase(state: RhineState, side: str) -> None:
    state.flow.phase = f"{side}_1"
    state.order = {side: "fight-move"}
    state.memo.clear()


def move_phase(state: RhineState, side: str) -> None:
    state.flow.phase = f"{side}_1"
    state.order = {side: "move-fight"}
    state.memo.clear()


# -- attacks --------------------------------------------------------------------------------
def test_attacks_at_good_odds_with_every_unit_that_helps() -> None:
    """Two Soviet tank regiments (8+8) next to a US mech battalion (4) in the open: 4:1 with
    armour superiority. The Pact attacks that hex, and with both regiments (the higher column)."""
    s = board({"P-79-TR1": "0803", "P-79-TR2": "0804", "N-3-MI1": "0704"})
    w = world(s)
    assert {"0803", "0804"} <= set(w.neighbours["0704"]) and w.terrain["0704"] == "clear"
    combat_phase(s, "pact")
    a, legal = decide(s, "pact")
    assert any(x.kind == "end_phase" for x in legal)
    assert a.kind == "attack" and a.cell == "0704"
    assert set(a.units) == {"P-79-TR1", "P-79-TR2"}


def test_does_not_attack_a_strong_city_at_bad_odds() -> None:
    """A lone recon battalion (3) against a US tank and mech battalion (5+4) in Mittelstadt
    (city, -2): 1:3 at best with the terrain against it. It does not attack; ending the phase
    (or a probe) is chosen instead."""
    s = board({"P-79-RB": "0705", "N-3-TB1": "0605", "N-3-MI1": "0605"})
    combat_phase(s, "pact")
    a, legal = decide(s, "pact")
    assert any(x.kind == "attack" for x in legal)  # the attack is legal, just bad
    assert a.kind != "attack"


def test_nato_counter_attacks_only_at_good_odds() -> None:
    """NATO (5+5 US tanks) next to a Soviet recon regiment (3) in the open attacks it; next to
    a Soviet tank stack (8+8) it does not."""
    s = board({"N-3-TB1": "0604", "N-3-TB2": "0603", "P-79-RB": "0704"})
    combat_phase(s, "nato")
    a, _ = decide(s, "nato")
    assert a.kind == "attack" and a.cell == "0704"
    s = board({"N-3-TB1": "0604", "N-3-TB2": "0603", "P-79-TR1": "0704", "P-79-TR2": "0704"})
    combat_phase(s, "nato")
    a, legal = decide(s, "nato")
    assert any(x.kind == "attack" for x in legal)
    assert a.kind != "attack"


# -- combat support ---------------------------------------------------------------------------
def _cs_decision(state: RhineState, attack: Action, side: str) -> tuple[Action, list[Action]]:
    """Make ``attack``, let the other side commit nothing, and return ``side``'s decision."""
    RULESET.apply(state, attack)
    while RULESET.to_act(state) != side:
        RULESET.apply(state, Action("cs", option="none"))
    return decide(state, side)


def test_defends_a_city_with_all_the_support_it_may_commit() -> None:
    """NATO defends Mittelstadt (city): the support decides whether the city is lost, so it
    commits the most it may (rhine.cs.limit.artillery: up to its order's limit)."""
    s = board({"P-79-TR1": "0705", "P-79-TR2": "0705", "N-3-MI1": "0605"})
    combat_phase(s, "pact")
    s.order["nato"] = "fight-move"  # NATO may commit up to 3 artillery
    a, legal = _cs_decision(
        s, Action("attack", cell="0605", units=("P-79-TR1", "P-79-TR2")), "nato"
    )
    size = {x.option: sum(R.parse_cs(x.option or "none").values()) for x in legal}
    assert size[a.option] == max(size.values()) > 0


def test_keeps_support_when_it_changes_nothing() -> None:
    """Two Soviet tank regiments (16) against a Heimatschutz garrison of (2) in the open: 6:1
    with armour superiority (+2). Every roll vacates the hex whatever either side commits (the
    >=6:1 column never gives worse than DR1, rhine.crt.table), so the Pact keeps its support
    for the combats where it counts."""
    s = board({"P-79-TR1": "0803", "P-79-TR2": "0804", "N-HS-M": "0704"})
    combat_phase(s, "pact")
    w = world(s)
    fig = R.combat_figures(w, s, "pact", "0704", ("P-79-TR1", "P-79-TR2"), ["N-HS-M"])
    assert fig.column is not None and w.tables.crt.columns[fig.column] == "6:1"
    dist = R.crt_distribution(w, fig.column, fig.drm - 2)  # even against two NATO markers
    assert sum(p for r, p in dist.items() if r in ("DR1", "DR2", "DE")) == 1
    attack = Action("attack", cell="0704", units=("P-79-TR1", "P-79-TR2"))
    a, legal = _cs_decision(s, attack, "pact")
    assert len(legal) > 1  # support could be committed
    assert a.option == "none"


def test_commits_support_where_the_result_hangs_on_it() -> None:
    """A Pact attack at 2:1 in the open: each artillery marker is one column (rhine.drm.cs), so
    the Pact commits the support it may."""
    s = board({"P-79-TR1": "0804", "P-79-TR2": "0804", "N-3-MI1": "0704", "N-3-MI2": "0704"})
    combat_phase(s, "pact")
    fig = R.combat_figures(
        world(s), s, "pact", "0704", ("P-79-TR1", "P-79-TR2"), ["N-3-MI1", "N-3-MI2"]
    )
    assert fig.column is not None and world(s).tables.crt.columns[fig.column] == "2:1"
    attack = Action("attack", cell="0704", units=("P-79-TR1", "P-79-TR2"))
    a, _ = _cs_decision(s, attack, "pact")
    assert sum(R.parse_cs(a.option or "none").values()) > 0


# -- momentum and probes ----------------------------------------------------------------------
def test_momentum_attack_on_a_weak_neighbour() -> None:
    """Regiments that just advanced (a momentum pending, rhine.momentum) next to a lone recon
    battalion in the open attack it again rather than stop."""
    s = board({"P-79-TR1": "0705", "P-79-TR2": "0705", "N-11-SQ1": "0604"})
    combat_phase(s, "pact")
    s.flow.stack.append(
        Pending("pact", ("attack", "probe", "decline"), "momentum", {"units": ["P-79-TR1"]})
    )
    a, legal = decide(s, "pact")
    assert any(x.kind == "decline" for x in legal)
    assert a.kind == "attack" and a.units == ("P-79-TR1",)


def test_probes_toward_the_objective() -> None:
    """A Pact tank regiment next to a NATO stack it cannot beat (5+5+4 against 8), with an empty
    hex in the stack's zone one hex nearer Mittelstadt, probes into it (rhine.probe: adjacent to
    an enemy unit and to an empty hex in an enemy ZOC) instead of idling."""
    s = board({"P-79-TR1": "0804", "N-3-TB1": "0704", "N-3-TB2": "0704", "N-3-MI1": "0704"})
    combat_phase(s, "pact")
    a, legal = decide(s, "pact")
    assert {x.cell for x in legal if x.kind == "probe"} == {"0803", "0705"}
    assert a.kind == "probe" and a.cell == "0705"  # the hex nearer Mittelstadt


# -- movement: stacking, zones, cities, columns ------------------------------------------------
def test_nato_garrisons_an_empty_city_the_enemy_approaches() -> None:
    """Mittelstadt (0605) is empty; a Soviet regiment stands two hexes east. The US tank
    battalion one hex away moves into the city."""
    s = board({"N-3-TB1": "0505", "P-79-TR1": "0805"})
    s.pos["N-HS-M"] = None
    move_phase(s, "nato")
    a, _ = decide(s, "nato")
    assert a.kind == "move" and a.unit == "N-3-TB1" and a.cell == "0605"


def test_withdraws_in_column_from_behind_the_enemy_line() -> None:
    """A US mech battalion left behind the Soviet spearhead (Pact units west of it, none
    adjacent, no air) falls back westward in column (rhine.move.column doubles its MA) to a hex
    west of the spearhead."""
    s = board({"N-3-MI1": "1009", "P-79-TR1": "0805", "P-79-TR2": "0805"})
    move_phase(s, "nato")
    a, legal = decide(s, "nato")
    w = world(s)
    assert any(x.option == "column" for x in legal if x.unit == "N-3-MI1")
    assert a.kind == "move" and a.unit == "N-3-MI1" and a.option == "column"
    assert a.cell is not None and w.column(a.cell) < w.column("0805")


def test_pact_stacks_rather_than_stands_alone_next_to_a_strong_enemy() -> None:
    """A Soviet mech regiment (7) may end next to a NATO stack of 5+5+4 either alone or on its
    division's tank regiment. It keeps stacking in mind: it joins its own division's unit, and
    never a unit of another division (rhine.stack.pact would refuse that move anyway)."""
    s = board(
        {"P-79-MRR": "0906", "P-79-TR1": "0806", "N-3-TB1": "0705", "N-3-TB2": "0705"}
        | {"N-3-MI1": "0705"}
    )
    move_phase(s, "pact")
    s.moved.append("P-79-TR1")  # only the mech regiment is left to move
    a, _ = decide(s, "pact")
    assert a.kind == "move" and a.unit == "P-79-MRR"
    assert a.cell == "0806" or a.cell not in world(s).neighbours["0705"]


def test_does_not_walk_into_a_zone_it_cannot_hold() -> None:
    """A lone Soviet recon regiment (3) does not end its move next to a NATO stack of 13
    strength (the zone would pin it, rhine.zoc.nonrecon / recon, and the stack would destroy it
    at good odds) when other hexes nearer the objective are safe."""
    s = board({"P-79-RB": "1005", "N-3-TB1": "0705", "N-3-TB2": "0705", "N-3-MI1": "0705"})
    move_phase(s, "pact")
    a, _ = decide(s, "pact")
    assert a.kind == "move" and a.unit == "P-79-RB"
    assert a.cell not in world(s).neighbours["0705"]
