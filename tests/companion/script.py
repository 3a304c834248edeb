"""Driving a companion game from a script of entered positions and dice, as players would.

The digital games and scripts are cached per (game, seed, side): callers must not change the
lists they get (a Player copies them)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from umpire.agents.base import make_agent
from umpire.core.actions import Action
from umpire.core.game import Game, new_game
from umpire.geometry import squaregrid


class Spy:
    """The game's own stream, noting every face it gives (the dice a digital game rolled)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.faces: list[int] = []
        self.cards: list[str] = []

    def d(self, sides: int) -> int:
        face = int(self.inner.d(sides))
        self.faces.append(face)
        return face

    def dice(self, count: int, sides: int) -> list[int]:
        faces = [int(f) for f in self.inner.dice(count, sides)]
        self.faces += faces
        return faces

    def choice_index(self, n: int) -> int:
        return int(self.inner.choice_index(n))

    def index_for(self, items: Sequence[Any], chance: Any) -> int:
        """A card drawn: as the digital game draws it (a deck's top card; a Draw's index from
        the stream), noted so the players can type the same card."""
        index = len(items) - 1 if chance is None else int(self.inner.choice_index(len(items)))
        self.cards.append(str(items[index]))
        return index

    def shuffle(self, items: list[Any]) -> None:
        self.inner.shuffle(items)


@cache
def digital_game(
    game_id: str, seed: int, max_actions: int = 3000
) -> tuple[Game, list[Action], list[str | None], list[list[int]], list[list[str]]]:
    """A digital game between two scripted players: the game, its actions, who took each, and
    every die face rolled, in order."""
    game = new_game(game_id, seed)
    agents = {
        s: make_agent("scripted", game.record.ruleset, s, seed) for s in game.ruleset.meta.players
    }
    actors: list[str | None] = []
    faces: list[list[int]] = []
    cards: list[list[str]] = []
    while not game.is_over and len(game.record.actions) < max_actions:
        side = game.to_act
        assert side is not None
        action = agents[side].choose(game.view(side), game.legal_actions())
        actors.append(side)
        spy = Spy(game.state.rng)
        game.state.rng = spy
        try:
            game.apply(action)
        finally:
            game.state.rng = spy.inner
        faces.append(spy.faces)
        cards.append(spy.cards)
    return game, list(game.record.actions), actors, faces, cards


def entered_command(game: Game, action: Action, squares: bool) -> str:
    """What a player types for ``action``: a position measured on the table for a move, the
    menu number for anything else."""
    if (
        action.point is not None
        and action.unit is not None
        and action == Action(action.kind, unit=action.unit, point=action.point)
    ):
        if squares:
            where = squaregrid.label((int(action.point[0]), int(action.point[1])))
        else:
            where = f"{action.point[0]},{action.point[1]}"
        return f"{action.kind} {action.unit} {where}"
    return str(game.legal_actions().index(action) + 1)


class Player:
    """Answers the companion's prompts: commands at a decision, faces at a dice prompt."""

    def __init__(
        self, commands: Iterable[str], faces: Iterable[int], cards: Iterable[str] = ()
    ) -> None:
        self.commands: deque[str] = deque(commands)
        self.faces: deque[int] = deque(faces)
        self.cards: deque[str] = deque(cards)
        self.prompts: list[str] = []
        self.lines: list[str] = []
        self.interrupt_after: int | None = None  # Ctrl-C at this many prompts
        self.extra: dict[str, deque[str]] = {}
        self.before_command: dict[int, list[str]] = {}  # typed before command N (0-based)
        self.used_commands = 0

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.interrupt_after is not None and len(self.prompts) > self.interrupt_after:
            self.interrupt_after = None
            raise KeyboardInterrupt
        queued = self.extra.get(prompt)
        if queued:
            return queued.popleft()
        if prompt == "card> ":
            return self.cards.popleft()
        if prompt.endswith("> ") and "d" in prompt and prompt[0].isdigit():
            count = int(prompt.split("d")[0])
            return " ".join(str(self.faces.popleft()) for _ in range(count))
        early = self.before_command.get(self.used_commands)
        if early:
            return early.pop(0)
        if not self.commands:
            raise EOFError
        self.used_commands += 1
        return self.commands.popleft()

    def write(self, line: str) -> None:
        self.lines.append(line)


def seen_ids(observation: Mapping[str, Any]) -> set[str]:
    """The ids a side's observation names: what it may see (a hidden unit is a marker)."""
    units = observation.get("units")
    if isinstance(units, Mapping):
        ids = {str(k) for k in units}
    else:
        ids = {str(u["uid"]) for u in units or [] if isinstance(u, Mapping) and "uid" in u}
    figures = observation.get("figures")
    if isinstance(figures, Mapping):
        ids |= {str(k) for k in figures}
    return ids


@cache
def script_with_cards(
    game_id: str, seed: int, me: str
) -> tuple[Game, list[str], list[int], list[str], Callable[[Path], dict[str, str]]]:
    digital, actions, actors, rolled, drawn = digital_game(game_id, seed)
    replayed = new_game(game_id, seed)
    squares = game_id.startswith("portable")
    commands: list[str] = []
    faces: list[int] = []
    cards: list[str] = []
    for side, action, action_faces, action_cards in zip(
        actors, actions, rolled, drawn, strict=True
    ):
        if side == me:
            commands.append(entered_command(replayed, action, squares))
        seen = seen_ids(replayed.observation(me))
        if side == me or action.unit is None or action.unit in seen:
            faces += action_faces  # rolled at the table
            cards += action_cards  # drawn from the table's deck
        # else: the AI's hidden unit acts; Umpire rolls for it from the game's own stream
        replayed.apply(action)

    def sides(_: Path) -> dict[str, str]:
        return {str(s): ("me" if s == me else "scripted") for s in digital.ruleset.meta.players}

    return digital, commands, faces, cards, sides


def script_for(
    game_id: str, seed: int, me: str
) -> tuple[Game, list[str], list[int], Callable[[Path], dict[str, str]]]:
    """:func:`script_with_cards` for a game that draws no cards."""
    digital, commands, faces, cards, sides = script_with_cards(game_id, seed, me)
    assert not cards, "this game draws cards: use script_with_cards"
    return digital, commands, faces, sides
