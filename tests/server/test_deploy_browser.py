"""End-to-end in a real Chromium: Seven Days' Capture with free deployment (option
``deployment: free``, sevendays.scenario.free_deployment; hidden deployment, sevendays.scenario.
hidden_deployment). The British page draws its zone, places a unit picked in the deployment
tray at a clicked point, and "deploy for me" places the rest; the Soviet page sees the zone and
only markers — where, whose, never what — in the page and in the JSON it fetched.

Screenshots land in ``$UMPIRE_SCREENSHOTS`` (default: the test's temporary directory)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from umpire.core.ruleset import get_ruleset

from .conftest import LiveServer, need_browser
from .test_browser_rhine import Seats

need_browser()


def _open(browser: Any, url: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#turn .hint")
    return page, errors


def _click_table(page: Any, x: float, y: float, height: float) -> None:
    """Click the table at (x, y) inches (the page draws y upwards from the bottom edge)."""
    at = page.evaluate(
        """([x, y]) => {
          const svg = document.getElementById('table');
          const p = svg.createSVGPoint(); p.x = x; p.y = y;
          const q = p.matrixTransform(svg.getScreenCTM());
          return [q.x, q.y];
        }""",
        [x, height - y],
    )
    page.mouse.click(at[0], at[1])


def _wait_action(page: Any, index: int) -> None:
    page.wait_for_function(
        f"() => /action {index}\\b/.test(document.querySelector('#turn .hint').textContent)"
    )


def test_capture_free_deployment_in_the_browser(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    driver = browser.new_context().new_page()
    seats = Seats(
        driver,
        live_server,
        {
            "ruleset": "sevendays",
            "scenario": "capture",
            "seed": 3,
            "players": {"nato": "here", "pact": "remote"},
            "options": {"deployment": "free"},
        },
    )
    state = get_ruleset("sevendays").new_state("capture", 3, {})
    secrets = {u.uid for u in state.units.values() if u.side == "nato"}
    secrets |= {u.name for u in state.units.values() if u.side == "nato"}

    nato, nato_errors = _open(browser, live_server.url + seats.by_side["nato"]["url"])
    nato.wait_for_selector("g.deploy-zone rect.zone-rect")
    assert "deployment" in nato.locator("#turn").inner_text()
    # the status bar says deployment, not whose initiative (none is rolled before the battle)
    status = nato.locator("#status").inner_text()
    assert "Deployment: NATO placing" in status and "Initiative" not in status
    assert nato.locator("#deploy-for-me").is_visible()
    assert nato.locator(".deploy-tray .piece").count() == 7
    # the zone covers the table up to 32" (12" short of the Soviet start line, book p32)
    zone = nato.locator("rect.zone-rect").first.bounding_box()
    table = nato.locator("#table").bounding_box()
    assert zone is not None and table is not None and zone["width"] > 0.5 * table["width"]
    nato.screenshot(path=str(shots / "deploy-capture-nato-zone.png"))

    # pick a unit in the tray, then click a point of the zone: it is placed there
    piece = nato.locator(".deploy-tray .piece").nth(2)
    uid = piece.get_attribute("data-piece")
    piece.click()
    assert "picked" in (
        nato.locator(f'.deploy-tray .piece[data-piece="{uid}"]').get_attribute("class") or ""
    )
    _click_table(nato, 20.5, 10.2, 48.0)
    _wait_action(nato, 1)
    mine = {u["id"]: u for u in seats.view("nato")["board"]["units"]}
    assert math.dist((mine[uid]["x"], mine[uid]["y"]), (20.5, 10.2)) < 0.11
    assert nato.locator(".deploy-tray .piece").count() == 6
    assert nato.locator(f'g.unit[data-unit="{uid}"]').count() == 1

    # the Soviets' page: NATO's zone, one marker, nothing about what it is
    pact, pact_errors = _open(browser, live_server.url + seats.by_side["pact"]["url"])
    pact.wait_for_selector("g.hidden-marker")
    turn = pact.locator("#turn").inner_text()
    assert "NATO" in turn and "only its markers" in turn
    assert pact.locator("rect.zone-rect").count() == 1
    assert pact.locator("g.hidden-marker").count() == 1
    assert pact.locator(".deploy-tray, g.deploy-site").count() == 0
    assert not pact.locator("#deploy-for-me").is_visible()

    # deploy for me: the six others; then the Soviets place theirs
    nato.click("#deploy-for-me")
    nato.wait_for_selector("#deploy-for-me", state="hidden")
    _wait_action(nato, 7)
    assert nato.locator(".deploy-tray").count() == 0
    pact.wait_for_function("() => document.querySelectorAll('g.hidden-marker').length === 7")
    pact.wait_for_selector(".deploy-tray .piece")
    assert pact.locator("#deploy-for-me").is_visible()
    pact.screenshot(path=str(shots / "deploy-capture-pact-sees-markers.png"))
    v = seats.view("pact")
    texts = [
        json.dumps(v),
        seats.text("pact", "/view?since=0"),
        seats.text("pact", f"/replay?at={v['index']}"),
        pact.content(),
    ]
    for secret in secrets:
        for text in texts:
            assert f'"{secret}"' not in text and f">{secret}<" not in text, secret
    markers = [m for m in v["board"]["hidden_markers"] if m["side"] == "nato"]
    assert len(markers) == 7 and all(set(m) <= {"id", "side", "x", "y", "own"} for m in markers)
    pact.click("#deploy-for-me")
    pact.wait_for_selector("#deploy-for-me", state="hidden")
    pact.wait_for_function("() => document.querySelectorAll('g.deploy-zone').length === 0")
    assert not nato_errors and not pact_errors, nato_errors + pact_errors
    for page in (nato, pact, driver):
        page.context.close()


def test_portable_free_deployment_on_the_grid(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    """portable.setup.free_deployment: Blue's first rows are drawn as its zone; a unit picked
    in the tray goes to the clicked square; "deploy for me" places the rest."""
    driver = browser.new_context().new_page()
    seats = Seats(
        driver,
        live_server,
        {
            "ruleset": "portable",
            "scenario": "village-attack",
            "seed": 2,
            "players": {"blue": "here", "red": "remote"},
            "options": {"deployment": "free"},
        },
    )
    blue, errors = _open(browser, live_server.url + seats.by_side["blue"]["url"])
    blue.wait_for_selector("g.deploy-zone rect.zone-cell")
    assert blue.locator("rect.zone-cell").count() == 20  # rows 1-2 of a 10-square board
    count = blue.locator(".deploy-tray .piece").count()
    piece = blue.locator(".deploy-tray .piece").last
    uid = piece.get_attribute("data-piece")
    piece.click()
    target = blue.locator('g.cell[data-x="4"][data-y="1"]').first  # E2
    target.click()
    _wait_action(blue, 1)
    units = {u["id"]: u for u in seats.view("red")["board"]["units"]}
    assert (units[uid]["x"], units[uid]["y"]) == (4, 1)
    assert blue.locator(".deploy-tray .piece").count() == count - 1
    blue.screenshot(path=str(shots / "deploy-portable-blue.png"))
    blue.click("#deploy-for-me")
    blue.wait_for_selector("#deploy-for-me", state="hidden")
    assert seats.view("red")["deploying"]
    assert not errors, errors
    for page in (blue, driver):
        page.context.close()
