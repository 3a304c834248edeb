"""Every registered ruleset's default scenario, and a seeded random walk through a game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from umpire.core.game import Game
from umpire.core.ruleset import get_ruleset, ruleset_ids


def default_games() -> list[str]:
    out = []
    for rid in ruleset_ids():
        ruleset = get_ruleset(rid)
        out.append(f"{rid}/{ruleset.meta.default_scenario or ruleset.scenario_ids()[0]}")
    return out


DEFAULT_GAMES = default_games()
SEEDS = (0, 1, 2)


def random_positions(
    game_id: str, seed: int, limit: int, every: int = 1, options: dict[str, Any] | None = None
) -> Iterator[Game]:
    """The game at every ``every``-th decision of a seeded random playout (at most ``limit``
    actions), ending with the finished position."""
    rid, scenario = game_id.split("/", 1)
    game = Game(get_ruleset(rid), scenario, seed, options)
    rng = random.Random(seed)
    for n in range(limit):
        if game.to_act is None:
            break
        if n % every == 0:
            yield game
        game.apply(rng.choice(game.legal_actions()))
    yield game


def sides(game_id: str) -> tuple[Any, ...]:
    return tuple(get_ruleset(game_id.split("/", 1)[0]).meta.players)
