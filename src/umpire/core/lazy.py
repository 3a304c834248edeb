"""A reference to an object imported on first use, so a ruleset can declare its capabilities
(board, odds, scripted agent...) without importing them — and their heavy dependencies — when
it is loaded."""

from __future__ import annotations

import importlib
from typing import Any


class Lazy:
    """``Lazy("package.module:NAME")``: attribute access and calls go to ``NAME``, imported the
    first time it is needed."""

    __slots__ = ("_target", "_found")

    def __init__(self, target: str) -> None:
        self._target = target
        self._found: Any = None

    def resolve(self) -> Any:
        if self._found is None:
            module_name, _, attr = self._target.partition(":")
            self._found = getattr(importlib.import_module(module_name), attr)
        return self._found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.resolve(), name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Lazy({self._target!r})"
