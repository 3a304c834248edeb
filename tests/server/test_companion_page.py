"""The companion page (issue 21, "a companion page in the browser table"): a game at a physical
table driven from the browser. The server keeps the game (a reload, or a new server over the
same folder, finds it where it was), asks for the dice and says what they need, refuses an
impossible roll in one line without losing anything, and never sends the AI's hidden units.

What is checked comes from issue 21's wording: "checks that the faces entered are possible",
"records the entered outcomes so the game replays identically", "Hidden units of the AI's side
are kept by Umpire", "Undo is given as the list of changes to reverse on the physical table"."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from umpire.companion.measure import Measure  # noqa: E402
from umpire.core.game import new_game, replay  # noqa: E402
from umpire.core.record import Record  # noqa: E402
from umpire.core.switches import Mode, switches_in  # noqa: E402
from umpire.geometry import squaregrid  # noqa: E402
from umpire.server.guard import ApiError  # noqa: E402
from umpire.server.main import create_app  # noqa: E402

from .conftest import SIZES, LiveServer  # noqa: E402

PORTABLE = {
    "ruleset": "portable",
    "scenario": "armoured-meeting",
    "sides": {"blue": "me", "red": "scripted"},
    "seed": 1,
}
FACES = itertools.cycle([3, 5, 2, 6, 1, 4, 5, 3])  # no tie repeats for ever (initiative re-rolls)


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, ai_delay=0.0)) as c:
        yield c


def enter(client: TestClient, game: str, line: str) -> Any:
    return client.post(f"/api/companion/{game}/enter", json={"line": line})


def next_line(state: dict[str, Any], faces: Iterator[int]) -> str:
    """What a player at the table types next: the dice rolled, or the first menu line."""
    ask = state["ask"]
    if ask["kind"] == "dice":
        return " ".join(str(min(next(faces), ask["sides"])) for _ in range(ask["count"]))
    assert ask["kind"] == "decide", ask
    return "1"


def record_of(db_path: Path, game: str) -> dict[str, Any]:
    return dict(json.loads((db_path.parent / "companion" / f"{game}.json").read_text()))


# -- the API ------------------------------------------------------------------------------------
def test_a_companion_game_asks_for_dice_and_replays_identically_from_its_record(
    client: TestClient, db_path: Path
) -> None:
    made = client.post("/api/companion", json=PORTABLE)
    assert made.status_code == 200, made.text
    state = made.json()
    game = state["id"]
    assert state["ask"]["kind"] == "dice" and state["ask"]["text"].startswith("roll 1d6 for ")
    assert state["table"].startswith("board: 12 x 9 squares")
    faces = iter(FACES)
    typed: list[list[int]] = []
    decisions = 0
    for _ in range(24):
        line = next_line(state, faces)
        if state["ask"]["kind"] == "dice":
            typed.append([int(f) for f in line.split()])
        else:
            decisions += 1
        answer = enter(client, game, line)
        assert answer.status_code == 200, answer.text
        state = answer.json()
        assert f"> {line}" in state["log"]
    assert decisions >= 1 and state["actions"] > 10
    # the record holds every face typed, in order (the action being rolled for keeps its own)
    raw = record_of(db_path, game)
    stored = [e["faces"] for entries in raw["entered"] for e in entries if "faces" in e]
    pending = (raw["companion"]["pending"] or {}).get("entered") or []
    stored += [e["faces"] for e in pending if "faces" in e]
    assert stored == typed
    # and replays to the table the page shows: every unit where the page says it is
    replayed = replay(Record.from_dict(raw, "companion.json"))
    assert len(replayed.record.actions) == state["actions"]
    measure = Measure(replayed, "blue")
    where = {
        str(u["uid"]): measure.spot_words((float(u["x"]), float(u["y"])))
        for u in measure.units("blue")
    }
    assert where == {u["uid"]: u["where"] for u in state["units"]}


def test_an_impossible_roll_is_one_line_and_loses_nothing(client: TestClient) -> None:
    state = client.post("/api/companion", json=PORTABLE).json()
    game = state["id"]
    first = enter(client, game, "4").json()  # the artillery's landing die (1d6)
    assert first["ask"]["kind"] == "dice"
    count, sides = first["ask"]["count"], first["ask"]["sides"]
    for bad, why in (
        (" ".join(["7"] * count), f"7 is not a face of a d{sides} (1-{sides})"),
        (" ".join(["2"] * (count + 1)), f"{count + 1} face(s) entered for {count}d{sides}"),
        ("six", "'six' is not a die face"),
    ):
        refused = enter(client, game, bad)
        assert refused.status_code == 422, refused.text
        detail = refused.json()["detail"]
        assert why in detail and "\n" not in detail
        again = client.get(f"/api/companion/{game}").json()
        assert again["log"] == first["log"] and again["ask"] == first["ask"]
        assert again["actions"] == first["actions"]
    good = enter(client, game, " ".join(["3"] * count))
    assert good.status_code == 200 and good.json()["log"][len(first["log"])] == "> " + " ".join(
        ["3"] * count
    )


def test_strangers_get_a_clean_4xx(client: TestClient) -> None:
    game = client.post("/api/companion", json=PORTABLE).json()["id"]
    bad_json = client.post(
        f"/api/companion/{game}/enter",
        content=b'{"line": ',
        headers={"content-type": "application/json"},
    )
    assert bad_json.status_code == 400
    assert client.get("/api/companion/" + "x" * 20).status_code == 404
    assert client.get("/api/companion/../../etc").status_code == 404
    assert enter(client, "A" * 16, "1").status_code == 404
    for body, status in (
        ({"line": 5}, 400),
        ({"line": "1" * 500}, 400),
        ({"line": "1", "extra": 1}, 400),
        ([1, 2], 400),
    ):
        answer = client.post(f"/api/companion/{game}/enter", json=body)
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["detail"]
    for body in (
        {**PORTABLE, "ruleset": "chess"},
        {**PORTABLE, "scenario": "nowhere"},
        {**PORTABLE, "sides": {"blue": "me", "red": "genius"}},
        {**PORTABLE, "sides": {"blue": "scripted", "red": "scripted"}},
        {**PORTABLE, "sides": {"blue": "me", "red": "me", "green": "me"}},
        {**PORTABLE, "ai_dice": "loaded"},
        {**PORTABLE, "colour": "red"},
        {**PORTABLE, "seed": "x"},
    ):
        answer = client.post("/api/companion", json=body)
        assert answer.status_code == 400, (body, answer.text)
        assert "\n" not in answer.json()["detail"]
    # an unknown command at a decision is a one-line refusal too (a 4xx, not a 500)
    state = client.get(f"/api/companion/{game}").json()
    while state["ask"]["kind"] != "decide":
        state = enter(client, game, next_line(state, iter(FACES))).json()
    refused = enter(client, game, "move B-nobody C4")
    assert refused.status_code == 422 and "B-nobody" in refused.json()["detail"]
    refused = enter(client, game, "99")
    assert refused.status_code == 422 and "no menu line 99" in refused.json()["detail"]


def test_a_new_server_over_the_same_folder_finds_the_game(db_path: Path) -> None:
    with TestClient(create_app(db_path, ai_delay=0.0)) as first:
        state = first.post("/api/companion", json=PORTABLE).json()
        state = enter(first, state["id"], "4").json()
    (db_path.parent / "companion" / f"{state['id']}.page.json").unlink()  # rebuilt from the record
    with TestClient(create_app(db_path, ai_delay=0.0)) as second:
        again = second.get(f"/api/companion/{state['id']}").json()
        assert again["ask"] == state["ask"] and again["actions"] == state["actions"]
        # the dice asked for when the first server stopped are still the ones asked for
        line = " ".join(["3"] * again["ask"]["count"])
        assert enter(second, state["id"], line).status_code == 200


def test_the_ai_hidden_units_are_never_sent(client: TestClient, db_path: Path) -> None:
    """Seven Days Capture: NATO deploys hidden (the scenario's hidden set-up); the page of the
    Pact player never carries a NATO unit id until the rules reveal it."""
    start = new_game("sevendays/capture", 1)
    hidden = [u.uid for u in start.state.units.values() if str(u.side) == "nato" and u.hidden]
    assert hidden
    body = {"ruleset": "sevendays", "scenario": "capture", "seed": 1}
    made = client.post("/api/companion", json={**body, "sides": {"pact": "me", "nato": "scripted"}})
    assert made.status_code == 200, made.text
    answers = [made.text]
    state = made.json()
    faces = iter(FACES)
    for _ in range(6):
        answer = enter(client, state["id"], next_line(state, faces))
        assert answer.status_code == 200, answer.text
        answers.append(answer.text)
        answers.append(client.get(f"/api/companion/{state['id']}").text)
        state = answer.json()
    record = record_of(db_path, state["id"])
    still_hidden = [uid for uid in hidden if uid not in {u["uid"] for u in state["units"]}]
    assert still_hidden, "the AI's units were all revealed: the check would prove nothing"
    for uid in still_hidden:
        short = uid.split("-", 1)[1]
        assert all(uid not in text and f'"{short}' not in text for text in answers), uid
    # the server's game holds them, on the table and still hidden (so they could have leaked)
    replayed = replay(Record.from_dict(record, "companion.json"))
    assert all(replayed.state.units[uid].hidden for uid in still_hidden)


def test_undo_lists_the_changes_to_reverse_and_los_measures(client: TestClient) -> None:
    state = client.post("/api/companion", json=PORTABLE).json()
    game = state["id"]
    faces = iter(FACES)
    decisions = 0
    while decisions < 2:
        if state["ask"]["kind"] == "decide":
            decisions += 1
        state = enter(client, game, next_line(state, faces)).json()
    while state["ask"]["kind"] != "decide":
        state = enter(client, game, next_line(state, faces)).json()
    before = state["actions"]
    measured = enter(client, game, "range A1 C4").json()
    assert re.search(
        r"A1 to C4: range \d+ square\(s\), line of sight (clear|blocked)", measured["said"][0]
    )
    assert measured["actions"] == before
    undone = enter(client, game, "undo").json()
    assert undone["said"][0].startswith("undone ") and undone["said"][0].endswith("on the table:")
    assert len(undone["said"]) >= 2 and undone["actions"] < before


# -- in the browser -----------------------------------------------------------------------------
def boxes_inside(page: Any, width: int, selectors: tuple[str, ...]) -> None:
    scroll = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways: {scroll} > {width}"
    for selector in selectors:
        found = page.locator(selector).first.bounding_box()
        assert found is not None, f"{selector} is not drawn"
        assert found["x"] >= 0 and found["x"] + found["width"] <= width + 0.5, selector


OVERLAPS = """(sel) => {
  const r = [...document.querySelectorAll(sel)].filter((n) => n.offsetParent !== null)
    .map((n) => n.getBoundingClientRect()).filter((b) => b.width && b.height);
  const out = [];
  for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
    const a = r[i], b = r[j];
    const x = a.left < b.right - 0.5 && b.left < a.right - 0.5;
    if (x && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) out.push([i, j]);
  }
  return out;
}"""


def send(page: Any, line: str) -> None:
    with page.expect_response(re.compile(r"/api/companion/[^/]+/enter$")):
        page.fill("#enter", line)
        page.click("#enter-go")
    page.wait_for_function("() => !document.body.classList.contains('busy')")


def page_state(page: Any) -> dict[str, Any]:
    game = page.url.rsplit("/", 1)[1]
    return dict(page.evaluate(f"async () => (await fetch('/api/companion/{game}')).json()"))


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_short_companion_game_through_the_page(
    browser: Any, live_server: LiveServer, shots: Path, size: str
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/")
    page.click("#physical-table")  # the lobby's choice: play at a physical table
    page.wait_for_url(re.compile(r"/companion$"))
    page.wait_for_selector("#c-sides select", state="attached")
    page.select_option("#c-ruleset", "portable")
    page.select_option("#c-scenario", "armoured-meeting")
    page.select_option("#c-side-blue", "me")
    page.select_option("#c-side-red", "scripted")
    page.fill("#c-seed", "1")
    page.click("#c-start")
    page.wait_for_url(re.compile(r"/companion/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#ask:not(:empty)")
    assert page.locator("#ask-title").inner_text().lower() == "roll 1d6"
    # what to roll, for which rule (and the score needed where the rule has one)
    assert re.match(r"roll 1d6 for portable\.[a-z_.]+", page.locator("#ask").inner_text())
    boxes_inside(page, width, ("#now", "#measure-panel", ".log-panel", "#enter", "#enter-go"))
    assert page.evaluate(OVERLAPS, "#now > *") == []
    assert page.evaluate(OVERLAPS, "#enter-form > *") == []
    page.screenshot(path=str(shots / f"companion-{size}-start.png"), full_page=True)
    # an impossible roll: refused in one line, nothing typed before is lost
    send(page, "3")
    state = page_state(page)
    count, sides = state["ask"]["count"], state["ask"]["sides"]
    log_before = page.locator("#log li").count()
    send(page, " ".join([str(sides + 1)] * count))
    refusal = page.locator("#refusal")
    assert refusal.is_visible()
    assert refusal.inner_text() == f"refused: {sides + 1} is not a face of a d{sides} (1-{sides})"
    assert page.locator("#log li").count() == log_before
    assert page_state(page)["actions"] == state["actions"]
    boxes_inside(page, width, ("#refusal",))
    # play on with dice and decisions, clicking a proposed position on the menu
    faces = iter(FACES)
    clicked = 0
    for _ in range(30):
        state = page_state(page)
        if state["ask"]["kind"] == "decide":
            boxes_inside(page, width, ("#menu-panel", "#menu .order", "#c-undo"))
            assert page.evaluate(OVERLAPS, "#menu .order") == []
            with page.expect_response(re.compile(r"/enter$")):
                page.locator("#menu .order").first.click()
            page.wait_for_function("() => !document.body.classList.contains('busy')")
            clicked += 1
            if clicked == 2:
                break
        else:
            send(page, next_line(state, faces))
    assert clicked == 2
    assert page.locator("#log li.typed", has_text="> 1").count() >= 2
    # a position measured on the table, typed in the position form (a square on this board)
    state = page_state(page)
    while state["ask"]["kind"] != "decide" or "move" not in state["kinds"]:
        if state["ask"]["kind"] == "decide":
            send(page, "1")
        else:
            send(page, next_line(state, faces))
        state = page_state(page)
    moves = [m for m in state["menu"] if m["kind"] == "move"]
    unit = moves[0]["unit"]
    square = re.search(r"moves to ([A-L]\d+)", moves[-1]["text"])
    assert square, moves[-1]
    page.select_option("#pos-kind", "move")
    page.select_option("#pos-unit", unit)
    page.fill("#pos-where", square.group(1))
    with page.expect_response(re.compile(r"/enter$")):
        page.click("#position-form button")
    page.wait_for_function("() => !document.body.classList.contains('busy')")
    assert page.locator("#log li.typed", has_text=f"> move {unit} {square.group(1)}").count() == 1
    moved = [u for u in page_state(page)["units"] if u["uid"] == unit]
    assert moved and moved[0]["where"] == square.group(1)
    # measuring between two entered positions
    page.fill("#m-a", "A1")
    page.fill("#m-b", "C4")
    with page.expect_response(re.compile(r"/enter$")):
        page.click("#measure-form button")
    page.wait_for_function("() => !document.body.classList.contains('busy')")
    # the digital table's own geometry (issue 21: "with the same geometry the digital table uses")
    squares = squaregrid.distance(squaregrid.parse_label("A1"), squaregrid.parse_label("C4"))
    said = page.locator("#said").inner_text()
    assert re.search(rf"A1 to C4: range {squares} square\(s\), line of sight (clear|blocked)", said)
    # a reload keeps the game: the same question, the same log
    ask = page.locator("#ask").inner_text()
    log = page.locator("#log").inner_text()
    page.reload()
    page.wait_for_selector("#ask:not(:empty)")
    assert page.locator("#ask").inner_text() == ask
    assert page.locator("#log").inner_text() == log
    boxes_inside(page, width, ("#now", "#measure-panel", ".log-panel"))
    page.screenshot(path=str(shots / f"companion-{size}-reloaded.png"), full_page=True)
    # undo: the list of changes to put back on the table (the measured move included)
    assert page.locator("#c-undo").is_visible()
    with page.expect_response(re.compile(r"/enter$")):
        page.click("#c-undo")
    page.wait_for_function("() => !document.body.classList.contains('busy')")
    said = page.locator("#said").inner_text()
    assert re.match(r"undone \d+ action\(s\); on the table:", said), said
    assert f"move {moved[0]['name']} back from {square.group(1)} to " in said, said
    assert not errors, errors
    context.close()


def test_a_companion_game_takes_the_rule_switches_picked(client: TestClient, db_path: Path) -> None:
    """Issue 21: "Companion mode defaults to advise (the players are the final judges)": every
    switchable rule advise (the core's RuleSwitches.default_for, as `umpire companion` uses it),
    the rules picked on the page over it; stored in the record's options."""
    plain = client.post("/api/companion", json=PORTABLE).json()
    assert plain["switches"] == {"*": "advise"}
    picked = {"portable.fire.arc": "off", "portable.activation.once": "enforce"}
    body = {**PORTABLE, "options": {"rule_switches": picked}}
    made = client.post("/api/companion", json=body)
    assert made.status_code == 200, made.text
    assert made.json()["switches"] == {"*": "advise", **picked}
    kept = record_of(db_path, made.json()["id"])["options"]["rule_switches"]
    assert kept == {"*": "advise", **picked}
    modes = switches_in({"rule_switches": kept})
    assert modes.mode("portable.fire.arc") is Mode.OFF
    assert modes.mode("portable.activation.once") is Mode.ENFORCE
    assert modes.mode("portable.move.stacking") is Mode.ADVISE
    bad = {**PORTABLE, "options": {"rule_switches": {"portable.turn.sequence": "off"}}}
    refused = client.post("/api/companion", json=bad)
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("options.rule_switches")


def test_a_finished_game_shows_its_result_and_takes_no_more_entries(tmp_path: Path) -> None:
    """Two AI sides with Umpire's dice play a whole game without a prompt: the page then shows
    the result, and an entry is a one-line 409 (not a 500)."""
    from umpire.companion.session import Companion
    from umpire.server.companion import CompanionGames

    games = CompanionGames(tmp_path)
    game_id = "F" * 16
    said: list[str] = []

    def read(prompt: str) -> str:
        raise AssertionError(f"an all-AI game asked for {prompt!r}")

    session = Companion.start(
        "portable/armoured-meeting",
        3,
        {"blue": "scripted", "red": "scripted"},
        tmp_path / f"{game_id}.json",
        read,
        said.append,
        ai_dice="umpire",
    )
    result = session.run()
    state = games.state(game_id)
    assert state["over"] and state["ask"]["kind"] == "over"
    assert state["ask"]["text"] == f"Game over: {result['winner']} ({result['how']})"
    with pytest.raises(ApiError) as refused:
        games.enter(game_id, {"line": "1"})
    assert refused.value.status == 409
    assert str(refused.value) == "the game is over: nothing more to enter"


def test_cards_drawn_from_a_physical_deck_through_the_page_api(
    client: TestClient, db_path: Path
) -> None:
    """Book and Gun: "Cards drawn from a physical deck are entered the same way" (issue 21): a
    card the deck cannot give now is refused in one line; the card typed is recorded."""
    body = {
        "ruleset": "bookgun",
        "scenario": "convoy-ambush",
        "sides": {"insurgents": "me", "army": "scripted"},
        "seed": 1,
    }
    made = client.post("/api/companion", json=body)
    assert made.status_code == 200, made.text
    state = made.json()
    faces = iter(FACES)
    for _ in range(40):
        if state["ask"]["kind"] == "card":
            break
        state = enter(client, state["id"], next_line(state, faces)).json()
    ask = state["ask"]
    assert ask["kind"] == "card" and ask["text"].startswith("draw one card")
    offered = re.search(r"\(([^()]*)\)\s*$", ask["text"])
    assert offered
    cards = offered.group(1).split(", ")
    refused = enter(client, state["id"], "Z-hearts")
    assert refused.status_code == 422
    assert refused.json()["detail"] == "'z-hearts' is not a card that can be drawn now"
    taken = enter(client, state["id"], cards[0])
    assert taken.status_code == 200, taken.text
    raw = record_of(db_path, state["id"])
    entries = [e for action in raw["entered"] for e in action]
    entries += (raw["companion"]["pending"] or {}).get("entered") or []
    assert cards[0] in [e.get("item") for e in entries]
