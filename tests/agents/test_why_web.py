"""The search AI's "why" at the web table survives a server restart (issue 17: shown "in the
browser next to the AI's move, and in the record"): the server's store keeps it next to the
stored action, a restarted server shows it again next to the same move, and an undo takes it
back with its move."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from umpire.server.main import create_app  # noqa: E402
from umpire.server.store import Store  # noqa: E402

PLAYERS = {"blue": "here", "red": "search:aggressive@0.05"}  # Portable: perfect information


def _whys(view: Any) -> dict[int, str]:
    return {g["index"]: g["why"] for g in view["log"] if "why" in g}


def _play_until_whys(client: TestClient, url: str, count: int, limit: float = 90.0) -> Any:
    """Blue plays its first listed order at each turn until red's search has explained
    ``count`` moves (or the game ends); the last view."""
    deadline = time.monotonic() + limit
    view = client.get(url + "/view").json()
    while len(_whys(view)) < count and view["outcome"] is None and time.monotonic() < deadline:
        if view["your_turn"] and view["actions"]:
            action = view["actions"][0]["action"]
            client.post(url + "/actions", json={"index": view["index"], "action": action})
        else:
            client.get(url + f"/wait?index={view['index']}&timeout=2")
        view = client.get(url + "/view").json()
    return view


def _wait_for_blue(client: TestClient, url: str, limit: float = 60.0) -> Any:
    """The view once it is blue's turn again (the AI has finished its moves)."""
    deadline = time.monotonic() + limit
    view = client.get(url + "/view").json()
    while not view["your_turn"] and view["outcome"] is None and time.monotonic() < deadline:
        client.get(url + f"/wait?index={view['index']}&timeout=2")
        view = client.get(url + "/view").json()
    return view


def test_the_why_is_kept_in_the_store_and_shown_again_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with TestClient(create_app(db, ai_delay=0.0)) as client:
        r = client.post(
            "/api/games",
            json={"ruleset": "portable", "scenario": "crossroads", "seed": 7, "players": PLAYERS},
        )
        assert r.status_code == 200, r.text
        game = r.json()
        seat = next(s for s in game["seats"] if s["sides"] == ["blue"])
        url = f"/api/games/{game['id']}/seats/{seat['token']}"
        _play_until_whys(client, url, 3)
        before = _wait_for_blue(client, url)
        shown = _whys(before)
        assert len(shown) >= 3 and before["your_turn"]
    # the store holds each why next to its action: the record's notes
    store = Store(db)
    try:
        kept = store.notes(game["id"])
        actions = store.actions(game["id"])
    finally:
        store.close()
    assert {i + 1 for i in kept} == set(shown)  # the page counts actions from 1
    assert all(kept[i - 1]["text"] == text for i, text in shown.items())
    assert all(n["side"] == "red" and n["choices"] for n in kept.values())
    assert max(kept) < len(actions)
    # a new server over the same database (its AI slow to start: nothing moves meanwhile)
    with TestClient(create_app(db, ai_delay=30.0)) as client:
        after = client.get(url + "/view").json()
        assert after["index"] == before["index"]
        assert _whys(after) == shown
    # an undo in the store (as the web table's undo does) takes the whys back with the moves
    last = max(kept)
    store = Store(db)
    try:
        store.truncate(game["id"], last)
        assert set(store.notes(game["id"])) == {i for i in kept if i < last}
    finally:
        store.close()
    with TestClient(create_app(db, ai_delay=30.0)) as client:
        after = client.get(url + "/view").json()
        assert after["index"] == last
        assert _whys(after) == {i: t for i, t in shown.items() if i <= last}
