"""Actions: a player's choices, as small immutable values that round-trip through JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``kind`` names it; the other fields say what it applies to.

    ``point`` is a table position in inches for movement, ``option`` any extra choice a ruleset
    needs. Two actions are equal when all fields are equal (points compared after rounding to
    a hundredth of an inch, which is how they are stored).
    """

    kind: str
    unit: str | None = None
    target: str | None = None
    point: tuple[float, float] | None = None
    option: str | None = None

    def __post_init__(self) -> None:
        if self.point is not None:
            rounded = (round(float(self.point[0]), 2), round(float(self.point[1]), 2))
            object.__setattr__(self, "point", rounded)

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
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        point = data.get("point")
        return cls(
            kind=str(data["kind"]),
            unit=data.get("unit"),
            target=data.get("target"),
            point=(float(point[0]), float(point[1])) if point is not None else None,
            option=data.get("option"),
        )
