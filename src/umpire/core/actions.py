"""Actions: a player's choices, as small immutable values that round-trip through JSON.

One shape serves every rule system: a ``kind`` and what it applies to. A continuous-table game
names a ``unit`` and a ``point`` in inches; a hex or square game a ``cell`` id (``"0612"``,
``"E6"``); an action that moves several pieces at once (a stack attacking together, a group of
figures acting on one card) lists them in ``units``; a card game names the ``card``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload


@dataclass(frozen=True, slots=True, init=False)
class Action:
    """One decision. ``kind`` names it; the other fields say what it applies to.

    ``point`` is a table position in inches for movement, ``cell`` a grid cell id, ``units``
    the pieces of a combined action, ``card`` a card, ``option`` any extra choice a ruleset
    needs. Two actions are equal when all fields are equal (points compared after rounding to a
    hundredth of an inch, which is how they are stored).
    """

    kind: str
    unit: str | None = None
    target: str | None = None
    point: tuple[float, float] | None = None
    option: str | None = None
    units: tuple[str, ...] = ()
    cell: str | None = None
    card: str | None = None

    def __init__(
        self,
        kind: str,
        unit: str | None = None,
        target: str | None = None,
        point: tuple[float, float] | None = None,
        option: str | None = None,
        units: Iterable[str] = (),
        cell: str | None = None,
        card: str | None = None,
    ) -> None:
        # the dataclass's own __init__ and __post_init__, written out: the fields set through
        # their slots' setters (a frozen dataclass sets each through object.__setattr__), the
        # point rounded to a hundredth as floats, the units as a tuple. Menus make thousands of
        # actions a game (tests/core/test_actions_init.py holds it to the plain definition)
        _SET_KIND(self, kind)
        _SET_UNIT(self, unit)
        _SET_TARGET(self, target)
        if point is not None:
            x, y = point[0], point[1]
            point = (
                round(x if type(x) is float else float(x), 2),
                round(y if type(y) is float else float(y), 2),
            )
        _SET_POINT(self, point)
        _SET_OPTION(self, option)
        _SET_UNITS(self, units if type(units) is tuple else tuple(units))
        _SET_CELL(self, cell)
        _SET_CARD(self, card)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.target is not None:
            out["target"] = self.target
        if self.point is not None:
            out["point"] = [self.point[0], self.point[1]]
        if self.option is not None:
            out["option"] = self.option
        if self.units:
            out["units"] = list(self.units)
        if self.cell is not None:
            out["cell"] = self.cell
        if self.card is not None:
            out["card"] = self.card
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """An action from its JSON form; a field of the wrong type raises ``TypeError`` or
        ``ValueError`` (records and the server turn those into one-line errors)."""
        if not isinstance(data, dict):
            raise TypeError("an action must be a JSON object")
        kind = data["kind"]
        if not isinstance(kind, str):
            raise TypeError("action kind must be a string")
        point = data.get("point")
        parsed_point: tuple[float, float] | None = None
        if point is not None:
            if not isinstance(point, list | tuple) or len(point) != 2:
                raise TypeError("point must be [x, y]")
            x, y = (float(v) for v in point)
            if x != x or y != y or abs(x) > 1e6 or abs(y) > 1e6:  # NaN or absurd
                raise ValueError("point out of range")
            parsed_point = (x, y)
        units = data.get("units") or ()
        if not isinstance(units, list | tuple) or not all(isinstance(u, str) for u in units):
            raise TypeError("units must be a list of unit ids")
        fields = {}
        for name in ("unit", "target", "option", "cell", "card"):
            value = data.get(name)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} must be a string")
            fields[name] = value
        return cls(kind=kind, point=parsed_point, units=tuple(units), **fields)


# the slots' own setters (they bypass the frozen class's __setattr__; see Action.__init__)
def _slot_setter(name: str) -> Callable[[Action, Any], None]:
    setter: Callable[[Action, Any], None] = vars(Action)[name].__set__
    return setter


_SET_KIND = _slot_setter("kind")
_SET_UNIT = _slot_setter("unit")
_SET_TARGET = _slot_setter("target")
_SET_POINT = _slot_setter("point")
_SET_OPTION = _slot_setter("option")
_SET_UNITS = _slot_setter("units")
_SET_CELL = _slot_setter("cell")
_SET_CARD = _slot_setter("card")


class LazyActionList(Sequence[Action]):
    """A list of actions worked out only when a player first looks at it (a scripted player
    that knows what it wants need not pay for the full list; ``apply`` checks its choice)."""

    def __init__(self, make: Callable[[], list[Action]]) -> None:
        self._make = make
        self._items: list[Action] | None = None

    def _list(self) -> list[Action]:
        if self._items is None:
            self._items = self._make()
        return self._items

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._list()[index]

    def __len__(self) -> int:
        return len(self._list())

    def __iter__(self) -> Iterator[Action]:
        # the list's own iterator (Sequence's would call __getitem__ once per action)
        return iter(self._list())
