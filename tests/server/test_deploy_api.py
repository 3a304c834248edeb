"""The web table's deployment step through the API, for every ruleset that declares one (the
``deployment`` capability): the view says whose step it is and draws its zone for every seat,
names the pieces to place to the deploying seat only, and "deploy for me" places that side's
pieces (never the next side's) with legal placements."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from umpire.server.main import create_app  # noqa: E402


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, ai_delay=0.0)) as c:
        yield c


def create(client: TestClient, **body: Any) -> dict[str, str]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    game = r.json()
    return {
        s["sides"][0]: f"/api/games/{game['id']}/seats/{s['token']}"
        for s in game["seats"]
        if len(s["sides"]) == 1
    }


def view(client: TestClient, seat: str) -> dict[str, Any]:
    r = client.get(seat + "/view")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_sevendays_capture_free_deployment_through_the_api(client: TestClient) -> None:
    seats = create(
        client,
        ruleset="sevendays",
        scenario="capture",
        seed=3,
        players={"nato": "here", "pact": "remote"},
        options={"deployment": "free"},
    )
    nato, pact = view(client, seats["nato"]), view(client, seats["pact"])
    assert nato["deploying"] and not pact["deploying"]
    assert nato["deployment"]["side"] == pact["deployment"]["side"] == "nato"
    assert nato["deployment"]["zone"] == pact["deployment"]["zone"] == {"rects": [[0, 0, 72, 32]]}
    pieces = nato["deployment"]["pieces"]
    assert len(pieces) == 7 and "pieces" not in pact["deployment"]
    assert all(a["action"]["kind"] == "place" for a in nato["actions"])
    # one placement by hand, anywhere legal in the zone
    r = client.post(
        seats["nato"] + "/actions",
        json={"index": 0, "action": {"kind": "place", "unit": pieces[0], "point": [20.5, 10]}},
    )
    assert r.status_code == 200, r.text
    # outside the zone: refused with the rule's reason
    r = client.post(
        seats["nato"] + "/actions",
        json={"index": 1, "action": {"kind": "place", "unit": pieces[1], "point": [20, 40]}},
    )
    assert r.status_code == 422 and "deployment zone" in r.json()["detail"]
    # the Soviets' page: the placed marker, never the unit under it
    text = json.dumps(view(client, seats["pact"]))
    for uid in pieces:
        assert uid not in text
    # deploy for me: NATO's six others, then it is the Soviets' placement
    r = client.post(seats["nato"] + "/deploy", json={"index": 1})
    assert r.status_code == 200, r.text
    assert r.json()["placed"] == 6 and r.json()["to_act"] == "pact"
    assert r.json()["done"]  # the side is deployed (the page says so, not a count)
    nato, pact = view(client, seats["nato"]), view(client, seats["pact"])
    assert not nato["deploying"] and pact["deploying"]
    assert pact["deployment"]["zone"] == {"rects": [[0, 44, 72, 48]]}
    markers = [m for m in pact["board"]["hidden_markers"] if m["side"] == "nato"]
    assert len(markers) == 7 and all(0 <= m["y"] <= 32 for m in markers)
    # a seat with nothing to deploy is refused
    r = client.post(seats["nato"] + "/deploy", json={"index": 7})
    assert r.status_code == 403
    r = client.post(seats["pact"] + "/deploy", json={"index": 7})
    assert r.status_code == 200 and r.json()["placed"] == 7
    after = view(client, seats["pact"])
    assert "deployment" not in after and not after["deploying"]


def test_fixed_deployment_has_no_step(client: TestClient) -> None:
    seats = create(
        client,
        ruleset="sevendays",
        scenario="capture",
        seed=3,
        players={"nato": "here", "pact": "remote"},
    )
    v = view(client, seats["nato"])
    assert not v["deploying"] and "deployment" not in v


def test_bookgun_declares_its_concealed_deployment(client: TestClient) -> None:
    seats = create(
        client,
        ruleset="bookgun",
        scenario="convoy-ambush",
        seed=1,
        players={"insurgents": "here", "army": "remote"},
    )
    mine, army = view(client, seats["insurgents"]), view(client, seats["army"])
    assert mine["deploying"] and mine["deployment"]["kinds"] == ["deploy"]
    assert mine["deployment"]["zone"]["sites"] and mine["deployment"]["hidden"]
    assert "pieces" not in army["deployment"] and not army["deploying"]
    r = client.post(seats["insurgents"] + "/deploy", json={"index": 0})
    assert r.status_code == 200 and r.json()["placed"] >= 2
    assert "deployment" not in view(client, seats["insurgents"])


def test_portable_free_deployment_and_deploy_for_me(client: TestClient) -> None:
    seats = create(
        client,
        ruleset="portable",
        scenario="village-attack",
        seed=2,
        players={"blue": "here", "red": "remote"},
        options={"deployment": "free"},
    )
    blue, red = view(client, seats["blue"]), view(client, seats["red"])
    assert blue["deploying"] and not red["deploying"]
    cells = blue["deployment"]["zone"]["cells"]
    assert cells == red["deployment"]["zone"]["cells"] and "A1" in cells and "A3" not in cells
    piece = blue["deployment"]["pieces"][0]
    r = client.post(
        seats["blue"] + "/actions",
        json={"index": 0, "action": {"kind": "place", "unit": piece, "cell": "A3"}},
    )
    assert r.status_code == 422 and "deployment zone" in r.json()["detail"]
    r = client.post(
        seats["blue"] + "/actions",
        json={"index": 0, "action": {"kind": "place", "unit": piece, "cell": "J2"}},
    )
    assert r.status_code == 200, r.text
    units = {u["id"]: u for u in view(client, seats["red"])["board"]["units"]}
    assert (units[piece]["x"], units[piece]["y"]) == (9, 1)  # J2, seen by both sides
    r = client.post(seats["blue"] + "/deploy", json={"index": 1})
    assert r.status_code == 200 and r.json()["to_act"] == "red"
    r = client.post(seats["red"] + "/deploy", json={"index": 1 + r.json()["placed"]})
    assert r.status_code == 200, r.text
    after = view(client, seats["blue"])
    assert "deployment" not in after
    assert after["board"]["status"]  # the turn has begun
