"""Fixtures for the web table: an app over a fresh database, a live server for browsers, and
one Chromium (Debian's, driven by Playwright; no download) shared by every browser test.

Browser test modules start with ``playwright = need_browser()``: the module is skipped when
Playwright or ``/usr/bin/chromium`` is missing. Screenshots land in ``$UMPIRE_SCREENSHOTS``
(default: the test's temporary directory)."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
VIEWPORT = {"width": 1600, "height": 900}
# the window sizes a table must fit (issue 20): a phone, a laptop, a desktop
SIZES = {"phone": (390, 844), "laptop": (1280, 720), "desktop": (1920, 1080)}


def need_browser() -> Any:
    """``playwright.sync_api``, or skip the calling test module (no Playwright or Chromium)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True
        )
    return sync_api


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


class LiveServer:
    """uvicorn serving ``create_app(db)`` in a thread on a free loopback port."""

    def __init__(self, db: Path, ai_delay: float = 0.05) -> None:
        import uvicorn

        from umpire.server.main import create_app

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(db, ai_delay=ai_delay),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            # a page's long poll (/wait) must not hold the test's teardown for ten seconds
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live_server(db_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(db_path).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole session (each test opens its own context)."""
    sync_api = need_browser()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a browser test writes its screenshots."""
    folder = Path(os.environ.get("UMPIRE_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
