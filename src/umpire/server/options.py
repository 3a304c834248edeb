"""The game options a lobby visitor may set, checked: a ruleset's declared yes/no options,
bounded numbers, choices from a fixed list, uploaded files (force files, house rules, a rule-
switches table) and the rules picked from a list. Read by the web table's lobby
(:mod:`umpire.server.service`) and the companion lobby (:mod:`umpire.server.companion`); every
mistake is an :class:`~umpire.server.guard.ApiError` naming the field."""

from __future__ import annotations

import base64
import binascii
import json
import logging
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import Any

import yaml

from umpire.core.errors import UmpireError
from umpire.core.ruleset import Option, Ruleset
from umpire.core.switches import OPTION_KEY, load_for, with_switches
from umpire.server.guard import ApiError, check_name, finite_number, short

log = logging.getLogger("umpire.server")
UPLOAD_SUFFIXES = (".toml", ".ros", ".rosz", ".yaml", ".yml", ".json")  # files the lobby sends
MAX_SWITCHES = 200
MAX_SWITCH_FILE = 32 * 1024


def lobby_options(ruleset: Ruleset[Any], raw: Any, scenario: str | None = None) -> dict[str, Any]:
    """The game options the lobby may set: a ruleset's declared yes/no options, bounded
    numbers, choices from a fixed list, and files the visitor uploads (force files, house
    rules) as ``{"name": "my.toml", "text": "..."}`` (``"base64"`` instead of ``text`` for a
    zipped roster). Nothing the lobby sends can name a file on the server: an upload is written
    to a private temporary folder under a fixed name, read by the ruleset's own loader (which
    checks it) and deleted; the record keeps what was read (a force deployed), never a path."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ApiError(400, "options must be an object of option names and values")
    declared: dict[str, Option] = {o.name: o for o in ruleset.capabilities.options}
    out: dict[str, Any] = {}
    uploads: dict[str, Any] = {}
    house: Any = None
    for name, value in raw.items():
        check_name(name, "options")
        if name == "house_rules" and ruleset.capabilities.house_rules is not None:
            house = check_upload(value, "options.house_rules")
            continue
        if name == "rule_switches":  # the rule-switches field: umpire.server.companion
            out.update(lobby_switches(ruleset, value))
            continue
        option = declared.get(name)
        if option is None:
            raise ApiError(400, f"options: {ruleset.meta.id} has no option {name!r}")
        if option.type == "path":
            if option.per_side:
                if not isinstance(value, dict) or not value:
                    raise ApiError(
                        400, f"options.{name}: give each side's uploaded file, e.g. {{side: file}}"
                    )
                for side, file in value.items():
                    if side not in ruleset.meta.players:
                        raise ApiError(400, f"options.{name}: no side {short(side)}")
                    uploads.setdefault(option.option_key, {})[side] = check_upload(
                        file, f"options.{name}.{side}"
                    )
            else:
                uploads[option.option_key] = check_upload(value, f"options.{name}")
            continue
        if option.per_side or (option.type == "str" and not option.choices):
            raise ApiError(400, f"options.{name}: free-text names are set on the command line")
        if option.type == "bool":
            if not isinstance(value, bool):
                raise ApiError(400, f"options.{name} must be true or false")
        elif option.type in ("int", "float"):
            number = finite_number(value, f"options.{name}", bound=1e4)
            if option.type == "int":
                if not isinstance(value, int):
                    raise ApiError(400, f"options.{name} must be a whole number")
                value = int(number)
        elif value not in option.choices:
            raise ApiError(400, f"options.{name}: choose one of {', '.join(option.choices)}")
        out[option.option_key] = value
    if house is None and not uploads:
        return out
    return _read_uploads(ruleset, scenario, out, uploads, house)


def check_upload(value: Any, where: str) -> dict[str, Any]:
    """An uploaded file as the lobby sends it: a short plain file name with a known suffix and
    its text (or base64 bytes)."""
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        raise ApiError(400, f'{where} must be an uploaded file {{"name": ..., "text": ...}}')
    if set(value) - {"name", "text", "base64"}:
        raise ApiError(400, f"{where}: an upload has only name and text (or base64)")
    name = PurePath(value["name"].replace("\\", "/")).name
    suffix = PurePath(name).suffix.lower()
    if not name or len(name) > 100 or suffix not in UPLOAD_SUFFIXES:
        raise ApiError(400, f"{where}: a file name ending {', '.join(UPLOAD_SUFFIXES)}")
    if isinstance(value.get("text"), str):
        data = value["text"].encode("utf-8", "replace")
    elif isinstance(value.get("base64"), str):
        try:
            data = base64.b64decode(value["base64"], validate=True)
        except (binascii.Error, ValueError) as exc:
            raise ApiError(400, f"{where}: base64 that does not decode") from exc
    else:
        raise ApiError(400, f"{where}: the file's text (or base64) is missing")
    return {"name": name, "suffix": suffix, "data": data}


def _read_uploads(
    ruleset: Ruleset[Any],
    scenario: str | None,
    options: dict[str, Any],
    uploads: dict[str, Any],
    house: dict[str, Any] | None,
) -> dict[str, Any]:
    caps = ruleset.capabilities
    with tempfile.TemporaryDirectory(prefix="umpire-upload-") as folder:
        names: dict[str, str] = {}  # temporary path -> the visitor's file name, for messages

        def write(upload: dict[str, Any], stem: str) -> str:
            path = Path(folder) / f"{stem}{upload['suffix']}"
            path.write_bytes(upload["data"])
            names[str(path)] = upload["name"]
            return str(path)

        def plain(exc: BaseException) -> str:
            text = str(exc) or type(exc).__name__
            for path, name in names.items():
                text = text.replace(path, name)
            return text.replace(folder, "upload")

        out = dict(options)
        try:
            if house is not None:
                out["house_rules"] = caps.house_rules.load(Path(write(house, "house-rules")))  # type: ignore[union-attr]
            for key, value in uploads.items():
                if isinstance(value, dict) and "data" not in value:
                    out[key] = {side: write(f, f"{key}-{side}") for side, f in value.items()}
                else:
                    out[key] = write(value, key)
            if caps.forces is not None and uploads:
                out = caps.forces.prepare_options(scenario or "", out)
        except ApiError:
            raise
        except UmpireError as exc:
            raise ApiError(400, f"options: {plain(exc)}") from exc
        except Exception as exc:  # a file no loader foresaw (bad zip, bad encoding, ...)
            log.info("an uploaded file was refused: %r", exc)
            raise ApiError(
                400,
                f"options: an uploaded file could not be read ({type(exc).__name__}: {plain(exc)})",
            ) from exc
        if folder in json.dumps(out, default=str):
            raise ApiError(400, "options: this ruleset cannot take that file from the lobby")
        try:
            return dict(json.loads(json.dumps(out)))
        except (TypeError, ValueError) as exc:
            raise ApiError(
                400, f"options: an uploaded file holds values a record cannot keep: {exc}"
            ) from exc


def lobby_switches(ruleset: Ruleset[Any], value: Any) -> dict[str, Any]:
    """The options fragment (``{OPTION_KEY: table}``) for the lobby's ``rule_switches`` field:
    an uploaded YAML file (``{"name": ..., "text": ...}``, as ``--rules FILE``) or the rules
    picked in the list (``{rule-id: mode}``). Both are checked against the ruleset's catalogue
    by :meth:`RuleSwitches.load`; a mistake is a 400 naming the field."""
    field = f"options.{OPTION_KEY}"
    if isinstance(value, Mapping) and isinstance(value.get("name"), str) and "text" in value:
        if set(value) - {"name", "text"} or not isinstance(value["text"], str):
            raise ApiError(400, f'{field} must be an uploaded file {{"name": ..., "text": ...}}')
        label = Path(value["name"].replace("\\", "/")).name[:100] or "upload"
        if len(value["text"]) > MAX_SWITCH_FILE:
            raise ApiError(400, f"{field} ({label}): larger than {MAX_SWITCH_FILE // 1024} KB")
        text = value["text"]
    elif isinstance(value, Mapping):
        if len(value) > MAX_SWITCHES:
            raise ApiError(400, f"{field}: at most {MAX_SWITCHES} rules")
        for key, mode in value.items():
            if not isinstance(key, str) or not isinstance(mode, str) or len(key) > 200:
                raise ApiError(400, f"{field}: give rule-id: mode pairs (enforce, advise, off)")
        if not value:
            return {}
        label = "the rules picked"
        text = yaml.safe_dump(dict(value), default_flow_style=False)
    else:
        raise ApiError(400, f"{field}: give a YAML file or rule-id: mode pairs")
    with tempfile.TemporaryDirectory(prefix="umpire-switches-") as folder:
        path = Path(folder) / "rule-switches.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            switches = load_for(ruleset, path)
        except UmpireError as exc:
            message = str(exc).replace(str(path), "").lstrip(": ")
            raise ApiError(400, f"{field} ({label}): {message}") from exc
        except (yaml.YAMLError, ValueError, TypeError) as exc:  # a loader's own surprise
            raise ApiError(400, f"{field} ({label}): not a YAML rule-id: mode table") from exc
    return with_switches({}, switches)
