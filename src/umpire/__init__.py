"""Umpire: an engine that plays tabletop wargames by their rules.

The public names below are loaded on first use (module ``__getattr__``), so that importing a
small part of the package (``umpire odds``, a ruleset's shot query) does not pull in the game
machinery and its heavy dependencies.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from umpire.core.errors import (
        DataFileError,
        IllegalActionError,
        UmpireError,
        UnknownRulesetError,
        UnknownScenarioError,
    )
    from umpire.core.game import Game, load_record, new_game, replay

_LAZY = {
    "DataFileError": "umpire.core.errors",
    "IllegalActionError": "umpire.core.errors",
    "UmpireError": "umpire.core.errors",
    "UnknownRulesetError": "umpire.core.errors",
    "UnknownScenarioError": "umpire.core.errors",
    "Game": "umpire.core.game",
    "load_record": "umpire.core.game",
    "new_game": "umpire.core.game",
    "replay": "umpire.core.game",
}

__all__ = [
    "DataFileError",
    "Game",
    "IllegalActionError",
    "UmpireError",
    "UnknownRulesetError",
    "UnknownScenarioError",
    "load_record",
    "new_game",
    "replay",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'umpire' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
