"""Exact odds of a shot, enumerated from the same rule functions the game plays with.

Nothing here restates a rule: the modifiers, the dice, the score needed, the reach, which
weapons can destroy tanks, the landing table and the quality die all come from the pure
functions that :func:`~umpire.rulesets.portable.fire.plan_fire`,
:func:`~umpire.rulesets.portable.artillery.plan_bombard` and the hit resolution call in play.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from umpire.core.errors import UmpireError
from umpire.rulesets.portable.artillery import artillery_modifiers, artillery_reach, landing_on
from umpire.rulesets.portable.common import in_reach, total
from umpire.rulesets.portable.config import house_rules
from umpire.rulesets.portable.fire import fire_dice, fire_modifiers, fire_need, fire_reach, hit_on
from umpire.rulesets.portable.hits import can_destroy_tanks, hit_quality_result, hit_takes_effect
from umpire.rulesets.portable.units import ARTILLERY, unit_types

D6 = range(1, 7)

KNOWN_FLAGS = frozenset(
    {
        "quality",
        "target_quality",
        "target_cover",
        "firer_moved",
        "moved",
        "commander",
        "observed",
        "los",
        "same_target",
        "artillery",
    }
)


def _flag(flags: dict[str, Any], *names: str) -> bool:
    for name in names:
        value = flags.get(name)
        if isinstance(value, str):
            return value not in ("", "open", "no", "false", "none")
        if value:
            return True
    return False


def fire_odds(
    firer: str,
    target: str,
    range: float,
    house: dict[str, Any] | None = None,
    **flags: Any,
) -> dict[str, Any]:
    """Chance a unit type's fire hits a target type at ``range`` squares, how many hits, and
    the chance the target loses at least one SP straight away (by its quality die)."""
    unknown = sorted(set(flags) - KNOWN_FLAGS)
    if unknown:
        raise UmpireError(
            f"portable odds take no {', '.join(repr(k) for k in unknown)}; "
            f"options: {', '.join(sorted(KNOWN_FLAGS))}"
        )
    types = unit_types()
    h = house_rules(house)
    if target not in types.ground:
        raise UmpireError(f"unknown target type {target!r}; known: {', '.join(types.ground)}")
    quality = str(flags.get("quality") or flags.get("target_quality") or "average")
    if quality not in h.hit_loses_sp:
        raise UmpireError(f"quality {quality!r}: choose elite, average or poor")
    cover = _flag(flags, "target_cover")
    moved = _flag(flags, "firer_moved", "moved")
    commander = _flag(flags, "commander")
    if firer in types.artillery or (
        firer in types.ground
        and types.ground[firer].weapon is None
        and types.ground[firer].kind in ARTILLERY
    ):
        art_id = firer if firer in types.artillery else str(flags.get("artillery") or "field")
        if art_id not in types.artillery:
            raise UmpireError(
                f"unknown artillery class {art_id!r}; known: {', '.join(types.artillery)}"
            )
        art = types.artillery[art_id]
        reach = artillery_reach(art)
        if not in_reach(range, reach):
            raise UmpireError(f"{art.name} reach {reach} squares, not {range:g}")
        mod = total(
            artillery_modifiers(
                h,
                cover=cover,
                observed=_flag(flags, "observed", "los"),
                same_target=_flag(flags, "same_target"),
                commander=commander,
            )
        )
        where: dict[str, Fraction] = {}
        for die in D6:
            spot = landing_on(die + mod, h)
            where[spot] = where.get(spot, Fraction(0)) + Fraction(1, 6)
        p_hit = where.get("target", Fraction(0))
        hits = {"0": 1 - p_hit, "1": p_hit}
        destroys = can_destroy_tanks(art)
        name = art.name
        extra: dict[str, Any] = {"landing": {k: float(v) for k, v in sorted(where.items())}}
    else:
        if firer not in types.ground or types.ground[firer].weapon is None:
            raise UmpireError(f"{firer!r} has no weapon (known: {', '.join(types.ground)})")
        weapon = types.weapons[types.ground[firer].weapon or ""]
        reach, _ = fire_reach(weapon)
        if not in_reach(range, reach):
            raise UmpireError(f"{weapon.name} reach {reach} squares, not {range:g}")
        mod = total(fire_modifiers(h, cover=cover, moved=moved, commander=commander))
        need = fire_need(h)
        n_dice = fire_dice(weapon)
        counts: dict[int, Fraction] = {}
        for dice in itertools.product(D6, repeat=n_dice):
            n = sum(1 for d in dice if hit_on(d, mod, need))
            counts[n] = counts.get(n, Fraction(0)) + Fraction(1, 6**n_dice)
        hits = {str(k): v for k, v in sorted(counts.items())}
        p_hit = 1 - counts.get(0, Fraction(0))
        destroys = can_destroy_tanks(weapon)
        name = weapon.name
        extra = {}
    if hit_takes_effect(destroys, types.ground[target].kind):
        p_loss_per_hit = Fraction(
            sum(1 for d in D6 if hit_quality_result(d, quality, h) == "lose_sp"), 6
        )
        p_retreat_per_hit = 1 - p_loss_per_hit
    else:
        p_loss_per_hit = Fraction(0)
        p_retreat_per_hit = Fraction(0)
    p_no_loss = sum((p * (1 - p_loss_per_hit) ** int(k) for k, p in hits.items()), Fraction(0))
    return {
        "weapon": name,
        "modifier": mod,
        "p_hit": float(p_hit),
        "hits": {k: float(v) for k, v in hits.items()},
        "p_sp_loss": float(1 - p_no_loss),
        "p_retreat_or_loss_per_hit": float(p_retreat_per_hit),
        **extra,
    }
