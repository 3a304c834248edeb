"""The scripted player's shortlist of reactors (issue 19): the ``REACTION_SHORTLIST`` units
nearest the activating unit and every ATGM carrier, nearest first, picked from the units
sorted by distances worked out once; checked against the player's first way
(``reactions.nearest_first`` then the pick) over whole games.

Which units may react is the rules' (rule sevendays.reaction.window, house timing of the
digest's 'Reactions': one unit of the other side); the shortlist is the player's own choice
of whom to weigh, so it must stay the one it made before, for the same games."""

from __future__ import annotations

from typing import cast

import pytest

import umpire
from umpire.agents import make_agent
from umpire.rulesets.sevendays.agent import REACTION_SHORTLIST, _shortlist
from umpire.rulesets.sevendays.reactions import nearest_first
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.state import Unit
from umpire.rulesets.sevendays.world import World


def _sorted_shortlist(world: World, units: list[Unit], activator: Unit) -> list[Unit]:
    """The shortlist as the player first wrote it: every unit sorted, then picked."""
    return [
        u
        for rank, u in enumerate(nearest_first(units, activator))
        if rank < REACTION_SHORTLIST or world.profile(u).atgm is not None
    ]


@pytest.mark.parametrize("scenario,seed", [("meeting-engagement", 8), ("escalating-engagement", 3)])
def test_the_shortlist_is_the_sorted_one(scenario: str, seed: int) -> None:
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
    checked = longer = 0
    for n in range(300):
        side = game.to_act
        if side is None:
            break
        if n % 3 == 0:
            state = game.state
            world = cast(SevenDays, game.ruleset).world(state)
            alive = [u for u in state.units.values() if u.alive]
            for activator in alive:
                foes = [u for u in alive if u.side != activator.side]
                got = _shortlist(world, foes, activator)
                assert got == _sorted_shortlist(world, foes, activator)
                checked += 1
                longer += len(got) > REACTION_SHORTLIST
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
    assert checked > 100 and longer > 0  # ATGM carriers beyond the nearest were kept too


def test_ties_keep_the_order_of_the_units() -> None:
    """Units at the same distance come in the order given (as a stable sort leaves them)."""
    game = umpire.new_game("sevendays/meeting-engagement", seed=0)
    state = game.state
    world = cast(SevenDays, game.ruleset).world(state)
    units = list(state.units.values())
    activator = units[0]
    ring = [u for u in units[1:] if u.side != activator.side]
    for k, u in enumerate(ring):  # every foe 10" from the activator, some on the same spot
        u.x, u.y = activator.x + (10.0 if k % 2 else -10.0), activator.y
    assert _shortlist(world, ring, activator) == _sorted_shortlist(world, ring, activator)
    assert _shortlist(world, ring, activator)[:REACTION_SHORTLIST] == ring[:REACTION_SHORTLIST]
