"""End-to-end (issue 17): the lobby offers the search AI with a personality and a think time,
and the table shows the AI's "why" next to its move (Chromium via Playwright; skipped without)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .conftest import VIEWPORT, LiveServer, need_browser

playwright = need_browser()


def test_lobby_search_opponent_and_its_why_next_to_its_move(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/")
    page.select_option("#ruleset", "portable")
    page.select_option("#scenario", "crossroads")
    page.select_option("#side-blue", "here")
    page.select_option("#side-red", "search:aggressive")
    page.fill("#ai-think", "0.05")
    page.fill("#seed", "3")
    page.click("#start")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("g.unit")
    for _ in range(40):
        if page.locator("#log details.ai-why").count():
            break
        page.wait_for_function(
            "() => document.querySelector('#turn').textContent.includes('your decision') || "
            "document.querySelector('#turn').textContent.includes('Game over')",
            timeout=30000,
        )
        if page.locator("#log details.ai-why").count():
            break
        page.locator("button.order").last.click()
        page.wait_for_timeout(300)
    why = page.locator("#log details.ai-why").first
    assert why.count(), "no why next to the search AI's moves"
    why.locator("summary").click()
    text = why.locator("pre").inner_text()
    assert text.startswith("red search (aggressive, ") and "because:" in text
    page.screenshot(path=str(shots / "ai-why.png"))
    assert not errors, errors
    context.close()
