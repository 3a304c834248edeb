"""Chance primitives: one definition of a roll or a draw, two uses.

A :class:`Chance` is *sampled* in play, from the game's seeded stream, recording a ``roll``
event for every die thrown, and *enumerated* exactly (with icepool for dice pools) for
``umpire odds``, search chance nodes and OpenSpiel. Play and analysis therefore cannot disagree:
they run the same definition.

The primitives:

- :class:`Roll` — ``count`` dice of ``sides`` faces; the outcome is the tuple of faces.
- :class:`Test` — roll, keep the highest/lowest or sum, add modifiers, compare with a score;
  natural faces that always pass or always fail.
- :class:`CountAtLeast` — how many dice of a pool score ``need`` or more (hits).
- :class:`Opposed` — two chances, the outcome is the first minus the second.
- :class:`TableLookup` — a die roll plus a net modifier, clamped, read off a table row
  (a combat results table column, a damage table).
- :class:`Draw` — one item drawn uniformly from what is left (cards, random events).
- :class:`Fixed` — a certain outcome (a chance that needs no roll).

Chances compose: ``chance.map(f)`` and ``chance.then(f)`` (``f`` returns the next chance, which
may depend on the outcome: roll to hit, then for each hit a penetration roll, then damage).

The stream is read in exactly the order the definition rolls, so a procedure moved onto these
primitives replays old games identically.
"""

from __future__ import annotations

import itertools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Generic, Literal, Protocol, TypeVar

from umpire.core.events import Event, roll

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)
Faces = tuple[int, ...]
Keep = Literal["all", "highest", "lowest", "sum"]


class Stream(Protocol):
    """What sampling needs of the game's random stream (see :mod:`umpire.core.rng`)."""

    def d(self, sides: int) -> int: ...

    def dice(self, count: int, sides: int) -> list[int]: ...

    def choice_index(self, n: int) -> int: ...


class TableStream(Stream, Protocol):
    """A stream whose dice and draws come from a physical table (companion mode): sampling
    hands it the primitive being rolled, so it can say which dice to roll and what score is
    needed, and returns the faces (or the index of the item drawn) entered by the players.
    A plain :class:`~umpire.core.rng.RandomStream` has neither method and is used as before."""

    def faces_for(self, count: int, sides: int, chance: Chance[Any] | None) -> Sequence[int]: ...

    def index_for(self, items: Sequence[Any], chance: Chance[Any] | None) -> int: ...


def roll_faces(stream: Stream, count: int, sides: int, chance: Chance[Any] | None) -> Faces:
    """``count`` d``sides`` for ``chance``: from the stream's ``faces_for`` when it has one
    (a physical table), else ``stream.dice`` exactly as before."""
    hook = getattr(stream, "faces_for", None)
    if hook is None:
        return tuple(stream.dice(count, sides))
    return tuple(hook(count, sides, chance))


def draw_index(stream: Stream, items: Sequence[Any], chance: Chance[Any] | None) -> int:
    """The index of the item drawn from ``items``: from the stream's ``index_for`` when it
    has one (a card drawn from a physical deck), else ``stream.choice_index`` as before."""
    hook = getattr(stream, "index_for", None)
    if hook is None:
        return stream.choice_index(len(items))
    return int(hook(items, chance))


@dataclass(frozen=True, slots=True)
class Modifier:
    """A change to a roll with the rule that makes it and the reason, in a player's words.

    ``value`` is added to the *roll* (a -1 for a moving firer is ``-1``)."""

    rule: str
    value: int
    why: str

    def label(self) -> str:
        return f"{self.value:+d} {self.why}"


class Chance(ABC, Generic[T]):
    """A random outcome: sampled in play, enumerated exactly for odds and search."""

    @abstractmethod
    def sample(self, stream: Stream, log: list[Event]) -> T:
        """Draw the outcome from ``stream``, appending an event per roll to ``log``."""

    @abstractmethod
    def _enumerate(self) -> dict[T, Fraction]: ...

    def outcomes(self) -> dict[T, Fraction]:
        """Every outcome with its exact probability (they sum to 1)."""
        return self._enumerate()

    def weights(self) -> tuple[dict[T, int], int]:
        """The same enumeration as :meth:`outcomes` in integers: every outcome (in the same
        order) with a weight, and the total they are out of, so that ``weight / total`` is
        exactly its probability. The primitives count in integers over a common denominator
        (no fraction arithmetic per outcome); a chance defined elsewhere by ``_enumerate``
        alone is put over the least common denominator of its fractions."""
        return weights_of(self.outcomes())

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        """The exact chance that the outcome satisfies ``predicate``."""
        return sum((p for o, p in self.outcomes().items() if predicate(o)), Fraction(0))

    def expected(self, value: Callable[[T], float | int | Fraction]) -> Fraction:
        return sum((p * Fraction(value(o)) for o, p in self.outcomes().items()), Fraction(0))

    def map(self, f: Callable[[T], U]) -> Chance[U]:
        """The same chance, its outcome passed through ``f`` (no more dice)."""
        return _Mapped(self, f)

    def then(self, f: Callable[[T], Chance[U]]) -> Chance[U]:
        """A two-step chance: the first outcome chooses the second chance."""
        return _Then(self, f)


def weights_of(outcomes: Mapping[T, Fraction]) -> tuple[dict[T, int], int]:
    """Exact probabilities as integer weights over their least common denominator."""
    total = math.lcm(*(p.denominator for p in outcomes.values())) if outcomes else 1
    return {k: p.numerator * (total // p.denominator) for k, p in outcomes.items()}, total


def fractions_of(weighted: tuple[Mapping[T, int], int]) -> dict[T, Fraction]:
    """Integer weights back to exact probabilities (the same fractions, in the same order)."""
    weights, total = weighted
    return {k: Fraction(w, total) for k, w in weights.items()}


@dataclass(frozen=True, eq=False)
class Fixed(Chance[T]):
    """A certain outcome."""

    value: T

    def sample(self, stream: Stream, log: list[Event]) -> T:
        return self.value

    def _enumerate(self) -> dict[T, Fraction]:
        return {self.value: Fraction(1)}

    def weights(self) -> tuple[dict[T, int], int]:
        return {self.value: 1}, 1


def _pool_distribution(count: int, sides: int) -> dict[Faces, Fraction]:
    """Sorted tuples of ``count`` d``sides`` with their exact probability."""
    if count == 0:
        return {(): Fraction(1)}
    return _pool_cache(count, sides)


_POOLS: dict[tuple[int, int], dict[Faces, Fraction]] = {}
_POOL_WEIGHTS: dict[tuple[int, int], tuple[dict[Faces, int], int]] = {}


def _pool_cache(count: int, sides: int) -> dict[Faces, Fraction]:
    found = _POOLS.get((count, sides))
    if found is None:
        found = _POOLS[(count, sides)] = fractions_of(_pool_weights(count, sides))
    return found


def _pool_weights(count: int, sides: int) -> tuple[dict[Faces, int], int]:
    """Sorted tuples of ``count`` d``sides``, each with the number of the ``sides ** count``
    equally likely rolls that sort to it (a multinomial coefficient), in increasing order of
    the tuples (the order icepool's ``d(sides).pool(count).expand()`` lists them in, which
    this replaces: tests/sevendays/test_exact_weights.py checks the two agree)."""
    found = _POOL_WEIGHTS.get((count, sides))
    if found is None:
        if count == 0:
            found = ({(): 1}, 1)
        else:
            ways = math.factorial(count)
            weights: dict[Faces, int] = {}
            for faces in itertools.combinations_with_replacement(range(1, sides + 1), count):
                n = ways
                run = 1
                for i in range(1, count):
                    if faces[i] == faces[i - 1]:
                        run += 1
                        n //= run
                    else:
                        run = 1
                weights[faces] = n
            found = (weights, sides**count)
        _POOL_WEIGHTS[(count, sides)] = found
    return found


@dataclass(frozen=True, eq=False)
class Roll(Chance[Faces]):
    """``count`` dice of ``sides`` faces; the outcome is the faces in the order rolled.

    Enumerated outcomes are the sorted faces (order does not matter to any judge of a pool).
    ``rule``/``text`` record one ``roll`` event when sampled; ``text`` may be a function of
    the faces. A roll with no ``rule`` records nothing (its judge records the event)."""

    count: int
    sides: int
    rule: str | None = None
    text: str | Callable[[Faces], str] = ""

    def sample(self, stream: Stream, log: list[Event]) -> Faces:
        faces = roll_faces(stream, self.count, self.sides, self)
        if self.rule is not None:
            words = self.text(faces) if callable(self.text) else self.text
            log.append(roll(self.rule, words, list(faces), sum(faces), None, True))
        return faces

    def _enumerate(self) -> dict[Faces, Fraction]:
        return dict(_pool_distribution(self.count, self.sides))

    def weights(self) -> tuple[dict[Faces, int], int]:
        weights, total = _pool_weights(self.count, self.sides)
        return dict(weights), total


def kept_value(faces: Faces, keep: Keep) -> int:
    """The number a test reads from its dice: the highest, lowest or sum (``all`` = sum)."""
    if not faces:
        return 0
    if keep == "highest":
        return max(faces)
    if keep == "lowest":
        return min(faces)
    return sum(faces)


@dataclass(frozen=True)
class TestResult:
    """What a sampled :class:`Test` decided, for rules that need more than pass/fail."""

    success: bool
    faces: Faces
    total: int


@dataclass(frozen=True, eq=False)
class Test(Chance[bool]):
    """Roll ``count`` d``sides``, read the kept value, add ``modifiers``; it passes on
    ``need`` or more. Natural faces in ``auto_pass`` always pass, in ``auto_fail`` always fail
    (read on the kept die). ``text`` words the event; as a function it gets the faces, the
    modified total and the verdict."""

    sides: int
    need: int
    rule: str
    count: int = 1
    keep: Keep = "highest"
    modifiers: tuple[Modifier, ...] = ()
    auto_pass: frozenset[int] = frozenset()
    auto_fail: frozenset[int] = frozenset()
    text: str | Callable[[Faces, int, bool], str] = ""
    data: Mapping[str, Any] = field(default_factory=dict)

    @cached_property
    def net_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    def judge(self, faces: Faces) -> TestResult:
        """The verdict on rolled ``faces`` (the same function play and odds use)."""
        natural = kept_value(faces, self.keep)
        total = natural + self.net_modifier
        if natural in self.auto_fail and self.keep != "sum":
            ok = False
        elif natural in self.auto_pass and self.keep != "sum":
            ok = True
        else:
            ok = total >= self.need
        return TestResult(ok, faces, total)

    def sample(self, stream: Stream, log: list[Event]) -> bool:
        return self.sample_result(stream, log).success

    def sample_result(self, stream: Stream, log: list[Event]) -> TestResult:
        faces = roll_faces(stream, self.count, self.sides, self)
        result = self.judge(faces)
        if callable(self.text):
            words = self.text(faces, result.total, result.success)
        else:
            words = self.text or self.default_text(faces, result)
        log.append(
            roll(
                self.rule,
                words,
                list(faces),
                result.total,
                self.need,
                result.success,
                **dict(self.data),
            )
        )
        return result

    def default_text(self, faces: Faces, result: TestResult) -> str:
        mods = "".join(f" {m.value:+d} ({m.why})" for m in self.modifiers)
        verdict = "passes" if result.success else "fails"
        dice = f"{self.count}d{self.sides}" if self.count > 1 else f"d{self.sides}"
        return f"{dice} {list(faces)}{mods} = {result.total}, need {self.need}+: {verdict}"

    def _enumerate(self) -> dict[bool, Fraction]:
        return fractions_of(self.weights())

    def weights(self) -> tuple[dict[bool, int], int]:
        out = {True: 0, False: 0}
        weights, total = _pool_weights(self.count, self.sides)
        for faces, w in weights.items():
            out[self.judge(faces).success] += w
        return {k: v for k, v in out.items() if v}, total


@dataclass(frozen=True, eq=False)
class CountAtLeast(Chance[int]):
    """How many of ``count`` d``sides`` score ``need`` or more (each die a hit)."""

    count: int
    sides: int
    need: int
    rule: str
    text: str | Callable[[Faces, int], str] = ""
    data: Mapping[str, Any] = field(default_factory=dict)

    def judge(self, faces: Faces) -> int:
        return sum(1 for f in faces if f >= self.need)

    def sample(self, stream: Stream, log: list[Event]) -> int:
        faces = roll_faces(stream, self.count, self.sides, self)
        hits = self.judge(faces)
        words = self.text(faces, hits) if callable(self.text) else self.text
        log.append(
            roll(self.rule, words, list(faces), hits, self.need, hits > 0, **dict(self.data))
        )
        return hits

    def _enumerate(self) -> dict[int, Fraction]:
        return fractions_of(self.weights())

    def weights(self) -> tuple[dict[int, int], int]:
        out: dict[int, int] = {}
        weights, total = _pool_weights(self.count, self.sides)
        judge = self.judge
        for faces, w in weights.items():
            k = judge(faces)
            out[k] = out.get(k, 0) + w
        return out, total


@dataclass(frozen=True, eq=False)
class Opposed(Chance[int]):
    """Two chances rolled in turn; the outcome is the first minus the second (positive: the
    first side wins by that much)."""

    first: Chance[int]
    second: Chance[int]

    def sample(self, stream: Stream, log: list[Event]) -> int:
        return self.first.sample(stream, log) - self.second.sample(stream, log)

    def _enumerate(self) -> dict[int, Fraction]:
        return fractions_of(self.weights())

    def weights(self) -> tuple[dict[int, int], int]:
        out: dict[int, int] = {}
        first, first_total = self.first.weights()
        second, second_total = self.second.weights()
        for (a, wa), (b, wb) in itertools.product(first.items(), second.items()):
            out[a - b] = out.get(a - b, 0) + wa * wb
        return out, first_total * second_total


@dataclass(frozen=True, eq=False)
class DiceOff(Chance[int]):
    """Two sides roll one die each, in turn, with a modifier each; the outcome is the first's
    score minus the second's (positive: the first side is higher by that much). Unlike
    :class:`Opposed` of two rolls, it records ONE ``roll`` event holding both dice, as a
    dice-off at the table reads (an initiative roll, a close combat).

    ``text(first_die, second_die, first_score, second_score)`` words the event; ``success``
    judges it from the difference (by default: the first side is higher)."""

    rule: str
    sides: int = 6
    first_mod: int = 0
    second_mod: int = 0
    text: Callable[[int, int, int, int], str] | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    success: Callable[[int], bool] | None = None

    def scores(self, faces: Faces) -> tuple[int, int]:
        return faces[0] + self.first_mod, faces[1] + self.second_mod

    def judge(self, faces: Faces) -> int:
        a, b = self.scores(faces)
        return a - b

    def sample(self, stream: Stream, log: list[Event]) -> int:
        if getattr(stream, "faces_for", None) is not None:
            first, second = roll_faces(stream, 2, self.sides, self)
        else:
            first, second = stream.d(self.sides), stream.d(self.sides)
        a, b = self.scores((first, second))
        words = self.text(first, second, a, b) if self.text is not None else ""
        ok = a > b if self.success is None else self.success(a - b)
        log.append(roll(self.rule, words, [first, second], a - b, None, ok, **dict(self.data)))
        return a - b

    def _enumerate(self) -> dict[int, Fraction]:
        return fractions_of(self.weights())

    def weights(self) -> tuple[dict[int, int], int]:
        out: dict[int, int] = {}
        for first in range(1, self.sides + 1):
            for second in range(1, self.sides + 1):
                d = self.judge((first, second))
                out[d] = out.get(d, 0) + 1
        return out, self.sides * self.sides


@dataclass(frozen=True, eq=False)
class TableLookup(Chance[T]):
    """Roll ``count`` d``sides`` (summed), add ``drm``, clamp to ``low``..``high`` (the table's
    first and last rows where the book says "treat results beyond as"), and read ``row(value)``.

    ``row`` is a mapping from the modified roll to the result or a function of it (a combat
    results table column picked by the odds is such a mapping). ``reading``, when given, turns
    the clamped roll into the number the table reads (a halved die); ``success`` words the
    event's verdict from the result (by default every look-up "succeeds"); ``need``, when the
    table has a first row that counts as success, is the score the event says was needed."""

    sides: int
    row: Mapping[int, T] | Callable[[int], T]
    rule: str
    count: int = 1
    drm: int = 0
    low: int | None = None
    high: int | None = None
    text: str | Callable[[Faces, int, T], str] = ""
    data: Mapping[str, Any] = field(default_factory=dict)
    reading: Callable[[int], int] | None = None
    success: Callable[[T], bool] | None = None
    need: int | None = None

    def modified(self, faces: Faces) -> int:
        value = sum(faces) + self.drm
        if self.low is not None:
            value = max(self.low, value)
        if self.high is not None:
            value = min(self.high, value)
        return value if self.reading is None else self.reading(value)

    def judge(self, faces: Faces) -> T:
        value = self.modified(faces)
        if callable(self.row):
            return self.row(value)
        return self.row[value]

    def sample(self, stream: Stream, log: list[Event]) -> T:
        faces = roll_faces(stream, self.count, self.sides, self)
        value = self.modified(faces)
        result = self.judge(faces)
        if callable(self.text):
            words = self.text(faces, value, result)
        else:
            words = self.text or f"{list(faces)} {self.drm:+d} = {value}: {result}"
        ok = True if self.success is None else self.success(result)
        log.append(roll(self.rule, words, list(faces), value, self.need, ok, **dict(self.data)))
        return result

    def _enumerate(self) -> dict[T, Fraction]:
        return fractions_of(self.weights())

    def weights(self) -> tuple[dict[T, int], int]:
        out: dict[T, int] = {}
        weights, total = _pool_weights(self.count, self.sides)
        for faces, w in weights.items():
            r = self.judge(faces)
            out[r] = out.get(r, 0) + w
        return out, total


@dataclass(frozen=True, eq=False)
class Draw(Chance[T]):
    """One item drawn uniformly from ``items`` (the cards left, possible events): in play the
    stream picks an index; for odds every item weighs the same (duplicates add up)."""

    items: Sequence[T]
    rule: str
    text: str | Callable[[T], str] = ""
    visible_to: tuple[str, ...] | None = None

    def sample(self, stream: Stream, log: list[Event]) -> T:
        if not self.items:
            raise ValueError("nothing left to draw")
        item = self.items[draw_index(stream, self.items, self)]
        words = self.text(item) if callable(self.text) else (self.text or f"draws {item}")
        log.append(Event("draw", words, self.rule, visible_to=self.visible_to))
        return item

    def _enumerate(self) -> dict[T, Fraction]:
        out: dict[T, Fraction] = {}
        share = Fraction(1, len(self.items))
        for item in self.items:
            out[item] = out.get(item, Fraction(0)) + share
        return out

    def weights(self) -> tuple[dict[T, int], int]:
        if not self.items:
            return weights_of(self.outcomes())  # raises as outcomes() does
        out: dict[T, int] = {}
        for item in self.items:
            out[item] = out.get(item, 0) + 1
        return out, len(self.items)


@dataclass(frozen=True, eq=False)
class _Mapped(Chance[U], Generic[T, U]):
    inner: Chance[T]
    f: Callable[[T], U]

    def sample(self, stream: Stream, log: list[Event]) -> U:
        return self.f(self.inner.sample(stream, log))

    def _enumerate(self) -> dict[U, Fraction]:
        return fractions_of(self.weights())

    def weights(self) -> tuple[dict[U, int], int]:
        out: dict[U, int] = {}
        weights, total = self.inner.weights()
        f = self.f
        for o, w in weights.items():
            key = f(o)
            out[key] = out.get(key, 0) + w
        return out, total


@dataclass(frozen=True, eq=False)
class _Then(Chance[U], Generic[T, U]):
    inner: Chance[T]
    f: Callable[[T], Chance[U]]

    def sample(self, stream: Stream, log: list[Event]) -> U:
        return self.f(self.inner.sample(stream, log)).sample(stream, log)

    def _enumerate(self) -> dict[U, Fraction]:
        return fractions_of(self.weights())

    def weights(self) -> tuple[dict[U, int], int]:
        # every second chance over one common total (the least common multiple of theirs)
        weights, total = self.inner.weights()
        seconds = [(w, self.f(o).weights()) for o, w in weights.items()]
        common = math.lcm(*(t for _w, (_d, t) in seconds)) if seconds else 1
        out: dict[U, int] = {}
        for w, (second, second_total) in seconds:
            scale = w * (common // second_total)
            for o2, w2 in second.items():
                out[o2] = out.get(o2, 0) + scale * w2
        return out, total * common


def repeat(chance: Chance[int], times: int) -> Chance[int]:
    """The sum of ``times`` independent rolls of ``chance`` (several identical shots)."""

    def add_one(acc: int) -> Chance[int]:
        return chance.map(lambda v: acc + v)

    total: Chance[int] = Fixed(0)
    for _ in range(times):
        total = total.then(add_one)
    return total


def as_floats(dist: Mapping[T, Fraction]) -> dict[T, float]:
    return {k: float(v) for k, v in dist.items()}


class EnteredOutcomes:
    """A stream that gives back the outcomes entered at a physical table (companion mode), in
    the order they were entered: ``{"faces": [...], "sides": n}`` for dice, ``{"index": i,
    "of": n}`` for an item drawn. The game's own stream ``inner`` still serves what no player
    rolls (shuffles, Umpire's own random choices) and is advanced as if it had rolled the
    dice too, so it stays where the digital game's stream would be. A replay that asks for
    other dice than were entered raises :class:`~umpire.core.errors.RecordMismatchError`."""

    def __init__(self, inner: Stream, entries: Sequence[Mapping[str, Any]]) -> None:
        self.inner = inner
        self.entries = list(entries)
        self.used = 0

    def _next(self, what: str) -> Mapping[str, Any]:
        from umpire.core.errors import RecordMismatchError

        if self.used >= len(self.entries):
            raise RecordMismatchError(f"the rules ask for {what}, but no more were entered")
        entry = self.entries[self.used]
        self.used += 1
        return entry

    def faces_for(self, count: int, sides: int, chance: Chance[Any] | None) -> Sequence[int]:
        from umpire.core.errors import RecordMismatchError

        entry = self._next(f"{count}d{sides}")
        faces = entry.get("faces")
        if (
            not isinstance(faces, list)
            or len(faces) != count
            or entry.get("sides") != sides
            or not all(isinstance(f, int) and 1 <= f <= sides for f in faces)
        ):
            raise RecordMismatchError(
                f"entered outcome {self.used}: {dict(entry)} is not {count}d{sides}"
            )
        self.inner.dice(count, sides)  # keep the game's stream in step with the digital game
        return list(faces)

    def index_for(self, items: Sequence[Any], chance: Chance[Any] | None) -> int:
        from umpire.core.errors import RecordMismatchError

        entry = self._next("a card or draw")
        index = entry.get("index")
        if (
            not isinstance(index, int)
            or entry.get("of") != len(items)
            or not 0 <= index < len(items)
        ):
            raise RecordMismatchError(
                f"entered outcome {self.used}: {dict(entry)} is not a draw from {len(items)}"
            )
        if chance is not None:  # a Draw reads the stream in digital play; a deck's top does not
            self.inner.choice_index(len(items))
        return index

    def d(self, sides: int) -> int:
        return self.faces_for(1, sides, None)[0]

    def dice(self, count: int, sides: int) -> list[int]:
        return list(self.faces_for(count, sides, None))

    def choice_index(self, n: int) -> int:
        return self.inner.choice_index(n)

    def shuffle(self, items: list[Any]) -> None:
        shuffle = getattr(self.inner, "shuffle", None)
        if shuffle is None:
            raise TypeError("the game's stream cannot shuffle")
        shuffle(items)

    def finish(self) -> None:
        """Raise if outcomes were entered that the rules never asked for."""
        from umpire.core.errors import RecordMismatchError

        if self.used != len(self.entries):
            raise RecordMismatchError(
                f"{len(self.entries) - self.used} entered outcome(s) were never rolled"
            )
