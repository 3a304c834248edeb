"""The scripted player's air marker placement (counted with bit sets for speed, issue 13) is
the placement its rule describes, worked out plainly: a marker placed in a hex is worth the sum,
over the front hexes (enemy hexes and their neighbours) in its range, of each one's shortfall
of cover (the air cap less the markers already covering it, at least 0; rhine.drm.air counts
the markers in range up to the cap); the first placement of the highest worth is chosen, and
the player stops placing when no placement is worth anything and it may stop."""

from __future__ import annotations

import random

import pytest

from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.agent import RhineScripted, _Board
from umpire.rulesets.rhine.model import World, world_for


def plain_choice(w: World, board: _Board, side: str, legal: list[Action]) -> Action:
    enemy = {h for u, h in board.pos.items() if h and w.units[u].side != side}
    front = set(enemy)
    for h in enemy:
        front.update(w.neighbours[h])
    cap = w.air_cap or 3
    short = {f: max(0, cap - R.air_markers_covering(w, board, f)) for f in front}
    best, score = None, -1
    for a in legal:
        if a.kind != "place_air" or a.cell is None:
            continue
        worth = sum(v for f, v in short.items() if f in w.in_range[a.cell])
        if worth > score:
            best, score = a, worth
    if best is None or score <= 0:
        stop = [a for a in legal if a.kind == "stop_air"]
        if stop and score == 0 and best is None:
            return stop[0]
    return best or legal[0]


@pytest.mark.parametrize("scenario", ["autobahn-gap", "kinzig-valley"])
def test_air_placement_is_the_plain_rule(scenario: str) -> None:
    game = Game(RULESET, scenario, 3)
    agents = {s: RhineScripted(s, 3) for s in RULESET.meta.players}
    rng = random.Random(3)
    compared = 0
    while not game.is_over and compared < 300:
        side = game.to_act
        assert side is not None
        view = game.view(side)
        obs = view.observation
        w = world_for(obs["scenario"], obs["options"].get("house_rules"))
        for _ in range(3):
            # the position with a few markers anywhere, and a placement offered in every hex
            # (some in a shuffled order, so that ties are decided by the order offered)
            board = _Board(obs)
            board.air_markers = rng.sample(w.ids, rng.randint(0, 4))
            cells = list(w.ids)
            if rng.random() < 0.5:
                rng.shuffle(cells)
            legal = [Action("place_air", cell=c) for c in cells] + [Action("stop_air")]
            player = RhineScripted(side, 0)
            assert player._air(w, board, legal) == plain_choice(w, board, side, legal)
            compared += 1
        game.apply(agents[side].choose(view, game.legal_actions()))
    assert compared >= 100
