"""Penetration and the foot conversion are single chance definitions: play samples them
(reading the stream as before) and the odds enumerate the same objects."""

from __future__ import annotations

import itertools
from fractions import Fraction

from umpire.core.events import Event
from umpire.core.rng import RandomStream
from umpire.rulesets.sevendays.damage import Penetration, conversion_roll
from umpire.rulesets.sevendays.odds import p_penetrate


def test_penetration_odds_count_every_face_by_hand() -> None:
    # rules: sevendays.hit.penetration, sevendays.hit.heat_vs_special
    assert Penetration(5, 10, False).outcomes()[True] == Fraction(5, 10)  # d10 of 6..10
    faces = list(itertools.product(range(1, 11), repeat=2))
    low = sum(1 for a, b in faces if min(a, b) + 5 > 10)  # keep the lowest of 2d10
    assert Penetration(5, 10, True).outcomes()[True] == Fraction(low, 100)
    assert p_penetrate(5, 10, True) == Fraction(low, 100)  # what ``umpire odds`` reports


def test_penetration_sample_reads_the_stream_and_logs_one_roll() -> None:
    stream, twin = RandomStream(7), RandomStream(7)
    log: list[Event] = []
    pen = Penetration(4, 9, True, lambda f, t, p: f"{list(f)} {t} {p}", {"unit": "x"}).sample(
        stream, log
    )
    dice = twin.dice(2, 10)
    assert pen == (min(dice) + 4 > 9)
    assert len(log) == 1 and log[0]["dice"] == dice and log[0]["success"] == pen
    assert log[0]["rule"] == "sevendays.hit.heat_vs_special" and log[0]["unit"] == "x"


def test_conversion_counts_dice_at_the_covers_score() -> None:
    # rules: sevendays.hit.foot_conversion (heavy in the open: 2d6 per hit, 4+)
    chance = conversion_roll(1, True, "open")
    assert (chance.count, chance.need) == (2, 4)
    assert chance.outcomes() == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    light = conversion_roll(2, False, "fortified")
    assert (light.count, light.need) == (2, 6)
