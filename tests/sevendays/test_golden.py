"""Golden playthrough: one seeded scripted-vs-scripted battle, kept as a file.

Any change to the rules' behaviour shows up here as a changed event stream. When a change is
intended, bump the ruleset version if records are affected and regenerate with
``UMPIRE_UPDATE_GOLDEN=1 pytest tests/sevendays/test_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

import umpire
from umpire.agents import make_agent
from umpire.core.events import Event, to_dicts
from umpire.core.record import Record
from umpire.play import play_out, summary

GOLDEN = Path(__file__).parent / "golden" / "meeting-engagement-seed1.json"


def _digest(events: Sequence[Event]) -> str:
    """The umpire's full event stream (every side's secrets included), hashed."""
    return _hash(to_dicts(events))


def _hash(events: list[dict[str, object]]) -> str:
    return hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()


def _play() -> umpire.Game:
    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    players = {s: make_agent("scripted", "sevendays", s, 1) for s in ("nato", "pact")}
    return play_out(game, players)


def test_golden_playthrough_seed_1() -> None:
    game = _play()
    data = {
        "record": game.record.to_dict(),
        "summary": summary(game),
        "events_sha256": _digest(game.events),
        "first_events": to_dicts(game.events[:12]),
    }
    if os.environ.get("UMPIRE_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    assert GOLDEN.exists(), f"{GOLDEN} is missing; write it on purpose with UMPIRE_UPDATE_GOLDEN=1"
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert data["summary"] == golden["summary"]
    assert data["first_events"] == golden["first_events"]
    assert data["events_sha256"] == golden["events_sha256"]
    # the stored record replays to the same events without any agent
    replayed = umpire.replay(Record.from_dict(golden["record"]))
    assert _digest(replayed.events) == golden["events_sha256"]
