"""Every registered ruleset is playable through the adapters with no edit to them: the command
line (``battle``, ``simulate``) and the web table's API (created, viewed by each seat, played)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conformance.helpers import cases, ruleset_for
from umpire.cli import app

CASES = cases()
SERVER_ACTIONS = 40  # actions played through the API per scenario (the whole game if shorter)


@pytest.mark.parametrize(("rid", "scenario"), CASES)
def test_the_cli_plays_a_battle(rid: str, scenario: str | None) -> None:
    ruleset = ruleset_for(rid, scenario)
    result = CliRunner().invoke(app, ["battle", f"{rid}/{scenario}", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ruleset"] == rid and data["scenario"] == scenario
    assert data["winner"] in (*ruleset.meta.players, "draw")


@pytest.mark.parametrize(("rid", "scenario"), CASES)
def test_simulate_runs_it(rid: str, scenario: str | None) -> None:
    ruleset_for(rid, scenario)
    args = ["simulate", f"{rid}/{scenario}", "-n", "4", "--workers", "1", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "4" in result.stdout


@pytest.mark.parametrize(("rid", "scenario"), CASES)
def test_the_web_table_creates_shows_and_plays_it(
    rid: str, scenario: str | None, tmp_path: Path
) -> None:
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from umpire.server.main import create_app

    ruleset = ruleset_for(rid, scenario)
    players = dict.fromkeys(ruleset.meta.players, "here")
    with TestClient(create_app(tmp_path / "games.sqlite3", ai_delay=0.0)) as client:
        listed = {r["id"]: r for r in client.get("/api/rulesets").json()}
        assert scenario in listed[rid]["scenarios"]
        body = {"ruleset": rid, "scenario": scenario, "seed": 4, "players": players}
        made = client.post("/api/games", json=body)
        assert made.status_code == 200, made.text
        game: Any = made.json()
        url = f"/api/games/{game['id']}/seats/{game['seats'][0]['token']}"
        for _ in range(SERVER_ACTIONS):
            view = client.get(url + "/view")
            assert view.status_code == 200, view.text
            data = view.json()
            if data["outcome"] is not None:
                break
            assert data["actions"], "a game in progress offers no action"
            action = data["actions"][0]["action"]
            played = client.post(url + "/actions", json={"index": data["index"], "action": action})
            assert played.status_code == 200, played.text
        frame = client.get(url + "/replay?at=1")
        assert frame.status_code == 200, frame.text
