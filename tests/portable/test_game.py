"""The engine contract for Portable: new_game, replay, undo, illegal actions, bad files, hooks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import umpire
from tests.portable.helpers import scenario, unit
from umpire.agents.base import RandomAgent
from umpire.core.actions import Action
from umpire.core.errors import DataFileError, IllegalActionError, UnknownScenarioError
from umpire.core.record import Record
from umpire.core.ruleset import capability, get_ruleset
from umpire.play import play_out, summary

SCENARIOS = ("village-attack", "armoured-meeting", "trench-raid")


@pytest.mark.parametrize("name", SCENARIOS)
def test_each_scenario_plays_replays_and_undoes(name: str) -> None:
    """portable.turn.sequence"""
    game = umpire.new_game(f"portable/{name}", seed=3)
    agent = RandomAgent(5)
    for _ in range(40):
        game.apply(agent.choose(game, game.legal_actions()))
    snapshot, events = game.to_dict(), list(game.events)
    action = game.legal_actions()[0]
    game.apply(action)
    game.undo()
    assert game.to_dict() == snapshot and game.events == events
    play_out(game, {"blue": RandomAgent(1), "red": RandomAgent(2)})
    assert game.is_over
    again = umpire.replay(Record.from_dict(json.loads(json.dumps(game.record.to_dict()))))
    assert again.events == game.events
    data = summary(game)
    assert set(data["losses"]) == {"blue", "red"} and "house_rules_fired" in data
    assert data["losses"]["blue"]["of_units"] > 0


def test_illegal_action_names_rule_and_leaves_state(tmp_path: Path) -> None:
    game = umpire.new_game("portable/village-attack", seed=1)
    before = game.to_dict()
    with pytest.raises(IllegalActionError) as err:
        game.apply(Action("assault", unit="blue-inf-1", target="red-inf-1"))
    assert err.value.rule and "\n" not in str(err.value)
    assert game.to_dict() == before


def test_unknown_scenario_and_bad_files_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(UnknownScenarioError):
        umpire.new_game("portable/no-such-battle")
    bad = scenario([unit("i", "infantry", "E2")], [unit("r", "panzer", "E9")])
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        umpire.new_game(f"portable/{path}")
    message = str(err.value)
    assert str(path) in message and "sides.red.units.0.type" in message and "\n" not in message
    bad = scenario([unit("i", "infantry", "Z2")], [unit("r", "infantry", "E9")])
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        umpire.new_game(f"portable/{path}")
    assert "sides.blue.units.0.at" in str(err.value)
    bad = scenario([unit("i", "infantry", "E2")], [unit("r", "infantry", "E9")], turns=0)
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        umpire.new_game(f"portable/{path}")
    assert "field turns" in str(err.value)
    path.write_text("grid: [unclosed", encoding="utf-8")
    with pytest.raises(DataFileError):
        umpire.new_game(f"portable/{path}")


def test_house_rules_override_is_validated_and_honoured(tmp_path: Path) -> None:
    ruleset = get_ruleset("portable")
    path = tmp_path / "mine.yaml"
    path.write_text("fire_hit: 4\noptional: {commander_attached: true}\n", encoding="utf-8")
    override = capability(ruleset, "house_rules").load(path)
    game = umpire.new_game("portable/village-attack", seed=1, options={"house_rules": override})
    world = ruleset.world(game.state)  # type: ignore[attr-defined]
    assert world.house.fire_hit == 4 and world.switches["commander_attached"]
    path.write_text("fire_hit: lots\n", encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        capability(ruleset, "house_rules").load(path)
    assert "fire_hit" in str(err.value)


def test_capabilities_render_status_catalogue_and_observation() -> None:
    ruleset = get_ruleset("portable")
    caps = ruleset.capabilities
    game = umpire.new_game("portable/village-attack", seed=2)
    board = capability(ruleset, "render")(game.state, "blue")
    assert "bInf4^" in board and "rInf4v" in board and "key:" in board
    assert "turn 1/10" in capability(ruleset, "status_line")(game.state)
    assert any(e.get("kind") == "turn" and e["text"] == "--- Turn 1 ---" for e in game.events)
    catalogue = capability(ruleset, "catalog")()
    entry = catalogue["portable.fire.hit_score"]
    assert entry.provenance in ("published", "reconstructed", "house") and entry.ref
    assert capability(ruleset, "rules_markdown")().startswith("#")
    assert set(caps.side_colours) == set(ruleset.meta.players)
    info = ruleset.scenario_info("village-attack")
    assert info.title and info.briefing and "\n" not in info.briefing
    obs = game.observation("blue")
    assert "rng" not in obs and "seed" not in obs
    json.dumps(obs)
    for action in game.legal_actions():
        assert game.describe(action)
    assert set(ruleset.scenario_ids()) >= set(SCENARIOS)
