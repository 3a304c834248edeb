"""End-to-end: the 7 Days to the Rhine hex map in a real Chromium (Debian's, driven by
Playwright; no download). Hexside rivers and bridges, roads and the autobahn, counters with
their NATO symbol and strength-movement, stacks, zones of control, air and EW markers; the reach
of a clicked unit; the exact CRT distribution of a proposed attack in the order list, equal to
``umpire odds rhine`` (rhine.crt.table); and the other side's secret combat support
(rhine.cs.secret) nowhere on the waiting side's page before the reveal.

Screenshots land in ``$UMPIRE_SCREENSHOTS`` (default: the test's temporary directory)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import VIEWPORT, LiveServer, need_browser

playwright = need_browser()


class Seats:
    """A game created through the API, with every seat's token, driven through the API."""

    def __init__(self, page: Any, server: LiveServer, body: dict[str, Any]) -> None:
        self.page, self.server = page, server
        r = page.request.post(server.url + "/api/games", data=body)
        assert r.ok, r.text()
        self.game = r.json()
        self.by_side = {s["sides"][0]: s for s in self.game["seats"] if len(s["sides"]) == 1}

    def api(self, side: str) -> str:
        return f"/api/games/{self.game['id']}/seats/{self.by_side[side]['token']}"

    def view(self, side: str) -> dict[str, Any]:
        r = self.page.request.get(self.server.url + self.api(side) + "/view")
        assert r.ok, r.text()
        data: dict[str, Any] = r.json()
        return data

    def text(self, side: str, path: str) -> str:
        r = self.page.request.get(self.server.url + self.api(side) + path)
        assert r.ok, r.text()
        text: str = r.text()
        return text

    def act(self, side: str, index: int, action: dict[str, Any]) -> None:
        r = self.page.request.post(
            self.server.url + self.api(side) + "/actions", data={"index": index, "action": action}
        )
        assert r.ok, r.text()

    def drive(
        self, rng: random.Random, stop: Any, limit: int = 400, prefer: tuple[str, ...] = ()
    ) -> tuple[str, dict[str, Any]]:
        """Random legal actions for whoever is to act until ``stop(side, view)``; an action of
        a kind in ``prefer`` is taken whenever one is offered."""
        for _ in range(limit):
            for side in self.by_side:
                v = self.view(side)
                if not v["your_turn"]:
                    continue
                if stop(side, v):
                    return side, v
                offered = [a for a in v["actions"] if a["action"]["kind"] in prefer]
                pick = offered[0] if offered else rng.choice(v["actions"])
                self.act(side, v["index"], pick["action"])
                break
            else:
                raise AssertionError("nobody to act")
        raise AssertionError("the position looked for never came")

    def open(self, context: Any, side: str) -> tuple[Any, list[str]]:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(self.server.url + self.by_side[side]["url"])
        page.wait_for_selector("g.unit")
        return page, errors


def _has_attack(side: str, v: dict[str, Any]) -> bool:
    return any(a["action"]["kind"] == "attack" and a.get("odds") for a in v["actions"])


def test_rhine_hex_map_reach_attack_odds_and_secret_support(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    from umpire.rulesets.rhine.odds_cli import ODDS

    context = browser.new_context(viewport=VIEWPORT)
    driver = context.new_page()
    seats = Seats(
        driver,
        live_server,
        {
            "ruleset": "rhine",
            "scenario": "autobahn-gap",
            "seed": 3,
            "players": {"pact": "here", "nato": "remote"},
        },
    )
    # EW markers placed whenever offered, so that some counters carry them
    side, v = seats.drive(random.Random(1), _has_attack, prefer=("ew_mark",))
    page, errors = seats.open(context, side)
    board = v["board"]
    # the map: hexside rivers (with bridges), roads and the autobahn, zones of control
    assert board["hexsides"] and page.locator("g.hexside.river").count() == len(board["hexsides"])
    bridges = [s for s in board["hexsides"] if s["bridge"]]
    assert page.locator("g.hexside.bridged").count() == len(bridges)
    autobahn = [r for r in board["roads"] if r["kind"] == "autobahn"]
    assert autobahn and page.locator("g.road.autobahn").count() == len(autobahn)
    zoc = sum(len(hexes) for hexes in board["zoc"].values())
    assert zoc and page.locator("polygon.zoc").count() == zoc
    enemy = next(s for s in board["zoc"] if s != side)
    assert page.locator("polygon.zoc-enemy").count() == len(board["zoc"][enemy])
    # counters: each unit on the map, its NATO symbol and strength-MA; stacks counted
    on_map = [u for u in board["units"] if u.get("hex")]
    assert page.locator("g.unit.counter").count() == len(on_map)
    assert page.locator("g.unit.counter svg.symbol").count() == len(on_map)
    u = on_map[0]
    values = page.locator(f'g.counter[data-unit="{u["id"]}"] .counter-values').text_content()
    assert values == f"{u['strength']}-{u['ma']}"
    stacked = [h for h, us in board["stacks"].items() if len(us) > 1]
    assert page.locator("text.stack-count").count() == len(stacked)
    # air superiority and EW markers where the board puts them
    assert board["air"]["markers"]
    assert page.locator("g.air-marker").count() == len(board["air"]["markers"])
    jammed = [x for x in on_map if x["ew"]]
    assert jammed and page.locator("rect.ew-marker").count() == len(jammed)
    assert set(board["ew"]["marked"]) == {x["id"] for x in jammed}
    page.screenshot(path=str(shots / "rhine-01-map.png"))

    # the exact distribution of each proposed attack, as `umpire odds rhine` gives it
    page.wait_for_selector("button.order.attack .dist")
    attacks = [a for a in v["actions"] if a["action"]["kind"] == "attack"]
    buttons = page.locator("button.order.attack")
    assert buttons.count() == len(attacks)
    for i in range(buttons.count()):
        head = buttons.nth(i).locator(".odds-head").inner_text()
        m = re.match(r"(\d+):(\d+) → column (\S+), DRM ([+-]\d+)", head)
        assert m, head
        expected, _ = ODDS.answer({"attack": int(m[1]), "defence": int(m[2]), "drm": int(m[4])})
        assert expected["column"] == m[3]
        cells = buttons.nth(i).locator(".dist-cell")
        shown = {
            cells.nth(k).get_attribute("data-result"): float(cells.nth(k).get_attribute("data-p"))
            for k in range(cells.count())
        }
        assert shown == pytest.approx(expected["results"])
        assert sum(shown.values()) == pytest.approx(1.0)

    # clicking a counter shows its reach: the hexes the rules would let it move to
    own = page.locator("g.unit.counter.own").first
    unit = own.get_attribute("data-unit")
    own.click()
    page.wait_for_selector("polygon.reach-hex")
    reach = json.loads(seats.text(side, f"/sight?unit={unit}"))["lines"]
    assert page.locator("polygon.reach-hex").count() == len(reach) > 0
    assert "Reach this movement phase" in page.locator("#card").inner_text()
    page.screenshot(path=str(shots / "rhine-02-reach-and-attack-odds.png"))

    # make the best attack, then commit support in secret
    best = max(
        range(len(attacks)), key=lambda k: attacks[k]["odds"]["vacated"]
    )  # the page lists attacks in the order the server gives
    before = v["index"]
    page.locator("button.order.attack").nth(best).click()
    page.wait_for_function(
        f"() => /action {before + 1}\\b/.test(document.querySelector('#turn .hint').textContent)"
    )
    page.wait_for_selector("button.order.cs .dist")
    v2 = seats.view(side)
    options = [a["action"]["option"] for a in v2["actions"] if a["action"]["kind"] == "cs"]
    secret = max(options, key=len)
    assert secret != "none"
    seats.act(side, v2["index"], {"kind": "cs", "option": secret})
    page.wait_for_timeout(300)
    assert not errors, errors

    # the defender's page: support was committed, never what, anywhere the page can reach
    other = next(s for s in seats.by_side if s != side)
    guest = browser.new_context(viewport=VIEWPORT)
    theirs, their_errors = seats.open(guest, other)
    theirs.wait_for_selector("button.order.cs .dist")
    their_view = seats.view(other)
    assert their_view["your_turn"]
    assert any(c == {"side": side, "committed": True} for c in their_view["board"]["commitments"])
    index = their_view["index"]
    texts = [
        json.dumps(their_view),
        seats.text(other, f"/replay?at={index}"),
        seats.text(other, "/view?since=0"),
        seats.text(other, "/wait?index=-1&timeout=0"),
        theirs.content(),
    ]
    for text in texts:
        assert secret not in text, "the attacker's support reached the defender's page"
    head = theirs.locator("button.order.cs .odds-head").first.inner_text()
    assert "enemy's assumed none" in head
    theirs.screenshot(path=str(shots / "rhine-03-defender-support-choice.png"))
    assert not their_errors, their_errors
    guest.close()
    context.close()


def _has_move(side: str, v: dict[str, Any]) -> bool:
    return any(
        a["action"]["kind"] == "move" and a["action"].get("cell") not in (None, "exit")
        for a in v["actions"]
    )


def test_rhine_move_by_clicking_a_marked_hex(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    driver = context.new_page()
    seats = Seats(
        driver,
        live_server,
        {
            "ruleset": "rhine",
            "scenario": "kinzig-valley",
            "seed": 5,
            "players": {"pact": "here", "nato": "here"},
        },
    )
    seats.by_side = {"all": seats.game["seats"][0]}  # hot seat: one seat for both sides
    side, v = seats.drive(random.Random(2), _has_move)
    page, errors = seats.open(context, side)
    moves = [
        a["action"]
        for a in v["actions"]
        if a["action"]["kind"] == "move" and a["action"].get("cell") not in (None, "exit")
    ]
    on_map = {u["id"] for u in v["board"]["units"] if u.get("hex")}
    unit = next(m["unit"] for m in moves if m["unit"] in on_map)
    # a click selects the stack's top counter, each further click the next one in the stack
    hex_ = next(u["hex"] for u in v["board"]["units"] if u["id"] == unit)
    stack = v["board"]["stacks"][hex_]
    for _ in range(len(stack) + 1):
        if page.locator(f'g.unit.counter.selected[data-unit="{unit}"]').count():
            break
        page.locator(f'g.unit.counter[data-hex="{hex_}"]').last.click()
        page.wait_for_timeout(150)
    assert page.locator(f'g.unit.counter.selected[data-unit="{unit}"]').count() == 1
    page.wait_for_selector("circle.dest.move", state="attached")
    mine = [m for m in moves if m["unit"] == unit]
    assert page.locator("circle.dest.move").count() == len(mine)
    target = mine[-1]
    page.screenshot(path=str(shots / "rhine-04-legal-moves.png"))
    before = v["index"]
    page.locator(
        f'circle.dest.move.mode-{target["option"]}[data-hex="{target["cell"]}"]'
    ).dispatch_event("click")
    page.wait_for_function(
        f"() => /action {before + 1}\\b/.test(document.querySelector('#turn .hint').textContent)"
    )
    after = seats.view("all")["board"]
    (moved,) = [u for u in after["units"] if u["id"] == unit]
    assert moved["hex"] == target["cell"]
    assert "moves" in page.locator("#log").inner_text()
    assert not errors, errors
    context.close()
