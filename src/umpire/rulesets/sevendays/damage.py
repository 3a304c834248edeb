"""Effects of hits: vehicles (penetration, damage) and infantry/support (markers, conversion).

Rules sevendays.hit.* (digest 'Hits against vehicles', transcription p19).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from umpire.core.chance import (
    Chance,
    CountAtLeast,
    Faces,
    Fixed,
    Roll,
    Stream,
    TableLookup,
    fractions_of,
    roll_faces,
)
from umpire.core.events import Event, note, roll
from umpire.rulesets.sevendays.config import DamageRow
from umpire.rulesets.sevendays.morale import add_markers, house_fired
from umpire.rulesets.sevendays.orbat import Weapon
from umpire.rulesets.sevendays.shots import ShotPlan
from umpire.rulesets.sevendays.state import SevenDaysState, Status, Unit
from umpire.rulesets.sevendays.world import World


def heat_vs_special(weapon: Weapon, special: bool) -> bool:
    """Rule sevendays.hit.heat_vs_special (infantry LAW/RPG are exempt)."""
    return weapon.heat and special and not weapon.infantry_at


def conversion(heavy: bool, cover: str) -> tuple[int, int]:
    """Rule sevendays.hit.foot_conversion: (dice per hit, score needed on each d6)."""
    if heavy:
        return 2, {"open": 4, "cover": 4, "fortified": 5}[cover]
    return 1, {"open": 4, "cover": 5, "fortified": 6}[cover]


def penetration_dice(heat_special: bool) -> int:
    """Rules sevendays.hit.penetration / .heat_vs_special: d10, or 2d10 keep the lowest."""
    return 2 if heat_special else 1


def penetration_die(dice: Sequence[int]) -> int:
    """The die that counts for penetration (the lowest when two are rolled)."""
    return min(dice)


def penetrates(die: int, weapon_value: int, armour: int) -> bool:
    """Rule sevendays.hit.penetration: die + weapon value must exceed the armour."""
    return die + weapon_value > armour


@dataclass(frozen=True, eq=False)
class Penetration(Chance[bool]):
    """Rules sevendays.hit.penetration / .heat_vs_special as one chance: d10 (2d10 keep the
    lowest against special armour) + the weapon value must exceed the armour. Sampled in play
    (one roll event, ``text(faces, total, penetrates)``) and enumerated by the odds."""

    weapon_value: int
    armour: int
    heat_special: bool
    text: Callable[[Faces, int, bool], str] | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    subject: str = ""  # what is hit, for the players at a table ("Chieftain 1's front armour 23")

    @property
    def rule(self) -> str:
        return "sevendays.hit.heat_vs_special" if self.heat_special else "sevendays.hit.penetration"

    def dice(self) -> Roll:
        return Roll(penetration_dice(self.heat_special), 10)

    def judge(self, faces: Faces) -> bool:
        return penetrates(penetration_die(faces), self.weapon_value, self.armour)

    def need(self) -> int:
        """The score the die that counts needs: die + weapon value must exceed the armour."""
        return self.armour - self.weapon_value + 1

    def table_words(self, count: int, sides: int) -> str:
        """What the players at a physical table roll to penetrate and the score needed
        (companion mode)."""
        what = f" on {self.subject}" if self.subject else f" on armour {self.armour}"
        head = f"roll {count}d{sides} for penetration{what} ({self.rule})"
        why = f"die + {self.weapon_value} must exceed {self.armour}"
        need = self.need()
        die = "the lower die" if count > 1 else "the die"
        if need > sides:
            return f"{head}: {why}, no die can penetrate"
        if need <= 1:
            return f"{head}: {why}, any die penetrates"
        return f"{head}: {die} needs {need}+ to penetrate ({why})"

    def sample(self, stream: Stream, log: list[Event]) -> bool:
        faces = roll_faces(stream, penetration_dice(self.heat_special), 10, self)
        pen = self.judge(faces)
        total = penetration_die(faces) + self.weapon_value
        words = self.text(faces, total, pen) if self.text is not None else ""
        log.append(
            roll(self.rule, words, list(faces), total, self.armour + 1, pen, **dict(self.data))
        )
        return pen

    def _enumerate(self) -> dict[bool, Fraction]:
        return fractions_of(self.weights())

    def weights(self) -> tuple[dict[bool, int], int]:
        out: dict[bool, int] = {}
        faces_weights, total = self.dice().weights()
        for faces, w in faces_weights.items():
            k = self.judge(faces)
            out[k] = out.get(k, 0) + w
        return out, total


def conversion_roll(
    hits: int,
    heavy: bool,
    cover: str,
    text: Callable[[Faces, int], str] | str = "",
    *,
    rule: str = "sevendays.hit.foot_conversion",
    **data: Any,
) -> CountAtLeast:
    """Rule sevendays.hit.foot_conversion as one chance: ``per_hit`` d6 for each hit, each
    at or above the cover's score adds a marker (the count of extra markers). ``rule`` names
    the roll when a card's bombardment converts (the card's rule)."""
    per_hit, need = conversion(heavy, cover)
    return CountAtLeast(per_hit * hits, 6, need, rule, text, data)


def damage_row(table: Sequence[DamageRow], die: int) -> DamageRow:
    """Rule sevendays.hit.damage: the house damage table's row for a d6 score."""
    return next(r for r in table if die <= r.max)


def mortar_damage(die: int) -> int:
    """Rule sevendays.mortar.damage: a mortar's damage die, after it penetrates, is halved
    (rounded down, at least 1)."""
    return max(1, die // 2)


class Damage(NamedTuple):
    """What a damage-table row does (a hashable copy of the house table's row)."""

    result: str  # "damaged" or "destroyed"
    markers: int


def damage_result(table: Sequence[DamageRow], die: int) -> Damage:
    """Rule sevendays.hit.damage: what the house damage table does for a d6 score."""
    row = damage_row(table, die)
    return Damage(row.result, row.markers)


def destroys(row: Damage) -> bool:
    """Rule sevendays.hit.damage: the row that destroys the vehicle (the roll's success)."""
    return row.result == "destroyed"


def damage_lookup(
    table: Sequence[DamageRow],
    text: Callable[[Faces, int, Damage], str] | str = "",
    **data: Any,
) -> TableLookup[Damage]:
    """Rule sevendays.hit.damage as one chance: a d6 read off the house damage table (after a
    penetration). Sampled in play, enumerated by the odds; the roll succeeds when it destroys."""
    return TableLookup(
        sides=6,
        row=lambda die: damage_result(table, die),
        rule="sevendays.hit.damage",
        text=text,
        data=data,
        success=destroys,
    )


def mortar_damage_lookup(
    table: Sequence[DamageRow],
    text: Callable[[Faces, int, Damage], str] | str = "",
    **data: Any,
) -> TableLookup[Damage]:
    """Rule sevendays.mortar.damage as one chance: after a mortar hit penetrates (anti-vehicle
    value 0), the damage d6 is halved (:func:`mortar_damage`) before the house damage table
    reads it."""
    return TableLookup(
        sides=6,
        row=lambda value: damage_result(table, value),
        rule="sevendays.mortar.damage",
        text=text,
        data=data,
        reading=mortar_damage,
        success=destroys,
    )


VehicleHit = tuple[bool, Damage | None]  # penetrated; the damage-table row (None: no penetration)


def vehicle_hit_chance(
    weapon_value: int,
    armour: int,
    heat_special: bool,
    table: Sequence[DamageRow],
    penetration_text: Callable[[Faces, int, bool], str] | None = None,
    damage_text: Callable[[Faces, int, Damage], str] | str = "",
    *,
    halved: bool = False,
    subject: str = "",
    **data: Any,
) -> Chance[VehicleHit]:
    """What follows a hit on a vehicle, as one chance: the penetration roll, then (only if it
    penetrates) the damage d6 on the house table, halved for a mortar (``halved``, rule
    sevendays.mortar.damage). Play samples it (both roll events, in this order) and then
    applies the result; the odds enumerate it."""
    pen = Penetration(weapon_value, armour, heat_special, penetration_text, data, subject)
    lookup = mortar_damage_lookup if halved else damage_lookup
    damage = lookup(table, damage_text, **data).map(_penetrated)
    bounced: Chance[VehicleHit] = Fixed((False, None))
    return pen.then(lambda through: damage if through else bounced)


def _penetrated(row: Damage) -> VehicleHit:
    return (True, row)


def resolve_vehicle_hit(
    world: World, state: SevenDaysState, plan: ShotPlan, target: Unit
) -> list[Event]:
    armour = world.profile(target).armour
    assert armour is not None
    value = armour.front if plan.front else armour.side
    facing = "front" if plan.front else "side"
    weapon = plan.weapon
    special = heat_vs_special(weapon, armour.special)
    how = "HEAT vs special armour: 2d10 keep lowest" if special else "d10"

    def words(faces: Faces, total: int, pen: bool) -> str:
        return (
            f"penetration on {target.name}'s {facing} armour {value}: {how} {list(faces)} "
            f"+ {weapon.value} = {total} (must exceed {value}) -> "
            + ("penetrates" if pen else "no penetration")
        )

    mortar = weapon.mortar  # sevendays.mortar.damage: value 0, the damage die halved

    def damage_words(faces: Faces, die: int, row: Damage) -> str:
        halved = f" halved to {die}" if mortar else ""
        return f"damage d6 {faces[0]}{halved} -> {row.result}"

    events: list[Event] = []
    _, row = vehicle_hit_chance(
        weapon.value,
        value,
        special,
        world.house.damage_table,
        words,
        damage_words,
        halved=mortar,
        subject=f"{target.name}'s {facing} armour {value}",
        unit=target.uid,
    ).sample(state.rng, events)
    if row is None:
        house_fired(state, "sevendays.hit.no_penetration")
        events += add_markers(
            world,
            state,
            target,
            world.house.no_penetration_markers,
            "sevendays.hit.no_penetration",
            "shaken by a non-penetrating hit",
        )
        return events
    house_fired(state, "sevendays.hit.damage")
    rule = "sevendays.mortar.damage" if mortar else "sevendays.hit.damage"
    if destroys(row):
        target.status = Status.DESTROYED
        state.touch()
        target.wreck = True
        events.append(
            note(
                "destroyed",
                f"{target.name} is destroyed and leaves a wreck",
                rule,
                unit=target.uid,
            )
        )
    else:
        events += add_markers(world, state, target, row.markers, rule, "damaged")
    return events


def resolve_foot_hits(
    world: World, state: SevenDaysState, plan: ShotPlan, hits: int, target: Unit
) -> list[Event]:
    cover = plan.cover
    need = conversion(plan.heavy, cover)[1]
    events = add_markers(world, state, target, hits, "sevendays.hit.foot_marker", f"{hits} hit(s)")
    if not target.alive:
        return events
    extra = conversion_roll(
        hits,
        plan.heavy,
        cover,
        lambda faces, k: (
            f"conversion vs {target.name} in the {cover}: {len(faces)}d6 {list(faces)} "
            f"need {need}+ -> {k} more marker(s)"
        ),
        unit=target.uid,
    ).sample(state.rng, events)
    events += add_markers(
        world, state, target, extra, "sevendays.hit.foot_conversion", "conversion"
    )
    return events
