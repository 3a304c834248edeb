"""A seat's view and its actions are answered before the framework's routing (issue 19:
``umpire.server.main._hot``), with what the routes answer: the same status, body and headers
for views (with and without ``since``), refused actions of every kind (stale, malformed, not
JSON, too large, another side's turn, a wrong link) and an accepted action; and whatever is not
plainly one of these (another method, an odd query, a trailing slash) still reaches the routes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from umpire.server import main  # noqa: E402
from umpire.server.main import create_app  # noqa: E402

ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "g.sqlite3", ai_delay=0.0)) as c:
        yield c


def new_game(client: TestClient) -> tuple[str, dict[str, str]]:
    made = client.post(
        "/api/games",
        json={
            "ruleset": "sevendays",
            "scenario": "meeting-engagement",
            "seed": 9,
            "players": {"nato": "remote", "pact": "remote"},
        },
        headers=ORIGIN,
    ).json()
    return made["id"], {s["sides"][0]: s["token"] for s in made["seats"]}


def answer(response: Any) -> tuple[int, bytes, list[tuple[str, str]]]:
    return response.status_code, response.content, sorted(response.headers.items())


def routes_only(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Send every request to the routes; the list names the requests the hot path saw."""
    seen: list[str] = []
    real = main._hot

    async def counted(*args: Any) -> bool:
        done = await real(*args)
        if done:
            seen.append(args[1]["path"])
        return done

    monkeypatch.setattr(main, "_hot", counted)
    return seen


def test_views_and_refusals_are_answered_as_the_routes_answer_them(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, seats = new_game(client)
    to_act = client.get(f"/api/games/{game_id}/seats/{seats['nato']}/view").json()["to_act"]
    mine = f"/api/games/{game_id}/seats/{seats[to_act]}"
    other = f"/api/games/{game_id}/seats/{seats['pact' if to_act == 'nato' else 'nato']}"
    first = client.get(mine + "/view").json()["actions"][0]["action"]
    json_headers = {**ORIGIN, "Content-Type": "application/json"}
    requests: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", mine + "/view", {}),
        ("GET", mine + "/view?since=0", {}),
        ("GET", other + "/view?since=1", {}),
        ("GET", mine + "/view?since=-3", {}),
        ("GET", f"/api/games/{game_id}/seats/not-a-token/view", {}),
        ("GET", f"/api/games/nogame/seats/{seats['nato']}/view", {}),
        ("POST", mine + "/actions", {"json": {"index": 5, "action": first}}),
        ("POST", mine + "/actions", {"json": {"index": 0, "action": {"kind": 3}}}),
        ("POST", mine + "/actions", {"json": {"index": "0", "action": first}}),
        ("POST", mine + "/actions", {"json": [1, 2]}),
        ("POST", other + "/actions", {"json": {"index": 0, "action": first}}),
        ("POST", mine + "/actions", {"content": b"{not json", "headers": json_headers}),
        ("POST", mine + "/actions", {"content": b"{}", "headers": {**ORIGIN}}),
        ("POST", mine + "/actions", {"content": b"x" * 70_000, "headers": json_headers}),
        ("POST", f"/api/games/{game_id}/seats/bad/actions", {"json": {"index": 0}}),
    ]
    seen = routes_only(monkeypatch)
    hot = []
    for method, url, extra in requests:
        extra.setdefault("headers", ORIGIN)
        hot.append(answer(client.request(method, url, **extra)))
    # every one answered before the routes, but the 70 KB body the guard refuses first
    assert len(seen) == len(requests) - 1
    monkeypatch.setattr(main, "_hot", _never)
    routed = [answer(client.request(m, u, **e)) for m, u, e in requests]
    for request, fast, slow in zip(requests, hot, routed, strict=True):
        assert fast == slow, request[:2]
    statuses = {status for status, _, _ in hot}
    assert {200, 400, 403, 404, 409}.issubset(statuses)


async def _never(*args: Any) -> bool:
    return False


def test_an_accepted_action_gets_the_routes_answer(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = []
    for hot in (True, False):
        if not hot:
            monkeypatch.setattr(main, "_hot", _never)
        game_id, seats = new_game(client)
        view = client.get(f"/api/games/{game_id}/seats/{seats['nato']}/view").json()
        base = f"/api/games/{game_id}/seats/{seats[view['to_act']]}"
        view = client.get(base + "/view").json()
        body = {"index": view["index"], "action": view["actions"][-1]["action"]}
        got = client.post(base + "/actions", json=body, headers=ORIGIN)
        after = client.get(base + "/view?since=0")
        answers.append(
            (answer(got), answer(after)[0], after.text.replace(game_id, "GAME"), view["to_act"])
        )
    assert answers[0] == answers[1]
    assert answers[0][0][0] == 200


def test_requests_not_plainly_a_view_or_an_action_reach_the_routes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, seats = new_game(client)
    base = f"/api/games/{game_id}/seats/{seats['nato']}"
    seen = routes_only(monkeypatch)
    for method, url in (
        ("GET", base + "/view?since=abc"),
        ("GET", base + "/view?since=1&since=2"),
        ("GET", base + "/view/"),
        ("HEAD", base + "/view"),
        ("PUT", base + "/actions"),
        ("GET", base + "/actions"),
    ):
        client.request(method, url, headers=ORIGIN, follow_redirects=False)
    assert seen == []
    assert client.get(base + "/view?since=abc", headers=ORIGIN).status_code == 400
    client.get(base + "/view", headers=ORIGIN)
    assert seen == [base + "/view"]
