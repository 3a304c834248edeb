"""``FlowState.clone`` and ``Deck.clone`` copy structurally: the same as the round trip through
dicts they replace (``from_dict(to_dict())``), sharing no mutable part with the original, at
every decision of seeded random games of the rulesets that keep a FlowState."""

from __future__ import annotations

import random

import pytest

from umpire.core.deck import Deck
from umpire.core.flow import FlowState, SecretCommit
from umpire.core.game import new_game
from umpire.core.rng import RandomStream

GAMES = [
    "portable/village-attack",
    "rhine/autobahn-gap",
    "bookgun/convoy-ambush",
]  # (Seven Days keeps its own flow record, not a FlowState)


def _containers(flow: FlowState) -> list[object]:
    out: list[object] = [flow.stack]
    for d in flow.stack:
        out.append(d.data)
        if isinstance(d, SecretCommit):
            out.append(d.committed)
            out += list(d.committed.values())
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_flow_clone_is_the_dict_round_trip(game_id: str) -> None:
    game = new_game(game_id, seed=4)
    chooser = random.Random(4)
    seen_stack = 0
    for _ in range(150):
        if game.is_over:
            break
        flow = game.state.flow
        assert isinstance(flow, FlowState)
        twin = flow.clone()
        assert twin == FlowState.from_dict(flow.to_dict())
        assert twin.to_dict() == flow.to_dict()
        mine = {id(c) for c in _containers(flow)}
        assert not mine & {id(c) for c in _containers(twin)}
        seen_stack += bool(flow.stack)
        game.apply(chooser.choice(game.legal_actions()))
    assert seen_stack > 0  # some positions had pending decisions to copy


def test_deck_clone_is_the_dict_round_trip() -> None:
    deck = Deck.shuffled([f"c{k}" for k in range(20)], RandomStream(3))
    deck.deal(["a", "b"], 3, RandomStream(5))
    deck.discard.append(deck.pile.pop())
    twin = deck.clone()
    assert twin == Deck.from_dict(deck.to_dict())
    twin.pile.pop()
    twin.hands["a"].pop()
    twin.discard.clear()
    assert deck == Deck.from_dict(deck.to_dict())
    assert deck != twin
