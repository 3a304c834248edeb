"""The lobby's rule-switches field (issue 21, "Set per game by --rules FILE ... and in the web
lobby; stored in the record"): a YAML file of ``rule-id: mode`` or a mode picked per rule from
the ruleset's catalogue of switchable rules. A bad file is one line naming the field; the
switches are kept in the game's options (``umpire.core.switches.OPTION_KEY``) and the game's
rules page shows each rule's mode."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from umpire.core.game import Game  # noqa: E402
from umpire.core.ruleset import get_ruleset  # noqa: E402
from umpire.core.switches import OPTION_KEY, Mode, switches_in  # noqa: E402
from umpire.server.main import create_app  # noqa: E402
from umpire.server.store import Store  # noqa: E402

from .conftest import SIZES, LiveServer  # noqa: E402

HOT_SEAT = {"blue": "here", "red": "here"}


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, ai_delay=0.0)) as c:
        yield c


def create(client: TestClient, switches: Any) -> Any:
    body = {
        "ruleset": "portable",
        "scenario": "armoured-meeting",
        "players": HOT_SEAT,
        "seed": 2,
        "options": {OPTION_KEY: switches},
    }
    return client.post("/api/games", json=body)


def test_the_catalogue_of_switchable_rules(client: TestClient) -> None:
    listed = client.get("/api/rulesets/portable/switches").json()
    catalog = get_ruleset("portable").capabilities.catalog
    assert catalog is not None
    expected = [rule for rule, entry in catalog().items() if entry.switchable is True]
    assert [r["id"] for r in listed] == expected and "portable.fire.arc" in expected
    assert all(r["summary"] for r in listed)
    assert client.get("/api/rulesets/chess/switches").status_code == 404


@pytest.mark.parametrize(
    "switches",
    [
        {"portable.fire.arc": "off"},  # picked in the list
        {
            "name": "mine.yaml",
            "text": "portable.fire.*: off\nportable.fire.line_of_sight: enforce\n",
        },
    ],
)
def test_a_game_keeps_its_switches_and_its_rules_show_them(
    client: TestClient, db_path: Path, switches: Any
) -> None:
    made = create(client, switches)
    assert made.status_code == 200, made.text
    data = made.json()
    seat = data["seats"][0]
    # stored with the game (the record's options), read back as the game's switches
    row = Store(db_path).game(data["id"])
    assert row is not None
    kept = switches_in(row.options)
    assert kept.mode("portable.fire.arc") is Mode.OFF
    assert kept.mode("portable.move.stacking") is Mode.ENFORCE
    game = Game(get_ruleset("portable"), row.scenario, row.seed, row.options)
    assert game.record.options[OPTION_KEY] == row.options[OPTION_KEY]
    rules = client.get(f"/api/games/{data['id']}/seats/{seat['token']}/rules").json()
    modes = {r["id"]: r["mode"] for r in rules["rules"]}
    assert modes["portable.fire.arc"] == "off"
    assert modes["portable.activation.once"] == "enforce"
    assert modes["portable.turn.sequence"].startswith("enforce (")  # no switch: always enforced
    page = client.get(f"/rules/{data['id']}/{seat['token']}")
    assert page.status_code == 200
    assert re.search(r'data-rule="portable.fire.arc" class="mode-off"', page.text)
    # a wrong token opens no game's rules
    assert client.get(f"/api/games/{data['id']}/seats/nope/rules").status_code == 404


@pytest.mark.parametrize(
    ("switches", "says"),
    [
        ({"name": "r.yaml", "text": "portable.fire.arc: sometimes\n"}, "is not enforce, advise"),
        (
            {"name": "r.yaml", "text": "portable.fire.nothing: off\n"},
            "no rule portable.fire.nothing",
        ),
        ({"name": "r.yaml", "text": "portable.turn.sequence: off\n"}, "cannot be set to off"),
        ({"name": "r.yaml", "text": "portable.fire.arc: [off\n"}, "not valid YAML"),
        ({"name": "r.yaml", "text": "- just a list\n"}, "a mapping of rule-id: mode"),
        ({"portable.fire.arc": "never"}, "is not enforce, advise or off"),
        ({"portable.fire.arc": 3}, "rule-id: mode pairs"),
        ("off", "give a YAML file or rule-id: mode pairs"),
    ],
)
def test_a_bad_switches_file_is_one_line_naming_the_field(
    client: TestClient, switches: Any, says: str
) -> None:
    refused = create(client, switches)
    assert refused.status_code == 400, refused.text
    detail = refused.json()["detail"]
    assert detail.startswith("options.rule_switches"), detail
    assert says in detail and "\n" not in detail
    assert "/tmp" not in detail and "umpire-switches-" not in detail  # no server path


# -- in the browser -----------------------------------------------------------------------------
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_lobby_field_sets_a_switch_the_game_shows(
    browser: Any, live_server: LiveServer, shots: Path, tmp_path: Path, size: str
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    page.select_option("#ruleset", "portable")
    page.select_option("#scenario", "armoured-meeting")
    page.wait_for_selector('#switches select[data-rule="portable.fire.arc"]', state="attached")
    for side in ("blue", "red"):
        page.select_option(f"#side-{side}", "here")
    scroll = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert scroll <= width, f"the lobby scrolls sideways: {scroll} > {width}"
    for selector in ("#switches-box", "#switches .switch-row", "#switches input.switch-file"):
        found = page.locator(selector).first.bounding_box()
        assert found is not None and found["x"] >= 0, selector
        assert found["x"] + found["width"] <= width + 0.5, selector
    # a bad file: one line naming the field, and no game is made
    bad = tmp_path / "bad.yaml"
    bad.write_text("portable.fire.arc: sometimes\n", encoding="utf-8")
    page.set_input_files("#switches input.switch-file", str(bad))
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])")
    error = page.locator("#error").inner_text()
    assert error.startswith("options.rule_switches (bad.yaml): key portable.fire.arc: mode")
    assert "\n" not in error.strip()
    page.set_input_files("#switches input.switch-file", [])
    # picked in the list: the fire arc off
    page.select_option('#switches select[data-rule="portable.fire.arc"]', "off")
    page.screenshot(path=str(shots / f"lobby-switches-{size}.png"), full_page=True)
    page.click("#start")
    page.wait_for_url(re.compile(r"/play/"))
    play = page.url
    page.goto(play.replace("/play/", "/rules/"))
    row = page.locator('tr[data-rule="portable.fire.arc"]')
    assert row.locator("td").nth(1).inner_text() == "off"
    assert page.locator("#switches").inner_text() == "portable.fire.arc: off"
    scroll = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert scroll <= width, f"the rules page scrolls sideways: {scroll} > {width}"
    # the lobby's list of this browser's games links to the same page
    page.goto(live_server.url + "/")
    page.wait_for_selector("#games a.game-rules")
    href = page.locator("#games a.game-rules").first.get_attribute("href")
    assert href == play.replace(live_server.url, "").replace("/play/", "/rules/")
    assert not errors, errors
    context.close()
