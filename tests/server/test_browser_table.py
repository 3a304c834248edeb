"""End-to-end in a real Chromium: the table a player meets (issue 20, Browser).

It fits a phone (390×844: map first, panels below, no sideways scrolling), a laptop (1280×720:
orders and undo on screen without scrolling the page) and a desktop (1920×1080), checked on the
element boxes and saved as screenshots; unit labels never overlap; a commander's symbol stays in
its square; cards sit in a card tray with their names and texts and are swapped, played and
answered by clicking them; a double click on a target fires; a shot's tooltip gives each
modifier with the sign of the order text, and each probability reads the same everywhere; the
lobby shows the briefing, a map, the options (uploads included) and the visitor's games kept on
the server; the deployment step places pieces by click or "deploy for me"; the end of the game
shows the battle report with undo gone; a wrong link is a page; rule ids explain themselves.

Screenshots land in ``$UMPIRE_SCREENSHOTS`` (default: the test's temporary directory)."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import umpire
from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.core.ruleset import get_ruleset
from umpire.server.store import GameRow, Seat, Store

from .conftest import SIZES, LiveServer, need_browser
from .test_table_api import stored_finished_game

need_browser()

FORCES = Path(umpire.__file__).parent / "rulesets" / "sevendays" / "data" / "forces"
TOKEN = "a-secret-token-for-the-test-0001"


# -- games written straight into the store (fast and exactly reproducible) ------------------------
def store_game(
    db: Path,
    game: Game,
    players: dict[str, str],
    game_id: str = "stored",
    sides: Sequence[str] | None = None,
) -> str:
    """Write ``game`` (its seed and actions) to the server's database; the table's link."""
    store = Store(db)
    record = game.record
    seat_sides = tuple(sides if sides is not None else players)
    row = GameRow(
        game_id,
        record.ruleset,
        game.ruleset.meta.version,
        record.scenario,
        record.seed,
        dict(record.options),
        players,
        0.0,
        0.0,
    )
    store.create_game(row, [Seat(TOKEN + game_id, game_id, seat_sides)])
    for index, action in enumerate(record.actions):
        store.append(game_id, index, action.to_dict(), None)
    store.close()
    return f"/play/{game_id}/{TOKEN + game_id}"


def played(game_id: str, seed: int, stop: Callable[[Game, list[Action]], bool], rng: int) -> Game:
    """A game played at random (``rng``) until ``stop`` says so."""
    game = umpire.new_game(game_id, seed=seed)
    chooser = random.Random(rng)
    for _ in range(2000):
        legal = game.legal_actions()
        if stop(game, legal):
            return game
        game.apply(chooser.choice(legal))
    raise AssertionError(f"{game_id}: no position found")


def hot_seat(ruleset: str) -> dict[str, str]:
    return dict.fromkeys(get_ruleset(ruleset).meta.players, "here")


def open_table(
    browser: Any, url: str, size: tuple[int, int] = (1600, 900)
) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#turn .hint")
    return page, errors


def action_count(page: Any) -> int:
    match = re.search(r"action (\d+)", page.locator("#turn .hint").inner_text())
    assert match
    return int(match.group(1))


def wait_for_action(page: Any, index: int) -> None:
    page.wait_for_function(
        f"() => /action {index}\\b/.test(document.querySelector('#turn .hint').textContent)"
    )


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] | None = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


def no_sideways_scroll(page: Any) -> None:
    width, inner = page.evaluate("() => [document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the page scrolls sideways: {width} > {inner}"


# -- fits any screen ------------------------------------------------------------------------------
LAYOUT_GAMES = {
    "sevendays": ("capture", 2),  # cards: the tray is open
    "portable": ("armoured-meeting", 2),
    "rhine": ("kinzig-valley", 1),
    "bookgun": ("market-day", 1),
}


@pytest.mark.parametrize("ruleset", sorted(LAYOUT_GAMES))
def test_the_table_fits_a_phone_a_laptop_and_a_desktop(
    browser: Any, live_server: LiveServer, db_path: Path, shots: Path, ruleset: str
):
    scenario, moves = LAYOUT_GAMES[ruleset]
    game = umpire.new_game(f"{ruleset}/{scenario}", seed=3)
    for _ in range(moves):  # a hot-seat game with actions behind it: undo is offered
        game.apply(game.legal_actions()[0])
    url = live_server.url + store_game(db_path, game, hot_seat(ruleset))
    for name, size in SIZES.items():
        page, errors = open_table(browser, url, size)
        page.wait_for_selector("#table g")
        page.wait_for_timeout(200)
        page.screenshot(path=str(shots / f"layout-{ruleset}-{name}.png"))
        width, height = size
        no_sideways_scroll(page)
        table = box(page, "#table-wrap")
        assert table["x"] >= 0 and table["x"] + table["width"] <= width + 0.5
        for selector in ("#orders", "#turn", ".log-panel"):
            found = box(page, selector)
            assert found["x"] >= 0 and found["x"] + found["width"] <= width + 0.5, selector
        assert page.locator("#undo").is_visible(), "a hot-seat game with actions offers undo"
        if name == "phone":
            # the map first, across the screen; every panel below it
            assert table["width"] >= 0.9 * width and table["y"] < 200
            assert box(page, "#turn")["y"] >= table["y"] + table["height"]
            assert box(page, "#orders")["y"] >= table["y"] + table["height"]
        else:
            # nothing to scroll: orders and undo are on screen as the page opens
            scroll = page.evaluate("() => document.scrollingElement.scrollHeight")
            assert scroll <= height, f"the page scrolls at {size}"
            for selector in ("#orders h3", "#undo", "#orders .order, #orders .hint"):
                found = box(page, selector)
                assert found["y"] >= 0 and found["y"] + found["height"] <= height, selector
                assert found["x"] + found["width"] <= width, selector
            assert table["width"] >= 0.5 * width
        assert not errors, errors
        page.context.close()


# -- labels, symbols ------------------------------------------------------------------------------
LABEL_BOXES = """() => [...document.querySelectorAll('#table text.unit-label')]
  .filter((t) => t.getAttribute('display') !== 'none')
  .map((t) => t.getBoundingClientRect())
  .map((r) => [r.left, r.top, r.right, r.bottom])"""


def overlapping(boxes: list[list[float]]) -> list[tuple[int, int]]:
    return [
        (i, j)
        for i, a in enumerate(boxes)
        for j, b in enumerate(boxes)
        if i < j and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    ]


@pytest.mark.parametrize("scenario", ["meeting-engagement", "capture"])
def test_unit_labels_never_overlap(
    browser: Any, live_server: LiveServer, db_path: Path, shots: Path, scenario: str
):
    game = umpire.new_game(f"sevendays/{scenario}", seed=3)
    url = live_server.url + store_game(db_path, game, hot_seat("sevendays"))
    for name, size in SIZES.items():
        page, errors = open_table(browser, url, size)
        page.wait_for_selector("g.unit")
        labels = page.locator("#table text.unit-label").count()
        boxes = page.evaluate(LABEL_BOXES)
        assert labels >= 10
        assert len(boxes) >= 0.8 * labels, f"{labels - len(boxes)} of {labels} labels hidden"
        assert overlapping(boxes) == [], f"labels overlap at {size}"
        page.screenshot(path=str(shots / f"labels-{scenario}-{name}.png"))
        assert not errors, errors
        page.context.close()


def test_a_commanders_symbol_stays_inside_its_square(
    browser: Any, live_server: LiveServer, db_path: Path, shots: Path
):
    game = umpire.new_game("portable/armoured-meeting", seed=3)
    url = live_server.url + store_game(db_path, game, hot_seat("portable"))
    page, errors = open_table(browser, url, SIZES["laptop"])
    page.wait_for_selector("g.unit")
    found = page.evaluate(
        """() => [...document.querySelectorAll('#table g.unit')].map((g) => {
          const s = g.querySelector('svg.symbol').getBoundingClientRect();
          return [g.dataset.unit, [s.left, s.top, s.right, s.bottom]]; })"""
    )
    view = page.evaluate(
        "() => fetch(location.pathname.replace('/play/', '/api/games/')"
        ".replace(/\\/([^/]+)$/, '/seats/$1/view')).then((r) => r.json())"
    )
    cells = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#table g.cell')].map((g) => {
          const r = g.querySelector('rect').getBoundingClientRect();
          return [g.dataset.x + ',' + g.dataset.y, [r.left, r.top, r.right, r.bottom]]; }))"""
    )
    where = {u["id"]: f"{u['x']},{u['y']}" for u in view["board"]["units"]}
    commanders = {u["id"] for u in view["board"]["units"] if u["type"] == "commanders"}
    assert commanders
    for unit, (left, top, right, bottom) in found:
        cell = cells[where[unit]]
        assert cell[0] <= left and right <= cell[2] and cell[1] <= top and bottom <= cell[3], unit
    page.screenshot(path=str(shots / "portable-commanders-in-their-squares.png"))
    assert not errors, errors
    page.context.close()


# -- cards ----------------------------------------------------------------------------------------
def test_the_card_tray_names_each_card_and_swaps_by_clicking(
    browser: Any, live_server: LiveServer, db_path: Path, shots: Path
):
    """seed p30: before turn 1 each side may swap cards of its hand (sevendays.cards.deal)."""
    game = umpire.new_game("sevendays/capture", seed=3)
    url = live_server.url + store_game(db_path, game, hot_seat("sevendays"))
    page, errors = open_table(browser, url, SIZES["laptop"])
    page.wait_for_selector("#cards .game-card")
    catalog = get_ruleset("sevendays").capabilities.catalog()
    hand = game.observation(game.to_act)["cards"]["hand"]
    cards = page.locator("#cards .game-card")
    assert cards.count() == len(hand)
    for card in hand:
        name, _, text = catalog[f"sevendays.cards.{card}"].summary.partition(": ")
        shown = page.locator(f'#cards .game-card[data-card="{card}"]')
        assert shown.locator(".card-name").inner_text() == name
        assert shown.locator(".card-text").inner_text() == text
    # the swap: click two cards to give back, then Swap
    give = sorted(hand)[:2]
    for card in give:
        page.click(f'#cards .game-card[data-card="{card}"]')
    assert page.locator("#cards .game-card.picked").count() == 2
    swap = page.locator("#card-choices button.order.swap")
    names = [catalog[f"sevendays.cards.{c}"].summary.partition(": ")[0] for c in give]
    assert all(n in swap.inner_text() for n in names)
    page.screenshot(path=str(shots / "card-tray-swap.png"))
    swap.click()
    wait_for_action(page, 1)
    assert "sevendays.cards.deal" in page.locator("#log").inner_text()
    assert not errors, errors
    page.context.close()


def _card_position(response: bool) -> tuple[Game, str]:
    def wanted(game: Game, legal: list[Action]) -> bool:
        plays: dict[str, int] = {}
        for a in legal:
            if a.kind == "card":
                card = str(a.option).split("|")[0]
                plays[card] = plays.get(card, 0) + 1
        answering = any(a.kind == "no_response" for a in legal)
        swapping = any(a.kind == "swap" for a in legal)
        return bool(plays) and not swapping and answering == response

    game = played("sevendays/capture", 3, wanted, 0)
    card = next(str(a.option).split("|")[0] for a in game.legal_actions() if a.kind == "card")
    return game, card


@pytest.mark.parametrize("response", [False, True], ids=["play", "respond"])
def test_a_card_is_played_or_answered_by_clicking_it(
    browser: Any, live_server: LiveServer, db_path: Path, shots: Path, response: bool
):
    """sevendays.cards.play: a card played at a side's decision, or in answer to the enemy's."""
    game, card = _card_position(response)
    url = live_server.url + store_game(db_path, game, hot_seat("sevendays"))
    page, errors = open_table(browser, url, SIZES["laptop"])
    lit = page.locator(f'#cards .game-card.playable[data-card="{card}"]')
    lit.wait_for()
    if response:
        assert page.locator("#card-choices button.order.no_response").count() == 1
    before = action_count(page)
    lit.click()
    if page.locator("#card-choices button.order.card").count():  # several ways to play it
        page.screenshot(path=str(shots / f"card-tray-{'respond' if response else 'play'}.png"))
        page.locator("#card-choices button.order.card").first.click()
    wait_for_action(page, before + 1)
    log = page.locator("#log").inner_text()
    assert "sevendays.cards" in log
    assert not errors, errors
    page.context.close()


# -- shots: double click, tooltips, one rounding --------------------------------------------------
def _shot_position() -> Game:
    def wanted(game: Game, legal: list[Action]) -> bool:
        return any(
            a.kind == "fire" and "(" in game.describe(a).partition("[base")[2] for a in legal
        )

    return played("sevendays/meeting-engagement", 3, wanted, 0)


def test_shot_tooltips_and_odds_read_as_the_order_text_and_a_double_click_fires(
    browser: Any, live_server: LiveServer, db_path: Path, shots: Path
):
    """A modifier of the book's table (p15) is a change to the die: the order text says
    "-1 target >50% obscured", and so must the tooltip (not "+1" to the score needed); each
    probability is rounded once, the same in the text, the odds line and on the map."""
    game = _shot_position()
    url = live_server.url + store_game(db_path, game, hot_seat("sevendays"))
    page, errors = open_table(browser, url, SIZES["desktop"])
    page.wait_for_selector("button.order.fire")
    buttons = page.locator("button.order.fire")
    checked = 0
    for i in range(buttons.count()):
        button = buttons.nth(i)
        text = button.locator("span").first.inner_text()
        odds = button.locator(".odds").inner_text()
        hit, kill = re.search(r"P hit (\d+)%, P kill (\d+)%", text).groups()  # type: ignore[union-attr]
        assert f"hit {hit}% · kill {kill}%" in odds, (text, odds)
        title = button.get_attribute("title") or ""
        for sign, number, why in re.findall(r"([+-])(\d+) ([^,()\]]+)", text.partition("[base")[2]):
            line = next(t for t in title.splitlines() if why.strip() in t)
            assert line.startswith(("+" if sign == "+" else "−") + number), (text, title)
            checked += 1
    assert checked >= 1
    # double click the target with the best shot: it fires
    best = max(
        (a for a in game.legal_actions() if a.kind == "fire"),
        key=lambda a: float(re.search(r"P kill (\d+)%", game.describe(a)).group(1)),  # type: ignore[union-attr]
    )
    before = action_count(page)
    page.locator(f'#table g.unit[data-unit="{best.target}"] svg.symbol').dblclick()
    wait_for_action(page, before + 1)
    with sqlite3.connect(db_path) as con:
        (last,) = con.execute("SELECT action FROM actions ORDER BY idx DESC LIMIT 1").fetchone()
    fired = json.loads(last)
    assert fired["kind"] == "fire" and fired["target"] == best.target, fired
    page.screenshot(path=str(shots / "double-click-fired.png"))
    assert not errors, errors
    page.context.close()


# -- the lobby ------------------------------------------------------------------------------------
def test_the_lobby_shows_briefing_map_options_and_my_games(
    browser: Any, live_server: LiveServer, shots: Path
):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/")
    page.select_option("#ruleset", "sevendays")
    page.select_option("#scenario", "capture")
    page.wait_for_selector('#preview[data-scenario="sevendays/capture"] g.area')
    briefing = get_ruleset("sevendays").scenario_info("capture").briefing
    assert page.locator("#briefing").inner_text() == briefing
    assert page.locator("#preview g.unit").count() == 0
    assert page.locator("#preview g.objective").count() == 2
    for name, size in SIZES.items():
        page.set_viewport_size({"width": size[0], "height": size[1]})
        no_sideways_scroll(page)
        page.screenshot(path=str(shots / f"lobby-{name}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 720})
    # options: cards off, the PACT force uploaded from this computer, hot seat
    page.select_option("#opt-cards", "false")
    page.set_input_files("#opt-force-pact", str(FORCES / "ussr-tank-company.toml"))
    page.select_option("#side-nato", "here")
    page.select_option("#side-pact", "here")
    page.click("#start")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("g.unit")
    assert page.locator("#cards").is_hidden()  # no cards in this game
    view = page.evaluate(
        "() => fetch(location.pathname.replace('/play/', '/api/games/')"
        ".replace(/\\/([^/]+)$/, '/seats/$1/view')).then((r) => r.json())"
    )
    assert not view["board"].get("cards")
    forces = get_ruleset("sevendays").capabilities.forces
    deployed = forces.prepare_options(
        "capture", {"forces": {"pact": str(FORCES / "ussr-tank-company.toml")}}
    )["forces"]["pact"]["units"]
    pact = {u["id"] for u in view["board"]["units"] if u["side"] == "pact"}
    assert pact == {f"pact-{u['id']}" for u in deployed}
    game_url = page.url.replace(live_server.url, "")
    # the visitor's games come from the server: still listed with this browser's storage gone
    page.goto(live_server.url + "/")
    page.evaluate("() => localStorage.clear()")
    page.reload()
    page.wait_for_selector("#games a.my-game")
    assert page.locator(f'#games a.my-game[href="{game_url}"]').count() == 1
    other = browser.new_context().new_page()
    other.goto(live_server.url + "/")
    other.wait_for_timeout(300)
    assert other.locator("#games a.my-game").count() == 0
    other.context.close()
    assert not errors, errors
    context.close()


# -- deployment -----------------------------------------------------------------------------------
def test_the_deployment_step_places_by_click_and_deploys_for_me(
    browser: Any, live_server: LiveServer, shots: Path
):
    """bookgun.setup.deploy: the insurgents put their cells under concealment markers at the
    scenario's sites, hidden from the army."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    made = page.request.post(
        live_server.url + "/api/games",
        data={
            "ruleset": "bookgun",
            "scenario": "convoy-ambush",
            "seed": 1,
            "players": {"insurgents": "here", "army": "remote"},
        },
    ).json()
    seats = {s["sides"][0]: s["url"] for s in made["seats"]}
    page.goto(live_server.url + seats["insurgents"])
    page.wait_for_selector("g.deploy-site")
    assert "deployment" in page.locator("#turn").inner_text()
    assert page.locator("#deploy-for-me").is_visible()
    sites = page.locator("g.deploy-site").count()
    assert sites >= 2
    page.screenshot(path=str(shots / "deployment-step.png"))
    site = page.locator("g.deploy-site").first.get_attribute("data-site")
    page.locator("g.deploy-site .deploy-ring").first.click()
    wait_for_action(page, 1)
    marker = page.locator("g.hidden-marker title").first.text_content() or ""
    assert f"at {site}" in marker
    page.click("#deploy-for-me")
    page.wait_for_selector("#deploy-for-me", state="hidden")
    assert page.locator("g.deploy-site").count() == 0
    placed = page.locator("g.hidden-marker").count()
    assert placed >= 2 and page.locator("text.marker-contents").count() == placed
    army = browser.new_context().new_page()
    army.goto(live_server.url + seats["army"])
    army.wait_for_selector("g.hidden-marker")
    assert army.locator("g.hidden-marker").count() == placed
    assert army.locator("text.marker-contents, g.deploy-site").count() == 0
    army.context.close()
    assert not errors, errors
    context.close()


# -- the end, a wrong link, rule ids --------------------------------------------------------------
def test_the_end_shows_the_battle_report_and_no_undo(
    browser: Any, live_server: LiveServer, db_path: Path, shots: Path
):
    api = stored_finished_game(db_path)
    game_id, token = api.split("/")[3], api.split("/")[5]
    page, errors = open_table(browser, f"{live_server.url}/play/{game_id}/{token}", (1280, 720))
    page.wait_for_selector("#report:not([hidden])")
    view = page.evaluate(f"() => fetch('{api}/view').then((r) => r.json())")
    report = view["report"]
    head = page.locator("#report h3").text_content()
    assert head == f"Battle report — {report['winner'].upper()} wins ({report['how']})"
    assert f"turns played {report['turns']}" in page.locator("#report").inner_text()
    rows = page.locator("#report table.losses tr")
    assert rows.count() == 1 + len(report["losses"])
    for side, loss in report["losses"].items():
        row = page.locator("#report table.losses tr", has_text=side.upper()).inner_text()
        assert f"{loss['units']}/{loss['of_units']}" in row
    assert page.locator("#undo").is_hidden() and page.locator("#undo-why").is_hidden()
    assert "Game over" in page.locator("#turn").inner_text()
    page.screenshot(path=str(shots / "battle-report.png"))
    assert not errors, errors
    page.context.close()


def test_a_wrong_secret_link_is_a_readable_page(browser: Any, live_server: LiveServer):
    page = browser.new_context().new_page()
    for path in ("/play/no-such-game/no-such-token", "/play/x"):
        response = page.goto(live_server.url + path)
        assert response.status == 404
        assert page.locator("#no-game h2").text_content() == "No game at this link"
        assert not page.locator("body").inner_text().lstrip().startswith("{")
        assert page.locator('#no-game a[href="/"]').count() == 1
    page.context.close()


def test_rule_ids_in_the_log_show_the_rules_summary_on_hover(
    browser: Any, live_server: LiveServer, db_path: Path
):
    game = _shot_position()
    url = live_server.url + store_game(db_path, game, hot_seat("sevendays"))
    page, errors = open_table(browser, url)
    page.wait_for_selector("#log .rule[title]")
    rules = page.evaluate("() => fetch('/api/rulesets/sevendays/rules').then((r) => r.json())")
    spans = page.eval_on_selector_all(
        "#log .rule", "s => s.map((e) => [e.dataset.rule, e.getAttribute('title')])"
    )
    assert spans
    for rule, title in spans:
        assert title == rules[rule], rule
    assert not errors, errors
    page.context.close()


def test_the_wheel_zooms_a_drag_pans_and_neither_gives_an_order(
    browser: Any, live_server: LiveServer, db_path: Path, shots: Path
):
    game = played(
        "sevendays/meeting-engagement", 3, lambda g, legal: any(a.point for a in legal), 0
    )
    url = live_server.url + store_game(db_path, game, hot_seat("sevendays"))
    page, errors = open_table(browser, url, SIZES["laptop"])
    page.wait_for_selector("circle.dest")
    before = action_count(page)
    home = page.get_attribute("#table", "viewBox")
    # zoom round a destination: it stays under the pointer
    dest = box(page, "circle.dest")
    cx, cy = dest["x"] + dest["width"] / 2, dest["y"] + dest["height"] / 2
    page.mouse.move(cx, cy)
    for _ in range(3):
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(50)
    zoomed = page.get_attribute("#table", "viewBox")
    assert zoomed != home and float(zoomed.split()[2]) < float(home.split()[2])
    assert page.locator("#zoom-home").is_visible()
    # a drag pans the table; the click that ends it gives no order
    page.mouse.move(cx - 60, cy - 40)
    page.mouse.down()
    page.mouse.move(cx - 30, cy - 20, steps=5)
    page.mouse.move(cx, cy, steps=5)
    page.mouse.up()
    panned = page.get_attribute("#table", "viewBox")
    assert panned != zoomed
    page.wait_for_timeout(300)
    assert action_count(page) == before
    page.screenshot(path=str(shots / "zoomed-and-panned.png"))
    page.click("#zoom-home")
    assert page.get_attribute("#table", "viewBox") == home
    assert not errors, errors
    page.context.close()


def test_the_next_activated_unit_gets_its_destinations_drawn(
    browser: Any, live_server: LiveServer, db_path: Path
) -> None:
    """A user's report (2026-11-25): once a unit had been activated, the next unit of the same
    side activated with no destinations drawn (the page kept the first one selected and drew
    only its dots), though the orders said "N destinations marked on the table"."""
    chooser = random.Random(0)
    game = umpire.new_game("portable/crossroads", seed=4)

    def movers(g: Game) -> set[str]:
        return {str(a.unit) for a in g.legal_actions() if a.point is not None}

    while not movers(game):  # the first unit active with somewhere to go
        game.apply(chooser.choice(game.legal_actions()))
    first = movers(game)
    later = umpire.new_game("portable/crossroads", seed=4)
    for action in game.record.actions:
        later.apply(action)
    steps: list[Action] = []
    while not movers(later) or movers(later) == first:  # to the next unit's activation
        action = chooser.choice(later.legal_actions())
        later.apply(action)
        steps.append(action)
    second = movers(later)
    assert second and second != first and later.to_act == game.to_act
    url = live_server.url + store_game(db_path, game, hot_seat("portable"))
    page, errors = open_table(browser, url, SIZES["laptop"])
    page.wait_for_selector("circle.dest")
    api = url.replace("/play/", "/api/games/").replace("/stored/", "/stored/seats/")
    start = action_count(page)
    for offset, action in enumerate(steps):
        r = page.request.post(
            api + "/actions", data={"index": start + offset, "action": action.to_dict()}
        )
        assert r.ok, r.text()
    wait_for_action(page, start + len(steps))
    wanted = sum(1 for a in later.legal_actions() if a.point is not None)
    page.wait_for_function(
        f"() => document.querySelectorAll('circle.dest').length === {wanted}", timeout=10_000
    )
    assert not errors
