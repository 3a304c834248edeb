"""The Book and The Gun's chance definitions: each used to play (sampled from the game's
stream, recording events) and to give exact odds (enumerated), so the two cannot disagree.

The book's dice are "roll under": a d20 at or under the spotting or hit number, a d6 at or
under the morale, rally, close and stand numbers. :class:`RollUnder` and :class:`HitsUnder`
are those tests on the core :class:`~umpire.core.chance.Chance` contract.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb
from typing import Any

from umpire.core.chance import Chance, Draw, Fixed, Modifier, Opposed, Roll, Stream
from umpire.core.deck import card_rank, card_suit, standard_deck
from umpire.core.events import Event, roll


@dataclass(frozen=True, eq=False)
class RollUnder(Chance[bool]):
    """One d``sides``; the roll plus ``modifiers`` must be ``at_most`` or less. Natural faces
    in ``auto_pass``/``auto_fail`` decide alone (a morale 1 always passes, a 6 always fails)."""

    sides: int
    at_most: int
    rule: str
    modifiers: tuple[Modifier, ...] = ()
    auto_pass: frozenset[int] = frozenset()
    auto_fail: frozenset[int] = frozenset()
    text: str = ""
    visible_to: tuple[str, ...] | None = None
    public: Event | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def judge(self, face: int) -> bool:
        if face in self.auto_fail:
            return False
        if face in self.auto_pass:
            return True
        return face + sum(m.value for m in self.modifiers) <= self.at_most

    def sample(self, stream: Stream, log: list[Event]) -> bool:
        face = stream.d(self.sides)
        ok = self.judge(face)
        total = face + sum(m.value for m in self.modifiers)
        mods = "".join(f" {m.value:+d} ({m.why})" for m in self.modifiers)
        words = f"{self.text}: d{self.sides} {face}{mods} = {total}, need {self.at_most} or less: "
        words += "passes" if ok else "fails"
        log.append(
            roll(
                self.rule,
                words,
                [face],
                total,
                self.at_most,
                ok,
                visible_to=self.visible_to,
                public=self.public,
                under=True,  # rolled under: "need" is the most that passes
                **self.data,
            )
        )
        return ok

    def _enumerate(self) -> dict[bool, Fraction]:
        out = {True: Fraction(0), False: Fraction(0)}
        for face in range(1, self.sides + 1):
            out[self.judge(face)] += Fraction(1, self.sides)
        return {k: v for k, v in out.items() if v}


@dataclass(frozen=True, eq=False)
class HitsUnder(Chance[int]):
    """``count`` d``sides`` against ``number``: each die at or under it is a hit, a natural
    ``always_miss`` never is. Enumerated as a binomial (exact, fast for nine d20s)."""

    count: int
    sides: int
    number: int
    rule: str
    always_miss: int = 20
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def p_hit(self) -> Fraction:
        good = sum(1 for f in range(1, self.sides + 1) if self.hit(f))
        return Fraction(good, self.sides)

    def hit(self, face: int) -> bool:
        return face != self.always_miss and face <= self.number

    def sample_faces(self, stream: Stream, log: list[Event]) -> tuple[int, list[int]]:
        faces = stream.dice(self.count, self.sides)
        hits = sum(1 for f in faces if self.hit(f))
        words = f"{self.text}: {self.count}d{self.sides} {faces}, hit on {self.number} or less: "
        words += f"{hits} hit{'s' if hits != 1 else ''}"
        log.append(
            roll(self.rule, words, faces, hits, self.number, hits > 0, under=True, **self.data)
        )
        return hits, faces

    def sample(self, stream: Stream, log: list[Event]) -> int:
        return self.sample_faces(stream, log)[0]

    def _enumerate(self) -> dict[int, Fraction]:
        p = self.p_hit
        return {
            k: comb(self.count, k) * p**k * (1 - p) ** (self.count - k)
            for k in range(self.count + 1)
            if p > 0 or k == 0
        }


def total_hits(parts: Sequence[HitsUnder]) -> Chance[int]:
    """Hits of several firers together (independent dice)."""
    total: Chance[int] = Fixed(0)
    for part in parts:
        total = total.then(_adder(part))
    return total


def _adder(part: Chance[int]) -> Callable[[int], Chance[int]]:
    def add(acc: int) -> Chance[int]:
        return part.map(lambda h: acc + h)

    return add


def _pair_adder(
    one: Chance[tuple[int, int]],
) -> Callable[[tuple[int, int]], Chance[tuple[int, int]]]:
    def add(acc: tuple[int, int]) -> Chance[tuple[int, int]]:
        return one.map(lambda r: (acc[0] + r[0], acc[1] + r[1]))

    return add


# -- casualty cards (bookgun.casualty.card) ---------------------------------------------------
def casualty_effect(card: str, leader_present: bool = True) -> str:
    """What one casualty card does: ``leader`` (an ace, leader present), ``key_killed``,
    ``key_wounded`` (a face card, or an ace with no leader), ``killed`` or ``wounded``."""
    rank, heart = card_rank(card), card_suit(card) == "hearts"
    if rank == "A" and leader_present:
        return "leader"
    if rank in ("J", "Q", "K", "A"):
        return "key_killed" if heart else "key_wounded"
    return "killed" if heart else "wounded"


CASUALTY_DECK = tuple(standard_deck(0))


def draw_card(pile: Sequence[str], rule: str, why: str) -> Draw[str]:
    """The next casualty card: uniform among those left (the pile's order is nobody's)."""
    return Draw(list(pile), rule, text=lambda c: f"{why}: casualty card {c}")


def cards_effects(
    hits: int, leader_present: bool, pile: Sequence[str] = CASUALTY_DECK
) -> Chance[tuple[str, ...]]:
    """Effects of ``hits`` casualty cards drawn without replacement from ``pile``, as a sorted
    tuple (for odds; play draws the same cards one at a time with :func:`draw_card`)."""
    kinds: dict[str, int] = {}
    for c in pile:
        e = casualty_effect(c, leader_present)
        kinds[e] = kinds.get(e, 0) + 1
    return CardEffects(hits, tuple(sorted(kinds.items())))


@dataclass(frozen=True, eq=False)
class CardEffects(Chance[tuple[str, ...]]):
    """The effects of ``hits`` cards drawn without replacement from a pile of ``left`` (effect,
    count): sampled card by card (the same draws as before), enumerated in closed form as the
    multivariate hypergeometric over the effects (memoised), so the odds of a large volley do
    not grow as (kinds ** hits)."""

    hits: int
    left: tuple[tuple[str, int], ...]

    def sample(self, stream: Stream, log: list[Event]) -> tuple[str, ...]:
        return _effects(self.hits, self.left).sample(stream, log)

    def _enumerate(self) -> dict[tuple[str, ...], Fraction]:
        return dict(_effects_outcomes(self.hits, self.left))


@lru_cache(maxsize=256)
def _effects_outcomes(
    hits: int, left: tuple[tuple[str, int], ...]
) -> tuple[tuple[tuple[str, ...], Fraction], ...]:
    kinds = [k for k, n in left if n]
    counts = [n for k, n in left if n]
    drawn = min(hits, sum(counts))
    if drawn == 0:
        return (((), Fraction(1)),)
    total = comb(sum(counts), drawn)
    out: dict[tuple[str, ...], Fraction] = {}
    for split in product(*(range(min(n, drawn) + 1) for n in counts)):
        if sum(split) != drawn:
            continue
        ways = 1
        for n, m in zip(counts, split, strict=True):
            ways *= comb(n, m)
        key = tuple(sorted(k for k, m in zip(kinds, split, strict=True) for _ in range(m)))
        out[key] = out.get(key, Fraction(0)) + Fraction(ways, total)
    return tuple(out.items())


def _effects(hits: int, left: tuple[tuple[str, int], ...]) -> Chance[tuple[str, ...]]:
    """The card-by-card draws (what sampling does)."""
    if hits == 0 or not any(n for _, n in left):
        return Fixed(())
    items = [k for k, n in left for _ in range(n)]

    def rest(kind: str) -> Chance[tuple[str, ...]]:
        after = tuple((k, n - 1 if k == kind else n) for k, n in left)
        return _effects(hits - 1, after).map(lambda t: tuple(sorted((kind, *t))))

    return Draw(items, "bookgun.casualty.card").then(rest)


def fire_casualties(
    parts: Sequence[HitsUnder], leader_present: bool, visible: int
) -> Chance[tuple[int, int, int]]:
    """Exact (killed, wounded, leader hit) of one fire action: the d20s of every firing figure,
    then a card per hit (hits beyond the ``visible`` target figures are lost)."""

    def cards(h: int) -> Chance[tuple[int, int, int]]:
        return cards_effects(min(h, visible), leader_present).map(_tally)

    return total_hits(parts).then(cards)


def _tally(effects: tuple[str, ...]) -> tuple[int, int, int]:
    killed = sum(1 for e in effects if e in ("killed", "key_killed", "leader"))
    wounded = sum(1 for e in effects if e in ("wounded", "key_wounded"))
    leader = sum(1 for e in effects if e == "leader")
    return (killed, wounded, leader)


# -- close combat (bookgun.cc.roll) -------------------------------------------------------------
def pair_roll(
    attacker_mod: int,
    defender_mod: int,
    rule: str,
    text: Callable[[tuple[int, ...]], str] | str = "",
) -> Chance[int]:
    """One pair: each rolls a d6 plus modifiers; positive = the attacker won by that much."""
    first = Roll(1, 6, rule, text).map(lambda f: f[0] + attacker_mod)
    second = Roll(1, 6, rule, text).map(lambda f: f[0] + defender_mod)
    return Opposed(first, second)


def close_combat_casualties(pairs: Sequence[tuple[int, int]]) -> Chance[tuple[int, int]]:
    """Exact (attacker losers, defender losers) over ``pairs`` of (attacker mod, defender
    mod): each pair's loser becomes a casualty (its card then says killed or wounded)."""
    total: Chance[tuple[int, int]] = Fixed((0, 0))
    for am, dm in pairs:
        one = pair_roll(am, dm, "bookgun.cc.roll").map(
            lambda d: (1, 0) if d < 0 else (0, 1) if d > 0 else (0, 0)
        )
        total = total.then(_pair_adder(one))
    return total


def movement_roll(count: int, rule: str, text: str) -> Roll:
    return Roll(count, 6, rule, lambda faces: f"{text}: {count}d6 {list(faces)}")


def mount_roll(count: int, text: str) -> Roll:
    """bookgun.move.mount (p.16): the 1D6 a unit may move in the phase it mounts."""
    return movement_roll(count, "bookgun.move.mount", text)


def boards(faces: Sequence[int], reach: float, farthest: float) -> bool:
    """Every figure reaches the vehicle: the roll plus the boarding reach covers the farthest."""
    return sum(faces) + reach >= farthest - 1e-9


def mount_chance(count: int, reach: float, farthest: float) -> Chance[bool]:
    """Exact odds that a unit whose farthest figure stands ``farthest`` in. from the vehicle
    gets aboard this move (the same roll and judge as play)."""
    return mount_roll(count, "mount").map(lambda faces: boards(faces, reach, farthest))


# -- HE at a locked door (bookgun.building.door_fire) -------------------------------------------
def door_shot(need: int, text: str = "") -> RollUnder:
    """One HE round at a door: the blast's on-target d20 (bookgun.fire.blast), ``need`` or
    less - on target, the door is blown open."""
    return RollUnder(20, need, "bookgun.building.door_fire", text=text)


def door_opens(needs: Sequence[int]) -> Chance[bool]:
    """Exact odds that a fire action opens the door: the unit's HE rounds, ``needs`` in the
    order play fires them, one after another until one lands (the same rolls play samples)."""
    if not needs:
        return Fixed(False)
    first, rest = door_shot(needs[0]), tuple(needs[1:])

    def after(ok: bool) -> Chance[bool]:
        return Fixed(True) if ok else door_opens(rest)

    return first.then(after)
