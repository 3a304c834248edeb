"""The map a side is shown in the terminal, whatever the ruleset.

A continuous table (the ``board`` capability's ``layout: continuous``) is drawn by
:mod:`umpire.terminal.tablemap`, a hex map by :mod:`umpire.terminal.hexmap` (inside 80
columns); a ruleset's own ``render`` capability draws the rest (Portable's squares). All are
built for one viewer from what that viewer may see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from umpire.core.game import Game
from umpire.terminal.hexmap import draw_hexes, is_hex
from umpire.terminal.places import Places
from umpire.terminal.tablemap import draw_table, is_table


def board_for(game: Game, viewer: str | None) -> Mapping[str, Any] | None:
    """The web table's board for ``viewer`` (from its observation), or ``None`` when the
    ruleset has no board or there is no single viewer (the umpire's view of a hidden game)."""
    cap = game.ruleset.capabilities.board
    if cap is None or viewer is None:
        return None
    try:
        found: Mapping[str, Any] = cap.board(game, game.observation(viewer), viewer)
    except (KeyError, AttributeError, TypeError, ValueError):
        return None
    return found


def places_for(game: Game, viewer: str | None) -> Places | None:
    """Place names for a continuous table (``None`` for grids: squares name themselves)."""
    board = board_for(game, viewer)
    if board is None or not is_table(board):
        return None
    return Places(board)


def drawing(game: Game, viewer: str | None) -> Text | str | None:
    """The map ``viewer`` may see: the table drawn from its board, or the ruleset's own
    render; ``None`` when the ruleset draws nothing for this viewer."""
    caps = game.ruleset.capabilities
    board = board_for(game, viewer)
    if board is not None and is_table(board):
        return draw_table(board, game.ruleset.meta.players, caps.side_colours, viewer)
    if board is not None and is_hex(board):
        return draw_hexes(board, game.ruleset.meta.players)
    if caps.render is not None:
        return caps.render(game.state, viewer)
    return None


class MapShower:
    """Prints a viewer's map, and on :meth:`refresh` only when it changed since it last
    printed that viewer's map (so a redraw after each action repeats nothing)."""

    def __init__(self, console: Any, game: Game) -> None:
        self.console = console
        self.game = game
        self.last: dict[str | None, str] = {}

    def show(self, viewer: str | None) -> bool:
        picture = drawing(self.game, viewer)
        if picture is None:
            return False
        self._print(picture)
        self.last[viewer] = str(picture)
        return True

    def refresh(self, viewer: str | None) -> bool:
        picture = drawing(self.game, viewer)
        if picture is None or self.last.get(viewer) == str(picture):
            return False
        self._print(picture)
        self.last[viewer] = str(picture)
        return True

    def _print(self, picture: Text | str) -> None:
        if isinstance(picture, Text):
            self.console.print(picture, highlight=False, crop=False, overflow="fold")
        else:
            self.console.print(picture, markup=False, highlight=False)
