"""What the conformance checks share: the cases (every registered ruleset x scenario), random
games played once per case and seed, and ways to walk a game position by position."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from umpire.agents.base import make_agent
from umpire.core.actions import Action
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.core.ruleset import Ruleset, get_ruleset, ruleset_ids

SEEDS = (1, 2, 3)
SLOW_SEEDS = tuple(range(4, 14))
POSITIONS = 40  # positions checked along one game (evenly spread) by the per-position checks


def cases() -> list[Any]:
    """``(ruleset id, scenario)`` for every registered ruleset and scenario. A ruleset that
    cannot even list its scenarios gets one case (scenario ``None``) that fails with its
    error, so it does not stop the others from being checked."""
    out: list[Any] = []
    for rid in ruleset_ids():
        try:
            scenarios = get_ruleset(rid).scenario_ids()
        except Exception:  # reported by the case below
            out.append(pytest.param(rid, None, id=f"{rid}/<cannot load>"))
            continue
        out += [pytest.param(rid, s, id=f"{rid}/{s}") for s in scenarios]
    return out


def with_seeds(slow: bool = False) -> list[Any]:
    out = []
    for case in cases():
        rid, scenario = case.values
        for seed in SEEDS:
            out.append(pytest.param(rid, scenario, seed, id=f"{case.id}-seed{seed}"))
        if slow:
            for seed in SLOW_SEEDS:
                out.append(
                    pytest.param(
                        rid, scenario, seed, id=f"{case.id}-seed{seed}", marks=pytest.mark.slow
                    )
                )
    return out


def ruleset_for(rid: str, scenario: str | None) -> Ruleset[Any]:
    ruleset = get_ruleset(rid)
    if scenario is None:
        ruleset.scenario_ids()  # raises the error that kept the ruleset from listing them
        pytest.fail(f"{rid} lists no scenarios")
    return ruleset


def norm(data: Any) -> Any:
    """A state dict as it comes back from JSON (tuples become lists, enums their values)."""
    return json.loads(json.dumps(data))


def canon(event: Event) -> Any:
    """An event with everything it carries, its public stand-in too, for exact comparison."""
    return (
        event.to_dict(),
        sorted(event.visible_to) if event.visible_to is not None else None,
        canon(event.public) if event.public is not None else None,
    )


@dataclass
class Played:
    """A random game: the finished game, the state dict after each action (``states[k]`` after
    ``k`` actions) and where each action's events start (``marks[k]``)."""

    game: Game
    states: list[Any]
    marks: list[int]

    @property
    def actions(self) -> list[Action]:
        return self.game.record.actions


@cache
def played(rid: str, scenario: str, seed: int) -> Played:
    """A game between random players (each with its own seed), played once per case."""
    ruleset = get_ruleset(rid)
    game = Game(ruleset, scenario, seed)
    players = {side: make_agent("random", rid, side, seed) for side in ruleset.meta.players}
    states = [norm(ruleset.state_to_dict(game.state))]
    marks = [len(game.events)]
    for _ in range(ruleset.meta.max_actions):
        side = game.to_act
        if side is None:
            break
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
        states.append(norm(ruleset.state_to_dict(game.state)))
        marks.append(len(game.events))
    return Played(game, states, marks)


def spread(n: int, count: int = POSITIONS) -> list[int]:
    """Up to ``count`` positions 0..n, evenly spread, always with the first and last."""
    if n + 1 <= count:
        return list(range(n + 1))
    return sorted({round(i * n / (count - 1)) for i in range(count)})


def walk(play: Played, at: list[int] | None = None) -> Iterator[tuple[int, Game]]:
    """A fresh game replayed from the record, stopping at each position ``k`` in ``at``
    (after ``k`` actions; every position when ``at`` is None)."""
    game = play.game
    twin = Game(game.ruleset, game.record.scenario, game.record.seed, game.options)
    wanted = set(range(len(play.actions) + 1) if at is None else at)
    for k in range(len(play.actions) + 1):
        if k in wanted:
            yield k, twin
        if k < len(play.actions):
            twin.apply(play.actions[k])


def unit_ids(data: Mapping[str, Any]) -> set[str]:
    """The unit ids a state dict or observation shows (``units`` as a mapping by id or a list
    of records with ``id``/``uid``); empty when it has no units."""
    units = data.get("units")
    out: set[str] = set()
    if isinstance(units, Mapping):
        out.update(str(k) for k in units)
    elif isinstance(units, list):
        for unit in units:
            if isinstance(unit, Mapping):
                uid = unit.get("id", unit.get("uid"))
                if uid is not None:
                    out.add(str(uid))
    return out


def strings(value: Any) -> Iterator[str]:
    """Every string inside an event's data (keys and values, nested)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            yield from strings(v)


def mentions(ids: set[str]) -> re.Pattern[str] | None:
    """A pattern finding any of ``ids`` as a whole word (``nato-x-1`` is not in ``nato-x-10``)."""
    if not ids:
        return None
    words = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{words})(?![\w-])")


def event_words(event: Event) -> str:
    """What an event tells its reader, without its kind and rule id (fixed vocabulary)."""
    told = {k: v for k, v in event.to_dict().items() if k not in ("kind", "rule")}
    return "\n".join(strings(told))


def string_leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """``(path, string)`` for every string value inside plain data."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from string_leaves(v, (*path, k))
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from string_leaves(v, (*path, i))


def secrets(truth: Any, drawn: Any, shown: Any) -> set[str]:
    """The names re-sampling moved (a value of ``truth`` that ``drawn`` holds elsewhere or
    not at all): what a side cannot know now, unless its observation ``shown`` names it."""
    drawn_at = dict(string_leaves(drawn))
    moved = {s for path, s in string_leaves(truth) if drawn_at.get(path) != s and _named(s)}
    return moved - {s for _, s in string_leaves(shown)}


def _named(text: str) -> bool:
    """An identifier of a thing (``K-spades``, ``nato-t64b-2``, ``marker-4``), not vocabulary
    such as a status word that happens to sit at a re-sampled place."""
    return any(c.isdigit() or c in "-_" for c in text)
