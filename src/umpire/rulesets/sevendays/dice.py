"""The d6 test that many rules share: roll, compare with a score, record why."""

from __future__ import annotations

from typing import Any

from umpire.core.events import Event, roll
from umpire.rulesets.sevendays.state import SevenDaysState


def d6_passes(die: int, need: int, six_passes: bool = False) -> bool:
    """A d6 test's verdict: ``need`` or more, or a natural 6 where that always passes."""
    return die >= need or (six_passes and die == 6)


def d6_test(
    state: SevenDaysState,
    rule: str,
    need: int,
    what: str,
    outcomes: tuple[str, str],
    *,
    six_passes: bool = False,
    **data: Any,
) -> tuple[bool, int, Event]:
    """Roll a d6 needing ``need``+ (a natural 6 always passes when ``six_passes``).

    ``what`` starts the event text, ``outcomes`` words success and failure."""
    die = state.rng.d(6)
    ok = d6_passes(die, need, six_passes)
    text = f"{what}: d6 {die} need {need}+ -> {outcomes[0] if ok else outcomes[1]}"
    return ok, die, roll(rule, text, [die], die, need, ok, **data)
