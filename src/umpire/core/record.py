"""Game records: ruleset + version, scenario, seed, options and actions.

A record is all it takes to reproduce a game: replaying it gives identical events.

It may also keep ``notes``: the "why" a deciding agent (the search player) gave for an action,
with the side that decided it. Notes are informative only: replay never reads them, so a record
replays to the same events with or without them, and a record saved before notes existed loads
as it is (the format stays ``umpire-record/1``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umpire.core.actions import Action
from umpire.core.datafiles import parse_json, read_text
from umpire.core.errors import DataFileError, UmpireError

RECORD_FORMAT = "umpire-record/1"
MAX_SEED = 2**63 - 1  # seeds are stored as SQLite integers


def check_seed(seed: int, flag: str = "--seed") -> None:
    """A one-line error for a seed no record can keep (refused before a game is played)."""
    if not 0 <= seed <= MAX_SEED:
        raise UmpireError(f"{flag} {seed}: a seed is a whole number from 0 to 2**63-1")


MAX_NAME = 200
_INDEX = re.compile(r"0|[1-9][0-9]{0,9}")  # an action number as a notes key


@dataclass
class Record:
    """The minimal description of a game."""

    ruleset: str
    version: str
    scenario: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)  # who played each side (informative)
    result: dict[str, Any] | None = None  # summary at save time, checked on replay
    # outcomes entered at a physical table (companion mode), one list per action: each entry
    # {"faces": [...], "sides": n} or {"index": i, "of": n}; replay takes the dice from here
    entered: list[list[dict[str, Any]]] | None = None
    # the why of each action a deciding agent explained (see ``keep_note``): action index ->
    # {"side", "text", "by", "playouts", "choices": [{"words", "share", "win"}],
    #  "terms": [{"words", "value"}]}
    notes: dict[int, dict[str, Any]] = field(default_factory=dict)
    # who reads another side's notes (``why_shown``): None (the default) every side in a
    # perfect-information game and only the deciding side otherwise; True every side; False
    # only the deciding side
    why_public: bool | None = None

    def keep_note(self, index: int, note: Mapping[str, Any] | None) -> None:
        """Keep ``note`` as the why of action ``index`` (``None``: forget any kept there, e.g.
        a decision with one legal action after an undo replayed that place)."""
        if note is None:
            self.notes.pop(index, None)
        else:
            self.notes[index] = dict(note)

    def trim_notes(self) -> None:
        """Forget the notes of actions no longer in the record (after an undo)."""
        for index in [i for i in self.notes if i >= len(self.actions)]:
            del self.notes[index]

    def why_shown(self, index: int, viewer: str | None, information: str) -> bool:
        """Whether ``viewer`` reads the note of action ``index`` (see :func:`why_readable`)."""
        note = self.notes.get(index)
        if note is None:
            return False
        return why_readable(str(note.get("side")), viewer, information, self.why_public)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "ruleset": self.ruleset,
            "version": self.version,
            "scenario": self.scenario,
            "seed": self.seed,
            "options": self.options,
            "players": self.players,
            "actions": [a.to_dict() for a in self.actions],
        }
        if self.result is not None:
            out["result"] = self.result
        if self.entered is not None:
            out["entered"] = self.entered
        kept = {str(i): self.notes[i] for i in sorted(self.notes) if i < len(self.actions)}
        if kept:
            out["notes"] = kept
        if self.why_public is not None:
            out["why_public"] = self.why_public
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "record") -> Record:
        """A record from its JSON form; every field of the wrong type or out of range is a
        one-line DataFileError naming the field."""
        if not isinstance(data, dict):
            raise DataFileError(f"{source}: a game record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            found = str(data.get("format"))[:40]
            raise DataFileError(
                f"{source}: field format: expected {RECORD_FORMAT!r}, got {found!r}"
            )
        for key in ("ruleset", "version", "scenario", "seed", "actions"):
            if key not in data:
                raise DataFileError(f"{source}: field {key}: missing")
        for key in ("ruleset", "version", "scenario"):
            value = data[key]
            if not isinstance(value, str) or not value or len(value) > MAX_NAME:
                raise DataFileError(f"{source}: field {key}: must be a non-empty string")
        seed = data["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise DataFileError(f"{source}: field seed: must be an integer 0..2**63-1")
        raw_actions = data["actions"]
        if not isinstance(raw_actions, list):
            raise DataFileError(f"{source}: field actions: must be a list of actions")
        actions = []
        for index, raw in enumerate(raw_actions):
            try:
                actions.append(Action.from_dict(raw))
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise DataFileError(f"{source}: field actions.{index}: malformed action") from exc
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise DataFileError(f"{source}: field options: must be an object")
        forces = options.get("forces")
        for side, force in forces.items() if isinstance(forces, dict) else []:
            if isinstance(force, str):  # a record holds the deployed units, never a file name
                raise DataFileError(
                    f"{source}: field options.forces.{str(side)[:20]}: a record names no force "
                    "file; it holds the units the file deployed"
                )
        players = data.get("players") or {}
        if not isinstance(players, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in players.items()
        ):
            raise DataFileError(f"{source}: field players: must map sides to names")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise DataFileError(f"{source}: field result: must be an object")
        entered = data.get("entered")
        if entered is not None and not (
            isinstance(entered, list)
            and len(entered) <= len(actions)
            and all(
                isinstance(step, list) and all(isinstance(e, dict) for e in step)
                for step in entered
            )
        ):
            raise DataFileError(
                f"{source}: field entered: must be a list (one per action) of lists of outcomes"
            )
        notes = _notes(data.get("notes"), len(actions), source)
        why_public = data.get("why_public")
        if why_public is not None and not isinstance(why_public, bool):
            raise DataFileError(f"{source}: field why_public: must be true, false or null")
        return cls(
            ruleset=data["ruleset"],
            version=data["version"],
            scenario=data["scenario"],
            seed=seed,
            options=dict(options),
            actions=actions,
            players=dict(players),
            result=result,
            entered=entered,
            notes=notes,
            why_public=why_public,
        )

    def save(self, path: str | Path) -> None:
        """Write the record as JSON (to a temporary file first, so nothing saved is lost)."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        try:
            tmp.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
            tmp.replace(target)
        except OSError as exc:  # no such folder, a name too long, no permission
            reason = exc.strerror or str(exc)
            raise DataFileError(f"{str(target)[:200]}: cannot be written ({reason})") from exc

    @classmethod
    def load(cls, path: str | Path) -> Record:
        source = Path(path)
        return cls.from_dict(parse_json(read_text(source), source), str(source))


def why_readable(side: str, viewer: str | None, information: str, public: bool | None) -> bool:
    """Whether ``viewer`` (``None``: the umpire, who reads all) may read the why of a decision
    by ``side``. A why is built from its side's own observation only, so it names nothing
    hidden from that side; but it can name what that side knows and another does not (its
    hidden units, its cards). So the deciding side always reads it, and another side when the
    game's setting ``public`` says so or, when it says nothing (``None``), in a
    perfect-information game only, where every side sees the same things."""
    if viewer is None or viewer == side:
        return True
    if public is not None:
        return public
    return information == "perfect"


def _notes(raw: Any, count: int, source: str) -> dict[int, dict[str, Any]]:
    """The ``notes`` field checked: an object from action indices (``"0"`` .. ``count - 1``)
    to notes with a ``side`` and a ``text``, and, when present, ``choices`` and ``terms`` of
    the shapes ``Record.notes`` describes; anything else is a one-line DataFileError naming
    the field."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise DataFileError(f"{source}: field notes: must be an object from action numbers")
    out: dict[int, dict[str, Any]] = {}
    for key, note in raw.items():
        where = f"{source}: field notes.{str(key)[:20]}"
        if not (isinstance(key, str) and _INDEX.fullmatch(key) and int(key) < count):
            raise DataFileError(f"{where}: not the number of an action (0..{count - 1})")
        if not isinstance(note, dict):
            raise DataFileError(f"{where}: must be an object")
        for name in ("side", "text"):
            if not isinstance(note.get(name), str) or not note[name]:
                raise DataFileError(f"{where}.{name}: must be a non-empty string")
        for name, numbers in (("choices", ("share", "win")), ("terms", ("value",))):
            items = note.get(name, [])
            if not isinstance(items, list):
                raise DataFileError(f"{where}.{name}: must be a list")
            for k, item in enumerate(items):
                good = (
                    isinstance(item, dict)
                    and isinstance(item.get("words"), str)
                    and all(_number(item.get(n)) for n in numbers)
                )
                if not good:
                    wanted = ", ".join(("words", *numbers))
                    raise DataFileError(f"{where}.{name}.{k}: must be an object with {wanted}")
        out[int(key)] = dict(note)
    return out


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
