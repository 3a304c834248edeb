"""``Action.__init__`` (written out for speed, issue 19) against the plain definition: a frozen
slotted dataclass whose point is stored rounded to a hundredth as floats and whose units are a
tuple. Checked on every action listed and chosen along whole Seven Days and Portable games, and
on odd inputs (ints, lists, float subclasses, numpy-like numbers)."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass
from typing import Any

import pytest

import umpire
from umpire.agents import make_agent
from umpire.core.actions import Action


@dataclass(frozen=True, slots=True)
class Plain:
    """The definition before it was written out (the dataclass's __init__ + __post_init__)."""

    kind: str
    unit: str | None = None
    target: str | None = None
    point: tuple[float, float] | None = None
    option: str | None = None
    units: tuple[str, ...] = ()
    cell: str | None = None
    card: str | None = None

    def __post_init__(self) -> None:
        if self.point is not None:
            rounded = (round(float(self.point[0]), 2), round(float(self.point[1]), 2))
            object.__setattr__(self, "point", rounded)
        if not isinstance(self.units, tuple):
            object.__setattr__(self, "units", tuple(self.units))


FIELDS = tuple(f.name for f in dataclasses.fields(Action))


def _same(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    fast, plain = Action(*args, **kwargs), Plain(*args, **kwargs)
    for name in FIELDS:
        a, b = getattr(fast, name), getattr(plain, name)
        assert a == b and type(a) is type(b), name
        if name == "point" and a is not None:
            assert [type(v) for v in a] == [float, float]


class MyFloat(float):
    pass


@pytest.mark.parametrize(
    "args,kwargs",
    [
        (("pass",), {}),
        (("move",), {"unit": "u1", "point": (1.23456, 7.891)}),
        (("move",), {"unit": "u1", "point": [3, 4]}),  # ints and a list
        (("move",), {"unit": "u1", "point": (MyFloat(2.345), True)}),
        (("move", "u1", None, (0.005, -0.015)), {}),  # halves: rounded as round() does
        (("fire", "u1", "u2", None, "then_move"), {}),
        (("assault",), {"units": ["a", "b"], "cell": "0612", "card": "c1"}),
        (("assault",), {"units": ("a",)}),
    ],
)
def test_init_is_the_plain_definition(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    _same(args, kwargs)


def test_still_frozen_equal_hashable_replaceable_picklable() -> None:
    a = Action("move", unit="u", point=(1.004, 2.0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.unit = "v"  # type: ignore[misc]
    assert a == Action("move", unit="u", point=(1.0, 2.0))
    assert hash(a) == hash(Action("move", unit="u", point=(1.0, 2.0)))
    moved = dataclasses.replace(a, point=(3.333, 4))
    assert moved.point == (3.33, 4.0) and moved.unit == "u"
    assert pickle.loads(pickle.dumps(a)) == a
    assert Action.from_dict(a.to_dict()) == a


@pytest.mark.parametrize(
    "game_id,agents,seed",
    [
        ("sevendays/meeting-engagement", "random", 3),
        ("sevendays/meeting-engagement", "scripted", 8),
        ("portable/crossroads", "random", 2),
    ],
)
def test_every_action_of_whole_games(game_id: str, agents: str, seed: int) -> None:
    game = umpire.new_game(game_id, seed=seed)
    ruleset = game.ruleset.meta.id
    players = {s: make_agent(agents, ruleset, s, seed) for s in game.ruleset.meta.players}
    checked = 0
    while game.to_act is not None and len(game.record.actions) < 400:
        legal = game.legal_actions()
        for action in legal:
            values = tuple(getattr(action, f) for f in FIELDS)
            _same(values, {})
            checked += 1
        side = game.to_act
        game.apply(players[side].choose(game.view(side), legal))
    assert checked > 200
