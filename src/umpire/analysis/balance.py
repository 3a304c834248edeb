"""``umpire balance``: the points value at which one unit is an even match for another.

Method. Small battles of ``a`` units against ``b`` units are played by the scripted AI for several
ratios ``a:b`` (the same engine and rules as any game). The chance that the ``a`` side wins
(a draw counts half) is fitted by logistic regression on ``log(a/b)``; the ratio where the fit
crosses one half, ``r*``, is how many of the unit match one of the other. The unit is then worth
``points(other) / r*``. The 95% interval comes from a bootstrap: games are resampled within each
ratio and the fit repeated.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from umpire.analysis.simulate import Job, run_local
from umpire.analysis.stats import wilson
from umpire.core.errors import UmpireError
from umpire.core.ruleset import capability, get_ruleset


@runtime_checkable
class DuelCapability(Protocol):
    """What ``umpire balance RULESET`` needs of a ruleset (its ``capabilities.balance``): units
    found by name with their points, and a small battle of ``count`` of one against
    ``against_count`` of the other, written under ``folder`` as a game id."""

    default_unit: str
    default_against: str

    def unit(self, name: str, role: str) -> tuple[str, int]: ...

    def duel(
        self, unit: str, count: int, against: str, against_count: int, range_: float, folder: Path
    ) -> tuple[str, str]: ...


RATIOS: tuple[tuple[int, int], ...] = ((1, 3), (1, 2), (2, 3), (1, 1), (3, 2), (2, 1), (3, 1))


@dataclass
class BalanceResult:
    unit: str
    against: str
    unit_points: int
    against_points: int
    games_per_ratio: int
    score_by_ratio: dict[str, dict[str, float]] = field(default_factory=dict)
    even_ratio: float | None = None  # units of ``unit`` per ``against`` for an even game
    fair_points: float | None = None
    ci95: tuple[float, float] | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "against": self.against,
            "unit_points": self.unit_points,
            "against_points": self.against_points,
            "games_per_ratio": self.games_per_ratio,
            "score_by_ratio": self.score_by_ratio,
            "even_ratio": self.even_ratio,
            "fair_points": self.fair_points,
            "ci95": list(self.ci95) if self.ci95 else None,
            "note": self.note,
        }


def _score(winner: str, side: str) -> float:
    """1 for a win, 0 for a loss, a half for a draw or a game stopped unfinished by the cap
    (neither side won it)."""
    return 1.0 if winner == side else 0.5 if winner in ("draw", "unfinished") else 0.0


def fit_logistic(x: np.ndarray, y: np.ndarray, iterations: int = 50) -> tuple[float, float]:
    """Maximum-likelihood (alpha, beta) of ``P(y) = 1 / (1 + exp(-(alpha + beta x)))`` for
    outcomes in [0, 1] (halves for draws), by Newton's method with a tiny ridge for stability."""
    design = np.column_stack([np.ones_like(x), x])
    theta = np.zeros(2)
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(design @ theta)))
        gradient = design.T @ (y - p) - 1e-6 * theta
        weights = p * (1 - p)
        hessian = -(design.T * weights) @ design - 1e-6 * np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        theta = theta - step
        if np.max(np.abs(step)) < 1e-10:
            break
    return float(theta[0]), float(theta[1])


def even_ratio(x: np.ndarray, y: np.ndarray) -> float | None:
    """The ratio a/b where the fitted chance is one half (None if more units do not help)."""
    alpha, beta = fit_logistic(x, y)
    if beta <= 1e-6:
        return None
    return math.exp(-alpha / beta)


def balance(
    ruleset_id: str,
    unit: str,
    against: str,
    *,
    games: int = 60,
    seed: int = 1,
    workers: int = 1,
    range_: float = 24.0,
    bootstrap: int = 300,
    ratios: Sequence[tuple[int, int]] = RATIOS,
    progress: Callable[[int], None] | None = None,
) -> BalanceResult:
    """Estimate the points at which ``unit`` is an even match for ``against``, through the
    ruleset's duels (``capabilities.balance``)."""
    duels: DuelCapability = capability(get_ruleset(ruleset_id), "balance")
    if games < 4:
        raise UmpireError(f"--games {games}: play at least 4 games per ratio")
    a_name, a_points = duels.unit(unit, "unit")
    b_name, b_points = duels.unit(against, "against")
    result = BalanceResult(a_name, b_name, a_points, b_points, games)
    xs: list[float] = []
    ys: list[float] = []
    groups: list[tuple[int, int]] = []  # slice of xs/ys per ratio
    with tempfile.TemporaryDirectory(prefix="umpire-balance-") as folder:
        for index, (na, nb) in enumerate(ratios):
            game_id, side = duels.duel(unit, na, against, nb, range_, Path(folder))
            rows = run_local(Job(game_id, n=games, seed=seed + index), workers, progress)
            scores = [_score(r["winner"], side) for r in rows]
            start = len(xs)
            xs += [math.log(na / nb)] * len(scores)
            ys += scores
            groups.append((start, len(xs)))
            total = sum(scores)
            low, high = wilson(total, len(scores))
            result.score_by_ratio[f"{na}:{nb}"] = {
                "score": total / len(scores),
                "ci_low": low,
                "ci_high": high,
            }
    x = np.array(xs)
    y = np.array(ys)
    ratio = even_ratio(x, y)
    if ratio is None:
        result.note = "more of the unit did not raise its chances: no even ratio can be fitted"
        return result
    result.even_ratio = ratio
    result.fair_points = b_points / ratio
    rng = np.random.default_rng(seed)
    estimates = []
    for _ in range(bootstrap):
        pick = np.concatenate([rng.integers(s, e, e - s) for s, e in groups])
        boot = even_ratio(x[pick], y[pick])
        if boot is not None:
            estimates.append(b_points / boot)
    if len(estimates) >= bootstrap * 0.9:
        low, high = np.percentile(estimates, [2.5, 97.5])
        result.ci95 = (float(low), float(high))
    else:
        result.note = "the bootstrap often found no even ratio: the interval is not reliable"
    tested = (min(na / nb for na, nb in ratios), max(na / nb for na, nb in ratios))
    if not tested[0] <= ratio <= tested[1]:
        result.note = (
            f"the even ratio {ratio:.2f} lies outside the ratios played "
            f"({tested[0]:.2f}-{tested[1]:.2f}): an extrapolation"
        )
    return result
