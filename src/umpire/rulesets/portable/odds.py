"""Exact odds of a shot, enumerated from the same rule functions the game plays with."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from umpire.core.errors import UmpireError
from umpire.rulesets.portable.artillery import landing
from umpire.rulesets.portable.config import house_rules
from umpire.rulesets.portable.fire import hit_on
from umpire.rulesets.portable.hits import quality_result
from umpire.rulesets.portable.units import TANKS, unit_types
from umpire.rulesets.portable.world import World

D6 = range(1, 7)


class _Tables:
    """Just enough of a World for the pure rule functions (house rules only)."""

    def __init__(self, override: dict[str, Any] | None) -> None:
        self.house = house_rules(override)


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
    types = unit_types()
    tables = _Tables(house)
    world: World = tables  # type: ignore[assignment]
    h = tables.house
    if target not in types.ground:
        raise UmpireError(f"unknown target type {target!r}; known: {', '.join(types.ground)}")
    quality = str(flags.get("quality") or flags.get("target_quality") or "average")
    if quality not in h.hit_loses_sp:
        raise UmpireError(f"quality {quality!r}: choose elite, average or poor")
    cover = _flag(flags, "target_cover", "cover")
    moved = _flag(flags, "firer_moved", "moved")
    commander = _flag(flags, "commander")
    if firer in types.artillery or (
        firer in types.ground
        and types.ground[firer].weapon is None
        and types.ground[firer].kind in ("artillery", "sp_artillery")
    ):
        art_id = firer if firer in types.artillery else str(flags.get("artillery") or "field")
        art = types.artillery[art_id]
        if range > art.range:
            raise UmpireError(f"{art.name} reach {art.range} squares, not {range:g}")
        am = h.artillery_modifiers
        mod = (am["cover"] if cover else 0) + (am["commander"] if commander else 0)
        mod += am["observed"] if _flag(flags, "observed", "los") else 0
        mod += am["same_target"] if _flag(flags, "same_target") else 0
        where: dict[str, Fraction] = {}
        for die in D6:
            spot = landing(die + mod, world)
            where[spot] = where.get(spot, Fraction(0)) + Fraction(1, 6)
        p_hit = where.get("target", Fraction(0))
        hits = {"0": 1 - p_hit, "1": p_hit}
        destroys = True
        name = art.name
        extra: dict[str, Any] = {"landing": {k: float(v) for k, v in sorted(where.items())}}
    else:
        if firer not in types.ground or types.ground[firer].weapon is None:
            raise UmpireError(f"{firer!r} has no weapon (known: {', '.join(types.ground)})")
        weapon = types.weapons[types.ground[firer].weapon or ""]
        if range > weapon.range:
            raise UmpireError(f"{weapon.name} reach {weapon.range} squares, not {range:g}")
        fm = h.fire_modifiers
        mod = (fm["cover"] if cover else 0) + (0 if moved else fm["not_moved"])
        mod += fm["commander"] if commander else 0
        counts: dict[int, Fraction] = {}
        for dice in itertools.product(D6, repeat=weapon.dice):
            n = sum(1 for d in dice if hit_on(d, mod, h.fire_hit))
            counts[n] = counts.get(n, Fraction(0)) + Fraction(1, 6**weapon.dice)
        hits = {str(k): v for k, v in sorted(counts.items())}
        p_hit = 1 - counts.get(0, Fraction(0))
        destroys = weapon.destroys_tanks
        name = weapon.name
        extra = {}
    if not destroys and types.ground[target].kind in TANKS:
        p_loss_per_hit = Fraction(0)
        p_retreat_per_hit = Fraction(0)
    else:
        p_loss_per_hit = Fraction(
            sum(1 for d in D6 if quality_result(d, quality, world) == "lose_sp"), 6
        )
        p_retreat_per_hit = 1 - p_loss_per_hit
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
