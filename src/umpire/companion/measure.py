"""Measuring aids for the physical table, with the digital table's own geometry.

Positions are inches from the bottom-left corner on a continuous table (``31.5,30.2``) and
square names on a squared board (``C4``); a unit may be named instead (its id, short id or
name, as the side sees it). Line of sight and cover come from the ruleset's world: the
table's terrain (:meth:`umpire.geometry.table.Table.terrain_blocks`, the areas' ``cover``)
or the board's squares (``terrain_line_clear``). Everything is read from one side's
observation, so a measurement never shows a unit that side cannot see.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from umpire.companion.errors import Refused
from umpire.core.actions import Action
from umpire.core.errors import UmpireError
from umpire.core.game import Game
from umpire.core.ruleset import capability
from umpire.geometry import squaregrid

# statuses of units not standing on the table (Seven Days, Portable, Book and Gun words)
OFF_TABLE = frozenset({"destroyed", "removed", "off", "reserve", "embarked", "waiting", "gone"})


@dataclass(frozen=True)
class Spot:
    """A position on the table (inches or a square's column/row) and the unit there, if any."""

    point: tuple[float, float]
    unit: str | None = None


def _short(uid: str) -> str:
    return uid.split("-", 1)[1] if "-" in uid else uid


class Measure:
    """Positions, units and sight on the game's table as one side sees it."""

    def __init__(self, game: Game, viewer: str | None = None) -> None:
        self.game = game
        self.viewer = viewer
        self._places: Any = False  # built on first use
        try:
            board = capability(game.ruleset, "board")
        except UmpireError:  # a ruleset without a drawn board: positions as it names them
            board = None
        self.kind: str = getattr(board, "kind", "table") if board is not None else "table"
        world_of = getattr(game.ruleset, "world", None)
        self.world: Any = world_of(game.state) if callable(world_of) else None

    # -- the table ---------------------------------------------------------------------------
    @property
    def squares(self) -> bool:
        return self.kind == "squares"

    def size(self) -> tuple[float, float] | None:
        if self.world is None:
            return None
        if self.squares:
            grid = self.world.grid
            return float(grid.width), float(grid.height)
        table = getattr(self.world, "table", None)
        return (table.width, table.height) if table is not None else None

    def table_words(self) -> str:
        size = self.size()
        if size is None:
            return "positions: as the ruleset names them"
        if self.squares:
            last = squaregrid.label((int(size[0]) - 1, int(size[1]) - 1))
            return f"board: {int(size[0])} x {int(size[1])} squares, A1 (bottom left) to {last}"
        return (
            f"table: {size[0]:g} x {size[1]:g} inches; positions are x,y inches from the "
            "bottom-left corner"
        )

    def spot_words(self, point: tuple[float, float]) -> str:
        """A square's name, or inches from the corner with the nearest place named (the
        terminal's place names, from the board the viewer sees)."""
        if self.squares:
            return squaregrid.label((int(point[0]), int(point[1])))
        if self._places is False:
            from umpire.terminal.drawing import places_for

            try:
                self._places = places_for(self.game, self.viewer)
            except UmpireError:
                self._places = None
        where = f"({point[0]:.1f}, {point[1]:.1f})"
        if self._places is None:
            return where
        return f"{where} {self._places.name(point[0], point[1])}"

    def position(self, text: str) -> tuple[float, float]:
        """A typed position, checked to be on the table (a one-line refusal otherwise)."""
        size = self.size()
        if self.squares:
            try:
                square = squaregrid.parse_label(text)
            except ValueError as exc:
                raise Refused(str(exc)) from None
            if size is not None and not (0 <= square[0] < size[0] and 0 <= square[1] < size[1]):
                raise Refused(f"{text.upper()} is off the board ({self.table_words()})")
            return float(square[0]), float(square[1])
        parts = text.replace("(", "").replace(")", "").replace(",", " ").split()
        try:
            x, y = (float(p) for p in parts)
        except ValueError:
            raise Refused(f"{text!r} is not a position; type x,y in inches") from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise Refused(f"{text!r} is not a position; type x,y in inches")
        if size is not None and not (0 <= x <= size[0] and 0 <= y <= size[1]):
            raise Refused(f"({x:g}, {y:g}) is off the table ({self.table_words()})")
        return x, y

    # -- units as a side sees them -----------------------------------------------------------
    def units(self, side: str) -> list[Mapping[str, Any]]:
        """The pieces ``side`` sees on the table with their identity and position (hidden
        enemies are markers without one: left out). Seven Days and Portable list ``units``
        with ``uid``/``x``/``y``; Book and Gun lists ``figures`` by id."""
        observation = self.game.observation(side)
        raw = observation.get("units")
        if isinstance(raw, list):
            return [u for u in raw if isinstance(u, Mapping) and "uid" in u and "x" in u]
        figures = observation.get("figures")
        items = figures.values() if isinstance(figures, Mapping) else figures or []
        return [
            {**f, "uid": f["id"]}
            for f in items
            if isinstance(f, Mapping) and "id" in f and "x" in f
        ]

    def known(self, side: str) -> set[str]:
        """Every unit id ``side`` may name: the pieces it sees, and the units its observation
        lists by id (Book and Gun teams, 7 Days to the Rhine counters)."""
        ids = {str(u["uid"]) for u in self.units(side)}
        raw = self.game.observation(side).get("units")
        if isinstance(raw, Mapping):
            ids |= {str(k) for k in raw}
        return ids

    def snapshot(self, side: str) -> dict[str, Mapping[str, Any]]:
        return {str(u["uid"]): dict(u) for u in self.units(side) if self._on_table(u)}

    @staticmethod
    def _on_table(unit: Mapping[str, Any]) -> bool:
        return str(unit.get("status", "active")) not in OFF_TABLE and not unit.get("wreck")

    def unit_of(self, uid: str, side: str) -> Mapping[str, Any] | None:
        for unit in self.units(side):
            if unit["uid"] == uid:
                return unit
        return None

    def visible_to(self, uid: str | None, side: str) -> bool:
        return uid is None or uid in self.known(side)

    def unit_id(self, text: str, side: str, own: bool | None = None) -> str:
        """The unit ``text`` names (id, id without the side, or name), among those ``side``
        sees (``own``: its own only; False: the enemy's only)."""
        wanted = text.strip().lower()
        found: list[str] = []
        named = list(self.units(side))
        raw = self.game.observation(side).get("units")
        if isinstance(raw, Mapping):  # units listed by id (Book and Gun teams, Rhine counters)
            named += [
                {"uid": str(k), **(dict(v) if isinstance(v, Mapping) else {})}
                for k, v in raw.items()
            ]
        seen: set[str] = set()
        for unit in named:
            if str(unit["uid"]) in seen:
                continue
            seen.add(str(unit["uid"]))
            mine = str(unit.get("side")) == str(side)
            if own is not None and "side" in unit and mine != own:
                continue
            uid = str(unit["uid"])
            name = str(unit.get("name", uid)).lower()
            inner = name.split("(")[-1].rstrip(")") if "(" in name else name
            first = name.split(" ")[0]
            if wanted in (uid.lower(), _short(uid).lower(), name, inner, first):
                found.append(uid)
        exact = [uid for uid in found if uid.lower() == wanted]
        if len(exact) == 1:  # an id typed in full names that unit, whatever else it matches
            return exact[0]
        if len(found) == 1:
            return found[0]
        whose = " of yours" if own else " of the enemy" if own is False else ""
        if not found:
            raise Refused(f"no unit{whose} called {text!r} on the table (see 'units')")
        raise Refused(f"{text!r} names {len(found)} units; use the id: {', '.join(found)}")

    def spot(self, text: str, side: str, units: bool = True) -> Spot:
        """A unit (by name) or a position."""
        if units and not any(c.isdigit() for c in text[:1]) and "," not in text:
            try:
                uid = self.unit_id(text, side)
            except Refused:
                if not self.squares:
                    raise
            else:
                unit = self.unit_of(uid, side)
                assert unit is not None
                return Spot((float(unit["x"]), float(unit["y"])), uid)
        return Spot(self.position(text))

    def unit_lines(self, side: str) -> list[str]:
        lines = []
        for unit in self.units(side):
            where = self.spot_words((float(unit["x"]), float(unit["y"])))
            status = unit.get("status", "")
            lines.append(f"  {unit['uid']}: {unit.get('name', '')} at {where} {status}".rstrip())
        return lines

    # -- sight -------------------------------------------------------------------------------
    def sight(self, a: tuple[float, float], b: tuple[float, float]) -> tuple[bool, str]:
        """Whether terrain lets a see b, and the cover at b, in the digital table's geometry."""
        if self.world is None:
            return True, "no terrain known"
        if self.squares:
            sa = (int(a[0]), int(a[1]))
            sb = (int(b[0]), int(b[1]))
            clear = bool(self.world.terrain_line_clear(sa, sb))
            kind = str(self.world.kind(sb))
            cover = "in cover" if kind in ("woods", "town") else "no cover"
            return clear, f"{squaregrid.label(sb)} is {kind}, {cover}"
        table = self.world.table
        clear = not table.terrain_blocks(a, b)
        areas = [area for area in table.areas_at(b[0], b[1])]
        covered = [area.kind.name for area in areas if area.kind.cover]
        cover = f"in cover ({', '.join(covered)})" if covered else "no cover"
        return clear, cover

    def distance(self, a: tuple[float, float], b: tuple[float, float]) -> str:
        if self.squares:
            sa = (int(a[0]), int(a[1]))
            sb = (int(b[0]), int(b[1]))
            return f"{squaregrid.distance(sa, sb)} square(s)"
        return f'{math.dist(a, b):.1f}"'

    def between(self, a: Spot, b: Spot) -> str:
        clear, cover = self.sight(a.point, b.point)
        line = "clear" if clear else "blocked by terrain"
        names = (a.unit or self.spot_words(a.point), b.unit or self.spot_words(b.point))
        return (
            f"{names[0]} to {names[1]}: range {self.distance(a.point, b.point)}, "
            f"line of sight {line}, target {cover} (units in the way: look on the table)"
        )

    def sees(self, text: str, side: str, legal: Sequence[Action]) -> Iterable[str]:
        """What the unit can see (terrain) and, when it may act now, shoot (the rules)."""
        uid = self.unit_id(text, side)
        unit = self.unit_of(uid, side)
        assert unit is not None
        origin = Spot((float(unit["x"]), float(unit["y"])), uid)
        enemies = [u for u in self.units(side) if str(u.get("side")) != str(unit.get("side"))]
        yield f"{unit.get('name', uid)} at {self.spot_words(origin.point)}:"
        for enemy in enemies:
            if not self._on_table(enemy):
                continue
            there = Spot((float(enemy["x"]), float(enemy["y"])), str(enemy["uid"]))
            clear, cover = self.sight(origin.point, there.point)
            if clear:
                yield (
                    f"  sees {enemy.get('name', enemy['uid'])} at {self.spot_words(there.point)}"
                    f", {self.distance(origin.point, there.point)}, {cover}"
                )
        shots = [a for a in legal if a.unit == uid and a.target is not None]
        for action in shots:
            yield f"  can now: {self.game.describe(action)}"
        if not shots:
            yield "  no shot it may take at this decision"
