"""A game being played one sub-decision at a time (shared by the PettingZoo and Gym envs).

It wraps a :class:`~umpire.core.game.Game` (so events, views and the record are the core's)
and keeps the digits chosen so far of the decision in progress. Pickling keeps only the record
and re-plays it, which is exact (the record is the game's source of truth).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.core.ruleset import Ruleset, get_ruleset, split_game_id
from umpire.rl.encoding import Menu, ObservationEncoder


def side_name(side: Any) -> str:
    """A player id as plain text (some rulesets use string enums)."""
    value = getattr(side, "value", side)
    return str(value)


class Session:
    """One game and the sub-decision in progress."""

    def __init__(
        self,
        game_id: str,
        seed: int,
        options: Mapping[str, Any] | None = None,
        slots: int = 32,
        obs_size: int = 512,
    ) -> None:
        self.game_id = game_id
        ruleset_id, self.scenario = split_game_id(game_id)
        self.ruleset: Ruleset[Any] = get_ruleset(ruleset_id)
        self.options = dict(options or {})
        self.slots = slots
        self.encoder = ObservationEncoder(slots, obs_size)
        self.players = tuple(self.ruleset.meta.players)
        self.game = Game(self.ruleset, self.scenario, seed, self.options)
        self.prefix: list[int] = []
        self._menu: Menu | None = None
        self._menu_at = -1
        # the last side's observation and its hashed tensor, kept for one game position
        self._seen_key: tuple[int, str] | None = None
        self._seen: tuple[dict[str, Any], np.ndarray] | None = None

    # -- reading ---------------------------------------------------------------------------
    @property
    def to_act(self) -> Any:
        return self.game.to_act

    def menu(self) -> Menu:
        """The menu of the current decision (built once per game position)."""
        at = len(self.game.record.actions)
        if self._menu is None or self._menu_at != at:
            side = self.game.to_act
            # a learner is held to the book: under rule switches set to advise it is offered
            # only the actions every rule allows (umpire.core.switches.book_only)
            legal = (
                self.game.legal_actions()
                if side is None
                else self.game.view(side).legal_actions(book_only=True)
            )
            self._menu = Menu(legal, self.slots)
            self._menu_at = at
        return self._menu

    def mask(self, side: Any) -> np.ndarray:
        """The digits ``side`` may choose now; a side with no decision may only choose 0
        (the wait, which does nothing)."""
        if self.to_act is not None and side == self.to_act:
            return self.menu().mask(self.prefix)
        out = np.zeros(self.slots, dtype=np.int8)
        out[0] = 1
        return out

    def _seen_by(self, side: Any) -> tuple[dict[str, Any], np.ndarray]:
        key = (len(self.game.record.actions), side_name(side))
        if self._seen is None or self._seen_key != key:
            observation = dict(self.game.observation(side))
            self._seen = (observation, self.encoder.hashed(observation))
            self._seen_key = key
        return self._seen

    def observation(self, side: Any) -> dict[str, Any]:
        """``side``'s observation of the current position (the ruleset's, kept until the next
        game action; do not change it)."""
        return self._seen_by(side)[0]

    def observe(self, side: Any) -> np.ndarray:
        """``side``'s observation tensor: its observation, its own sub-decision progress."""
        hashed = self._seen_by(side)[1]
        if self.to_act is not None and side == self.to_act:
            menu = self.menu()
            return self.encoder.assemble(hashed, len(self.prefix), menu.options(self.prefix))
        return self.encoder.assemble(hashed, 0, None)

    # -- changes ---------------------------------------------------------------------------
    def choose(self, digit: int) -> Action | None:
        """The side to act chooses one digit; returns the game action once it is complete
        (and applies it), else ``None``. Raises ``ValueError`` for a digit the mask forbids."""
        menu = self.menu()
        options = menu.options(self.prefix)
        if digit not in options:
            raise ValueError(
                f"digit {digit} is not allowed here (allowed: {sorted(options)}); "
                "read the action mask"
            )
        self.prefix.append(digit)
        action = menu.decode(self.prefix)
        if action is None:
            return None
        self.prefix = []
        self.game.apply(action)
        return action

    def apply(self, action: Action) -> None:
        """Apply a whole game action (for a built-in opponent); the decision restarts."""
        self.prefix = []
        self.game.apply(action)

    def result(self) -> dict[str, float] | None:
        """+1/-1/0 per side once the game is decided, ``None`` while it goes on."""
        outcome = self.game.outcome
        if outcome is None:
            return None
        return {
            side_name(p): (
                0.0 if outcome.winner == "draw" else 1.0 if p == outcome.winner else -1.0
            )
            for p in self.players
        }

    @property
    def stopped(self) -> bool:
        """The game is over or the ruleset stopped it (nobody to act)."""
        return self.to_act is None

    # -- pickling --------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "seed": self.game.record.seed,
            "options": self.options,
            "slots": self.slots,
            "obs_size": self.encoder.size,
            "actions": [a.to_dict() for a in self.game.record.actions],
            "prefix": list(self.prefix),
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(  # type: ignore[misc]
            data["game_id"], data["seed"], data["options"], data["slots"], data["obs_size"]
        )
        for action in data["actions"]:
            self.game.apply(Action.from_dict(action))
        self.prefix = list(data["prefix"])
