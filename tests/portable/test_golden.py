"""Golden playthrough: one seeded scripted-vs-scripted battle, kept as a file. Regenerate with
``UMPIRE_UPDATE_GOLDEN=1 pytest tests/portable/test_golden.py`` when rules change on purpose."""

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

GOLDEN = Path(__file__).parent / "golden" / "village-attack-seed1.json"


def _digest(events: Sequence[Event]) -> str:
    """Events are immutable values now; their JSON form is what the golden file holds."""
    return hashlib.sha256(json.dumps(to_dicts(events), sort_keys=True).encode()).hexdigest()


def test_golden_playthrough_seed_1() -> None:
    game = umpire.new_game("portable/village-attack", seed=1)
    play_out(game, {s: make_agent("scripted", "portable", s, 1) for s in ("blue", "red")})
    data = {
        "record": game.record.to_dict(),
        "summary": summary(game),
        "events_sha256": _digest(game.events),
        "first_events": to_dicts(game.events[:12]),
    }
    if os.environ.get("UMPIRE_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    assert GOLDEN.exists(), f"{GOLDEN} is missing; write it on purpose with UMPIRE_UPDATE_GOLDEN=1"
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert data["summary"] == golden["summary"]
    assert data["first_events"] == golden["first_events"]
    assert data["events_sha256"] == golden["events_sha256"]
    replayed = umpire.replay(Record.from_dict(golden["record"]))
    assert _digest(replayed.events) == golden["events_sha256"]
