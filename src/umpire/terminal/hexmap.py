"""A hex map (the ``board`` capability's ``layout: hex``) drawn inside 80 columns.

Columns are staggered as the printed maps are (odd columns on one line, even columns half a
hex lower on the next), three characters a hex: the terrain letter (lower case where the
first side controls it) and the stack in it (``P2``: two of the first side's units). A hex is
named by its column (the numbers across the top) and row (down the side), ``0604`` for column 6,
row 4 — the ids menus and typed commands use. Stacks, markers and river hexsides are listed
under the map. Everything comes from the viewer's board, i.e. its observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

TERRAIN = {"clear": ".", "forest": "F", "rough": "R", "city": "U", "mountain": "M"}
SECOND_SIDE = {".": ",", "F": "f", "R": "r", "U": "u", "M": "m"}


def _column_x(column: int) -> int:
    """The first character of 1-based ``column`` (steps of 3 and 4 alternately)."""
    return (column - 1) * 3 + (column - 1) // 2


def draw_hexes(board: Mapping[str, Any], sides: Sequence[str]) -> str:
    """The hex map, its key and the lists under it."""
    cells = {str(c["id"]): c for c in board.get("cells", [])}
    width, height = int(board.get("width", 0)), int(board.get("height", 0))
    first = sides[0] if sides else ""
    second = sides[1] if len(sides) > 1 else ""
    stacks: Mapping[str, Sequence[str]] = board.get("stacks", {}) or {}
    units = {str(u["id"]): u for u in board.get("units", [])}
    air = set((board.get("air") or {}).get("markers", []) or [])

    def cell_text(hex_id: str) -> str:
        cell = cells.get(hex_id)
        if cell is None:
            return "   "
        mark = TERRAIN.get(str(cell.get("kind")), "?")
        if first and cell.get("control") == first:
            mark = SECOND_SIDE.get(mark, mark.lower())
        if hex_id in air:
            mark = "*"
        here = list(stacks.get(hex_id, []))
        stack = "  "
        if here:
            side = str(units.get(here[0], {}).get("side", ""))
            stack = f"{side[:1].upper() or '?'}{min(len(here), 9)}"
        return mark + stack

    span = _column_x(width) + 3 if width else 0
    top = [" "] * span
    for column in range(1, width + 1):
        x = _column_x(column)
        top[x : x + 2] = list(f"{column:02d}")
    lines = ["   " + "".join(top).rstrip()]
    for row in range(1, height + 1):
        for parity, label in ((1, f"{row:02d} "), (0, "   ")):
            line = [" "] * span
            for column in range(1, width + 1):
                if column % 2 != parity:
                    continue
                x = _column_x(column)
                line[x : x + 3] = list(cell_text(f"{column:02d}{row:02d}"))
            lines.append(label + "".join(line).rstrip())
    f, s = first[:1].upper(), second[:1].upper()
    lines.append("key: . clear F forest R rough U city M mountain; * air marker")
    lines.append(f"     lower case (',' for clear): {first.upper()}-controlled")
    lines.append(
        f"     {f}2/{s}1: a stack of 2 {first.upper()} / 1 {second.upper()} units; "
        "hex 0604 = column 06, row 04"
    )
    for hex_id in sorted(stacks):
        names = []
        for uid in stacks[hex_id]:
            unit = units.get(uid, {})
            kind = str(unit.get("type", "")).replace("_", " ")
            strength = unit.get("strength", "")
            names.append(f"{uid} {kind} {strength}".strip())
        lines.append(f"  {hex_id}: " + "; ".join(names))
    rivers = sorted(
        f"{e['a']}|{e['b']}" for e in board.get("hexsides", []) or [] if "river" in str(e["kind"])
    )
    if rivers:
        lines.append("river hexsides: " + " ".join(rivers))
    return "\n".join(lines)


def is_hex(board: Mapping[str, Any]) -> bool:
    return board.get("layout") == "hex"
