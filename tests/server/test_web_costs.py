"""The web table's costs under load (issue 19), checked for what they must not change: a view
kept per state version is the view a fresh build gives (and only its own seat's), an undo drops
what was kept, an action is stored once at its place by one statement, the journal's sync
level is the documented one, seats are remembered but guesses are not, and the AI thinking in
its own process plays the moves the same agent plays in this process."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from umpire.agents.base import make_agent  # noqa: E402
from umpire.agents.search import web as search_web  # noqa: E402
from umpire.core.actions import Action  # noqa: E402
from umpire.core.game import Game  # noqa: E402
from umpire.core.ruleset import get_ruleset, register, unregister  # noqa: E402
from umpire.play import LazyActions  # noqa: E402
from umpire.server import ai_worker  # noqa: E402
from umpire.server.main import create_app  # noqa: E402
from umpire.server.service import Service  # noqa: E402
from umpire.server.store import GameRow, Seat, StaleIndexError, Store  # noqa: E402

from .stub_hidden import SECRETS  # noqa: E402

ME = "sevendays/meeting-engagement"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, ai_delay=0.0)) as c:
        yield c


@pytest.fixture
def stub() -> Iterator[str]:
    register("stubhidden", "tests.server.stub_hidden:StubHidden")
    yield "stubhidden"
    unregister("stubhidden")


def new_game(client: TestClient, players: dict[str, str], game: str = ME, seed: int = 3) -> Any:
    ruleset, scenario = game.split("/")
    r = client.post(
        "/api/games",
        json={"ruleset": ruleset, "scenario": scenario, "seed": seed, "players": players},
    )
    assert r.status_code == 200, r.text
    return r.json()


def seat_of(game: Any, sides: list[str]) -> tuple[str, str]:
    seat = next(s for s in game["seats"] if s["sides"] == sides)
    return game["id"], seat["token"]


def service_of(client: TestClient) -> Service:
    service: Service = client.app.state.service  # type: ignore[attr-defined]
    return service


def fresh_view(client: TestClient, game_id: str, token: str, since: int) -> dict[str, Any]:
    """The seat's view built from nothing (no kept core, no kept log entry)."""
    service = service_of(client)
    live = service._cache[game_id]
    seat = service._seats[token]
    live.views.clear()
    live.log_json.clear()
    view: dict[str, Any] = json.loads(service._view_json(seat, live, since))
    return view


# -- views kept per state version ----------------------------------------------------------------


def test_a_kept_view_is_the_view_a_fresh_build_gives(client: TestClient) -> None:
    game = new_game(client, {"nato": "remote", "pact": "remote"})
    for step in range(6):
        views: dict[str, Any] = {}
        for side in ("nato", "pact"):
            game_id, token = seat_of(game, [side])
            url = f"/api/games/{game_id}/seats/{token}/view"
            first = client.get(url + "?since=0")
            again = client.get(url + "?since=0")
            assert first.status_code == again.status_code == 200
            assert first.text == again.text  # the kept one, sent again
            views[side] = first.json()
            assert views[side] == fresh_view(client, game_id, token, 0)
            seen = max(0, step - 2)  # a page that has seen this many actions asks for the rest
            since = client.get(url + f"?since={seen}").json()
            rest = [e for e in views[side]["log"] if e["index"] > seen or seen == 0]
            assert since["log"] == rest and since["since"] == seen
        to_act = views["nato"]["to_act"]
        mover = views[to_act]
        assert mover["your_turn"] and mover["actions"]
        other = views["pact" if to_act == "nato" else "nato"]
        assert not other["your_turn"] and other["actions"] == []
        game_id, token = seat_of(game, [to_act])
        played = client.post(
            f"/api/games/{game_id}/seats/{token}/actions",
            json={"index": mover["index"], "action": mover["actions"][0]["action"]},
        )
        assert played.status_code == 200, played.text


def test_a_kept_view_never_reaches_another_seat(client: TestClient, stub: str) -> None:
    game = new_game(client, {"a": "remote", "b": "remote"}, game=f"{stub}/duel", seed=1)
    texts = {}
    for side in ("b", "a", "b", "a"):  # B's view kept first, then A asks (twice each)
        game_id, token = seat_of(game, [side])
        texts[side] = client.get(f"/api/games/{game_id}/seats/{token}/view").text
    live = service_of(client)._cache[game["id"]]
    assert {key[0] for key in live.views} == {"a", "b"}  # one kept core for each side's eyes
    assert "b-secret" in texts["b"]  # B's own unit, on B's board
    for secret in SECRETS:  # B's secrets (stub_hidden): never on A's page
        assert secret not in texts["a"], f"{secret} reached side a"


def test_an_undo_drops_every_kept_view_and_log_entry(client: TestClient) -> None:
    game = new_game(client, {"nato": "here", "pact": "here"})
    game_id, token = seat_of(game, ["nato", "pact"])
    url = f"/api/games/{game_id}/seats/{token}"
    view = client.get(url + "/view").json()
    first, second = view["actions"][0]["action"], view["actions"][-1]["action"]
    assert first != second
    assert client.post(url + "/actions", json={"index": 0, "action": first}).status_code == 200
    played_first = client.get(url + "/view?since=0").json()
    assert client.post(url + "/undo", json={"index": 1}).status_code == 200
    assert client.post(url + "/actions", json={"index": 0, "action": second}).status_code == 200
    played_second = client.get(url + "/view?since=0").json()
    assert played_second["index"] == played_first["index"] == 1
    assert played_second == fresh_view(client, game_id, token, 0)
    assert played_second["log"][1] != played_first["log"][1]  # not the action taken back


# -- the store ------------------------------------------------------------------------------------


def make_store(path: Path, synchronous: str = "NORMAL") -> Store:
    store = Store(path, synchronous=synchronous)
    row = GameRow("g", "sevendays", "1", "meeting-engagement", 1, {}, {}, 0.0, 0.0)
    store.create_game(row, [Seat("t" * 24, "g", ("nato",))])
    return store


def test_an_action_is_stored_once_at_its_place_and_stamps_the_game(tmp_path: Path) -> None:
    store = make_store(tmp_path / "g.sqlite3")
    store.append("g", 0, {"kind": "pass"}, "nato")
    stamped = store.game("g")
    assert stamped is not None and stamped.updated > 0.0  # the trigger, in the same commit
    with pytest.raises(StaleIndexError, match="already recorded|has 1 actions"):
        store.append("g", 0, {"kind": "again"}, "nato")  # the place is taken
    with pytest.raises(StaleIndexError, match="has 1 actions, not 2"):
        store.append("g", 2, {"kind": "gap"}, "nato")  # a gap
    store.append("g", 1, {"kind": "next"}, "pact")
    assert store.actions("g") == [{"kind": "pass"}, {"kind": "next"}]
    store.truncate("g", 1)
    store.append("g", 1, {"kind": "other"}, "pact")
    assert store.actions("g") == [{"kind": "pass"}, {"kind": "other"}]
    store.close()


def test_the_journal_is_a_write_ahead_log_synced_as_documented(tmp_path: Path) -> None:
    for level, code in (("NORMAL", 1), ("FULL", 2)):
        store = make_store(tmp_path / f"{level}.sqlite3", synchronous=level)
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == code
        store.close()
    assert Store.__init__.__defaults__ == ("NORMAL",)
    with pytest.raises(ValueError, match="synchronous"):
        Store(tmp_path / "bad.sqlite3", synchronous="OFF; DROP TABLE games")


def test_a_committed_action_is_read_by_another_connection_at_once(tmp_path: Path) -> None:
    """What a server crash leaves: every committed action is in the database (another
    connection, as a restarted server would open, reads it without the first closing)."""
    path = tmp_path / "g.sqlite3"
    store = make_store(path)
    store.append("g", 0, {"kind": "pass"}, "nato")
    with sqlite3.connect(path) as other:
        assert other.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 1
    store.close()


# -- seats -----------------------------------------------------------------------------------------


def test_a_seat_is_remembered_and_a_guessed_token_is_not(client: TestClient) -> None:
    game = new_game(client, {"nato": "remote", "pact": "remote"})
    service = service_of(client)
    tokens = {s["token"] for s in game["seats"]}
    assert tokens <= set(service._seats)
    guess = "x" * 24
    r = client.get(f"/api/games/{game['id']}/seats/{guess}/view")
    assert r.status_code == 404 and guess not in service._seats
    other = new_game(client, {"nato": "remote", "pact": "remote"}, seed=4)
    _, token = seat_of(game, ["nato"])
    crossed = client.get(f"/api/games/{other['id']}/seats/{token}/view")  # a seat of another game
    assert crossed.status_code == 404 and crossed.json()["detail"] == "no game with that link"


# -- the AI in its own process --------------------------------------------------------------------


def in_process_moves(ruleset: str, scenario: str, seed: int, count: int) -> list[dict[str, Any]]:
    """The actions the AI players make when they choose in this process, as the server made
    them before they had processes of their own."""
    game = Game(get_ruleset(ruleset), scenario, seed, {})
    agents = {
        side: make_agent(
            search_web.agent_spec("ai"), ruleset, side, search_web.agent_seed("ai", seed)
        )
        for side in game.ruleset.meta.players
    }
    out = []
    while len(out) < count and game.to_act is not None:
        action = agents[game.to_act].choose(game.view(game.to_act), LazyActions(game))
        game.apply(action)
        out.append(action.to_dict())
    return out


def test_the_ai_in_its_own_process_plays_the_moves_it_plays_here(
    client: TestClient, db_path: Path
) -> None:
    game = new_game(client, {"nato": "ai", "pact": "ai"}, seed=11)
    game_id, token = seat_of(game, [])
    deadline = time.monotonic() + 120
    index = 0
    while index < 25 and time.monotonic() < deadline:
        index = client.get(f"/api/games/{game_id}/seats/{token}/wait?index={index}&timeout=5")
        index = index.json()["index"]
    assert index >= 25, "the AI did not play 25 actions in two minutes"
    view = client.get(f"/api/games/{game_id}/seats/{token}/view").json()
    assert view["ai_error"] is None
    with sqlite3.connect(db_path) as con:
        rows = con.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY idx LIMIT 25", (game_id,)
        ).fetchall()
    stored = [json.loads(r[0]) for r in rows]
    assert stored == in_process_moves("sevendays", "meeting-engagement", 11, 25)


def test_a_worker_brings_its_copy_up_to_date_and_starts_afresh_when_told() -> None:
    players = {"nato": "ai", "pact": "ai"}
    expected = in_process_moves("sevendays", "meeting-engagement", 5, 6)

    def move(actions: list[dict[str, Any]], generation: int) -> ai_worker.Move:
        game = Game(get_ruleset("sevendays"), "meeting-engagement", 5, {})
        for raw in actions:
            game.apply(Action.from_dict(raw))
        assert game.to_act is not None
        return ai_worker.Move(
            "local", generation, "sevendays", "meeting-engagement", 5, {}, players,
            tuple(actions), game.to_act,
        )  # fmt: skip

    played: list[dict[str, Any]] = []
    for _ in range(6):  # kept between moves: the agents keep their own streams
        raw, _why = ai_worker.choose(move(played, 1))
        played.append(raw)
    assert played == expected
    # a new generation (an undo, a reload): fresh agents, the same first moves again
    assert ai_worker.choose(move([], 2))[0] == expected[0]
    # a record that is not the copy's continuation (the server dropped a move): rebuilt
    assert ai_worker.choose(move([], 2))[0] == expected[0]


def test_a_ruleset_registered_at_run_time_is_found_by_the_ai_process(client: TestClient) -> None:
    register("throwaway", "tests.server.throwaway:Pile")
    try:
        assert ai_worker.runtime_target("throwaway") == "tests.server.throwaway:Pile"
        assert ai_worker.runtime_target("sevendays") is None
        game = new_game(client, {"north": "ai", "south": "ai"}, game="throwaway/short", seed=2)
        game_id, token = seat_of(game, [])
        deadline = time.monotonic() + 60
        view = client.get(f"/api/games/{game_id}/seats/{token}/view").json()
        while view["outcome"] is None and view["ai_error"] is None:
            assert time.monotonic() < deadline, "the AI did not finish a short pile in a minute"
            client.get(f"/api/games/{game_id}/seats/{token}/wait?index={view['index']}&timeout=5")
            view = client.get(f"/api/games/{game_id}/seats/{token}/view").json()
        assert view["ai_error"] is None and view["outcome"]["winner"] in ("north", "south")
    finally:
        unregister("throwaway")


def test_the_ai_process_does_not_run_in_the_server_process(client: TestClient) -> None:
    service = service_of(client)
    game = new_game(client, {"nato": "ai", "pact": "ai"}, seed=12)
    game_id, token = seat_of(game, [])
    client.get(f"/api/games/{game_id}/seats/{token}/wait?index=0&timeout=30")
    pools = [p for p in service._ai._pools if p is not None]
    assert pools, "no AI process was started"
    pids = {pool.submit(os.getpid).result(timeout=60) for pool in pools}
    assert os.getpid() not in pids
