"""Decks and hands: cards as plain ids, shuffled and drawn with the game's own stream.

A :class:`Deck` keeps the draw pile (in order, which no side may see), the discard pile (face
up) and each side's hand (seen by its owner only). :meth:`Deck.view` is what one side may know:
its own hand, the discards, and only the *number* of cards in the pile and in other hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from umpire.core.chance import Stream

SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def standard_deck(jokers: int = 2) -> list[str]:
    """A 52-card deck plus ``jokers``: ids like ``"7-hearts"``, ``"A-spades"``, ``"joker-1"``."""
    cards = [f"{rank}-{suit}" for suit in SUITS for rank in RANKS]
    return cards + [f"joker-{i}" for i in range(1, jokers + 1)]


def card_rank(card: str) -> str:
    """``"10-hearts"`` -> ``"10"``; a joker's rank is ``"joker"``."""
    return "joker" if card.startswith("joker") else card.split("-", 1)[0]


def card_suit(card: str) -> str | None:
    """``"10-hearts"`` -> ``"hearts"``; a joker has no suit."""
    return None if card.startswith("joker") else card.split("-", 1)[1]


def card_colour(card: str) -> str | None:
    suit = card_suit(card)
    if suit is None:
        return None
    return "red" if suit in ("hearts", "diamonds") else "black"


def shuffle(cards: list[str], stream: Stream) -> None:
    """Shuffle in place with the game's stream (Fisher–Yates through ``choice_index``)."""
    for i in range(len(cards) - 1, 0, -1):
        j = stream.choice_index(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@dataclass
class Deck:
    """A draw pile, a discard pile and hands; plain data that round-trips through JSON."""

    pile: list[str]
    discard: list[str] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)
    reshuffles: int = 0

    @classmethod
    def shuffled(cls, cards: Iterable[str], stream: Stream) -> Deck:
        pile = list(cards)
        shuffle(pile, stream)
        return cls(pile=pile)

    def draw(self, stream: Stream, reshuffle: bool = True) -> str | None:
        """The top card of the pile; when it is empty and ``reshuffle``, the discards are
        shuffled into a new pile first. ``None`` when no card is left at all."""
        if not self.pile and reshuffle and self.discard:
            self.pile, self.discard = self.discard, []
            shuffle(self.pile, stream)
            self.reshuffles += 1
        pick = getattr(stream, "index_for", None)
        if pick is not None and self.pile:
            # a physical deck (companion mode): the card the players drew comes off the pile
            index = int(pick(list(self.pile), None))
            self.pile[-1], self.pile[index] = self.pile[index], self.pile[-1]
        return self.pile.pop() if self.pile else None

    def deal(self, sides: Sequence[str], count: int, stream: Stream) -> None:
        """``count`` cards to each side in turn."""
        for _ in range(count):
            for side in sides:
                card = self.draw(stream)
                if card is not None:
                    self.hands.setdefault(side, []).append(card)

    def give(self, side: str, card: str) -> None:
        self.hands.setdefault(side, []).append(card)

    def play(self, side: str, card: str) -> None:
        """``side`` plays ``card`` from its hand onto the discards."""
        hand = self.hands.get(side, [])
        if card not in hand:
            raise ValueError(f"{side} does not hold {card}")
        hand.remove(card)
        self.discard.append(card)

    def view(self, side: str | None) -> dict[str, Any]:
        """What ``side`` may know (``None``: everything, as the umpire sees it)."""
        if side is None:
            return self.to_dict()
        return {
            "pile": len(self.pile),
            "discard": list(self.discard),
            "hand": list(self.hands.get(side, [])),
            "hands": {s: len(h) for s, h in self.hands.items()},
        }

    def unseen_by(self, side: str) -> list[str]:
        """The cards ``side`` cannot see (the pile and other hands), for re-sampling."""
        out = list(self.pile)
        for s, hand in self.hands.items():
            if s != side:
                out += hand
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "pile": list(self.pile),
            "discard": list(self.discard),
            "hands": {s: list(h) for s, h in self.hands.items()},
            "reshuffles": self.reshuffles,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deck:
        return cls(
            pile=list(data["pile"]),
            discard=list(data.get("discard", [])),
            hands={s: list(h) for s, h in data.get("hands", {}).items()},
            reshuffles=int(data.get("reshuffles", 0)),
        )

    def clone(self) -> Deck:
        """A copy sharing no list with this one (as ``from_dict(to_dict())``)."""
        return Deck(
            list(self.pile),
            list(self.discard),
            {side: list(hand) for side, hand in self.hands.items()},
            self.reshuffles,
        )
