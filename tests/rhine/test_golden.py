"""A golden playthrough: scripted vs scripted on Autobahn Gap, seed 7, compared event by event
with the record written once from a run (tests/rhine/data/golden_autobahn_gap.json). The file
is never written by this test: when it is missing the test fails. Regenerate deliberately with
``python -m tests.rhine.test_golden`` after a rules change, and say so in the commit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine.agent import RhineScripted

GOLDEN = Path(__file__).parent / "data" / "golden_autobahn_gap.json"
SEED = 7


def playthrough() -> dict[str, Any]:
    game = Game(RULESET, "autobahn-gap", SEED)
    agents = {s: RhineScripted(s, SEED) for s in RULESET.meta.players}
    while not game.is_over:
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    outcome = game.outcome
    assert outcome is not None
    return {
        "version": RULESET.meta.version,
        "actions": [a.to_dict() for a in game.record.actions],
        "events": [e.to_dict() for e in game.events],
        "outcome": {"winner": outcome.winner, "how": outcome.how},
    }


def test_golden_playthrough() -> None:
    assert GOLDEN.exists(), f"{GOLDEN} is missing; it is written on purpose, never by the test"
    expected = json.loads(GOLDEN.read_text())
    got = json.loads(json.dumps(playthrough()))
    assert got["version"] == expected["version"]
    assert got["actions"] == expected["actions"]
    for k, (a, b) in enumerate(zip(got["events"], expected["events"], strict=False)):
        assert a == b, f"event {k} differs"
    assert len(got["events"]) == len(expected["events"])
    assert got["outcome"] == expected["outcome"]


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(playthrough(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {GOLDEN}")
