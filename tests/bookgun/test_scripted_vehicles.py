"""The scripted players with vehicles and guns (issue 14, "Scripted players"), on positions
built from Night Raid: foot troops far from their objective mount a vehicle that can carry them
(bookgun.move.mount, p.16; bookgun.move.vehicles, p.15 passengers); a vehicle backs away from an
enemy close by (p.15: backing up straight, 1D6 wheeled); a gun with nothing in its view is
manhandled into a place it can fire from, a towed gun with the enemy in range is unlimbered
(bookgun.move.artillery, p.16 3.1-3.3). Each decides from its own side's observation."""

from __future__ import annotations

import math

from tests.bookgun.test_rule_ids import _place
from tests.bookgun.test_rule_ids_vehicles import _raid
from umpire.core.actions import Action
from umpire.core.view import View
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.agent import BookGunScripted, gun_shot
from umpire.rulesets.bookgun.common import centre
from umpire.rulesets.bookgun.state import BookGunState

ARMY, INSURGENTS = "5-spades", "5-hearts"  # Night Raid: army black, insurgents red


def _choose(s: BookGunState, side: str) -> tuple[Action, BookGunScripted]:
    agent = BookGunScripted(side, 1)
    view = View(RULESET, side, lambda: RULESET.observation(s, side))
    legal = RULESET.legal_actions(s)
    assert RULESET.to_act(s) == side and legal
    action = agent.choose(view, legal)
    assert action in legal
    return action, agent


def _card(s: BookGunState, card: str) -> None:
    s.flow.phase, s.card, s.acted = "movement", card, []
    s.flow.stack.clear()


def _humvee_at(s: BookGunState, x: float, y: float, facing: float = 90.0) -> None:
    hv = s.unit_figures(s.units["humvee"])[0]
    hv.x, hv.y, hv.facing = x, y, facing


# -- mounting ------------------------------------------------------------------------------------
def test_a_squad_far_from_its_objective_mounts_the_vehicle() -> None:
    """The squad stands by the empty Humvee at the south edge, 20+ in. from any marker: it gets
    in (bookgun.move.mount) rather than walk; the Humvee then drives (it carries troops)."""
    s = _raid()
    s.units["squad"].aboard = None
    _place(s, "squad", 15.0, 3.0, 90.0)
    _card(s, ARMY)
    mount = Action("activate", unit="squad", option="mount:humvee")
    assert mount in RULESET.legal_actions(s)
    action, agent = _choose(s, "army")
    assert action == mount and "mount" in agent.last_reason


def test_a_squad_near_its_objective_stays_on_foot() -> None:
    """Within 18 in. of the nearest marker (the shed S1), the squad does not mount up."""
    s = _raid()
    s.units["squad"].aboard = None
    _humvee_at(s, 18.0, 9.0)
    _place(s, "squad", 15.0, 10.0, 90.0)
    _card(s, ARMY)
    assert Action("activate", unit="squad", option="mount:humvee") in RULESET.legal_actions(s)
    action, _ = _choose(s, "army")
    assert action.option is None or not str(action.option).startswith("mount:")


# -- backing up ----------------------------------------------------------------------------------
def _cell_in_the_open(s: BookGunState, x: float, y: float) -> None:
    """The compound cell seen on the road (unconcealed, in the open)."""
    _place(s, "cell", x, y, 270.0)


def test_a_vehicle_backs_away_from_an_enemy_close_by() -> None:
    """An empty Humvee on the road facing north, the cell 4 in. in front of it: the army backs
    it up (p.15: wheeled 1D6, straight back) to the point farthest from the enemy."""
    s = _raid()
    s.units["squad"].aboard = None
    _place(s, "squad", 2.0, 2.0, 90.0)
    _humvee_at(s, 18.0, 8.0, 90.0)
    _cell_in_the_open(s, 16.0, 12.0)
    _card(s, ARMY)
    action, agent = _choose(s, "army")
    assert action == Action("activate", unit="humvee", option="back")
    assert "danger" in agent.last_reason
    RULESET.apply(s, action)
    hv = s.unit_figures(s.units["humvee"])[0]
    enemy = centre(s, s.units["cell"])
    before = math.dist(hv.pos, enemy)
    action, agent = _choose(s, "army")
    assert action.kind == "move_to" and action.point is not None
    assert math.dist(action.point, enemy) > before and "back away" in agent.last_reason


def test_a_vehicle_with_no_enemy_near_does_not_back() -> None:
    """The same Humvee with the cell 20 in. off: no backing."""
    s = _raid()
    s.units["squad"].aboard = None
    _place(s, "squad", 2.0, 2.0, 90.0)
    _humvee_at(s, 18.0, 8.0, 90.0)
    _cell_in_the_open(s, 4.0, 30.0)
    for f in s.unit_figures(s.units["cell"]):
        f.second, f.rounds = None, 0  # no RPG in range either
    _card(s, ARMY)
    action, _ = _choose(s, "army")
    assert action.option != "back"


# -- manhandling and limbering -----------------------------------------------------------------
def test_a_gun_with_nothing_in_view_is_manhandled_to_where_it_has_a_shot() -> None:
    """The SPG-9 on the hillside faces west; the squad is north of it, outside its
    180-degree view: on its card the team manhandles the gun (two men or more, p.16 3.1) and
    moves it to a point from which it will see the squad in range (facing the way it moved)."""
    s = _raid()
    s.units["squad"].aboard = None
    _place(s, "squad", 33.0, 33.0, 270.0)
    _card(s, INSURGENTS)
    obs = RULESET.observation(s, "insurgents")
    gun = s.figures["spg-gun"]
    assert not gun_shot(obs, "insurgents", gun.pos, gun.facing, gun.weapon)
    action, agent = _choose(s, "insurgents")
    assert action == Action("activate", unit="spg", option="manhandle")
    assert "firing position" in agent.last_reason
    RULESET.apply(s, action)
    start = centre(s, s.units["spg"])
    action, agent = _choose(s, "insurgents")
    assert action.kind == "move_to" and action.point is not None
    way = math.degrees(math.atan2(action.point[1] - start[1], action.point[0] - start[0])) % 360
    obs = RULESET.observation(s, "insurgents")
    assert gun_shot(obs, "insurgents", action.point, way, gun.weapon)
    RULESET.apply(s, action)
    assert gun_shot(
        RULESET.observation(s, "insurgents"), "insurgents", gun.pos, gun.facing, "recoilless_rifle"
    )


def test_a_gun_that_has_a_shot_stays_put() -> None:
    """The squad south-west of the gun, in its view and range: the gun is not moved."""
    s = _raid()
    s.units["squad"].aboard = None
    _place(s, "squad", 24.0, 8.0, 90.0)
    _card(s, INSURGENTS)
    obs = RULESET.observation(s, "insurgents")
    gun = s.figures["spg-gun"]
    assert gun_shot(obs, "insurgents", gun.pos, gun.facing, gun.weapon)
    action, _ = _choose(s, "insurgents")
    assert not (action.unit == "spg" and action.option == "manhandle")


def test_a_limbered_gun_with_the_enemy_in_range_is_unlimbered() -> None:
    """p.16 (3.3): a limbered gun does not fire; with the squad in range the team starts to
    unlimber it (a full turn, one more per missing crewman)."""
    s = _raid()
    s.units["squad"].aboard = None
    _place(s, "squad", 24.0, 8.0, 90.0)
    s.units["spg"].limbered = True
    _card(s, INSURGENTS)
    action, agent = _choose(s, "insurgents")
    assert action == Action("activate", unit="spg", option="unlimber")
    assert "unlimber" in agent.last_reason
