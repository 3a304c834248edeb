"""Rollout policy improvement: the scripted player's move, changed only when the samples say
another move is better (the ``improve`` search mode).

The tree search (:mod:`umpire.agents.search.mcts`) spreads a few dozen noisy random playouts
over every root action; against the scripted player it could only copy the scripted move.
This mode starts from that move and asks, for a few candidates, "what happens if I play this
and then both sides play on as the scripted players would?":

1. **Candidates.** The scripted player's move (the *hint*), and the best few other root
   actions by a one-step screen: each action applied to one determinisation (the same one
   for all, so the screen compares moves, not luck) and scored by the evaluation. When the
   root has few actions, all of them.
2. **Common random numbers.** Each *sample* is one determinisation of the side's view
   (``View.determinise``: hidden units and the enemy's cards re-drawn, the dice to come
   re-seeded), cloned once per candidate: every candidate meets the same hidden truth and the
   same dice stream, so the difference between two candidates in a sample comes from the
   move, not from the luck.
3. **Rollout.** After the candidate, both sides play the scripted player's moves (from their
   own observation of the drawn state) for ``horizon`` actions or to the end of the game;
   the position is then scored by the evaluation (:mod:`umpire.agents.search.evaluate`,
   weighted by the personality: a finished game scores its result).
4. **Paired test.** Samples continue round by round until the clock (or the sample budget)
   runs out. A candidate whose paired difference from the hint is clearly negative is
   dropped (its upper bound, mean + ``Z`` standard errors, below zero), so later samples go
   to the moves still in contention. At the end the candidate with the best paired mean
   replaces the hint only if that mean is more than ``MARGIN`` and more than ``Z`` standard
   errors above zero over at least ``MIN_SAMPLES`` samples; otherwise the scripted move is
   kept. A round cut short by the clock is discarded, so every kept sample is paired.

Everything the mode reads comes from the side's view: the determinisations are drawn from
its observation, and the scripted players in the rollouts read their own observations of the
drawn state, never the game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any

from umpire.agents.search.evaluate import Evaluation, evaluate
from umpire.agents.search.mcts import TOP_DESCRIBED, Clock, Node, Result, Settings
from umpire.agents.search.personality import Personality
from umpire.core.actions import Action, LazyActionList
from umpire.core.errors import IllegalActionError
from umpire.core.ruleset import Ruleset
from umpire.core.view import Agent, View

Z = 1.5  # standard errors a paired difference must clear (one-sided, about 93 %)
MARGIN = 0.01  # and the smallest mean difference in estimated win probability worth a change
MIN_SAMPLES = 3  # paired samples before the scripted move may be replaced or a move dropped
SCREEN_SHARE = 0.25  # on the clock, the one-step screen stops at this share of the budget

Policy = Callable[[str], Agent]  # the rollout player of a side


def state_view(ruleset: Ruleset[Any], state: Any, side: str) -> View:
    """A view of a drawn ``state`` for ``side``: its observation, and the legal actions when
    asked (a rollout's scripted player reads what that side would see of the drawn state)."""
    return View(
        ruleset,
        side,
        lambda: ruleset.observation(state, side),
        legal=lambda: ruleset.legal_actions(state),
    )


def play_out(
    ruleset: Ruleset[Any],
    state: Any,
    policy: Policy,
    horizon: int,
    stop: Callable[[], bool] = lambda: False,
) -> bool:
    """Play the rollout players on ``state`` for ``horizon`` actions (or to the end); False
    when ``stop`` (the clock) said so first (the sample is then discarded)."""
    for _ in range(horizon):
        mover = ruleset.to_act(state)
        if mover is None:
            return True
        if stop():
            return False
        legal = LazyActionList(lambda: ruleset.legal_actions(state))
        action = policy(mover).choose(state_view(ruleset, state, mover), legal)
        try:
            ruleset.apply(state, action)
        except IllegalActionError:
            # the rollout player's move was refused on this draw: the first legal action
            options = ruleset.legal_actions(state)
            if not options:
                return True
            ruleset.apply(state, options[0])
    return True


def _screen(
    view: View,
    options: list[Action],
    hint: Action,
    personality: Personality,
    keep: int,
    rng: random.Random,
    stop: Callable[[], bool] | None = None,
    clock: Clock = time.perf_counter,
) -> tuple[list[Action], Any, float]:
    """The hint and the ``keep - 1`` other actions that score best one step ahead on one
    shared determinisation (ties: the menu's order).

    With a clock (``stop``), the actions are screened in an order drawn from ``rng`` until
    ``stop`` says the screen's share of the budget is spent: a menu of a few hundred moves
    (a Rhine division's destinations) would otherwise take more than the whole decision's
    time. Without one (a sample budget) every action is screened.

    Also returns the shared determinisation (None when the menu is short enough to skip the
    screen) and the seconds the draw took (what a sample's draw will cost, on the clock)."""
    if len(options) <= keep:
        return [hint, *(a for a in options if a != hint)], None, 0.0
    ruleset = view.ruleset
    side = view.side
    began = clock()
    base = view.determinise(random.Random(rng.getrandbits(64)))
    drawing = clock() - began
    scored: list[tuple[float, int, Action]] = []
    order = list(enumerate(options))
    if stop is not None:
        random.Random(rng.getrandbits(64)).shuffle(order)
    for index, action in order:
        if action == hint:
            continue
        if stop is not None and stop():
            break
        state = ruleset.clone(base)
        try:
            ruleset.apply(state, action)
        except IllegalActionError:
            continue
        value = evaluate(ruleset, state, side, personality).value
        scored.append((-value, index, action))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [hint, *(a for _, _, a in scored[: keep - 1])], base, drawing


def _stats(diffs: list[float]) -> tuple[float, float]:
    """Mean and standard error of paired differences."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def improve(
    view: View,
    legal: Sequence[Action],
    personality: Personality,
    settings: Settings,
    rng: random.Random,
    policy: Policy,
    hint: Action,
    clock: Clock = time.perf_counter,
    started: float | None = None,
) -> Result:
    """Keep the scripted move ``hint`` unless a candidate beats it under common random
    numbers (see the module docstring). ``settings.iterations``, when given, is the number of
    paired samples (the tests' budget); otherwise the clock (``settings.think``) decides."""
    ruleset = view.ruleset
    side = view.side
    start = clock() if started is None else started
    deadline = start + settings.think
    timed = settings.iterations is None

    def stop() -> bool:
        return timed and clock() >= deadline

    options = list(legal)
    screen_until = start + settings.think * SCREEN_SHARE
    candidates, described_on, drawing = _screen(
        view,
        options,
        hint,
        personality,
        settings.candidates,
        rng,
        (lambda: clock() >= screen_until) if timed else None,
        clock,
    )
    values: dict[Action, list[float]] = {a: [] for a in candidates}
    terms: dict[Action, list[Evaluation]] = {a: [] for a in candidates}
    alive = list(candidates)
    samples = 0
    # on the clock, a round is not started unless its draw at least fits in what is left:
    # the screen's draw says what one costs (a draw may cost milliseconds)
    longest = drawing
    while len(alive) > 1:
        if not timed and samples >= (settings.iterations or 0):
            break
        if timed and clock() + longest >= deadline:
            break
        began = clock() if timed else 0.0
        base = view.determinise(random.Random(rng.getrandbits(64)))
        if described_on is None:
            described_on = base
        round_values: dict[Action, Evaluation] = {}
        complete = True
        for action in alive:
            if stop():
                complete = False
                break
            state = ruleset.clone(base)
            with suppress(IllegalActionError):  # not legal on this draw: played on as it is
                ruleset.apply(state, action)
            if not play_out(ruleset, state, policy, settings.horizon, stop):
                complete = False
                break
            round_values[action] = evaluate(ruleset, state, side, personality)
        if not complete:
            break
        for action, scored in round_values.items():
            values[action].append(scored.value)
            terms[action].append(scored)
        samples += 1
        if timed:
            longest = max(longest, clock() - began)
        if samples >= MIN_SAMPLES:
            alive = [a for a in alive if a == hint or not _dropped(values[a], values[hint])]
    chosen = hint
    best = 0.0
    for action in candidates:
        if action == hint or len(values[action]) < MIN_SAMPLES:
            continue
        diffs = [a - b for a, b in zip(values[action], values[hint], strict=False)]
        mean, se = _stats(diffs)
        if mean > MARGIN and mean > Z * se and mean > best:
            chosen, best = action, mean
    root = Node(None)
    for action in candidates:
        node = Node(side, visits=len(values[action]), value=sum(values[action]))
        node.available = samples
        for scored in terms[action]:
            for term in scored.terms:
                node.terms[term.name] = node.terms.get(term.name, 0.0) + term.value
                node.words[term.name] = term.words
        root.children[action] = node
    if not samples:  # no sample finished in time: the scripted move
        root.children[hint].visits = 1
        root.children[hint].value = 0.5
    described: dict[Action, str] = {}
    result = Result(
        side,
        root,
        options,
        samples * len(candidates),
        described,
        hint,
        0.0,
        chosen=chosen,
        method="improve",
        samples=samples,
    )
    words = [a for a, _ in result.ranked()[:TOP_DESCRIBED]]
    if hint not in words:
        words.append(hint)
    # the words describe the moves on a state already drawn from the view (the screen's or
    # the first sample's; one more draw only when none was made), not on the truth
    state = described_on if described_on is not None else view.determinise(random.Random(0))
    for action in words:
        try:
            described[action] = ruleset.describe(state, action)
        except Exception:  # a description is words for the "why", never a decision
            described[action] = action.kind
    return result


def _dropped(mine: list[float], hint: list[float]) -> bool:
    """Clearly worse than the scripted move on the paired samples so far."""
    mean, se = _stats([a - b for a, b in zip(mine, hint, strict=False)])
    return mean + Z * se < 0


__all__ = ["improve", "play_out", "state_view"]
