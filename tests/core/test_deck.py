"""core/deck.py: shuffled and drawn with the game's stream; a side's view hides the pile order
and the other hands."""

from __future__ import annotations

import json

import pytest

from umpire.core.deck import Deck, card_colour, card_rank, card_suit, standard_deck
from umpire.core.rng import RandomStream


def test_standard_deck() -> None:
    cards = standard_deck(2)
    assert len(cards) == len(set(cards)) == 54
    assert (card_rank("10-hearts"), card_suit("10-hearts"), card_colour("10-hearts")) == (
        "10",
        "hearts",
        "red",
    )
    assert (card_rank("joker-1"), card_suit("joker-1"), card_colour("joker-1")) == (
        "joker",
        None,
        None,
    )
    assert card_colour("A-spades") == "black"


def test_shuffle_is_a_seeded_permutation() -> None:
    a = Deck.shuffled(standard_deck(0), RandomStream(5))
    b = Deck.shuffled(standard_deck(0), RandomStream(5))
    c = Deck.shuffled(standard_deck(0), RandomStream(6))
    assert a.pile == b.pile != c.pile
    assert sorted(a.pile) == sorted(standard_deck(0))


def test_deal_alternates_and_draws_from_the_top() -> None:
    deck = Deck(pile=[str(i) for i in range(10)])
    deck.deal(("a", "b"), 2, RandomStream(0))
    assert deck.hands == {"a": ["9", "7"], "b": ["8", "6"]}
    assert deck.pile == ["0", "1", "2", "3", "4", "5"]


def test_draw_reshuffles_the_discards_when_the_pile_runs_out() -> None:
    stream = RandomStream(1)
    deck = Deck(pile=["x"], discard=["a", "b", "c"])
    assert deck.draw(stream) == "x"
    assert deck.draw(stream, reshuffle=False) is None
    card = deck.draw(stream)
    assert card in ("a", "b", "c") and deck.reshuffles == 1 and deck.discard == []
    assert sorted([*deck.pile, card]) == ["a", "b", "c"]
    assert Deck(pile=[]).draw(stream) is None


def test_play_moves_a_held_card_to_the_discards() -> None:
    deck = Deck(pile=[], hands={"a": ["K-hearts", "2-clubs"]})
    deck.play("a", "K-hearts")
    assert deck.hands["a"] == ["2-clubs"] and deck.discard == ["K-hearts"]
    with pytest.raises(ValueError, match="does not hold"):
        deck.play("a", "K-hearts")
    deck.give("b", "3-spades")
    assert deck.hands["b"] == ["3-spades"]


def test_a_view_hides_the_pile_and_other_hands() -> None:
    deck = Deck.shuffled(standard_deck(0), RandomStream(3))
    deck.deal(("a", "b"), 5, RandomStream(3))
    deck.play("b", deck.hands["b"][0])
    view = deck.view("a")
    assert view == {
        "pile": len(deck.pile),
        "discard": deck.discard,
        "hand": deck.hands["a"],
        "hands": {"a": 5, "b": 4},
    }
    words = json.dumps(view)
    assert not any(f'"{card}"' in words for card in [*deck.pile, *deck.hands["b"]])
    assert sorted(deck.unseen_by("a")) == sorted([*deck.pile, *deck.hands["b"]])
    assert deck.view(None) == deck.to_dict()


def test_round_trip_and_clone() -> None:
    deck = Deck(pile=["a", "b"], discard=["c"], hands={"x": ["d"]}, reshuffles=2)
    assert Deck.from_dict(json.loads(json.dumps(deck.to_dict()))) == deck
    twin = deck.clone()
    twin.hands["x"].append("e")
    assert deck.hands["x"] == ["d"]
