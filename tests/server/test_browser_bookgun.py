"""End-to-end: The Book and The Gun's table in a real Chromium (Debian's, driven by Playwright;
no download). Figures drawn one by one with their facing, formations, buildings with their
rooms by floor, concealment markers, the card just drawn; a clicked figure's spotting lines; the
exact casualty distribution of a fire action in the order list (bookgun.fire.procedure); and
the army's page never holding an unspotted insurgent or what a concealment marker is
(bookgun.conceal.*) — in the page, the JSON it fetched, its replay or its waits.

Screenshots land in ``$UMPIRE_SCREENSHOTS`` (default: the test's temporary directory)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from .conftest import VIEWPORT, LiveServer, need_browser
from .test_browser_rhine import Seats

need_browser()


def _hidden_from_army(seats: Seats) -> tuple[set[str], dict[str, str]]:
    """From the insurgents' own view: the ids and names of their units the army has not
    spotted (and of those units' figures), and what each marker on the table holds."""
    board = seats.view("insurgents")["board"]
    concealed = {u["id"] for u in board["units"] if u.get("concealed")}
    names = {u["name"] for u in board["units"] if u["id"] in concealed}
    figures = {f["id"] for f in board["figures"] if f["unit"] in concealed}
    contents = {m["id"]: m["contents"] for m in board["hidden_markers"]}
    return concealed | names | figures, contents


def _army_texts(seats: Seats, page: Any) -> list[str]:
    v = seats.view("army")
    return [
        json.dumps(v),
        seats.text("army", "/view?since=0"),
        seats.text("army", f"/replay?at={v['index']}"),
        seats.text("army", "/replay?at=0"),
        seats.text("army", "/wait?index=-1&timeout=0"),
        page.content(),
    ]


def _check_no_leak(seats: Seats, page: Any) -> int:
    hidden, contents = _hidden_from_army(seats)
    army_board = seats.view("army")["board"]
    # the cache and the IED are the insurgents' secrets (bookgun.cache, bookgun.ied)
    assert "cache_room" not in army_board and "ied" not in army_board
    assert page.locator("text.cache-tag").count() == 0
    assert page.locator("text.ied-tag").count() == 0
    for m in army_board["hidden_markers"]:
        assert set(m) <= {"id", "side", "x", "y", "site", "own"}, m
    texts = _army_texts(seats, page)
    for name in hidden:
        for text in texts:
            assert f'"{name}"' not in text and f">{name}<" not in text, f"{name} leaked to the army"
    # a marker's title on the army's page says where it is, never what it holds
    for marker in army_board["hidden_markers"]:
        title = page.locator(f'g.hidden-marker[data-marker="{marker["id"]}"] title').text_content()
        assert contents[marker["id"]] not in (title or "")
        assert "dummy" not in (title or "")
    return len(hidden)


def _army_can_fire(side: str, v: dict[str, Any]) -> bool:
    return side == "army" and any(
        a["action"]["kind"] == "fire" and a.get("odds") for a in v["actions"]
    )


def test_bookgun_table_figures_markers_card_spotting_and_fire_odds(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    driver = context.new_page()
    seats = Seats(
        driver,
        live_server,
        {
            "ruleset": "bookgun",
            "scenario": "market-day",
            "seed": 3,
            "players": {"army": "here", "insurgents": "remote"},
        },
    )
    # at the start every insurgent is under a marker: none of them on the army's page
    page, errors = seats.open(context, "army")
    assert _check_no_leak(seats, page) > 0
    assert page.locator("g.hidden-marker").count() == len(
        seats.view("insurgents")["board"]["hidden_markers"]
    )
    page.screenshot(path=str(shots / "bookgun-01-army-start.png"))

    side, v = seats.drive(random.Random(0), _army_can_fire)
    page.reload()
    page.wait_for_selector("g.figure")
    board = v["board"]
    # figures one by one, with their facing; formations; buildings by floor
    assert page.locator("g.figure").count() == len(board["figures"])
    standing = [f for f in board["figures"] if f["status"] in ("fit", "wounded")]
    assert page.locator("g.figure line.facing").count() == len(standing)
    grouped = [u for u in board["units"] if len(u["figures"]) > 1]
    assert page.locator("polygon.formation").count() == len(grouped)
    rooms = [r for b in board["buildings"] for r in b["rooms"]]
    assert page.locator("polygon.room").count() == len(rooms)
    upper = [r for r in rooms if r["floor"] > 0]
    assert upper and page.locator("polygon.room.upper").count() == len(upper)
    assert page.locator("g.hidden-marker").count() == len(board["hidden_markers"])
    # the card just drawn
    card = board["drawn_card"]
    shown_card = "JOKER" if card and card.get("joker") else (card or {}).get("label")
    assert card and page.locator("#drawn-card").inner_text() == shown_card  # table.js: JOKER

    # the fire actions show their exact casualty distributions
    page.wait_for_selector("button.order.fire .dist")
    fires = [a for a in v["actions"] if a["action"]["kind"] == "fire" and a.get("odds")]
    shown = page.locator("button.order.fire .dist")
    assert shown.count() == len(fires)
    for i in range(shown.count()):
        cells = shown.nth(i).locator(".dist-cell")
        got = {
            cells.nth(k).get_attribute("data-result"): float(cells.nth(k).get_attribute("data-p"))
            for k in range(cells.count())
        }
        expected = {k: p for k, p in fires[i]["odds"]["results"].items() if p}
        assert got == pytest.approx(expected)
        assert sum(got.values()) == pytest.approx(1.0)

    # a clicked figure's spotting lines, one per enemy figure or marker
    mine = page.locator("g.figure.own").first
    figure = mine.get_attribute("data-figure")
    mine.click()
    page.wait_for_selector("line.los.spot", state="attached")
    lines = json.loads(seats.text("army", f"/sight?unit={figure}"))["lines"]
    assert lines and all(line["from_figure"] == figure for line in lines)
    assert page.locator("line.los.spot").count() == len(lines)
    assert page.locator("line.los.spot.clear").count() == sum(1 for x in lines if x["visible"])
    assert "Spotting from" in page.locator("#card").inner_text()
    page.screenshot(path=str(shots / "bookgun-02-army-spotting-and-fire-odds.png"))

    # still nothing the army has not spotted on its page, nor what a marker holds
    _check_no_leak(seats, page)
    # asking for the spotting of a concealed insurgent is refused like a unit that is not there
    hidden, _ = _hidden_from_army(seats)
    for name in sorted(hidden)[:3]:
        r = driver.request.get(live_server.url + seats.api("army") + f"/sight?unit={name}")
        assert r.status == 404
    assert not errors, errors

    # the insurgents' page knows what each marker is
    guest = browser.new_context(viewport=VIEWPORT)
    theirs, their_errors = seats.open(guest, "insurgents")
    their_board = seats.view("insurgents")["board"]
    assert theirs.locator("text.marker-contents").count() == len(their_board["hidden_markers"])
    assert their_board["cache_room"] and theirs.locator("text.cache-tag").count() == 1
    theirs.screenshot(path=str(shots / "bookgun-03-insurgents.png"))
    assert not their_errors, their_errors
    guest.close()
    context.close()
