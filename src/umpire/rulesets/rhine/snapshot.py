"""Read-only containers, for the parts of an observation that are made once and handed out
again while the state's part is unchanged (every reader then holds the same copy, so none
may change it).

They are a ``dict`` and a ``list`` (JSON, equality with plain data and every reader of a
mapping or a sequence take them as they are) whose changing methods raise ``TypeError``;
``copy.copy``/``deepcopy`` give a plain ``dict``/``list`` (a copy is made to be changed),
``pickle`` the same read-only container again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn, SupportsIndex


def _refuse(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise TypeError("an observation's part is read-only: copy it to change it (dict(x), list(x))")


class ReadOnlyDict(dict[str, Any]):
    """A ``dict`` that cannot be changed after it is made."""

    __slots__ = ()

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        from copy import deepcopy

        return {k: deepcopy(v, memo) for k, v in self.items()}


class ReadOnlyList(list[Any]):
    """A ``list`` that cannot be changed after it is made."""

    __slots__ = ()

    def __init__(self, items: Iterable[Any] = ()) -> None:
        super().__init__(items)

    __setitem__ = _refuse
    __delitem__ = _refuse
    __iadd__ = _refuse
    __imul__ = _refuse
    append = _refuse
    extend = _refuse
    insert = _refuse
    remove = _refuse
    clear = _refuse
    sort = _refuse
    reverse = _refuse

    def pop(self, index: SupportsIndex = -1) -> NoReturn:
        _refuse()

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (list(self),))

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        from copy import deepcopy

        return [deepcopy(v, memo) for v in self]
