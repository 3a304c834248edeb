"""The web table: a FastAPI app over the games store, and ``serve`` to run it with uvicorn.

Pages: ``/`` (pick a ruleset, scenario and players) and ``/play/{game}/{token}`` (the table
for the seat the secret token opens). The JSON API lives under ``/api``; every refusal is a
4xx with ``{"detail": "one-line reason"}`` and changes nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from umpire.server.service import ApiError, Service
from umpire.server.store import Store

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
WAIT_SECONDS = 25.0


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
    raw = await request.body()
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from exc


def create_app(db_path: Path, ai_delay: float = 0.5, synchronous: str = "FULL") -> FastAPI:
    """The web table over the SQLite database at ``db_path`` (created if missing).

    ``ai_delay``: seconds between the AI's actions, so a player sees them play out."""
    store = Store(db_path, synchronous=synchronous)
    service = Service(store, ai_delay=ai_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
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

    @app.middleware("http")
    async def no_cache(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        if request.url.path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"  # the page URL holds a secret
        return response

    # -- pages -------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{game_id}/{token}", include_in_schema=False)
    async def table(game_id: str, token: str) -> FileResponse:
        await service.seat(game_id, token)
        return FileResponse(STATIC / "play.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(status_code=204)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- API --------------------------------------------------------------------------------
    @app.get("/api/rulesets")
    async def rulesets() -> Response:
        return _json(service.rulesets())

    @app.post("/api/games")
    async def create(request: Request) -> Response:
        body = await _body(request)
        if not isinstance(body, dict):
            raise ApiError(400, "give a JSON object with ruleset, scenario and players")
        return _json(await service.create(body))

    base = "/api/games/{game_id}/seats/{token}"

    @app.get(base + "/view")
    async def view(game_id: str, token: str, since: int = 0) -> Response:
        return _json(await service.view(game_id, token, since))

    @app.get(base + "/wait")
    async def wait(game_id: str, token: str, index: int, timeout: float = WAIT_SECONDS) -> Response:
        return _json(await service.wait(game_id, token, index, min(max(timeout, 0), WAIT_SECONDS)))

    @app.post(base + "/actions")
    async def act(game_id: str, token: str, request: Request) -> Response:
        return _json(await service.act(game_id, token, await _body(request)))

    @app.post(base + "/undo")
    async def undo(game_id: str, token: str, request: Request) -> Response:
        return _json(await service.undo(game_id, token, await _body(request)))

    @app.get(base + "/replay")
    async def replay(game_id: str, token: str, at: int) -> Response:
        return _json(await service.frame(game_id, token, at))

    @app.get(base + "/sight")
    async def sight(game_id: str, token: str, unit: str) -> Response:
        return _json(await service.sight(game_id, token, unit))

    return app


def serve(host: str = "127.0.0.1", port: int = 8000, db: Path | None = None) -> None:
    """Run the web table (loopback only unless ``host`` says otherwise) until interrupted."""
    import uvicorn

    path = db or default_db_path()
    print(f"Umpire web table on http://{host}:{port}/  (games in {path})", flush=True)
    uvicorn.run(create_app(path), host=host, port=port, log_level="warning")
