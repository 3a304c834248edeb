"""Game records: ruleset + version, scenario, seed, options and actions.

A record is all it takes to reproduce a game: replaying it gives identical events.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umpire.core.actions import Action
from umpire.core.datafiles import parse_json, read_text
from umpire.core.errors import DataFileError

RECORD_FORMAT = "umpire-record/1"
MAX_SEED = 2**63 - 1  # seeds are stored as SQLite integers
MAX_NAME = 200


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
