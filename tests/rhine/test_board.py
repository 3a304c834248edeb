"""The web-table board of 7 Days to the Rhine: hexes, hexsides, counters and markers built from
one side's observation, never showing the other side's combat-support commitment before the
reveal; and a rhine game created and viewed through the server's HTTP API."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from umpire.core.flow import SecretCommit
from umpire.core.game import Game
from umpire.core.ruleset import capability
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.board import BOARD, xy
from umpire.rulesets.rhine.ruleset import world


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, Mapping):
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _walk(v)


def _half_committed(seed: int) -> tuple[Game, str, str, dict[str, Any]]:
    """A scripted game stopped where one side has committed combat support that is not
    ``none`` and the other has not: (game, committed side, waiting side, the commitment)."""
    game = Game(RULESET, "autobahn-gap", seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    while not game.is_over:
        stack = game.state.flow.stack
        top = stack[-1] if stack else None
        if isinstance(top, SecretCommit) and len(top.committed) == 1:
            ((made, action),) = top.committed.items()
            if action.get("option") != "none":
                return game, made, top.side, dict(action)
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    raise AssertionError("no half-made commitment with support in this game")


def test_board_is_declared_and_draws_the_map() -> None:
    assert capability(RULESET, "board").resolve() is BOARD
    game = Game(RULESET, "autobahn-gap", 1)
    w = world(game.state)
    b = BOARD.board(game, RULESET.observation(game.state, "nato"), "nato")
    assert b["layout"] == "hex" and (b["width"], b["height"]) == (12, 10)
    assert len(b["cells"]) == 12 * 10
    cell = {c["id"]: c for c in b["cells"]}
    # hex 0204 is Westburg: a city worth victory points, drawn as a town
    assert cell["0204"]["city"] == "Westburg" and cell["0204"]["objective"]
    assert cell["0204"]["terrain"] == "town" and cell["0204"]["kind"] == "city"
    # the page's coordinates keep the map's adjacency: column 02 sits half a hex lower
    assert xy(w, "0101") == (0, 9) and xy(w, "0202") == (1, 8)
    # every river hexside of the scenario, with bridges where a road crosses it
    assert len(b["hexsides"]) == len(w.rivers)
    roads = w.road_edges | w.autobahn_edges
    for side in b["hexsides"]:
        assert side["bridge"] == (frozenset((side["a"], side["b"])) in roads)
    assert len(b["roads"]) == len(roads)
    # counters: every unit on the map at its hex, own ones friendly, the others hostile
    on_map = {u: h for u, h in game.state.pos.items() if h is not None}
    drawn = {u["id"]: u for u in b["units"] if "hex" in u}
    assert set(drawn) == set(on_map)
    for u, h in on_map.items():
        assert drawn[u]["hex"] == h and (drawn[u]["x"], drawn[u]["y"]) == xy(w, h)
        assert drawn[u]["sidc"][1] == ("F" if w.units[u].side == "nato" else "H")
        assert drawn[u]["strength"] == w.units[u].strength and drawn[u]["ma"] == w.units[u].ma
    assert sum(len(us) for us in b["stacks"].values()) == len(on_map)
    # NATO's zone of control is every hex next to a NATO unit
    nato_hexes = {h for u, h in on_map.items() if w.units[u].side == "nato"}
    assert set(b["zoc"]["nato"]) == {n for h in nato_hexes for n in w.neighbours[h]}
    json.dumps(b)  # plain JSON for the page


@pytest.mark.parametrize("seed", [7])
def test_board_never_shows_the_other_sides_commitment(seed: int) -> None:
    game, made, waiting, action = _half_committed(seed)
    theirs = BOARD.board(game, RULESET.observation(game.state, waiting), waiting)
    mine = BOARD.board(game, RULESET.observation(game.state, made), made)
    # the waiting side sees that support was committed, not what
    (shown,) = [c for c in theirs["commitments"] if c["side"] == made]
    assert shown == {"side": made, "committed": True}
    assert not any(v == action for v in _walk(theirs))
    assert all(
        not (isinstance(v, Mapping) and v.get("kind") == "cs" and v.get("option"))
        for v in _walk(theirs)
    )
    # ... while the side that made it sees its own choice
    (own,) = [c for c in mine["commitments"] if c["side"] == made]
    assert own == {"side": made, "committed": True, "option": action["option"]}


def test_a_rhine_game_through_the_server(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from umpire.server.main import create_app

    with TestClient(create_app(tmp_path / "games.sqlite3", ai_delay=0.0)) as client:
        r = client.post(
            "/api/games",
            json={
                "ruleset": "rhine",
                "scenario": "autobahn-gap",
                "seed": 3,
                "players": {"pact": "here", "nato": "here"},
            },
        )
        assert r.status_code == 200, r.text
        game = r.json()
        seat = next(s for s in game["seats"] if "pact" in s["sides"])
        url = f"/api/games/{game['id']}/seats/{seat['token']}"
        view = client.get(url + "/view")
        assert view.status_code == 200, view.text
        body = view.json()
        board = body["board"]
        assert board["layout"] == "hex" and board["width"] == 12 and board["height"] == 10
        assert any(u.get("hex") for u in board["units"])
        assert body["actions"], "the side to act is offered its actions"
        # one action through the API, then the view moves on
        first = body["actions"][0]["action"]
        r = client.post(url + "/actions", json={"index": body["index"], "action": first})
        assert r.status_code == 200, r.text
        assert client.get(url + "/view").json()["index"] == body["index"] + 1
