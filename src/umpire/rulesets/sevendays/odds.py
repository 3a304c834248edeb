"""Exact odds of a planned shot, enumerated with icepool from the rule functions play uses.

The dice of a shot (to hit, penetration, damage, conversion) are icepool dice pushed through
the same pure functions that :mod:`~umpire.rulesets.sevendays.firing` and
:mod:`~umpire.rulesets.sevendays.damage` call on the game's rolled dice: ``hits_scored``,
``penetration_die``, ``penetrates``, ``damage_row``, ``conversion`` and
``conversion_markers``. Nothing here restates a rule, so a rule change moves the odds with it.

Used by the human player's menu, the scripted AI and ``umpire odds``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import icepool

from umpire.rulesets.sevendays.air import effect_row
from umpire.rulesets.sevendays.config import AaEffectRow, DamageRow, HouseRules
from umpire.rulesets.sevendays.damage import (
    Penetration,
    conversion_roll,
    damage_row,
    heat_vs_special,
    mortar_damage,
)
from umpire.rulesets.sevendays.dice import d6_chance
from umpire.rulesets.sevendays.orbat import UnitProfile
from umpire.rulesets.sevendays.shots import ShotPlan, hits_scored
from umpire.rulesets.sevendays.state import Unit
from umpire.rulesets.sevendays.world import World

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


@cache
def _pool(count: int, sides: int) -> icepool.Die:
    """The sorted tuples ``count`` dice can show, with their chances."""
    return icepool.Pool([icepool.Die(range(1, sides + 1))] * count).expand()


@cache
def _vehicle_shot(
    dice: int,
    need: int,
    weapon_value: int,
    armour: int,
    heat_special: bool,
    damage_table: tuple[tuple[int, str, int], ...],
    no_penetration_markers: int,
) -> icepool.Die:
    rows = [
        DamageRow.model_validate({"max": m, "result": r, "markers": k}) for m, r, k in damage_table
    ]

    def damage(die: int) -> Outcome:
        row = damage_row(rows, die)
        if row.result == "destroyed":
            return (True, True, True, 0)
        return (True, True, False, row.markers)

    damaged = icepool.d6.map(damage)
    pen = _penetration(weapon_value, armour, heat_special)
    after_hit = pen.map(
        lambda through: damaged if through else (True, False, False, no_penetration_markers)
    )
    hits = _pool(dice, 10).map(lambda ds: hits_scored(ds, need, True))
    return hits.map(lambda h: after_hit if h else MISS)


@cache
def _mortar_vehicle_shot(need: int, damage_table: tuple[tuple[int, str, int], ...]) -> icepool.Die:
    rows = [
        DamageRow.model_validate({"max": m, "result": r, "markers": k}) for m, r, k in damage_table
    ]

    def damage(die: int) -> Outcome:
        row = damage_row(rows, mortar_damage(die))
        return (
            True,
            False,
            row.result == "destroyed",
            0 if row.result == "destroyed" else row.markers,
        )

    damaged = icepool.d6.map(damage)
    hits = _pool(1, 10).map(lambda ds: hits_scored(ds, need, True))
    return hits.map(lambda h: damaged if h else MISS)


def _die(outcomes: dict[Any, Fraction]) -> icepool.Die:
    """A chance's exact outcomes as an icepool die (integer weights)."""
    denominator = math.lcm(*(p.denominator for p in outcomes.values()))
    return icepool.Die({k: int(p * denominator) for k, p in outcomes.items()})


@cache
def _penetration(weapon_value: int, armour: int, heat_special: bool) -> icepool.Die:
    return _die(Penetration(weapon_value, armour, heat_special).outcomes())


def p_penetrate(weapon_value: int, armour: int, heat_special: bool) -> Fraction:
    """Exact chance that one hit penetrates ``armour``."""
    return Fraction(_penetration(weapon_value, armour, heat_special).probability(True))


@cache
def _foot_shot(dice: int, need: int, heavy: bool, cover: str) -> icepool.Die:
    def markers(hits: int) -> icepool.Die | Outcome:
        if hits == 0:
            return MISS
        extra = _die(conversion_roll(hits, heavy, cover).outcomes())
        return extra.map(lambda k: (True, False, False, hits + k))

    return _pool(dice, 10).map(lambda ds: hits_scored(ds, need, False)).map(markers)


@cache
def _aa_shot(dice: int, need: int, bonus: int, table: tuple[tuple[int, str], ...]) -> icepool.Die:
    """An AA shot at a helicopter: "destroyed" is the helicopter lost (damaged or shot down)."""
    rows = [AaEffectRow.model_validate({"max": m, "result": r}) for m, r in table]
    lost = icepool.d6.map(
        lambda die: (True, False, effect_row(rows, die + bonus).result != "evades", 0)
    )
    hits = _pool(dice, 10).map(lambda ds: hits_scored(ds, need, True))
    return hits.map(lambda h: lost if h else MISS)


def outcome_die(plan: ShotPlan, tprofile: UnitProfile, house: HouseRules) -> icepool.Die:
    """One shot's outcomes (hit, penetrated, destroyed, markers) with exact chances."""
    if plan.weapon_kind == "aa":  # sevendays.air.aa_fire / aa_effect
        effect = tuple((r.max, r.result) for r in house.air.effect)
        return _aa_shot(plan.dice, plan.need, plan.aa_bonus, effect)
    if plan.target_is_vehicle and plan.weapon.mortar:
        table = tuple((r.max, r.result, r.markers) for r in house.damage_table)
        return _mortar_vehicle_shot(plan.need, table)
    if plan.target_is_vehicle:
        armour = tprofile.armour
        assert armour is not None
        value = armour.front if plan.front else armour.side
        table = tuple((r.max, r.result, r.markers) for r in house.damage_table)
        return _vehicle_shot(
            plan.dice,
            plan.need,
            plan.weapon.value,
            value,
            heat_vs_special(plan.weapon, armour.special),
            table,
            house.no_penetration_markers,
        )
    return _foot_shot(plan.dice, plan.need, plan.heavy, plan.cover)


def exact_odds(
    plan: ShotPlan,
    tprofile: UnitProfile,
    house: HouseRules,
    *,
    target_markers: int = 0,
    shots: int = 1,
) -> ExactOdds:
    """Exact odds of ``shots`` identical shots at a target already carrying ``target_markers``."""
    die = outcome_die(plan, tprofile, house)
    single = [(o, Fraction(n, die.denominator())) for o, n in die.items()]
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


@cache
def _summary(die: icepool.Die, room: int) -> ShotOdds:
    total = die.denominator()
    hit = out = expected = 0
    for (h, _pen, destroyed, markers), n in die.items():
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
        plan.weapon_kind == "aa",
        plan.aa_bonus,
    )
    found = world.odds_cache.get(key)
    if found is None:
        tprofile = world.profile(target)
        room = (tprofile.morale or 99) - target.markers
        found = world.odds_cache[key] = _summary(outcome_die(plan, tprofile, world.house), room)
    return found


def d6_test_odds(need: int | None, six_passes: bool = True) -> Fraction:
    """Exact chance of passing a d6 test (activation, reaction): the same chance definition
    play samples (:func:`~umpire.rulesets.sevendays.dice.d6_chance`)."""
    if need is None:
        return Fraction(1)
    return (
        d6_chance("sevendays.odds", need, six_passes=six_passes).outcomes().get(True, Fraction(0))
    )
