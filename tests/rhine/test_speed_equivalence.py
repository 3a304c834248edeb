"""The shortcuts taken for speed (issue 13) give what the plain rules give: distance rows
equal hex distances (rhine.move.costs reach, air range), attackers found through the
position's occupancy equal those found by scanning every unit (rhine.combat.one_hex), and a
listed action is accepted by the check while an equal copy and an illegal action still go
through the full check (rhine.sequence.turn)."""

from __future__ import annotations

import pytest

from tests.rhine.helpers import take_suggested_setup
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game
from umpire.geometry.hexgrid import distance
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine import ruleset as RS
from umpire.rulesets.rhine.agent import RhineScripted


@pytest.mark.parametrize("scenario", ["autobahn-gap", "kinzig-valley"])
def test_distance_rows_equal_hex_distances(scenario: str) -> None:
    w = RS.world(Game(RULESET, scenario, 1).state)
    for a in w.ids[:: max(1, len(w.ids) // 25)]:
        row = w.distances_from(a)
        assert set(row) == set(w.ids)
        for b in w.ids:
            assert row[b] == distance(w.hex[a], w.hex[b]) == w.distance(a, b)


def test_attackers_through_occupancy_equal_a_scan() -> None:
    game = Game(RULESET, "autobahn-gap", 3)
    agents = {s: RhineScripted(s, 3) for s in RULESET.meta.players}
    compared = 0
    while not game.is_over and len(game.record.actions) < 400:
        state = game.state
        w = RS.world(state)
        occ = R.occupancy(w, state)
        for side in ("pact", "nato"):
            for target, here in occ.items():
                if w.units[here[0]].side == side:
                    continue
                scanned = []
                for n in w.neighbours[target]:
                    for u in sorted(u for u, p in state.pos.items() if p == n):
                        if R.may_attack(w, u, side, set(), None):
                            scanned.append(u)
                assert R.attackers_eligible(w, state, side, target, set(), None, occ=occ) == (
                    scanned
                )
                compared += 1
        side_to_act = game.to_act
        assert side_to_act is not None
        game.apply(agents[side_to_act].choose(game.view(side_to_act), game.legal_actions()))
    assert compared > 100


def test_listed_action_is_accepted_and_others_still_checked() -> None:
    game = Game(RULESET, "autobahn-gap", 2)
    take_suggested_setup(game)
    legal = game.legal_actions()  # the order phase: the listing is remembered
    assert {a.kind for a in legal} == {"order"}
    copy = Action(legal[0].kind, option=legal[0].option)
    assert copy == legal[0] and copy is not legal[0]
    with pytest.raises(IllegalActionError):
        RS.ENGINE.check(game.state, Action("order", option="dig-in"))
    game.legal_actions()
    RS.ENGINE.check(game.state, copy)  # an equal copy: checked in full, allowed
    game.legal_actions()
    with pytest.raises(IllegalActionError):
        RS.ENGINE.check(
            game.state, Action("refugee", cell=game.state.pos[next(iter(game.state.pos))])
        )
    game.apply(legal[0])
    assert game.state.order  # the listed action itself was accepted and resolved
