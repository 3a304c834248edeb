"""A decision on the clock runs with Python's cyclic garbage collector paused, so a full
collection (0.2-0.5 s measured in a Rhine game) cannot land inside the think time (issue 17:
p95 of decision time at most 1.1 x the budget); the collector is switched back on after it, and
a fixed playout budget (the tests') leaves it alone. No timed assertions: a fake clock."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from umpire.agents.search import SearchAgent, Settings
from umpire.core.actions import Action

from .test_search import FakeClock, Nim, Pile, _nim_view


class _Watched(Nim):
    """Nim that notes whether the collector was on at each ``apply`` the search makes."""

    def __init__(self) -> None:
        self.seen: list[bool] = []

    def apply(self, state: Pile, action: Action) -> Any:
        self.seen.append(gc.isenabled())
        return super().apply(state, action)


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.mark.parametrize("mode", ["tree", "improve"])
def test_on_the_clock_the_collector_is_paused_for_the_decision_only(
    collector_on: None, mode: str
) -> None:
    ruleset = _Watched()
    state = Pile(7)
    agent = SearchAgent("a", seed=1, think=1.0, clock=FakeClock(0.01), settings=Settings(mode=mode))
    agent.choose(_nim_view(ruleset, state), ruleset.legal_actions(state))
    assert ruleset.seen and not any(ruleset.seen)  # every playout ran with it paused
    assert gc.isenabled()  # and it is back on


def test_a_playout_budget_leaves_the_collector_alone(collector_on: None) -> None:
    ruleset = _Watched()
    state = Pile(7)
    agent = SearchAgent("a", seed=1, iterations=20)
    agent.choose(_nim_view(ruleset, state), ruleset.legal_actions(state))
    assert ruleset.seen and all(ruleset.seen)


def test_a_collector_the_caller_switched_off_stays_off() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        ruleset = _Watched()
        state = Pile(7)
        agent = SearchAgent("a", seed=1, think=1.0, clock=FakeClock(0.01))
        agent.choose(_nim_view(ruleset, state), ruleset.legal_actions(state))
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()
