"""The ruleset protocol and the registry of rule systems.

A ruleset is a set of functions over its own plain-data state. ``apply`` validates an action and
then changes the state in place, returning the events it caused; if the action is illegal it
raises :class:`~umpire.core.errors.IllegalActionError` and leaves the state untouched. Mutating in
place (rather than returning a copy) keeps Monte Carlo runs fast; :class:`~umpire.core.game.Game`
gives callers the immutable view (undo and branching replay the record).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from umpire.core.actions import Action
from umpire.core.errors import UmpireError, UnknownRulesetError
from umpire.core.events import Event


@dataclass(frozen=True)
class RulesetMeta:
    """What a ruleset declares about itself (OpenSpiel-style game metadata)."""

    id: str
    version: str
    title: str
    players: tuple[str, ...]
    chance: str = "sampled"  # dice are drawn from the state's random stream
    information: str = "perfect"  # or "imperfect" where hidden information exists
    max_turns: int | None = None


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winner: str  # a player id or "draw"
    how: str  # e.g. "break point reached", "objectives", "turn limit"
    details: Mapping[str, Any] = field(default_factory=dict)


class Ruleset(Protocol):
    """What every rule system provides to the engine and its adapters."""

    meta: RulesetMeta

    def scenario_ids(self) -> list[str]: ...

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> Any: ...

    def to_act(self, state: Any) -> str | None: ...

    def legal_actions(self, state: Any) -> list[Action]: ...

    def apply(self, state: Any, action: Action) -> list[Event]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def observation(self, state: Any, player: str) -> dict[str, Any]: ...

    def state_to_dict(self, state: Any) -> dict[str, Any]: ...

    def state_from_dict(self, data: Mapping[str, Any]) -> Any: ...

    def clone(self, state: Any) -> Any: ...

    def describe(self, state: Any, action: Action) -> str: ...

    def summary(self, state: Any) -> dict[str, Any]: ...


_REGISTRY: dict[str, str] = {
    "sevendays": "umpire.rulesets.sevendays.ruleset:SevenDays",
    "portable": "umpire.rulesets.portable.ruleset:Portable",
}
_LOADED: dict[str, Ruleset] = {}


def ruleset_ids() -> list[str]:
    """Ids of every registered rule system."""
    return sorted(_REGISTRY)


def register(ruleset_id: str, target: str) -> None:
    """Register a ruleset class by import path (``"package.module:Class"``)."""
    _REGISTRY[ruleset_id] = target
    _LOADED.pop(ruleset_id, None)


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered under ``ruleset_id`` (imported on first use)."""
    if ruleset_id not in _REGISTRY:
        known = ", ".join(ruleset_ids())
        raise UnknownRulesetError(f"unknown ruleset {ruleset_id!r}; known rulesets: {known}")
    if ruleset_id not in _LOADED:
        module_name, _, class_name = _REGISTRY[ruleset_id].partition(":")
        cls = getattr(importlib.import_module(module_name), class_name)
        _LOADED[ruleset_id] = cls()
    return _LOADED[ruleset_id]


def load_house_rules(ruleset: Ruleset, path: Path) -> dict[str, Any]:
    """A user's house-rules override file for ``ruleset``, validated by the ruleset."""
    loader = getattr(ruleset, "load_house_rules", None)
    if loader is None:
        raise UmpireError(f"{ruleset.meta.id} has no house rules to override")
    data: dict[str, Any] = loader(path)
    return data


def split_game_id(game_id: str) -> tuple[str, str]:
    """``"sevendays/meeting-engagement"`` -> ``("sevendays", "meeting-engagement")``."""
    ruleset_id, sep, scenario = game_id.partition("/")
    if not sep or not scenario:
        raise UnknownRulesetError(
            f"{game_id!r} is not of the form RULESET/SCENARIO, e.g. sevendays/meeting-engagement"
        )
    return ruleset_id, scenario
