"""The web table's server side of issue 20 (a table people enjoy): the lobby's options with
files uploaded from the visitor's computer, the games a browser holds links to (kept on the
server), scenario previews that hold no secret, rule summaries, the card tray's names and texts,
the deployment step's "deploy for me", the end-of-game battle report, a readable page for a
wrong link, and the symbols drawn for Portable's machine guns, spotters and commanders."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

import umpire  # noqa: E402
from umpire.core.ruleset import get_ruleset, ruleset_ids  # noqa: E402
from umpire.play import summary  # noqa: E402
from umpire.server.main import create_app  # noqa: E402
from umpire.server.store import GameRow, Seat, Store  # noqa: E402

FORCES = Path(umpire.__file__).parent / "rulesets" / "sevendays" / "data" / "forces"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, ai_delay=0.0)) as c:
        yield c


def create(client: TestClient, **body: Any) -> Any:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def seat_api(game: Any, index: int = 0) -> str:
    return f"/api/games/{game['id']}/seats/{game['seats'][index]['token']}"


def stored_options(db: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as con:
        return [json.loads(o) for (o,) in con.execute("SELECT options FROM games")]


# -- the lobby: options and uploaded files ---------------------------------------------------------


def test_the_lobby_lists_each_rulesets_options_and_house_rules(client: TestClient):
    by_id = {r["id"]: r for r in client.get("/api/rulesets").json()}
    sevendays = {o["name"]: o for o in by_id["sevendays"]["options"]}
    assert sevendays["cards"]["type"] == "bool" and not sevendays["cards"]["upload"]
    assert sevendays["force"]["upload"] and sevendays["force"]["per_side"]
    assert by_id["sevendays"]["house_rules"] is True
    assert by_id["sevendays"]["briefings"]["capture"]["briefing"]


def test_an_uploaded_force_file_is_deployed_into_the_record_and_no_path_is_kept(
    client: TestClient, db_path: Path
):
    force = FORCES / "ussr-tank-company.toml"
    game = create(
        client,
        ruleset="sevendays",
        scenario="meeting-engagement",
        seed=3,
        players={"nato": "here", "pact": "here"},
        options={"force": {"pact": {"name": force.name, "text": force.read_text()}}},
    )
    (options,) = stored_options(db_path)
    pact = options["forces"]["pact"]
    assert isinstance(pact, dict) and pact["units"], options
    assert "umpire-upload" not in json.dumps(options) and force.name not in json.dumps(options)
    # the game on the table fields the uploaded force (the CLI's --pact-force gives the same)
    board = client.get(seat_api(game) + "/view").json()["board"]
    ids = {u["id"] for u in board["units"] if u["side"] == "pact"}
    assert {f"pact-{u['id']}" for u in pact["units"]} == ids


def test_uploaded_house_rules_are_read_by_the_rulesets_own_loader(
    client: TestClient, db_path: Path
):
    text = "damage_table:\n  - {max: 6, result: destroyed, markers: 0}\n"
    create(
        client,
        ruleset="sevendays",
        scenario="meeting-engagement",
        options={"house_rules": {"name": "deadly.yaml", "text": text}},
    )
    (options,) = stored_options(db_path)
    assert options["house_rules"]["damage_table"] == [
        {"max": 6, "result": "destroyed", "markers": 0}
    ]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"force": {"nato": {"name": "mine.toml", "text": "units = [["}}}, "mine.toml"),
        ({"house_rules": {"name": "mine.yaml", "text": "a: [1"}}, "mine.yaml"),
        ({"force": {"nato": {"name": "../../etc/passwd", "text": "x"}}}, "file name"),
        ({"force": {"nato": {"name": "f.rosz", "base64": "!!!"}}}, "base64"),
        ({"force": {"nato": {"name": "f.rosz", "base64": "aGVsbG8="}}}, "f.rosz"),
        ({"force": {"ussr": {"name": "f.toml", "text": ""}}}, "no side"),
        ({"force": {"nato": {"name": "f.toml"}}}, "missing"),
        ({"force": {"nato": {"name": "f.toml", "text": "", "path": "/etc"}}}, "only name"),
    ],
)
def test_a_bad_upload_is_a_one_line_400_naming_the_visitors_file(
    client: TestClient, db_path: Path, options: Any, words: str
):
    r = client.post(
        "/api/games",
        json={"ruleset": "sevendays", "scenario": "meeting-engagement", "options": options},
    )
    assert r.status_code == 400, r.text
    detail = r.json()["detail"]
    assert words in detail and "\n" not in detail and "umpire-upload" not in detail, detail
    assert stored_options(db_path) == []


# -- the games a browser holds links to ------------------------------------------------------------


def test_my_games_are_kept_on_the_server_per_browser(db_path: Path):
    app = create_app(db_path, ai_delay=0.0)
    with TestClient(app) as mine, TestClient(app) as theirs:
        assert mine.get("/api/my-games").json() == []
        game = create(
            mine,
            ruleset="portable",
            scenario="armoured-meeting",
            players={"blue": "here", "red": "remote"},
        )
        listed = mine.get("/api/my-games").json()
        assert {g["url"] for g in listed} == {s["url"] for s in game["seats"]}
        assert all(g["ruleset"] == "portable" and g["actions"] == 0 for g in listed)
        assert theirs.get("/api/my-games").json() == []  # another browser holds no link
        red = next(s for s in game["seats"] if s["sides"] == ["red"])
        page = theirs.get(red["url"])  # opening a link remembers it for that browser
        assert page.status_code == 200
        assert [g["url"] for g in theirs.get("/api/my-games").json()] == [red["url"]]
        # a forged cookie is just another browser: it holds nothing
        theirs.cookies.set("umpire_visitor", "x" * 30)
        assert theirs.get("/api/my-games").json() == []


# -- previews, rules, cards ------------------------------------------------------------------------

SECRET_KEYS = {"units", "figures", "hidden_markers", "cards", "hand", "cache_room", "ied"}


@pytest.mark.parametrize(
    "game",
    [
        f"{r}/{s}"
        for r in ruleset_ids()
        if r in ("sevendays", "portable", "rhine", "bookgun")
        for s in get_ruleset(r).scenario_ids()
    ],
)
def test_a_scenario_preview_draws_the_map_and_nothing_a_side_keeps(client: TestClient, game: str):
    ruleset, scenario = game.split("/")
    r = client.get(f"/api/rulesets/{ruleset}/scenarios/{scenario}/preview")
    assert r.status_code == 200, r.text
    board = r.json()
    assert board["layout"] in ("continuous", "square", "hex")
    assert board.get("terrain") or board.get("cells") or board.get("buildings")
    assert board["units"] == [] and not (set(board) & (SECRET_KEYS - {"units"}))
    for cell in board.get("cells", []):
        assert "control" not in cell and "holder" not in cell
    assert board["scenario"]["briefing"] == get_ruleset(ruleset).scenario_info(scenario).briefing


@pytest.mark.parametrize(
    "path",
    [
        "/api/rulesets/nope/scenarios/x/preview",
        "/api/rulesets/sevendays/scenarios/nope/preview",
        "/api/rulesets/..%2Fetc/scenarios/x/preview",
        "/api/rulesets/nope/rules",
    ],
)
def test_unknown_previews_and_rules_are_404s(client: TestClient, path: str):
    r = client.get(path)
    assert r.status_code in (400, 404), r.text
    assert "detail" in r.json()


def test_rule_summaries_come_from_the_rulesets_catalogue(client: TestClient):
    rules = client.get("/api/rulesets/sevendays/rules").json()
    catalog = get_ruleset("sevendays").capabilities.catalog()
    entry = catalog["sevendays.fire.modifier.cover"]
    assert rules["sevendays.fire.modifier.cover"].startswith(entry.summary)
    assert entry.provenance in rules["sevendays.fire.modifier.cover"]
    assert set(rules) == set(catalog)


def test_cards_in_hand_are_named_and_described_from_the_card_catalogue(client: TestClient):
    """seed p30: each Tactical Advantage card has a name and an effect; the page reads both
    from the catalogue entry ``sevendays.cards.<id>`` (data/cards.yaml)."""
    game = create(client, ruleset="sevendays", scenario="capture", seed=3, players={"nato": "here"})
    view = client.get(seat_api(game) + "/view").json()
    hand = view["board"]["cards"]["hand"]
    catalog = get_ruleset("sevendays").capabilities.catalog()
    assert hand and set(hand) <= set(view["card_info"])
    for card in hand:
        name, _, text = catalog[f"sevendays.cards.{card}"].summary.partition(": ")
        assert view["card_info"][card] == {
            "name": name,
            "text": text,
            "rule": f"sevendays.cards.{card}",
        }
    # the enemy's hand is a number, never names
    assert isinstance(view["board"]["cards"]["enemy_hand"], int)


# -- deployment ------------------------------------------------------------------------------------


def test_deploy_for_me_places_every_piece_and_stops_at_the_next_kind_of_decision(
    client: TestClient,
):
    """bookgun.setup.deploy: the insurgents put each cell under a concealment marker at a
    site; "deploy for me" lets the scripted player do the placing, nothing more."""
    game = create(
        client,
        ruleset="bookgun",
        scenario="convoy-ambush",
        seed=1,
        players={"insurgents": "here", "army": "remote"},
    )
    insurgents = next(s for s in game["seats"] if s["sides"] == ["insurgents"])
    army = next(s for s in game["seats"] if s["sides"] == ["army"])
    mine = f"/api/games/{game['id']}/seats/{insurgents['token']}"
    theirs = f"/api/games/{game['id']}/seats/{army['token']}"
    view = client.get(mine + "/view").json()
    assert view["deploying"] and view["board"]["deploy_sites"]
    sites = {s["id"] for s in view["board"]["deploy_sites"]}
    assert {a["action"]["option"] for a in view["actions"]} <= sites
    assert "deploy_sites" not in client.get(theirs + "/view").json()["board"]
    assert client.post(theirs + "/deploy", json={"index": 0}).status_code == 403
    assert client.post(mine + "/deploy", json={"index": 5}).status_code == 409  # stale
    r = client.post(mine + "/deploy", json={"index": 0})
    assert r.status_code == 200, r.text
    placed = r.json()["placed"]
    after = client.get(mine + "/view").json()
    assert placed >= 1 and after["index"] == placed and not after["deploying"]
    assert all(a["action"]["kind"] != "deploy" for a in after["actions"])
    markers = after["board"]["hidden_markers"]
    assert len(markers) == placed and all("contents" in m for m in markers)
    # the army sees markers at sites, never what they hold
    for m in client.get(theirs + "/view").json()["board"]["hidden_markers"]:
        assert "contents" not in m
    assert client.post(mine + "/deploy", json={"index": placed}).status_code == 409


# -- the end of the game ---------------------------------------------------------------------------


def stored_finished_game(db: Path, scenario: str = "armoured-meeting", seed: int = 3) -> str:
    """A finished Portable hot-seat game written straight into the store; its table link."""
    game = umpire.new_game(f"portable/{scenario}", seed=seed)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    store = Store(db)
    row = GameRow(
        "finished",
        "portable",
        game.ruleset.meta.version,
        scenario,
        seed,
        {},
        {"blue": "here", "red": "here"},
        0.0,
        0.0,
    )
    store.create_game(row, [Seat("finished-token-0123456789", "finished", ("blue", "red"))])
    for index, action in enumerate(game.record.actions):
        store.append("finished", index, action.to_dict(), None)
    store.close()
    return "/api/games/finished/seats/finished-token-0123456789"


def test_a_finished_game_carries_the_terminals_battle_report(client: TestClient, db_path: Path):
    url = stored_finished_game(db_path)
    view = client.get(url + "/view").json()
    assert view["outcome"] is not None
    report = view["report"]
    game = umpire.new_game("portable/armoured-meeting", seed=3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    expected = json.loads(json.dumps(summary(game), default=str))
    expected.pop("seed")
    assert report == expected
    assert set(report["losses"]) == {"blue", "red"} and report["turns"] >= 1
    assert view["outcome"] == {"winner": report["winner"], "how": report["how"]}


# -- a wrong link ----------------------------------------------------------------------------------


def test_a_wrong_link_opened_in_a_browser_is_a_readable_page(client: TestClient):
    html = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    for path in ("/play/nope/nope", "/play/nope", "/play/a/b/c"):
        r = client.get(path, headers=html)
        assert r.status_code == 404
        assert r.headers["content-type"].startswith("text/html")
        assert "No game at this link" in r.text and not r.text.lstrip().startswith("{")
        assert '<a href="/">' in r.text
    # a script asking for JSON still gets the API's one-line answer
    r = client.get("/play/nope/nope")
    assert r.status_code == 404 and r.json() == {"detail": "no game with that link"}


# -- symbols ---------------------------------------------------------------------------------------


def test_portable_symbols_follow_mil_std_2525c():
    """MIL-STD-2525C letter SIDCs (positions 5-10 the function id, 11 the symbol modifier):
    a machine gun is the weapon symbol EWRH (heavy machine gun), an artillery spotter is field
    artillery target acquisition by optical means (UCFTF; UCFO would be a weather unit), and a
    commander is a headquarters (UH) with the headquarters staff (modifier A)."""
    from umpire.rulesets.portable.board import _FUNCTIONS, _sidc

    assert _FUNCTIONS["machine_guns"] == "EWRH"
    assert _FUNCTIONS["spotters"] == "UCFTF"
    hq = _sidc("F", _FUNCTIONS["commanders"], hq=True)
    assert hq == "SFGPUH----A----" and len(hq) == 15
    assert _sidc("H", "UCI") == "SHGPUCI--------"


# -- what a stranger sends to the new endpoints ---------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [None, [], "x", {"index": "0"}, {"index": True}, {"index": 10**30}, {"index": -1}, {}],
)
def test_deploy_for_me_refuses_nonsense_with_a_4xx(client: TestClient, body: Any):
    game = create(
        client,
        ruleset="bookgun",
        scenario="convoy-ambush",
        seed=1,
        players={"insurgents": "here", "army": "here"},
    )
    r = client.post(seat_api(game) + "/deploy", json=body)
    assert 400 <= r.status_code < 500, r.text
    assert "detail" in r.json()
    assert client.get(seat_api(game) + "/view").json()["index"] == 0
    wrong = f"/api/games/{game['id']}/seats/wrong/deploy"
    assert client.post(wrong, json={"index": 0}).status_code == 404


@pytest.mark.parametrize("cookie", ["", "x", "a" * 500, "../../etc", "%C3%A9" * 10, "a b c" * 10])
def test_a_strange_visitor_cookie_is_a_browser_with_no_games(client: TestClient, cookie: str):
    client.cookies.set("umpire_visitor", cookie)
    r = client.get("/api/my-games")
    assert r.status_code == 200 and r.json() == []
