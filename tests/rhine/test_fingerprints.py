"""Fixed-seed fingerprints: eight scripted-vs-scripted games on each scenario, each reduced to
a SHA-256 of its actions, events and outcome. The digests were recorded from the code before
the speed work on move listing and the scripted player (commit a2735c4), and again when the
set-up note stopped printing the seed (the same games with every other event, action and
outcome identical, checked against the digests without the set-up note), and when the victory
thresholds were retuned for ruleset 0.3 (every action and every event but the victory note
identical, checked with the victory note left out; only the level reached changed), and for
ruleset 0.4 (the set-up phase and the owner's choice of the artillery marker lost to attrition:
with the new set-up and attrition-choice actions and their events left out, and the word
"; <side>'s choice" taken out of the attrition notes, all sixteen games hash to the 0.3
digests, i.e. every other action, event and outcome is identical), and when Kinzig Valley's
thresholds went to 30 / 29 (only seed 11's victory note and outcome changed); they must not
change while speed work goes on: caching may make the game faster, never different. Print
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
        "6a9bfe63f5a89dd7",
        "62e788478bc75b4a",
        "204fe553cd99230f",
        "32451cd487d75467",
        "d1471de08bf5db4c",
        "5f553733b07ad7ba",
        "bcd2c9421f917dee",
        "bf5ac5d565c8d37a",
    ],
    "kinzig-valley": [
        "4e563a862e635683",
        "221173c0d3705f7a",
        "d0a0474d9903b846",
        "8499fd74114eaeb3",
        "36a167efd6951dc2",
        "4b78ffc925d64f78",
        "2dbf75393416cbda",
        "2755e758abe132ae",
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
