"""``SearchAgent``: the search player behind ``search``, ``search:PRESET`` and
``search:PRESET@SECONDS`` agent specs."""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

from umpire.agents.book import held_to_the_book
from umpire.agents.search.explain import explain, explanation_event
from umpire.agents.search.improve import improve
from umpire.agents.search.mcts import Clock, Result, Settings, search
from umpire.agents.search.personality import PRESETS, Personality, personality
from umpire.core.actions import Action
from umpire.core.errors import UmpireError
from umpire.core.events import Event
from umpire.core.view import Agent, View

DEFAULT_THINK = 1.0


@contextmanager
def _collector_paused(on_the_clock: bool) -> Iterator[None]:
    """Python's cyclic garbage collector switched off for a decision on the clock, and back on
    (if it was on) after it. A full collection walks every object the process holds, and in a
    Rhine game one took 0.2-0.5 s in the middle of 0.3 s decisions (the p95 at 1.35x the
    budget, a max of 2.3x; measured with ``gc.callbacks``). The search makes no reference
    cycles of its own (``gc.collect()`` after a Rhine decision found 0 objects), so nothing
    piles up: the collections still run, between decisions. A fixed playout budget (the
    tests') leaves the collector alone."""
    paused = on_the_clock and gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


class SearchAgent:
    """Decides by determinised ISMCTS from its side's view only (see ``mcts``).

    ``think`` seconds per decision (single thread), or ``iterations`` playouts when given (the
    tests' budget); one legal action is played at once. ``last_reason`` holds the plain-words
    explanation, ``last_event`` the same as an event visible to this side only, and
    ``last_stats`` the decision time and playouts (not part of the explanation, so the
    explanation does not depend on the machine's speed)."""

    def __init__(
        self,
        side: str,
        seed: int = 0,
        character: Personality | str = "balanced",
        think: float = DEFAULT_THINK,
        iterations: int | None = None,
        clock: Clock = time.perf_counter,
        settings: Settings | None = None,
    ) -> None:
        if think <= 0:
            raise UmpireError(f"--think {think}: must be more than 0 seconds")
        self.side = side
        self.seed = seed
        self.personality = personality(character) if isinstance(character, str) else character
        base = settings or Settings()
        if base.mode not in MODES:
            raise UmpireError(f"search mode {base.mode!r}: choose {', '.join(MODES)}")
        # the tree search keeps its old name (records' notes say "by": "search:PRESET")
        mode = "" if base.mode == "tree" else f"+{base.mode}"
        self.name = f"search:{self.personality.name}{mode}"
        self.settings = replace(base, think=think, iterations=iterations)
        self._hinter: Agent | None = None
        self._players: dict[str, Agent] = {}  # the improve mode's rollout players
        self.clock = clock
        self._factory: Callable[[str, int], Agent] | None = None
        self.decisions = 0
        self.last_reason = ""
        self.last_event: Event | None = None
        self.last_result: Result | None = None
        self.last_stats: dict[str, float] = {}

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        start = self.clock()
        self.decisions += 1
        options = list(legal)
        if len(options) == 1:
            self.last_reason = f"{self.side} search: the only legal action"
            self.last_event = None
            self.last_result = None
            self.last_stats = {"seconds": self.clock() - start, "playouts": 0.0}
            return options[0]
        # the decision's random stream depends on the seed and the decision count only, never
        # on anything the side cannot see
        rng = random.Random(f"search/{self.seed}/{self.side}/{self.decisions}")
        with _collector_paused(self.settings.iterations is None):
            result = self._decide(view, options, rng, start)
        self.last_result = result
        self.last_reason = explain(result, self.personality)
        self.last_event = explanation_event(result, self.personality, self.last_reason)
        self.last_stats = {"seconds": self.clock() - start, "playouts": float(result.iterations)}
        return result.ranked()[0][0]

    def _decide(
        self, view: View, options: list[Action], rng: random.Random, start: float
    ) -> Result:
        hint = self._hint(view, options)
        if self.settings.mode == "improve" and hint is not None:
            result = improve(
                view,
                options,
                self.personality,
                self.settings,
                rng,
                self._player,
                hint,
                self.clock,
                start,
            )
        else:
            result = search(
                view, options, self.personality, self.settings, rng, self.clock, hint, start
            )
        return result

    def _player(self, side: str) -> Agent:
        """The rollout player of ``side`` in the improve mode: that side's scripted player,
        built as ``make_agent("scripted", ...)`` builds it (the ruleset's own factory, held to
        the book) but from the view's ruleset object, one per side, reading its own
        observation of each drawn state."""
        player = self._players.get(side)
        if player is None:
            factory = self._factory
            assert factory is not None  # the improve mode runs only with a scripted hint
            player = held_to_the_book(factory(side, self.seed))
            self._players[side] = player
        return player

    def _hint(self, view: View, options: list[Action]) -> Action | None:
        """The ruleset's scripted player's move from the same view, if it has one and the
        move is among the listed actions (the search starts from it and must beat it)."""
        if self.settings.prior <= 0 and self.settings.mode != "improve":
            return None
        if self._hinter is None:
            factory = view.ruleset.capabilities.scripted
            if factory is None:
                return None
            self._factory = factory
            self._hinter = factory(self.side, self.seed)
        suggested = self._hinter.choose(view, options)
        return suggested if suggested in options else None


MODES = ("tree", "improve")  # how the search decides (docs/search-ai.md)
# The mode a spec without one gets, per ruleset id (docs/search-ai.md, "Which mode is the
# default"): the improve mode where it measured at least as strong as the tree search against
# the scripted player at the same think time and changes moves there. Book and Gun is left
# out for now: with its structural clone (0.06 ms, was 4-5 ms), at 0.3 s of CPU a move on the
# same 80 side-swapped Convoy Ambush games, the improve mode scored 0.70 (0.59-0.79) against
# the scripted player and the tree search 0.49 (0.38-0.60), a paired difference of +0.21
# (95 % +0.08 to +0.35) (bench/bench_search.py --clock cpu, --compare); but a 12-game pilot on
# the wall clock (0.3 s, 68 % of a core) scored 0.25 (0.09-0.53) on the same seeds, which is
# not explained yet. A ruleset not listed gets FALLBACK_MODE, and so does a named personality
# other than balanced (PRESET_MODE): the presets are measured to play differently in the tree
# search only.
DEFAULT_MODES: dict[str, str] = {"portable": "improve", "rhine": "improve", "sevendays": "improve"}
FALLBACK_MODE = "tree"
PRESET_MODE = "tree"


# The improve mode's settings per ruleset where they measured better than the defaults
# (docs/search-ai.md, "Cheaper samples in Seven Days"): 2 candidates there, 3 elsewhere.
IMPROVE_SETTINGS: dict[str, dict[str, int]] = {"sevendays": {"candidates": 2}}


def default_mode(ruleset: str, preset: str = "balanced") -> str:
    """The mode a spec that names none gets for ``ruleset`` (an id such as ``portable``):
    ``search`` and ``search:balanced`` the ruleset's (:data:`DEFAULT_MODES`), a named
    personality such as ``search:aggressive`` the tree search (:data:`PRESET_MODE`)."""
    if preset != "balanced":
        return PRESET_MODE
    return DEFAULT_MODES.get(ruleset, FALLBACK_MODE)


def settings_for(ruleset: str, mode: str) -> Settings:
    """The settings ``make_agent`` gives a search in ``mode`` for ``ruleset``."""
    if mode == "improve":
        return Settings(mode=mode, **IMPROVE_SETTINGS.get(ruleset, {}))
    return Settings(mode=mode)


@dataclass(frozen=True)
class Spec:
    """A parsed search agent spec ``search[:WORD[+WORD]][@SECONDS]``: ``mode`` is None when
    the spec names none (the ruleset's default, :func:`default_mode`, applies)."""

    preset: str = "balanced"
    mode: str | None = None
    think: float | None = None

    def canonical(self, think: float | None = None) -> str:
        """The spec written back: ``search:PRESET[+MODE]@SECONDS`` (``think`` when the spec
        gives no time; no ``@`` when neither does)."""
        words = self.preset if self.mode is None else f"{self.preset}+{self.mode}"
        seconds = self.think if self.think is not None else think
        return f"search:{words}" + ("" if seconds is None else f"@{seconds:g}")


def parse_search_spec(kind: str) -> Spec:
    """``search[:WORD[+WORD]][@SECONDS]``: after the colon, a personality preset
    (``balanced``, ``aggressive``, ``cautious``, ``objective``), a mode (``tree``,
    ``improve``) or one of each joined by ``+``, in either order (``search:improve``,
    ``search:aggressive+improve@2``); after the ``@``, the think time in seconds. The preset
    and mode names do not overlap, so each word is one or the other. A bad spec is a one-line
    :class:`UmpireError`."""
    text = kind.strip()
    body, at, seconds = text.partition("@")
    base, colon, words = body.partition(":")
    if base != "search":
        raise UmpireError(f"{kind!r} is not a search agent spec")
    think: float | None = None
    if at:
        try:
            think = float(seconds)
        except ValueError:
            raise UmpireError(f"agent {kind!r}: think time {seconds!r} is not a number") from None
        if not think > 0 or think == float("inf"):
            raise UmpireError(f"agent {kind!r}: think time must be more than 0 seconds")
    preset: str | None = None
    mode: str | None = None
    parts = words.split("+") if colon and words else []
    if colon and words and "" in [p.strip() for p in parts]:
        raise UmpireError(f"agent {kind!r}: an empty word between '+' signs")
    for part in (p.strip().lower() for p in parts):
        if part in MODES:
            if mode is not None:
                raise UmpireError(f"agent {kind!r}: two modes ({mode}, {part}); give one")
            mode = part
        elif part in PRESETS:
            if preset is not None:
                raise UmpireError(f"agent {kind!r}: two presets ({preset}, {part}); give one")
            preset = part
        else:
            raise UmpireError(
                f"agent {kind!r}: unknown search personality or mode {part!r}; choose a "
                f"preset ({', '.join(PRESETS)}) and/or a mode ({', '.join(MODES)})"
            )
    return Spec(preset or "balanced", mode, think)


def parse_spec(kind: str) -> tuple[str, float | None]:
    """``search[:PRESET][+MODE][@SECONDS]`` -> (preset, seconds or None); the whole spec is
    checked (:func:`parse_search_spec` also gives the mode)."""
    spec = parse_search_spec(kind)
    return spec.preset, spec.think
