"""The Python API: new_game, legal_actions, apply, undo, branch, record, observation."""

from __future__ import annotations

import json

import pytest

import umpire
from umpire.agents.base import RandomAgent
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, UnknownRulesetError, UnknownScenarioError
from umpire.core.record import Record
from umpire.play import play_out


def test_new_game_exposes_the_api() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    legal = game.legal_actions()
    assert legal and all(isinstance(a, Action) for a in legal)
    assert game.to_act in ("nato", "pact")
    events = game.apply(legal[0])
    assert isinstance(events, list)
    assert game.record.actions == [legal[0]]
    obs = game.observation("nato")
    assert "rng" not in obs and "seed" not in obs and obs["player"] == "nato"
    json.dumps(obs)


def test_undo_restores_the_state_and_the_dice() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=4)
    agent = RandomAgent(3)
    for _ in range(15):
        game.apply(agent.choose(game.view(game.to_act), game.legal_actions()))
    snapshot = game.to_dict()
    events_before = list(game.events)
    action = game.legal_actions()[0]
    game.apply(action)
    game.undo()
    assert game.to_dict() == snapshot
    assert game.events == events_before
    # the same action after undo rolls the same dice again
    replayed = game.apply(action)
    assert replayed == game.events[len(events_before) :]


def test_branch_is_independent() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=2)
    agent = RandomAgent(1)
    for _ in range(10):
        game.apply(agent.choose(game.view(game.to_act), game.legal_actions()))
    twin = game.branch(5)
    assert len(twin.record.actions) == 5
    assert twin.record.actions == game.record.actions[:5]
    twin.apply(twin.legal_actions()[-1])
    assert len(game.record.actions) == 10


def test_illegal_action_is_refused_with_its_rule_and_state_unchanged() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    before = game.to_dict()
    with pytest.raises(IllegalActionError, match=r"\[rule sevendays\.activation\.token\]"):
        game.apply(Action("fire", unit="nato-chieftain-1", target="pact-t64b-1"))
    assert game.to_dict() == before
    assert game.record.actions == []


def test_move_beyond_reach_is_refused() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    side = game.to_act
    uid = next(a.unit for a in game.legal_actions() if a.kind == "activate")
    assert uid is not None
    game.apply(Action("activate", unit=uid))
    unit = game.state.units[uid]
    before = game.to_dict()
    with pytest.raises(IllegalActionError, match="sevendays.move.normal"):
        game.apply(
            Action("move", unit=uid, point=(unit.x, unit.y + (30 if side == "nato" else -30)))
        )
    assert game.to_dict() == before


def test_record_round_trip_replays_to_identical_events(tmp_path: object) -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=7)
    play_out(game, {"nato": RandomAgent(1), "pact": RandomAgent(2)})
    path = f"{tmp_path}/game.json"
    game.record.save(path)
    again = umpire.replay(Record.load(path))
    assert again.events == game.events
    assert again.to_dict() == game.to_dict()


def test_state_json_round_trip_every_step() -> None:
    ruleset = umpire.new_game("sevendays/meeting-engagement", seed=5).ruleset
    game = umpire.new_game("sevendays/meeting-engagement", seed=5)
    agent = RandomAgent(5)
    for _ in range(120):
        if game.is_over:
            break
        data = game.to_dict()
        text = json.dumps(data)
        restored = ruleset.state_from_dict(json.loads(text))
        assert ruleset.state_to_dict(restored) == data
        action = agent.choose(game.view(game.to_act), game.legal_actions())
        # the restored state continues exactly like the original
        twin_events = ruleset.apply(restored, action)
        assert twin_events == game.apply(action)


def test_unknown_ruleset_and_scenario() -> None:
    with pytest.raises(UnknownRulesetError, match="unknown ruleset 'chess'"):
        umpire.new_game("chess/opening")
    with pytest.raises(UnknownScenarioError, match="unknown scenario 'nowhere'"):
        umpire.new_game("sevendays/nowhere")
