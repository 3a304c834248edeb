"""The small exact types of the Portable Wargame: sides, unit statuses, the phases of a turn,
the stages of a pending decision, and the results of the landing and quality dice.

They are ``StrEnum``s, so they compare equal to (and serialise as) the plain strings saved in
records and states before they existed.
"""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    """The two armies."""

    BLUE = "blue"
    RED = "red"

    @property
    def other(self) -> Side:
        return Side.RED if self is Side.BLUE else Side.BLUE


SIDES: tuple[Side, Side] = (Side.BLUE, Side.RED)


class Status(StrEnum):
    """Where a unit is in the battle."""

    ACTIVE = "active"
    DESTROYED = "destroyed"
    WAITING = "waiting"  # an aircraft still to arrive
    GONE = "gone"  # an aircraft that flew home


class Phase(StrEnum):
    """The phases of a turn (portable.turn.sequence), in order."""

    ARTILLERY = "artillery"  # both sides declare their guns' targets
    BOMBARDMENT = "bombardment"  # every declared shot lands together
    INITIATIVE = "initiative"
    FIRST = "first_side"  # the side with the initiative activates its units
    SECOND = "second_side"


class Stage(StrEnum):
    """What a pending decision is about: a hit unit's retreat, or the activated unit's act,
    its facing after a move, or its advance after winning a close combat."""

    RETREAT = "retreat"
    ACT = "act"
    FACE = "face"
    ADVANCE = "advance"


class Decision(StrEnum):
    """The decision the game waits for, as menus and players name it."""

    ARTILLERY = "artillery"
    ACTIVATE = "activate"
    ACT = "act"
    FACE = "face"
    ADVANCE = "advance"
    RETREAT = "retreat"
    OVER = "over"


class Landing(StrEnum):
    """portable.artillery.landing: where a shell lands."""

    TARGET = "target"
    FRONT = "front"
    BEHIND = "behind"
    NONE = "none"


class HitResult(StrEnum):
    """portable.hit.quality: what the quality die does to a hit unit."""

    LOSE_SP = "lose_sp"
    RETREAT_OR_LOSE = "retreat_or_lose"


class Drift(StrEnum):
    """portable.gas.drift: where a gas cloud goes."""

    STAY = "stay"
    FRONT = "front"
    BEHIND = "behind"
