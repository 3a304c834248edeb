"""core/chance.py: exact odds against hand-computed values, sampling against the exact odds, and
the stream read in the order the definition rolls."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction as F
from typing import Any

import pytest

from umpire.core.chance import (
    Chance,
    CountAtLeast,
    Draw,
    Fixed,
    Modifier,
    Opposed,
    Roll,
    TableLookup,
    repeat,
)
from umpire.core.chance import (
    Test as DiceTest,
)
from umpire.core.events import Event
from umpire.core.rng import RandomStream


class ScriptedStream:
    """A stream that hands out given faces and records every call, in order."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)
        self.calls: list[tuple[str, int, int]] = []

    def d(self, sides: int) -> int:
        self.calls.append(("d", 1, sides))
        return self.faces.pop(0)

    def dice(self, count: int, sides: int) -> list[int]:
        self.calls.append(("dice", count, sides))
        out, self.faces = self.faces[:count], self.faces[count:]
        return out

    def choice_index(self, n: int) -> int:
        self.calls.append(("choice", 1, n))
        return self.faces.pop(0)


# -- exact odds, computed by hand --------------------------------------------------------------
def test_d10_needing_6_is_even() -> None:
    assert DiceTest(10, 6, "t.hit").outcomes() == {True: F(1, 2), False: F(1, 2)}


def test_2d10_keep_highest_needing_8() -> None:
    # fails only when both dice show 1..7: 1 - (7/10)^2
    assert DiceTest(10, 8, "t.hit", count=2).probability(bool) == F(51, 100)


def test_keep_lowest_and_sum() -> None:
    assert DiceTest(6, 4, "t.x", count=2, keep="lowest").probability(bool) == F(1, 4)
    assert DiceTest(6, 7, "t.x", count=2, keep="sum").probability(bool) == F(21, 36)


def test_modifiers_and_natural_faces() -> None:
    minus_one = DiceTest(6, 4, "t.x", modifiers=(Modifier("t.moved", -1, "moved"),))
    assert minus_one.probability(bool) == F(1, 3)
    assert minus_one.net_modifier == -1
    # -3 would need a natural 7; a natural 6 always passes
    assert DiceTest(
        6, 4, "t.x", modifiers=(Modifier("t.m", -3, "m"),), auto_pass=frozenset({6})
    ).probability(bool) == F(1, 6)
    # +5 would pass everything; a natural 1 always fails
    assert DiceTest(
        6, 4, "t.x", modifiers=(Modifier("t.m", 5, "m"),), auto_fail=frozenset({1})
    ).probability(bool) == F(5, 6)


def test_count_at_least_is_binomial() -> None:
    hits = CountAtLeast(3, 6, 5, "t.hits").outcomes()
    assert hits == {0: F(8, 27), 1: F(12, 27), 2: F(6, 27), 3: F(1, 27)}


def test_table_lookup_clamps_to_the_first_and_last_rows() -> None:
    row = {1: "a", 2: "b", 3: "c", 4: "d", 5: "e", 6: "f"}
    low = TableLookup(6, row, "t.table", drm=-2, low=1).outcomes()
    assert low == {"a": F(1, 2), "b": F(1, 6), "c": F(1, 6), "d": F(1, 6)}
    high = TableLookup(6, row, "t.table", drm=3, high=6).outcomes()
    assert high == {"d": F(1, 6), "e": F(1, 6), "f": F(2, 3)}
    assert TableLookup(6, lambda v: v * 10, "t.table", count=2).outcomes()[70] == F(6, 36)


def test_opposed_is_the_difference() -> None:
    die = Roll(1, 6).map(sum)
    diff = Opposed(die, die).outcomes()
    assert diff[0] == F(1, 6)
    assert diff[5] == diff[-5] == F(1, 36)
    assert sum(diff.values()) == 1


def test_draw_weighs_duplicates() -> None:
    assert Draw(["a", "a", "b"], "t.draw").outcomes() == {"a": F(2, 3), "b": F(1, 3)}


def test_then_and_repeat_and_fixed() -> None:
    hit = DiceTest(6, 4, "t.hit")
    damage = hit.then(lambda ok: CountAtLeast(1, 6, 5, "t.dmg") if ok else Fixed(0))
    assert damage.outcomes() == {1: F(1, 6), 0: F(5, 6)}
    three = repeat(CountAtLeast(1, 6, 4, "t.hit"), 3).outcomes()
    assert three == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}
    assert Fixed("x").outcomes() == {"x": F(1)}
    assert hit.expected(lambda ok: 10 if ok else 0) == 5


# -- sampling agrees with the exact odds ---------------------------------------------------------
@pytest.mark.parametrize(
    "chance",
    [
        DiceTest(10, 8, "t.hit", count=2),
        CountAtLeast(4, 6, 5, "t.hits"),
        TableLookup(6, {1: 0, 2: 1, 3: 1, 4: 1, 5: 2, 6: 2}, "t.dmg", drm=-1, low=1),
        Opposed(Roll(1, 6).map(sum), Roll(1, 10).map(sum)),
        Draw(["a", "b", "b", "c"], "t.draw"),
        repeat(CountAtLeast(1, 6, 4, "t.hit"), 3),
    ],
    ids=["test", "count", "table", "opposed", "draw", "repeat"],
)
def test_sampled_frequencies_match_the_exact_odds(chance: Chance[Any]) -> None:
    n = 4000
    stream = RandomStream(2024)
    counts = Counter(chance.sample(stream, []) for _ in range(n))
    exact = chance.outcomes()
    assert set(counts) <= set(exact)
    for outcome, p in exact.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(counts[outcome] / n - float(p)) <= 4 * sigma + 1e-9, outcome


# -- the stream, read in order; the events recorded ----------------------------------------------
def test_a_test_reads_its_dice_in_one_call_and_records_one_roll() -> None:
    stream = ScriptedStream([3, 9])
    log: list[Event] = []
    result = DiceTest(10, 8, "t.hit", count=2, data={"unit": "u1"}).sample_result(stream, log)
    assert stream.calls == [("dice", 2, 10)]
    assert result.success and result.total == 9 and result.faces == (3, 9)
    (event,) = log
    assert (event.kind, event.rule, event["dice"], event["need"], event["success"]) == (
        "roll",
        "t.hit",
        [3, 9],
        8,
        True,
    )
    assert event["unit"] == "u1"


def test_composed_chances_read_the_stream_in_definition_order() -> None:
    stream = ScriptedStream([5, 2, 6, 6, 1])
    hit = DiceTest(6, 4, "t.hit")
    chain = Opposed(Roll(1, 6).map(sum), Roll(1, 6).map(sum)).then(
        lambda diff: CountAtLeast(3, 6, 6, "t.crit") if diff > 0 else Fixed(0)
    )
    log: list[Event] = []
    assert chain.sample(stream, log) == 2  # 5 - 2 = 3 > 0, then [6, 6, 1]: two sixes
    assert stream.calls == [("dice", 1, 6), ("dice", 1, 6), ("dice", 3, 6)]
    assert [e.rule for e in log] == ["t.crit"]
    assert hit.sample(ScriptedStream([4]), log) is True


def test_sampling_consumes_exactly_what_the_stream_would_roll() -> None:
    a, b = RandomStream(9), RandomStream(9)
    CountAtLeast(5, 10, 6, "t.hits").sample(a, [])
    TableLookup(6, lambda v: v, "t.t", count=2).sample(a, [])
    b.dice(5, 10)
    b.dice(2, 6)
    assert a == b


def test_text_may_be_a_function_of_the_roll() -> None:
    log: list[Event] = []
    DiceTest(6, 4, "t.hit", text=lambda faces, total, ok: f"{faces}->{total}:{ok}").sample(
        ScriptedStream([2]), log
    )
    TableLookup(6, {4: "x"}, "t.t", drm=1, text=lambda f, v, r: f"{v}={r}").sample(
        ScriptedStream([3]), log
    )
    assert [e.text for e in log] == ["(2,)->2:False", "4=x"]
    with pytest.raises(ValueError):
        Draw([], "t.draw").sample(ScriptedStream([]), log)
