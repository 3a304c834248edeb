"""Dice and cards from the physical table: a stream the chance primitives ask for faces.

:class:`TableDice` stands in for the game's stream while one action is applied. Every die the
rules roll is asked of the players (or rolled by Umpire where the companion says so), checked,
and kept as an *entry* (``{"faces": [...], "sides": n}``, ``{"index": i, "of": n}``) that the
record stores, so :func:`umpire.core.game.replay` gives the same game. The game's own stream is
advanced as if it had rolled, so it stays where the digital game's would be.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from umpire.core.chance import Chance
from umpire.core.errors import RecordMismatchError, UmpireError


class ImpossibleRoll(UmpireError):
    """Faces that the dice asked for cannot show (wrong count, a face out of 1..sides)."""


def parse_faces(text: str, count: int, sides: int) -> list[int]:
    """The faces typed for ``count`` d``sides`` ("7 3", "7,3"); a one-line refusal otherwise."""
    words = text.replace(",", " ").split()
    faces: list[int] = []
    for word in words:
        if not word.lstrip("-").isdigit():
            raise ImpossibleRoll(f"{word!r} is not a die face; type {count} number(s) 1-{sides}")
        faces.append(int(word))
    if len(faces) != count:
        raise ImpossibleRoll(f"{len(faces)} face(s) entered for {count}d{sides}; type {count}")
    for face in faces:
        if not 1 <= face <= sides:
            raise ImpossibleRoll(f"{face} is not a face of a d{sides} (1-{sides})")
    return faces


AskFaces = Callable[[int, int, "Chance[Any] | None"], list[int]]
AskIndex = Callable[[Sequence[Any], "Chance[Any] | None"], int]


class TableDice:
    """The stream for one action at the physical table.

    ``prefilled`` are entries already made for this action (a resumed game); ``seeded`` makes
    Umpire roll (from the game's own stream) instead of asking; ``on_entry`` is called with
    the entries after each one (the companion saves the game there)."""

    def __init__(
        self,
        inner: Any,
        ask_faces: AskFaces,
        ask_index: AskIndex,
        prefilled: Sequence[Mapping[str, Any]] = (),
        seeded: bool = False,
        on_entry: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> None:
        self.inner = inner
        self.ask_faces = ask_faces
        self.ask_index = ask_index
        self.prefilled = list(prefilled)
        self.seeded = seeded
        self.on_entry = on_entry
        self.entries: list[dict[str, Any]] = []

    def _keep(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        if self.on_entry is not None:
            self.on_entry(list(self.entries))

    def faces_for(self, count: int, sides: int, chance: Chance[Any] | None) -> Sequence[int]:
        if self.prefilled:
            entry = self.prefilled.pop(0)
            faces = entry.get("faces")
            if not isinstance(faces, list) or entry.get("sides") != sides or len(faces) != count:
                raise RecordMismatchError(f"saved entry {dict(entry)} is not {count}d{sides}")
            self.inner.dice(count, sides)
            rolled = [int(f) for f in faces]
        elif self.seeded:
            rolled = list(self.inner.dice(count, sides))
        else:
            rolled = list(self.ask_faces(count, sides, chance))
            self.inner.dice(count, sides)
        self._keep({"faces": rolled, "sides": sides})
        return rolled

    def index_for(self, items: Sequence[Any], chance: Chance[Any] | None) -> int:
        if self.prefilled:
            entry = self.prefilled.pop(0)
            index = entry.get("index")
            if not isinstance(index, int) or entry.get("of") != len(items):
                raise RecordMismatchError(f"saved entry {dict(entry)} is not a draw")
            if chance is not None:
                self.inner.choice_index(len(items))
        elif self.seeded:
            index = self.inner.choice_index(len(items)) if chance is not None else len(items) - 1
        else:
            index = self.ask_index(items, chance)
            if chance is not None:
                self.inner.choice_index(len(items))
        self._keep({"index": index, "of": len(items), "item": str(items[index])})
        return index

    def d(self, sides: int) -> int:
        return self.faces_for(1, sides, None)[0]

    def dice(self, count: int, sides: int) -> list[int]:
        return list(self.faces_for(count, sides, None))

    def choice_index(self, n: int) -> int:
        return int(self.inner.choice_index(n))

    def shuffle(self, items: list[Any]) -> None:
        self.inner.shuffle(items)

    def to_dict(self) -> Any:
        """The game's own stream's state (an observation asked for at a dice prompt, e.g. the
        measuring aids, copies the state with its stream)."""
        return self.inner.to_dict()
