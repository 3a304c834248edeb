"""What the server checks before it believes a request: where it comes from, how big it is,
that its body is plain JSON of sane shape, and that names it gives cannot become paths.

Every refusal is an :class:`ApiError` (a 4xx and a one-line reason); nothing here touches a game.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from umpire.core.ruleset import Ruleset

MAX_BODY_BYTES = 64 * 1024  # an action or a new game is a few hundred bytes
MAX_DEPTH = 16  # the deepest body the API expects is 3 levels
MAX_NAME = 100  # ruleset, scenario and option names
MAX_REASON = 300  # characters of a refusal that echo what the client sent
SEED_LIMIT = 2**63  # seeds are stored as SQLite INTEGER (signed 64 bits)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class ApiError(Exception):
    """A request the server refuses: an HTTP status and a one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        reason = " ".join(reason.split())
        if len(reason) > MAX_REASON:
            reason = reason[: MAX_REASON - 1] + "…"
        super().__init__(reason)
        self.status = status
        self.reason = reason


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, to quote a client's input in a reason."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- where a request comes from --------------------------------------------------------------
def _host_name(host: str) -> str:
    """``"Example.org:8000"`` -> ``"example.org"``; ``"[::1]:80"`` -> ``"[::1]"``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def check_origin(
    method: str, headers: Mapping[str, str], allowed_hosts: frozenset[str] | None
) -> None:
    """Refuse a request for a Host the server does not answer to (DNS rebinding), and a
    state-changing request another site's page sent (a cross-site form or script).

    A browser names the page that sent a POST in ``Origin`` (and ``Sec-Fetch-Site``); it must be
    this server itself. Non-browser clients that send neither are let through: they cannot
    ride a visitor's browser."""
    host = headers.get("host", "")
    if allowed_hosts is not None and _host_name(host) not in allowed_hosts:
        raise ApiError(403, f"this server does not answer to Host {short(host)}")
    if method.upper() in SAFE_METHODS:
        return
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        raise ApiError(403, "a request from another site is refused")
    origin = headers.get("origin")
    if origin is None:
        return
    netloc = urlsplit(origin.strip()).netloc.lower() if origin.strip() != "null" else ""
    if not netloc or netloc != host.strip().lower():
        raise ApiError(403, f"a request from another site ({short(origin)}) is refused")


# -- the body --------------------------------------------------------------------------------
def check_content_type(headers: Mapping[str, str]) -> None:
    """POST bodies are JSON and say so: an HTML form cannot send ``application/json`` across
    sites without the browser asking first (and this server never says yes)."""
    media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise ApiError(415, "send the body as JSON with Content-Type: application/json")


def check_length(headers: Mapping[str, str]) -> None:
    """Refuse a body announced as larger than :data:`MAX_BODY_BYTES` before reading it."""
    declared = headers.get("content-length")
    if declared is None:
        return
    try:
        size = int(declared.strip())
    except ValueError as exc:
        raise ApiError(400, "Content-Length is not a number") from exc
    if size > MAX_BODY_BYTES:
        raise ApiError(413, f"the body is larger than {MAX_BODY_BYTES // 1024} KB")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number this API takes")


def parse_body(raw: bytes) -> Any:
    """The JSON body; malformed JSON, NaN/Infinity, integers beyond Python's digit limit and
    nesting deeper than :data:`MAX_DEPTH` are one-line 400s."""
    if len(raw) > MAX_BODY_BYTES:
        raise ApiError(413, f"the body is larger than {MAX_BODY_BYTES // 1024} KB")
    try:
        data = json.loads(raw, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"malformed JSON: {exc.msg} (line {exc.lineno})") from exc
    except UnicodeDecodeError as exc:
        raise ApiError(400, "malformed JSON: not UTF-8 text") from exc
    except RecursionError as exc:
        raise ApiError(400, "malformed JSON: nested too deeply") from exc
    except ValueError as exc:  # 4,300-digit integers, NaN
        raise ApiError(400, f"malformed JSON: {exc}") from exc
    check_depth(data)
    return data


def check_depth(data: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than ``limit`` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                raise ApiError(400, f"malformed JSON: nested deeper than {limit} levels")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


# -- values ----------------------------------------------------------------------------------
def check_name(value: Any, field: str) -> str:
    """A ruleset, scenario or option name: a short plain word, never something that could be
    read as a path (no separators, no ``..``, no leading dot, no control characters)."""
    if not isinstance(value, str):
        raise ApiError(400, f"{field} must be a string")
    if (
        not value
        or len(value) > MAX_NAME
        or value.startswith((".", "~"))
        or any(c in value for c in "/\\:")
        or ".." in value
        or any(ord(c) < 32 or ord(c) == 127 for c in value)
    ):
        raise ApiError(400, f"{field} {short(value)} is not a name this server knows")
    return value


def check_seed(value: Any) -> int:
    """A seed the game record and the database can hold: an integer in 0..2**63-1."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < SEED_LIMIT:
        raise ApiError(400, "seed must be an integer from 0 to 2**63-1")
    return value


def finite_number(value: Any, field: str, bound: float = 1e6) -> float:
    """A number within ``±bound`` (no NaN, no infinity, no thousand-digit integers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ApiError(400, f"{field} must be a number")
    if isinstance(value, int) and abs(value) > bound:
        raise ApiError(400, f"{field} is out of range")
    number = float(value)
    if not math.isfinite(number) or abs(number) > bound:
        raise ApiError(400, f"{field} is out of range")
    return number


def check_game_choice(
    body: Mapping[str, Any], fields: frozenset[str]
) -> tuple[str, str, Ruleset[Any]]:
    """The ruleset and scenario a new game asks for, each checked: no field outside
    ``fields``, a known ruleset, one of its scenarios. Returns (ruleset id, scenario, ruleset)."""
    from umpire.core.errors import UmpireError
    from umpire.core.ruleset import get_ruleset, ruleset_ids

    unknown = sorted(set(body) - fields)
    if unknown:
        raise ApiError(400, f"unknown field {short(unknown[0])}; give {sorted(fields)}")
    ruleset_id = check_name(body.get("ruleset"), "ruleset")
    scenario = check_name(body.get("scenario"), "scenario")
    if ruleset_id not in ruleset_ids():
        raise ApiError(400, f"unknown ruleset {ruleset_id!r}; known: {', '.join(ruleset_ids())}")
    try:
        ruleset = get_ruleset(ruleset_id)
        scenarios = ruleset.scenario_ids()
    except UmpireError as exc:
        raise ApiError(400, str(exc)) from exc
    if scenario not in scenarios:
        known = ", ".join(scenarios)
        raise ApiError(400, f"unknown scenario {scenario!r} for {ruleset_id}; known: {known}")
    return ruleset_id, scenario, ruleset
