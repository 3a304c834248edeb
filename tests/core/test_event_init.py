"""``Event.__init__`` sets its slots through their own setters (issue 19): the same fields as
set one by one, the reserved keys still refused, events still immutable."""

from __future__ import annotations

import pickle
from types import MappingProxyType
from typing import Any

import pytest

from umpire.core.events import Event, note, roll


@pytest.mark.parametrize("key", ["kind", "text", "rule"])
def test_reserved_keys_are_refused(key: str) -> None:
    data: dict[str, Any] = {key: "x"}
    with pytest.raises((TypeError, ValueError)):  # never a data key of the event
        Event("move", "a move", None, **data)


def test_fields_as_given() -> None:
    public = note("fire", "a marker fires", "r.1", marker="m1")
    event = Event("fire", "T-72 fires", "r.1", visible_to=["pact"], public=public, unit="u1")
    assert (event.kind, event.text, event.rule) == ("fire", "T-72 fires", "r.1")
    assert event.visible_to == frozenset({"pact"})
    assert event.public is public
    assert isinstance(event.data, MappingProxyType) and dict(event.data) == {"unit": "u1"}
    assert event.to_dict() == {
        "kind": "fire",
        "text": "T-72 fires",
        "rule": "r.1",
        "unit": "u1",
        "visible_to": ["pact"],
    }
    assert event.seen_by("nato") is public
    plain = note("pass", "NATO passes")
    assert plain.visible_to is None and plain.public is None and plain.rule is None
    assert dict(plain) == {"kind": "pass", "text": "NATO passes"}
    r = roll("r.2", "test", [4], 4, 3, True, unit="u2")
    assert r["dice"] == [4] and r["success"] is True and r.kind == "roll"


def test_immutable_and_picklable() -> None:
    event = note("move", "moves", "r.3", unit="u1")
    with pytest.raises(AttributeError):
        event.kind = "other"
    again = pickle.loads(pickle.dumps(event))
    assert again.to_dict() == event.to_dict()
    assert Event.from_dict(event.to_dict()).to_dict() == event.to_dict()
