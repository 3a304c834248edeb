"""State printed as words a player reads, not as Python literals.

A ruleset's status line or event text may carry a mapping or a list as Python prints it
(``tokens {'nato': 14, 'pact': 10}``); :func:`plain` rewrites each such literal into words
(``tokens NATO 14, PACT 10``). :func:`in_words` does the same for a value the terminal itself
shows, and :func:`need_words` says what a target number beyond the die's faces means.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from typing import Any

# a flat Python literal: a dict or a list with no nested brackets inside
_LITERAL = re.compile(r"\{[^{}\[\]]*\}|\[[^\[\]{}]*'[^\[\]{}]*\]")
# "needs 7+ on d6" / "need 7+ on a d6"
_NEED = re.compile(r"\b(needs?) (\d+)\+ on (?:a )?d(\d+)\b")


def in_words(value: Any, sides: Iterable[str] = ()) -> str:
    """``value`` in words: ``{'nato': 14}`` -> ``NATO 14``, ``['a', 'b']`` -> ``a, b``,
    ``True`` -> ``yes``, ``None`` -> ``none``."""
    known = tuple(sides)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        if not value:
            return "none"
        parts = []
        for key, item in value.items():
            word = str(key).upper() if str(key) in known else str(key).replace("_", " ")
            parts.append(f"{word} {in_words(item, known)}")
        return ", ".join(parts)
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else list(value)
        return ", ".join(in_words(v, known) for v in items) if items else "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def plain(text: str, sides: Iterable[str] = ()) -> str:
    """``text`` with every flat Python dict or list literal in it written as words."""
    known = tuple(sides)

    def rewrite(match: re.Match[str]) -> str:
        try:
            value = ast.literal_eval(match.group(0))
        except (ValueError, SyntaxError):
            return match.group(0)
        if not isinstance(value, dict | list):
            return match.group(0)
        return in_words(value, known)

    return _LITERAL.sub(rewrite, text)


def need_words(text: str) -> str:
    """A target beyond the die's faces said plainly: ``needs 7+ on d6`` -> ``needs 7+ on d6
    (only a natural 6 passes)``.

    A d6 test that can only pass on a natural 6 is offered only where the rules let a natural
    6 pass whatever the score (Seven Days' reaction roll, sevendays.reaction.tokens_markers):
    an impossible roll is never a legal option, so a menu line showing one names the natural 6
    that makes it possible."""

    def rewrite(match: re.Match[str]) -> str:
        need, sides = int(match.group(2)), int(match.group(3))
        if need <= sides:
            return match.group(0)
        return f"{match.group(0)} (only a natural {sides} passes)"

    return _NEED.sub(rewrite, text)


def percent(p: float) -> str:
    """A probability rounded once, the way every terminal line shows it."""
    return f"{p:.0%}"


def first_sentence(text: str, least: int = 40) -> str:
    """The first sentence of ``text`` on one line (a scenario's briefing in a listing); a
    sentence shorter than ``least`` characters ("Night.") runs on into the next."""
    flat = " ".join(text.split())
    for match in re.finditer(r"(?<=[a-z0-9)\"'])[.!?](?=\s+[A-Z(\"'])", flat):
        if match.end() >= least:
            return flat[: match.end()]
    return flat
