"""Hidden information is structural (sevendays.scenario.hidden_deployment, sevendays.cards.deal):
events about a hidden unit are made for its owner with a stand-in naming only the marker, and a
side's menus and odds are built from what that side knows."""

from __future__ import annotations

import json

import pytest

from umpire.agents.base import RandomAgent
from umpire.core.actions import Action
from umpire.core.events import seen_by, to_dicts
from umpire.core.game import Game, new_game
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.movement import do_move

from ..conftest import MakeGame, unit


def _secrets(game: Game, side: str) -> list[str]:
    return [
        text
        for u in game.state.units.values()
        if u.hidden and u.side != side
        for text in (u.uid, u.name)
    ]


@pytest.mark.parametrize("scenario", ["capture", "breakthrough"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_event_about_a_hidden_unit_reaches_the_other_side(scenario: str, seed: int) -> None:
    game = new_game(f"sevendays/{scenario}", seed=seed)
    agents = {s: RandomAgent(seed + i) for i, s in enumerate(("nato", "pact"))}
    assert any(u.hidden for u in game.state.units.values())
    logs = {s: list(seen_by(game.events, s)) for s in agents}
    for _ in range(400):
        side = game.to_act
        if side is None:
            break
        secrets = {s: _secrets(game, s) for s in agents}
        for s, log in logs.items():
            words = json.dumps(to_dicts(log))
            for secret in secrets[s]:
                assert secret not in words, f"{s} reads {secret}"
        new = game.apply(agents[side].choose(game.view(side), game.legal_actions()))
        for s in agents:
            logs[s] += seen_by(new, s)


def test_a_hidden_units_move_is_read_by_the_enemy_as_its_marker(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10, hidden=True)],
        pact=[unit("t", "t72a", 36, 40)],
    )
    state = game.state
    hidden = state.units["nato-c"]
    world = game.ruleset.world(state)  # type: ignore[attr-defined]
    events = do_move(world, state, hidden, "normal", (36.0, 14.0))
    pact = seen_by(events, "pact")
    assert [e["text"] for e in pact] == [f"{hidden.marker} moves to (36.0, 14.0)"]
    assert all(hidden.name not in json.dumps(e.to_dict()) for e in pact)
    nato = seen_by(events, "nato")
    assert hidden.name in nato[-1]["text"] and nato[-1]["unit"] == "nato-c"


# rules: sevendays.fire.modifier.infantry_close
def test_menu_odds_do_not_count_a_hidden_enemy_but_the_roll_does(make_game: MakeGame) -> None:
    # a hidden PACT infantry marker 8" from a NATO tank: the -1 applies to the shot that is
    # rolled, but NATO's menu cannot know of it
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)],
        pact=[
            unit("t", "t72a", 36, 30),
            unit("r", "motor-rifles", 44, 10, hidden=True),
        ],
    )
    state = game.state
    world = game.ruleset.world(state)  # type: ignore[attr-defined]
    firer, target = state.units["nato-c"], state.units["pact-t"]
    known = plan_shot(world, state, firer, target, "gun", known_only=True)
    truth = plan_shot(world, state, firer, target, "gun")
    rules = lambda plan: [m.rule for m in plan.modifiers]  # noqa: E731
    assert "sevendays.fire.modifier.infantry_close" not in rules(known)
    assert "sevendays.fire.modifier.infantry_close" in rules(truth)
    game.apply(Action("activate", unit="nato-c"))
    fire = Action("fire", unit="nato-c", target="pact-t")
    assert "infantry within 12" not in game.describe(fire)


def _hidden_truth(game_state, side: str):  # type: ignore[no-untyped-def]
    return sorted(
        (u.uid, u.x, u.y) for u in game_state.units.values() if u.hidden and u.side != side
    )


@pytest.mark.parametrize("scenario", ["capture", "breakthrough"])
def test_resample_keeps_the_players_observation_and_redeals_hidden_truth(scenario: str) -> None:
    import random

    game = new_game(f"sevendays/{scenario}", seed=4)
    agents = {s: RandomAgent(7 + i) for i, s in enumerate(("nato", "pact"))}
    for _ in range(6):  # a few moves in, past the swap
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    ruleset = game.ruleset
    rng = random.Random(1)
    for player in ("nato", "pact"):
        seen = game.observation(player)
        truths, hands = set(), set()
        for _ in range(6):
            twin = ruleset.resample(game.state, player, rng)
            assert ruleset.observation(twin, player) == seen
            truths.add(tuple(_hidden_truth(twin, player)))
            if twin.cards is not None:
                enemy = "pact" if player == "nato" else "nato"
                hands.add(tuple(sorted(twin.cards["hands"][enemy])))
        hidden_enemies = _hidden_truth(game.state, player)
        if len(hidden_enemies) > 1:
            assert len(truths) > 1, "the hidden units were never dealt differently"
        if game.state.cards is not None:
            assert len(hands) > 1, "the enemy's hand was never re-drawn"
    # the original game is untouched and plays on
    assert game.legal_actions()
