"""End-to-end in a real Chromium: the 7 Days to the Rhine set-up phase at the browser table
(rhine.setup.order, rhine.setup.area, rhine.setup.suggested; spec 5.5, 5.6). NATO's page draws
its formation's set-up area (11 ACR: the 30 hexes of columns 08-10) as the deployment zone,
tells the player to click a hex of it (the board's kind: a hex, not a square), places a
squadron picked in the tray on a clicked hex, and "deploy for me" takes the suggested set-up
for NATO's other units; then it is the Pact's set-up. Under advise (the lobby's rule
switches) a hex outside the zone is accepted with the advice in the log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import LiveServer, need_browser
from .test_browser_rhine import Seats

# the browser, live_server and shots fixtures come from this folder's conftest: one Chromium
# for the session (a second session fixture imported into another folder's module would start
# a second sync Playwright, which refuses to run inside the first one's loop)
need_browser()


def test_rhine_set_up_in_the_browser(browser: Any, live_server: LiveServer, shots: Path) -> None:
    driver = browser.new_context().new_page()
    seats = Seats(
        driver,
        live_server,
        {
            "ruleset": "rhine",
            "scenario": "autobahn-gap",
            "seed": 2,
            "players": {"nato": "here", "pact": "remote"},
        },
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + seats.by_side["nato"]["url"])
    page.wait_for_selector("g.deploy-zone polygon.zone-cell")
    assert page.locator("polygon.zone-cell").count() == 30  # columns 08-10 of 10 rows
    # the turn line names the hex map's own spot (not "a square", as on Portable's grid)
    turn = page.locator("#turn").inner_text()
    assert "click a hex of your zone (yellow)" in turn and "square" not in turn, turn
    pieces = page.locator(".deploy-tray .piece")
    assert sorted(pieces.nth(k).get_attribute("data-piece") for k in range(pieces.count())) == [
        "N-11-SQ1",
        "N-11-SQ2",
    ]
    page.locator('.deploy-tray .piece[data-piece="N-11-SQ1"]').click()
    # hex 0903 (x = column - 1, y from the south edge); the click goes to the table, which
    # takes the nearest hex centre (a zone or road drawing over the cell may catch it)
    page.locator('g.cell[data-x="8"][data-y="7"]').first.click(force=True)
    page.wait_for_function(
        "() => /action 1\\b/.test(document.querySelector('#turn .hint').textContent)"
    )
    units = {u["id"]: u for u in seats.view("pact")["board"]["units"]}
    assert units["N-11-SQ1"]["hex"] == "0903"  # seen by the Pact too, as on a real map
    page.screenshot(path=str(shots / "rhine-setup-nato.png"))
    page.click("#deploy-for-me")
    page.wait_for_selector("#deploy-for-me", state="hidden")
    pact = seats.view("pact")
    assert pact["deploying"] and pact["deployment"]["side"] == "pact"
    units = {u["id"]: u for u in pact["board"]["units"]}
    assert units["N-3-MI2"]["hex"] == "0508"  # NATO's suggested set-up
    assert not errors, errors
    for p in (page, driver):
        p.context.close()


def test_a_hex_outside_the_zone_under_advise(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    """rhine.setup.area under ``advise`` (the lobby's rule-switches field): the page still draws
    11 ACR's area as the zone, but a click on 0704 (column 07, outside it) sets the squadron up
    there, and NATO's log reads the advice naming the rule."""
    seats = Seats(
        browser.new_context().new_page(),
        live_server,
        {
            "ruleset": "rhine",
            "scenario": "autobahn-gap",
            "seed": 2,
            "players": {"nato": "here", "pact": "remote"},
            "options": {"rule_switches": {"rhine.setup.area": "advise"}},
        },
    )
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + seats.by_side["nato"]["url"])
    page.wait_for_selector("g.deploy-zone polygon.zone-cell")
    assert page.locator("polygon.zone-cell").count() == 30
    page.locator('.deploy-tray .piece[data-piece="N-11-SQ1"]').click()
    page.locator('g.cell[data-x="6"][data-y="6"]').first.click(force=True)  # hex 0704
    page.wait_for_function(
        "() => /action 1\\b/.test(document.querySelector('#turn .hint').textContent)"
    )
    units = {u["id"]: u for u in seats.view("pact")["board"]["units"]}
    assert units["N-11-SQ1"]["hex"] == "0704"
    texts = [e["text"] for entry in seats.view("nato")["log"] for e in entry["events"]]
    assert any(t.startswith("advice:") and "rhine.setup.area" in t for t in texts), texts
    page.screenshot(path=str(shots / "rhine-setup-advise.png"))
    assert not errors, errors
    for p in (page, seats.page):
        p.context.close()
