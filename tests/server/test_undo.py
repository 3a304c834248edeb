"""Undo cannot peek at the dice: against the AI, undo stops at a roll, a card or a secret (the
same action played again would roll the same die); a hot-seat game keeps full undo."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from umpire.core.deck import Deck  # noqa: E402
from umpire.core.events import note, roll  # noqa: E402
from umpire.core.game import new_game  # noqa: E402
from umpire.core.rng import RandomStream  # noqa: E402
from umpire.server.main import create_app  # noqa: E402
from umpire.server.undo import chance_mark, chance_reason  # noqa: E402


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, ai_delay=0.0)) as c:
        yield c


def start(client: TestClient, players: dict[str, str], seed: int = 5) -> tuple[str, str]:
    r = client.post(
        "/api/games",
        json={
            "ruleset": "sevendays",
            "scenario": "meeting-engagement",
            "seed": seed,
            "players": players,
        },
    )
    assert r.status_code == 200, r.text
    game = r.json()
    seat = next(s for s in game["seats"] if s["here"])
    return game["id"], f"/api/games/{game['id']}/seats/{seat['token']}"


def my_turn(client: TestClient, url: str) -> Any:
    deadline = time.monotonic() + 30
    view = client.get(url + "/view").json()
    while not view["your_turn"]:
        assert view["outcome"] is None and time.monotonic() < deadline, "the AI never handed over"
        client.get(url + f"/wait?index={view['index']}&timeout=2")
        view = client.get(url + "/view").json()
    return view


def play(client: TestClient, url: str, view: Any, kind: str) -> Any:
    action = next(a["action"] for a in view["actions"] if a["action"]["kind"] == kind)
    r = client.post(url + "/actions", json={"index": view["index"], "action": action})
    assert r.status_code == 200, r.text
    return r.json()


def until_fire(client: TestClient, url: str) -> Any:
    """Play PACT's first choice (activating first) until a shot is on offer."""
    for _ in range(40):
        view = my_turn(client, url)
        kinds = {a["action"]["kind"] for a in view["actions"]}
        if "fire" in kinds:
            return view
        play(
            client,
            url,
            view,
            "activate" if "activate" in kinds else view["actions"][0]["action"]["kind"],
        )
    raise AssertionError("no shot came up")


def stored(db: Path, game_id: str) -> list[str]:
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)
        ).fetchall()
    return [r[0] for r in rows]


def test_against_the_ai_fire_see_the_roll_and_undo_is_refused(client: TestClient, db_path: Path):
    game_id, url = start(client, {"nato": "ai", "pact": "here"})
    view = until_fire(client, url)
    play(client, url, view, "fire")  # declared; the AI may react, then the shot is rolled
    after = my_turn(client, url)
    since = client.get(url + f"/view?since={view['index']}").json()["log"]
    rolls = [e for entry in since for e in entry["events"] if e["kind"] == "roll"]
    assert rolls and all(r["dice"] for r in rolls), "the shot's dice were shown"
    before = stored(db_path, game_id)
    assert after["seat"]["can_undo"] is False
    reason = after["seat"]["undo_blocked"]
    assert reason and "roll" in reason and "\n" not in reason
    r = client.post(url + "/undo", json={"index": after["index"]})
    assert r.status_code == 409 and r.json()["detail"] == reason
    assert stored(db_path, game_id) == before  # nothing taken back
    assert client.get(url + "/view").json()["index"] == after["index"]


def test_against_the_ai_a_move_without_dice_can_be_taken_back(client: TestClient, db_path: Path):
    game_id, url = start(client, {"nato": "ai", "pact": "here"})
    for _ in range(40):  # find a move (an activated unit's plain move rolls nothing)
        view = my_turn(client, url)
        kinds = [a["action"]["kind"] for a in view["actions"]]
        if "move" in kinds:
            break
        play(client, url, view, "activate" if "activate" in kinds else kinds[0])
    else:
        raise AssertionError("no move came up")
    board_before = view["board"]["units"]
    moved = play(client, url, view, "move")
    assert not [e for e in moved["events"] if e["kind"] == "roll"]
    now = client.get(url + "/view").json()
    # still PACT's activation (seed 5): nothing random since my move, so undo is allowed
    assert now["seat"]["can_undo"] and now["seat"]["undo_blocked"] is None, now["seat"]
    r = client.post(url + "/undo", json={"index": now["index"]})
    assert r.status_code == 200 and r.json()["index"] == view["index"]
    assert len(stored(db_path, game_id)) == view["index"]
    assert client.get(url + "/view").json()["board"]["units"] == board_before


def test_hot_seat_keeps_full_undo_past_the_dice(client: TestClient, db_path: Path):
    game_id, url = start(client, {"nato": "here", "pact": "here"}, seed=3)
    view = client.get(url + "/view").json()
    played = 0
    rolled = False
    while played < 6:
        kinds = [a["action"]["kind"] for a in view["actions"]]
        kind = "fire" if "fire" in kinds else "activate" if "activate" in kinds else kinds[0]
        out = play(client, url, view, kind)
        rolled |= any(e["kind"] == "roll" for e in out["events"])
        played += 1
        view = client.get(url + "/view").json()
    assert rolled
    assert view["seat"]["can_undo"] and view["seat"]["undo_blocked"] is None
    while view["index"] > 0:
        r = client.post(url + "/undo", json={"index": view["index"]})
        assert r.status_code == 200, r.text
        view = client.get(url + "/view").json()
    assert stored(db_path, game_id) == []


def test_a_branch_for_analysis_keeps_full_undo():
    game = new_game("sevendays/meeting-engagement", seed=3)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    rolled = [e for e in game.events if e.kind == "roll"]
    assert rolled
    twin = game.branch(0)
    for action in game.record.actions:
        twin.apply(action)
    assert [e.to_dict() for e in twin.events] == [e.to_dict() for e in game.events]
    game.undo(6)
    assert game.record.actions == []


# -- what counts as chance or a secret ---------------------------------------------------------


def test_a_roll_a_draw_a_reveal_or_a_secret_told_to_another_side_counts():
    assert chance_reason([roll("r", "d6", [4], 4, 3, True)], "a")
    assert chance_reason([note("draw", "a draws a card")], "a")
    assert chance_reason([note("revealed", "marker-3 is a T-64")], "a")
    assert chance_reason([note("x", "b sees y", visible_to=["b"])], "a")
    assert chance_reason([note("x", "hand", cards=["AS"])], "a")
    # a side told its own secret learns nothing; a plain public move is no chance
    assert chance_reason([note("move", "my marker moves", visible_to=["a"])], "a") is None
    assert chance_reason([note("move", "a moves 3 inches")], "a") is None


def test_a_moved_stream_or_a_shorter_draw_pile_is_seen_on_the_state():
    class State:
        def __init__(self) -> None:
            self.rng = RandomStream(1)
            self.deck = Deck.shuffled(["1", "2", "3"], RandomStream(2))
            self.cards = {"deck": ["a", "b"]}

    state = State()
    mark = chance_mark(state)
    assert chance_mark(state) == mark
    state.rng.dice(1, 6)
    assert chance_mark(state) != mark
    mark = chance_mark(state)
    state.deck.draw(RandomStream(3))
    assert chance_mark(state) != mark
    mark = chance_mark(state)
    state.cards["deck"].pop()
    assert chance_mark(state) != mark
    as_dict = {"rng": RandomStream(1).to_dict()}
    before = chance_mark(as_dict)
    stream = RandomStream.from_dict(as_dict["rng"])
    stream.dice(1, 6)
    as_dict["rng"] = stream.to_dict()
    assert chance_mark(as_dict) != before


def test_a_finished_hot_seat_game_keeps_its_result(client: TestClient):
    """Issue 20: at the end of the game the battle report stands; undo is hidden on the page
    and refused by the server, in one readable line."""
    from umpire.core.ruleset import register, unregister

    register("throwaway", "tests.server.throwaway:Pile")
    try:
        r = client.post(
            "/api/games",
            json={
                "ruleset": "throwaway",
                "scenario": "short",
                "seed": 5,
                "players": {"north": "here", "south": "here"},
            },
        )
        assert r.status_code == 200, r.text
        game = r.json()
        seat = next(s for s in game["seats"] if s["here"])
        url = f"/api/games/{game['id']}/seats/{seat['token']}"
        view = client.get(url + "/view").json()
        while view["outcome"] is None:
            out = client.post(
                url + "/actions",
                json={"index": view["index"], "action": view["actions"][0]["action"]},
            )
            assert out.status_code == 200, out.text
            view = client.get(url + "/view").json()
        assert view["index"] > 0 and view["seat"]["can_undo"] is False
        refused = client.post(url + "/undo", json={"index": view["index"]})
        assert refused.status_code == 409
        assert "the game is over" in refused.text
        assert client.get(url + "/view").json()["index"] == view["index"]
    finally:
        unregister("throwaway")
