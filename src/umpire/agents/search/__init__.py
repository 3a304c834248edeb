"""The search player: determinised information-set MCTS over the ruleset contract, with
personalities and a plain-words "why" for each decision (see ``docs/search-ai.md``)."""

from umpire.agents.search.agent import (
    DEFAULT_MODES,
    DEFAULT_THINK,
    MODES,
    SearchAgent,
    Spec,
    default_mode,
    parse_search_spec,
    parse_spec,
)
from umpire.agents.search.evaluate import Evaluation, Heuristic, Term, evaluate
from umpire.agents.search.mcts import Settings, search
from umpire.agents.search.personality import PRESETS, Personality, personality

__all__ = [
    "DEFAULT_MODES",
    "DEFAULT_THINK",
    "MODES",
    "PRESETS",
    "Evaluation",
    "Heuristic",
    "Personality",
    "SearchAgent",
    "Settings",
    "Spec",
    "Term",
    "default_mode",
    "evaluate",
    "parse_search_spec",
    "parse_spec",
    "personality",
    "search",
]
