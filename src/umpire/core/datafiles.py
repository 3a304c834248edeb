"""Reading the YAML data files every ruleset keeps (units, scenarios, rules, house rules),
with one-line errors that name the file and the field."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from umpire.core.errors import DataFileError

# libyaml's parser when PyYAML was built with it (several times faster), else the pure one
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def format_validation_error(path: Path | str, error: ValidationError) -> str:
    """One line naming the file and the first failing field."""
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    more = f" (+{error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{path}: field {where}: {first['msg']}{more}"


def load_yaml(path: Path) -> Any:
    """Read a YAML file; a missing file or bad syntax becomes a one-line DataFileError."""
    try:
        return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=_LOADER)
    except FileNotFoundError as exc:
        raise DataFileError(f"{path}: file not found") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        raise DataFileError(f"{path}:{line} is not valid YAML") from exc


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


def load_override(path: Path, check: Callable[[dict[str, Any], str], object]) -> dict[str, Any]:
    """A user's house-rules override file, checked by ``check(data, source)`` (which raises a
    one-line DataFileError) before it is used."""
    data = load_yaml(Path(path))
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise DataFileError(f"{path}: a house-rules file must be a mapping of keys to values")
    check(data, str(path))
    return data
