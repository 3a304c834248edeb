"""Fixed-seed fingerprints: eight scripted-vs-scripted games on each scenario, each reduced to
a SHA-256 of its actions, events and outcome. The digests were recorded from the code before
the speed work on move listing and the scripted player (commit a2735c4), and again when the
set-up note stopped printing the seed (the same games with every other event, action and
outcome identical, checked against the digests without the set-up note), and when the victory
thresholds were retuned for ruleset 0.3 (every action and every event but the victory note
identical, checked with the victory note left out; only the level reached changed); they must
not change while speed work goes on: caching may make the game faster, never different. Print
the current digests with ``python -m tests.rhine.test_fingerprints`` (the test never writes
them)."""

from __future__ import annotations

import hashlib
import json

import pytest

from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine.agent import RhineScripted

SEEDS = range(11, 19)

EXPECTED: dict[str, list[str]] = {
    "autobahn-gap": [
        "4a1547e8e7c52ca4",
        "363ed7a6571a41d6",
        "954d7ead2cc56645",
        "9a60ef97465b3f78",
        "66f53235f1c18317",
        "68e88de87ae5dc38",
        "db3c7411f8ffd034",
        "9112805c025d89ef",
    ],
    "kinzig-valley": [
        "6ca0f45005d352cc",
        "efddb38f4ccf37af",
        "0137eb8e10e6813a",
        "9047526eb30c3437",
        "8e83f8ad0cb36353",
        "5eadd82aa2916fcc",
        "fe59d6e67d82c738",
        "beee0b91b2d86514",
    ],
}


def fingerprint(scenario: str, seed: int) -> str:
    game = Game(RULESET, scenario, seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    while not game.is_over:
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    outcome = game.outcome
    assert outcome is not None
    record = {
        "actions": [a.to_dict() for a in game.record.actions],
        "events": [e.to_dict() for e in game.events],
        "outcome": [outcome.winner, outcome.how],
    }
    text = json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("scenario", ["autobahn-gap", "kinzig-valley"])
def test_fixed_seed_fingerprints(scenario: str) -> None:
    got = [fingerprint(scenario, s) for s in SEEDS]
    assert got == EXPECTED[scenario]


if __name__ == "__main__":
    for sc in ("autobahn-gap", "kinzig-valley"):
        print(f'    "{sc}": {[fingerprint(sc, s) for s in SEEDS]!r},')
