"""Exact odds of a shot, enumerated from the same chance definitions the game plays with.

Nothing here restates a rule or a die: the modifiers, the reach and which weapons can destroy
tanks come from the pure functions :func:`~umpire.rulesets.portable.fire.plan_fire` and
:func:`~umpire.rulesets.portable.artillery.plan_bombard` use, and the dice are the very
:mod:`umpire.core.chance` objects play samples (:func:`~umpire.rulesets.portable.fire.shot_hits`,
:func:`~umpire.rulesets.portable.artillery.landing_roll`,
:func:`~umpire.rulesets.portable.hits.hit_loses_sp`), here enumerated exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from umpire.core.chance import Chance, repeat
from umpire.core.errors import UmpireError
from umpire.rulesets.portable.artillery import artillery_modifiers, artillery_reach, landing_roll
from umpire.rulesets.portable.common import in_reach, total
from umpire.rulesets.portable.config import house_rules
from umpire.rulesets.portable.enums import Landing
from umpire.rulesets.portable.fire import (
    fire_dice,
    fire_modifiers,
    fire_need,
    fire_reach,
    shot_hits,
)
from umpire.rulesets.portable.hits import can_destroy_tanks, hit_loses_sp, spares_last_sp
from umpire.rulesets.portable.units import ARTILLERY, unit_types

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
    if not 0 < range < math.inf:  # NaN fails too
        raise UmpireError(f"--range {range:g}: must be a number of squares more than 0")
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
        # portable.artillery.modifier.observed: a target in cover (not merely fortified) is
        # out of direct sight, so the +2 cannot apply to it
        in_cover = str(flags.get("target_cover") or "").lower() == "cover"
        mods = artillery_modifiers(
            h,
            cover=cover,
            observed=_flag(flags, "observed", "los") and not in_cover,
            same_target=_flag(flags, "same_target"),
            commander=commander,
        )
        mod = total(mods)
        landing = landing_roll(mods, h)
        where = {str(k): v for k, v in landing.outcomes().items()}
        hit_count: Chance[int] = landing.map(lambda spot: int(spot is Landing.TARGET))
        hit_keys = [0, 1]
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
        mods = fire_modifiers(h, cover=cover, moved=moved, commander=commander)
        mod = total(mods)
        hit_count = shot_hits(mods, fire_need(h), fire_dice(weapon))
        hit_keys = sorted(hit_count.outcomes())
        destroys = can_destroy_tanks(weapon)
        name = weapon.name
        extra = {}
    counts = hit_count.outcomes()
    hits = {str(k): counts.get(k, Fraction(0)) for k in hit_keys}
    p_hit = hit_count.probability(lambda n: n > 0)
    # portable.fire.destroy_tanks: every hit is resolved alike; a weapon that cannot destroy
    # tanks only spares a tank its last SP (these odds are for a target above 1 SP)
    loss: Chance[bool] = hit_loses_sp(quality, h)
    p_loss_per_hit = loss.probability(bool)
    p_retreat_per_hit = 1 - p_loss_per_hit
    if spares_last_sp(destroys, types.ground[target].kind):
        extra = {**extra, "keeps_last_sp": True}
    # every hit is resolved by its own quality die: at least one of them costs an SP
    losses = hit_count.then(lambda n: repeat(loss.map(int), n))
    p_sp_loss = losses.probability(lambda lost: lost > 0)
    return {
        "weapon": name,
        "modifier": mod,
        "p_hit": float(p_hit),
        "hits": {k: float(v) for k, v in hits.items()},
        "p_sp_loss": float(p_sp_loss),
        "p_retreat_or_loss_per_hit": float(p_retreat_per_hit),
        **extra,
    }
