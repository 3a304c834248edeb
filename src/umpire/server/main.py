"""The web table: a FastAPI app over the games store, and ``serve`` to run it with uvicorn.

Pages: ``/`` (pick a ruleset, scenario and players) and ``/play/{game}/{token}`` (the table
for the seat the secret token opens). The JSON API lives under ``/api``; every refusal is a
4xx with ``{"detail": "one-line reason"}`` and changes nothing.

Before a request reaches a game (see :mod:`umpire.server.guard`): the Host must be one the
server answers to (when it knows them), a POST must come from this server's own page (``Origin``
and ``Sec-Fetch-Site``), say ``Content-Type: application/json``, and carry at most 64 KB of
plain, shallow JSON; a seat's token is checked before its game is loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import html
import json
import logging
import math
import os
import re
import secrets
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from umpire.core.collector import quiet_collector
from umpire.server.companion import register as register_companion
from umpire.server.guard import (
    MAX_BODY_BYTES,
    ApiError,
    check_content_type,
    check_length,
    check_origin,
    parse_body,
)
from umpire.server.service import Service
from umpire.server.store import Store

log = logging.getLogger("umpire.server")
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
WAIT_SECONDS = 25.0
VISITOR_COOKIE = "umpire_visitor"  # a random name for this browser: the games it holds links to
VISITOR_FORMAT = re.compile(r"[A-Za-z0-9_-]{20,64}")


def visitor_of(request: Request) -> str | None:
    """The browser's visitor name from its cookie (``None``: none yet, or not one of ours)."""
    value = request.cookies.get(VISITOR_COOKIE, "")
    return value if VISITOR_FORMAT.fullmatch(value) else None


def set_visitor(response: Response, visitor: str) -> None:
    response.set_cookie(
        VISITOR_COOKIE,
        visitor,
        max_age=400 * 24 * 3600,
        httponly=True,
        samesite="strict",
        path="/",
    )


def wants_html(request: Request) -> bool:
    """A browser opening a page (it asks for HTML first), not a script asking for JSON."""
    accept = request.headers.get("accept", "")
    return "text/html" in accept.split(",", 1)[0]


def not_found_page(reason: str) -> HTMLResponse:
    """A wrong or stale secret link, as a page a player can read."""
    body = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Umpire — no game at this link</title>
<link rel="stylesheet" href="/static/app.css"></head>
<body class="lobby"><header class="bar"><a class="brand" href="/">UMPIRE</a></header>
<main class="lobby-main"><section class="panel" id="no-game">
<h2>No game at this link</h2>
<p>This link does not open a game on this server ({html.escape(reason)}). Check that it was
copied whole: the part after <code>/play/</code> is the game and the secret of one seat.</p>
<p><a href="/">Back to the lobby</a> to start a game or open one of yours.</p>
</section></main></body></html>"""
    return HTMLResponse(body, status_code=404)


def default_db_path() -> Path:
    """``games.sqlite3`` in the user's data directory (``$UMPIRE_DB`` overrides)."""
    if os.environ.get("UMPIRE_DB"):
        return Path(os.environ["UMPIRE_DB"])
    try:
        from platformdirs import user_data_dir
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
        return base / "umpire" / "games.sqlite3"
    return Path(user_data_dir("umpire", appauthor=False)) / "games.sqlite3"


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"detail": " ".join(reason.split())}, status_code=status)


def _json(data: Any) -> Response:
    return Response(json.dumps(data, separators=(",", ":")), media_type="application/json")


async def _body(request: Request) -> Any:
    """The request's JSON body: declared as JSON, at most 64 KB (read no further), sane."""
    check_content_type(request.headers)
    check_length(request.headers)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise ApiError(413, f"the body is larger than {MAX_BODY_BYTES // 1024} KB")
        chunks.append(chunk)
    return parse_body(b"".join(chunks))


def hosts_for(bind: str) -> frozenset[str] | None:
    """The Host names a server bound to ``bind`` answers to: the loopback names for a loopback
    address (a page on another site that rebinds its name to 127.0.0.1 is refused), ``None``
    (any) for a public address, unless ``$UMPIRE_ALLOWED_HOSTS`` (comma-separated) says."""
    named = os.environ.get("UMPIRE_ALLOWED_HOSTS")
    if named:
        return frozenset(h.strip().lower() for h in named.split(",") if h.strip())
    if bind in LOOPBACK_HOSTS or bind.startswith("127.") or bind == "::1":
        return LOOPBACK_HOSTS | {bind.lower()}
    return None


class Guard:
    """Every HTTP request passes here first: the Host and the sender are checked (and a
    body's announced size) before anything else runs, and every answer, a refusal included,
    says not to send the page's URL (it holds a secret) and, for the API, not to cache.

    A plain ASGI middleware: it adds no task and no stream per request (what Starlette's
    ``@app.middleware("http")`` costs), which shows in the web table's round trips."""

    def __init__(
        self, app: ASGIApp, hosts: frozenset[str] | None, service: Service | None = None
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if api:
                    headers["Cache-Control"] = "no-store"
                headers["Referrer-Policy"] = "no-referrer"  # the page URL holds a secret
            await send(message)

        headers = Headers(scope=scope)
        method = str(scope.get("method", "GET"))
        try:
            check_origin(method, headers, self.hosts)
            if method.upper() not in ("GET", "HEAD", "OPTIONS"):
                check_length(headers)
        except ApiError as exc:
            await _error(exc.status, exc.reason)(scope, receive, send_marked)
            return
        if self.service is not None and await _hot(self.service, scope, receive, send_marked):
            return
        await self.app(scope, receive, send_marked)


# a seat's view and its actions: every player's round trip (issue 19)
HOT_PATH = re.compile(r"/api/games/([^/]+)/seats/([^/]+)/(view|actions)")
PLAIN_SINCE = re.compile(rb"since=(-?[0-9]{1,18})")


async def _hot(service: Service, scope: Scope, receive: Receive, send: Send) -> bool:
    """Answer ``GET .../view`` and ``POST .../actions`` here, as their routes below answer
    them, without the framework's routing, parameter parsing and exception layers (about a
    tenth of the server's CPU a player's action under load). ``False``: anything else, or a
    request not plainly one of these (another method, a query the route would parse or
    refuse itself, a mounted app), which the routes then answer. Errors are answered as the
    app's handlers answer them (``ApiError``); any other exception propagates to the
    app's server-error handler, as from a route."""
    found = HOT_PATH.fullmatch(str(scope.get("path", "")))
    if found is None or scope.get("root_path"):
        return False
    game_id, token, what = found.groups()
    method = scope.get("method")
    query = scope.get("query_string", b"")
    response: Response
    if what == "view":
        since = PLAIN_SINCE.fullmatch(query) if query else None
        if method != "GET" or (query and since is None):
            return False
        try:
            text = await service.view_json(game_id, token, int(since[1]) if since else 0)
            response = Response(text, media_type="application/json")
        except ApiError as exc:
            response = _error(exc.status, exc.reason)
    else:
        if method != "POST":
            return False
        try:
            body = await _body(Request(scope, receive))
            response = _json(await service.act(game_id, token, body))
        except ApiError as exc:
            response = _error(exc.status, exc.reason)
    await response(scope, receive, send)
    return True


def settle_collector(service: Service) -> None:
    """Before a long-lived server takes requests: load every ruleset the lobby lists (what
    its first page would load) and collect once, so that what is loaded for good is alive
    and can be frozen out of the collector's sight (see ``create_app``'s ``collector``)."""
    try:
        service.rulesets()
    except Exception:  # a ruleset that fails to load is left off the menu, and out of here
        log.exception("loading the rulesets at start-up failed")
    gc.collect()


def create_app(
    db_path: Path,
    ai_delay: float = 0.5,
    synchronous: str = "NORMAL",
    allowed_hosts: Iterable[str] | None = None,
    collector: bool = False,
) -> FastAPI:
    """The web table over the SQLite database at ``db_path`` (created if missing).

    ``ai_delay``: seconds between the AI's actions, so a player sees them play out.
    ``synchronous``: SQLite's sync level for the write-ahead log (``NORMAL``: every committed
    action survives a server crash, a power cut may lose the last ones; ``FULL``: survives a
    power cut too, one disk flush per action; see :mod:`umpire.server.store`).
    ``allowed_hosts``: the Host names to answer (``None``: any; ``serve`` sets the loopback
    names when it listens on loopback).
    ``collector``: for a long-lived server (``serve`` sets it): at start-up the rulesets are
    loaded, the garbage collected once and what is loaded then frozen out of the collector's
    sight, and while the app runs the youngest generation is collected every
    ``umpire.core.collector.YOUNG`` allocations, as games are played elsewhere
    (``quiet_collector``; the process's settings are put back when the app stops). At
    CPython's default settings the collector ran a few hundred times a minute under the web
    table's load, each older pass walking the rules' loaded data (issue 19). When it runs
    changes no game."""
    hosts = None if allowed_hosts is None else frozenset(h.lower() for h in allowed_hosts)
    store = Store(db_path, synchronous=synchronous)
    service = Service(store, ai_delay=ai_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if collector:
            await asyncio.to_thread(settle_collector, service)
        with quiet_collector() if collector else contextlib.nullcontext():
            try:
                yield
            finally:
                await service.close()
                store.close()

    app = FastAPI(title="Umpire", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.service = service

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.reason)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(400, f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        # a bug, never the client's input: logged here, one plain line there, no traceback
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return _error(500, "the server failed on this request; it has been logged")

    app.add_middleware(Guard, hosts=hosts, service=service)

    # -- pages -------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{game_id}/{token}", include_in_schema=False)
    async def table(game_id: str, token: str, request: Request) -> Response:
        try:
            await service.seat(game_id, token)
        except ApiError as exc:
            if wants_html(request):
                return not_found_page(exc.reason)
            raise
        response = FileResponse(STATIC / "play.html")
        visitor = visitor_of(request) or secrets.token_urlsafe(24)
        await asyncio.to_thread(service.remember_seat, visitor, token)
        set_visitor(response, visitor)
        return response

    @app.get("/play/{rest:path}", include_in_schema=False)
    async def bad_link(rest: str, request: Request) -> Response:
        if wants_html(request):
            return not_found_page("no game with that link")
        raise ApiError(404, "no game with that link")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(status_code=204)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- API --------------------------------------------------------------------------------
    @app.get("/api/rulesets")
    async def rulesets() -> Response:
        return _json(service.rulesets())

    @app.get("/api/rulesets/{ruleset_id}/rules")
    async def rules(ruleset_id: str) -> Response:
        return _json(await asyncio.to_thread(service.rule_summaries, ruleset_id))

    @app.get("/api/rulesets/{ruleset_id}/scenarios/{scenario}/preview")
    async def preview(ruleset_id: str, scenario: str) -> Response:
        return _json(await service.preview(ruleset_id, scenario))

    @app.get("/api/my-games")
    async def my_games(request: Request) -> Response:
        visitor = visitor_of(request)
        if visitor is None:
            return _json([])
        return _json(await asyncio.to_thread(service.visitor_games, visitor))

    @app.post("/api/games")
    async def create(request: Request) -> Response:
        body = await _body(request)
        if not isinstance(body, dict):
            raise ApiError(400, "give a JSON object with ruleset, scenario and players")
        made = await service.create(body)
        visitor = visitor_of(request) or secrets.token_urlsafe(24)
        for seat in made["seats"]:
            await asyncio.to_thread(service.remember_seat, visitor, seat["token"])
        response = _json(made)
        set_visitor(response, visitor)
        return response

    base = "/api/games/{game_id}/seats/{token}"

    @app.get(base + "/view")
    async def view(game_id: str, token: str, since: int = 0) -> Response:
        view_json = await service.view_json(game_id, token, since)
        return Response(view_json, media_type="application/json")

    @app.get(base + "/wait")
    async def wait(game_id: str, token: str, index: int, timeout: float = WAIT_SECONDS) -> Response:
        if math.isnan(timeout):
            timeout = 0.0
        return _json(await service.wait(game_id, token, index, min(max(timeout, 0), WAIT_SECONDS)))

    @app.post(base + "/actions")
    async def act(game_id: str, token: str, request: Request) -> Response:
        return _json(await service.act(game_id, token, await _body(request)))

    @app.post(base + "/undo")
    async def undo(game_id: str, token: str, request: Request) -> Response:
        return _json(await service.undo(game_id, token, await _body(request)))

    @app.post(base + "/deploy")
    async def deploy(game_id: str, token: str, request: Request) -> Response:
        return _json(await service.deploy_for_me(game_id, token, await _body(request)))

    @app.get(base + "/replay")
    async def replay(game_id: str, token: str, at: int) -> Response:
        return _json(await service.frame(game_id, token, at))

    @app.get(base + "/sight")
    async def sight(game_id: str, token: str, unit: str) -> Response:
        return _json(await service.sight(game_id, token, unit))

    # the companion page (a physical table), the rule-switch list and a game's rules page
    register_companion(app, db_path.parent / "companion", store, STATIC, _body, _json)

    return app


def serve(host: str = "127.0.0.1", port: int = 8000, db: Path | None = None) -> None:
    """Run the web table (loopback only unless ``host`` says otherwise) until interrupted."""
    import uvicorn

    path = db or default_db_path()
    app = create_app(path, allowed_hosts=hosts_for(host), collector=True)
    print(f"Umpire web table on http://{host}:{port}/  (games in {path})", flush=True)
    # open pages hold a long poll (/wait): on SIGTERM they are given 2 s, not their whole poll
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        h11_max_incomplete_event_size=65536,
        timeout_graceful_shutdown=2,
    )
