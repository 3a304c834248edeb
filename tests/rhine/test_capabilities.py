"""Capabilities: odds from the play chance, terminal map, house rules, scripted agent."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.core.errors import DataFileError
from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET


def test_odds_combat_and_contests() -> None:
    odds = RULESET.capabilities.odds
    assert odds is not None
    data, lines = odds.answer({"attack": 6, "defence": 6, "drm": 0})
    assert data["column"] == "1:1" and data["exact"] == {
        "AR": "1/3",
        "NE": "1/6",
        "EX": "1/3",
        "DR1": "1/6",
    }
    data, _ = odds.answer({"contest": "air-night", "holder": "pact"})
    assert abs(data["pact"]["p"] - 0.680) < 0.0005
    with pytest.raises(ValueError):
        odds.answer({"attack": 1, "defence": 9})


def test_render_shows_typeable_ids_terrain_and_stacks() -> None:
    g = Game(RULESET, "autobahn-gap", 1)
    render = RULESET.capabilities.render
    assert render is not None
    text = render(g.state, "nato")
    assert "0204U" in text and "0605U" in text  # cities, with their ids
    assert "N-HS-W" in text and "Westburg" in text
    assert "minor river hexsides: 0601|0701" in text


def test_render_map_fits_an_80_column_terminal() -> None:
    """The tutorial map's 12 columns, odd columns on one line and even ones on the next,
    interleave: every map line fits 80 characters, and column 2 starts between 1 and 3."""
    g = Game(RULESET, "autobahn-gap", 1)
    render = RULESET.capabilities.render
    assert render is not None
    lines = render(g.state, "nato").splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("0101"))
    grid = lines[first : first + 20]  # 10 rows, two lines each
    assert all(len(line) <= 80 for line in grid)
    assert grid[0].index("0301") > grid[1].index("0201") > grid[0].index("0101")
    assert grid[1].index("0201") < grid[0].index("0301") < grid[1].index("0401")
    assert grid[-1].lstrip().startswith("0210") and "1210" in grid[-1]


def test_house_rules_file(tmp_path: Path) -> None:
    cap = RULESET.capabilities.house_rules
    assert cap is not None
    good = tmp_path / "crt.yaml"
    good.write_text("crt:\n  rows:\n    0: [DE, DE, DE, DE, DE, DE, DE, DE]\n")
    override = cap.load(good)
    g = Game(RULESET, "autobahn-gap", 1, {"house_rules": override})
    from umpire.rulesets.rhine.ruleset import world

    assert world(g.state).tables.crt.rows[0][0] == "DE"
    bad = tmp_path / "bad.yaml"
    bad.write_text("tec:\n  terrain:\n    clear: {cost: -1, drm: 0}\n")
    with pytest.raises(DataFileError, match="tec.terrain.clear.cost"):
        cap.load(bad)


def test_optional_rules_are_switches() -> None:
    from umpire.rulesets.rhine.ruleset import world

    on = Game(RULESET, "autobahn-gap", 1)
    off = Game(RULESET, "autobahn-gap", 1, {"heli_attrition": False, "ammunition": False})
    assert world(on.state).switches["heli_attrition"] and world(on.state).switches["ammunition"]
    assert not world(off.state).switches["heli_attrition"]
    assert not world(off.state).switches["ammunition"]


def test_scripted_agent_plays_from_its_view_only() -> None:
    factory = RULESET.capabilities.scripted
    assert factory is not None
    g = Game(RULESET, "kinzig-valley", 2)
    agents = {s: factory(s, 2) for s in RULESET.meta.players}
    for _ in range(60):
        side = g.to_act
        assert side is not None
        legal = g.legal_actions()
        action = agents[side].choose(g.view(side), legal)
        assert action in legal
        g.apply(action)
