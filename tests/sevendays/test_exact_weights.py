"""Exact enumeration in integers (``Chance.weights``, issue 19): the same chances as the
fraction enumeration, outcome for outcome and in the same order, and the shot summaries the
scripted player reads are the floats nearest to the exact fractions.

The references here are independent of the code under test: every *ordered* roll of the dice
(``itertools.product``, each equally likely) judged one by one, and icepool's multisets."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import icepool
import pytest

from umpire.core.chance import (
    Chance,
    CountAtLeast,
    DiceOff,
    Draw,
    Fixed,
    Modifier,
    Opposed,
    Roll,
    TableLookup,
    _pool_weights,
    fractions_of,
    repeat,
    weights_of,
)
from umpire.core.chance import Test as DiceTest
from umpire.rulesets.sevendays.damage import Penetration
from umpire.rulesets.sevendays.odds import outcome_die, outcome_weights, shot_chance, shot_odds
from umpire.rulesets.sevendays.orbat import Weapon
from umpire.rulesets.sevendays.shots import ShotPlan, to_hit

from ..conftest import MakeGame, unit
from .test_odds import _plan


def _by_every_roll(
    count: int, sides: int, judge: Callable[[tuple[int, ...]], Hashable]
) -> dict[Any, Fraction]:
    """The distribution of ``judge`` over every ordered roll of ``count`` d``sides``."""
    out: dict[Any, Fraction] = {}
    share = Fraction(1, sides**count)
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        key = judge(tuple(sorted(faces)))
        out[key] = out.get(key, Fraction(0)) + share
    return out


@pytest.mark.parametrize("sides", [2, 3, 6, 10, 12, 20])
@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 7])
def test_pool_weights_are_icepools_multisets(count: int, sides: int) -> None:
    weights, total = _pool_weights(count, sides)
    die = icepool.d(sides).pool(count).expand()
    theirs = [(tuple(sorted(int(f) for f in o)), int(q)) for o, q in die.items()]
    assert list(weights.items()) == theirs  # same multisets, same counts, same order
    assert total == int(die.denominator()) == sides**count


def test_pool_weights_count_every_ordered_roll() -> None:
    weights, total = _pool_weights(4, 6)
    assert sum(weights.values()) == total == 6**4
    assert weights[(1, 1, 1, 1)] == 1
    assert weights[(1, 1, 2, 2)] == 6  # 4! / (2! 2!)
    assert weights[(1, 2, 3, 4)] == 24
    assert weights[(3, 5, 5, 5)] == 4
    assert _pool_weights(0, 6) == ({(): 1}, 1)


def _chances() -> list[tuple[Chance[Any], int, int, Callable[[tuple[int, ...]], Hashable]]]:
    """Primitives with the roll they make, and a judge written out by hand."""
    return [
        (
            DiceTest(6, 4, "r", count=2, keep="highest", modifiers=(Modifier("m", -1, "moved"),)),
            2,
            6,
            lambda f: max(f) - 1 >= 4,
        ),
        (
            DiceTest(6, 5, "r", auto_pass=frozenset({6}), auto_fail=frozenset({1})),
            1,
            6,
            lambda f: f[0] == 6 or (f[0] != 1 and f[0] >= 5),
        ),
        (DiceTest(6, 13, "r", count=2, keep="sum"), 2, 6, lambda f: False),
        (CountAtLeast(3, 10, 6, "r"), 3, 10, lambda f: sum(x >= 6 for x in f)),
        (
            TableLookup(6, {2: "a", 3: "b", 4: "c", 5: "d"}, "r", count=2, drm=-4, low=2, high=5),
            2,
            6,
            lambda f: "abcd"[min(5, max(2, sum(f) - 4)) - 2],
        ),
        (Roll(3, 6), 3, 6, lambda f: f),
    ]


@pytest.mark.parametrize("n", range(6))
def test_primitives_weigh_every_roll_alike(n: int) -> None:
    chance, count, sides, judge = _chances()[n]
    expected = _by_every_roll(count, sides, judge)
    expected = {k: p for k, p in expected.items() if p}
    assert chance.outcomes() == expected
    weights, total = chance.weights()
    assert fractions_of((weights, total)) == expected
    assert list(chance.weights()[0]) == list(chance.outcomes())  # same order both ways


def test_compositions_by_hand() -> None:
    d6 = Roll(1, 6).map(lambda f: f[0])
    # Opposed d6 - d6: a difference of 0 is 6 of 36, of 5 is 1 of 36
    opposed = Opposed(d6, d6).outcomes()
    assert opposed[0] == Fraction(1, 6) and opposed[5] == Fraction(1, 36)
    assert sum(opposed.values()) == 1
    # DiceOff with +1 to the first: the first wins when a + 1 > b, 21 of 36
    off = DiceOff("r", first_mod=1).outcomes()
    assert sum(p for d, p in off.items() if d > 0) == Fraction(21, 36)
    # then: a d6, on 4+ a second d6 that must score 5+: 1/2 * 1/3 = 1/6
    then = d6.then(lambda v: DiceTest(6, 5, "r") if v >= 4 else Fixed(False)).outcomes()
    assert then == {False: Fraction(5, 6), True: Fraction(1, 6)}
    # the sum of three d6 by repeat: 10 comes up 27 ways of 216
    three = repeat(d6, 3).outcomes()
    assert three[10] == Fraction(27, 216) and sum(three.values()) == 1
    # a draw from a deck with a duplicate
    assert Draw(("a", "b", "a"), "r").outcomes() == {"a": Fraction(2, 3), "b": Fraction(1, 3)}
    assert Draw(("a", "b", "a"), "r").weights() == ({"a": 2, "b": 1}, 3)


def test_a_chance_defined_by_fractions_alone_is_put_over_its_lcm() -> None:
    assert weights_of({"x": Fraction(1, 4), "y": Fraction(1, 6), "z": Fraction(7, 12)}) == (
        {"x": 3, "y": 2, "z": 7},
        12,
    )


# rules: sevendays.fire.base, sevendays.fire.vehicle_hits
@pytest.mark.parametrize("need", [2, 5, 9, 11])
@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("vehicle", [False, True])
def test_the_roll_to_hit_weighs_every_roll_of_the_d10s(need: int, dice: int, vehicle: bool) -> None:
    # book p15: each d10 at or above the score needed hits; a vehicle takes one hit at most
    plan = ShotPlan(
        firer="f",
        target="t",
        weapon_kind="gun",
        weapon=Weapon(value=6),
        dice=dice,
        base=need,
        need=need,
        range=10.0,
        target_is_vehicle=vehicle,
    )
    expected = _by_every_roll(
        dice, 10, lambda f: int(max(f) >= need) if vehicle else sum(x >= need for x in f)
    )
    assert to_hit(plan).outcomes() == {k: p for k, p in expected.items() if p}


# rules: sevendays.hit.penetration, sevendays.hit.heat_vs_special
@pytest.mark.parametrize("special", [False, True])
def test_penetration_weighs_every_roll(special: bool) -> None:
    # die + weapon value must exceed the armour; HEAT against special armour: 2d10, the lower
    chance = Penetration(11, 17, special)
    count = 2 if special else 1
    expected = _by_every_roll(count, 10, lambda f: min(f) + 11 > 17)
    assert chance.outcomes() == expected
    assert fractions_of(chance.weights()) == expected


def test_shot_summaries_are_the_floats_nearest_the_exact_odds(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("m", "milan", 30, 10)],
        pact=[unit("t", "t72a", 36, 30), unit("r", "motor-rifles", 20, 14)],
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    units = game.state.units
    for firer, target, kind in (
        ("nato-c", "pact-t", "gun"),
        ("nato-c", "pact-r", "gun"),
        ("nato-m", "pact-t", "atgm"),
    ):
        plan = _plan(game, firer, target, kind)
        tprofile = world.profile(units[target])
        exact = shot_chance(plan, tprofile, world.house).outcomes()
        weights, total = outcome_weights(plan, tprofile, world.house)
        assert fractions_of((weights, total)) == exact
        die = outcome_die(plan, tprofile, world.house)  # the icepool die, for those who want it
        assert {k: Fraction(int(n), int(die.denominator())) for k, n in die.items()} == exact
        room = (tprofile.morale or 99) - units[target].markers
        odds = shot_odds(world, plan, units[firer], units[target])
        assert odds.hit == float(sum(p for o, p in exact.items() if o[0]))
        assert odds.out == float(sum(p for o, p in exact.items() if o[2] or o[3] >= room))
        assert odds.markers == float(sum(p * o[3] for o, p in exact.items() if not o[2]))
