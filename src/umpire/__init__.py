"""Umpire: an engine that plays tabletop wargames by their rules."""

from umpire.core.errors import (
    DataFileError,
    IllegalActionError,
    UmpireError,
    UnknownRulesetError,
    UnknownScenarioError,
)
from umpire.core.game import Game, load_record, new_game, replay

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
