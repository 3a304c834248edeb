"""The web table's garbage collector as ``umpire serve`` runs it (issue 19): while the app runs,
what was loaded at start-up (every ruleset the lobby lists) is frozen and the young generation
is collected every ``umpire.core.collector.YOUNG`` allocations; when the app stops, the
process's own settings are back. Games played over it are the games played elsewhere."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from umpire.core import collector  # noqa: E402
from umpire.core.game import new_game  # noqa: E402
from umpire.server import main  # noqa: E402
from umpire.server.main import create_app  # noqa: E402


@pytest.fixture
def plain_collector() -> Iterator[tuple[int, int, int]]:
    """CPython's default thresholds and nothing frozen, whatever the test process set."""
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    try:
        yield gc.get_threshold()
    finally:
        gc.set_threshold(*before)
        if frozen:
            gc.freeze()


def test_serve_sets_the_collector_for_the_apps_life_and_puts_it_back(
    tmp_path: Path, plain_collector: tuple[int, int, int]
) -> None:
    loaded: list[bool] = []
    settle = main.settle_collector

    def noted(service: object) -> None:
        settle(service)  # type: ignore[arg-type]
        loaded.append(True)

    main.settle_collector = noted  # type: ignore[assignment]
    try:
        with TestClient(create_app(tmp_path / "g.sqlite3", collector=True)) as client:
            assert loaded == [True]
            assert gc.get_threshold() == (collector.YOUNG, *collector.OLDER)
            assert gc.get_freeze_count() > 0
            assert client.get("/api/rulesets").status_code == 200
    finally:
        main.settle_collector = settle  # type: ignore[assignment]
    assert gc.get_threshold() == plain_collector
    assert gc.get_freeze_count() == 0


def test_an_app_made_without_it_leaves_the_collector_alone(
    tmp_path: Path, plain_collector: tuple[int, int, int]
) -> None:
    with TestClient(create_app(tmp_path / "g.sqlite3")) as client:
        assert gc.get_threshold() == plain_collector
        assert gc.get_freeze_count() == 0
        assert client.get("/api/rulesets").status_code == 200


def test_a_game_played_over_the_app_is_the_game_played_alone(
    tmp_path: Path, plain_collector: tuple[int, int, int]
) -> None:
    alone = new_game("portable/crossroads", seed=5)
    with TestClient(create_app(tmp_path / "g.sqlite3", collector=True)) as client:
        made = client.post(
            "/api/games",
            json={
                "ruleset": "portable",
                "scenario": "crossroads",
                "seed": 5,
                "players": {"blue": "remote", "red": "remote"},
            },
        ).json()
        seats = {s["sides"][0]: s for s in made["seats"]}
        for step in range(40):
            side = alone.to_act
            if side is None:
                break
            base = f"/api/games/{made['id']}/seats/{seats[side]['token']}"
            view = client.get(base + "/view").json()
            assert view["to_act"] == side
            legal = alone.legal_actions()
            assert [a["action"] for a in view["actions"]] == [a.to_dict() for a in legal]
            action = legal[step % len(legal)]
            got = client.post(base + "/actions", json={"index": step, "action": action.to_dict()})
            assert got.status_code == 200, got.text
            events = alone.apply(action)
            assert got.json()["to_act"] == alone.to_act
            assert len(got.json()["events"]) <= len(events)


def test_the_ai_worker_chooses_under_the_quiet_collector_and_puts_it_back(
    plain_collector: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from umpire.server import ai_worker

    seen: list[tuple[int, int, int]] = []
    start = ai_worker._start

    def noted(move: ai_worker.Move) -> object:
        seen.append(gc.get_threshold())
        return start(move)

    monkeypatch.setattr(ai_worker, "_start", noted)
    players = {"nato": "ai", "pact": "ai"}
    game = new_game("sevendays/meeting-engagement", seed=8)
    assert game.to_act is not None
    move = ai_worker.Move(
        "collector-test", 1, "sevendays", "meeting-engagement", 8, {}, players, (), game.to_act
    )
    raw, _why = ai_worker.choose(move)
    assert seen == [(collector.YOUNG, *collector.OLDER)]
    assert gc.get_threshold() == plain_collector and gc.get_freeze_count() == 0
    monkeypatch.setattr(ai_worker, "quiet_collector", contextlib.nullcontext)
    again = ai_worker.Move(
        "collector-test", 2, "sevendays", "meeting-engagement", 8, {}, players, (), game.to_act
    )
    assert ai_worker.choose(again)[0] == raw  # the same move at the default settings
    assert seen[1] == plain_collector
