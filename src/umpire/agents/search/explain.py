"""The "why" of a search decision, in plain words.

Built only from the search's own tree (visit shares, mean values, the evaluation terms summed
over the playouts below each root action) and the ruleset's description of each action (which
states the exact odds of the dice a shot or test needs). Nothing in it depends on the clock, so
for a fixed seed and iteration budget it is reproducible, and it names only what the side may
know: the tree was grown on determinisations of the side's view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from umpire.agents.search.mcts import Node, Result
from umpire.agents.search.personality import Personality
from umpire.core.actions import Action
from umpire.core.events import Event

TOP = 3  # alternatives shown
DECIDING = 4  # evaluation terms kept in a record's note


@dataclass(frozen=True)
class Choice:
    """One root action as the explanation lists it."""

    action: Action
    words: str
    share: float  # of the root's visits
    win: float  # estimated win probability
    terms: tuple[tuple[str, str, float], ...]  # (name, words, mean weighted value)


def choices(result: Result) -> list[Choice]:
    total = sum(n.visits for n in result.root.children.values()) or 1
    out = []
    for action, node in result.ranked():
        out.append(
            Choice(
                action,
                result.described.get(action, action.kind),
                node.visits / total,
                node.mean(),
                _terms(node),
            )
        )
    return out


def _terms(node: Node) -> tuple[tuple[str, str, float], ...]:
    if not node.visits:
        return ()
    means = [(name, node.words[name], value / node.visits) for name, value in node.terms.items()]
    return tuple(sorted(means, key=lambda t: (-abs(t[2]), t[0])))


def explain(result: Result, personality: Personality) -> str:
    """A few lines: the choice with its win chance, the alternatives, the deciding terms."""
    ranked = choices(result)
    best = ranked[0]
    if result.method == "improve":
        return _explain_improve(result, personality, ranked)
    lines = [
        f"{result.side} search ({personality.name}, {result.iterations} playouts): "
        f"{best.words} — estimated win {best.win:.0%}, {best.share:.0%} of the search"
    ]
    if result.hint is not None and result.prior > 0:
        words = result.described.get(result.hint, result.hint.kind)
        lines.append(
            f"  the scripted player would play: {words} (given a head start of "
            f"{result.prior:.0%} of the playouts)"
        )
    for alt in ranked[1:TOP]:
        lines.append(f"  instead: {alt.words} — win {alt.win:.0%}, {alt.share:.0%} of the search")
    deciding = [t for t in best.terms if abs(t[2]) >= 0.005][:DECIDING]
    if deciding:
        said = "; ".join(f"{words} ({value:+.2f})" for _, words, value in deciding)
        lines.append(f"  because: {said}")
    else:
        lines.append("  because: no evaluation term separates the choices yet")
    return "\n".join(lines)


def _explain_improve(result: Result, personality: Personality, ranked: list[Choice]) -> str:
    """The improve mode's words: the move, whether it is the scripted player's or replaced
    it, the other candidates' estimates on the same (paired) samples, the deciding terms."""
    best = ranked[0]
    plural = "" if result.samples == 1 else "s"
    lines = [
        f"{result.side} search ({personality.name}, improve, {result.samples} paired "
        f"sample{plural}): "
        f"{best.words} — estimated win {best.win:.0%}"
    ]
    hint = result.hint
    if hint is not None:
        words = result.described.get(hint, hint.kind)
        if best.action == hint:
            lines.append(
                "  the scripted player's move, kept: no other move beat it on the same "
                "draws and dice by a margin the samples support"
            )
        else:
            node = result.root.children.get(hint)
            win = f"{node.mean():.0%}" if node is not None and node.visits else "?"
            lines.append(
                f"  instead of the scripted player's move: {words} — win {win} on the same "
                f"draws and dice"
            )
    for alt in ranked[1:TOP]:
        if alt.action == hint:
            continue
        lines.append(f"  also tried: {alt.words} — win {alt.win:.0%}, {alt.share:.0%} of samples")
    deciding = [t for t in best.terms if abs(t[2]) >= 0.005][:DECIDING]
    if deciding:
        said = "; ".join(f"{words} ({value:+.2f})" for _, words, value in deciding)
        lines.append(f"  because: {said}")
    else:
        lines.append("  because: no evaluation term separates the choices yet")
    return "\n".join(lines)


def explanation_event(result: Result, personality: Personality, text: str) -> Event:
    """The explanation as an event only the searching side reads."""
    ranked = choices(result)
    return Event(
        "ai_reason",
        text,
        None,
        visible_to=(result.side,),
        side=result.side,
        personality=personality.name,
        playouts=result.iterations,
        alternatives=[
            {"action": c.action.to_dict(), "words": c.words, "share": c.share, "win": c.win}
            for c in ranked[:TOP]
        ],
        terms=[{"term": n, "words": w, "value": v} for n, w, v in ranked[0].terms],
    )


def note_of(event: Any) -> dict[str, Any] | None:
    """The compact note a record keeps for a search decision (``Record.notes``), from its
    ``ai_reason`` event; ``None`` for anything else. It holds the side, the words shown (the
    same text as the terminal log and the web table), the personality and playouts, the top
    alternatives (the chosen one first) with their share of the search and estimated win
    (the words state the exact odds of the dice involved), and the deciding evaluation terms.
    Everything in it comes from the event, which the search built from its own side's view
    only; numbers are rounded to 3 places so the saved file reads the same on every machine."""
    if not isinstance(event, Event) or event.kind != "ai_reason":
        return None
    data = event.data
    choices = [
        {
            "words": str(alt["words"]),
            "share": round(float(alt["share"]), 3),
            "win": round(float(alt["win"]), 3),
        }
        for alt in list(data.get("alternatives", ()))[:TOP]
    ]
    terms = [
        {"words": str(t["words"]), "value": round(float(t["value"]), 3)}
        for t in data.get("terms", ())
        if abs(float(t["value"])) >= 0.005
    ][:DECIDING]
    return {
        "side": str(data.get("side", "")),
        "by": f"search:{data.get('personality', '')}",
        "playouts": int(data.get("playouts", 0)),
        "text": event.text,
        "choices": choices,
        "terms": terms,
    }
