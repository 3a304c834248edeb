"""Exact odds of a planned shot: the enumeration of the very chances play samples.

A shot is one :class:`~umpire.core.chance.Chance` (:func:`shot_chance`) chained from the
definitions the rule modules roll in play: the roll to hit (:func:`~.shots.to_hit`), what
follows a hit on a vehicle (:func:`~.damage.vehicle_hit_chance`: penetration, then the house
damage table, halved for a mortar by :func:`~.damage.mortar_damage_lookup`), the conversion dice
(:func:`~.damage.conversion_roll`) and an AA shot (:func:`~.air.aa_shot_chance`). Nothing
here restates a rule or a table, so a rule change moves the odds with it.

Used by the human player's menu, the scripted AI and ``umpire odds``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from umpire.core.chance import Chance, Fixed
from umpire.rulesets.sevendays.air import aa_shot_chance, brings_down
from umpire.rulesets.sevendays.config import AaEffectRow, DamageRow, HouseRules
from umpire.rulesets.sevendays.damage import (
    Damage,
    Penetration,
    conversion_roll,
    destroys,
    heat_vs_special,
    vehicle_hit_chance,
)
from umpire.rulesets.sevendays.dice import d6_chance
from umpire.rulesets.sevendays.orbat import UnitProfile
from umpire.rulesets.sevendays.shots import ShotPlan, to_hit
from umpire.rulesets.sevendays.state import Unit
from umpire.rulesets.sevendays.world import World

if TYPE_CHECKING:
    import icepool

# One shot's chance outcome: (hit, penetrated, destroyed outright, morale markers inflicted)
Outcome = tuple[bool, bool, bool, int]
MISS: Outcome = (False, False, False, 0)


@dataclass(frozen=True)
class ShotOdds:
    """The float summary the AI and the menus use."""

    hit: float  # at least one hit
    out: float  # the target destroyed or removed by this shot
    markers: float  # expected morale markers added (when not destroyed outright)


@dataclass(frozen=True)
class ExactOdds:
    """Exact probabilities (fractions) of one or more identical shots at one target.

    ``markers[k]`` is the chance the target is *not* destroyed outright and takes ``k`` morale
    markers in all, so ``p_destroyed + sum(markers.values()) == 1``; a target removed by its
    markers counts as taking just the number that removed it. Once a target is destroyed or
    removed the later shots are not taken (there is nothing left to shoot)."""

    shots: int
    p_hit: Fraction  # at least one hit
    p_penetrate: Fraction | None  # at least one penetration (None: the target is not a vehicle)
    p_destroyed: Fraction  # destroyed outright (a wreck)
    p_removed: Fraction  # removed because its markers reach its morale
    markers: dict[int, Fraction]

    @property
    def p_out(self) -> Fraction:
        return self.p_destroyed + self.p_removed

    def to_json(self) -> dict[str, object]:
        return {
            "shots": self.shots,
            "p_hit": float(self.p_hit),
            "p_penetrate": None if self.p_penetrate is None else float(self.p_penetrate),
            "p_destroyed": float(self.p_destroyed),
            "p_removed": float(self.p_removed),
            "p_out": float(self.p_out),
            "markers": {str(k): float(p) for k, p in sorted(self.markers.items())},
        }


def _damage_rows(table: tuple[tuple[int, str, int], ...]) -> list[DamageRow]:
    return [DamageRow(max=m, result=r, markers=k) for m, r, k in table]  # rows of house rules


def _damaged(row: Damage) -> Outcome:
    """A penetrating hit read off the damage table."""
    return (True, True, True, 0) if destroys(row) else (True, True, False, row.markers)


def _after_hits(hits: Chance[int], after_a_hit: Chance[Outcome]) -> Chance[Outcome]:
    """One hit at most (a vehicle or a helicopter): a miss, or what follows the hit."""
    return hits.then(lambda h: after_a_hit if h else Fixed(MISS))


@cache
def _vehicle_shot(
    plan: ShotPlan,
    armour: int,
    heat_special: bool,
    damage_table: tuple[tuple[int, str, int], ...],
    no_penetration_markers: int,
) -> Chance[Outcome]:
    """Rules sevendays.fire.base, sevendays.hit.penetration / .heat_vs_special,
    sevendays.hit.damage (sevendays.mortar.damage: halved for a mortar) and
    sevendays.hit.no_penetration, chained as play rolls them."""
    bounced: Outcome = (True, False, False, no_penetration_markers)
    after = vehicle_hit_chance(
        plan.weapon.value,
        armour,
        heat_special,
        _damage_rows(damage_table),
        halved=plan.weapon.mortar,
    )
    return _after_hits(
        to_hit(plan), after.map(lambda hit: bounced if hit[1] is None else _damaged(hit[1]))
    )


@cache
def _foot_shot(plan: ShotPlan) -> Chance[Outcome]:
    """Rules sevendays.hit.foot_marker and sevendays.hit.foot_conversion: a marker per hit,
    then the conversion dice."""

    def markers(hits: int) -> Chance[Outcome]:
        if hits == 0:
            return Fixed(MISS)
        extra = conversion_roll(hits, plan.heavy, plan.cover)
        return extra.map(lambda k: (True, False, False, hits + k))

    return to_hit(plan).then(markers)


@cache
def _aa_shot(plan: ShotPlan, table: tuple[tuple[int, str], ...]) -> Chance[Outcome]:
    """An AA shot at a helicopter (sevendays.air.aa_fire / aa_effect): "destroyed" is the
    helicopter lost (damaged or shot down)."""
    rows = [AaEffectRow(max=m, result=r) for m, r in table]  # rows of the checked house rules
    return aa_shot_chance(plan, rows).map(
        lambda r: MISS if r is None else (True, False, brings_down(r), 0)
    )


def _dice_only(plan: ShotPlan) -> ShotPlan:
    """The plan stripped to what its dice depend on (so equal shots share one enumeration)."""
    return ShotPlan(
        firer="",
        target="",
        weapon_kind="aa" if plan.weapon_kind == "aa" else "",
        weapon=plan.weapon,
        dice=plan.dice,
        base=0,
        need=plan.need,
        range=0.0,
        target_is_vehicle=plan.target_is_vehicle,
        heavy=plan.heavy,
        cover=plan.cover,
        front=plan.front,
        aa_bonus=plan.aa_bonus,
        best_die=plan.best_die,
    )


def shot_chance(plan: ShotPlan, tprofile: UnitProfile, house: HouseRules) -> Chance[Outcome]:
    """One shot as one chance: the roll to hit, then penetration and damage, the conversion
    dice or the AA hit effect, each the very chance play samples (:func:`~.shots.to_hit`,
    :class:`~.damage.Penetration`, :func:`~.damage.damage_lookup`, ...). The outcome is
    (hit, penetrated, destroyed, markers)."""
    bare = _dice_only(plan)
    if plan.weapon_kind == "aa":  # sevendays.air.aa_fire / aa_effect
        return _aa_shot(bare, tuple((r.max, r.result) for r in house.air.effect))
    table = tuple((r.max, r.result, r.markers) for r in house.damage_table)
    if plan.target_is_vehicle:
        armour = tprofile.armour
        assert armour is not None
        value = armour.front if plan.front else armour.side
        special = heat_vs_special(plan.weapon, armour.special)
        return _vehicle_shot(bare, value, special, table, house.no_penetration_markers)
    return _foot_shot(bare)


def _die(outcomes: dict[Any, Fraction]) -> icepool.Die:
    """A chance's exact outcomes as an icepool die (integer weights)."""
    import icepool  # heavy: only for a caller that wants a die

    denominator = math.lcm(*(p.denominator for p in outcomes.values()))
    return icepool.Die({k: int(p * denominator) for k, p in outcomes.items()})


@cache
def _outcome_die(chance: Chance[Outcome]) -> icepool.Die:
    return _die(chance.outcomes())


def outcome_die(plan: ShotPlan, tprofile: UnitProfile, house: HouseRules) -> icepool.Die:
    """One shot's outcomes (hit, penetrated, destroyed, markers) with exact chances: the
    enumeration of :func:`shot_chance`."""
    return _outcome_die(shot_chance(plan, tprofile, house))


@cache
def _outcome_weights(chance: Chance[Outcome]) -> tuple[dict[Outcome, int], int]:
    return chance.weights()


def outcome_weights(
    plan: ShotPlan, tprofile: UnitProfile, house: HouseRules
) -> tuple[dict[Outcome, int], int]:
    """:func:`outcome_die` as integer weights over their total (the same exact chances,
    counted without fractions or icepool)."""
    return _outcome_weights(shot_chance(plan, tprofile, house))


def p_penetrate(weapon_value: int, armour: int, heat_special: bool) -> Fraction:
    """Exact chance that one hit penetrates ``armour``."""
    return Penetration(weapon_value, armour, heat_special).probability(bool)


def exact_odds(
    plan: ShotPlan,
    tprofile: UnitProfile,
    house: HouseRules,
    *,
    target_markers: int = 0,
    shots: int = 1,
) -> ExactOdds:
    """Exact odds of ``shots`` identical shots at a target already carrying ``target_markers``."""
    single = list(shot_chance(plan, tprofile, house).outcomes().items())
    room = (tprofile.morale or 99) - target_markers
    # (hit yet, penetrated yet, destroyed, markers) -> chance; finished states are absorbing
    states: dict[Outcome, Fraction] = {MISS: Fraction(1)}
    for _ in range(shots):
        after: dict[Outcome, Fraction] = {}
        for state, p in states.items():
            hit, pen, destroyed, markers = state
            if destroyed or markers >= room:
                after[state] = after.get(state, Fraction(0)) + p
                continue
            for (h, n, d, m), q in single:
                key = (hit or h, pen or n, d, 0 if d else min(room, markers + m))
                after[key] = after.get(key, Fraction(0)) + p * q
        states = after
    dist: dict[int, Fraction] = {}
    for (_h, _n, destroyed, markers), p in states.items():
        if not destroyed:
            dist[markers] = dist.get(markers, Fraction(0)) + p
    return ExactOdds(
        shots=shots,
        p_hit=sum((p for s, p in states.items() if s[0]), Fraction(0)),
        p_penetrate=(
            sum((p for s, p in states.items() if s[1]), Fraction(0))
            if plan.target_is_vehicle and plan.weapon_kind != "aa"
            else None
        ),
        p_destroyed=sum((p for s, p in states.items() if s[2]), Fraction(0)),
        p_removed=sum((p for s, p in states.items() if not s[2] and s[3] >= room), Fraction(0)),
        markers=dict(sorted(dist.items())),
    )


def _summary(weighted: tuple[dict[Outcome, int], int], room: int) -> ShotOdds:
    """The float summary of exact integer weights. ``int / int`` is correctly rounded, so each
    float is the nearest to its exact fraction whatever common total the weights are over."""
    weights, total = weighted
    hit = out = expected = 0
    for (h, _pen, destroyed, markers), n in weights.items():
        hit += n if h else 0
        out += n if destroyed or markers >= room else 0
        expected += 0 if destroyed else n * markers
    return ShotOdds(hit / total, out / total, expected / total)


def shot_odds(world: World, plan: ShotPlan, firer: Unit, target: Unit) -> ShotOdds:
    """The chance to hit, to put the target out of action and the markers to expect
    (remembered per world for each distinct set of dice, scores and armour)."""
    weapon = plan.weapon
    key = (
        target.profile,
        target.markers,
        plan.dice,
        plan.need,
        plan.heavy,
        plan.cover,
        plan.front,
        weapon.value,
        weapon.heat,
        weapon.infantry_at,
        weapon.mortar,
        plan.best_die,
        plan.weapon_kind == "aa",
        plan.aa_bonus,
    )
    found = world.odds_cache.get(key)
    if found is None:
        tprofile = world.profile(target)
        room = (tprofile.morale or 99) - target.markers
        weighted = outcome_weights(plan, tprofile, world.house)
        found = world.odds_cache[key] = _summary(weighted, room)
    return found


def d6_test_odds(need: int | None, six_passes: bool = True) -> Fraction:
    """Exact chance of passing a d6 test (activation, reaction): the same chance definition
    play samples (:func:`~umpire.rulesets.sevendays.dice.d6_chance`)."""
    if need is None:
        return Fraction(1)
    return (
        d6_chance("sevendays.odds", need, six_passes=six_passes).outcomes().get(True, Fraction(0))
    )
