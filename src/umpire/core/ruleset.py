"""The ruleset contract and the registry of rule systems.

A ruleset is a set of functions over its own plain-data state ``S``. ``apply`` validates an
action and then changes the state in place, returning the events it caused; if the action is
illegal it raises :class:`~umpire.core.errors.IllegalActionError` and leaves the state untouched.
Mutating in place (rather than returning a copy) keeps Monte Carlo runs fast;
:class:`~umpire.core.game.Game` gives callers the immutable view (undo and branching replay the
record).

Beyond the core functions, a ruleset declares :class:`Capabilities`: exact odds, a board for the
web table, a terminal drawing, per-side and game options for the command line, a scripted agent,
its rule catalogue, house rules and force files. Adapters (CLI, server, analysis) ask for a
capability and say clearly when a ruleset lacks it; they never name a ruleset.

Rulesets register through the ``umpire.rulesets`` entry-point group::

    [project.entry-points."umpire.rulesets"]
    mygame = "my_package.rules:RULESET"

so a new ruleset is its own package plus that one line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, runtime_checkable

from umpire.core.actions import Action
from umpire.core.errors import UmpireError, UnknownRulesetError
from umpire.core.events import Event

if TYPE_CHECKING:
    from umpire.core.catalog import RuleEntry
    from umpire.core.view import Agent

S = TypeVar("S")
ENTRY_POINT_GROUP = "umpire.rulesets"


@dataclass(frozen=True)
class RulesetMeta:
    """What a ruleset declares about itself (OpenSpiel-style game metadata)."""

    id: str
    version: str
    title: str
    players: tuple[str, ...]
    chance: Literal["sampled", "deterministic"] = "sampled"
    information: Literal["perfect", "imperfect"] = "perfect"
    max_turns: int | None = None
    # the most actions a game can take (the flow's cap; play stops a game there as unfinished)
    max_actions: int = 100_000
    # the scenario played when only the ruleset is named (else its first scenario)
    default_scenario: str | None = None
    # menus list rulesets by rank, then id; the lowest rank is the game played by default
    rank: int = 100


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winner: str  # a player id or "draw"
    how: str  # e.g. "break point reached", "objectives", "turn limit"
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ScenarioInfo:
    """A scenario as a menu shows it: id, title and a one-line briefing."""

    id: str
    title: str
    briefing: str = ""


# -- capabilities -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Option:
    """A command-line / lobby option a ruleset declares.

    ``name`` is the flag without dashes (``cards`` -> ``--cards``; a boolean also gets
    ``--no-cards``). ``per_side`` options are spelled once per side (``--nato-force FILE``,
    ``--pact-force FILE``) and stored under ``key`` as ``{side: value}``. ``key`` is the game
    option it sets (default ``name``). ``type`` is ``bool``, ``int``, ``float``, ``str`` or
    ``path`` (a file the user names)."""

    name: str
    help: str
    type: Literal["bool", "int", "float", "str", "path"] = "str"
    key: str | None = None
    per_side: bool = False
    choices: tuple[str, ...] = ()
    default: Any = None

    @property
    def option_key(self) -> str:
        return self.key or self.name.replace("-", "_")


@runtime_checkable
class OddsCapability(Protocol):
    """``umpire odds RULESET ...``: exact distributions from the game's own chance
    primitives. ``options`` declares the flags; ``answer`` returns the JSON object and the
    lines to print."""

    options: Sequence[Option]

    def answer(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]: ...


@runtime_checkable
class BoardCapability(Protocol):
    """The web table's drawing of a position as one side sees it (JSON for the page), built
    only from that side's observation, and the odds or sight of a proposed action."""

    kind: str  # "table" (continuous inches), "squares", "hexes"

    def board(
        self, game: Any, observation: Mapping[str, Any], viewer: str | None
    ) -> dict[str, Any]: ...

    def action_details(
        self, game: Any, observation: Mapping[str, Any], viewer: str, action: Action
    ) -> dict[str, Any] | None: ...


@runtime_checkable
class HouseRulesCapability(Protocol):
    """House-rule numbers a user may override from a YAML file."""

    def load(self, path: Path) -> dict[str, Any]: ...


@runtime_checkable
class ForcesCapability(Protocol):
    """Force files: load, check and deploy a side's force into a game's options (the
    ``--SIDE-force FILE`` options and ``umpire force new|check|import``)."""

    def prepare_options(self, scenario: str, options: Mapping[str, Any]) -> dict[str, Any]: ...

    def check_file(self, path: Path, points: int | None) -> list[str]: ...

    def new_force(self, nation: str, points: int, out: Path | None, name: str) -> Path | None: ...

    def import_roster(
        self, roster: Path, out: Path, data_dir: Path | None, mapping: Path | None = None
    ) -> tuple[int, list[str]]: ...


@dataclass(frozen=True)
class DeployStep:
    """A deployment step (the ``deployment`` capability): the decision now due places one of
    ``side``'s pieces before play. ``kinds`` are the action kinds that place a piece (every
    legal action of the step is one of them); ``zone`` is where the side may place, as the web
    table draws it: ``{"rects": [[x0, y0, x1, y1], ...]}`` on a continuous table (inches),
    ``{"cells": [id, ...]}`` on a grid, ``{"sites": [id, ...]}`` for named sites; ``pieces``
    are the side's own pieces still to place, as its own actions name them (the side's
    knowledge: adapters show them to that side only); ``hidden`` says the enemy sees only
    markers for (some of) them."""

    side: str
    kinds: tuple[str, ...]
    zone: Mapping[str, Any] = field(default_factory=dict)
    pieces: tuple[str, ...] = ()
    hidden: bool = False
    rule: str | None = None


@dataclass(frozen=True)
class Capabilities:
    """What a ruleset offers beyond the core functions; ``None`` where it has nothing."""

    odds: OddsCapability | None = None
    board: BoardCapability | None = None
    house_rules: HouseRulesCapability | None = None
    forces: ForcesCapability | None = None
    options: tuple[Option, ...] = ()
    # the scripted agent for one side: ``scripted(side, seed)``
    scripted: Callable[[str, int], Agent] | None = None
    catalog: Callable[[], Mapping[str, RuleEntry]] | None = None
    rules_markdown: Callable[[], str] | None = None
    render: Callable[[Any, str | None], str] | None = None  # terminal drawing for a viewer
    status_line: Callable[[Any], str] | None = None
    side_colours: Mapping[str, str] = field(default_factory=dict)
    # duels for ``umpire balance`` (see umpire.analysis.balance.DuelCapability)
    balance: Any = None
    # whether the decision now due in a state is play (an activation, an order, a card played
    # in a turn) rather than set-up (a card swap, a pre-game card, deployment) or declarations
    # every side makes together before the order of play is known; the first player of
    # ``umpire simulate`` is the side of the first decision in play (None: of the first one)
    in_play: Callable[[Any], bool] | None = None
    # whether the decision now due in a state is a placement of a deployment step, and whose,
    # where and with which action kinds (None: it is not); the web table's "deploy for me"
    # and zone drawing read it instead of guessing from action kinds
    deployment: Callable[[Any], DeployStep | None] | None = None


class Ruleset(Protocol[S]):
    """What every rule system provides to the engine and its adapters."""

    meta: RulesetMeta
    capabilities: Capabilities

    def scenario_ids(self) -> list[str]: ...

    def scenario_info(self, scenario: str) -> ScenarioInfo: ...

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> S: ...

    def setup_events(self, state: S) -> list[Event]: ...

    def to_act(self, state: S) -> str | None: ...

    def legal_actions(self, state: S) -> list[Action]: ...

    def apply(self, state: S, action: Action) -> list[Event]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def observation(self, state: S, player: str) -> dict[str, Any]: ...

    def resample(self, state: S, player: str, rng: random.Random) -> S:
        """A full state consistent with what ``player`` knows, the hidden rest drawn at
        random (determinisation for search, ISMCTS and the non-leak tests)."""
        ...

    def state_to_dict(self, state: S) -> dict[str, Any]: ...

    def state_from_dict(self, data: Mapping[str, Any]) -> S: ...

    def clone(self, state: S) -> S: ...

    def describe(self, state: S, action: Action) -> str: ...

    def summary(self, state: S) -> dict[str, Any]: ...


def capability(ruleset: Ruleset[Any], name: str) -> Any:
    """The ruleset's capability ``name``, or a one-line error saying it has none."""
    found = getattr(ruleset.capabilities, name, None)
    if found is None or found == ():
        words = {
            "odds": "exact odds",
            "board": "web-table board",
            "house_rules": "house rules to override",
            "forces": "force files",
            "scripted": "scripted agent",
            "catalog": "rule catalogue",
            "rules_markdown": "rule catalogue",
        }.get(name, name)
        raise UmpireError(f"{ruleset.meta.id} has no {words}")
    return found


# -- registry -----------------------------------------------------------------------------------
_EXTRA: dict[str, str] = {}  # registered at run time (tests, notebooks)
_LOADED: dict[str, Ruleset[Any]] = {}
_ENTRY_POINTS: dict[str, str] | None = None


def _entry_points() -> dict[str, str]:
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        from importlib.metadata import entry_points  # on first use: ~20 ms (issue 19)

        _ENTRY_POINTS = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return _ENTRY_POINTS


def _targets() -> dict[str, str]:
    return {**_entry_points(), **_EXTRA}


def ruleset_ids() -> list[str]:
    """Ids of every registered rule system (entry points plus run-time registrations)."""
    return sorted(_targets())


def register(ruleset_id: str, target: str) -> None:
    """Register a ruleset by import path (``"package.module:NAME"``; NAME is a ruleset object
    or a class to instantiate) for this process."""
    _EXTRA[ruleset_id] = target
    _LOADED.pop(ruleset_id, None)


def unregister(ruleset_id: str) -> None:
    _EXTRA.pop(ruleset_id, None)
    _LOADED.pop(ruleset_id, None)


def get_ruleset(ruleset_id: str) -> Ruleset[Any]:
    """The ruleset registered under ``ruleset_id`` (imported on first use)."""
    targets = _targets()
    if ruleset_id not in targets:
        known = ", ".join(sorted(targets))
        raise UnknownRulesetError(f"unknown ruleset {ruleset_id!r}; known rulesets: {known}")
    if ruleset_id not in _LOADED:
        import importlib

        module_name, _, attr = targets[ruleset_id].partition(":")
        try:
            found = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise UnknownRulesetError(
                f"ruleset {ruleset_id!r} is registered as {targets[ruleset_id]!r}, "
                f"which cannot be loaded: {exc}"
            ) from exc
        _LOADED[ruleset_id] = found() if isinstance(found, type) else found
    return _LOADED[ruleset_id]


def default_game() -> str:
    """The game played when none is named: ``$UMPIRE_GAME`` if set, else the installed
    ruleset of lowest ``meta.rank`` (then id) and its default scenario."""
    import os

    chosen = os.environ.get("UMPIRE_GAME")
    if chosen:
        return chosen
    loaded = []
    for ruleset_id in ruleset_ids():
        try:
            loaded.append(get_ruleset(ruleset_id))
        except UmpireError:
            continue
    if not loaded:
        raise UnknownRulesetError("no ruleset is installed")
    ruleset = min(loaded, key=lambda r: (r.meta.rank, r.meta.id))
    scenario = ruleset.meta.default_scenario or ruleset.scenario_ids()[0]
    return f"{ruleset.meta.id}/{scenario}"


def load_house_rules(ruleset: Ruleset[Any], path: Path) -> dict[str, Any]:
    """A user's house-rules override file for ``ruleset``, validated by the ruleset."""
    cap: HouseRulesCapability = capability(ruleset, "house_rules")
    return cap.load(path)


def split_game_id(game_id: str) -> tuple[str, str]:
    """``"sevendays/meeting-engagement"`` -> ``("sevendays", "meeting-engagement")``."""
    ruleset_id, sep, scenario = game_id.partition("/")
    if not sep or not scenario:
        raise UnknownRulesetError(
            f"{game_id!r} is not of the form RULESET/SCENARIO, e.g. sevendays/meeting-engagement"
        )
    return ruleset_id, scenario


class RulesetBase(Generic[S]):
    """Defaults most rulesets share; a ruleset may subclass it and override what it needs."""

    meta: RulesetMeta
    capabilities: Capabilities = Capabilities()

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        return ScenarioInfo(scenario, scenario)

    def setup_events(self, state: S) -> list[Event]:
        return list(getattr(state, "setup_events", []))

    def resample(self, state: S, player: str, rng: random.Random) -> S:
        """Perfect-information rulesets have nothing hidden: the state itself (a copy)."""
        if self.meta.information == "perfect":
            return self.clone(state)
        raise NotImplementedError(f"{self.meta.id} cannot re-sample hidden information")

    def clone(self, state: S) -> S:
        raise NotImplementedError
