"""Reading the YAML data files every ruleset keeps (units, scenarios, rules, house rules),
with one-line errors that name the file and the field."""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from umpire.core.errors import DataFileError

if TYPE_CHECKING:  # pydantic is imported by the models that validate a file, not to read one
    from pydantic import ValidationError

# libyaml's parser when PyYAML was built with it (several times faster), else the pure one
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _key(part: object) -> str:
    """A key of a field path as one short printable piece (a user's key may hold a newline)."""
    text = str(part)
    return text if text.isprintable() and len(text) <= 60 else repr(text[:60])


def format_validation_error(path: Path | str, error: ValidationError) -> str:
    """One line naming the file and the first failing field."""
    first = error.errors()[0]
    where = ".".join(_key(p) for p in first["loc"]) or "(top level)"
    more = f" (+{error.error_count() - 1} more)" if error.error_count() > 1 else ""
    message = first["msg"].removeprefix("Value error, ")  # our own validators' words
    return f"{path}: field {where}: {message}{more}"


MAX_FILE_BYTES = 32 * 1024 * 1024  # no data file a user hands us is anywhere near this


def read_text(path: Path | str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """A user's text file as UTF-8; anything wrong (missing, a folder, unreadable, a name the
    system refuses, too big, not UTF-8) is a one-line DataFileError naming the file."""
    source = Path(path)
    try:
        with source.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except FileNotFoundError as exc:
        raise DataFileError(f"{source}: file not found") from exc
    except IsADirectoryError as exc:
        raise DataFileError(f"{source}: is a folder, not a file") from exc
    except (OSError, ValueError) as exc:  # permission, name too long, embedded NUL...
        reason = getattr(exc, "strerror", None) or str(exc)
        raise DataFileError(f"{str(source)[:200]}: cannot be read ({reason})") from exc
    if len(raw) > max_bytes:
        raise DataFileError(f"{source}: larger than {max_bytes // (1024 * 1024)} MB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataFileError(f"{source}: not UTF-8 text (byte {exc.start} cannot be read)") from exc


MAX_EXPANDED_VALUES = 1_000_000
"""The most values (mappings, lists and scalars) the aliases of a YAML file may add to it, each
alias counted as a full copy of what it names. The shipped files use no anchors at all. Nine
levels of nine aliases ("billion laughs") stand for nine to the ninth values in a few hundred
bytes: anything that walks them (a number check, validation, a copy) would run for hours or
fill the memory."""


def parse_yaml(text: str, source: Path | str) -> Any:
    """YAML text to data; bad syntax, absurd nesting, or aliases that hold themselves or add
    more than :data:`MAX_EXPANDED_VALUES` values is a one-line DataFileError."""
    try:
        data = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        raise DataFileError(f"{source}:{line} is not valid YAML") from exc
    except RecursionError as exc:
        raise DataFileError(f"{source}: nested too deeply") from exc
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise DataFileError(f"{source}: {exc}") from exc
    if "&" in text:  # an alias needs an anchor: without one every value is read once
        _check_aliases(data, source)
    return data


def _check_aliases(data: Any, source: Path | str) -> None:
    """Refuse (one-line DataFileError) a YAML document whose aliases make a loop (a list or
    mapping that holds itself) or add more than :data:`MAX_EXPANDED_VALUES` values to the
    values as read. Each list or mapping is sized once (depth first, without recursion), so
    the check costs the values as read, not as expanded."""
    sizes: dict[int, int] = {}  # id of a list or mapping -> the values it stands for, expanded
    read = 0  # the values as read: each list or mapping once, with its scalars
    open_ids: set[int] = set()  # the lists and mappings being sized (the path from the top)
    stack: list[tuple[Any, bool]] = [(data, False)] if isinstance(data, dict | list) else []
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        children = list(node.values()) if isinstance(node, dict) else node
        if children_done:
            open_ids.discard(key)
            sizes[key] = 1 + sum(sizes.get(id(c), 1) for c in children)
            read += 1 + sum(1 for c in children if not isinstance(c, dict | list))
            # the values read so far include all this one holds: more than the budget beyond
            # them is more than the budget beyond the whole file
            if sizes[key] - read > MAX_EXPANDED_VALUES:
                raise DataFileError(
                    f"{source}: YAML aliases add more than {MAX_EXPANDED_VALUES:,} values"
                )
        elif key in open_ids:
            raise DataFileError(f"{source}: a YAML alias names a value that holds it (a loop)")
        elif key not in sizes:
            open_ids.add(key)
            stack.append((node, True))
            stack += [(c, False) for c in children if isinstance(c, dict | list)]


def parse_json(text: str, source: Path | str) -> Any:
    """JSON text to data; bad syntax, absurd nesting or a huge number is a one-line
    DataFileError naming the line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(f"{source}: line {exc.lineno}: not valid JSON ({exc.msg})") from exc
    except RecursionError as exc:
        raise DataFileError(f"{source}: nested too deeply") from exc
    except ValueError as exc:  # integers beyond 4,300 digits
        raise DataFileError(f"{source}: {exc}") from exc


def parse_toml(text: str, source: Path | str) -> dict[str, Any]:
    """TOML text to data, with the same one-line errors."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{source}: not valid TOML ({exc})") from exc
    except RecursionError as exc:
        raise DataFileError(f"{source}: nested too deeply") from exc
    except ValueError as exc:
        raise DataFileError(f"{source}: {exc}") from exc


def load_yaml(path: Path) -> Any:
    """Read a YAML file; a missing file or bad syntax becomes a one-line DataFileError."""
    return parse_yaml(read_text(path), path)


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``override`` merged over ``base``, mapping by mapping (a house-rules override gives only
    the keys it changes)."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


MAX_MAGNITUDE = 10_000
"""No number in any ruleset's house rules or tables is larger (the largest is a 1,000-inch
"any range" band): a larger one is a mistake, and could make a game roll a billion dice."""


def check_numbers(data: Any, source: Path | str, where: str = "") -> None:
    """Every number in ``data`` (mappings and lists, walked without recursion) is finite and
    within :data:`MAX_MAGNITUDE`; else a one-line DataFileError naming the field."""
    stack: list[tuple[str, Any]] = [(where, data)]
    while stack:
        field, value = stack.pop()
        if isinstance(value, dict):
            stack += [(f"{field}.{_key(k)}" if field else _key(k), v) for k, v in value.items()]
        elif isinstance(value, list | tuple):
            stack += [(f"{field}.{i}" if field else str(i), v) for i, v in enumerate(value)]
        elif isinstance(value, bool) or not isinstance(value, int | float):
            continue
        elif isinstance(value, float) and not math.isfinite(value):
            raise DataFileError(
                f"{source}: field {field or '(top level)'}: {value} is not a finite number"
            )
        elif abs(value) > MAX_MAGNITUDE:
            big = isinstance(value, int) and value.bit_length() > 1000
            shown = "a number of hundreds of digits" if big else f"{float(value):.3g}"
            raise DataFileError(
                f"{source}: field {field or '(top level)'}: {shown} is beyond "
                f"{MAX_MAGNITUDE:,} either way"
            )


def load_override(path: Path, check: Callable[[dict[str, Any], str], object]) -> dict[str, Any]:
    """A user's house-rules override file, checked by ``check(data, source)`` (which raises a
    one-line DataFileError) before it is used; every number in it must be finite and within
    :data:`MAX_MAGNITUDE` (:func:`check_numbers`)."""
    data = load_yaml(Path(path))
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise DataFileError(f"{path}: a house-rules file must be a mapping of keys to values")
    check_numbers(data, path)
    check(data, str(path))
    return data
