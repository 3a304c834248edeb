"""The search player is refused up front for a ruleset it cannot play (issue 17: "generic over
the ruleset contract"): one that hides information but cannot re-sample it. The battle command's
agent factory and the web lobby both say so in one line instead of failing on the first move."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from umpire_tiny.ruleset import SIDES, Tiny

from umpire.agents.base import make_agent
from umpire.agents.search.support import why_not_searchable
from umpire.core.errors import UmpireError
from umpire.core.ruleset import RulesetBase, RulesetMeta, get_ruleset, register, unregister


class Blind(Tiny):
    """Tiny Skirmish with its re-sampling taken away (the base class's refusal)."""

    meta = RulesetMeta(
        id="blind",
        version="1",
        title="Tiny without resample (test)",
        players=SIDES,
        information="imperfect",
        max_turns=12,
        max_actions=400,
    )
    resample = RulesetBase.resample  # type: ignore[assignment]


@pytest.fixture
def blind() -> Iterator[str]:
    register("blind", f"{__name__}:Blind")
    yield "blind"
    unregister("blind")


def test_every_shipped_ruleset_can_be_searched() -> None:
    for ruleset_id in ("sevendays", "portable", "rhine", "bookgun", "tiny"):
        assert why_not_searchable(get_ruleset(ruleset_id)) is None, ruleset_id


def test_a_ruleset_that_cannot_resample_is_refused_by_name(blind: str) -> None:
    reason = why_not_searchable(get_ruleset(blind))
    assert reason is not None and "blind" in reason and "resample" in reason
    with pytest.raises(UmpireError, match="cannot play blind"):
        make_agent("search:cautious", blind, SIDES[0], 1)
    # the other agents still play it
    assert make_agent("random", blind, SIDES[0], 1) is not None


def test_the_lobby_refuses_it_before_the_game_starts(blind: str, tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from umpire.server.main import create_app

    scenario = get_ruleset(blind).scenario_ids()[0]
    with TestClient(create_app(tmp_path / "games.sqlite3", ai_delay=0.0)) as client:
        r = client.post(
            "/api/games",
            json={
                "ruleset": blind,
                "scenario": scenario,
                "seed": 1,
                "players": {SIDES[0]: "here", SIDES[1]: "search:balanced"},
            },
        )
        assert r.status_code == 400, r.text
        assert f"players.{SIDES[1]}: the search player cannot play blind" in r.json()["detail"]
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:  # nothing was created
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
