"""The core hooks companion mode uses: a stream may supply a primitive's dice or draw.

core.chance: ``faces_for``/``index_for`` on a stream replace ``stream.dice``/``choice_index``;
a plain RandomStream is read exactly as before. core.deck: a physical deck names the card
drawn. The companion's words say which dice to roll and what the roll needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from umpire.companion.dice import ImpossibleRoll, TableDice, parse_faces
from umpire.companion.words import draw_request, roll_request
from umpire.core.chance import (
    Chance,
    CountAtLeast,
    DiceOff,
    Draw,
    EnteredOutcomes,
    Modifier,
    TableLookup,
)
from umpire.core.chance import Test as DiceTest
from umpire.core.deck import Deck, standard_deck
from umpire.core.errors import RecordMismatchError
from umpire.core.events import Event
from umpire.core.rng import RandomStream


class Typed:
    """Faces and cards typed by the players, and what they were asked."""

    def __init__(self, faces: list[list[int]], cards: Sequence[str] = ()) -> None:
        self.faces = list(faces)
        self.cards = list(cards)
        self.asked: list[tuple[int, int, Chance[Any] | None]] = []

    def ask_faces(self, count: int, sides: int, chance: Chance[Any] | None) -> list[int]:
        self.asked.append((count, sides, chance))
        return self.faces.pop(0)

    def ask_index(self, items: Sequence[Any], chance: Chance[Any] | None) -> int:
        return [str(i) for i in items].index(self.cards.pop(0))


def test_a_test_reads_the_faces_entered_and_records_them() -> None:
    typed = Typed([[3, 9]])
    table = TableDice(RandomStream(5), typed.ask_faces, typed.ask_index)
    hit = DiceTest(10, 8, "x.fire", count=2, modifiers=(Modifier("x.moved", -1, "moved"),))
    log: list[Event] = []
    assert hit.sample(table, log) is True  # 9 - 1 = 8 passes 8+
    assert log[0]["dice"] == [3, 9]
    assert table.entries == [{"faces": [3, 9], "sides": 10}]
    assert typed.asked == [(2, 10, hit)]


def test_a_plain_stream_rolls_exactly_as_before() -> None:
    hit = CountAtLeast(5, 6, 4, "x.hits")
    a, b = RandomStream(11), RandomStream(11)
    assert hit.sample(a, []) == sum(1 for f in b.dice(5, 6) if f >= 4)
    assert a == b


def test_the_game_stream_is_kept_in_step_with_the_digital_game() -> None:
    typed = Typed([[6, 6]])
    inner, twin = RandomStream(3), RandomStream(3)
    table = TableDice(inner, typed.ask_faces, typed.ask_index)
    off = DiceOff("x.initiative")
    assert off.sample(table, []) == 0
    twin.d(6), twin.d(6)
    assert inner == twin


def test_entered_outcomes_replay_and_refuse_impossible_faces() -> None:
    look = TableLookup(6, {n: n for n in range(2, 13)}, "x.crt", count=2)
    assert look.sample(EnteredOutcomes(RandomStream(1), [{"faces": [2, 5], "sides": 6}]), []) == 7
    with pytest.raises(RecordMismatchError):
        look.sample(EnteredOutcomes(RandomStream(1), [{"faces": [2, 7], "sides": 6}]), [])
    with pytest.raises(RecordMismatchError):
        look.sample(EnteredOutcomes(RandomStream(1), []), [])
    extra = EnteredOutcomes(RandomStream(1), [{"faces": [1, 1], "sides": 6}, {"faces": [1]}])
    look.sample(extra, [])
    with pytest.raises(RecordMismatchError):
        extra.finish()


def test_a_card_drawn_from_a_physical_deck() -> None:
    typed = Typed([], ["Q-hearts", "A-spades"])
    table = TableDice(RandomStream(2), typed.ask_faces, typed.ask_index)
    deck = Deck.shuffled(standard_deck(), RandomStream(2))
    assert deck.draw(table) == "Q-hearts"
    assert deck.draw(table) == "A-spades"
    assert "Q-hearts" not in deck.pile and len(deck.pile) == 52
    card = Draw(["7-clubs", "K-hearts"], "x.casualty")
    typed.cards.append("K-hearts")
    log: list[Event] = []
    assert card.sample(table, log) == "K-hearts"
    assert table.entries[-1] == {"index": 1, "of": 2, "item": "K-hearts"}


def test_faces_typed_are_checked() -> None:
    assert parse_faces("7, 3", 2, 10) == [7, 3]
    for text, count, sides in (("7", 1, 6), ("0", 1, 6), ("1 2 3", 2, 6), ("x", 1, 6)):
        with pytest.raises(ImpossibleRoll):
            parse_faces(text, count, sides)


def test_the_players_are_told_what_the_roll_needs() -> None:
    hit = DiceTest(10, 6, "sevendays.fire.to_hit", modifiers=(Modifier("m", -1, "firer moved"),))
    words = roll_request(1, 10, hit)
    assert words.startswith("roll 1d10 for sevendays.fire.to_hit")
    assert "a die of 7+" in words and "-1 firer moved" in words
    pool = DiceTest(6, 4, "x.best", count=2)
    assert "needs one die of 4+" in roll_request(2, 6, pool)
    assert "each die of 5+ is a hit" in roll_request(3, 6, CountAtLeast(3, 6, 5, "x.hits"))
    assert roll_request(2, 6, None) == "roll 2d6"
    assert "A-spades, Q-hearts" in draw_request(["Q-hearts", "A-spades"], None)
