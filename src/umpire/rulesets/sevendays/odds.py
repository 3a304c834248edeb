"""Exact odds of a planned shot, by enumerating the dice (no sampling).

Used for the numbered menu a human player sees and by the scripted AI. ``tests`` cross-check the
numbers against icepool.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from umpire.rulesets.sevendays.damage import conversion, heat_vs_special, hits_front
from umpire.rulesets.sevendays.firing import ShotPlan
from umpire.rulesets.sevendays.state import Unit
from umpire.rulesets.sevendays.world import World


@dataclass(frozen=True)
class ShotOdds:
    hit: float  # at least one hit
    out: float  # the target destroyed or removed by this shot
    markers: float  # expected morale markers added (when not destroyed outright)


def p_die(need: int, sides: int = 10) -> float:
    """Chance one die scores ``need`` or more."""
    return min(1.0, max(0.0, (sides + 1 - need) / sides))


@cache
def _binomial(n: int, p: float) -> tuple[float, ...]:
    from math import comb

    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


def p_penetrate(weapon_value: int, armour: int, heat_special: bool) -> float:
    """Chance the penetration roll (d10, or 2d10 keep lowest) plus weapon exceeds armour."""
    need = armour + 1 - weapon_value  # die score needed
    p = p_die(need)
    return p * p if heat_special else p


def shot_odds(world: World, plan: ShotPlan, firer: Unit, target: Unit) -> ShotOdds:
    p1 = p_die(plan.need)
    tprofile = world.profile(target)
    morale = tprofile.morale or 99
    room = morale - target.markers  # markers that would remove it
    if plan.target_is_vehicle:
        p_hit = 1 - (1 - p1) ** plan.dice
        armour = tprofile.armour
        assert armour is not None
        value = armour.front if hits_front(target, firer.pos) else armour.side
        pen = p_penetrate(plan.weapon.value, value, heat_vs_special(plan.weapon, armour.special))
        outcomes: list[tuple[float, int | None]] = [(1 - p_hit, 0)]  # (prob, markers or None)
        outcomes.append((p_hit * (1 - pen), world.house.no_penetration_markers))
        low = 0
        for row in world.house.damage_table:
            share = (row.max - low) / 6
            low = row.max
            markers = None if row.result == "destroyed" else row.markers
            outcomes.append((p_hit * pen * share, markers))
        out = sum(p for p, m in outcomes if m is None or m >= room)
        expected = sum(p * m for p, m in outcomes if m is not None)
        return ShotOdds(p_hit, out, expected)
    cover = "cover" if world.in_cover(target) else "open"
    per_hit, need = conversion(plan.heavy, cover)
    q = p_die(need, 6)
    dist_hits = _binomial(plan.dice, p1)
    out = 0.0
    expected = 0.0
    for hits, ph in enumerate(dist_hits):
        if hits == 0 or ph == 0.0:
            continue
        extra = _binomial(per_hit * hits, q)
        for k, pk in enumerate(extra):
            total = hits + k
            expected += ph * pk * total
            if total >= room:
                out += ph * pk
    return ShotOdds(1 - dist_hits[0], out, expected)
