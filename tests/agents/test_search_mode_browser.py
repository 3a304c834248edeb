"""End-to-end: the web lobby's "search AI mode" choice reaches the game (docs/search-ai.md,
"Choosing the mode"): picking the improve mode for a search opponent creates the game with the
kind ``search:PRESET+improve@SECONDS``, and the default leaves the mode out (the ruleset's
default applies). Chromium via Playwright; skipped without it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ARGS, CHROMIUM, VIEWPORT, LiveServer, need_browser

playwright = need_browser()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "games.sqlite3").start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _start(browser: Any, live_server: LiveServer, mode: str) -> dict[str, str]:
    """Start a Crossroads game from the lobby with red a cautious search AI in ``mode``
    ("" for the default); the players the server stored."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/")
    page.select_option("#ruleset", "portable")
    page.select_option("#scenario", "crossroads")
    page.select_option("#side-blue", "here")
    page.select_option("#side-red", "search:cautious")
    page.select_option("#ai-mode", mode)
    page.fill("#ai-think", "0.05")
    page.click("#start")
    page.wait_for_url(re.compile(r"/play/"))
    found = re.search(r"/play/([^/]+)/([^/?#]+)", page.url)
    assert found, page.url
    view = page.request.get(
        f"{live_server.url}/api/games/{found.group(1)}/seats/{found.group(2)}/view"
    ).json()
    assert not errors, errors
    context.close()
    players: dict[str, str] = view["game"]["players"]
    return players


def test_the_lobby_sends_the_chosen_mode(browser: Any, live_server: LiveServer) -> None:
    assert _start(browser, live_server, "improve") == {
        "blue": "here",
        "red": "search:cautious+improve@0.05",
    }
    assert _start(browser, live_server, "tree")["red"] == "search:cautious+tree@0.05"
    assert _start(browser, live_server, "")["red"] == "search:cautious@0.05"
