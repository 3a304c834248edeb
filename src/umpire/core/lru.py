"""A small least-recently-used map for the rulesets' per-scenario "worlds".

A world (the static side of a scenario under given house rules and forces) carries caches that
can grow to tens of megabytes; a long-running process (the web table, a simulate worker) sees a
new world for every distinct house-rules or forces file a user sends, so the worlds are kept in
a bounded map rather than a dict that grows for ever. An evicted world is rebuilt on its next use
(worlds are pure functions of their key, so games are the same).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

WORLDS_KEPT = 16  # distinct (scenario, house rules, forces) worlds a process keeps


class LruMap(Generic[K, V]):
    """``get_or_make(key, make)``: the value kept for ``key``, or ``make()`` kept (the least
    recently used value dropped beyond ``size``)."""

    def __init__(self, size: int = WORLDS_KEPT) -> None:
        if size < 1:
            raise ValueError("an LruMap keeps at least one value")
        self.size = size
        self._kept: OrderedDict[K, V] = OrderedDict()

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        kept = self._kept
        found = kept.get(key)
        if found is not None:
            kept.move_to_end(key)
            return found
        value = kept[key] = make()
        while len(kept) > self.size:
            kept.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()
