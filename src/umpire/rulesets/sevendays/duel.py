"""Small battles laid out by the analysis tools: ``a`` of one unit against ``b`` of another.

House layout (for ``umpire balance``, not a scenario of the book): an open 48"x36" table with a
copse on each flank, the two groups in line abreast ``range`` inches apart, six turns, each side
broken at half its BP; at the turn limit the side that destroyed more BP wins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from umpire.core.errors import UmpireError
from umpire.rulesets.sevendays.orbat import UnitProfile
from umpire.rulesets.sevendays.scenario import load_nation
from umpire.rulesets.sevendays.shot_query import _key, nations

WIDTH, HEIGHT = 48.0, 36.0
SPACING = 5.0


def find_unit(name: str, nation: str | None = None, role: str = "unit") -> tuple[str, UnitProfile]:
    """(nation, profile) for a unit name or id; the first nation that lists it unless given."""
    wanted = _key(name)
    for n in [nation] if nation else nations():
        for profile in load_nation(n).units:
            if wanted in (_key(profile.name), _key(profile.id)):
                return n, profile
    from umpire.rulesets.sevendays.shot_query import find_profile

    find_profile(name, nation, role)  # raises the helpful error
    raise UmpireError(f"--{role} {name!r} not found")  # pragma: no cover - find_profile raised


def _line(nation_profile: tuple[str, UnitProfile], count: int, y: float, tag: str) -> list[Any]:
    _, profile = nation_profile
    start = WIDTH / 2 - SPACING * (count - 1) / 2
    return [
        {"id": f"{tag}{i + 1}", "profile": profile.id, "at": [start + SPACING * i, y]}
        for i in range(count)
    ]


def duel_scenario(
    unit: tuple[str, UnitProfile],
    count: int,
    against: tuple[str, UnitProfile],
    against_count: int,
    range_: float = 24.0,
) -> tuple[dict[str, Any], str]:
    """The scenario data: ``unit`` x ``count`` on its side's (southern) edge, ``against``
    opposite; returns the scenario and the side ``unit`` fights for."""
    if not 6.0 <= range_ <= HEIGHT - 4:
        raise UmpireError(f"--range {range_}: choose 6 to {HEIGHT - 4:g} inches")
    if max(count, against_count) * SPACING > WIDTH:
        raise UmpireError("too many units for the duel table")
    side = load_nation(unit[0]).side
    other = load_nation(against[0]).side
    if side == other:
        raise UmpireError(
            f"{unit[1].name} and {against[1].name} both fight for {side}: pick an enemy unit"
        )
    south = (HEIGHT - range_) / 2
    return {
        "id": "duel",
        "name": f"Duel: {count} {unit[1].name} vs {against_count} {against[1].name}",
        "provenance": "house",
        "description": "A small battle laid out by umpire balance.",
        "table": {"width": WIDTH, "height": HEIGHT},
        "turns": 6,
        "break_point_fraction": {"nato": 0.5, "pact": 0.5},
        "first_initiative": "roll",
        "objectives": [],
        "terrain": [
            {"id": "west-copse", "kind": "woods", "rect": [2, 14, 8, 22]},
            {"id": "east-copse", "kind": "woods", "rect": [40, 14, 46, 22]},
        ],
        "roads": [],
        "sides": {
            side: {
                "nation": unit[0],
                "facing": 90,
                "units": _line(unit, count, south, "a"),
            },
            other: {
                "nation": against[0],
                "facing": 270,
                "units": _line(against, against_count, south + range_, "b"),
            },
        },
    }, side


def write_duel(path: Path, data: dict[str, Any]) -> str:
    """Write the scenario and return the game id that plays it."""
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return f"sevendays/{path}"
