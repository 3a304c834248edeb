"""The lobby's "AI explains its moves to everyone" (issue 17, Why; docs/search-ai.md "In the
saved record": ``why_public``): the game's setting decides whether a side other than the
searching one reads the search's why. Absent, the default stands (another side reads it only in
a perfect-information ruleset); true, every seat reads it; false, only the AI's own side."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from umpire.server.main import create_app  # noqa: E402

SEVEN_DAYS = {"ruleset": "sevendays", "scenario": "meeting-engagement", "seed": 4}
AI = {"nato": "search:aggressive@0.02", "pact": "here"}


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, ai_delay=0.0)) as c:
        yield c


def start(client: TestClient, **extra: Any) -> Any:
    r = client.post("/api/games", json={**SEVEN_DAYS, "players": AI, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def pact_url(game: Any) -> str:
    seat = next(s for s in game["seats"] if s["sides"] == ["pact"])
    return f"/api/games/{game['id']}/seats/{seat['token']}"


def play_until_explained(client: TestClient, game: Any, limit: float = 60.0) -> Any:
    """Play Pact's first listed action when it is Pact's turn (waiting for the AI otherwise)
    until the search has explained a move (its kept ``reasons``); the last view."""
    url = pact_url(game)
    live = client.app.state.service._cache[game["id"]]  # type: ignore[attr-defined]
    deadline = time.monotonic() + limit
    view = client.get(url + "/view").json()
    while view["outcome"] is None and time.monotonic() < deadline:
        if live.reasons and view["index"] > max(live.reasons):
            break
        if view["your_turn"] and view["actions"]:
            action = view["actions"][0]["action"]
            client.post(url + "/actions", json={"index": view["index"], "action": action})
        else:
            client.get(url + f"/wait?index={view['index']}&timeout=2")
        view = client.get(url + "/view").json()
    assert live.reasons, "the search made no explained move: nothing to read or withhold"
    return client.get(url + "/view").json()


def whys(view: Any) -> list[str]:
    return [g["why"] for g in view["log"] if "why" in g]


@pytest.mark.parametrize("bad", ["yes", 1, 0, [], {"on": True}])
def test_a_bad_why_public_is_a_400_naming_the_field(client: TestClient, bad: Any) -> None:
    r = client.post("/api/games", json={**SEVEN_DAYS, "players": AI, "why_public": bad})
    assert r.status_code == 400, r.text
    assert "why_public" in r.json()["detail"]


def test_the_lobby_page_offers_the_setting(client: TestClient) -> None:
    page = client.get("/").text
    assert 'id="why-public"' in page and "AI explains its moves to everyone" in page
    assert "why_public" in client.get("/static/lobby.js").text


def test_on_the_human_seat_of_a_hidden_information_game_reads_the_why(
    client: TestClient,
) -> None:
    game = start(client, why_public=True)
    view = play_until_explained(client, game)
    live = client.app.state.service._cache[game["id"]]  # type: ignore[attr-defined]
    shown = whys(view)
    assert shown, "why_public is on but Pact's page shows no why"
    assert set(shown) <= set(live.reasons.values())
    assert all(w.startswith("nato search (aggressive, ") for w in shown)
    assert live.game.record.why_public is True
    assert live.game.record.to_dict().get("why_public") is True


@pytest.mark.parametrize("extra", [{"why_public": False}, {}, {"why_public": None}])
def test_off_or_default_the_human_seat_does_not_read_it(
    client: TestClient, extra: dict[str, Any]
) -> None:
    game = start(client, **extra)
    view = play_until_explained(client, game)
    live = client.app.state.service._cache[game["id"]]  # type: ignore[attr-defined]
    assert whys(view) == []
    text = client.get(pact_url(game) + "/view").text
    assert not any(reason in text for reason in live.reasons.values())
    assert "nato search (" not in text


def test_the_setting_is_stored_with_the_game(db_path: Path) -> None:
    """A restarted server (a fresh app on the same database) rebuilds the game from the store
    and still lets Pact read the why: the setting was kept, not only held in memory."""
    with TestClient(create_app(db_path, ai_delay=0.0)) as client:
        game = start(client, why_public=True)
        before = whys(play_until_explained(client, game))
        assert before
    with TestClient(create_app(db_path, ai_delay=0.0)) as client:
        view = client.get(pact_url(game) + "/view").json()
        assert set(before) <= set(whys(view))
        live = client.app.state.service._cache[game["id"]]  # type: ignore[attr-defined]
        assert live.game.record.why_public is True
