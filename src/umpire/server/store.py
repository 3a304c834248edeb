"""Games kept in an embedded SQLite database (stdlib ``sqlite3``, WAL mode).

The record is the source of truth: a ``games`` row holds what it takes to start the game
(ruleset + version, scenario, seed, options) and who plays each side; the ``actions`` table
holds every accepted action in order, ``UNIQUE(game_id, idx)`` so that an action can never be
stored twice at the same place. A game is rebuilt by replaying its actions.

Durability. The journal is a write-ahead log with ``synchronous=NORMAL`` by default: a commit
is written to the log (the OS holds it) before the player is told, and the log is synced to
disk at each checkpoint. Every committed action therefore survives a crash or kill of the
server; what an OS crash or a power cut can lose is the last transactions committed since the
previous checkpoint (the database itself stays consistent: no half-written action, no gap).
``synchronous=FULL`` (``Store(path, synchronous="FULL")``, ``create_app(...,
synchronous="FULL")``) also syncs the log at every commit, which survives a power cut too and
costs about one disk flush per action (measured: ~5 ms of the ~7 ms an action cost the web
table, most of its latency under load).

An action is stored by one statement (``append``): the insert only happens when the record
holds exactly ``index`` actions, and a trigger stamps the game's ``updated`` in the same
implicit transaction, so one commit and one round trip into SQLite per action.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umpire.core.errors import UmpireError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    version TEXT NOT NULL,
    scenario TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    token TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    sides TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS seats_by_game ON seats(game_id);
CREATE TABLE IF NOT EXISTS visitor_seats (
    visitor TEXT NOT NULL,
    token TEXT NOT NULL REFERENCES seats(token) ON DELETE CASCADE,
    seen REAL NOT NULL,
    PRIMARY KEY (visitor, token)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    side TEXT,
    created REAL NOT NULL,
    UNIQUE (game_id, idx)
);
CREATE TABLE IF NOT EXISTS notes (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    note TEXT NOT NULL,
    UNIQUE (game_id, idx)
);
CREATE TRIGGER IF NOT EXISTS actions_touch_game AFTER INSERT ON actions
BEGIN
    UPDATE games SET updated = NEW.created WHERE id = NEW.game_id;
END;
"""


class StaleIndexError(Exception):
    """An action was submitted for a place in the record that is already taken."""


@dataclass(frozen=True)
class GameRow:
    id: str
    ruleset: str
    version: str
    scenario: str
    seed: int
    options: dict[str, Any]
    players: dict[str, str]  # side -> "here" | "remote" | "ai"
    created: float
    updated: float


@dataclass(frozen=True)
class Seat:
    """A secret link: its token opens the game and controls ``sides`` (none: a watcher)."""

    token: str
    game_id: str
    sides: tuple[str, ...]


class Store:
    """Thread-safe access to the games database (one connection, serialised by a lock:
    SQLite writes are serialised anyway, and every statement here is short)."""

    def __init__(self, path: Path, synchronous: str = "NORMAL") -> None:
        self.path = path
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        if path.is_dir():
            raise UmpireError(f"{path}: is a folder, not a games database (give a file name)")
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL (default): a commit survives a crash of the server, not a power cut (see
            # the module docstring); FULL: synced at every commit
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            # a file that is not SQLite, one of another program, or a place not writable: one
            # line naming it, and the file left as it was
            raise UmpireError(f"{path}: cannot be used as the games database ({exc})") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- games ---------------------------------------------------------------------------
    def create_game(self, game: GameRow, seats: list[Seat]) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.id,
                    game.ruleset,
                    game.version,
                    game.scenario,
                    game.seed,
                    json.dumps(game.options),
                    json.dumps(game.players),
                    game.created,
                    game.updated,
                ),
            )
            db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?)",
                [(s.token, s.game_id, json.dumps(list(s.sides))) for s in seats],
            )

    def game(self, game_id: str) -> GameRow | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return GameRow(
            id=row[0],
            ruleset=row[1],
            version=row[2],
            scenario=row[3],
            seed=int(row[4]),
            options=json.loads(row[5]),
            players=json.loads(row[6]),
            created=float(row[7]),
            updated=float(row[8]),
        )

    def seat(self, token: str) -> Seat | None:
        with self._lock:
            row = self._db.execute(
                "SELECT token, game_id, sides FROM seats WHERE token = ?", (token,)
            ).fetchone()
        if row is None:
            return None
        return Seat(row[0], row[1], tuple(json.loads(row[2])))

    def seats(self, game_id: str) -> list[Seat]:
        with self._lock:
            rows = self._db.execute(
                "SELECT token, game_id, sides FROM seats WHERE game_id = ? ORDER BY rowid",
                (game_id,),
            ).fetchall()
        return [Seat(r[0], r[1], tuple(json.loads(r[2]))) for r in rows]

    # -- the links a visitor holds ----------------------------------------------------------
    def remember_seat(self, visitor: str, token: str) -> None:
        """Note that the browser ``visitor`` holds the link ``token`` (it created or opened it)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO visitor_seats VALUES (?, ?, ?) "
                "ON CONFLICT (visitor, token) DO UPDATE SET seen = excluded.seen",
                (visitor, token, time.time()),
            )

    def visitor_games(self, visitor: str, limit: int = 50) -> list[dict[str, Any]]:
        """The seats ``visitor`` holds, newest game first, with each game's ruleset, scenario,
        who plays each side, when it was created and last changed, and its number of actions."""
        with self._lock:
            rows = self._db.execute(
                "SELECT s.token, s.game_id, s.sides, g.ruleset, g.scenario, g.players, "
                "g.created, g.updated, "
                "(SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) "
                "FROM visitor_seats v JOIN seats s ON s.token = v.token "
                "JOIN games g ON g.id = s.game_id WHERE v.visitor = ? "
                "ORDER BY g.created DESC, s.rowid LIMIT ?",
                (visitor, limit),
            ).fetchall()
        return [
            {
                "token": r[0],
                "game": r[1],
                "sides": json.loads(r[2]),
                "ruleset": r[3],
                "scenario": r[4],
                "players": json.loads(r[5]),
                "created": float(r[6]),
                "updated": float(r[7]),
                "actions": int(r[8]),
            }
            for r in rows
        ]

    # -- actions -------------------------------------------------------------------------
    def actions(self, game_id: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT idx, action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)
            ).fetchall()
        out = []
        for expected, (idx, raw) in enumerate(rows):
            if idx != expected:  # pragma: no cover - the constraint and append keep it dense
                raise RuntimeError(f"game {game_id}: action {expected} missing from the store")
            out.append(json.loads(raw))
        return out

    def keep_note(self, game_id: str, index: int, note: dict[str, Any]) -> None:
        """Keep the search player's why of action ``index`` (``Record.notes``), so a restarted
        server shows it again; an undo deletes it with its action (``truncate``)."""
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO notes VALUES (?, ?, ?)", (game_id, index, json.dumps(note))
            )

    def notes(self, game_id: str) -> dict[int, dict[str, Any]]:
        """The kept why of each action that has one, by action number."""
        with self._lock:
            rows = self._db.execute(
                "SELECT idx, note FROM notes WHERE game_id = ? ORDER BY idx", (game_id,)
            ).fetchall()
        return {int(idx): json.loads(raw) for idx, raw in rows}

    def count(self, game_id: str) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()
        return int(row[0])

    def append(self, game_id: str, index: int, action: dict[str, Any], side: str | None) -> None:
        """Commit ``action`` as action number ``index``; raises StaleIndexError if that place
        is taken or the record is shorter (nothing is written then).

        One statement, its own transaction: the row goes in only where the record's next
        place is ``index`` (its last ``idx`` + 1: the places are dense), and the trigger
        ``actions_touch_game`` stamps ``games.updated`` in the same transaction."""
        now = time.time()
        try:
            with self._lock:
                cursor = self._db.execute(
                    "INSERT INTO actions (game_id, idx, action, side, created) "
                    "SELECT ?, ?, ?, ?, ? WHERE "
                    "(SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE game_id = ?) = ?",
                    (game_id, index, json.dumps(action), side, now, game_id, index),
                )
                stored = cursor.rowcount
        except sqlite3.IntegrityError as exc:
            raise StaleIndexError(f"action {index} is already recorded") from exc
        if stored != 1:
            raise StaleIndexError(f"the record has {self.count(game_id)} actions, not {index}")

    def truncate(self, game_id: str, keep: int) -> None:
        """Delete every action from number ``keep`` on (undo)."""
        with self._transaction() as db:
            db.execute("DELETE FROM actions WHERE game_id = ? AND idx >= ?", (game_id, keep))
            db.execute("DELETE FROM notes WHERE game_id = ? AND idx >= ?", (game_id, keep))
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), game_id))
