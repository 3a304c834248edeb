"""Make the README's screenshot of the companion page (``docs/images/companion-page.png``).

Starts the web table on a free loopback port over a temporary folder, opens the companion page
in Debian's Chromium (driven by Playwright, no download), starts a Portable Wargame game at a
physical table (BLUE you, RED the scripted AI), types the dice a player would roll until BLUE
is to decide, measures once, and saves a screenshot of the page::

    python3 docs/screenshots.py                 # writes docs/images/companion-page.png
    python3 docs/screenshots.py --out /tmp/shots

Needs the test dependencies (``pip install -e ".[test]"``) and ``/usr/bin/chromium``.
"""

from __future__ import annotations

import argparse
import itertools
import re
import socket
import tempfile
import threading
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
HERE = Path(__file__).resolve().parent
FACES = itertools.cycle([3, 5, 2, 6, 1, 4, 5, 3])  # the dice "rolled at the table"


def serve(folder: Path) -> tuple[str, object, threading.Thread]:
    import uvicorn

    from umpire.server.main import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(
        create_app(folder / "games.sqlite3", ai_delay=0.0),
        host="127.0.0.1",
        port=port,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline:
            raise SystemExit("the web table did not start")
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server, thread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "images")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="umpire-shots-") as folder:
        url, server, thread = serve(Path(folder))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 860})
                page.goto(url + "/companion")
                page.wait_for_selector("#c-sides select", state="attached")
                page.select_option("#c-ruleset", "portable")
                page.select_option("#c-scenario", "armoured-meeting")
                page.select_option("#c-side-blue", "me")
                page.select_option("#c-side-red", "scripted")
                page.fill("#c-seed", "1")
                page.click("#c-start")
                page.wait_for_url(re.compile(r"/companion/[A-Za-z0-9_-]+$"))
                page.wait_for_selector("#ask:not(:empty)")

                def send(line: str) -> None:
                    with page.expect_response(re.compile(r"/enter$")):
                        page.fill("#enter", line)
                        page.click("#enter-go")
                    page.wait_for_function("() => !document.body.classList.contains('busy')")

                def state() -> dict[str, object]:
                    game = page.url.rsplit("/", 1)[1]
                    return dict(
                        page.evaluate(f"async () => (await fetch('/api/companion/{game}')).json()")
                    )

                decisions = 0
                while decisions < 2:  # BLUE retreats a tank hit by artillery, then activates
                    now = state()
                    ask = now["ask"]
                    assert isinstance(ask, dict)
                    if ask["kind"] == "decide":
                        decisions += 1
                        if decisions == 2:
                            break
                        send("1")
                    else:
                        send(
                            " ".join(
                                str(min(next(FACES), ask["sides"])) for _ in range(ask["count"])
                            )
                        )
                send("1")  # activate the first unit: the menu now proposes its moves
                page.fill("#m-a", "B2")
                page.fill("#m-b", "F6")
                with page.expect_response(re.compile(r"/enter$")):
                    page.click("#measure-form button")
                page.wait_for_function("() => !document.body.classList.contains('busy')")
                page.evaluate("() => window.scrollTo(0, 0)")
                shot = args.out / "companion-page.png"
                page.screenshot(path=str(shot))
                print(f"wrote {shot}")
                browser.close()
        finally:
            server.should_exit = True  # type: ignore[attr-defined]
            thread.join(timeout=10)


if __name__ == "__main__":
    main()
