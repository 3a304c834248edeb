"""What a shot is before the dice: its plan, the refusal that forbids it, the modifiers and the
situation the table decides (rules sevendays.fire.*, book p15-16).

These are plain values shared by the rule modules that plan shots — direct fire
(:mod:`.firing`), mortars (:mod:`.mortars`), air defence (:mod:`.air`) — and by the odds and
the cards. They depend on no rule module, so firing, air, mortars and sight import them without
importing each other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from umpire.core.chance import Chance, Roll, Stream, fractions_of, roll_faces
from umpire.core.events import Event, roll
from umpire.geometry.table import in_arc
from umpire.rulesets.sevendays.config import HouseRules, default_house_rules
from umpire.rulesets.sevendays.orbat import UnitProfile, UnitType, Weapon
from umpire.rulesets.sevendays.state import SevenDaysState, Unit

CLOSE_RANGE = 12.0
MORTAR_WEAPON = Weapon(value=0, mortar=True)  # sevendays.mortar.fire: no penetration value
GRENADE_LAUNCHER = Weapon(value=2)  # sevendays.fire.grenade_launcher: weapon 2 against vehicles


class Modifier(NamedTuple):
    """A change to the score a shot needs, with the rule and the reason."""

    rule: str
    delta: int  # added to the score needed (a -1 on the die is +1 here)
    why: str


def morale_modifiers(markers: int) -> list[Modifier]:
    """Rule sevendays.fire.modifier.morale: one worse per morale marker on the firer."""
    if not markers:
        return []
    why = f"{markers} morale marker(s) on firer"
    return [Modifier("sevendays.fire.modifier.morale", markers, why)]


MOVED_TYPES = frozenset({UnitType.MBT, UnitType.LIGHT})  # APCs are light vehicles here


def moved_modifiers(profile: UnitProfile, moved: bool) -> list[Modifier]:
    """Rule sevendays.fire.modifier.moved (book p15): -1 when the firer is an MBT, APC or
    light vehicle that moves in this activation, whether it moved before the shot or has
    declared a move after it; the book's list names no helicopter, infantry or support team."""
    if not moved or profile.type not in MOVED_TYPES:
        return []
    return [Modifier("sevendays.fire.modifier.moved", 1, "firer moves this activation")]


class ShotPlan(NamedTuple):
    """Everything decided before the dice are rolled."""

    firer: str
    target: str
    weapon_kind: str  # "gun", "atgm", "rockets" or "aa" (at a helicopter)
    weapon: Weapon
    dice: int
    base: int
    need: int
    range: float
    target_is_vehicle: bool
    modifiers: tuple[Modifier, ...] = ()
    heavy: bool = False  # conversion die class against foot (2d6) vs light (1d6)
    cover: str = "open"  # the target's terrain for conversion: open | cover | fortified
    front: bool = True  # a vehicle target is hit on its front armour
    aa_bonus: int = 0  # an AA shot: added to the AA hit-effect die (vehicle SAMs)
    best_die: bool = False  # rapid-fire autocannon: the dice keep the highest (one hit at most)

    @property
    def possible(self) -> bool:
        return self.need <= 10


class Situation(NamedTuple):
    """What the table decides about a shot: the facts the rules read from the geometry.

    The game measures them on the table; ``umpire odds`` takes them from the command line.
    Both then plan the shot with the same :func:`plan_from_situation`."""

    distance: float
    in_arc: bool = True
    visible: bool = True
    obscured: bool = False  # more than half the target hidden (sevendays.los.obscured)
    target_cover: str = "open"  # open | cover | fortified
    target_in_buildings: bool = False
    enemy_foot_close: bool = False  # sevendays.fire.modifier.infantry_close applies
    front: bool = True  # the firer is in the target's front arc (sevendays.hit.facing)


class Refusal(NamedTuple):
    """Why a shot may not be taken: the rule that forbids it and a sentence."""

    rule: str
    reason: str


WEAPON_KINDS = ("gun", "atgm", "rockets")
SHOT_VERBS = {"gun": "fire", "atgm": "atgm", "rockets": "rockets"}  # weapon kind -> action
SHOT_WEAPONS = {verb: kind for kind, verb in SHOT_VERBS.items()}  # action -> weapon kind


def weapon_for(
    profile: UnitProfile, kind: str, house: HouseRules | None = None
) -> tuple[Weapon, int] | None:
    """The weapon and base to-hit a unit uses for a ``gun``, ``atgm`` or ``rockets`` shot, if
    it has one (rockets: rule sevendays.air.rockets, numbers from the house rules)."""
    if kind == "rockets":
        if "rockets" not in profile.traits:
            return None
        rockets = (house or default_house_rules()).air.rockets
        return Weapon(value=rockets.weapon), rockets.to_hit
    if kind == "atgm":
        if profile.atgm is None:
            return None
        return profile.atgm.weapon, profile.atgm.to_hit
    if "mortar" in profile.traits:
        return MORTAR_WEAPON, profile.to_hit or 8
    if "grenade_launcher" in profile.traits and profile.to_hit is not None:
        return GRENADE_LAUNCHER, profile.to_hit  # sevendays.fire.grenade_launcher
    if profile.weapon is None or profile.to_hit is None:
        return None
    return profile.weapon, profile.to_hit


def hits_front(target: Unit, firer_pos: tuple[float, float]) -> bool:
    """Rule sevendays.hit.facing: the firer is inside the target's front 180 degrees."""
    return in_arc(target.pos, target.facing, 180.0, firer_pos)


def fire_arc(profile: UnitProfile) -> float:
    """Rule sevendays.fire.arc."""
    if profile.type is UnitType.SUPPORT or "fixed_forward" in profile.traits:
        return 90.0
    return 360.0


def describe_modifiers(plan: ShotPlan) -> str:
    if not plan.modifiers:
        return f"base {plan.base}+"
    parts = ", ".join(f"-{m.delta} {m.why}" for m in plan.modifiers)
    return f"base {plan.base}+ ({parts})"


def hits_scored(
    dice: Sequence[int], need: int, target_is_vehicle: bool, best_die: bool = False
) -> int:
    """Rule sevendays.fire.base: each d10 at or above ``need`` hits; against a vehicle the
    dice give one chance between them (one hit at most), and so do a rapid-fire autocannon's
    two dice against any target (``best_die``, rule sevendays.fire.autocannon: keep the
    highest)."""
    if target_is_vehicle or best_die:
        return 1 if max(dice) >= need else 0
    return sum(1 for d in dice if d >= need)


@dataclass(frozen=True, eq=False)
class ToHit(Chance[int]):
    """Rule sevendays.fire.base as one chance definition: the shot's d10s, judged by
    :func:`hits_scored`; sampled in play (one ``roll`` event worded as before), enumerated
    exactly for the odds. The outcome is the number of hits. ``record``, when given, makes the
    event instead (a card's attack words its roll under the card's rule)."""

    plan: ShotPlan
    firer: tuple[str, str] = ("", "")  # uid, name
    target: tuple[str, str] = ("", "")
    record: Callable[[list[int], int], Event] | None = None  # (dice, hits) -> the roll event

    def judge(self, faces: Sequence[int]) -> int:
        plan = self.plan
        return hits_scored(faces, plan.need, plan.target_is_vehicle, plan.best_die)

    def table_words(self, count: int, sides: int) -> str:
        """What the players at a physical table roll for this shot and the score it needs
        (companion mode): "roll 2d10 for T-72A 2 at Chieftain 1: 6+ hits"."""
        plan = self.plan
        what = "AA fire" if plan.weapon_kind == "aa" else f"{plan.weapon_kind} ({plan.weapon})"
        head = (
            f"roll {count}d{sides} for {self.firer[1]} at {self.target[1]} "
            f"(sevendays.fire.base, {what}, {describe_modifiers(plan)})"
        )
        if plan.need > sides:
            return f"{head}: it needs {plan.need}+, no die can hit"
        if count == 1:
            return f"{head}: {plan.need}+ hits"
        if plan.target_is_vehicle or plan.best_die:
            return f"{head}: {plan.need}+ hits (any die of {plan.need}+; one hit at most)"
        return f"{head}: {plan.need}+ hits (each die of {plan.need}+ is a hit)"

    def sample(self, stream: Stream, log: list[Event]) -> int:
        plan = self.plan
        dice = list(roll_faces(stream, plan.dice, 10, self))
        hits = self.judge(dice)
        if self.record is not None:
            log.append(self.record(dice, hits))
            return hits
        result = max(dice) if plan.target_is_vehicle or plan.best_die else hits
        verb = "hits" if hits else "misses"
        keep = " keep the highest" if plan.best_die else ""
        what = "AA fire" if plan.weapon_kind == "aa" else f"{plan.weapon_kind} ({plan.weapon})"
        text = (
            f"{self.firer[1]} fires {what} at {self.target[1]} "
            f'at {plan.range:.1f}": {plan.dice}d10{keep} {dice} need {plan.need}+ '
            f"[{describe_modifiers(plan)}] -> {verb}" + (f" x{hits}" if hits > 1 else "")
        )
        log.append(
            roll(
                "sevendays.fire.base",
                text,
                dice,
                result,
                plan.need,
                hits > 0,
                firer=self.firer[0],
                target=self.target[0],
                hits=hits,
                modifiers=[m.rule for m in plan.modifiers],
            )
        )
        return hits

    def _enumerate(self) -> dict[int, Fraction]:
        return fractions_of(self.weights())

    def weights(self) -> tuple[dict[int, int], int]:
        out: dict[int, int] = {}
        faces_weights, total = Roll(self.plan.dice, 10).weights()
        judge = self.judge
        for faces, w in faces_weights.items():
            k = judge(faces)
            out[k] = out.get(k, 0) + w
        return out, total


def to_hit(plan: ShotPlan, firer: Unit | None = None, target: Unit | None = None) -> ToHit:
    """The roll to hit of ``plan`` (units named in the event when given)."""
    return ToHit(
        plan,
        (firer.uid, firer.name) if firer is not None else (plan.firer, plan.firer),
        (target.uid, target.name) if target is not None else (plan.target, plan.target),
    )


def roll_to_hit(
    state: SevenDaysState, plan: ShotPlan, firer: Unit, target: Unit
) -> tuple[int, Event]:
    """Roll the shot's d10s; returns the number of hits and the roll event."""
    log: list[Event] = []
    hits = to_hit(plan, firer, target).sample(state.rng, log)
    return hits, log[0]
