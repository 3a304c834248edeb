"""``why N``: the rules and the odds behind one option of the menu.

The rules are found by playing the option on positions drawn from what the deciding side knows
(``Game.view(side).determinise``: hidden units re-sampled, dice to come drawn afresh), never on
the true position, and reading the events that side would see: each rule they name is printed
with its catalogue entry (provenance, source, our summary). The odds are exact where they can
be: the board capability's own figures for a shot or an attack, and for a roll of one die with
a target number the share of the die's faces that reach it (checked against every sampled roll;
where the sampled verdicts disagree with that count, e.g. a natural 6 that always passes, the
line says the figure is simulated and how often).

The same samples tell :func:`certain_losses`: own units an option destroys or removes in every
sample before any die is rolled (an aircraft that crashes if its side stops activating).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import UmpireError
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.terminal.words import in_words, percent

LOSS_KINDS = ("destroyed", "removed", "crashed", "lost")
_DIE = re.compile(r"\b\d*d(\d+)\b")


@dataclass
class Samples:
    """What playing one option showed on ``count`` positions the side could be in."""

    count: int = 0
    runs: list[list[Event]] = field(default_factory=list)


def simulate(game: Game, side: str, action: Action, count: int, seed: int = 0) -> Samples:
    """Play ``action`` on ``count`` positions drawn from ``side``'s knowledge; each run keeps
    the events as ``side`` reads them. A ruleset that cannot re-sample gives no runs."""
    out = Samples()
    view = game.view(side)
    rng = random.Random(f"why/{seed}/{len(game.record.actions)}")
    for _ in range(count):
        try:
            state = view.determinise(rng)
            events = game.ruleset.apply(state, action)
        except (UmpireError, NotImplementedError, KeyError, ValueError, AssertionError):
            break
        seen = [e.seen_by(side) for e in events]
        out.runs.append([e for e in seen if e is not None])
        out.count += 1
    return out


def rules_seen(samples: Samples) -> list[tuple[str, int]]:
    """Rule ids the runs named, first seen first, with how many runs named each."""
    order: dict[str, int] = {}
    for run in samples.runs:
        for rule in dict.fromkeys(str(e.rule) for e in run if e.rule):
            order[rule] = order.get(rule, 0) + 1
    return list(order.items())


def _sides(event: Event) -> int | None:
    found = _DIE.search(event.text)
    return int(found.group(1)) if found else None


def roll_odds(samples: Samples) -> list[str]:
    """One line per rule that rolled: the score needed and its chance (exact when the faces
    reaching the target explain every sampled verdict, else the sampled rate)."""
    rolls: dict[str, list[Event]] = {}
    for run in samples.runs:
        for event in run:
            if event.kind == "roll" and event.rule:
                who = event.get("unit")
                key = f"{event.rule} ({who})" if isinstance(who, str) else str(event.rule)
                rolls.setdefault(key, []).append(event)
    lines = []
    for rule, events in rolls.items():
        needs = {e.get("need") for e in events}
        passed = sum(1 for e in events if e.get("success"))
        rate = passed / len(events)
        first = events[0]
        sides = _sides(first)
        dice = first.get("dice") or []
        need = first.get("need")
        exact: Fraction | None = None
        if len(needs) == 1 and need is not None and sides and len(dice) == 1:
            shift = int(first.get("result", dice[0])) - int(dice[0])
            consistent = all(
                len(e.get("dice") or []) == 1
                and int(e.get("result", 0)) - int(e["dice"][0]) == shift
                and bool(e.get("success")) == (int(e["dice"][0]) + shift >= int(need))
                for e in events
            )
            if consistent:
                faces = sum(1 for f in range(1, sides + 1) if f + shift >= int(need))
                exact = Fraction(faces, sides)
        score = f"needs {need}+" if len(needs) == 1 and need is not None else "score varies"
        die = f" on d{sides}" if sides else ""
        if exact is not None:
            mod = f" ({shift:+d} to the die)" if shift else ""
            lines.append(f"{rule}: {score}{die}{mod}: {percent(float(exact))} exactly")
        else:
            lines.append(
                f"{rule}: {score}{die}: passed {percent(rate)} of {len(events)} simulated rolls"
            )
    return lines


def details_lines(details: Mapping[str, Any] | None) -> list[str]:
    """The board capability's exact figures for an option, in words."""
    if not details:
        return []
    lines = []
    if "need" in details:
        dice = details.get("dice")
        head = f"needs {details['need']}+"
        if dice:
            head += " on one die" if dice == 1 else f" on each of {dice} dice"
        mods = details.get("modifiers") or []
        if mods:
            shifts = ", ".join(f"{m.get('why')} {m.get('delta'):+d}" for m in mods)
            head += f" (score needed: {shifts})"
        lines.append(head)
    for key, word in (("p_hit", "hits"), ("p_kill", "kills"), ("reaction_need", "")):
        if key in details and key != "reaction_need":
            lines.append(f"P {word} {percent(float(details[key]))} exactly")
    if "reaction_need" in details:
        lines.append(f"the reaction roll needs {details['reaction_need']}+ on d6")
    skip = {"need", "dice", "modifiers", "p_hit", "p_kill", "reaction_need", "lines", "target"}
    for key, value in details.items():
        if key in skip or isinstance(value, list):
            continue
        if isinstance(value, Mapping) and len(value) <= 12:
            value = {k: _chance(v) for k, v in value.items()}
            lines.append(f"{key.replace('_', ' ')}: {in_words(value)}")
        elif not isinstance(value, Mapping):
            shown = f"{value:.2f}" if isinstance(value, float) else in_words(value)
            lines.append(f"{key.replace('_', ' ')}: {shown}")
    return lines


def _chance(value: Any) -> Any:
    """A share of a distribution (a float between 0 and 1) as a percentage, rounded once."""
    if isinstance(value, float) and 0.0 <= value <= 1.0:
        return percent(value)
    return value


def explain(game: Game, side: str, action: Action, count: int = 120) -> list[str]:
    """The lines ``why`` prints for ``action``: rules with their catalogue entries, exact
    odds from the board capability, and each roll's target and chance."""
    lines: list[str] = []
    caps = game.ruleset.capabilities
    catalogue: Mapping[str, Any] = caps.catalog() if caps.catalog is not None else {}
    samples = simulate(game, side, action, count)
    found = rules_seen(samples)
    if found:
        lines.append("rules:")
        for rule, runs in found:
            entry = catalogue.get(rule)
            share = "" if runs == samples.count else f" (in {percent(runs / samples.count)})"
            if entry is None:
                lines.append(f"  {rule}{share}")
                continue
            lines.append(f"  {rule} [{entry.provenance}, {entry.ref}]{share}: {entry.summary}")
    else:
        lines.append("rules: none named (this ruleset cannot replay the option from your view)")
    details = None
    if caps.board is not None:
        try:
            details = caps.board.action_details(game, game.observation(side), side, action)
        except (KeyError, AttributeError, TypeError, ValueError):
            details = None
    exact = details_lines(details)
    if exact:
        lines.append("odds (exact):")
        lines += [f"  {line}" for line in exact]
    rolls = roll_odds(samples)
    if rolls:
        lines.append(f"rolls ({samples.count} positions you could be in, fresh dice):")
        lines += [f"  {line}" for line in rolls]
    elif samples.count:
        lines.append("no dice are rolled by this choice itself")
    return lines


def certain_losses(game: Game, side: str, action: Action, count: int = 3) -> list[str]:
    """What ``action`` loses of ``side``'s own units in every sampled run before any die is
    rolled: the texts of those events (empty when nothing is certainly lost)."""
    samples = simulate(game, side, action, count, seed=1)
    if not samples.count:
        return []
    own = _own_units(game, side)
    common: list[str] | None = None
    for run in samples.runs:
        lost: list[str] = []
        for event in run:
            if event.kind == "roll":
                break
            unit = event.get("unit")
            if event.kind in LOSS_KINDS and unit in own:
                lost.append(event.text)
        common = lost if common is None else [t for t in common if t in lost]
    return common or []


def _own_units(game: Game, side: str) -> set[str]:
    """Ids of ``side``'s units as its observation lists them (any common shape)."""
    obs = game.observation(side)
    units: Any = obs.get("units", [])
    found: set[str] = set()
    items: Sequence[Any] = list(units.values()) if isinstance(units, Mapping) else list(units)
    for raw in items:
        if isinstance(raw, Mapping) and raw.get("side") == side:
            for key in ("uid", "id"):
                if raw.get(key) is not None:
                    found.add(str(raw[key]))
    return found


def _exact_single(events: Sequence[Event]) -> tuple[Fraction, int, int] | None:
    """The exact chance of one die roll of ``events`` passing (all the same target and the
    same modifier, one die each, on a die named in the text), with the need and die size."""
    first = events[0]
    sides, dice, need = _sides(first), first.get("dice") or [], first.get("need")
    if not sides or len(dice) != 1 or need is None:
        return None
    shift = int(first.get("result", dice[0])) - int(dice[0])
    for e in events:
        faces = e.get("dice") or []
        if len(faces) != 1 or e.get("need") != need:
            return None
        if int(e.get("result", 0)) - int(faces[0]) != shift:
            return None
        if bool(e.get("success")) != (int(faces[0]) + shift >= int(need)):
            return None
    hits = sum(1 for f in range(1, sides + 1) if f + shift >= int(need))
    return Fraction(hits, sides), int(need) - shift, sides


def attack_note(game: Game, side: str, action: Action) -> str:
    """For an option aimed at a target whose text gives no odds: the score its first roll
    needs and the exact chance that at least one of its dice passes (``""`` when unknown)."""
    samples = simulate(game, side, action, 1, seed=2)
    if not samples.runs:
        return ""
    rolls = [e for e in samples.runs[0] if e.kind == "roll" and e.rule]
    if not rolls:
        return ""
    group = [e for e in rolls if e.rule == rolls[0].rule]
    exact = _exact_single(group)
    if exact is None:
        return ""
    p, score, sides = exact
    count = len(group)
    any_hit = 1 - (1 - p) ** count
    dice = f"{count} dice, each" if count > 1 else "1 die,"
    return f" [{dice} needs {max(score, 1)}+ on d{sides}; P(hit) {percent(float(any_hit))}]"
