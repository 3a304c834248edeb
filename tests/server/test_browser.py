"""End-to-end: the web table in a real Chromium (Debian's, driven by Playwright; no download).

Screenshots land in ``$UMPIRE_SCREENSHOTS`` (default: the test's temporary directory)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from umpire.core.game import new_game
from umpire.core.ruleset import get_ruleset

from .conftest import VIEWPORT, LiveServer, need_browser

playwright = need_browser()


def page_with_errors(context: Any) -> tuple[Any, list[str]]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def start_from_lobby(page: Any, server: LiveServer, scenario: str, sides: dict[str, str]) -> None:
    page.goto(server.url + "/")
    page.select_option("#ruleset", "sevendays")
    page.select_option("#scenario", scenario)
    for side, kind in sides.items():
        page.select_option(f"#side-{side}", kind)
    page.fill("#seed", "3")
    page.click("#start")


def action_count(page: Any) -> int:
    text = page.locator("#turn .hint").inner_text()
    match = re.search(r"action (\d+)", text)
    assert match, text
    return int(match.group(1))


def click_order(page: Any, selector: str) -> None:
    before = action_count(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        f"() => /action {before + 1}\\b|action {before + 2}\\b/.test("
        "document.querySelector('#turn .hint').textContent)"
    )


def decline_reactions(page: Any) -> None:
    while page.locator("button.order.no_react").count():
        click_order(page, "button.order.no_react")


def test_hot_seat_move_fire_log_reload(browser: Any, live_server: LiveServer, shots: Path):
    context = browser.new_context(viewport=VIEWPORT)
    page, errors = page_with_errors(context)
    start_from_lobby(page, live_server, "meeting-engagement", {"nato": "here", "pact": "here"})
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("g.unit")
    # every unit of the scenario is on the table (both sides share the screen)
    units = new_game("sevendays/meeting-engagement", 1).state.units
    assert len(units) > 20 and page.locator("g.unit").count() == len(units)
    assert page.locator("g.area.woods").count() >= 1 and page.locator("g.objective").count() == 3
    page.screenshot(path=str(shots / "01-table-start.png"))
    click_order(page, "button.order.activate")
    page.wait_for_selector("circle.dest")
    page.screenshot(path=str(shots / "02-activated-unit-reach-and-odds.png"))
    page.wait_for_selector("button.order.fire")
    odds = page.locator("button.order.fire .odds").first.inner_text()
    assert re.search(r"hit \d+(\.\d)?% · kill \d+(\.\d)?%", odds), odds
    click_order(page, "button.order.fire")
    decline_reactions(page)
    log = page.locator("#log").inner_text()
    assert "sevendays.fire" in log or "sevendays.hit" in log, log[-800:]
    # move by clicking a destination on the table (the same unit, or the next one activated)
    if not page.locator("circle.dest.move").count():
        if page.locator("button.order.end").count():  # the shot took the unit's last action
            click_order(page, "button.order.end")
            decline_reactions(page)
        click_order(page, "button.order.activate")
    before = action_count(page)
    click_order(page, "circle.dest.move")
    assert action_count(page) > before
    assert "move" in page.locator("#log").inner_text().lower()
    rolls = page.locator("#log .ev.roll").count()
    index = action_count(page)
    page.screenshot(path=str(shots / "03-after-fire-log.png"))
    page.reload()
    page.wait_for_selector("g.unit")
    assert action_count(page) == index
    assert page.locator("#log .ev.roll").count() == rolls
    # the replay slider shows the table as it was
    page.locator("#slider").fill("0")
    page.wait_for_selector("#replay-banner:not([hidden])")
    page.screenshot(path=str(shots / "04-replay-start.png"))
    page.click("#live")
    assert not errors, errors
    context.close()


def _two_browsers(browser: Any, server: LiveServer, scenario: str) -> tuple[Any, Any, str, str]:
    host = browser.new_context(viewport=VIEWPORT)
    page, _ = page_with_errors(host)
    start_from_lobby(page, server, scenario, {"nato": "here", "pact": "remote"})
    page.wait_for_selector("#created:not([hidden])")
    nato = page.locator('a.seat-link[data-sides="nato"]').get_attribute("href")
    pact = page.locator('a.seat-link[data-sides="pact"]').get_attribute("href")
    assert nato and pact and nato != pact
    page.goto(server.url + nato)
    page.wait_for_selector("g.unit")
    guest = browser.new_context(viewport=VIEWPORT)
    other, _ = page_with_errors(guest)
    other.goto(server.url + pact)
    other.wait_for_selector("g.unit")
    return page, other, nato, pact


def test_second_browser_cannot_act_for_the_other_side(
    browser: Any, live_server: LiveServer, shots: Path
):
    page, other, nato, pact = _two_browsers(browser, live_server, "meeting-engagement")
    _, _, game_id, pact_token = pact.split("/")
    api = f"/api/games/{game_id}/seats/{pact_token}"
    view = other.evaluate(f"() => fetch('{api}/view').then(r => r.json())")
    assert view["seat"]["sides"] == ["pact"]
    if view["to_act"] == "nato":
        assert other.locator("button.order").count() == 0
        result = other.evaluate(
            "async () => { const r = await fetch('" + api + "/actions', {method: 'POST', "
            "headers: {'Content-Type': 'application/json'}, body: JSON.stringify({index: 0, "
            "action: {kind: 'activate', unit: 'nato-chieftain-1'}})}); "
            "return [r.status, (await r.json()).detail]; }"
        )
        assert result[0] == 403 and "NATO" in result[1]
        # NATO moves in the first browser; the second sees it without reloading
        click_order(page, "button.order.activate")
        other.wait_for_function(
            "() => /action 1\\b/.test(document.querySelector('#turn .hint').textContent)"
        )
    else:
        assert page.locator("button.order").count() == 0
    page.screenshot(path=str(shots / "05-two-browsers-nato.png"))
    other.screenshot(path=str(shots / "06-two-browsers-pact.png"))
    page.context.close()
    other.context.close()


def _hidden_scenario() -> tuple[str, set[str]] | None:
    """A Seven Days scenario whose PACT observation hides NATO units, with those ids."""
    import umpire

    ruleset = get_ruleset("sevendays")
    for scenario in ("capture", "escalating-engagement"):
        if scenario not in ruleset.scenario_ids():
            continue
        game = umpire.new_game(f"sevendays/{scenario}", seed=3)
        seen = json.dumps(game.observation("pact"), default=str)
        hidden = {u["uid"] for u in game.to_dict()["units"] if f'"{u["uid"]}"' not in seen}
        if hidden:
            return scenario, hidden
    return None


def test_second_browser_cannot_see_hidden_units(browser: Any, live_server: LiveServer, shots: Path):
    found = _hidden_scenario()
    if found is None:
        pytest.skip(
            "no Seven Days scenario hides anything yet (capture / escalating-engagement "
            "missing or with perfect information): hidden-deployment check not run"
        )
    scenario, hidden = found
    page, other, nato, pact = _two_browsers(browser, live_server, scenario)
    _, _, game_id, pact_token = pact.split("/")
    api = f"/api/games/{game_id}/seats/{pact_token}"
    drawn = set(other.eval_on_selector_all("g.unit", "gs => gs.map(g => g.dataset.unit)"))
    assert drawn and not drawn & hidden, drawn & hidden
    texts = [
        other.evaluate(f"() => fetch('{api}{path}').then(r => r.text())")
        for path in ("/view", "/replay?at=0", "/wait?index=-1&timeout=0")
    ]
    texts.append(other.content())
    for uid in hidden:
        for text in texts:
            assert uid not in text, f"{uid} leaked to PACT"
    own = set(page.eval_on_selector_all("g.unit", "gs => gs.map(g => g.dataset.unit)"))
    assert hidden & own, "NATO should see its own hidden units"
    other.screenshot(path=str(shots / "07-hidden-deployment-pact-view.png"))
    page.screenshot(path=str(shots / "08-hidden-deployment-nato-view.png"))
    page.context.close()
    other.context.close()


def test_ai_opponent_plays_visibly_and_portable_renders(
    browser: Any, live_server: LiveServer, shots: Path
):
    context = browser.new_context(viewport=VIEWPORT)
    page, errors = page_with_errors(context)
    page.goto(live_server.url + "/")
    page.select_option("#ruleset", "portable")
    page.select_option("#scenario", "armoured-meeting")
    page.select_option("#side-blue", "ai")
    page.select_option("#side-red", "here")
    page.fill("#seed", "2")
    page.click("#start")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("g.unit")
    page.wait_for_function(
        "() => document.querySelector('#turn').textContent.includes('your decision')",
        timeout=30000,
    )
    # give orders until the AI has played in between (its steps show up without a reload)
    ai_played = action_count(page) > 0
    for _ in range(25):
        if ai_played:
            break
        before = action_count(page)
        page.locator("button.order").last.click()
        page.wait_for_function(
            "() => document.querySelector('#turn').textContent.includes('your decision') || "
            "document.querySelector('#turn').textContent.includes('Game over')",
            timeout=30000,
        )
        page.wait_for_timeout(200)
        ai_played = action_count(page) > before + 1
    assert ai_played
    assert page.locator("g.cell").count() == 12 * 9
    assert page.locator("#log .ev").count() > 3
    page.screenshot(path=str(shots / "09-portable-vs-ai.png"))
    assert not errors, errors
    saved = json.loads(page.evaluate("() => localStorage.getItem('umpire.games')"))
    assert len(saved) == 1
    context.close()


def test_against_the_ai_undo_after_a_shot_is_refused_with_a_reason(
    browser: Any, live_server: LiveServer, shots: Path
):
    context = browser.new_context(viewport=VIEWPORT)
    page, errors = page_with_errors(context)
    start_from_lobby(page, live_server, "meeting-engagement", {"nato": "ai", "pact": "here"})
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("g.unit")
    mine = "() => document.querySelector('#turn').textContent.includes('your decision')"
    for _ in range(30):  # activate until a shot is on offer, then fire
        page.wait_for_function(mine, timeout=30000)
        if page.locator("button.order.fire").count():
            break
        page.locator("button.order.activate, button.order").first.click()
        page.wait_for_timeout(150)
    page.locator("button.order.fire").first.click()
    page.wait_for_function(mine, timeout=30000)
    page.wait_for_selector("#undo-why:not([hidden])")
    why = page.locator("#undo-why").inner_text()
    assert "roll" in why and "AI" in why, why
    assert page.locator("#undo").is_hidden()
    assert page.locator("#log .ev.roll").count() > 0
    page.screenshot(path=str(shots / "10-undo-refused-against-the-ai.png"))
    assert not errors, errors
    context.close()
