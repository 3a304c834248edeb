"""The scripted player's refugee placement (issue 13, speed) worked out in one pass over the
listing equals the plain ``max`` over the listed placements with a key per placement.

rhine.admin.refugees: the Pact places each refugee marker on a hex the rules list; the scripted
player weighs each listed hex by the NATO units within 2 hexes of it, 1.5 more for a hex with a
road or autobahn hexside, and a random tie-breaker of up to 0.1 (one draw per listed hex, in
listed order), and takes the first of the highest. Compared at every refugee placement of whole
games of both scenarios: the same placement, and the player's random stream left in the same
state (as many draws, in the same order).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.model import World, world_for


def plain_refugee(
    w: World, pos: dict[str, str | None], legal: Sequence[Action], rng: random.Random
) -> Action:
    """The placement weighed hex by hex, as written from the player's description."""
    road_hexes = {
        h
        for h in w.ids
        if any(
            frozenset((h, n)) in w.road_edges or frozenset((h, n)) in w.autobahn_edges
            for n in w.neighbours[h]
        )
    }

    def near(h: str) -> int:
        return sum(
            1 for u, p in pos.items() if p and w.units[u].side == "nato" and w.distance(p, h) <= 2
        )

    def v(a: Action) -> float:
        h = a.cell or ""
        return near(h) + (1.5 if h in road_hexes else 0) + rng.random() * 0.1

    return max(legal, key=v)


@pytest.mark.parametrize(("scenario", "seed"), [("autobahn-gap", 71), ("kinzig-valley", 72)])
def test_refugee_placement_is_the_plain_max_over_whole_games(scenario: str, seed: int) -> None:
    game = Game(RULESET, scenario, seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    w = world_for(scenario)
    compared = 0
    while not game.is_over:
        side = game.to_act
        assert side is not None
        legal = game.legal_actions()
        player = agents[side]
        if any(a.kind == "refugee" for a in legal):
            twin = random.Random()
            twin.setstate(player.rng.getstate())
            view = game.view(side)
            want = plain_refugee(w, dict(view.observation["pos"]), legal, twin)
            got = player.choose(view, legal)
            assert got is want
            assert player.rng.getstate() == twin.getstate()
            compared += 1
        else:
            got = player.choose(game.view(side), legal)
        game.apply(got)
    assert compared >= 10  # placements were compared (refugees come from turn 3 on)
