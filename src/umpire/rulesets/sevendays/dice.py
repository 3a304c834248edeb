"""The d6 test that many rules share: roll, compare with a score, record why."""

from __future__ import annotations

from typing import Any

from umpire.core.chance import Test
from umpire.core.events import Event
from umpire.rulesets.sevendays.state import SevenDaysState


def d6_passes(die: int, need: int, six_passes: bool = False) -> bool:
    """A d6 test's verdict: ``need`` or more, or a natural 6 where that always passes."""
    return die >= need or (six_passes and die == 6)


def d6_chance(
    rule: str,
    need: int,
    what: str = "",
    outcomes: tuple[str, str] = ("passes", "fails"),
    *,
    six_passes: bool = False,
    **data: Any,
) -> Test:
    """The d6 test as one chance definition: sampled in play by :func:`d6_test`, enumerated
    exactly for odds (``d6_chance(rule, need).outcomes()``)."""

    def words(faces: tuple[int, ...], total: int, ok: bool) -> str:
        return f"{what}: d6 {faces[0]} need {need}+ -> {outcomes[0] if ok else outcomes[1]}"

    return Test(
        sides=6,
        need=need,
        rule=rule,
        auto_pass=frozenset({6}) if six_passes else frozenset(),
        text=words,
        data=data,
    )


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
    log: list[Event] = []
    result = d6_chance(rule, need, what, outcomes, six_passes=six_passes, **data).sample_result(
        state.rng, log
    )
    return result.success, result.faces[0], log[0]
