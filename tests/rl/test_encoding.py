"""The fixed action encoding and the observation tensor (docs/rl.md).

The issue's contract: encode/decode round-trip exactly and ``mask[i]`` holds exactly when
``decode(i)`` is (the start of) a legal action; observations never contain what the side may
not see: re-sampling the hidden truth leaves the observation tensor bit-identical.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from tests.rl.helpers import DEFAULT_GAMES, SEEDS, random_positions, sides
from umpire.core.actions import Action
from umpire.core.ruleset import get_ruleset
from umpire.rl.encoding import Menu, ObservationEncoder


def walk(menu: Menu, prefix: tuple[int, ...] = ()) -> list[Action]:
    """Every action reachable by following the masks from ``prefix``."""
    mask = menu.mask(prefix)
    found: list[Action] = []
    for digit in np.flatnonzero(mask):
        path = (*prefix, int(digit))
        action = menu.decode(path)
        found += [action] if action is not None else walk(menu, path)
    return found


def check_menu(legal: list[Action], slots: int) -> None:
    menu = Menu(legal, slots)
    for action in legal:
        path = menu.encode(action)
        assert all(0 <= d < slots for d in path)
        assert menu.decode(path) == action
        for depth in range(len(path)):  # every proper prefix is a sub-decision, not an action
            assert menu.decode(path[:depth]) is None if depth else True
            assert menu.mask(path[:depth])[path[depth]] == 1
    reached = walk(menu)
    assert sorted(map(repr, reached)) == sorted(map(repr, set(legal)))
    # a digit the mask forbids starts no legal action
    for digit in range(slots):
        if not menu.mask(())[digit]:
            with pytest.raises(KeyError):
                menu.decode((digit,))


@pytest.mark.parametrize("game_id", DEFAULT_GAMES)
@pytest.mark.parametrize("seed", SEEDS[:2])
def test_round_trip_and_masks(game_id: str, seed: int) -> None:
    decisions = 0
    for game in random_positions(game_id, seed, limit=120, every=3):
        legal = game.legal_actions()
        if not legal:
            continue
        check_menu(legal, 32)
        decisions += 1
    assert decisions > 5


@pytest.mark.parametrize("game_id", DEFAULT_GAMES)
def test_many_options_take_several_digits(game_id: str) -> None:
    """With 2 slots a level with more than 2 values is chosen in binary digits."""
    longest = 0
    for game in random_positions(game_id, 0, limit=24, every=6):
        legal = game.legal_actions()
        if legal:
            check_menu(legal, 2)
            longest = max(longest, max(len(Menu(legal, 2).encode(a)) for a in legal))
    assert longest >= 2


def test_single_action_still_takes_one_step() -> None:
    menu = Menu([Action("pass")], 8)
    assert menu.encode(Action("pass")) == (0,)
    assert menu.mask(()).tolist() == [1, 0, 0, 0, 0, 0, 0, 0]


def test_levels_are_kind_then_unit_then_detail() -> None:
    legal = [
        Action("move", unit="b", point=(1, 2)),
        Action("move", unit="a", point=(3, 4)),
        Action("move", unit="a", point=(1, 1)),
        Action("fire", unit="a", target="x"),
    ]
    menu = Menu(legal, 4)
    assert menu.options(()) == {0: "fire", 1: "move"}
    assert menu.options((1,)) == {0: "a", 1: "b"}
    assert menu.encode(Action("move", unit="a", point=(1, 1))) == (1, 0, 0)
    assert menu.encode(Action("move", unit="b", point=(1, 2))) == (1, 1)
    assert menu.encode(Action("fire", unit="a", target="x")) == (0,)


# (game, options, whether re-sampling changes something there): Seven Days' meeting engagement
# hides nothing in its first actions unless the Tactical Advantage cards are on
HIDDEN_CASES: list[tuple[str, dict[str, Any], bool]] = [
    (g, {}, get_ruleset(g.split("/")[0]).meta.information == "imperfect") for g in DEFAULT_GAMES
]
HIDDEN_CASES = [(g, o, h and g != "sevendays/meeting-engagement") for g, o, h in HIDDEN_CASES] + [
    ("sevendays/meeting-engagement", {"cards": True}, True)
]


def _hidden_part(ruleset: Any, state: Any) -> str:
    data = dict(ruleset.state_to_dict(state))
    data.pop("rng", None)
    return json.dumps(data, sort_keys=True, default=str)


@pytest.mark.parametrize(
    ("game_id", "options", "hides"),
    HIDDEN_CASES,
    ids=[f"{g}{'+cards' if o else ''}" for g, o, _ in HIDDEN_CASES],
)
def test_resampled_hidden_truth_gives_bit_identical_tensors(
    game_id: str, options: dict[str, Any], hides: bool
) -> None:
    encoder = ObservationEncoder(32)
    checked = changed = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        for game in random_positions(game_id, seed, limit=150, every=5, options=options):
            ruleset = game.ruleset
            truth = _hidden_part(ruleset, game.state)
            for side in sides(game_id):
                tensor = encoder.encode(ruleset.observation(game.state, side))
                for _ in range(2):
                    sampled = ruleset.resample(game.state, side, rng)
                    again = encoder.encode(ruleset.observation(sampled, side))
                    assert again.tobytes() == tensor.tobytes()
                    checked += 1
                    changed += _hidden_part(ruleset, sampled) != truth
    assert checked > 10
    if hides:  # the check is not vacuous: the hidden truth really was re-drawn
        assert changed > 0


@pytest.mark.parametrize("game_id", DEFAULT_GAMES)
def test_tensor_follows_the_observation(game_id: str) -> None:
    """Not a constant: as the game goes on a side's tensor changes."""
    encoder = ObservationEncoder(32)
    side = sides(game_id)[0]
    seen = {
        encoder.encode(g.ruleset.observation(g.state, side)).tobytes()
        for g in random_positions(game_id, 0, limit=40, every=4)
    }
    assert len(seen) > 3
