"""Golden playthrough of Convoy Ambush: one seeded scripted-vs-scripted game kept as a file and
compared event by event (every side's secrets included), then replayed from its stored record.

The file is written only on request: when a change to the rules' behaviour is intended,
regenerate it with ``UMPIRE_UPDATE_GOLDEN=1 pytest tests/bookgun/test_golden.py`` and review the
diff. A missing file is a failure, never a silent rewrite.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import umpire
from umpire.core.events import to_dicts
from umpire.core.game import Game
from umpire.core.record import Record
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.agent import BookGunScripted

SCENARIO, SEED = "convoy-ambush", 1
GOLDEN = Path(__file__).parent / "golden" / f"{SCENARIO}-seed{SEED}.json"


def _play() -> Game:
    game = Game(RULESET, SCENARIO, SEED)
    agents = {side: BookGunScripted(side, SEED) for side in RULESET.meta.players}
    for _ in range(20000):
        if game.is_over:
            break
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    assert game.is_over, "the scripted game did not finish"
    return game


def _normal(data: Any) -> Any:
    """As it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(data, sort_keys=True))


def _data(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = _normal(
        {
            "scenario": SCENARIO,
            "seed": SEED,
            "over": game.state.over,
            "record": game.record.to_dict(),
            "events": to_dicts(game.events),
        }
    )
    return data


@pytest.fixture(scope="module")
def played() -> Game:
    return _play()


def _golden(played: Game) -> dict[str, Any]:
    if os.environ.get("UMPIRE_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(_data(played), indent=0, sort_keys=True) + "\n")
    if not GOLDEN.exists():
        pytest.fail(f"{GOLDEN} is missing; create it on purpose with UMPIRE_UPDATE_GOLDEN=1")
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_golden_events_match_one_by_one(played: Game) -> None:
    golden = _golden(played)
    now = _data(played)["events"]
    then = golden["events"]
    for i, (a, b) in enumerate(zip(now, then, strict=False)):
        assert a == b, f"event {i} differs from the golden playthrough:\n now: {a}\n was: {b}"
    assert len(now) == len(then), f"{len(now)} events now, {len(then)} in the golden file"
    assert _data(played)["over"] == golden["over"]


def test_golden_game_uses_the_ied_and_the_reinforcement(played: Game) -> None:
    """bookgun.scenario.ied / bookgun.scenario.reinforce happen in the kept game."""
    rules = [e.get("rule") for e in _golden(played)["events"]]
    kinds = [e.get("kind") for e in _golden(played)["events"]]
    assert "bookgun.scenario.reinforce" in rules and "arrives" in kinds
    assert kinds.count("ied") >= 2  # the secret burial and the explosion


def test_golden_record_replays_without_agents(played: Game) -> None:
    golden = _golden(played)
    replayed = umpire.replay(Record.from_dict(golden["record"]))
    assert _normal(to_dicts(replayed.events)) == golden["events"]
