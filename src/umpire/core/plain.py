"""Plain frozen dataclasses: one definition of each data file's shape (issue 19).

A ruleset's built-in data (tables, house rules, unit profiles) is read on every cold
``umpire odds`` call; validating it with pydantic costs more than the answer. The values are
therefore plain frozen dataclasses, built here from a mapping by their annotations
(:func:`build`): nested dataclasses, ``list``/``tuple``/``frozenset``/``dict``, ``X | None``,
``Literal`` (taken as is), ``int``/``float``/``bool``/``str``, :class:`~fractions.Fraction`
and enums. Nothing is checked beyond the shape.

The same dataclass is the schema of a user's file: its fields carry their bounds and checks as
``Annotated[int, Check(ge=1)]`` (:class:`Check`, read only by pydantic), its class may set
``__pydantic_config__`` (``{"extra": "forbid"}``) and check a whole value in
``__post_init__``, and :func:`validate` checks a user's file with
``pydantic.TypeAdapter(TheDataclass)`` (pydantic imported only then), failing as a one-line
:class:`~umpire.core.errors.DataFileError` naming the file and the field. A test validates every
packaged file that way and checks that :func:`build` gives the same values.

A class may read its own notation with a classmethod ``plain_from(data)`` (called instead of
the field by field build).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Literal, NoReturn, TypeVar, Union, get_args, get_origin

T = TypeVar("T")

Converter = Callable[[Any], Any]
_CONVERTERS: dict[Any, Converter] = {}
_FIELDS: dict[type, tuple[frozenset[str], dict[str, Converter]]] = {}


class Check:
    """The bounds and checks of one field, as ``Annotated[int, Check(ge=1)]``: read only by
    pydantic when it validates a user's file (:func:`validate`); :func:`build` leaves them
    aside. ``bounds`` are pydantic ``Field``'s (``ge``, ``gt``, ``le``, ``lt``, ``min_length``,
    ``max_length``, ``strict``, ``allow_inf_nan``, ``pattern``); ``before(value)`` reads a
    notation before the type is checked; ``after(value, data)`` checks the value (``data``: the
    fields validated before it), returns it, and raises ValueError in its own words. (A marker
    of its own rather than ``annotated_types``, which a cold ``umpire odds`` would have to
    import to evaluate the hints: it defines two dozen dataclasses and loads
    ``typing_extensions``, 10 to 28 ms in ``python -X importtime`` here; and it has no
    ``strict``.)"""

    __slots__ = ("after", "before", "bounds")

    def __init__(
        self,
        *,
        before: Callable[[Any], Any] | None = None,
        after: Callable[[Any, Mapping[str, Any]], Any] | None = None,
        **bounds: Any,
    ) -> None:
        self.before = before
        self.after = after
        self.bounds = bounds

    def __repr__(self) -> str:
        words = [f"{k}={v!r}" for k, v in self.bounds.items()]
        words += [
            f"{k}={getattr(self, k).__name__}" for k in ("before", "after") if getattr(self, k)
        ]
        return f"Check({', '.join(words)})"

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic import Field
        from pydantic_core import core_schema

        bounded = typing.Annotated[source, Field(**self.bounds)] if self.bounds else source
        schema = handler(bounded)
        after = self.after
        if after is not None:
            schema = core_schema.with_info_after_validator_function(
                lambda value, info: after(value, info.data), schema
            )
        if self.before is not None:
            schema = core_schema.no_info_before_validator_function(self.before, schema)
        return schema


class Closed:
    """A base of a dataclass whose file may hold no key its fields do not name (pydantic's
    ``extra="forbid"``, read only when :func:`validate` checks a user's file)."""

    __pydantic_config__: typing.ClassVar[dict[str, Any]] = {"extra": "forbid"}


def validate(cls: type[T], data: Any, where: object) -> T:
    """A user's file (``data``, named ``where`` in errors) checked as the dataclass ``cls`` by
    pydantic (imported only now): the value, or a one-line
    :class:`~umpire.core.errors.DataFileError` naming the file and the first failing field."""
    from pydantic import ValidationError

    from umpire.core.datafiles import format_validation_error
    from umpire.core.errors import DataFileError

    try:
        return checked(cls, data)
    except ValidationError as exc:
        message = format_validation_error(str(where), exc)
        if exc.errors()[0]["type"] == "unexpected_keyword_argument":  # a dataclass's words
            head, _, tail = message.rpartition(": Unexpected keyword argument")
            message = f"{head}: Extra inputs are not permitted{tail}"
        raise DataFileError(message) from exc


def checked(cls: type[T], data: Any) -> T:
    """``data`` checked as the dataclass ``cls`` by ``pydantic.TypeAdapter`` (pydantic's
    ValidationError if it is not one)."""
    value: T = _adapter(cls).validate_python(data)
    return value


_ADAPTERS: dict[type, Any] = {}


def _adapter(cls: type) -> Any:
    found = _ADAPTERS.get(cls)
    if found is None:
        from pydantic import TypeAdapter

        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return found


def build(cls: type[T], data: Any) -> T:
    """``data`` (a mapping as read from YAML, or a validated model's ``model_dump()``) as an
    instance of the dataclass ``cls``, field by field by the annotations."""
    value: T = _converter(cls)(data)
    return value


def build_fields(cls: type[T], data: Mapping[str, Any]) -> T:
    """``cls`` built field by field from ``data`` (for a ``plain_from`` that has read its own
    notation first)."""
    value: T = _fields_of(cls, data)
    return value


def _converter(kind: Any) -> Converter:
    """The function reading data as ``kind`` (made once per type)."""
    found = _CONVERTERS.get(kind)
    if found is None:
        found = _CONVERTERS[kind] = _make(kind)
    return found


def _fail(kind: Any, data: Any) -> NoReturn:
    name = getattr(kind, "__name__", None) or repr(kind)
    raise ValueError(f"{data!r} is not a {name}")


def _make(kind: Any) -> Converter:  # noqa: C901 (one branch per kind of annotation)
    origin = get_origin(kind)
    if origin is None:
        if kind is Any or kind is object:
            return lambda data: data
        if kind is type(None):
            return lambda data: None if data is None else _fail(kind, data)
        if not isinstance(kind, type):
            raise TypeError(f"cannot build a {kind!r}")
        if dataclasses.is_dataclass(kind):
            reader = getattr(kind, "plain_from", None)
            if reader is not None:
                return lambda data: data if isinstance(data, kind) else reader(data)
            return lambda data: data if isinstance(data, kind) else _fields_of(kind, data)
        if issubclass(kind, enum.Enum):
            return lambda data: data if isinstance(data, kind) else kind(data)
        if kind is bool:
            return lambda data: data if isinstance(data, bool) else _fail(kind, data)
        if kind is int:
            return lambda data: (
                data if isinstance(data, int) and not isinstance(data, bool) else _fail(kind, data)
            )
        if kind is float:
            return lambda data: (
                float(data)
                if isinstance(data, int | float) and not isinstance(data, bool)
                else _fail(kind, data)
            )
        if kind is str:
            return lambda data: data if isinstance(data, str) else _fail(kind, data)
        if kind is Fraction:
            return lambda data: data if isinstance(data, Fraction) else Fraction(str(data).strip())
        raise TypeError(f"cannot build a {kind!r}")
    args = get_args(kind)
    if origin is Literal:
        return lambda data: data if data in args else _fail(kind, data)
    if origin is Union or origin is types.UnionType:
        optional = type(None) in args
        kinds = [_converter(a) for a in args if a is not type(None)]
        if len(kinds) == 1:
            one = kinds[0]
            return lambda data: None if data is None and optional else one(data)
        return lambda data: None if data is None and optional else _first(kinds, kind, data)
    if origin is list:
        item = _converter(args[0])
        return lambda data: [item(v) for v in _items(data)]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _converter(args[0])
            return lambda data: tuple(item(v) for v in _items(data))
        each = [_converter(a) for a in args]

        def fixed(data: Any) -> tuple[Any, ...]:
            items = _items(data)
            if len(items) != len(each):
                raise ValueError(f"{len(items)} items, not {len(each)}")
            return tuple(c(v) for c, v in zip(each, items, strict=True))

        return fixed
    if origin is frozenset:
        item = _converter(args[0])
        return lambda data: frozenset(item(v) for v in _items(data))
    if origin is dict or origin is Mapping:
        key, value = _converter(args[0]), _converter(args[1])

        def mapping(data: Any) -> dict[Any, Any]:
            if not isinstance(data, Mapping):
                raise ValueError(f"{data!r} is not a mapping")
            return {key(k): value(v) for k, v in data.items()}

        return mapping
    raise TypeError(f"cannot build a {kind!r}")


def _first(kinds: list[Converter], kind: Any, data: Any) -> Any:
    for one in kinds:  # the first that reads it (as pydantic's smart union mostly does)
        try:
            return one(data)
        except (ValueError, TypeError):
            continue
    _fail(kind, data)


def _items(data: Any) -> list[Any] | tuple[Any, ...]:
    if isinstance(data, list | tuple):
        return data
    if isinstance(data, set | frozenset):
        return list(data)
    raise ValueError(f"{data!r} is not a list")


def _fields_of(kind: type, data: Any) -> Any:
    found = _FIELDS.get(kind)
    if found is None:
        hints = typing.get_type_hints(kind)
        init = [f.name for f in dataclasses.fields(kind) if f.init]
        found = _FIELDS[kind] = (frozenset(init), {n: _converter(hints[n]) for n in init})
    names, readers = found
    if not isinstance(data, Mapping):
        raise ValueError(f"{kind.__name__}: {data!r} is not a mapping")
    extra = [str(k) for k in data if k not in names]
    if extra:
        raise ValueError(f"{kind.__name__}: unknown field(s) {sorted(extra)}")
    out = {}
    for k, v in data.items():
        try:
            out[k] = readers[k](v)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{kind.__name__}.{k}: {exc}") from exc
    return kind(**out)


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
    ``model_validate`` (checked by pydantic, imported only then: :func:`checked`),
    ``model_copy(update=...)``, ``model_dump`` and ``model_dump_json`` (top-level
    ``include``/``exclude``/``exclude_none``, built without pydantic)."""

    @classmethod
    def model_validate(cls: type[T], data: Any) -> T:
        return checked(cls, data)

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
