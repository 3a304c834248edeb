"""The evaluation protocol: how good a (determinised) position is for one side.

A finished game scores 1 (won), 0 (lost) or 1/2 (drawn). An unfinished one is scored by the
ruleset's own heuristic when it offers one as a capability (an attribute ``heuristic`` on its
``Capabilities``, see :class:`Heuristic`), else by the generic heuristic here, which reads only
what every ruleset reports: ``summary(state)`` (losses against break point, exhaustion point
or force size; objectives held) and the positions in ``observation(state, side)``. The score
is a sum of weighted *terms* (each with plain words for the "why"), squashed to an estimated
win probability.

The state evaluated is always one the search drew with ``View.determinise`` and played on: it
holds what the side knows, with the rest re-sampled, never the game's hidden truth.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from umpire.agents.search.personality import Personality
from umpire.core.ruleset import Ruleset

SQUASH = 3.0  # score -> win probability: 1 / (1 + exp(-SQUASH * score))


@dataclass(frozen=True)
class Term:
    """One reason a position is good or bad: a short name, plain words, and its weighted
    contribution to the score (positive is good for the side)."""

    name: str
    words: str
    value: float


@dataclass(frozen=True)
class Evaluation:
    """A position's estimated win probability for a side and the terms behind it."""

    value: float
    terms: tuple[Term, ...] = ()


@runtime_checkable
class Heuristic(Protocol):
    """A ruleset's own evaluation, offered as ``capabilities.heuristic``: the score of
    ``state`` for ``side`` under ``personality``."""

    def __call__(self, state: Any, side: str, personality: Personality) -> Evaluation: ...


def squash(score: float) -> float:
    return 1.0 / (1.0 + math.exp(-SQUASH * max(-20.0, min(20.0, score))))


def evaluate(ruleset: Ruleset[Any], state: Any, side: str, personality: Personality) -> Evaluation:
    """The score of ``state`` for ``side`` (see the module docstring)."""
    outcome = ruleset.outcome(state)
    if outcome is not None:
        if outcome.winner == side:
            return Evaluation(1.0, (Term("result", f"the game is won ({outcome.how})", 1.0),))
        if outcome.winner == "draw":
            return Evaluation(0.5, (Term("result", f"the game is drawn ({outcome.how})", 0.0),))
        return Evaluation(0.0, (Term("result", f"the game is lost ({outcome.how})", -1.0),))
    own: Heuristic | None = getattr(ruleset.capabilities, "heuristic", None)
    if own is not None:
        return own(state, side, personality)
    return generic(ruleset, state, side, personality)


# -- the generic heuristic -------------------------------------------------------------------
_LOSS_MEASURES = (  # (lost, limit, words): the first pair a summary reports is used
    ("bp", "break_point", "break points towards the break point"),
    ("sp_lost", "exhaustion_point", "strength points towards exhaustion"),
    ("units", "of_units", "units lost of the force"),
)
_COUNTED = ("units", "killed", "wounded", "captured", "eliminated")


def loss_fraction(loss: Mapping[str, Any]) -> tuple[float, str]:
    """How far a side is towards defeat by losses, 0..1, and in which measure."""
    for lost, limit, words in _LOSS_MEASURES:
        a, b = _float(loss.get(lost)), _float(loss.get(limit))
        if a is not None and b is not None and b > 0:
            return min(1.0, a / b), words
    count = sum(float(loss[k]) for k in _COUNTED if _number(loss.get(k)))
    return count / (count + 4.0), "casualties"


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _float(value: Any) -> float | None:
    return float(value) if _number(value) else None


Point = tuple[float, float]


def _positions(units: Any, side: str) -> tuple[list[Point], list[Point]]:
    """Own and enemy unit positions (x, y) in an observation's ``units``, where it has them."""
    rows: Sequence[Any]
    if isinstance(units, Mapping):
        rows = list(units.values())
    elif isinstance(units, list):
        rows = units
    else:
        return [], []
    own: list[Point] = []
    enemy: list[Point] = []
    for row in rows:
        if not isinstance(row, Mapping):
            continue
        x, y = _float(row.get("x")), _float(row.get("y"))
        if x is None or y is None or row.get("wreck") or row.get("carried_by"):
            continue
        (own if row.get("side") == side else enemy).append((x, y))
    return own, enemy


def generic(ruleset: Ruleset[Any], state: Any, side: str, personality: Personality) -> Evaluation:
    """Losses (own and enemy, towards break/exhaustion point), objectives held, and where the
    units stand (closing with the enemy, keeping together), weighted by the personality."""
    summary = ruleset.summary(state)
    losses = summary.get("losses") or {}
    terms: list[Term] = []
    if isinstance(losses, Mapping) and side in losses:
        own_loss, words = loss_fraction(losses[side])
        enemies = [s for s in losses if s != side]
        enemy_loss = max((loss_fraction(losses[s])[0] for s in enemies), default=0.0)
        terms.append(
            Term(
                "enemy losses",
                f"enemy {enemy_loss:.0%} of the way to defeat ({words})",
                personality.aggression * enemy_loss,
            )
        )
        terms.append(
            Term(
                "own losses",
                f"own force {own_loss:.0%} of the way to defeat ({words})",
                -personality.caution * own_loss,
            )
        )
        held = {s: losses[s].get("objectives") for s in losses}
        if all(_number(v) for v in held.values()) and held:
            total = max(1.0, float(sum(held.values())))
            mine = float(held[side])
            theirs = max(float(held[s]) for s in enemies) if enemies else 0.0
            terms.append(
                Term(
                    "objectives",
                    f"objectives held {mine:g} against {theirs:g}",
                    personality.objective * 0.5 * (mine - theirs) / total,
                )
            )
    pull = 0.25 * (personality.aggression - personality.caution)
    if pull or personality.cohesion:
        own_at, enemy_at = _positions(ruleset.observation(state, side).get("units"), side)
        if own_at:
            everything = own_at + enemy_at
            span = max(
                1.0,
                max(p[0] for p in everything) - min(p[0] for p in everything),
                max(p[1] for p in everything) - min(p[1] for p in everything),
            )
            if pull and enemy_at:
                near = sum(min(math.dist(a, b) for b in enemy_at) for a in own_at) / len(own_at)
                closeness = 1.0 - min(1.0, near / span)
                terms.append(
                    Term(
                        "closing" if pull > 0 else "exposure",
                        f"own units {near:.1f} from the nearest enemy seen on average",
                        pull * closeness,
                    )
                )
            if personality.cohesion and len(own_at) > 1:
                cx = sum(p[0] for p in own_at) / len(own_at)
                cy = sum(p[1] for p in own_at) / len(own_at)
                spread = sum(math.dist(p, (cx, cy)) for p in own_at) / len(own_at)
                terms.append(
                    Term(
                        "cohesion",
                        f"own units {spread:.1f} from their centre on average",
                        -0.25 * personality.cohesion * min(1.0, spread / span),
                    )
                )
    return Evaluation(squash(sum(t.value for t in terms)), tuple(terms))
