"""A deployment step at the terminal (game option ``deployment: free``; the ruleset's
``deployment`` capability, :class:`umpire.core.ruleset.DeployStep`).

Instead of one long menu of every unit times every listed spot, the person picks a unit still
to place (each listed once, plus "deploy the rest for me" where the ruleset has a scripted
player, as the browser's button), then types its position as the ruleset takes it: a point
``x, y`` in inches on a continuous table (any legal point of the zone, not only the listed
ones), a square name such as ``C2`` on a grid. The zone is shown in words. A refused position
is the rules' own one-line reason and the prompt is asked again; nothing placed is lost (each
placement is an action of its own, already recorded).

Everything here reads only the side's own legal actions and its own deployment step.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from umpire.core.actions import Action
from umpire.core.errors import UmpireError
from umpire.core.ruleset import DeployStep
from umpire.core.view import Agent, View
from umpire.terminal.quit import QuitGame

if TYPE_CHECKING:
    from rich.console import Console

    from umpire.core.game import Game


class TerminalPlayer(Protocol):
    """What the deployment prompt reads of the person's seat (``session.TerminalPlayer``
    serves it; declared here so that this module does not import the session for it)."""

    side: str
    console: Console
    session: Any  # its ``maps`` show the table on request

    @property
    def game(self) -> Game: ...

    def _input(self, prompt: str) -> str: ...

    def lines(self, legal: Sequence[Action]) -> list[str]: ...

    def command(
        self, answer: str, legal: Sequence[Action], menu: Sequence[str]
    ) -> Action | None: ...


REST = "deploy the rest for me"
POINT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)\s*\"?\s*$")
SQUARE = re.compile(r"^\s*([A-Za-z]{1,2})\s*(\d{1,3})\s*$")
PLACE_AT = re.compile(r" (?:at|on) .*?(?=, hidden as \S+$|$)")


def deploy_step(game: Any, side: str, legal: Sequence[Action]) -> DeployStep | None:
    """The deployment step now due if it is ``side``'s, every legal action places a unit at
    a point (a table zone) or on a square (a grid zone), else None: the ordinary menu."""
    cap = game.ruleset.capabilities.deployment
    if cap is None or game.is_over:
        return None
    step = cap(game.state)
    if not isinstance(step, DeployStep) or step.side != side:
        return None
    if not legal or any(a.kind not in step.kinds or a.unit is None for a in legal):
        return None
    if "rects" in step.zone and all(a.point is not None for a in legal):
        return step  # a point typed in inches (Seven Days)
    if "cells" in step.zone and all(a.cell is not None for a in legal):
        return step  # a square typed by name (Portable)
    return None  # e.g. named sites (The Book and The Gun): the ordinary menu


def zone_words(step: DeployStep) -> str:
    """The zone as a person reads it: ``NATO zone: x 0-72, y 0-12"`` on a table, the rows and
    columns of squares on a grid."""
    who = step.side.upper()
    rects = step.zone.get("rects")
    if rects:
        parts = [f'x {x0:g}-{x1:g}, y {y0:g}-{y1:g}"' for x0, y0, x1, y1 in rects]
        return f"{who} zone: " + "; ".join(parts)
    cells = [str(c) for c in step.zone.get("cells", ())]
    found = [m for m in (SQUARE.match(c) for c in cells) if m]
    if found:
        cols = sorted({m.group(1).upper() for m in found}, key=lambda c: (len(c), c))
        nums = sorted({int(m.group(2)) for m in found})
        return (
            f"{who} zone: squares {cols[0]}{nums[0]}-{cols[-1]}{nums[-1]} "
            f"(columns {cols[0]}-{cols[-1]}, rows {nums[0]}-{nums[-1]})"
        )
    sites = step.zone.get("sites") or cells
    return f"{who} zone: " + ", ".join(str(s) for s in sites)


def unit_line(text: str) -> str:
    """A placement's menu line without its position: ``place Milan (milan-1), hidden as
    marker-1`` from ``place Milan (milan-1) at 31, 24 (5" from village), hidden as marker-1``."""
    return PLACE_AT.sub("", text, count=1)


class DeployPrompt:
    """The deployment prompt of one person at the terminal (see the module)."""

    def __init__(self, player: TerminalPlayer) -> None:
        self.player = player
        self.helper: Agent | None = None  # the scripted player placing "the rest"
        self.resting = False  # "deploy the rest for me" chosen at this step

    def scripted(self) -> Agent | None:
        game = self.player.game
        if game.ruleset.capabilities.scripted is None:
            return None
        if self.helper is None:
            from umpire.agents.base import make_agent

            self.helper = make_agent(
                "scripted", game.record.ruleset, self.player.side, game.record.seed
            )
        return self.helper

    def choose(self, view: View, legal: Sequence[Action], step: DeployStep) -> Action:
        player = self.player
        if self.helper is not None and self.resting:
            return self.helper.choose(view, legal)  # "deploy the rest": still placing
        firsts: dict[str, Action] = {}
        for action in legal:
            firsts.setdefault(str(action.unit), action)
        order = [p for p in step.pieces if p in firsts] + [
            u for u in firsts if u not in step.pieces
        ]
        units = [firsts[u] for u in order]
        lines = [unit_line(line) for line in player.lines(units)]
        rest = self.scripted() is not None
        shown = [*lines, REST] if rest else lines
        self.show(step, shown)
        count = len(lines) + (1 if rest else 0)
        prompt = f"choose a unit to place, 1-{count} (or 'map', 'undo', 'help', 'quit'): "
        while True:
            answer = player._input(prompt)
            if rest and answer.strip() == str(len(lines) + 1):
                self.resting = True
                helper = self.scripted()
                assert helper is not None
                return helper.choose(view, legal)
            chosen = player.command(answer, units, lines)
            if chosen is None:
                continue
            if not any(chosen is u for u in units):  # a whole placement typed ('place X Y')
                return chosen
            placed = self.position(chosen, step)
            if placed is not None:
                return placed
            self.show(step, shown)  # 'back': the units again

    def show(self, step: DeployStep, lines: Sequence[str]) -> None:
        """The zone in words and the numbered units to place."""
        console = self.player.console
        console.print(f"  {zone_words(step)}", markup=False, highlight=False)
        for index, line in enumerate(lines, 1):
            console.print(f"  {index:>3}. {line}", markup=False, highlight=False)

    def position(self, unit: Action, step: DeployStep) -> Action | None:
        """Ask where ``unit``'s piece goes until a legal placement is typed (None: 'back')."""
        player, console = self.player, self.player.console
        grid = "rects" not in step.zone
        if grid:
            example = str(unit.cell or "C2")
            how = f"a square name (e.g. {example})"
        else:
            x, y = unit.point or (0.0, 0.0)
            how = f"x, y in inches (e.g. {x:g}, {y:g}), any point of the zone"
        name = unit_line(player.lines([unit])[0]).removeprefix(f"{unit.kind} ")
        prompt = f"  where does {name} go? {how}, or 'back': "
        while True:
            answer = player._input(prompt).strip()
            head = answer.lower()
            if not answer:
                continue
            if head in ("q", "quit", "exit"):
                raise QuitGame
            if head == "back":
                return None
            if head == "map":
                if not player.session.maps.show(player.side):
                    console.print("  this ruleset draws no map")
                continue
            if head in ("h", "help", "?"):
                console.print(f"  type {how}; 'back' for the list of units; 'map'; 'quit'")
                continue
            candidate = self.parse(answer, unit, grid)
            if candidate is None:
                console.print(f"  [red]refused:[/] write {how}")
                continue
            why = self.refusal(candidate)
            if why is None:
                return candidate
            console.print(f"  [red]refused:[/] {why}".replace("[rule", "\\[rule"))
            console.print(f"  {zone_words(step)}", markup=False, highlight=False)

    @staticmethod
    def parse(answer: str, unit: Action, grid: bool) -> Action | None:
        if grid:
            found = SQUARE.match(answer)
            if found is None:
                return None
            cell = f"{found.group(1).upper()}{found.group(2)}"
            return Action(unit.kind, unit=unit.unit, cell=cell)
        point = POINT.match(answer)
        if point is None:
            return None
        return Action(unit.kind, unit=unit.unit, point=(float(point[1]), float(point[2])))

    def refusal(self, candidate: Action) -> str | None:
        """The rules' own reason ``candidate`` may not be played, or None (tried on a branch
        of the game: nothing is changed)."""
        try:
            self.player.game.branch().apply(candidate)
        except (UmpireError, KeyError, ValueError, TypeError) as exc:
            return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return None
