"""The game's own seeded random stream.

Every die roll and card draw in a game goes through one ``RandomStream`` that lives inside the
game state, so a game is fully described by its seed and its actions. The stream's position is
plain data and round-trips through JSON; an observation never contains it, so a planner cannot
peek at future dice.
"""

from __future__ import annotations

import random
from typing import Any


class RandomStream:
    """A seeded stream of dice; its state is serialisable."""

    __slots__ = ("seed", "_rng")

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self._rng = random.Random(self.seed)

    def d(self, sides: int) -> int:
        """One die with ``sides`` faces, 1..sides."""
        return self._rng.randint(1, sides)

    def dice(self, count: int, sides: int) -> list[int]:
        """``count`` dice with ``sides`` faces each."""
        randint = self._rng.randint
        return [randint(1, sides) for _ in range(count)]

    def choice_index(self, n: int) -> int:
        """A uniform index in ``range(n)`` (for shuffles and random draws)."""
        return self._rng.randrange(n)

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place."""
        self._rng.shuffle(items)

    def clone(self) -> RandomStream:
        twin = RandomStream(self.seed)
        twin._rng.setstate(self._rng.getstate())
        return twin

    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self._rng.getstate()
        return {"seed": self.seed, "state": [version, list(internal), gauss]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RandomStream:
        stream = cls(int(data["seed"]))
        version, internal, gauss = data["state"]
        stream._rng.setstate((version, tuple(internal), gauss))
        return stream

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RandomStream) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]
