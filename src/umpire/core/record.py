"""Game records: ruleset + version, scenario, seed, options and actions.

A record is all it takes to reproduce a game: replaying it gives identical events.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import DataFileError

RECORD_FORMAT = "umpire-record/1"


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
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "record") -> Record:
        if not isinstance(data, dict):
            raise DataFileError(f"{source}: a game record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise DataFileError(
                f"{source}: field format: expected {RECORD_FORMAT!r}, got {data.get('format')!r}"
            )
        for key in ("ruleset", "version", "scenario", "seed", "actions"):
            if key not in data:
                raise DataFileError(f"{source}: field {key}: missing")
        actions = []
        for index, raw in enumerate(data["actions"]):
            try:
                actions.append(Action.from_dict(raw))
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise DataFileError(f"{source}: field actions.{index}: malformed action") from exc
        try:
            seed = int(data["seed"])
        except (TypeError, ValueError) as exc:
            raise DataFileError(f"{source}: field seed: not an integer") from exc
        return cls(
            ruleset=str(data["ruleset"]),
            version=str(data["version"]),
            scenario=str(data["scenario"]),
            seed=seed,
            options=dict(data.get("options") or {}),
            actions=actions,
            players=dict(data.get("players") or {}),
            result=data.get("result"),
        )

    def save(self, path: str | Path) -> None:
        """Write the record as JSON (to a temporary file first, so nothing saved is lost)."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(target)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        source = Path(path)
        try:
            text = source.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise DataFileError(f"{source}: file not found") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataFileError(f"{source}: line {exc.lineno}: not valid JSON ({exc.msg})") from exc
        return cls.from_dict(data, str(source))
