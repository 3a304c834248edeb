"""A terminal drawing of the table as one side sees it (one character per inch)."""

from __future__ import annotations

from umpire.rulesets.bookgun.common import world
from umpire.rulesets.bookgun.state import BookGunState

MARK = {"army": "A", "insurgents": "I", "civilians": "c"}


def render(state: BookGunState, viewer: str | None) -> str:
    w = world(state)
    width, height = int(w.spec.width), int(w.spec.height)
    grid = [["." for _ in range(width)] for _ in range(height)]
    for y in range(height):
        for x in range(width):
            p = (x + 0.5, y + 0.5)
            if w.building_at(p) is not None:
                grid[y][x] = "#"
            elif w.in_area(p, w.high_walls) or w.in_area(p, w.low_walls):
                grid[y][x] = "="
            elif w.in_rough(p):
                grid[y][x] = ","
            elif w.on_road(p):
                grid[y][x] = " "
    hidden = {u.id for u in state.units.values() if u.concealed and viewer not in (None, u.side)}
    for m in state.markers.values():
        x, y = int(m.x), int(m.y)
        if 0 <= x < width and 0 <= y < height:
            grid[y][x] = "?"
    for f in state.figures.values():
        if not f.present or f.unit in hidden:
            continue
        x, y = int(f.x), int(f.y)
        if 0 <= x < width and 0 <= y < height:
            ch = MARK.get(f.side, "x")
            grid[y][x] = ch.lower() if f.status == "wounded" else ch
    lines = [
        f"turn {state.flow.turn}/{w.spec.turns}  phase {state.flow.phase}  card {state.card or '-'}"
        f"  deck {len(state.deck.pile)} left"
    ]
    lines += ["".join(row) for row in reversed(grid)]
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if u.id in hidden:
            continue
        figs = state.unit_figures(u)
        fit = sum(1 for f in figs if f.fit)
        extra = " concealed" if u.concealed else ""
        lines.append(
            f"  {u.id:10} {u.name:16} {fit} fit/{len(figs)} present "
            f"{u.formation:8} {u.status}{extra}"
        )
    for m in sorted(state.markers.values(), key=lambda m: m.id):
        what = ""
        if viewer in (None, "insurgents"):
            what = f" = {m.unit or 'dummy'}"
        lines.append(f"  marker {m.id} at {m.site}{what}")
    lines += _secrets(state, viewer)
    return "\n".join(lines)


def _secrets(state: BookGunState, viewer: str | None) -> list[str]:
    """What only the viewer knows of its own side (everything for the umpire, ``None``): its
    Commander-in-Chief (bookgun.lead.cinc), and for the insurgents the cache's room
    (bookgun.conceal.cache) and the IED's site (bookgun.ied)."""
    out = []
    for side, figure in sorted(state.commanders.items()):
        if viewer in (None, side):
            unit = state.figures[figure].unit if figure in state.figures else "?"
            out.append(f"  {side} Commander-in-Chief (secret): {figure} of {unit}")
    if viewer in (None, "insurgents"):
        if state.cache_room:
            out.append(f"  insurgents' cache (secret): room {state.cache_room}")
        if state.ied is not None and not state.ied_done:
            x, y = state.ied[0], state.ied[1]
            out.append(f'  insurgents\' IED (secret): at ({x:g}", {y:g}")')
    return out
