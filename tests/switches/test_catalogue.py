"""The catalogue's switch data (issue 21): each switchable rule has its three-mode test here,
each fixed rule says why, and every ruleset that guards rules guards several."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.core.ruleset import get_ruleset, ruleset_ids
from umpire.core.switches import switchable

TESTS = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_switch_data_is_honest(ruleset: str) -> None:
    catalog = get_ruleset(ruleset).capabilities.catalog
    if catalog is None:
        pytest.skip(f"{ruleset} has no catalogue")
    entries = catalog().values()
    for entry in entries:
        if entry.switchable is False:
            assert entry.fixed_because, f"{entry.id}: a fixed rule says why"
        if switchable(entry):
            assert f'"{entry.id}"' in TESTS, f"{entry.id} has a switch but no test of its modes"
    guarded = [e.id for e in entries if switchable(e)]
    assert not guarded or len(guarded) >= 3, guarded


@pytest.mark.parametrize("ruleset", ["portable", "rhine", "sevendays"])
def test_turn_structure_and_victory_cannot_be_switched(ruleset: str) -> None:
    catalog = get_ruleset(ruleset).capabilities.catalog
    assert catalog is not None
    entries = catalog()
    fixed = {rule for rule, e in entries.items() if e.switchable is False}
    assert any(".victory." in rule or rule.endswith(".end") for rule in fixed)
    assert any("sequence" in rule or "initiative" in rule for rule in fixed)
