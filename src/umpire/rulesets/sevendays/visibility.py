"""Who may read an event about a unit (sevendays.scenario.hidden_deployment).

An event about a hidden unit is made, where it is made, visible to its owner only, with a
public stand-in that names the marker the enemy sees and nothing else. Views, logs and replays
then filter with :func:`umpire.core.events.seen_by`; nothing reads event texts to decide.
"""

from __future__ import annotations

from umpire.core.events import Event, note
from umpire.rulesets.sevendays.state import Unit


def about(unit: Unit, event: Event, public: str | None = None) -> Event:
    """``event`` as made about ``unit``: as it is when the unit is in the open; for its owner
    only while it is a hidden marker, the others reading ``public`` (a sentence naming only
    the marker) or nothing."""
    if not unit.hidden:
        return event
    stand_in = None
    if public is not None:
        stand_in = note(event.kind, public, event.rule, marker=unit.marker)
    return event.restricted((unit.side,), public=stand_in)


def label(unit: Unit) -> str:
    """How the enemy names ``unit``: its marker while hidden, else its name."""
    return str(unit.marker) if unit.hidden else unit.name
