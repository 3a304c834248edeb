"""``umpire battle`` plays under the quiet collector (``umpire.core.collector``), as ``play_out``
does (issue 19: the terminal session's own play loop kept CPython's default collector, ~12 % of
a Rhine game's CPU): the settings are the quiet ones while the game is played, the caller's
again afterwards, and the game and its record are those played at the default settings."""

from __future__ import annotations

import contextlib
import gc
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import umpire.core.collector as collector
from umpire.cli import app
from umpire.terminal.session import Session


@pytest.fixture
def default_collector() -> Iterator[tuple[int, int, int]]:
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    try:
        yield gc.get_threshold()
    finally:
        gc.set_threshold(*before)
        if frozen:
            gc.freeze()


def battle(tmp_path: Path, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    record = tmp_path / f"{name}.json"
    args = ["battle", "rhine/autobahn-gap", "--seed", "4", "--json", "--record", str(record)]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout), json.loads(record.read_text())


def test_battle_is_played_under_the_quiet_collector_and_gives_the_same_game(
    tmp_path: Path, default_collector: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[tuple[int, int, int], int]] = []
    play = Session.play

    def noted(self: Session, *args: Any, **kwargs: Any) -> Any:
        seen.append((gc.get_threshold(), gc.get_freeze_count()))
        return play(self, *args, **kwargs)

    monkeypatch.setattr(Session, "play", noted)
    quiet = battle(tmp_path, "quiet")
    assert seen[0][0] == (collector.YOUNG, *collector.OLDER) and seen[0][1] > 0
    assert gc.get_threshold() == default_collector and gc.get_freeze_count() == 0
    monkeypatch.setattr(collector, "quiet_collector", contextlib.nullcontext)
    plain = battle(tmp_path, "plain")
    assert seen[1] == (default_collector, 0)
    assert quiet == plain
