"""Hostile input to the web server: nothing a client sends gives a 5xx or a traceback, bodies
are size-limited, a stranger's form cannot create games or act, a wrong token does not load a
game, and no name the lobby takes can become a path."""

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
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from umpire.server.guard import MAX_BODY_BYTES  # noqa: E402
from umpire.server.main import create_app, hosts_for  # noqa: E402
from umpire.server.service import Service  # noqa: E402

CREATE = {"ruleset": "sevendays", "scenario": "meeting-engagement", "seed": 3}
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    # raise_server_exceptions=False: a bug would show as the 500 a browser gets, and fail here
    with TestClient(create_app(db, ai_delay=0.0), raise_server_exceptions=False) as c:
        yield c


def games_stored(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def actions_stored(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


def hot_seat(client: TestClient) -> str:
    r = client.post("/api/games", json={**CREATE, "players": {"nato": "here", "pact": "here"}})
    assert r.status_code == 200, r.text
    game = r.json()
    return f"/api/games/{game['id']}/seats/{game['seats'][0]['token']}"


def assert_refused(r: Any, status: int, words: str = "") -> None:
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and "Traceback" not in detail
    assert words in detail, detail


# -- sizes, shapes and numbers -------------------------------------------------------------------


def test_a_body_over_64_kb_is_413_and_nothing_is_created(client: TestClient, db: Path):
    big = json.dumps({**CREATE, "pad": "x" * MAX_BODY_BYTES}).encode()
    assert_refused(client.post("/api/games", content=big, headers=JSON), 413, "64 KB")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the server stops reading at the limit
        yield b'{"ruleset": "sevendays", "pad": "'
        for _ in range(80):
            yield b"x" * 1024
        yield b'"}'

    assert_refused(client.post("/api/games", content=chunks(), headers=JSON), 413)
    assert games_stored(db) == 0


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[" * 30_000 + b"]" * 30_000, "nested"),  # beyond the recursion limit, within 64 KB
        (b'{"a":' * 40 + b"1" + b"}" * 40, "nested deeper"),  # parses, but absurd
        (
            b'{"ruleset": "sevendays", "scenario": "meeting-engagement", "seed": 1'
            + b"0" * 5000
            + b"}",
            "",
        ),
        (b'{"ruleset": "sevendays", "scenario": "meeting-engagement", "seed": NaN}', "NaN"),
        (b'{"ruleset": "sevendays", "scenario": "meeting-engagement", "seed": Infinity}', ""),
        (b"\xff\xfe\x00garbage", "malformed JSON"),
        (b"", "malformed JSON"),
    ],
    ids=["deep", "deeper-than-16", "5000-digits", "nan", "infinity", "not-utf8", "empty"],
)
def test_malformed_deep_and_huge_json_is_a_400(
    client: TestClient, db: Path, body: bytes, words: str
):
    assert_refused(client.post("/api/games", content=body, headers=JSON), 400, words)
    assert games_stored(db) == 0


@pytest.mark.parametrize("seed", [2**63, 2**64 + 5, 10**40, -1, 1.5, "7", True, [1], {"x": 1}])
def test_a_seed_beyond_64_bits_or_of_another_type_is_refused_before_the_game_is_built(
    client: TestClient, db: Path, seed: Any, monkeypatch: pytest.MonkeyPatch
):
    import umpire.server.service as service

    built: list[int] = []
    monkeypatch.setattr(service, "Game", lambda *a: built.append(1))  # would be called to build
    r = client.post("/api/games", json={**CREATE, "seed": seed})
    assert_refused(r, 400, "seed")
    assert built == [] and games_stored(db) == 0


def test_the_largest_seed_is_stored_and_the_game_rebuilt(client: TestClient, db: Path):
    r = client.post("/api/games", json={**CREATE, "seed": 2**63 - 1})
    assert r.status_code == 200 and r.json()["seed"] == 2**63 - 1
    url = f"/api/games/{r.json()['id']}/seats/{r.json()['seats'][0]['token']}"
    with TestClient(create_app(db, ai_delay=0.0)) as fresh:
        assert fresh.get(url + "/view").json()["index"] == 0


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "move", "unit": "nato-chieftain-1", "point": [1e308, 1]},
        {"kind": "move", "unit": "nato-chieftain-1", "point": [10**400, 1]},
        {"kind": "move", "unit": "nato-chieftain-1", "point": [-(10**7), 1]},
        {"kind": "move", "unit": "nato-chieftain-1", "point": ["1", 2]},
        {"kind": "move", "unit": "nato-chieftain-1", "point": [1, 2, 3]},
        {"kind": "move", "unit": "nato-chieftain-1", "point": {"x": 1}},
        {"kind": "move", "unit": "nato-chieftain-1", "point": [True, False]},
        {"kind": "activate", "unit": 12},
        {"kind": "activate", "unit": ["a"]},
        {"kind": "activate", "unit": "x" * 5000},
        {"kind": "activate", "units": ["a"] * 1000},
        {"kind": "activate", "units": "abc"},
        {"kind": "activate", "cell": 5},
        {"kind": "activate", "card": {"a": 1}},
        {"kind": "activate", "bogus": 1},
        {"kind": 7},
        {"kind": None},
        "activate",
        None,
    ],
)
def test_an_action_of_wrong_types_or_absurd_numbers_is_a_400(
    client: TestClient, db: Path, action: Any
):
    url = hot_seat(client)
    r = client.post(url + "/actions", json={"index": 0, "action": action})
    assert_refused(r, 400)
    assert actions_stored(db) == 0


@pytest.mark.parametrize(
    "body",
    [
        {"index": 10**50, "action": {"kind": "pass"}},
        {"index": -(10**50), "action": {"kind": "pass"}},
        {"index": True, "action": {"kind": "pass"}},
        {"index": 0.0, "action": {"kind": "pass"}},
    ],
)
def test_absurd_indexes_are_refused_without_an_error(client: TestClient, body: Any):
    url = hot_seat(client)
    assert client.post(url + "/actions", json=body).status_code in (400, 409)
    undo = client.post(url + "/undo", json={"index": body["index"]})
    assert undo.status_code in (400, 409)


@pytest.mark.parametrize(
    "query",
    [
        "/view?since=" + "9" * 5000,
        "/view?since=-99999999999999999999999",
        "/view?since=1e999",
        "/wait?index=0&timeout=nan",
        "/wait?index=0&timeout=-inf",
        "/wait?index=" + "9" * 5000,
        "/replay?at=99999999999999999999999",
        "/replay?at=-1",
        "/sight?unit=" + "x" * 5000,
        "/sight?unit=%00%ff",
    ],
)
def test_absurd_query_parameters_are_a_4xx_or_harmless(client: TestClient, query: str):
    url = hot_seat(client)
    r = client.get(url + query)
    assert r.status_code < 500, r.text
    assert "Traceback" not in r.text


# -- who may ask ---------------------------------------------------------------------------------


def test_a_post_must_say_it_is_json(client: TestClient, db: Path):
    body = json.dumps({**CREATE}).encode()
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        r = client.post("/api/games", content=body, headers={"Content-Type": ctype})
        assert_refused(r, 415, "application/json")
    form = client.post("/api/games", data={"ruleset": "sevendays"})  # what an HTML form sends
    assert_refused(form, 415)
    assert games_stored(db) == 0
    ok = client.post(
        "/api/games", content=body, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert ok.status_code == 200


def test_a_cross_site_page_cannot_create_a_game_or_act(client: TestClient, db: Path):
    url = hot_seat(client)
    view = client.get(url + "/view").json()
    action = next(a["action"] for a in view["actions"])
    evil = [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},  # a sandboxed frame or a file: page
        {"Origin": "http://testserver.evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # another port or subdomain: another origin
    ]
    for headers in evil:
        made = client.post("/api/games", json=CREATE, headers=headers)
        assert_refused(made, 403, "another site")
        acted = client.post(url + "/actions", json={"index": 0, "action": action}, headers=headers)
        assert_refused(acted, 403)
        assert_refused(client.post(url + "/undo", json={"index": 0}, headers=headers), 403)
    assert games_stored(db) == 1 and actions_stored(db) == 0
    # the table's own page: same origin
    mine = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    acted = client.post(url + "/actions", json={"index": 0, "action": action}, headers=mine)
    assert acted.status_code == 200, acted.text


def test_a_server_on_loopback_answers_only_to_loopback_names(db: Path):
    hosts = hosts_for("127.0.0.1")
    assert hosts is not None and {"127.0.0.1", "localhost"} <= hosts
    assert hosts_for("0.0.0.0") is None
    app = create_app(db, ai_delay=0.0, allowed_hosts=hosts)
    with TestClient(app, base_url="http://127.0.0.1:8000") as local:
        assert local.get("/api/rulesets").status_code == 200
        assert local.post("/api/games", json=CREATE).status_code == 200
    with TestClient(app, base_url="http://attacker.example") as rebound:  # DNS rebinding
        assert_refused(rebound.get("/api/rulesets"), 403, "Host")
        assert_refused(rebound.post("/api/games", json=CREATE), 403, "Host")
    assert games_stored(db) == 1


# -- tokens before games -------------------------------------------------------------------------


def test_a_wrong_token_never_loads_or_replays_a_game(
    client: TestClient, db: Path, monkeypatch: pytest.MonkeyPatch
):
    url = hot_seat(client)
    view = client.get(url + "/view").json()
    client.post(url + "/actions", json={"index": 0, "action": view["actions"][0]["action"]})
    game_id = url.split("/")[3]
    loads: list[str] = []
    real = Service._load

    def counting(self: Service, gid: str) -> Any:
        loads.append(gid)
        return real(self, gid)

    monkeypatch.setattr(Service, "_load", counting)
    with TestClient(create_app(db, ai_delay=0.0), raise_server_exceptions=False) as fresh:
        answers = [
            fresh.get(f"/api/games/{game_id}/seats/wrong-token/view"),
            fresh.get(f"/api/games/{game_id}/seats/wrong-token/replay?at=1"),
            fresh.post(
                f"/api/games/{game_id}/seats/wrong-token/actions",
                json={"index": 1, "action": {"kind": "pass"}},
            ),
            fresh.post(f"/api/games/{game_id}/seats/wrong-token/undo", json={"index": 1}),
            fresh.get("/api/games/no-such-game/seats/wrong-token/view"),
            fresh.get(f"/play/{game_id}/wrong-token"),
        ]
        assert loads == []  # nothing was rebuilt for a stranger
        assert {(r.status_code, r.text) for r in answers} == {
            (404, '{"detail":"no game with that link"}')
        }
        assert fresh.get(url + "/view").json()["index"] == 1  # the right link loads it
        assert loads == [game_id]


# -- names that could become paths ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("scenario", "../../../../etc/passwd"),
        ("scenario", "/etc/passwd"),
        ("scenario", "..\\..\\windows"),
        ("scenario", "meeting-engagement/../../x"),
        ("scenario", "~root"),
        ("scenario", ".hidden"),
        ("scenario", "a\x00b"),
        ("ruleset", "../sevendays"),
        ("ruleset", "/usr/lib/python3"),
        ("ruleset", "os:system"),
    ],
)
def test_names_that_could_become_paths_are_refused(
    client: TestClient, db: Path, field: str, value: str
):
    assert_refused(client.post("/api/games", json={**CREATE, field: value}), 400, field)
    assert games_stored(db) == 0


@pytest.mark.parametrize(
    "options",
    [
        {"nato-force": "../../../../etc/passwd"},
        {"nato-force": "/etc/passwd"},
        {"force": "/tmp/x.toml"},
        {"house_rules": "/etc/shadow"},
        {"house-rules": {"x": 1}},
        {"../cards": True},
        {"cards": "yes"},
        {"cards": [True]},
        "cards",
    ],
)
def test_the_lobby_takes_no_file_paths_or_unknown_options(
    client: TestClient, db: Path, options: Any
):
    r = client.post("/api/games", json={**CREATE, "options": options})
    assert_refused(r, 400, "options")
    assert games_stored(db) == 0


def test_the_lobby_takes_a_declared_yes_no_option(client: TestClient, db: Path):
    r = client.post("/api/games", json={**CREATE, "options": {"cards": False}})
    assert r.status_code == 200, r.text
    with sqlite3.connect(db) as con:
        (options,) = con.execute("SELECT options FROM games").fetchone()
    assert json.loads(options) == {"cards": False}


def test_unknown_fields_and_player_kinds_are_refused(client: TestClient, db: Path):
    assert_refused(client.post("/api/games", json={**CREATE, "path": "/etc"}), 400, "unknown field")
    for players in (
        {"nato": ["ai"]},
        {"nato": {"x": 1}},
        {"nato": 5},
        {"martians": "ai"},
        ["nato"],
    ):
        assert_refused(
            client.post("/api/games", json={**CREATE, "players": players}), 400, "players"
        )
    assert games_stored(db) == 0


# -- a bounded fuzz of the JSON endpoints --------------------------------------------------------

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(
        [
            "sevendays",
            "meeting-engagement",
            "here",
            "ai",
            "remote",
            "nato",
            "pact",
            "activate",
            "move",
            "fire",
            "../x",
        ]
    ),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# most bodies name a real ruleset and scenario, so the checks behind those are reached too
REAL_RULESET = st.sampled_from(["sevendays"] * 4) | st.sampled_from(["sevendays"] * 4) | JSON_VALUES
REAL_SCENARIO = st.just("meeting-engagement") | st.just("meeting-engagement") | JSON_VALUES
BOUNDARY_INTS = st.sampled_from([0, -1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**400])
CREATE_BODIES = st.fixed_dictionaries(
    {"ruleset": REAL_RULESET, "scenario": REAL_SCENARIO},
    optional={
        "seed": BOUNDARY_INTS | st.integers() | JSON_VALUES,
        "players": JSON_VALUES
        | st.dictionaries(
            st.sampled_from(["nato", "pact", "x"]),
            st.sampled_from(["here", "remote", "ai"]) | JSON_VALUES,
            max_size=3,
        ),
        "options": JSON_VALUES
        | st.dictionaries(st.sampled_from(["cards", "nato-force", "x"]), JSON_VALUES, max_size=2),
    },
)
# bodies one field away from a good one: every check in turn is what refuses them, or none
NEAR_BODIES = st.fixed_dictionaries(
    {
        "ruleset": st.just("sevendays"),
        "scenario": st.just("meeting-engagement"),
        "seed": BOUNDARY_INTS | st.integers() | JSON_VALUES,
    },
    optional={
        "players": st.dictionaries(
            st.sampled_from(["nato", "pact"]), st.sampled_from(["here", "remote", "ai"])
        ),
        "options": st.dictionaries(st.just("cards"), st.booleans() | JSON_LEAVES),
    },
)
ACTION_BODIES = st.one_of(
    JSON_VALUES,
    st.fixed_dictionaries(
        {"index": st.one_of(st.integers(-3, 3), JSON_VALUES)},
        optional={
            "action": st.one_of(
                JSON_VALUES,
                st.fixed_dictionaries(
                    {
                        "kind": st.sampled_from(["activate", "move", "fire", "pass", "react"])
                        | JSON_VALUES
                    },
                    optional={
                        "unit": st.sampled_from(["nato-chieftain-1", "pact-t64b-1"]) | JSON_VALUES,
                        "target": JSON_VALUES,
                        "point": st.lists(JSON_LEAVES, max_size=3) | JSON_VALUES,
                        "units": JSON_VALUES,
                        "option": JSON_VALUES,
                    },
                ),
            )
        },
    ),
)
RAW_BODIES = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("fuzz") / "games.sqlite3"
    with TestClient(create_app(db, ai_delay=0.0), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def fuzz_seat(fuzz_client: TestClient) -> str:
    return hot_seat(fuzz_client)


def assert_sane(r: Any) -> None:
    assert r.status_code < 500, (r.status_code, r.text[:300])
    assert "Traceback" not in r.text and 'File "' not in r.text


FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)


@FUZZ
@given(body=CREATE_BODIES | NEAR_BODIES)
def test_fuzz_creating_games_never_fails_the_server(fuzz_client: TestClient, body: Any):
    assert_sane(fuzz_client.post("/api/games", json=body))


@FUZZ
@given(body=ACTION_BODIES, raw=RAW_BODIES, endpoint=st.sampled_from(["/actions", "/undo"]))
def test_fuzz_acting_and_undoing_never_fails_the_server(
    fuzz_client: TestClient, fuzz_seat: str, body: Any, raw: bytes, endpoint: str
):
    assert_sane(fuzz_client.post(fuzz_seat + endpoint, json=body))
    assert_sane(fuzz_client.post(fuzz_seat + endpoint, content=raw, headers=JSON))
    assert_sane(fuzz_client.post("/api/games", content=raw, headers=JSON))


@FUZZ
@given(
    path=st.sampled_from(["/view?since=", "/wait?timeout=0&index=", "/replay?at=", "/sight?unit="]),
    value=st.text(max_size=30) | st.integers().map(str),
    token=st.text(min_size=1, max_size=30).filter(
        lambda t: "/" not in t and "?" not in t and "#" not in t
    ),
)
def test_fuzz_query_strings_and_links_never_fail_the_server(
    fuzz_client: TestClient, fuzz_seat: str, path: str, value: str, token: str
):
    from urllib.parse import quote

    assert_sane(fuzz_client.get(fuzz_seat + path + quote(value)))
    game_id = fuzz_seat.split("/")[3]
    assert_sane(fuzz_client.get(f"/api/games/{game_id}/seats/{quote(token, safe='')}/view"))
    assert_sane(fuzz_client.get(f"/play/{quote(token, safe='')}/{quote(token, safe='')}"))
