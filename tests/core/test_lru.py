"""The rulesets keep their per-scenario worlds in a bounded least-recently-used map, so a
long-running process (the web table, a simulate worker) that sees many distinct house-rules
files does not grow for ever; an evicted world is rebuilt the same."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from umpire.core.lru import WORLDS_KEPT, LruMap
from umpire.core.ruleset import get_ruleset


def test_the_least_recently_used_value_goes_first() -> None:
    made: list[str] = []
    kept: LruMap[str, str] = LruMap(2)

    def make(key: str) -> str:
        made.append(key)
        return key.upper()

    assert kept.get_or_make("a", lambda: make("a")) == "A"
    assert kept.get_or_make("b", lambda: make("b")) == "B"
    assert kept.get_or_make("a", lambda: make("a")) == "A"  # kept: a is now the newest
    kept.get_or_make("c", lambda: make("c"))  # b goes
    assert len(kept) == 2
    kept.get_or_make("a", lambda: make("a"))
    kept.get_or_make("b", lambda: make("b"))
    assert made == ["a", "b", "c", "b"]
    with pytest.raises(ValueError):
        LruMap(0)


def test_seven_days_keeps_a_bounded_number_of_worlds() -> None:
    ruleset = get_ruleset("sevendays")
    first = ruleset.new_state("meeting-engagement", 1, {}).units
    for n in range(WORLDS_KEPT + 4):  # as many distinct house-rules files as a server may see
        ruleset.new_state("meeting-engagement", 1, {"house_rules": {"proximity": 1.0 + n / 64}})
    assert len(ruleset._worlds) <= WORLDS_KEPT  # type: ignore[attr-defined]
    again = ruleset.new_state("meeting-engagement", 1, {}).units  # rebuilt if evicted: the same
    assert {k: asdict(u) for k, u in again.items()} == {k: asdict(u) for k, u in first.items()}


def test_book_and_gun_keys_a_scenario_file_by_its_content() -> None:
    from umpire.rulesets.bookgun.scenario import SCENARIOS, load_scenario_file
    from umpire.rulesets.bookgun.world import world_for

    one = load_scenario_file(SCENARIOS / "market-day.yaml")
    two = load_scenario_file(SCENARIOS / "market-day.yaml")
    assert one is not two
    assert world_for(one, None) is world_for(two, None)  # equal files share a world
