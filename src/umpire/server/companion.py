"""The companion page's server side: Umpire beside a physical table, in the browser (issue 21).

A companion game is :class:`umpire.companion.session.Companion` itself: this module only feeds
it the line the page sends and keeps what it said. Each request resumes the session from its
record file (``Companion.resume``: the record with the entered outcomes, and the action being
rolled for with the faces already typed), hands it the one line, and lets it run until it asks
for the next line; the session's end of input (``QuitCompanion``) is where the request ends.
So the server holds no game in memory between requests: a reload, or a restart of the server,
finds the game where the last entry left it.

What the page is sent is what the session wrote (its own events are filtered by the side at the
table, ``seen_by``), the menu of that side's legal actions and the units that side's observation
shows: the AI's hidden units stay in the record file, which is never sent.

A game's rules with their modes are listed at ``/rules/{game}/{token}`` (:func:`rules_page`);
the lobby's rule-switches field is read by :func:`umpire.server.options.lobby_switches`.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import secrets
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from umpire.companion.errors import QuitCompanion, Refused
from umpire.companion.measure import Measure
from umpire.companion.session import AI_DICE, AI_KINDS, Companion
from umpire.core.errors import UmpireError
from umpire.core.ruleset import get_ruleset, ruleset_ids
from umpire.core.switches import (
    OPTION_KEY,
    Mode,
    RuleSwitches,
    effective_mode,
    switches_in,
    with_switches,
)
from umpire.server.guard import ApiError, check_game_choice, check_name, check_seed, short
from umpire.server.options import lobby_options, lobby_switches
from umpire.server.store import Store

GAME_ID = re.compile(r"[A-Za-z0-9_-]{16,40}")
CREATE_FIELDS = frozenset({"ruleset", "scenario", "seed", "sides", "ai_dice", "options"})
ENTER_FIELDS = frozenset({"line"})
MAX_LINE = 200
LOG_SENT = 400  # the last lines of the transcript a state carries
DICE_PROMPT = re.compile(r"^(\d+)d(\d+)> $")
SIDE_KINDS = ("me", *AI_KINDS)
NO_GAME = "no companion game with that link"
SAVED_LINE = "Companion game saved after every entry in "
RESUMED_LINE = "continuing the action being rolled for when the game was saved"


def switch_catalogue(ruleset_id: str) -> list[dict[str, Any]]:
    """The rules of a ruleset that have a switch, for the lobby's list (public text)."""
    check_name(ruleset_id, "ruleset")
    if ruleset_id not in ruleset_ids():
        raise ApiError(404, f"no ruleset {ruleset_id!r}")
    catalog = get_ruleset(ruleset_id).capabilities.catalog
    if catalog is None:
        return []
    try:
        entries = catalog()
    except UmpireError as exc:  # a catalogue that fails to load: one line, not a 500
        raise ApiError(409, f"{ruleset_id}'s rule catalogue cannot be read: {exc}") from exc
    return [
        {"id": rule, "summary": entry.summary or ""}
        for rule, entry in entries.items()
        if entry.switchable is True
    ]


def game_rules(ruleset_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A game's rules with the mode each has in it (``umpire rules --rules FILE``'s column)."""
    switches = switches_in(options)
    catalog = get_ruleset(ruleset_id).capabilities.catalog
    try:
        entries = catalog() if catalog is not None else {}
    except UmpireError as exc:
        raise ApiError(409, f"{ruleset_id}'s rule catalogue cannot be read: {exc}") from exc
    return {
        "ruleset": ruleset_id,
        "switches": dict(options.get(OPTION_KEY) or {}),
        "rules": [
            {"id": rule, "summary": entry.summary or "", "mode": effective_mode(switches, entry)}
            for rule, entry in entries.items()
        ],
    }


def rules_page(title: str, rules: Mapping[str, Any]) -> HTMLResponse:
    rows = "".join(
        f'<tr data-rule="{html.escape(r["id"])}" class="mode-{html.escape(r["mode"].split()[0])}">'
        f"<td><code>{html.escape(r['id'])}</code></td><td>{html.escape(r['mode'])}</td>"
        f"<td>{html.escape(r['summary'])}</td></tr>"
        for r in rules["rules"]
    )
    table = rules["switches"]
    picked = (
        "".join(
            f"<li><code>{html.escape(k)}</code>: {html.escape(str(v))}</li>"
            for k, v in table.items()
        )
        if table
        else "<li>none: every rule is enforced</li>"
    )
    body = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Umpire — rules of this game</title>
<link rel="stylesheet" href="/static/app.css"></head>
<body class="lobby"><header class="bar"><a class="brand" href="/">UMPIRE</a>
<span class="sub">{html.escape(title)}</span></header>
<main class="lobby-main"><section class="panel" id="game-rules">
<h2>Rules of this game</h2>
<h3>Rule switches</h3><ul id="switches">{picked}</ul>
<div class="rules-scroll"><table class="rules-table"><thead><tr><th>rule</th><th>mode</th>
<th>what the book says</th></tr></thead><tbody>{rows}</tbody></table></div>
</section></main></body></html>"""
    return HTMLResponse(body)


# -- companion games ---------------------------------------------------------------------------
class CompanionGames:
    """Companion games kept as record files in ``folder`` (one per game, plus what the
    session last said), each driven one line at a time."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, game_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    def _paths(self, game_id: str) -> tuple[Path, Path]:
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise ApiError(404, NO_GAME)
        return self.folder / f"{game_id}.json", self.folder / f"{game_id}.page.json"

    # -- requests --------------------------------------------------------------------------
    def create(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ApiError(400, "give a JSON object with ruleset, scenario and sides")
        ruleset_id, scenario, ruleset = check_game_choice(body, CREATE_FIELDS)
        raw_sides = body.get("sides")
        if not isinstance(raw_sides, dict):
            raise ApiError(400, "sides must map each side to me, scripted, search or random")
        players = [str(p) for p in ruleset.meta.players]
        sides: dict[str, str] = {}
        for side in players:
            kind = raw_sides.get(side)
            if kind not in SIDE_KINDS:
                raise ApiError(
                    400, f"sides.{side}: {short(kind)} is not one of {', '.join(SIDE_KINDS)}"
                )
            if kind != "me" and ruleset.capabilities.scripted is None:
                raise ApiError(400, f"sides.{side}: {ruleset_id} has no AI player")
            sides[side] = str(kind)
        extra = sorted(set(raw_sides) - set(players))
        if extra:
            raise ApiError(400, f"sides: no side {short(extra[0])} in {ruleset_id}")
        if "me" not in sides.values():
            raise ApiError(400, "sides: say which side is yours (me)")
        ai_dice = body.get("ai_dice", "table")
        if ai_dice not in AI_DICE:
            raise ApiError(400, f"ai_dice must be one of {', '.join(AI_DICE)}")
        seed = secrets.randbits(31) if body.get("seed") is None else check_seed(body["seed"])
        options = lobby_options(ruleset, body.get("options"), scenario)
        # at the table the players judge: every switchable rule advise (the core's default for
        # companion games, as `umpire companion` gives it), the rules picked on the page over it
        picked = dict(options.get(OPTION_KEY) or {})
        advise = RuleSwitches.default_for(Mode.ADVISE).table
        options = with_switches(options, RuleSwitches({**advise, **picked}))
        game_id = secrets.token_urlsafe(12)
        path, _ = self._paths(game_id)
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._lock(game_id):

            def start(read: Callable[[str], str], write: Callable[[str], None]) -> Companion:
                return Companion.start(
                    f"{ruleset_id}/{scenario}", seed, sides, path, read, write, ai_dice, options
                )

            state = self._step(game_id, None, start)
        return {"id": game_id, "url": f"/companion/{game_id}", **state}

    def state(self, game_id: str) -> dict[str, Any]:
        path, page = self._paths(game_id)
        with self._lock(game_id):
            if not path.exists():
                raise ApiError(404, NO_GAME)
            if page.exists():
                try:
                    return dict(json.loads(page.read_text(encoding="utf-8")))
                except (OSError, ValueError):
                    pass  # rebuilt from the record below
            return self._step(game_id, None, None)

    def enter(self, game_id: str, body: Any) -> dict[str, Any]:
        path, _ = self._paths(game_id)
        if not isinstance(body, dict) or set(body) != ENTER_FIELDS:
            raise ApiError(400, 'give {"line": "what you would type at the prompt"}')
        line = body["line"]
        if not isinstance(line, str) or not line.strip():
            raise ApiError(400, "line: type a menu number, faces, a command or a position")
        if len(line) > MAX_LINE or "\n" in line or "\r" in line:
            raise ApiError(400, f"line: one line of at most {MAX_LINE} characters")
        with self._lock(game_id):
            if not path.exists():
                raise ApiError(404, NO_GAME)
            return self._step(game_id, line.strip(), None)

    # -- one step of the session -----------------------------------------------------------
    def _step(
        self,
        game_id: str,
        line: str | None,
        start: Callable[[Callable[[str], str], Callable[[str], None]], Companion] | None,
    ) -> dict[str, Any]:
        """Resume (or start) the session, give it ``line``, and run it to its next prompt."""
        path, page = self._paths(game_id)
        segments: list[list[str]] = [[]]
        prompts: list[str] = []
        fed = False

        def read(prompt: str) -> str:
            nonlocal fed
            prompts.append(prompt)
            if line is not None and not fed:
                fed = True
                segments.append([])
                return line
            raise EOFError

        def write(text: str) -> None:
            for part in str(text).splitlines() or [""]:
                if part.startswith(SAVED_LINE) or part == RESUMED_LINE:
                    continue  # the server's file name, and the session's own resume note
                segments[-1].append(part)

        try:
            session = (
                start(read, write) if start is not None else Companion.resume(path, read, write)
            )
        except Refused as exc:
            raise ApiError(400, str(exc)) from exc
        except UmpireError as exc:
            raise ApiError(409 if start is None else 400, str(exc)) from exc
        result: dict[str, Any] | None = None
        try:
            result = session.run()
        except QuitCompanion:
            pass
        except Refused as exc:  # a refusal the session did not catch: still one line
            raise ApiError(422, str(exc)) from exc
        except UmpireError as exc:
            raise ApiError(409, str(exc)) from exc
        if line is not None and not fed:
            raise ApiError(409, "the game is over: nothing more to enter")
        old = self._page(page)
        said = segments[1] if line is not None else []
        prompt = prompts[-1] if result is None and prompts else ""
        if (
            line is not None
            and result is None
            and len(said) == 1
            and said[0].startswith("refused: ")
        ):
            # nothing happened but the refusal: the entry is refused, the game is where it was
            raise ApiError(422, said[0][len("refused: ") :])
        if line is None and start is None and old is not None:
            return old  # a state asked for again: what the session said last time stands
        log = list(old["log"]) if old is not None else []
        if start is not None:
            log += self._without_menu(segments[0], prompt)
        if line is not None:
            log.append(f"> {line}")
            log += self._without_menu(said, prompt)
        asked = [t.strip() for t in segments[-1] if t.strip().startswith(("roll ", "draw "))]
        if not asked and old is not None and old.get("ask", {}).get("text"):
            asked = [str(old["ask"]["text"])]  # an aid answered at the same prompt
        state = self._state(game_id, session, prompt, asked, log, result)
        state["said"] = self._without_menu(said, prompt)  # the menu is sent as buttons
        tmp = page.with_name(page.name + ".tmp")
        tmp.write_text(json.dumps(state), encoding="utf-8")
        tmp.replace(page)
        return state

    @staticmethod
    def _page(page: Path) -> dict[str, Any] | None:
        try:
            return dict(json.loads(page.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return None

    @staticmethod
    def _without_menu(lines: list[str], prompt: str) -> list[str]:
        """The transcript without the menu the session printed before the prompt (the page
        shows the menu as buttons)."""
        if DICE_PROMPT.match(prompt) or prompt == "card> " or not prompt:
            return lines
        for index in range(len(lines) - 1, -1, -1):
            if lines[index].endswith(" to decide:"):
                return lines[:index]
        return lines

    def _state(
        self,
        game_id: str,
        session: Companion,
        prompt: str,
        last: list[str],
        log: list[str],
        result: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        game = session.game
        viewer = session.viewer
        measure = Measure(game, viewer)
        ask: dict[str, Any]
        dice = DICE_PROMPT.match(prompt)
        menu: list[dict[str, Any]] = []
        kinds: list[str] = []
        if result is not None:
            ask = {
                "kind": "over",
                "text": f"Game over: {result.get('winner')} ({result.get('how')})",
            }
        elif dice:
            ask = {
                "kind": "dice",
                "count": int(dice.group(1)),
                "sides": int(dice.group(2)),
                "text": last[-1].strip() if last else f"roll {dice.group(1)}d{dice.group(2)}",
            }
        elif prompt == "card> ":
            ask = {"kind": "card", "text": last[-1].strip() if last else "draw one card"}
        else:
            side = prompt.rstrip("> ").strip()
            ask = {"kind": "decide", "side": side, "text": f"{side.upper()} to decide"}
            legal = game.legal_actions()
            menu = [
                {"n": n, "text": game.describe(a), "kind": a.kind, "unit": a.unit}
                for n, a in enumerate(legal, 1)
            ]
            kinds = sorted({a.kind for a in legal if a.unit is not None})
        units: list[dict[str, Any]] = []
        looker = viewer or (session.me[0] if session.me else None)
        if looker is not None:
            for unit in measure.units(looker):
                units.append(
                    {
                        "uid": str(unit["uid"]),
                        "name": str(unit.get("name", unit["uid"])),
                        "side": str(unit.get("side", "")),
                        "mine": str(unit.get("side", "")) in session.me,
                        "where": measure.spot_words((float(unit["x"]), float(unit["y"]))),
                        "status": str(unit.get("status", "")),
                    }
                )
        record = game.record
        return {
            "id": game_id,
            "game": f"{record.ruleset}/{record.scenario}",
            "sides": dict(session.sides),
            "me": list(session.me),
            "ai_dice": session.ai_dice,
            "table": measure.table_words(),
            "squares": measure.squares,
            "switches": dict(record.options.get(OPTION_KEY) or {}),
            "actions": len(record.actions),
            "ask": ask,
            "menu": menu,
            "kinds": kinds,
            "units": units,
            "log": log[-LOG_SENT:] if len(log) > LOG_SENT else log,
            "over": result is not None,
        }


# -- routes ------------------------------------------------------------------------------------
def register(
    app: FastAPI,
    folder: Path,
    store: Store,
    static: Path,
    body: Callable[[Request], Any],
    to_json: Callable[[Any], Response],
) -> CompanionGames:
    """The companion pages and API, the rule-switch catalogue and a game's rules page."""
    games = CompanionGames(folder)

    @app.get("/companion", include_in_schema=False)
    async def companion_new() -> FileResponse:
        return FileResponse(static / "companion.html")

    @app.get("/companion/{game_id}", include_in_schema=False)
    async def companion_page(game_id: str) -> FileResponse:
        return FileResponse(static / "companion.html")

    @app.post("/api/companion")
    async def companion_create(request: Request) -> Response:
        return to_json(await asyncio.to_thread(games.create, await body(request)))

    @app.get("/api/companion/{game_id}")
    async def companion_state(game_id: str) -> Response:
        return to_json(await asyncio.to_thread(games.state, game_id))

    @app.post("/api/companion/{game_id}/enter")
    async def companion_enter(game_id: str, request: Request) -> Response:
        return to_json(await asyncio.to_thread(games.enter, game_id, await body(request)))

    @app.get("/api/rulesets/{ruleset_id}/switches")
    async def switches(ruleset_id: str) -> Response:
        return to_json(await asyncio.to_thread(switch_catalogue, ruleset_id))

    def rules_of(game_id: str, token: str) -> dict[str, Any]:
        if len(game_id) > 200 or len(token) > 200:
            raise ApiError(404, "no game with that link")
        seat = store.seat(token)
        if seat is None or not secrets.compare_digest(seat.game_id.encode(), game_id.encode()):
            raise ApiError(404, "no game with that link")
        row = store.game(game_id)
        if row is None:
            raise ApiError(404, "no game with that link")
        return {"title": f"{row.ruleset}/{row.scenario}", **game_rules(row.ruleset, row.options)}

    @app.get("/api/games/{game_id}/seats/{token}/rules")
    async def rules_json(game_id: str, token: str) -> Response:
        return to_json(await asyncio.to_thread(rules_of, game_id, token))

    @app.get("/rules/{game_id}/{token}", include_in_schema=False)
    async def rules_html(game_id: str, token: str) -> Response:
        found = await asyncio.to_thread(rules_of, game_id, token)
        return rules_page(str(found["title"]), found)

    return games


__all__ = ["CompanionGames", "RuleSwitches", "game_rules", "lobby_switches", "register"]
