"""A scripted Tiny Skirmish player: it decides from its view (observation and log) only."""

from __future__ import annotations

import random
from collections.abc import Sequence

from umpire.agents.base import View
from umpire.core.actions import Action
from umpire.core.deck import card_rank

RANK_ORDER = ("9", "10", "J", "Q", "K", "A")


class TinyScripted:
    """Bids its middle card, attacks the weakest enemy with its strongest unit, braces with
    its lowest card, rallies a weakened unit when it cannot attack."""

    name = "scripted"

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(seed)
        self.last_reason = ""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        units = view.observation["units"]
        by_kind: dict[str, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)

        def value(action: Action) -> int:
            return RANK_ORDER.index(card_rank(str(action.card)))

        if "bid" in by_kind:
            bids = sorted(by_kind["bid"], key=value)
            self.last_reason = "bid the middle card"
            return bids[len(bids) // 2]
        if "brace" in by_kind:
            self.last_reason = "brace with the lowest card"
            return min(by_kind["brace"], key=value)
        if "attack" in by_kind:
            self.last_reason = "strongest unit attacks the weakest enemy"
            return max(
                by_kind["attack"],
                key=lambda a: (units[str(a.unit)]["strength"], -units[str(a.target)]["strength"]),
            )
        if "rally" in by_kind:
            self.last_reason = "rally a weakened unit"
            return self._rng.choice(by_kind["rally"])
        self.last_reason = "nothing better to do"
        return legal[0]
