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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from umpire.agents.search.personality import Personality
from umpire.core.ruleset import Ruleset
from umpire.geometry.squaregrid import distance as squares

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


DECIDED_MARGIN = 0.05  # share of a finished game's score left to the position (tie-break)


def evaluate(ruleset: Ruleset[Any], state: Any, side: str, personality: Personality) -> Evaluation:
    """The score of ``state`` for ``side`` (see the module docstring).

    A finished game scores its result, 1, 1/2 or 0, moved towards the position's heuristic
    estimate by ``DECIDED_MARGIN`` (a won game scores 0.95 to 1, a lost one 0 to 0.05): every
    win still beats every loss, but among moves that all end in the same result within the
    search's horizon the side still prefers the better position. Without it such moves all
    scored alike and the choice was left to chance (a side whose defeat was sealed walked its
    commander off its own objective on the last turn)."""
    outcome = ruleset.outcome(state)
    if outcome is None:
        return _heuristic(ruleset, state, side, personality)
    if outcome.winner == side:
        result = Term("result", f"the game is won ({outcome.how})", 1.0)
        base = 1.0
    elif outcome.winner == "draw":
        result = Term("result", f"the game is drawn ({outcome.how})", 0.0)
        base = 0.5
    else:
        result = Term("result", f"the game is lost ({outcome.how})", -1.0)
        base = 0.0
    position = _heuristic(ruleset, state, side, personality)
    value = (1.0 - DECIDED_MARGIN) * base + DECIDED_MARGIN * position.value
    return Evaluation(value, (result, *position.terms))


def _heuristic(
    ruleset: Ruleset[Any], state: Any, side: str, personality: Personality
) -> Evaluation:
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
LOSS_CAP = 3.0  # losses count on past the break/exhaustion point, up to this many times it


def loss_fraction(loss: Mapping[str, Any]) -> tuple[float, str]:
    """How far a side is towards defeat by losses (1.0 at the break or exhaustion point), and
    in which measure. Losses past that point keep counting (up to ``LOSS_CAP``): a side that
    has reached its exhaustion point can still lose more, and a cautious side must still care
    (capping at 1.0 made every loss past the point worth nothing to every personality)."""
    for lost, limit, words in _LOSS_MEASURES:
        a, b = _float(loss.get(lost)), _float(loss.get(limit))
        if a is not None and b is not None and b > 0:
            return min(LOSS_CAP, a / b), words
    count = sum(float(loss[k]) for k in _COUNTED if _number(loss.get(k)))
    return count / (count + 4.0), "casualties"


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _float(value: Any) -> float | None:
    return float(value) if _number(value) else None


Point = tuple[float, float]


@dataclass(frozen=True)
class Placed:
    """A unit as the side's observation shows it: where, and of which type (if it says)."""

    at: Point
    kind: str


@dataclass(frozen=True)
class Board:
    """Public, static facts of a scenario that the position terms need: the objective squares
    and how far each unit type's weapon reaches (in the board's distance). Read from the
    ruleset's ``world(state)`` (the scenario's map and unit catalogue, the same for every side
    and every draw), never from hidden state."""

    objectives: tuple[Point, ...] = ()
    reach: Mapping[str, float] = field(default_factory=dict)
    distance: Callable[[Point, Point], float] = math.dist


def _positions(units: Any, side: str) -> tuple[list[Placed], list[Placed]]:
    """Own and enemy units with positions (x, y) in an observation's ``units``."""
    rows: Sequence[Any]
    if isinstance(units, Mapping):
        rows = list(units.values())
    elif isinstance(units, list):
        rows = units
    else:
        return [], []
    own: list[Placed] = []
    enemy: list[Placed] = []
    for row in rows:
        if not isinstance(row, Mapping):
            continue
        x, y = _float(row.get("x")), _float(row.get("y"))
        if x is None or y is None or row.get("wreck") or row.get("carried_by"):
            continue
        if row.get("air") or row.get("status") == "destroyed":
            continue
        placed = Placed((x, y), str(row.get("type", "")))
        (own if row.get("side") == side else enemy).append(placed)
    return own, enemy


_UNIT_FIELDS = ("x", "y", "side")


def _placed(ruleset: Ruleset[Any], state: Any, side: str) -> tuple[list[Placed], list[Placed]]:
    """Own and enemy units with positions as the side's observation shows them.

    In a perfect-information ruleset the observation shows every unit just as the state holds
    it, so when the (drawn) state keeps its units as objects with ``x``, ``y`` and ``side``
    they are read from there, with the same filters as :func:`_positions` (building the
    observation's dictionaries cost a third of a playout in Portable). Otherwise, and for
    any ruleset with hidden information, from ``observation(state, side)``."""
    meta = getattr(ruleset, "meta", None)
    units = getattr(state, "units", None)
    if getattr(meta, "information", None) == "perfect" and isinstance(units, Mapping):
        first = next(iter(units.values()), None)
        if first is not None and all(hasattr(first, f) for f in _UNIT_FIELDS):
            own: list[Placed] = []
            enemy: list[Placed] = []
            for unit in units.values():
                x, y = _float(unit.x), _float(unit.y)
                if x is None or y is None or getattr(unit, "wreck", False):
                    continue
                if getattr(unit, "carried_by", None) or getattr(unit, "air", False):
                    continue
                if getattr(unit, "status", None) == "destroyed":
                    continue
                placed = Placed((x, y), str(getattr(unit, "type", "")))
                (own if unit.side == side else enemy).append(placed)
            return own, enemy
    return _positions(ruleset.observation(state, side).get("units"), side)


_BOARDS: dict[int, Board] = {}


def board_of(ruleset: Ruleset[Any], state: Any) -> Board:
    """The :class:`Board` of ``state``'s scenario, where the ruleset's world says (Portable:
    objective squares, and each ground type's weapon range, ``portable.fire.range``, on a
    square grid measured as the rules measure it); an empty board otherwise."""
    world_of = getattr(ruleset, "world", None)
    if world_of is None:
        return Board()
    try:
        world = world_of(state)
    except Exception:  # a ruleset whose world needs more than the state: no board terms
        return Board()
    cached = _BOARDS.get(id(world))
    if cached is not None:
        return cached
    board = Board()
    objectives = getattr(world, "objectives", None)
    types = getattr(world, "types", None)
    ground = getattr(types, "ground", None)
    weapons = getattr(types, "weapons", None)
    if isinstance(objectives, tuple) and isinstance(ground, Mapping):
        reach: dict[str, float] = {}
        for name, kind in ground.items():
            weapon = getattr(kind, "weapon", None)
            spec = weapons.get(weapon) if isinstance(weapons, Mapping) and weapon else None
            reach[str(name)] = float(getattr(spec, "range", 0) or 0)

        def measure(a: Point, b: Point) -> float:
            return float(squares((int(a[0]), int(a[1])), (int(b[0]), int(b[1]))))

        board = Board(tuple((float(sq[0]), float(sq[1])) for sq in objectives), reach, measure)
    if len(_BOARDS) > 64:
        _BOARDS.clear()
    _BOARDS[id(world)] = board
    return board


HELD_FOCUS_CAP = 1.0  # objective focus past this weighs the objective ground only


def generic(ruleset: Ruleset[Any], state: Any, side: str, personality: Personality) -> Evaluation:
    """Losses (own and enemy, towards break/exhaustion point), objectives held and stood on,
    and where the units stand (closing with the enemy, in reach of its weapons, keeping
    together), weighted by the personality."""
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
                    min(personality.objective, HELD_FOCUS_CAP) * 0.5 * (mine - theirs) / total,
                )
            )
    pull = 0.25 * (personality.aggression - personality.caution)
    own_at, enemy_at = _placed(ruleset, state, side)
    if not own_at:
        return Evaluation(squash(sum(t.value for t in terms)), tuple(terms))
    board = board_of(ruleset, state)
    everything = [p.at for p in own_at + enemy_at] + list(board.objectives)
    span = max(
        1.0,
        max(p[0] for p in everything) - min(p[0] for p in everything),
        max(p[1] for p in everything) - min(p[1] for p in everything),
    )
    if pull and enemy_at:
        near = sum(min(math.dist(a.at, b.at) for b in enemy_at) for a in own_at) / len(own_at)
        closeness = 1.0 - min(1.0, near / span)
        terms.append(
            Term(
                "closing" if pull > 0 else "keeping away",
                f"own units {near:.1f} from the nearest enemy seen on average",
                pull * closeness,
            )
        )
    if board.reach and enemy_at:
        terms += _reach_terms(board, own_at, enemy_at, personality)
    if board.objectives:
        terms.append(_objective_term(board, own_at, enemy_at, span, personality))
    if personality.cohesion and len(own_at) > 1:
        cx = sum(p.at[0] for p in own_at) / len(own_at)
        cy = sum(p.at[1] for p in own_at) / len(own_at)
        spread = sum(math.dist(p.at, (cx, cy)) for p in own_at) / len(own_at)
        terms.append(
            Term(
                "cohesion",
                f"own units {spread:.1f} from their centre on average",
                -0.25 * personality.cohesion * min(1.0, spread / span),
            )
        )
    return Evaluation(squash(sum(t.value for t in terms)), tuple(terms))


REACH_WEIGHT = 0.25  # share of the force in reach, per unit of aggression / caution


def _reach_terms(
    board: Board, own: list[Placed], enemy: list[Placed], personality: Personality
) -> list[Term]:
    """Exposure and firepower, one position step at a time: the share of own units an enemy
    weapon reaches (caution dislikes it) and the share that reach an enemy with their own
    weapon (aggression likes it). Adjacent units count as in reach (close combat)."""
    exposed = 0
    firing = 0
    for unit in own:
        mine = board.reach.get(unit.kind, 0.0)
        hit = shoot = False
        for other in enemy:
            d = board.distance(unit.at, other.at)
            hit = hit or d <= max(1.0, board.reach.get(other.kind, 0.0))
            shoot = shoot or d <= max(1.0, mine)
            if hit and shoot:
                break
        exposed += hit
        firing += shoot
    n = len(own)
    return [
        Term(
            "exposure",
            f"{exposed} of {n} own units in reach of an enemy weapon",
            -REACH_WEIGHT * personality.caution * exposed / n,
        ),
        Term(
            "in reach",
            f"{firing} of {n} own units reach an enemy with their weapons",
            REACH_WEIGHT * personality.aggression * firing / n,
        ),
    ]


OBJECTIVE_WEIGHT = 0.3  # standing on every objective, per unit of objective focus


def _ground(board: Board, units: list[Placed], span: float) -> tuple[float, int]:
    """How much of the objectives' ground ``units`` take: per objective 1 when one of them
    stands on it, else half the closeness of the nearest (falling to nothing at the span)."""
    score = 0.0
    on = 0
    for goal in board.objectives:
        d = min((board.distance(u.at, goal) for u in units), default=math.inf)
        if d == 0:
            on += 1
            score += 1.0
        else:
            score += 0.5 * (1.0 - min(1.0, d / span))
    return score, on


def _objective_term(
    board: Board, own: list[Placed], enemy: list[Placed], span: float, personality: Personality
) -> Term:
    """Objective focus within the search's horizon: holding an objective changes only when a
    unit stands on it, often several moves away, so each objective also scores how close the
    nearest unit is. Own ground minus the enemy's, so that the term is level (zero) in an even
    position: a constant offset would push every position's estimate into the flat end of
    :func:`squash`, where the search can no longer tell its moves apart."""
    mine, on = _ground(board, own, span)
    theirs, held = _ground(board, enemy, span) if enemy else (0.0, 0)
    n = len(board.objectives)
    return Term(
        "objective ground",
        f"own units on {on} of {n} objectives, enemy units on {held}",
        OBJECTIVE_WEIGHT * personality.objective * (mine - theirs) / n,
    )
