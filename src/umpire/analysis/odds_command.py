"""What ``umpire odds RULESET ...`` answers: the ruleset's odds capability, asked with the
values of the options it declares (:class:`umpire.core.ruleset.OddsCapability`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.core.ruleset import OddsCapability, capability, get_ruleset


def odds_answer(ruleset_id: str, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(JSON summary with float probabilities, lines for a person); ``values`` holds every
    declared option by key (its default where the user gave none)."""
    cap: OddsCapability = capability(get_ruleset(ruleset_id), "odds")
    return cap.answer(values)
