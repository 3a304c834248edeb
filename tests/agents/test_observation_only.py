"""Scripted players decide from their side's view only.

For positions with hidden information (Seven Days hidden deployment in Capture and
Breakthrough, the cards in hand wherever cards are on), the hidden truth is re-sampled
consistently with the deciding side's observation (``ruleset.resample``): the observation must
be identical, and the side's agent (a fresh one, same seed) must pick the same action from the
re-sampled game as from the real one. And an agent handed a View whose ruleset refuses every
state-bearing call still plays whole games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import umpire
from umpire.agents import make_agent
from umpire.agents.base import View
from umpire.core.actions import LazyActionList
from umpire.core.events import seen_by
from umpire.core.game import Game
from umpire.core.ruleset import Ruleset, get_ruleset

RESAMPLES = 3


def legal_of(ruleset: Ruleset[Any], state: Any) -> LazyActionList:
    """The legal actions of ``state``, enumerated only if the agent looks (as in play)."""
    return LazyActionList(lambda: ruleset.legal_actions(state))


def _view(game: Game, state: Any, side: str) -> View:
    ruleset = game.ruleset
    return View(
        ruleset, side, lambda: ruleset.observation(state, side), lambda: seen_by(game.events, side)
    )


def _hidden_from(observation: dict[str, Any]) -> bool:
    """Whether the deciding side has something hidden from it: enemy markers or enemy cards."""
    markers = any("uid" not in u for u in observation["units"])
    cards = observation.get("cards") or {}
    return markers or bool(cards.get("enemy_hand")) or bool(cards.get("deck"))


def _positions(scenario: str, seed: int, options: dict[str, Any]) -> Iterator[tuple[Game, str]]:
    """Every decision of a seeded game (scripted against scripted, a few random moves mixed
    in for variety), as the game and the side to act, before the action is applied."""
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed, options=options)
    players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
    noise = random.Random(seed)
    while game.to_act is not None:
        side = game.to_act
        yield game, side
        legal = game.legal_actions()
        if noise.random() < 0.15:
            action = legal[noise.randrange(len(legal))]
        else:
            action = players[side].choose(game.view(side), legal)
        game.apply(action)


CASES = [
    ("capture", 1, {}),
    ("capture", 2, {"cards": True}),
    ("breakthrough", 1, {}),
    ("breakthrough", 3, {"cards": True}),
    ("meeting-engagement", 4, {"cards": True}),
]


@pytest.mark.parametrize(("scenario", "seed", "options"), CASES)
def test_resampled_hidden_truth_leaves_the_choice_unchanged(
    scenario: str, seed: int, options: dict[str, Any]
) -> None:
    ruleset = get_ruleset("sevendays")
    rng = random.Random(seed * 7 + 1)
    checked = changed_truth = 0
    for index, (game, side) in enumerate(_positions(scenario, seed, options)):
        if index % 3:
            continue  # every third decision: enough positions, a test that runs in seconds
        observation = ruleset.observation(game.state, side)
        if not _hidden_from(observation):
            continue
        original = make_agent("scripted", "sevendays", side, seed)
        chosen = original.choose(_view(game, game.state, side), legal_of(ruleset, game.state))
        assert chosen in ruleset.legal_actions(game.state), (index, chosen)
        for _ in range(RESAMPLES):
            twin = ruleset.resample(game.state, side, rng)
            assert ruleset.observation(twin, side) == observation
            changed_truth += ruleset.state_to_dict(twin) != ruleset.state_to_dict(game.state)
            fresh = make_agent("scripted", "sevendays", side, seed)
            again = fresh.choose(_view(game, twin, side), legal_of(ruleset, twin))
            assert again == chosen, (index, side, chosen, again)
            assert fresh.last_reason == original.last_reason
        checked += 1
    assert checked >= 20, f"only {checked} positions with hidden information"
    assert changed_truth > 0  # the re-sampling really changed what the side cannot see


class _PublicOnly:
    """A ruleset stand-in that lets an agent read public static data (metadata, the world
    of a scenario, capabilities) and refuses everything that takes a game state."""

    STATE_BEARING = frozenset(
        {
            "apply",
            "legal_actions",
            "to_act",
            "outcome",
            "observation",
            "resample",
            "clone",
            "describe",
            "summary",
            "state_to_dict",
            "state_from_dict",
            "setup_events",
            "world",
            "new_state",
        }
    )

    def __init__(self, real: Ruleset[Any]) -> None:
        self._real = real

    def __getattr__(self, name: str) -> Any:
        if name in self.STATE_BEARING or name.startswith("_"):
            raise AssertionError(f"the agent reached for ruleset.{name}")
        return getattr(self._real, name)


@pytest.mark.parametrize(
    ("game_id", "sides"),
    [
        ("sevendays/capture", ("nato", "pact")),
        ("sevendays/meeting-engagement", ("nato", "pact")),
        ("portable/village-attack", ("blue", "red")),
    ],
)
def test_agents_never_receive_the_game_or_its_state(game_id: str, sides: tuple[str, str]) -> None:
    game = umpire.new_game(game_id, seed=5)
    ruleset_id = game_id.split("/")[0]
    players = {s: make_agent("scripted", ruleset_id, s, 5) for s in sides}
    proxy = _PublicOnly(game.ruleset)
    decisions = 0
    while game.to_act is not None and decisions < 400:
        side = game.to_act
        observation = game.observation(side)  # a snapshot: the view holds no path to the game
        view = View(proxy, side, lambda o=observation: o)  # type: ignore[arg-type,misc]
        legal = game.legal_actions()
        action = players[side].choose(view, legal)
        assert action in legal or action.point is not None, action
        assert players[side].last_reason
        game.apply(action)
        decisions += 1
    assert decisions >= 50
