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
        "fef3f7909e1f0da4",
        "96db61775183437c",
        "49d20498ce6497bd",
        "149565191cfbcbd2",
        "c8d6d86476f71a13",
        "67a4e7da43c22ee5",
        "6c19738de727c41f",
        "a4db0905ceb6ce64",
    ],
    "kinzig-valley": [
        "aa24e618a13ac389",
        "44bbee8e72cc4232",
        "fd07398aba1171f1",
        "036f5c4e783f877a",
        "95d03c1712eb66a3",
        "f820d784e5eabe06",
        "0c1643a2f6b85611",
        "3d76869b8bc60aaa",
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
