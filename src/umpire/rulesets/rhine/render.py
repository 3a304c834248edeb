"""The terminal drawing of a 7 Days to the Rhine position: a staggered hex map (odd columns on
one line, even columns half a hex lower on the next) with hex ids the player can type, terrain,
control, markers and stacks, then each stack listed."""

from __future__ import annotations

from typing import Any

from umpire.rulesets.rhine.model import world_for

STEP = 6  # characters from one hex column to the next (a cell is 10 wide)
LETTER = {"clear": ".", "forest": "F", "rough": "R", "city": "U", "mountain": "M"}
LEGEND = (
    "terrain . clear F forest R rough U city M mountain | ' Pact-controlled | "
    "P/N + count: Pact/NATO stack | * air marker | e EW-marked | r refugees"
)


def _cell(state: Any, h: str, occ: dict[str, list[str]]) -> str:
    w = world_for(state.scenario, state.options.get("house_rules"))
    t = LETTER.get(w.terrain[h], "?")
    ctrl = "'" if state.control.get(h) == "pact" else " "
    units = occ.get(h, [])
    stack = "  "
    if units:
        side = w.units[units[0]].side
        stack = f"{'P' if side == 'pact' else 'N'}{len(units)}"
    flags = ""
    if h in state.air_markers:
        flags += "*"
    if any(state.ew.get(u) for u in units):
        flags += "e"
    if h in state.refugees:
        flags += "r"
    return f"{h}{t}{ctrl}{stack}{flags:<2}"


def render(state: Any, viewer: str | None = None) -> str:
    w = world_for(state.scenario, state.options.get("house_rules"))
    occ: dict[str, list[str]] = {}
    for u, h in state.pos.items():
        if h is not None:
            occ.setdefault(h, []).append(u)
    width, height = w.spec.map.width, w.spec.map.height
    lines = [status_line(state), ""]
    for r in range(1, height + 1):
        for parity in (1, 0):  # the odd columns' line, then the even columns' half a hex lower
            line = ""
            for c in range(1, width + 1):
                if c % 2 == parity:
                    # column c starts STEP characters after column c-1: the two lines'
                    # cells interleave, so a 12-column map fits an 80-character terminal
                    line = line.ljust((c - 1) * STEP) + _cell(state, f"{c:02d}{r:02d}", occ)
            lines.append(line.rstrip())
    lines.append(LEGEND)
    for kind in ("minor_river", "major_river"):
        sides = sorted("|".join(sorted(e)) for e, k in w.rivers.items() if k == kind)
        if sides:
            lines.append(f"{kind.replace('_', ' ')} hexsides: " + " ".join(sides))
    lines.append("")
    for h in sorted(occ, key=lambda i: (i[2:], i[:2])):
        name = w.city_of.get(h)
        parts = []
        for u in sorted(occ[h]):
            info = w.units[u]
            strength = f"({info.strength})" if info.defence_only else str(info.strength)
            ma = "inf" if info.heliborne else str(info.ma)
            ew = f" EW{state.ew[u]}" if state.ew.get(u) else ""
            parts.append(f"{u} {info.type} {strength}-{ma}{ew}")
        where = f"{h} {name}" if name else h
        lines.append(f"  {where}: " + "; ".join(parts))
    to_set_up = [u for u, s in state.status.items() if s == "setup"]
    if to_set_up:
        lines.append("  to set up: " + ", ".join(to_set_up))
    waiting = [u for u, s in state.status.items() if s == "waiting"]
    if waiting:
        lines.append("  to arrive: " + ", ".join(waiting))
    ready: dict[str, int] = {}
    for m in state.cs:
        if m.status == "ready":
            key = f"{m.side} {m.nation} {m.type}"
            ready[key] = ready.get(key, 0) + 1
    lines.append(
        "  support ready: " + (", ".join(f"{k} {n}" for k, n in sorted(ready.items())) or "none")
    )
    return "\n".join(lines)


def status_line(state: Any) -> str:
    w = world_for(state.scenario, state.options.get("house_rules"))
    turn = state.flow.turn
    label = w.turns[min(turn, len(w.turns)) - 1].label
    air = f"{state.air_holder} {len(state.air_markers)}" if state.air_holder else "none"
    ew = state.ew_holder or "none"
    order = ", ".join(f"{s} {o}" for s, o in state.order.items()) or "-"
    from umpire.rulesets.rhine.victory import victory_points

    vp = victory_points(state)["total"]
    return (
        f"Turn {turn}/{len(w.turns)} {label} | phase {state.flow.phase} | orders {order} | "
        f"air {air} | EW {ew} | losses Pact {state.losses['pact']} NATO {state.losses['nato']} "
        f"| Pact VP {vp}"
    )
