"""CPython's cyclic garbage collector while games are played.

A game allocates millions of short-lived objects. At CPython's default thresholds (700, 10, 10)
the collector runs several times a Seven Days game, and each of its older passes walks
everything loaded before play (modules, scenario and unit data, the rulesets' caches): about
6 % of a scripted Meeting Engagement's CPU time and 6 % of a random one's (measured with
``gc.callbacks``; see the Y2 report of issue 19). While games are played, :func:`quiet_collector`
freezes what is loaded now out of the collector's sight (``gc.freeze``) and collects the youngest
generation every :data:`YOUNG` allocations instead; the caller's settings are put back when the
outermost such block ends.

When the collector runs changes no game: no rule or player reads object addresses or
collection times (``tests/core/test_collector.py`` plays the same games with the default
collector and with this one and compares their records and events).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 50_000  # allocations between collections of the youngest generation
OLDER = (20, 100)  # the older generations' thresholds, in collections of the younger one

_lock = threading.Lock()
_depth = 0  # quiet blocks open now (in any thread)
_saved: tuple[int, int, int] | None = None  # the thresholds to put back (None: leave them)
_froze = False  # whether the outermost block froze (and so unfreezes)


def _enter() -> None:
    global _depth, _saved, _froze
    with _lock:
        _depth += 1
        if _depth > 1:
            return
        before = gc.get_threshold()
        # a caller that froze its own objects manages the permanent generation itself (an
        # unfreeze here would hand its frozen objects back to the collector)
        _froze = gc.get_freeze_count() == 0
        if _froze:
            gc.freeze()
        # a caller that already collects less often keeps its own settings
        if before[0] != 0 and before[0] < YOUNG:
            _saved = (before[0], before[1], before[2])
            gc.set_threshold(YOUNG, *OLDER)
        else:
            _saved = None


def _leave() -> None:
    global _depth, _saved, _froze
    with _lock:
        _depth -= 1
        if _depth > 0:
            return
        if _saved is not None:
            gc.set_threshold(*_saved)
            _saved = None
        if _froze:
            gc.unfreeze()
            _froze = False


@contextmanager
def quiet_collector() -> Iterator[None]:
    """Freeze what is loaded now and raise the youngest generation's threshold for the block;
    the caller's settings are put back when the outermost block (of any thread) ends. A
    caller that has frozen objects itself, or set a higher threshold or disabled automatic
    collection (threshold 0), keeps that."""
    _enter()
    try:
        yield
    finally:
        _leave()
