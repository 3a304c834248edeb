"""Determinised information-set Monte Carlo tree search (single observer, open loop).

Each iteration draws a fresh determinisation from the side's view (``View.determinise``: what
the side sees kept, hidden units, the enemy's cards and secret choices re-drawn, the dice to
come re-seeded), then walks one shared tree of *action* nodes down it:

* at each node the legal actions of this determinisation are listed; children not yet tried
  are expanded first, else the child with the best UCB score among those legal here is taken,
  counted against how often it was available (ISMCTS "availability" counts), so an enemy move
  that exists only under some draws of the hidden truth is not over-trusted;
* chance is handled where the rules roll it: an action's dice are drawn inside ``apply`` from
  the determinisation's re-seeded stream, so the same action node sees each outcome about as
  often as its exact odds say (an open-loop tree: a node averages over the dice);
* below the tree a truncated random rollout of a few actions, then the evaluation
  (:mod:`umpire.agents.search.evaluate`) scores the position for the searching side.

The search runs until its clock budget (``think`` seconds, measured by an injectable clock)
or its iteration budget is spent, whichever comes first; it is single-threaded, and states
are cloned once per iteration (by ``resample``), never deep-copied in the inner loop.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from umpire.agents.search.evaluate import Evaluation, evaluate
from umpire.agents.search.personality import Personality
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.view import View

Clock = Callable[[], float]
TOP_DESCRIBED = 3  # root actions described for the explanation (and the hint)


@dataclass
class Node:
    """An action node: ``mover`` chose the action that leads here."""

    mover: str | None
    visits: int = 0
    value: float = 0.0  # sum of values for the searching side
    available: int = 0
    children: dict[Action, Node] = field(default_factory=dict)
    terms: dict[str, float] = field(default_factory=dict)  # summed term values (root children)
    words: dict[str, str] = field(default_factory=dict)  # the latest words of each term

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.5


@dataclass(frozen=True)
class Settings:
    think: float = 1.0  # seconds per decision
    iterations: int | None = None  # iteration budget (None: the clock alone)
    exploration: float = 0.7  # UCB constant
    max_depth: int = 12  # actions walked in the tree per iteration
    rollout: int = 2  # random actions below the tree before evaluating
    prior: float = 0.25  # the hint's head start in the final choice, as a share of playouts
    mode: str = "tree"  # "tree" (this module) or "improve" (:mod:`.improve`)
    # improve: root actions compared (the scripted move and the best others), and scripted
    # actions played after each candidate before scoring; 3 and 12 measured stronger than 4
    # and 40 on Portable (docs/search-ai.md, "The improve mode against the scripted player")
    candidates: int = 3
    horizon: int = 12


@dataclass
class Result:
    """What one search found: the root's children and how many iterations it ran."""

    side: str
    root: Node
    legal: list[Action]
    iterations: int
    described: dict[Action, str]
    hint: Action | None = None
    prior: float = 0.0
    chosen: Action | None = None  # improve: the move its paired test chose
    method: str = "tree"
    samples: int = 0  # improve: paired samples (each a determinisation played per candidate)

    def ranked(self) -> list[tuple[Action, Node]]:
        """Root actions, most visited first (the hint counted with its head start of ``prior``
        x playouts; ties: better value, then the menu's order). In the improve mode: the
        chosen move first, then the others by their mean value."""
        order = {a: i for i, a in enumerate(self.legal)}
        if self.method == "improve":
            tried = [(a, n) for a, n in self.root.children.items() if n.visits]
            return sorted(tried, key=lambda an: (an[0] != self.chosen, -an[1].mean(), order[an[0]]))
        bonus = self.prior * self.iterations
        tried = [(a, n) for a, n in self.root.children.items() if n.visits]
        return sorted(
            tried,
            key=lambda an: (
                -(an[1].visits + (bonus if an[0] == self.hint else 0.0)),
                -an[1].mean(),
                order[an[0]],
            ),
        )


def search(
    view: View,
    legal: Sequence[Action],
    personality: Personality,
    settings: Settings,
    rng: random.Random,
    clock: Clock = time.perf_counter,
    hint: Action | None = None,
    started: float | None = None,
) -> Result:
    """Search from ``view`` for the best of ``legal`` (see the module docstring). ``hint`` (a
    move suggested by the ruleset's scripted player, from the same view) is tried first and
    starts the final choice with a head start of ``settings.prior`` x playouts.

    On the clock, an iteration is not started when the mean iteration so far would end past
    the budget (``started``: when the decision began, if before this call), so a decision
    rarely overruns ``think``."""
    ruleset = view.ruleset
    side = view.side
    start = clock() if started is None else started
    deadline = start + settings.think
    longest = 0.0
    root_legal = list(legal)
    root = Node(None)
    described: dict[Action, str] = {}
    done = 0
    while True:
        if settings.iterations is not None and done >= settings.iterations:
            break
        if done and settings.iterations is None:
            now = clock()
            if now + longest >= deadline:
                break
        began = clock() if settings.iterations is None else 0.0
        state = view.determinise(rng)
        path = [root]
        node = root
        depth = 0
        while depth < settings.max_depth:
            mover = ruleset.to_act(state)
            if mover is None:
                break
            options = root_legal if node is root else ruleset.legal_actions(state)
            for action in options:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            untried = [a for a in options if a not in node.children]
            if untried:
                if node is root and hint in untried:
                    action = hint
                else:
                    action = untried[rng.randrange(len(untried))]
                node.children[action] = Node(mover, available=1)
                expand = True
            else:
                action = _select(node, options, mover, side, settings.exploration)
                expand = False
            try:
                ruleset.apply(state, action)
            except IllegalActionError:  # not legal in this draw after all: stop the walk here
                if expand:
                    del node.children[action]
                break
            node = node.children[action]
            path.append(node)
            depth += 1
            if expand or (settings.iterations is None and clock() >= deadline):
                break
        for _ in range(settings.rollout):
            if ruleset.to_act(state) is None:
                break
            if settings.iterations is None and clock() >= deadline:
                break
            options = ruleset.legal_actions(state)
            if not options:
                break
            ruleset.apply(state, options[rng.randrange(len(options))])
        scored = evaluate(ruleset, state, side, personality)
        _backup(path, scored)
        done += 1
        if settings.iterations is None:
            longest = max(longest, clock() - began)
    if not any(c.visits for c in root.children.values()):  # nothing finished: the first action
        root.children.setdefault(root_legal[0], Node(side))
        root.children[root_legal[0]].visits = 1
    usable = hint if hint in root.children else None
    result = Result(side, root, root_legal, done, described, usable, settings.prior)
    words = [a for a, _ in result.ranked()[:TOP_DESCRIBED]]
    if usable is not None and usable not in words:
        words.append(usable)
    state = view.determinise(rng)  # descriptions do not depend on the draw (conformance)
    for action in words:
        try:
            described[action] = ruleset.describe(state, action)
        except Exception:  # a description is words for the "why", never a decision
            described[action] = action.kind
    return result


def _select(node: Node, options: Sequence[Action], mover: str, side: str, c: float) -> Action:
    best: Action | None = None
    best_score = -math.inf
    for action in options:
        child = node.children[action]
        if child.visits == 0:
            return action
        mean = child.mean() if mover == side else 1.0 - child.mean()
        score = mean + c * math.sqrt(math.log(max(1, child.available)) / child.visits)
        if score > best_score:
            best, best_score = action, score
    assert best is not None
    return best


def _backup(path: list[Node], scored: Evaluation) -> None:
    for node in path:
        node.visits += 1
        node.value += scored.value
    if len(path) > 1:  # the root's child keeps the terms that decided it
        child = path[1]
        for term in scored.terms:
            child.terms[term.name] = child.terms.get(term.name, 0.0) + term.value
            child.words[term.name] = term.words


__all__ = ["Clock", "Node", "Result", "Settings", "search"]
