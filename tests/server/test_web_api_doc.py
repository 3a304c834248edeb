"""docs/web-api.md's bot example, run as written against a live server (only its address
changed): the documented requests and fields are the ones the server answers."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from .conftest import LiveServer

DOC = Path(__file__).resolve().parents[2] / "docs" / "web-api.md"


def test_the_documented_bot_plays_a_game_to_its_end(live_server: LiveServer) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 1
    code = blocks[0].replace('"http://127.0.0.1:8000"', repr(live_server.url))
    assert live_server.url in code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {"__name__": "web_api_doc"})  # noqa: S102
    printed = out.getvalue()
    assert "'winner': " in printed and "'how': " in printed
