"""Events: what happened, as plain data.

Every roll is an event carrying the dice, the result, the number it needed and the id of the rule
that asked for it, so a player can always ask "why?" and a replay can be compared event by event.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def note(kind: str, text: str, rule: str | None = None, **data: Any) -> Event:
    """A non-random event (a move, a marker placed, a unit removed...)."""
    event: Event = {"kind": kind, "text": text}
    if rule is not None:
        event["rule"] = rule
    if data:
        event.update(data)
    return event


def roll(
    rule: str,
    text: str,
    dice: list[int],
    result: int,
    need: int | None,
    success: bool,
    **data: Any,
) -> Event:
    """A die roll: the dice, the result used, the target number and whether it succeeded."""
    event: Event = {
        "kind": "roll",
        "rule": rule,
        "text": text,
        "dice": dice,
        "result": result,
        "need": need,
        "success": success,
    }
    if data:
        event.update(data)
    return event
