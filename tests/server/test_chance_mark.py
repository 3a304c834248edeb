"""The web table's chance mark (``umpire.server.undo.chance_mark``), made cheaper for issue 19
(it runs before and after every action), gives the same fingerprint as the plain walk it
replaced: every random stream's position and every draw pile's length, two levels down from
the state, in the same order. Checked on the states of whole games of every built-in ruleset
and on made-up states holding saved streams, decks, piles, mappings that are not dicts and a
subclass of the stream."""

from __future__ import annotations

import dataclasses
from collections import UserDict
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from umpire.agents.base import make_agent
from umpire.core.deck import Deck
from umpire.core.game import new_game
from umpire.core.rng import RandomStream
from umpire.server.undo import PILE_KEYS, chance_mark


def _reference_fields(obj: Any) -> Iterator[Any]:
    if isinstance(obj, Mapping):
        yield from obj.values()
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield getattr(obj, f.name, None)
    elif hasattr(obj, "__dict__"):
        yield from vars(obj).values()


def reference_mark(state: Any) -> tuple[Any, ...]:
    """The walk as first written (every value through every test, the stream by to_dict)."""
    marks: list[Any] = []
    for value in _reference_fields(state):
        inner = _reference_fields(value) if isinstance(value, Mapping) else ()
        for item in (value, *inner):
            if isinstance(item, RandomStream):
                marks.append(hash(tuple(item.to_dict()["state"][1])))
            elif isinstance(item, Mapping) and set(item) == {"seed", "state"}:
                marks.append(hash(repr(item["state"])))
            elif isinstance(item, Deck):
                marks.append(len(item.pile))
        if isinstance(value, Mapping):
            for key in PILE_KEYS:
                pile = value.get(key)
                if isinstance(pile, list):
                    marks.append(len(pile))
    return tuple(marks)


GAMES = [
    ("sevendays/meeting-engagement", 160),
    ("portable/crossroads", 160),
    ("rhine/autobahn-gap", 160),
    ("bookgun/convoy-ambush", 160),
]


@pytest.mark.parametrize(("game_id", "steps"), GAMES)
def test_the_mark_of_every_state_of_a_game_is_the_plain_walks(game_id: str, steps: int) -> None:
    ruleset_id = game_id.split("/")[0]
    game = new_game(game_id, seed=7)
    agents = {s: make_agent("random", ruleset_id, s, 7) for s in game.ruleset.meta.players}
    moved = 0
    before = chance_mark(game.state)
    assert before == reference_mark(game.state)
    for _ in range(steps):
        side = game.to_act
        if side is None:
            break
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
        after = chance_mark(game.state)
        assert after == reference_mark(game.state)
        moved += after != before
        before = after
    assert moved > 0  # the games rolled dice: the marks were not all alike


class Saved(UserDict[str, Any]):
    """A mapping that is not a dict."""


class Loud(RandomStream):
    """A stream subclass (its mark is read through to_dict, as before)."""

    __slots__ = ()


@dataclasses.dataclass
class Made:
    rng: RandomStream
    saved: dict[str, Any]
    other: Any
    deck: Deck
    piles: dict[str, Any]
    nested: Mapping[str, Any]
    words: tuple[str, ...] = ("a",)
    flag: bool = True


def test_made_up_states_give_the_plain_walks_mark() -> None:
    stream = RandomStream(5)
    saved = RandomStream(9).to_dict()
    state = Made(
        rng=stream,
        saved=saved,
        other=Loud(3),
        deck=Deck.shuffled(["1", "2", "3"], RandomStream(2)),
        piles={"deck": ["a", "b"], "pile": ["c"], "draw_pile": ("not", "a", "list"), "x": 1},
        nested=Saved({"s": RandomStream(4), "d": Deck(pile=["q"]), "m": Saved(saved), "n": 3}),
    )
    mark = chance_mark(state)
    assert mark == reference_mark(state)
    assert len(mark) == 9
    for change in (
        lambda: stream.dice(1, 6),
        lambda: state.other.dice(2, 6),
        lambda: state.deck.draw(RandomStream(1)),
        lambda: state.piles["deck"].pop(),
        lambda: state.nested["s"].d(10),
        lambda: state.nested["d"].pile.pop(),
    ):
        change()
        after = chance_mark(state)
        assert after == reference_mark(state)
        assert after != mark
        mark = after
    as_dict = {"rng": saved, "hand": {"deck": [1, 2]}}
    assert chance_mark(as_dict) == reference_mark(as_dict)
