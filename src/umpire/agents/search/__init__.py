"""The search player: determinised information-set MCTS over the ruleset contract, with
personalities and a plain-words "why" for each decision (see ``docs/search-ai.md``)."""

from umpire.agents.search.agent import DEFAULT_THINK, SearchAgent, parse_spec
from umpire.agents.search.evaluate import Evaluation, Heuristic, Term, evaluate
from umpire.agents.search.mcts import Settings, search
from umpire.agents.search.personality import PRESETS, Personality, personality

__all__ = [
    "DEFAULT_THINK",
    "PRESETS",
    "Evaluation",
    "Heuristic",
    "Personality",
    "SearchAgent",
    "Settings",
    "Term",
    "evaluate",
    "parse_spec",
    "personality",
    "search",
]
