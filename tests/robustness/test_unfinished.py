"""Games that never end stop at the ruleset's action cap and are reported as ``unfinished``
everywhere: ``battle --json`` (non-zero exit, one-line note), ``simulate`` (summary, CSV, the
win-rate table, summary.json) and the web table."""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from umpire.agents.base import View
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.game import new_game
from umpire.core.ruleset import (
    Capabilities,
    Outcome,
    RulesetBase,
    RulesetMeta,
    register,
    unregister,
)
from umpire.play import play_out, summary

CAP = 30


class Waiter:
    """Scripted: always waits."""

    name = "scripted"

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[0]


class Endless(RulesetBase[dict[str, Any]]):
    """Two sides wait in turn, forever (no outcome ever)."""

    meta = RulesetMeta(
        id="endless", version="1", title="Endless", players=("east", "west"), max_actions=CAP
    )
    capabilities = Capabilities(scripted=Waiter)

    def scenario_ids(self) -> list[str]:
        return ["stalemate"]

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"to_act": "east", "waits": 0}

    def setup_events(self, state: dict[str, Any]) -> list[Event]:
        return []

    def to_act(self, state: dict[str, Any]) -> str | None:
        return str(state["to_act"])

    def legal_actions(self, state: dict[str, Any]) -> list[Action]:
        return [Action("wait")]

    def apply(self, state: dict[str, Any], action: Action) -> list[Event]:
        if action.kind != "wait":
            raise IllegalActionError("only waiting", "endless.wait")
        side = state["to_act"]
        state["to_act"] = "west" if side == "east" else "east"
        state["waits"] += 1
        return [note("wait", f"{side} waits")]

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return None

    def observation(self, state: dict[str, Any], player: str) -> dict[str, Any]:
        return dict(state)

    def state_to_dict(self, state: dict[str, Any]) -> dict[str, Any]:
        return dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)

    def clone(self, state: dict[str, Any]) -> dict[str, Any]:
        return dict(state)

    def describe(self, state: dict[str, Any], action: Action) -> str:
        return "wait"

    def summary(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"turns": state["waits"] // 2}


@pytest.fixture
def endless() -> Iterator[str]:
    register("endless", f"{__name__}:Endless")
    yield "endless/stalemate"
    unregister("endless")


def test_play_out_stops_at_the_cap_and_the_summary_says_unfinished(endless: str):
    game = play_out(new_game(endless, seed=1), {s: Waiter(s) for s in ("east", "west")})
    assert len(game.record.actions) == CAP
    data = summary(game)
    assert data["winner"] == "unfinished" and data["how"] == "action cap"
    assert data["actions"] == CAP


def test_a_game_stopped_before_the_cap_is_not_called_capped(endless: str):
    game = play_out(new_game(endless, seed=1), {s: Waiter(s) for s in ("east", "west")}, None, 5)
    assert len(game.record.actions) == 5
    data = summary(game)
    assert data["winner"] == "unfinished" and data["how"] == "not finished"


def test_battle_json_reports_unfinished_and_exits_non_zero(endless: str, tmp_path: Path):
    from umpire.cli import app

    record = tmp_path / "game.json"
    out = CliRunner().invoke(app, ["battle", endless, "--json", "--record", str(record)])
    assert out.exit_code == 3, out.output
    data = json.loads(out.stdout)
    assert data["winner"] == "unfinished" and data["how"] == "action cap"
    assert data["actions"] == CAP
    note_lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(note_lines) == 1 and "unfinished" in note_lines[0] and "Traceback" not in out.stderr
    saved = json.loads(record.read_text())
    assert saved["result"]["winner"] == "unfinished"
    # the text report says so too, and a replay of the record agrees
    text = CliRunner().invoke(app, ["battle", endless, "--quiet"])
    assert text.exit_code == 3 and "Unfinished (action cap)" in text.stdout
    again = CliRunner().invoke(app, ["replay", str(record), "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["winner"] == "unfinished"


@pytest.mark.parametrize("workers", [1, 2])
def test_simulate_counts_unfinished_in_summary_csv_table_and_json(
    endless: str, tmp_path: Path, workers: int
):
    from umpire.cli import app

    out_dir = tmp_path / "out"
    out = CliRunner().invoke(
        app,
        ["simulate", endless, "-n", "6", "--workers", str(workers), "--out", str(out_dir)],
        env={"COLUMNS": "200"},
    )
    assert out.exit_code == 0, out.output
    assert "unfinished" in out.stdout  # the win-rate table's column header
    report = json.loads((out_dir / "summary.json").read_text())
    assert report["n"] == 6
    assert report["wins"] == {"east": 0, "west": 0, "draw": 0, "unfinished": 6}
    assert report["win_rate"]["unfinished"] == 1.0
    assert report["how"] == {"action cap": 6}
    with (out_dir / "games.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["winner"] for r in rows] == ["unfinished"] * 6
    assert {r["how"] for r in rows} == {"action cap"}
    as_json = CliRunner().invoke(app, ["simulate", endless, "-n", "3", "--json"])
    assert json.loads(as_json.stdout)["wins"]["unfinished"] == 3


def test_summarise_keeps_wins_draws_and_unfinished_apart():
    from umpire.analysis.report import summarise

    rows = [
        {"winner": w, "how": h, "turns": 1, "first_player": "a"}
        for w, h in [("a", "x"), ("b", "x"), ("draw", "y"), ("unfinished", "action cap")]
    ]
    report = summarise(rows, ["a", "b"])
    assert report["wins"] == {"a": 1, "b": 1, "draw": 1, "unfinished": 1}
    assert sum(report["win_rate"].values()) == pytest.approx(1.0)


def test_the_web_table_stops_an_endless_ai_game_as_unfinished(endless: str, tmp_path: Path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from umpire.server.main import create_app

    with TestClient(create_app(tmp_path / "g.sqlite3", ai_delay=0.0)) as client:
        made = client.post(
            "/api/games",
            json={
                "ruleset": "endless",
                "scenario": "stalemate",
                "players": {"east": "ai", "west": "ai"},
            },
        ).json()
        url = f"/api/games/{made['id']}/seats/{made['seats'][0]['token']}"
        deadline = time.monotonic() + 20
        view = client.get(url + "/view").json()
        while view["outcome"] is None and time.monotonic() < deadline:
            client.get(url + f"/wait?index={view['index']}&timeout=1")
            view = client.get(url + "/view").json()
        assert view["outcome"] == {"winner": "unfinished", "how": "action cap"}
        assert view["index"] == CAP and not view["ai_thinking"]
        time.sleep(0.2)
        assert client.get(url + "/view").json()["index"] == CAP  # the AI stopped there
