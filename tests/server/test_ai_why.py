"""The search AI at the web table (issue 17): the lobby's opponent kinds, and the "why" of its
moves next to them on the page, shown only where it leaks nothing hidden."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

import umpire  # noqa: E402
from umpire.agents.search import SearchAgent  # noqa: E402
from umpire.agents.search import web as search_web  # noqa: E402
from umpire.core.rng import RandomStream  # noqa: E402
from umpire.core.ruleset import get_ruleset  # noqa: E402
from umpire.server.main import create_app  # noqa: E402

CROSSROADS = "portable/crossroads"  # perfect information (Portable's meta)


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, ai_delay=0.0)) as c:
        yield c


def create(client: TestClient, game: str, players: dict[str, str], seed: int = 7) -> Any:
    ruleset, scenario = game.split("/")
    return client.post(
        "/api/games",
        json={"ruleset": ruleset, "scenario": scenario, "seed": seed, "players": players},
    )


def seat_url(game: Any, sides: list[str]) -> str:
    seat = next(s for s in game["seats"] if s["sides"] == sides)
    return f"/api/games/{game['id']}/seats/{seat['token']}"


def play_until(client: TestClient, url: str, done: Any, limit: float = 60.0) -> Any:
    """Play the seat's first listed action whenever it is its turn (and wait for the AI
    otherwise) until ``done(view)`` or the game ends; the last view."""
    deadline = time.monotonic() + limit
    view = client.get(url + "/view").json()
    while not done(view) and view["outcome"] is None and time.monotonic() < deadline:
        if view["your_turn"] and view["actions"]:
            action = view["actions"][0]["action"]
            client.post(url + "/actions", json={"index": view["index"], "action": action})
        else:
            client.get(url + f"/wait?index={view['index']}&timeout=2")
        view = client.get(url + "/view").json()
    return view


def whys(view: Any) -> list[str]:
    return [g["why"] for g in view["log"] if "why" in g]


def test_the_lobby_offers_search_presets_with_a_think_time(client: TestClient) -> None:
    r = create(client, CROSSROADS, {"blue": "here", "red": "search:aggressive@0.05"})
    assert r.status_code == 200, r.text
    view = client.get(seat_url(r.json(), ["blue"]) + "/view").json()
    assert view["game"]["players"] == {"blue": "here", "red": "search:aggressive@0.05"}
    # no think time: the default (1 s), written out
    r = create(client, CROSSROADS, {"blue": "here", "red": "search:cautious"})
    view = client.get(seat_url(r.json(), ["blue"]) + "/view").json()
    assert view["game"]["players"]["red"] == "search:cautious@1"


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("search:reckless", "unknown search personality"),
        ("search:balanced@60", "at most 10"),
        ("search:balanced@-1", "more than 0"),
        ("search:balanced@soon", "not a number"),
    ],
)
def test_bad_search_kinds_are_refused_in_one_line(
    client: TestClient, kind: str, words: str
) -> None:
    r = create(client, CROSSROADS, {"blue": "here", "red": kind})
    assert r.status_code == 400 and words in r.json()["detail"]


def test_the_search_ai_plays_and_its_why_sits_next_to_its_moves(client: TestClient) -> None:
    r = create(client, CROSSROADS, {"blue": "here", "red": "search:aggressive@0.05"})
    game = r.json()
    url = seat_url(game, ["blue"])
    view = play_until(client, url, lambda v: len(whys(v)) >= 2)
    explained = [g for g in view["log"] if "why" in g]
    assert len(explained) >= 2, "the search AI made no explained move"
    sides = {g["index"]: g for g in view["log"]}
    for group in explained:
        # the why names the searching side, its preset, the alternatives and the reasons
        assert group["why"].startswith("red search (aggressive, ")
        assert "estimated win" in group["why"] and "because:" in group["why"]
        assert group["index"] in sides
    # never next to the human's own moves: only AI-moved entries carry one (the AI moved
    # them: the human seat could not have played while it thought)
    assert all("because:" in w for w in whys(view))


def test_no_why_reaches_the_opponent_in_a_game_with_hidden_information(
    client: TestClient,
) -> None:
    """Seven Days hides deployment and cards (imperfect information): the search's reasons can
    name its own hidden units, so the human opponent's page never carries them."""
    r = create(
        client,
        "sevendays/meeting-engagement",
        {"nato": "search:aggressive@0.02", "pact": "here"},
        seed=4,
    )
    assert r.status_code == 200, r.text
    game = r.json()
    url = seat_url(game, ["pact"])
    view = play_until(client, url, lambda v: v["index"] >= 12, limit=60)
    assert view["index"] >= 12
    live = client.app.state.service._cache[game["id"]]  # type: ignore[attr-defined]
    assert live.reasons, "the search made no explained move: nothing was withheld"
    assert whys(view) == []
    text = client.get(url + "/view").text
    assert "nato search (" not in text and "ai_reason" not in text


@pytest.mark.parametrize(
    ("information", "mover", "viewer", "shown"),
    [
        ("perfect", "red", "blue", True),
        ("perfect", "red", "red", True),
        ("imperfect", "red", "blue", False),
        ("imperfect", "red", "red", True),
        ("perfect", "blue", "red", False),  # blue is a human: nothing to show
        ("perfect", None, "red", False),
    ],
)
def test_who_reads_the_why(information: str, mover: str | None, viewer: str, shown: bool) -> None:
    players = {"blue": "here", "red": "search:balanced@1"}
    assert search_web.shows_why(players, information, mover, viewer) is shown
    entry = search_web.why_entry({3: "red search ..."}, players, information, mover, viewer, 3)
    assert entry == ({"why": "red search ..."} if shown else {})


def test_scripted_ai_keeps_the_game_seed_and_search_gets_its_own() -> None:
    assert search_web.agent_seed("ai", 1234) == 1234
    seeds = {search_web.agent_seed("search:balanced@1", 1234) for _ in range(3)}
    assert 1234 not in seeds and len(seeds) == 3


def test_the_why_shown_to_the_opponent_does_not_change_when_the_hidden_truth_is_resampled() -> None:
    """What the human opponent reads is built from the AI's observation only: with the truth
    the AI cannot see re-drawn (the dice to come; in Portable nothing else is hidden), the
    page's entry is word for word the same."""
    ruleset = get_ruleset("portable")
    rng = random.Random(11)
    game = umpire.new_game(CROSSROADS, seed=21)
    players = {"blue": "here", "red": "search:objective@1"}
    compared = 0
    steps = 0
    while game.to_act is not None and compared < 3 and steps < 400:
        side = str(game.to_act)
        legal = game.legal_actions()
        if side == "red" and len(legal) > 1:
            truth = game.state
            observation = ruleset.observation(truth, side)
            agent = SearchAgent(side, seed=5, character="objective", iterations=10)
            chosen = agent.choose(game.view(side), legal)
            shown = search_web.why_entry(
                {0: agent.last_reason}, players, "perfect", side, "blue", 0
            )
            assert shown and "estimated win" in shown["why"]
            for _ in range(2):
                twin = ruleset.resample(truth, side, rng)
                twin.rng = RandomStream(rng.getrandbits(62))  # the dice to come
                assert ruleset.observation(twin, side) == observation
                game.state = twin
                again = SearchAgent(side, seed=5, character="objective", iterations=10)
                assert again.choose(game.view(side), legal) == chosen
                assert (
                    search_web.why_entry(
                        {0: again.last_reason}, players, "perfect", side, "blue", 0
                    )
                    == shown
                )
                game.state = truth
            compared += 1
        game.apply(legal[0] if side == "red" else legal[-1])
        steps += 1
    assert compared == 3
