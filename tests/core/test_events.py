"""core/events.py: immutable events, visibility with public stand-ins, plain-data forms."""

from __future__ import annotations

import json
import pickle

import pytest

from umpire.core.events import Event, as_event, note, roll, seen_by, to_dicts


def test_events_are_immutable_read_only_mappings() -> None:
    event = note("move", "a tank moves", "t.move", unit="u1")
    with pytest.raises(AttributeError):
        event.text = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        event["kind"] = "x"  # type: ignore[index]
    assert event["kind"] == "move" and event.get("unit") == "u1" and event.get("dice") is None
    assert dict(event) == {"kind": "move", "text": "a tank moves", "rule": "t.move", "unit": "u1"}


def test_seen_by_follows_public_stand_ins() -> None:
    to_all = note("secret", "something happens out of sight")
    to_b = note("marker", "marker-3 moves", visible_to=("b",), public=to_all)
    event = note("move", "u1 moves to the wood", visible_to=("a",), public=to_b)
    assert event.seen_by("a") is event
    assert event.seen_by("b") is to_b
    assert event.seen_by("c") is to_all
    assert event.seen_by(None) is event
    private = note("hand", "a holds the ace", visible_to=("a",))
    assert seen_by([event, private], "c") == [to_all]
    assert seen_by([event, private], "a") == [event, private]
    assert seen_by([event, private], None) == [event, private]


def test_restricted_narrows_and_leaves_the_original_alone() -> None:
    stand_in = note("x", "something")
    event = note("x", "exact", visible_to=("a", "b"))
    narrow = event.restricted(("b", "c"), public=stand_in)
    assert narrow.visible_to == frozenset({"b"})
    assert narrow.public is stand_in
    assert event.visible_to == frozenset({"a", "b"}) and event.public is None
    assert note("x", "open").restricted(("a",)).visible_to == frozenset({"a"})


def test_json_round_trip() -> None:
    event = roll("t.hit", "d6 [5]", [5], 5, 4, True, visible_to=("b", "a"), unit="u1")
    data = json.loads(json.dumps(event.to_dict()))
    assert data["visible_to"] == ["a", "b"]
    back = Event.from_dict(data)
    assert back == event and back.visible_to == event.visible_to
    assert as_event(data) == event and as_event(event) is event
    assert to_dicts([event]) == [event.to_dict()]
    assert "visible_to" not in note("x", "open").to_dict()


def test_pickling_keeps_visibility_and_stand_in() -> None:
    event = note("x", "exact", "t.r", visible_to=("a",), public=note("x", "vague"), n=[1, 2])
    back = pickle.loads(pickle.dumps(event))
    assert back == event
    assert back.visible_to == frozenset({"a"})
    assert back.public is not None and back.public.text == "vague"
    assert back.seen_by("b") == note("x", "vague")
