"""Potentials for reward shaping, read from a side's own observation.

A potential ``phi(observation, side) -> float`` turns the sparse +1/-1 result into a denser
signal: the Gymnasium env (``gym_env(..., potential=phi)``) adds ``phi(after) - phi(before)``
to every step's reward (potential-based shaping: over a whole game the added rewards sum to
``phi(end) - phi(start)``, so the ranking of whole games by result is kept whenever the
potential agrees with the rules' own verdict).

Each potential here restates a ruleset's own victory evaluation and reads nothing but the
side's observation, so it tells the learner nothing the side may not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _plain(value: Any) -> str:
    return str(getattr(value, "value", value))


def portable_potential(observation: Mapping[str, Any], side: str) -> float:
    """The Portable Wargame's victory score (``portable.victory.result``, in
    ``umpire.rulesets.portable.victory.score``) as one number for ``side``: objectives held
    minus the enemy's, plus the enemy's share of SP lost minus one's own. The rules compare
    objectives first and the share of SP lost only on a tie; a share is at most 1, so one
    objective outweighs nearly any exchange of losses, as in the rules."""
    holders = observation.get("holders", {})
    held = sum(1 if _plain(h) == side else -1 for h in holders.values())
    initial = {_plain(k): v for k, v in observation.get("initial_sp", {}).items()}
    left: dict[str, int] = {s: 0 for s in initial}
    for unit in observation.get("units", []):
        owner = _plain(unit.get("side"))
        # lost_sp counts the SP of ground units still active (portable.exhaustion)
        if unit.get("air") or _plain(unit.get("status")) != "active" or owner not in left:
            continue
        left[owner] += int(unit.get("sp", 0))
    share = 0.0
    for owner, start in initial.items():
        lost = (start - left[owner]) / max(1, start)
        share += -lost if owner == side else lost
    return float(held) + share
