"""Plain frozen dataclasses built from data mappings without a validation library (issue 19).

A ruleset's built-in data (tables, house rules, unit profiles) is read on every cold
``umpire odds`` call; validating it with pydantic costs more than the answer. The values are
therefore plain frozen dataclasses, built here from a mapping by their annotations
(:func:`build`): nested dataclasses, ``list``/``tuple``/``frozenset``/``dict``, ``X | None``,
``Literal`` (taken as is), ``int``/``float``/``bool``/``str``, :class:`~fractions.Fraction`
and enums. Nothing is checked beyond the shape: a user's file is validated by the ruleset's
pydantic schema first (imported where that file is read), and a test validates every packaged
file with the schema and checks that :func:`build` gives the same values, so the two cannot
drift apart.

A class may read its own notation with a classmethod ``plain_from(data)`` (called instead of
the field by field build).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

T = TypeVar("T")

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = typing.get_type_hints(cls)
    return found


def build(cls: type[T], data: Any) -> T:
    """``data`` (a mapping as read from YAML, or a validated model's ``model_dump()``) as an
    instance of the dataclass ``cls``, field by field by the annotations."""
    value: T = _convert(cls, data, cls.__name__)
    return value


def _convert(kind: Any, data: Any, where: str) -> Any:
    origin = get_origin(kind)
    if origin is None:
        if kind is Any or kind is object:
            return data
        if kind is type(None):
            if data is not None:
                raise ValueError(f"{where}: expected nothing, got {data!r}")
            return None
        if isinstance(kind, type):
            if dataclasses.is_dataclass(kind):
                if isinstance(data, kind):
                    return data
                reader = getattr(kind, "plain_from", None)
                if reader is not None:
                    return reader(data)
                return _dataclass(kind, data, where)
            if issubclass(kind, enum.Enum):
                return data if isinstance(data, kind) else kind(data)
            if kind is bool:
                if not isinstance(data, bool):
                    raise ValueError(f"{where}: {data!r} is not true or false")
                return data
            if kind is int:
                if isinstance(data, bool) or not isinstance(data, int):
                    raise ValueError(f"{where}: {data!r} is not a whole number")
                return data
            if kind is float:
                if isinstance(data, bool) or not isinstance(data, int | float):
                    raise ValueError(f"{where}: {data!r} is not a number")
                return float(data)
            if kind is str:
                if not isinstance(data, str):
                    raise ValueError(f"{where}: {data!r} is not text")
                return data
            if kind is Fraction:
                return data if isinstance(data, Fraction) else Fraction(str(data).strip())
        raise TypeError(f"{where}: cannot build a {kind!r}")
    args = get_args(kind)
    if origin is Literal:
        if data not in args:
            raise ValueError(f"{where}: {data!r} is not one of {args}")
        return data
    if origin is Union or origin is types.UnionType:
        if data is None and type(None) in args:
            return None
        kinds = [a for a in args if a is not type(None)]
        if len(kinds) == 1:
            return _convert(kinds[0], data, where)
        for one in kinds:  # the first that reads it (as pydantic's smart union mostly does)
            try:
                return _convert(one, data, where)
            except (ValueError, TypeError):
                continue
        raise ValueError(f"{where}: {data!r} is none of {kinds}")
    if origin is list:
        return [_convert(args[0], v, f"{where}.{i}") for i, v in enumerate(_items(data, where))]
    if origin is tuple:
        items = _items(data, where)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, f"{where}.{i}") for i, v in enumerate(items))
        if len(items) != len(args):
            raise ValueError(f"{where}: {len(items)} items, not {len(args)}")
        return tuple(
            _convert(a, v, f"{where}.{i}") for i, (a, v) in enumerate(zip(args, items, strict=True))
        )
    if origin is frozenset:
        return frozenset(_convert(args[0], v, where) for v in _items(data, where))
    if origin is dict or origin is Mapping:
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: {data!r} is not a mapping")
        return {
            _convert(args[0], k, f"{where} key"): _convert(args[1], v, f"{where}.{k}")
            for k, v in data.items()
        }
    raise TypeError(f"{where}: cannot build a {kind!r}")


def build_fields(cls: type[T], data: Mapping[str, Any]) -> T:
    """``cls`` built field by field from ``data`` (for a ``plain_from`` that has read its own
    notation first)."""
    value: T = _dataclass(cls, data, cls.__name__)
    return value


def _items(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list | tuple | set | frozenset):
        raise ValueError(f"{where}: {data!r} is not a list")
    return list(data)


def _dataclass(kind: type, data: Any, where: str) -> Any:
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: {data!r} is not a mapping")
    hints = _hints(kind)
    names = {f.name for f in dataclasses.fields(kind) if f.init}
    extra = sorted(str(k) for k in data if k not in names)
    if extra:
        raise ValueError(f"{where}: unknown field(s) {extra}")
    return kind(**{k: _convert(hints[k], v, f"{where}.{k}") for k, v in data.items()})


def as_data(value: Any) -> Any:
    """A plain dataclass (or anything holding them) back as mappings, lists and scalars, as
    a pydantic model's ``model_dump()`` gives it (enums and tuples kept)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: as_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_data(v) for v in value]
    if isinstance(value, tuple):
        return tuple(as_data(v) for v in value)
    if isinstance(value, frozenset):
        return frozenset(as_data(v) for v in value)
    return value


def _jsonable(value: Any) -> Any:
    """``as_data`` output in the form pydantic's ``mode="json"`` gives: enums by value,
    tuples and sets as lists, fractions as text."""
    if isinstance(value, dict):
        return {k.value if isinstance(k, enum.Enum) else k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [_jsonable(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    return value


def _pick(data: dict[str, Any], include: Any, exclude: Any, exclude_none: bool) -> dict[str, Any]:
    return {
        k: v
        for k, v in data.items()
        if (include is None or k in include)
        and (exclude is None or k not in exclude)
        and not (exclude_none and v is None)
    }


class PlainModel:
    """The part of pydantic's model interface the readers of a plain dataclass use, so that
    turning a model into a plain dataclass needs no change where it is read:
    ``model_validate`` (checked by the pydantic schema named by ``plain_schema``,
    "module:Class", imported only then), ``model_copy(update=...)``, ``model_dump`` and
    ``model_dump_json`` (top-level ``include``/``exclude``/``exclude_none``, built without
    pydantic)."""

    plain_schema: typing.ClassVar[str] = ""

    @classmethod
    def model_validate(cls: type[T], data: Any) -> T:
        import importlib

        schema = getattr(cls, "plain_schema", "")
        if not schema:
            raise TypeError(f"{cls.__name__} names no schema to validate with")
        module, _, name = schema.partition(":")
        checked = getattr(importlib.import_module(module), name).model_validate(data)
        return build(cls, checked.model_dump())

    def model_copy(self: T, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> T:
        del deep  # frozen values: a copy shares them
        return dataclasses.replace(self, **dict(update or {}))  # type: ignore[type-var]

    def model_dump(
        self,
        *,
        mode: str = "python",
        include: Any = None,
        exclude: Any = None,
        exclude_none: bool = False,
    ) -> dict[str, Any]:
        data: dict[str, Any] = as_data(self)
        data = _pick(data, include, exclude, exclude_none)
        return _jsonable(data) if mode == "json" else data

    def model_dump_json(self, *, include: Any = None, exclude: Any = None) -> str:
        import json

        data = self.model_dump(mode="json", include=include, exclude=exclude)
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
