"""Fixed-seed fingerprints: eight scripted-vs-scripted games on each scenario, each reduced to
a SHA-256 of its actions, events and outcome. The digests were recorded from the code before
the speed work on move listing and the scripted player (commit a2735c4), and again when the
set-up note stopped printing the seed (the same games with every other event, action and
outcome identical, checked against the digests without the set-up note); they must not change
while speed work goes on: caching may make the game faster, never different. Print the current
digests with ``python -m tests.rhine.test_fingerprints`` (the test never writes them)."""

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
        "72172fdcc7d65a17",
        "17910244240600e8",
        "3ee7f76826431e35",
        "9a60ef97465b3f78",
        "f121812329302f22",
        "68e88de87ae5dc38",
        "db3c7411f8ffd034",
        "9112805c025d89ef",
    ],
    "kinzig-valley": [
        "9e430fc7ef097a0d",
        "8d358a2dbdaef920",
        "0fdd62778baa0e5f",
        "4be557243a859b2d",
        "8e83f8ad0cb36353",
        "d62df8c7eff727a4",
        "fe59d6e67d82c738",
        "8b9b6813b8b9907f",
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
