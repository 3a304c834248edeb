"""Exact shot odds: checked against icepool and against the game's own dice."""

from __future__ import annotations

from fractions import Fraction

import icepool

from umpire.core.game import Game
from umpire.core.rng import RandomStream
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.odds import shot_odds
from umpire.rulesets.sevendays.shots import ShotPlan

from ..conftest import MakeGame, unit


def _plan(game: Game, firer: str, target: str, kind: str = "gun") -> ShotPlan:
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    plan = plan_shot(world, game.state, game.state.units[firer], game.state.units[target], kind)
    assert isinstance(plan, ShotPlan)
    return plan


# rules: sevendays.fire.vehicle_hits
def test_vehicle_shot_matches_icepool(make_game: MakeGame) -> None:
    # Milan (ATGM 3+, 11h) at a T-64B (17s/14s, morale 5) 30" away, front armour
    game = make_game(nato=[unit("m", "milan", 36, 10)], pact=[unit("t", "t64b", 36, 40)])
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    plan = _plan(game, "nato-m", "pact-t", "atgm")
    odds = shot_odds(world, plan, game.state.units["nato-m"], game.state.units["pact-t"])
    hit = icepool.d10 >= plan.need
    pen = icepool.lowest(icepool.d10, icepool.d10) + 11 > 17  # HEAT vs special: keep lowest
    destroyed = icepool.d6 >= 4
    p_hit = Fraction(hit.probability(True))
    p_kill = p_hit * Fraction(pen.probability(True)) * Fraction(destroyed.probability(True))
    assert abs(odds.hit - float(p_hit)) < 1e-12
    # one damaged marker cannot remove a fresh T-64B, so "out" is outright destruction
    assert abs(odds.out - float(p_kill)) < 1e-12


def test_infantry_shot_markers_match_icepool(make_game: MakeGame) -> None:
    # Chieftain (10, 4+) at Motor Rifles in the open 8" away: 2d10, each hit one marker and one
    # conversion d6 (AT 7+ -> 2d6, each 4+ adds a marker); morale 5
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("r", "motor-rifles", 36, 18)]
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    plan = _plan(game, "nato-c", "pact-r")
    assert plan.dice == 2 and plan.heavy
    per_die = icepool.d10.map(lambda d: 1 if d >= plan.need else 0)
    hits = per_die + per_die
    conversion = icepool.d6.map(lambda d: 1 if d >= 4 else 0)
    markers = hits.map(lambda h: h + sum([conversion] * (2 * h)) if h else icepool.Die([0]))
    odds = shot_odds(world, plan, game.state.units["nato-c"], game.state.units["pact-r"])
    expected_out = float(markers.probability(">=", 5))
    assert abs(odds.out - expected_out) < 1e-12
    assert abs(odds.markers - float(markers.mean())) < 1e-12


def test_odds_agree_with_the_games_dice(make_game: MakeGame) -> None:
    # 3,000 shots resolved by the game itself land within 3 sigma of the exact figure
    game = make_game(nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t72a", 36, 30)])
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    plan = _plan(game, "nato-c", "pact-t")
    odds = shot_odds(world, plan, game.state.units["nato-c"], game.state.units["pact-t"])
    n = 3000
    out = 0
    for seed in range(n):
        state = game.state.clone()
        state.rng = RandomStream(seed)
        resolve_shot(world, state, plan)
        out += not state.units["pact-t"].alive
    sigma = (odds.out * (1 - odds.out) / n) ** 0.5
    assert abs(out / n - odds.out) < 3 * sigma + 1e-9


# rules: sevendays.fire.base
def test_play_and_odds_share_the_roll_to_hit_and_d6_definitions() -> None:
    from fractions import Fraction

    from umpire.core.rng import RandomStream
    from umpire.rulesets.sevendays.dice import d6_chance
    from umpire.rulesets.sevendays.odds import d6_test_odds
    from umpire.rulesets.sevendays.orbat import Weapon
    from umpire.rulesets.sevendays.shots import to_hit

    # a d6 test needing 5+ where a natural 6 always passes: 2 faces of 6
    assert d6_test_odds(5) == Fraction(1, 3)
    assert d6_chance("r", 7, six_passes=True).outcomes() == {
        True: Fraction(1, 6),
        False: Fraction(5, 6),
    }
    # two d10 at infantry needing 7+: each die hits on 4 faces in 10
    plan = ShotPlan("a", "b", "gun", Weapon(value=3), 2, 7, 7, 10.0, False)
    dist = to_hit(plan).outcomes()
    assert dist == {0: Fraction(9, 25), 1: Fraction(12, 25), 2: Fraction(4, 25)}
    # against a vehicle the dice give one chance between them
    vehicle = plan._replace(target_is_vehicle=True)
    assert to_hit(vehicle).outcomes() == {0: Fraction(9, 25), 1: Fraction(16, 25)}
    # sampling reads the stream like the old hand-written roll: two d10 in order
    stream, twin = RandomStream(5), RandomStream(5)
    log: list = []  # type: ignore[type-arg]
    hits = to_hit(plan).sample(stream, log)
    dice = twin.dice(2, 10)
    assert log[0]["dice"] == dice and hits == sum(d >= 7 for d in dice)
