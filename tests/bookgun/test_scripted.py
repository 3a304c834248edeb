"""The Book and The Gun's scripted players on constructed positions (issue 14, "Scripted
players"): insurgents use concealment, ambush and withdrawal; the army moves by bounds,
searches buildings and respects its rules of engagement - each deciding from its own view."""

from __future__ import annotations

import math

from tests.bookgun.test_rule_ids import _place
from tests.bookgun.test_rules import _deployed
from umpire.core.actions import Action
from umpire.core.view import View
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.agent import BookGunScripted
from umpire.rulesets.bookgun.common import centre
from umpire.rulesets.bookgun.state import KILLED, BookGunState
from umpire.rulesets.bookgun.world import World, world_for


def _choose(s: BookGunState, side: str) -> tuple[Action, BookGunScripted]:
    agent = BookGunScripted(side, 1)
    view = View(RULESET, side, lambda: RULESET.observation(s, side))
    legal = RULESET.legal_actions(s)
    assert RULESET.to_act(s) == side and legal
    action = agent.choose(view, legal)
    assert action in legal
    return action, agent


def _market() -> BookGunState:
    """Market Day set up: cell-1 in A1, cell-2 in B1, the group HQ in C1 (all concealed)."""
    s = _deployed().state
    assert isinstance(s, BookGunState)
    return s


def _fire_phase(s: BookGunState, card: str) -> None:
    s.flow.phase, s.acted, s.card = "fire", [], card
    for u in s.units.values():
        u.moved_last = True  # fireable in line of sight without a spotting roll


# -- insurgents ----------------------------------------------------------------------------------
def test_insurgents_stay_hidden_under_their_markers() -> None:
    """Concealment: with a red movement card and the army far off, the insurgents neither
    activate nor move a concealed unit out of its cover."""
    s = _market()
    s.card = "5-hearts"
    action, agent = _choose(s, "insurgents")
    assert action.kind == "hold" and "hidden" in agent.last_reason
    # if a concealed unit is activated anyway, it stays under cover
    activate = next(
        a for a in RULESET.legal_actions(s) if a.kind == "activate" and a.unit == "cell-1"
    )
    RULESET.apply(s, activate)
    action, agent = _choose(s, "insurgents")
    assert action.kind == "stay" and "cover" in agent.last_reason
    assert s.units["cell-1"].concealed


def test_insurgents_hold_fire_until_the_army_is_close_then_spring_the_ambush() -> None:
    """Ambush: a concealed cell does not give itself away at long range (team A 20+ in. off)
    but fires once the army is within 12 in."""
    s = _market()
    _fire_phase(s, "5-hearts")
    _place(s, "team-a", 31.0, 9.0, 180.0)  # only cell-1 (A1) has a shot, at about 26 in.
    fires = [a for a in RULESET.legal_actions(s) if a.kind == "fire"]
    assert fires and {a.unit for a in fires} == {"cell-1"}
    action, agent = _choose(s, "insurgents")
    assert action.kind == "hold" and "closer" in agent.last_reason
    _place(s, "team-a", 12.0, 25.0, 180.0)  # about 7 in. from the teahouse
    action, agent = _choose(s, "insurgents")
    assert action.kind == "fire" and action.unit == "cell-1" and action.target == "team-a"


def test_a_cell_that_has_lost_half_its_men_withdraws_away_from_the_army() -> None:
    """Withdrawal: a revealed cell down to 3 fit men of 7 is activated and moves away from the
    nearest army figure."""
    s = _market()
    cell = s.units["cell-2"]
    del s.markers[str(cell.marker)]
    cell.concealed, cell.marker = False, None
    _place(s, "cell-2", 20.0, 20.0, 270.0)
    for f in s.unit_figures(cell)[3:]:
        f.status = KILLED
    _place(s, "team-a", 20.0, 12.0, 90.0)
    s.card = "5-hearts"
    action, agent = _choose(s, "insurgents")
    assert action.kind == "activate" and action.unit == "cell-2" and "withdraw" in agent.last_reason
    RULESET.apply(s, action)
    enemy = centre(s, s.units["team-a"])
    before = math.dist(centre(s, cell), enemy)
    action, agent = _choose(s, "insurgents")
    assert action.kind == "move_to" and action.point is not None
    assert math.dist(action.point, enemy) > before + 1.0


# -- army ---------------------------------------------------------------------------------------
def test_the_army_moves_by_bounds() -> None:
    """Bounds: the units that moved last turn cover and the one that did not moves up."""
    s = _market()
    s.card = "5-spades"
    army = sorted(u.id for u in s.units.values() if u.side == "army")
    assert {"team-a", "team-b"} <= set(army)
    for fresh in army:
        for u in army:
            s.units[u].moved_last = u != fresh
        action, agent = _choose(s, "army")
        assert action.kind == "activate" and action.unit == fresh, (fresh, action)
        assert "bound" in agent.last_reason


def test_the_army_enters_and_searches_rooms_not_yet_searched() -> None:
    """Searching: next to the warehouse, a moving team goes into a room nobody has searched;
    inside it, its next card is spent on the search (bookgun.search)."""
    s = _market()
    s.card = "5-spades"
    _place(s, "team-a", 10.5, 11.0, 180.0)  # outside the warehouse door (9, 11)
    activate = Action("activate", unit="team-a")
    assert activate in RULESET.legal_actions(s)
    RULESET.apply(s, activate)
    action, agent = _choose(s, "army")
    assert action.kind == "move_to" and action.option in ("D1", "D2"), action
    assert "not yet searched" in agent.last_reason
    RULESET.apply(s, action)
    room = str(action.option)
    s.acted, s.flow.stack, s.card = [], [], "6-spades"
    assert any(f.room == room for f in s.unit_figures(s.units["team-a"]))
    action, agent = _choose(s, "army")
    assert action.kind == "search" and action.option == room


def test_the_army_never_aims_at_civilians_even_under_roe_4() -> None:
    """bookgun.roe.4: under Weapons Free the engine offers the civilian mob as a target (the
    sanction falls on the soldier who takes it); the scripted army never takes it, and holds
    fire when the mob is all it could hit. Under ROE 3 it is not even offered
    (bookgun.roe.3)."""
    s = _market()
    _fire_phase(s, "5-spades")
    crowd = centre(s, s.units["crowd"])
    _place(s, "team-a", crowd[0], crowd[1] - 6.0, 90.0)
    assert not any(
        a.kind == "fire" and a.target == "crowd" for a in RULESET.legal_actions(s)
    )  # ROE 3
    base = world_for("market-day", None)
    s.world_memo = World(base.spec.model_copy(update={"roe": 4}), base.tables)
    legal = RULESET.legal_actions(s)
    assert any(a.kind == "fire" and a.target == "crowd" for a in legal)
    for _ in range(5):
        action, _agent = _choose(s, "army")
        assert action.target != "crowd"
    # only the crowd in the sights: hold
    s.markers.clear()
    for u in s.units.values():
        if u.side == "insurgents":
            u.concealed = False
            for f in s.unit_figures(u):
                f.status = KILLED
    legal = RULESET.legal_actions(s)
    assert {a.target for a in legal if a.kind == "fire"} == {"crowd"}
    action, agent = _choose(s, "army")
    assert action.kind == "hold" and "civilians" in agent.last_reason
