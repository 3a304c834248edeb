"""Small Portable Wargame battles laid out by each test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from umpire.core.actions import Action
from umpire.core.game import Game, new_game
from umpire.rulesets.portable.enums import Decision, Phase
from umpire.rulesets.portable.state import PortableState
from umpire.rulesets.portable.turns import activate, decision


def unit(uid: str, type_: str, at: str, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "type": type_, "at": at, **extra}


def scenario(blue: list[dict[str, Any]], red: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "test",
        "name": "Test board",
        "provenance": "house",
        "description": "a board laid out by a test",
        "grid": {"width": 10, "height": 10},
        "turns": 5,
        "first_initiative": "blue",
        "sides": {
            "blue": {"name": "Blue", "facing": "N", "units": blue},
            "red": {"name": "Red", "facing": "S", "units": red},
        },
    }
    data.update(extra)
    return data


def make(
    tmp: Path,
    blue: list[dict[str, Any]],
    red: list[dict[str, Any]],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> Game:
    path = tmp / f"board-{len(list(tmp.glob('*.yaml')))}.yaml"
    path.write_text(yaml.safe_dump(scenario(blue, red, **extra)), encoding="utf-8")
    return new_game(f"portable/{path}", seed=seed, options=options)


def st(game: Game) -> PortableState:
    state = game.state
    assert isinstance(state, PortableState)
    return state


def act_as(game: Game, uid: str) -> None:
    """Put ``uid`` straight into its activation (skipping the turn's earlier steps)."""
    state = st(game)
    unit = state.units[uid]
    state.flow.phase = Phase.FIRST
    state.flow.active = unit.side
    state.flow.stack.clear()
    state.turn_info.order = [unit.side, unit.side.other]
    state.turn_info.activations_left = 6
    unit.activated = True
    activate(state, unit.side, uid)


def waiting(game: Game) -> tuple[Decision, str | None]:
    """The decision the game waits for and the side that makes it."""
    what, side, _ = decision(st(game))
    return what, side


def kinds(game: Game) -> set[str]:
    return {a.kind for a in game.legal_actions()}


def sq(text: str) -> tuple[float, float]:
    from umpire.geometry.squaregrid import parse_label

    x, y = parse_label(text)
    return (float(x), float(y))


def move(uid: str, to: str) -> Action:
    return Action("move", unit=uid, point=sq(to))


class FixedDice:
    """A stand-in random stream that rolls the given dice in order (for rulebook procedures)."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls = list(rolls)

    def d(self, sides: int) -> int:
        return self.rolls.pop(0)

    def dice(self, count: int, sides: int) -> list[int]:
        return [self.d(sides) for _ in range(count)]


def fix_dice(game: Game, rolls: list[int]) -> FixedDice:
    fixed = FixedDice(rolls)
    st(game).rng = fixed  # type: ignore[assignment]
    return fixed
