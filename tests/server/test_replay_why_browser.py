"""End-to-end (issue 17, Why: "shown ... in the browser next to the AI's move"): the replay
slider of the web table, in Chromium via Playwright (skipped without), shows the search AI's
why of a move in the frame of that move, and only to a seat that may read it
(``umpire.core.record.why_readable``; docs/search-ai.md, "In the saved record"): the AI's own
side always, another side as the lobby's "AI explains its moves to everyone" says, by default
only in a perfect-information ruleset.

The expected whys are the server's own (``Live.reasons``, what the search wrote), not read
back from the page; the page's text is compared with them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import VIEWPORT, LiveServer, need_browser

playwright = need_browser()

THINK = "0.05"  # seconds per AI decision: the game stays short
GROUPS_WITH_WHY = (
    "() => Array.from(document.querySelectorAll('#log li.group'))"
    ".filter((li) => li.querySelector('details.ai-why')).map((li) => Number(li.dataset.index))"
)


def start(
    page: Any,
    server: LiveServer,
    ruleset: str,
    scenario: str,
    sides: dict[str, str],
    why_public: str,
) -> Any:
    """A game started from the lobby; the server's live game behind the page."""
    page.goto(server.url + "/")
    page.select_option("#ruleset", ruleset)
    page.select_option("#scenario", scenario)
    for side, kind in sides.items():
        page.select_option(f"#side-{side}", kind)
    page.fill("#ai-think", THINK)
    page.select_option("#why-public", why_public)
    page.fill("#seed", "4")
    page.click("#start")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("g.unit")
    game_id = page.url.split("/play/")[1].split("/")[0]
    app: Any = server.server.config.app  # create_app's FastAPI app
    return app.state.service._cache[game_id]


def action_count(page: Any) -> int:
    text = page.locator("#turn .hint").inner_text()
    match = re.search(r"action (\d+)", text)
    assert match, text
    return int(match.group(1))


def play_until_explained(page: Any, live: Any, moves: int = 2) -> dict[int, str]:
    """The human seat gives orders in the page until the search AI has explained ``moves``
    moves and the human has acted after them (so each explained move has a replay frame
    before the live table). The whys of the AI's moves before the page's action count."""
    for _ in range(80):
        page.wait_for_function(
            "() => /your decision|Game over/.test(document.querySelector('#turn').textContent)",
            timeout=30000,
        )
        at = action_count(page)
        reasons = {i: t for i, t in dict(live.reasons).items() if i + 1 < at}
        if len(reasons) >= moves or "Game over" in page.locator("#turn").inner_text():
            return reasons
        page.locator("button.order").first.click()
        page.wait_for_function(
            f"() => !/action {at}$/.test(document.querySelector('#turn .hint').textContent)",
            timeout=30000,
        )
    raise AssertionError("the search AI explained too few moves in 80 orders")


def show_frame(page: Any, at: int) -> None:
    """Move the replay slider to ``at`` and wait for that frame to be on the table."""
    page.locator("#slider").fill(str(at))
    page.wait_for_function(
        f"() => !document.querySelector('#replay-banner').hidden && "
        f"document.querySelector('#replay-at').textContent === '{at}'"
    )


def new_page(browser: Any) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def check_whys_on_the_slider(page: Any, live: Any, reasons: dict[int, str], side: str) -> None:
    """Each explained AI move (action ``i``) shows its why, word for word, in the replay frame
    just after it (``i + 1``), in the log entry of that move and nowhere else; the frame before
    it (``i``) shows neither the move nor its why."""
    assert reasons and all(live.sides[i] == side for i in reasons)
    for i, text in sorted(reasons.items()):
        show_frame(page, i + 1)
        shown = page.evaluate(GROUPS_WITH_WHY)
        assert shown == sorted(j + 1 for j in live.reasons if j + 1 <= i + 1), shown
        entry = page.locator(f'#log li.group[data-index="{i + 1}"] details.ai-why')
        assert entry.count() == 1
        assert entry.locator("summary").inner_text() == "why the AI chose this"
        entry.locator("summary").click()  # the player opens it and reads
        words = entry.locator("pre").inner_text()
        assert words == text
        # the words of a why: the move chosen with its win estimate and visit share, and the
        # evaluation terms that decided it (issue 17)
        assert words.startswith(f"{side} search (aggressive, ")
        assert re.search(r"estimated win \d+%, \d+% of the search", words), words
        assert "because:" in words
        show_frame(page, i)
        assert page.locator(f'#log li.group[data-index="{i + 1}"]').count() == 0
        assert text not in (page.locator("#log").text_content() or "")


def test_the_replay_slider_shows_the_why_of_the_ai_move_in_a_perfect_information_game(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    """Portable (perfect information), the lobby's default: Blue's replay shows Red's why."""
    context, page, errors = new_page(browser)
    live = start(
        page,
        live_server,
        "portable",
        "crossroads",
        {"blue": "here", "red": "search:aggressive"},
        why_public="",
    )
    reasons = play_until_explained(page, live)
    assert len(reasons) >= 2, "the search explained fewer than two moves"
    check_whys_on_the_slider(page, live, reasons, "red")
    last = max(reasons)
    show_frame(page, last + 1)
    page.locator(f'#log li.group[data-index="{last + 1}"] details.ai-why summary').click()
    page.screenshot(path=str(shots / "replay-why-portable.png"))
    page.click("#live")
    page.wait_for_selector("#replay-banner", state="hidden")
    assert not errors, errors
    context.close()


def test_a_hidden_information_game_shows_the_why_on_the_slider_when_made_public(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    """Seven Days hides information; with "AI explains its moves to everyone" set to yes,
    Pact's replay shows each explained NATO move's why (the control for the test below)."""
    context, page, errors = new_page(browser)
    live = start(
        page,
        live_server,
        "sevendays",
        "meeting-engagement",
        {"nato": "search:aggressive", "pact": "here"},
        why_public="true",
    )
    reasons = play_until_explained(page, live)
    assert len(reasons) >= 2, "the search explained fewer than two moves"
    check_whys_on_the_slider(page, live, reasons, "nato")
    page.screenshot(path=str(shots / "replay-why-sevendays-public.png"))
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("why_public", ["", "false"], ids=["default", "own"])
def test_no_why_on_the_other_seats_replay_in_a_hidden_information_game(
    browser: Any, live_server: LiveServer, shots: Path, why_public: str
) -> None:
    """Seven Days hides information; by default, or with the why kept to its own side, the
    Pact seat's replay shows no why of NATO's moves in any frame: no entry, no words."""
    context, page, errors = new_page(browser)
    live = start(
        page,
        live_server,
        "sevendays",
        "meeting-engagement",
        {"nato": "search:aggressive", "pact": "here"},
        why_public=why_public,
    )
    reasons = play_until_explained(page, live)
    assert len(reasons) >= 2, "the search explained fewer than two moves"
    assert all(live.sides[i] == "nato" for i in reasons)
    frames = sorted({0, *reasons, *(i + 1 for i in reasons), action_count(page) - 1})
    for at in frames:
        show_frame(page, at)
        # the frame's log runs up to its action (the AI's move included), without a why
        indices = page.evaluate(
            "() => Array.from(document.querySelectorAll('#log li.group'))"
            ".map((li) => Number(li.dataset.index))"
        )
        assert indices and max(indices) <= at
        assert page.evaluate(GROUPS_WITH_WHY) == []
        html = page.content()
        assert "why the AI chose this" not in html
        assert "nato search (" not in html and "% of the search" not in html
        for text in reasons.values():
            assert text not in html
            for line in text.splitlines():
                assert line.strip() not in html
    page.screenshot(path=str(shots / f"replay-why-sevendays-{why_public or 'default'}.png"))
    page.click("#live")
    page.wait_for_selector("#replay-banner", state="hidden")
    assert page.evaluate(GROUPS_WITH_WHY) == []
    assert "nato search (" not in page.content()
    assert not errors, errors
    context.close()
