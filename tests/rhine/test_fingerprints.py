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
        "4b30d61007c6dcc6",
        "daac8c2afcae2cce",
        "103b97f127210828",
        "543e72e45f0ed8ab",
        "32c5001429128ece",
        "cd242e52696d104a",
        "3f18280e353ad661",
        "7a5e135397bcc091",
    ],
    "kinzig-valley": [
        "d757122cec2d7a0f",
        "d589b880b434ce50",
        "05bed4cc17d8f894",
        "232d3951bf8d99a0",
        "d8037bd94ca871c9",
        "f0601bdb02d23695",
        "c7f5259cc10cad54",
        "2fcfcac38245abed",
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
