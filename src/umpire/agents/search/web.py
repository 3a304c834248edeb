"""The search player at the web table: the lobby's opponent kinds and who reads the "why".

A side's player kind in the lobby is ``here``, ``remote``, ``ai`` (the ruleset's scripted
player) or a search spec ``search[:PRESET][+MODE][@SECONDS]`` (at most :data:`MAX_THINK` seconds a
move: the server thinks on its own time). The explanation of each search move is kept by the
server next to the move and shown on a page when :func:`shows_why` allows it. It is also kept
in the game's record (``Record.notes``, :func:`keep_why`) and in the server's store next to the
stored action, so a restarted server shows it again (:func:`restore_whys`); an undo takes it
back with its move (:func:`forget_whys`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from umpire.agents.search.agent import DEFAULT_THINK, parse_search_spec, parse_spec
from umpire.agents.search.explain import note_of
from umpire.core.errors import UmpireError
from umpire.core.record import Record, why_readable

MAX_THINK = 10.0  # seconds a move a lobby may ask of the server's search player


def is_search(kind: Any) -> bool:
    return isinstance(kind, str) and kind.split(":", 1)[0].split("@", 1)[0] == "search"


def is_ai(kind: Any) -> bool:
    """Whether a lobby player kind is played by the server (scripted or search)."""
    return kind == "ai" or is_search(kind)


def check_kind(kind: str) -> str | None:
    """Why a search kind is refused (one line), or None; the stored kind is canonical."""
    try:
        _, think = parse_spec(kind)
    except UmpireError as exc:
        return str(exc)
    if think is not None and think > MAX_THINK:
        return f"agent {kind!r}: think time at most {MAX_THINK:g} seconds at the web table"
    return None


def canonical(kind: str) -> str:
    """``search:PRESET[+MODE]@SECONDS`` for a search kind (the default think time filled in;
    the mode only when the kind names one, so the ruleset's default mode applies otherwise)."""
    return parse_search_spec(kind).canonical(DEFAULT_THINK)


def agent_spec(kind: str) -> str:
    """The ``make_agent`` spec that plays a lobby kind."""
    return kind if is_search(kind) else "scripted"


def agent_seed(kind: str, game_seed: int) -> int:
    """The seed of the server's agent for a lobby kind. The scripted player keeps the game's
    seed (as before); a search player gets a fresh secret seed of its own, so neither its moves
    nor its explanation (visit shares, playouts) are a function of the game's seed, which is
    the umpire's secret behind the dice to come."""
    return secrets.randbits(62) if is_search(kind) else game_seed


def shows_why(players: Mapping[str, str], information: str, mover: str | None, viewer: str) -> bool:
    """Whether the page seen by ``viewer`` shows the "why" of a move by ``mover``.

    The explanation is built only from the mover's own observation (the search grows its tree
    on draws of what it may know), so it never names anything hidden from the mover. It can
    name what the mover knows and the viewer does not (its own hidden units, its cards): so
    the viewer's own side always reads it, and an opponent reads it only in a
    perfect-information ruleset, where the two observations hold the same things."""
    if mover is None or not is_search(players.get(mover)):
        return False
    return why_readable(mover, viewer, information, None)


def why_entry(
    reasons: Mapping[int, str],
    players: Mapping[str, str],
    information: str,
    mover: str | None,
    viewer: str,
    index: int,
) -> dict[str, str]:
    """``{"why": text}`` for action ``index`` of a log when ``viewer`` may read it, else {}."""
    text = reasons.get(index)
    if text and shows_why(players, information, mover, viewer):
        return {"why": text}
    return {}


def keep_why(
    reasons: dict[int, str], record: Record, index: int, event: Any
) -> dict[str, Any] | None:
    """Keep the why of action ``index`` (the agent's ``last_event``, ``None`` when it gave
    none: one legal action) in the server's ``reasons`` and the record's notes, or forget any
    kept there (an undo replayed that place); the note, for the store, or ``None``."""
    note = note_of(event)
    record.keep_note(index, note)
    if note is None:
        reasons.pop(index, None)
    else:
        reasons[index] = str(note["text"])
    return note


def restore_whys(
    reasons: dict[int, str], record: Record, stored: Mapping[int, Mapping[str, Any]]
) -> None:
    """The whys a store kept for a game rebuilt from it (after a server restart): into the
    server's ``reasons`` and the record's notes. A stored note past the record's actions or
    without a text (a damaged database) is left out."""
    for index, note in stored.items():
        text = note.get("text") if isinstance(note, Mapping) else None
        if isinstance(text, str) and text and 0 <= index < len(record.actions):
            record.keep_note(index, note)
            reasons[index] = text


def forget_whys(reasons: dict[int, str], keep: int) -> None:
    """Forget the whys of the actions an undo took back (from number ``keep`` on)."""
    for index in [i for i in reasons if i >= keep]:
        del reasons[index]


__all__ = [
    "MAX_THINK",
    "agent_seed",
    "agent_spec",
    "canonical",
    "check_kind",
    "forget_whys",
    "is_ai",
    "is_search",
    "keep_why",
    "restore_whys",
    "shows_why",
    "why_entry",
]
