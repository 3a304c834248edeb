"""Seven Days' small shared vocabulary: unit classes and traits, the notations of the ORBAT
statistics, terrain going and mover classes, and the bounds a data file may not pass. A leaf
module: the plain data (``config``, ``orbat``, whose dataclasses are also the schema pydantic
checks a user's file with) and the scenario file's models (``scenario_spec``) read it."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Literal

Going = Literal["open", "rough", "very_rough", "impassable"]
MoverClass = Literal["foot", "tracked", "wheeled", "atv"]


MAX_INCHES = 1000.0  # no table is near this; a larger distance is a mistake
MAX_TURNS = 50
"""The most turns ``random_length.max_turns`` may allow (the book's operations last a handful):
a game must end long before the engine's action cap."""


class UnitType(StrEnum):
    """The book's unit classes (they drive movement, dice and reaction numbers)."""

    INFANTRY = "infantry"
    SUPPORT = "support"
    LIGHT = "light"
    MBT = "mbt"
    HELICOPTER = "helicopter"


TRAITS = frozenset(
    {
        "apc",  # transport for one infantry or support unit; generates no command token
        "apc_plus",  # transport for two units
        "apc_minus",  # transport for one support team only
        "thermal",  # thermal sights: ignores the obscured modifier
        "recce",  # reconnaissance unit
        "atv",  # all-terrain wheeled vehicle
        "wheeled",  # wheeled vehicle (terrain tests)
        "fast",  # fast MBT: moves as a light vehicle
        "fixed_forward",  # weapon fixed to the front: 90 degree arc
        "sam",  # surface-to-air missile vehicle (AA reaction 5+, +2 on the AA hit effect)
        "aa",  # its gun may engage helicopters (AA reaction 6+, or the line's aa_to_hit)
        "manpad",  # carries man-portable air defence (AA reaction 8+)
        "rockets",  # attack helicopter rockets (5+ to hit, heavy against infantry)
        "law",  # infantry portable anti-tank weapons (LAW / RPG)
        "mortar",  # mortar unit
        "atgm_team",  # support team whose only weapon is an ATGM
        "grenade_launcher",  # automatic grenade launcher
        "cherry_picker",  # ATGM launcher on a raised mast
        "amphibious",
        "command",  # may be chosen as the battlegroup commander
    }
)

ARMOUR = re.compile(r"^(\d+)(s?)$")
WEAPON = re.compile(r"^(\d+)\+?([ahim]*)$")
TO_HIT = re.compile(r"^(\d+)\+([m]?)$")
