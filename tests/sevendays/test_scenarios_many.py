"""Every Seven Days scenario plays to a result AI-vs-AI for 100 seeds without an error."""

from __future__ import annotations

import pytest

from umpire.analysis.simulate import Job, run_local
from umpire.core.ruleset import get_ruleset


@pytest.mark.parametrize("scenario", get_ruleset("sevendays").scenario_ids())
def test_hundred_seeds_play_to_a_result(scenario: str) -> None:
    rows = run_local(Job(f"sevendays/{scenario}", n=100, seed=2026), workers=2)
    assert len(rows) == 100
    assert all(r["winner"] in ("nato", "pact", "draw") and r["how"] for r in rows)
