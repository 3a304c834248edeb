"""``core.collector.quiet_collector``, under which ``play_out`` plays (issue 19): the same games
whatever the collector does, and the caller's collector settings put back afterwards."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import umpire
import umpire.play
from umpire.agents import make_agent
from umpire.core import collector
from umpire.core.events import to_dicts
from umpire.play import play_out


@contextlib.contextmanager
def _busy_collector() -> Iterator[None]:
    """The collector running as often as it can (every allocation past the youngest's count),
    nothing frozen: the opposite of the quiet one."""
    before = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _played(game_id: str, agents: str, seed: int) -> tuple[list[Any], list[dict[str, Any]]]:
    game = umpire.new_game(game_id, seed=seed)
    sides = game.ruleset.meta.players
    ruleset = game.ruleset.meta.id
    players = {s: make_agent(agents, ruleset, s, seed) for s in sides}
    play_out(game, players, max_actions=160)
    return [a.to_dict() for a in game.record.actions], to_dicts(game.events)


@pytest.mark.parametrize(
    "game_id,agents,seed",
    [
        ("sevendays/meeting-engagement", "scripted", 4),
        ("sevendays/meeting-engagement", "random", 6),
        ("portable/crossroads", "scripted", 3),
    ],
)
def test_same_game_with_a_busy_and_a_quiet_collector(
    game_id: str, agents: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet = _played(game_id, agents, seed)
    with monkeypatch.context() as patch:
        patch.setattr(umpire.play, "quiet_collector", _busy_collector)
        busy = _played(game_id, agents, seed)
    assert len(quiet[0]) > 20  # a real game was played
    assert quiet == busy


def test_play_out_runs_under_the_quiet_collector_and_puts_settings_back() -> None:
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    seen: list[tuple[tuple[int, int, int], int]] = []

    class Spy:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def choose(self, view: Any, legal: Any) -> Any:
            seen.append((gc.get_threshold(), gc.get_freeze_count()))
            return self.inner.choose(view, legal)

    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    players = {s: Spy(make_agent("random", "sevendays", s, 1)) for s in ("nato", "pact")}
    play_out(game, players, max_actions=5)  # type: ignore[arg-type]
    assert len(seen) == 5
    assert all(t == (collector.YOUNG, *collector.OLDER) for t, _ in seen)
    if frozen == 0:  # what was loaded before play was frozen out of the collector's sight
        assert all(count > 0 for _, count in seen)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen


def test_a_caller_that_froze_or_collects_less_keeps_its_settings() -> None:
    before = gc.get_threshold()
    try:
        gc.freeze()
        gc.set_threshold(collector.YOUNG * 2, 5, 5)
        mine = gc.get_freeze_count()
        assert mine > 0
        with collector.quiet_collector():
            assert gc.get_threshold() == (collector.YOUNG * 2, 5, 5)
        assert gc.get_freeze_count() == mine  # the caller's frozen objects stay frozen
        assert gc.get_threshold() == (collector.YOUNG * 2, 5, 5)
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def test_nested_and_threaded_blocks_restore_once_the_last_one_ends() -> None:
    before = gc.get_threshold()
    inside = threading.Event()
    release = threading.Event()

    def other() -> None:
        with collector.quiet_collector():
            inside.set()
            release.wait(5)

    worker = threading.Thread(target=other)
    with collector.quiet_collector():
        worker.start()
        assert inside.wait(5)
        with collector.quiet_collector():
            assert gc.get_threshold()[0] == collector.YOUNG
    # this thread's blocks are over, the other thread's is still open: still quiet
    assert gc.get_threshold()[0] == collector.YOUNG
    release.set()
    worker.join(5)
    assert gc.get_threshold() == before
