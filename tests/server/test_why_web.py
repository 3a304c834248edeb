"""The search AI's why on the web replay slider (issue 17, Why: "in the browser next to the
AI's move"; docs/search-ai.md "In the saved record"). Each frame's log carries the why of an
AI move to the seats that may read it, by the same rule as the live log: the AI's own side
always, another side as the game's ``why_public`` says (by default only in a
perfect-information ruleset). The replay JSON is checked, not only the page."""

from __future__ import annotations

import json
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
SEVEN_DAYS_AI = {"nato": "search:aggressive@0.02", "pact": "here"}
CROSSROADS = {"ruleset": "portable", "scenario": "crossroads", "seed": 7}
CROSSROADS_AI = {"blue": "here", "red": "search:aggressive@0.05"}


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, ai_delay=0.0)) as c:
        yield c


def played(client: TestClient, game: dict[str, Any], players: dict[str, str], **extra: Any) -> Any:
    """A game against the search AI, the human seat playing its first listed action, until the
    AI has explained two moves; (the human seat's URL, the live game)."""
    r = client.post("/api/games", json={**game, "players": players, **extra})
    assert r.status_code == 200, r.text
    made = r.json()
    human = next(s for s, k in players.items() if k == "here")
    seat = next(s for s in made["seats"] if s["sides"] == [human])
    url = f"/api/games/{made['id']}/seats/{seat['token']}"
    live = client.app.state.service._cache[made["id"]]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    view = client.get(url + "/view").json()
    while view["outcome"] is None and time.monotonic() < deadline:
        if len(live.reasons) >= 2 and view["index"] > max(live.reasons):
            break
        if view["your_turn"] and view["actions"]:
            action = view["actions"][0]["action"]
            client.post(url + "/actions", json={"index": view["index"], "action": action})
        else:
            client.get(url + f"/wait?index={view['index']}&timeout=2")
        view = client.get(url + "/view").json()
    assert len(live.reasons) >= 2, "the search explained fewer than two moves"
    return url, live


def frame(client: TestClient, url: str, at: int) -> tuple[Any, str]:
    r = client.get(url + f"/replay?at={at}")
    assert r.status_code == 200, r.text
    return r.json(), r.text


def test_replay_frames_carry_the_why_of_the_ai_moves_when_the_seat_may_read_it(
    client: TestClient,
) -> None:
    """Seven Days hides information; with the lobby's why_public on, Pact's replay shows each
    explained NATO move's why in the frame where that move is, and nothing by Pact's moves."""
    url, live = played(client, SEVEN_DAYS, SEVEN_DAYS_AI, why_public=True)
    reasons = dict(live.reasons)
    for index, text in reasons.items():
        data, _ = frame(client, url, index + 1)  # the frame just after the AI's move
        entries = {g["index"]: g for g in data["log"]}
        assert entries[index + 1].get("why") == text
        assert live.sides[index] == "nato"
        earlier, _ = frame(client, url, index)  # the move is not yet there, nor its why
        assert all(g["index"] <= index for g in earlier["log"])
        # every why shown before the move is an earlier move's own (two moves may give the
        # same words, e.g. one playout each on a loaded machine, so compare by index)
        for g in earlier["log"]:
            if "why" in g:
                assert g["index"] - 1 < index and g["why"] == live.reasons[g["index"] - 1]
    data, _ = frame(client, url, live.index)
    # the AI may have moved again meanwhile: compare with the whys of the frame's actions
    upto = {i: t for i, t in live.reasons.items() if i < data["at"]}
    assert reasons.items() <= upto.items()
    shown = {g["index"] - 1: g["why"] for g in data["log"] if "why" in g}
    assert shown == upto
    assert all(live.sides[i] == "nato" for i in shown)


@pytest.mark.parametrize("extra", [{}, {"why_public": False}])
def test_no_why_leaks_through_the_replay_json_in_a_hidden_information_game(
    client: TestClient, extra: dict[str, Any]
) -> None:
    url, live = played(client, SEVEN_DAYS, SEVEN_DAYS_AI, **extra)
    for at in sorted({0, live.index, *(i + 1 for i in live.reasons)}):
        data, text = frame(client, url, at)
        assert all("why" not in g for g in data["log"])
        for reason in live.reasons.values():
            assert reason not in text and json.dumps(reason)[1:-1] not in text
        assert "nato search (" not in text


def test_a_perfect_information_replay_shows_the_why_by_default_and_not_when_off(
    client: TestClient,
) -> None:
    """Portable is perfect information: by default Blue reads Red's why on the slider too."""
    url, live = played(client, CROSSROADS, CROSSROADS_AI)
    data, _ = frame(client, url, live.index)
    shown = {g["index"] - 1: g["why"] for g in data["log"] if "why" in g}
    assert len(shown) >= 2
    assert shown == {i: t for i, t in live.reasons.items() if i < data["at"]}
    assert all(live.sides[i] == "red" for i in shown)

    url, live = played(client, CROSSROADS, CROSSROADS_AI, why_public=False)
    data, text = frame(client, url, live.index)
    assert all("why" not in g for g in data["log"])
    assert not any(reason in text for reason in live.reasons.values())
