"""Engine core: random stream, actions, records, registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from umpire.core.actions import Action
from umpire.core.errors import DataFileError, RecordMismatchError, UnknownRulesetError
from umpire.core.game import replay
from umpire.core.record import Record
from umpire.core.rng import RandomStream
from umpire.core.ruleset import get_ruleset, ruleset_ids, split_game_id


def test_random_stream_round_trips_mid_stream() -> None:
    stream = RandomStream(42)
    stream.dice(17, 10)
    saved = json.loads(json.dumps(stream.to_dict()))
    twin = RandomStream.from_dict(saved)
    assert twin.dice(50, 6) == stream.dice(50, 6)
    assert twin == stream


def test_same_seed_same_dice_and_clones_are_independent() -> None:
    a, b = RandomStream(7), RandomStream(7)
    assert a.dice(20, 10) == b.dice(20, 10)
    c = a.clone()
    assert c.d(6) == a.d(6)
    c.d(6)
    assert c != a


def test_action_round_trip_and_point_rounding() -> None:
    action = Action("move", unit="nato-x", point=(1.23456, 7.0))
    assert action.point == (1.23, 7.0)
    assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_record_errors_name_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "umpire-record/1", "ruleset": "sevendays"}))
    with pytest.raises(DataFileError, match=r"r\.json: field version: missing"):
        Record.load(path)
    path.write_text(json.dumps({"format": "chess-pgn"}))
    with pytest.raises(DataFileError, match="field format"):
        Record.load(path)
    with pytest.raises(DataFileError, match="file not found"):
        Record.load(tmp_path / "missing.json")


def test_record_for_another_version_is_refused() -> None:
    record = Record("sevendays", "0.0-old", "meeting-engagement", 1)
    with pytest.raises(RecordMismatchError, match="version 0.0-old"):
        replay(record)


def test_registry() -> None:
    assert "sevendays" in ruleset_ids()
    assert get_ruleset("sevendays").meta.players == ("nato", "pact")
    assert split_game_id("sevendays/capture") == ("sevendays", "capture")
    with pytest.raises(UnknownRulesetError):
        split_game_id("sevendays")
    assert "portable" in ruleset_ids()
    with pytest.raises(
        UnknownRulesetError, match="known rulesets: .*portable, .*sevendays"
    ) as info:
        get_ruleset("warhammer")
    assert str(info.value).endswith(", ".join(ruleset_ids()))


def test_tampered_record_names_the_action() -> None:
    record = Record("sevendays", get_ruleset("sevendays").meta.version, "meeting-engagement", 1)
    record.actions = [Action("fire", unit="nato-chieftain-1", target="pact-t64b-2")]
    with pytest.raises(RecordMismatchError, match=r"actions\.0: .* is illegal there"):
        replay(record)
