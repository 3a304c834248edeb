"""The ruleset registry: entry points discovered, one-line errors for an unknown id or a broken
registration, capabilities asked for by name, lazy references."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import entry_points

import pytest

from umpire.core.errors import UmpireError, UnknownRulesetError
from umpire.core.lazy import Lazy
from umpire.core.ruleset import (
    ENTRY_POINT_GROUP,
    capability,
    get_ruleset,
    register,
    ruleset_ids,
    unregister,
)


@pytest.fixture
def scratch() -> Iterator[list[str]]:
    """Ids registered by a test, unregistered after it."""
    ids: list[str] = []
    yield ids
    for rid in ids:
        unregister(rid)


def test_entry_points_are_discovered() -> None:
    declared = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    assert declared["tiny"] == "umpire_tiny:RULESET"
    assert {"sevendays", "portable", "tiny"} <= set(ruleset_ids())
    import umpire_tiny

    assert get_ruleset("tiny") is umpire_tiny.RULESET
    assert get_ruleset("tiny").meta.players == ("red", "blue")


def test_an_unknown_id_is_a_one_line_error_naming_the_known_ones() -> None:
    with pytest.raises(UnknownRulesetError) as info:
        get_ruleset("warhammer")
    message = str(info.value)
    assert "\n" not in message
    assert "'warhammer'" in message and "tiny" in message and "sevendays" in message


@pytest.mark.parametrize(
    "target",
    ["umpire_no_such_package.rules:RULESET", "umpire_tiny:NO_SUCH_NAME"],
)
def test_a_broken_registration_is_a_one_line_error(scratch: list[str], target: str) -> None:
    register("broken", target)
    scratch.append("broken")
    assert "broken" in ruleset_ids()
    with pytest.raises(UnknownRulesetError) as info:
        get_ruleset("broken")
    message = str(info.value)
    assert "\n" not in message
    assert target in message and "cannot be loaded" in message
    assert get_ruleset("tiny").meta.id == "tiny"  # the others still load


def test_run_time_registration_of_a_class(scratch: list[str]) -> None:
    register("tiny-again", "umpire_tiny:Tiny")
    scratch.append("tiny-again")
    again = get_ruleset("tiny-again")
    assert again is not get_ruleset("tiny") and again.meta.id == "tiny"
    assert get_ruleset("tiny-again") is again  # loaded once
    unregister("tiny-again")
    assert "tiny-again" not in ruleset_ids()


def test_a_missing_capability_is_a_one_line_error_naming_the_ruleset() -> None:
    tiny = get_ruleset("tiny")
    with pytest.raises(UmpireError, match=r"^tiny has no .*board") as info:
        capability(tiny, "board")
    assert "\n" not in str(info.value)
    assert capability(tiny, "catalog")() is not None


def test_lazy_imports_on_first_use() -> None:
    ref = Lazy("umpire_tiny.agent:TinyScripted")
    assert repr(ref) == "Lazy('umpire_tiny.agent:TinyScripted')"
    agent = ref("red", 3)
    assert agent.name == "scripted" and ref.resolve().__name__ == "TinyScripted"
