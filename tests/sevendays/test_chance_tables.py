"""Seven Days' rolls as core.chance definitions: exact distributions worked by hand from the
rulebook's tables, and play's own dice agreeing with the enumeration.

Sources: the rules digest ``/work/shared/rules/sevendays.md`` ("Hits against vehicles": the
house damage table and mortars' halved die; "Other special rules": the AA hit-effect table of
book p20-21 and the house close combat; "Scenarios": Random Operation Length) and the seed's
Tactical Advantage card inventory (p30: Divisional Artillery 1d10 8+ per enemy unit, Against
All Odds a d6 of markers removed, Precision Guided Artillery Strike 8+, weapon 9, side armour)
and Capture (a D6 per defending unit, each 5 or 6 an extra token).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb, sqrt
from typing import Any

import pytest

from umpire.core.chance import Chance, Opposed, Roll
from umpire.core.errors import UmpireError
from umpire.core.events import Event
from umpire.core.game import Game, new_game
from umpire.core.rng import RandomStream
from umpire.rulesets.sevendays import cards, close_combat, special
from umpire.rulesets.sevendays.air import AaSystem, aa_effect_lookup, aa_plan_from, resolve_aa
from umpire.rulesets.sevendays.close_combat import CloseCombatRoll, support
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.config import default_house_rules
from umpire.rulesets.sevendays.damage import (
    Damage,
    conversion_roll,
    damage_lookup,
    mortar_damage_lookup,
)
from umpire.rulesets.sevendays.odds import MISS, Outcome, shot_chance
from umpire.rulesets.sevendays.odds_cli import ODDS
from umpire.rulesets.sevendays.shots import ShotPlan

from ..conftest import MakeGame, unit
from .test_air import _air_game
from .test_odds import _plan

HOUSE = default_house_rules()
SIXTH = Fraction(1, 6)
DAMAGED = Damage("damaged", 1)
DESTROYED = Damage("destroyed", 0)


def _close_to(expected: dict[Any, Fraction], counts: Counter[Any], n: int) -> None:
    """Every outcome's sampled frequency within 5 standard deviations of its exact chance (and
    nothing sampled that the enumeration calls impossible)."""
    assert set(counts) <= set(expected), set(counts) - set(expected)
    for outcome, p in expected.items():
        sigma = sqrt(n * float(p) * (1 - float(p)))
        assert abs(counts[outcome] - n * float(p)) <= 5 * sigma + 1, (outcome, counts, p)


def _sampled(chance: Chance[Any], n: int) -> Counter[Any]:
    stream = RandomStream(2026)
    return Counter(chance.sample(stream, []) for _ in range(n))


# -- the tables, worked by hand -------------------------------------------------------------
# rules: sevendays.hit.damage
def test_damage_table_by_hand() -> None:
    # house table: a d6 of 1-3 damages (+1 morale marker), 4-6 destroys
    assert damage_lookup(HOUSE.damage_table).outcomes() == {
        DAMAGED: Fraction(1, 2),
        DESTROYED: Fraction(1, 2),
    }


# rules: sevendays.mortar.damage
def test_mortar_damage_is_halved_and_can_only_damage() -> None:
    lookup = mortar_damage_lookup(HOUSE.damage_table)
    # the die halved, rounded down, at least 1: 1,2,3,4,5,6 -> 1,1,1,2,2,3
    assert [lookup.modified((die,)) for die in range(1, 7)] == [1, 1, 1, 2, 2, 3]
    assert lookup.outcomes() == {DAMAGED: Fraction(1)}


# rules: sevendays.air.aa_effect
def test_aa_effect_table_by_hand() -> None:
    # book p20-21: d6 1-2 evades, 3-4 completes its attack then is removed, 5-6 shot down
    plain = aa_effect_lookup(HOUSE.air.effect, 0).outcomes()
    assert plain == {"evades": 2 * SIXTH, "damaged": 2 * SIXTH, "shot_down": 2 * SIXTH}
    # a vehicle SAM adds 2: 1-2 become 3-4 (damaged), 3-6 become 5-8 (shot down)
    sam = aa_effect_lookup(HOUSE.air.effect, 2).outcomes()
    assert sam == {"damaged": Fraction(1, 3), "shot_down": Fraction(2, 3)}


# rules: sevendays.air.aa_reaction, sevendays.air.aa_effect
@pytest.mark.parametrize(
    ("system", "expected"),
    [
        # SAM 5+ on one d10 hits 6 in 10; with its +2 every hit brings the helicopter down
        (
            AaSystem("SAM", 5, 1, 2),
            {MISS: Fraction(4, 10), (True, False, True, 0): Fraction(6, 10)},
        ),
        # MANPAD 8+ hits 3 in 10; then 1-2 on the d6 evades (1/3), otherwise it is lost
        (
            AaSystem("MANPAD", 8, 1, 0),
            {
                MISS: Fraction(7, 10),
                (True, False, False, 0): Fraction(3, 10) * Fraction(1, 3),
                (True, False, True, 0): Fraction(3, 10) * Fraction(2, 3),
            },
        ),
        # a rapid-fire autocannon 6+ on two d10, keep the best: misses only if both miss
        (
            AaSystem("AA gun", 6, 2, 0),
            {
                MISS: Fraction(1, 4),
                (True, False, False, 0): Fraction(3, 4) * Fraction(1, 3),
                (True, False, True, 0): Fraction(3, 4) * Fraction(2, 3),
            },
        ),
    ],
)
def test_aa_shot_by_hand(system: AaSystem, expected: dict[Outcome, Fraction]) -> None:
    plan = aa_plan_from(system, 20.0, 0, ("aa", "heli"))
    assert shot_chance(plan, _profile("lynx"), HOUSE).outcomes() == expected


# rules: sevendays.close_combat
def test_close_combat_by_hand() -> None:
    # equal scores: the margin k comes up (6 - |k|) times in 36, a stand-off 6 times
    even = CloseCombatRoll(0, 0).outcomes()
    assert even == {k: Fraction(6 - abs(k), 36) for k in range(-5, 6)}
    # attacker +1 (a friend within 2"): it wins unless its die is lower (21 of 36), ties when
    # the defender rolls exactly one more (5 of 36)
    plus = CloseCombatRoll(1, 0)
    assert plus.probability(lambda m: m > 0) == Fraction(21, 36)
    assert plus.probability(lambda m: m == 0) == Fraction(5, 36)
    assert plus.probability(lambda m: m < 0) == Fraction(10, 36)
    # the same numbers from core's Opposed primitive on two modified d6
    for a_mod, d_mod in [(1, 0), (2, -1), (-2, 1)]:
        opposed = Opposed(_d6_plus(a_mod), _d6_plus(d_mod))
        assert CloseCombatRoll(a_mod, d_mod).outcomes() == opposed.outcomes()


def _d6_plus(mod: int) -> Chance[int]:
    return Roll(1, 6).map(lambda faces: faces[0] + mod)


# rules: sevendays.close_combat
def test_close_combat_odds_from_the_command() -> None:
    values = {k.replace("-", "_"): o.default for k, o in ((o.name, o) for o in ODDS.options)}
    values.update(close_combat=True, support=1, markers=0, enemy_support=0, target_markers=0)
    data, lines = ODDS.answer(values)
    assert data["p_win"] == pytest.approx(21 / 36)
    assert data["p_tie"] == pytest.approx(5 / 36)
    assert "P(attacker wins)" in lines[1] and "(7/12)" in lines[1]


# rules: sevendays.cards.divisional_artillery, sevendays.cards.against_all_odds
def test_card_rolls_by_hand() -> None:
    deck = cards.load_deck()
    # Divisional Artillery: 1d10 per enemy unit, 8+ -> a marker (3 in 10)
    artillery = cards.bombard_hit(deck.cards["divisional_artillery"])
    assert artillery.outcomes() == {True: Fraction(3, 10), False: Fraction(7, 10)}
    # then the artillery row (issue 15, p19) in the open: 2d6, each 4-6 adds a marker
    assert conversion_roll(1, cards.BOMBARDMENTS["divisional_artillery"], "open").outcomes() == {
        0: Fraction(1, 4),
        1: Fraction(1, 2),
        2: Fraction(1, 4),
    }
    # Against All Odds: a d6 of markers removed, no more than the unit carries
    assert cards.against_all_odds_roll(2).outcomes() == {1: SIXTH, 2: 5 * SIXTH}
    four = cards.against_all_odds_roll(4).outcomes()
    assert four == {1: SIXTH, 2: SIXTH, 3: SIXTH, 4: 3 * SIXTH}


# rules: sevendays.cards.precision_strike, sevendays.cards.divisional_artillery
# rules: sevendays.cards.off_table_artillery, sevendays.cards.against_all_odds
def test_card_odds_from_the_command() -> None:
    def ask(**given: Any) -> dict[str, Any]:
        values: dict[str, Any] = {o.name.replace("-", "_"): o.default for o in ODDS.options}
        values.update(given)
        return ODDS.answer(values)[0]

    strike = ask(card="precision_strike", target="T-72A")
    # 8+ (3/10); d10 + 9 must exceed the side armour 13 (6/10); the damage table destroys on
    # 4-6 (1/2)
    assert strike["p_hit"] == pytest.approx(0.3)
    assert strike["p_penetrate"] == pytest.approx(0.18)
    assert strike["p_destroyed"] == pytest.approx(0.09)
    # off-table artillery (7+) on a tank: one marker on a hit, no conversion for a vehicle
    assert ask(card="off_table_artillery", target="T-72A")["markers"] == {"0": 0.6, "1": 0.4}
    # heavy conversion on infantry in cover: 2d6 at 4+ after the marker
    heavy = ask(card="off_table_artillery", target="Motor Rifles", target_cover="cover")
    assert heavy["markers"] == pytest.approx({"0": 0.6, "1": 0.1, "2": 0.2, "3": 0.1})
    assert ask(card="against_all_odds", markers=1)["removed"] == {"1": 1.0}
    with pytest.raises(UmpireError, match="rolls no dice"):
        ask(card="reserves", target="T-72A")


# rules: sevendays.cards.precision_strike
def test_precision_strike_by_hand() -> None:
    # 8+ on a d10 (3/10); weapon 9 on the side armour: a T-72A's side is 13, so the d10 must
    # exceed 4 (6/10); then the house damage table destroys on 4-6 (1/2), else 1 marker
    strike = cards.load_deck().cards["precision_strike"]
    plan = cards.card_attack_plan(strike, True, "open", heat=False, front=False)
    odds = shot_chance(plan, _profile("t72a"), HOUSE).outcomes()
    hit, pen = Fraction(3, 10), Fraction(6, 10)
    assert odds == {
        MISS: 1 - hit,
        (True, False, False, 1): hit * (1 - pen),  # no penetration: +1 marker (house)
        (True, True, False, 1): hit * pen / 2,
        (True, True, True, 0): hit * pen / 2,
    }


# rules: sevendays.scenario.extra_tokens, sevendays.scenario.random_length
def test_scenario_rolls_by_hand() -> None:
    # Capture: a D6 per defending unit, each 5 or 6 an extra token: binomial(n, 1/3)
    for n in (1, 3, 7):
        expected = {
            k: comb(n, k) * Fraction(1, 3) ** k * Fraction(2, 3) ** (n - k) for k in range(n + 1)
        }
        assert special.extra_tokens_roll(n, 5).outcomes() == expected
    # Random Operation Length: from the last turn a d6 at each turn's end, 4+ ends it
    ends = special.random_length_roll(HOUSE.random_length.ends_on).outcomes()
    assert ends == {True: Fraction(1, 2), False: Fraction(1, 2)}


# -- play samples the same definitions --------------------------------------------------------
def _profile(pid: str) -> Any:
    from umpire.rulesets.sevendays.shot_query import find_profile

    return find_profile(pid)


def _world(game: Game) -> Any:
    return game.ruleset.world(game.state)  # type: ignore[attr-defined]


def _shot_seen(world: Any, before: Any, plan: ShotPlan, seed: int) -> tuple[Outcome, list[Event]]:
    """What the game's own resolution did with ``seed``, as (hit, penetrated, destroyed,
    markers) with markers capped where they remove the target."""
    state = before.clone()
    state.rng = RandomStream(seed)
    target = state.units[plan.target]
    events = resolve_shot(world, state, plan)
    hit = any(e.get("success") for e in events if e["kind"] == "roll" and e is events[0])
    pen = any(
        e.get("success")
        for e in events
        if e["kind"] == "roll"
        and e["rule"] in ("sevendays.hit.penetration", "sevendays.hit.heat_vs_special")
    )
    destroyed = target.status == "destroyed"
    room = (world.profile(target).morale or 99) - before.units[plan.target].markers
    markers = 0 if destroyed else min(room, target.markers - before.units[plan.target].markers)
    return (hit, pen, destroyed, markers), events


def _capped(outcome: Outcome, room: int) -> Outcome:
    hit, pen, destroyed, markers = outcome
    return (hit, pen, destroyed, 0 if destroyed else min(room, markers))


SHOTS = [
    # firer profile, target profile, target y, weapon kind
    ("chieftain-mk9", "t72a", 40, "gun"),  # gun vs special armour: d10 penetration
    ("milan", "t64b", 40, "atgm"),  # HEAT vs special armour: 2d10 keep the lowest
    ("chieftain-mk9", "motor-rifles", 18, "gun"),  # heavy conversion against infantry
    ("infantry", "motor-rifles", 18, "gun"),  # light conversion
    ("scimitar", "motor-rifles", 40, "gun"),  # autocannon: 2d10 keep the highest (issue 15)
    ("mortar", "sam8-gecko", 40, "gun"),  # mortar: value 0 penetration, halved damage die
]


# rules: sevendays.fire.base, sevendays.hit.penetration, sevendays.hit.heat_vs_special,
# rules: sevendays.hit.damage, sevendays.hit.foot_conversion, sevendays.fire.autocannon,
# rules: sevendays.mortar.damage
@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: f"{s[0]}->{s[1]}")
def test_play_and_the_shot_chance_read_the_same_dice(
    make_game: MakeGame, shot: tuple[str, str, float, str]
) -> None:
    """Seed by seed, the game's resolution and a sample of :func:`shot_chance` from the same
    stream agree (the chance reads the dice in play's order), and over all seeds the sampled
    outcomes agree with the exact enumeration."""
    firer, target, y, kind = shot
    game = make_game(nato=[unit("f", firer, 36, 10)], pact=[unit("t", target, 36, y)])
    world = _world(game)
    plan = _plan(game, "nato-f", "pact-t", kind)
    tprofile = world.profile(game.state.units["pact-t"])
    chance = shot_chance(plan, tprofile, world.house)
    room = tprofile.morale or 99
    n = 1500
    counts: Counter[Outcome] = Counter()
    for seed in range(n):
        seen, _ = _shot_seen(world, game.state, plan, seed)
        drawn = _capped(chance.sample(RandomStream(seed), []), room)
        assert seen == drawn, (seed, seen, drawn)
        counts[seen] += 1
    exact: dict[Outcome, Fraction] = {}
    for outcome, p in chance.outcomes().items():
        key = _capped(outcome, room)
        exact[key] = exact.get(key, Fraction(0)) + p
    _close_to(exact, counts, n)


# rules: sevendays.mortar.damage
def test_play_mortar_hits_on_vehicles_only_damage(make_game: MakeGame) -> None:
    """A mortar (anti-vehicle value 0) penetrates a SAM-8's 8 front armour on a 9 or 10, then
    its damage die is halved: with the house table it can only damage."""
    game = make_game(nato=[unit("m", "mortar", 36, 10)], pact=[unit("t", "sam8-gecko", 36, 40)])
    world = _world(game)
    plan = _plan(game, "nato-m", "pact-t")
    chance = shot_chance(plan, world.profile(game.state.units["pact-t"]), world.house)
    penetrated = 0
    for seed in range(600):
        seen, events = _shot_seen(world, game.state, plan, seed)
        assert seen == _capped(chance.sample(RandomStream(seed), []), 99)
        damage = [e for e in events if e.get("rule") == "sevendays.mortar.damage"]
        assert bool(damage) == seen[1]  # a damage roll only after a penetration
        if seen[1]:
            penetrated += 1
            assert damage[0]["result"] == (damage[0]["dice"][0] // 2 or 1)
        assert not seen[2]  # halved, the die never reaches the destroying rows
    assert penetrated > 0


# rules: sevendays.air.aa_effect
def test_play_aa_effects_follow_the_table(make_game: MakeGame) -> None:
    game = _air_game(make_game)
    world = _world(game)
    plan = _plan_aa(game, "pact-i")  # MANPAD: no bonus, so all three rows can come up
    effect = aa_effect_lookup(world.house.air.effect, plan.aa_bonus)
    n, counts = 0, Counter[str]()
    for seed in range(4000):
        state = game.state.clone()
        state.rng = RandomStream(seed)
        for event in resolve_aa(world, state, plan):
            if event.get("rule") == "sevendays.air.aa_effect" and event["kind"] == "roll":
                counts[event["text"].rsplit("-> ", 1)[1].replace(" ", "_")] += 1
                n += 1
    assert n > 800  # 3 in 10 hit
    _close_to(effect.outcomes(), counts, n)


def _plan_aa(game: Game, firer: str) -> ShotPlan:
    from .test_air import _plan as plan_air

    plan = plan_air(game, firer, "nato-l")
    assert isinstance(plan, ShotPlan)
    return plan


# rules: sevendays.close_combat
def test_play_close_combat_follows_the_enumeration(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("a", "infantry", 36, 20), unit("b", "infantry", 37.5, 23)],
        pact=[unit("r", "motor-rifles", 36, 25)],
    )
    world = _world(game)
    # in contact NATO's second squad is within 2" (+1), Pact fights alone and unmarked
    expected = CloseCombatRoll(1, 0).outcomes()
    n = 2000
    counts: Counter[int] = Counter()
    for seed in range(n):
        state = game.state.clone()
        state.rng = RandomStream(seed)
        attacker, defender = state.units["nato-a"], state.units["pact-r"]
        events = close_combat.assault(world, state, attacker, defender)
        fight = [
            e for e in events if e.get("rule") == "sevendays.close_combat" and e["kind"] == "roll"
        ]
        assert len(fight) == 1
        a_die, d_die = fight[0]["dice"]
        assert fight[0]["result"] == a_die + 1 - d_die
        counts[fight[0]["result"]] += 1
    assert (support(world, state, attacker), support(world, state, defender)) == (1, 0)
    _close_to(expected, counts, n)


# rules: sevendays.cards.divisional_artillery, sevendays.hit.foot_conversion
def test_play_bombardment_follows_the_enumeration(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("r", "motor-rifles", 20, 40)]
    )
    world = _world(game)
    card = cards.load_deck().cards["divisional_artillery"]
    expected = cards.bombard_markers(card, False, "open").outcomes()
    # by hand: 8+ on the d10 (3/10), then 1 marker and the artillery row's 2d6 (4+, 1/2 each;
    # issue 15: artillery hits convert on the p19 artillery row)
    assert expected == {
        0: Fraction(7, 10),
        1: Fraction(3, 40),
        2: Fraction(3, 20),
        3: Fraction(3, 40),
    }
    n, counts = 3000, Counter[int]()
    heavy = cards.BOMBARDMENTS[card.id]
    for seed in range(n):
        state = game.state.clone()
        state.rng = RandomStream(seed)
        cards._bombard_one(world, state, card, state.units["pact-r"], heavy=heavy)
        counts[state.units["pact-r"].markers] += 1
    _close_to(expected, counts, n)


# rules: sevendays.scenario.extra_tokens
def test_play_extra_tokens_follow_the_enumeration() -> None:
    game = new_game("sevendays/capture", seed=1)
    world = _world(game)
    units = len(game.state.alive("nato"))
    expected = special.extra_tokens_roll(units, 5).outcomes()
    n, counts = 2000, Counter[int]()
    for seed in range(n):
        state = game.state.clone()
        state.rng = RandomStream(seed)
        counts[special.extra_tokens(world, state, "nato")[0]] += 1
    _close_to(expected, counts, n)


def test_sampling_a_chance_matches_its_enumeration() -> None:
    """The definitions sampled on their own (no game) agree with their enumeration."""
    definitions: list[Chance[Any]] = [
        damage_lookup(HOUSE.damage_table),
        aa_effect_lookup(HOUSE.air.effect, 0),
        CloseCombatRoll(1, -1),
        cards.against_all_odds_roll(3),
        special.extra_tokens_roll(4, 5),
    ]
    for chance in definitions:
        _close_to(chance.outcomes(), _sampled(chance, 3000), 3000)


# rules: sevendays.initiative.roll
def test_initiative_roll_by_hand() -> None:
    """The initiative dice-off (reconstructed: each side a d6, the higher takes the initiative,
    a tie is rolled again): one roll gives NATO 15/36, PACT 15/36, a tie 6/36, so after the
    re-rolls each side holds it half the time. Play's event holds both dice, NATO's first."""
    from umpire.rulesets.sevendays.turns import INITIATIVE_ROLL

    dist = INITIATIVE_ROLL.outcomes()
    assert dist[0] == Fraction(6, 36)
    assert sum(p for d, p in dist.items() if d > 0) == Fraction(15, 36)
    assert sum(p for d, p in dist.items() if d < 0) == Fraction(15, 36)
    nato_after_rerolls = Fraction(15, 36) / (1 - Fraction(6, 36))
    assert nato_after_rerolls == Fraction(1, 2)
    stream = RandomStream(7)
    log: list[Event] = []
    twin = RandomStream(7)
    difference = INITIATIVE_ROLL.sample(stream, log)
    first, second = twin.d(6), twin.d(6)
    assert difference == first - second and log[0]["dice"] == [first, second]
    assert log[0]["rule"] == "sevendays.initiative.roll"
