"""A game played at the terminal: the prompt and its commands, undo, saving and resuming.

At every prompt a person may type a number from the menu, ``KIND X Y`` (a point on a table),
``KIND WORDS`` (any words of an option, e.g. ``move E6`` for the square it names), ``help``,
``map``, ``why N``, ``undo`` or ``quit``. ``quit``, the end of input and Ctrl-C save the game
and say where; ``umpire battle --resume FILE`` carries on from it. At a deployment step
(``deployment: free``) the menu lists the units to place and asks for a typed position
(:mod:`umpire.terminal.deploy`).

Undo takes back the asker's last decision and what the AI players did after it, only while
nothing since was rolled, hidden from anyone or decided by another person at the table
(otherwise the prompt says why, in one line): dice rolled and secrets seen cannot be unseen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, UmpireError
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.core.record import Record, why_readable
from umpire.core.ruleset import get_ruleset
from umpire.core.view import Agent, View
from umpire.play import LazyActions, action_cap
from umpire.terminal.deploy import DeployPrompt, deploy_step
from umpire.terminal.drawing import MapShower, board_for, places_for
from umpire.terminal.places import Places
from umpire.terminal.quit import QuitGame as QuitGame
from umpire.terminal.why import attack_note, certain_losses, explain
from umpire.terminal.words import need_words, plain

EventSink = Callable[[Event], None]

HELP = """commands:
  N            choose option N of the menu
  KIND X Y     send the unit of a KIND option to the table point X Y (e.g. move 20 14.5)
  KIND WORDS   the option of that KIND whose text has those words (e.g. move E6, fire R-inf-1)
  map          draw the map as your side sees it
  why N        the rules (from the rule catalogue) and the exact odds behind option N
  undo         take back your last decision, while no dice were rolled since
  quit         save the game and stop (carry on with: umpire battle --resume FILE)
  help         this list"""


SQUARE_AND_POINT = re.compile(r"\b([A-Z]{1,2}\d{1,2}) \(\d+, ?\d+\)")


class UndoRequest(Exception):
    """Take back the last ``steps`` actions (checked by the session before it is raised)."""

    def __init__(self, steps: int) -> None:
        super().__init__(steps)
        self.steps = steps


def save_path(record: Record, folder: Path | None = None) -> Path:
    """Where a game with no file of its own is saved: ``RULESET-SCENARIO-seedN.json`` in the
    current folder (``-2``, ``-3``... rather than over another file)."""
    name = f"{record.ruleset}-{record.scenario}-seed{record.seed}"
    return free_path((folder or Path.cwd()) / name)


def free_path(base: Path) -> Path:
    """``base`` + ``.json``, or ``-2``, ``-3``... before it rather than over another file."""
    path = Path(f"{base}.json")
    count = 2
    while path.exists():
        path = Path(f"{base}-{count}.json")
        count += 1
    return path


class Session:
    """One game at the terminal: who decided each action (for undo), the map shown to each
    person, and the play loop."""

    def __init__(self, game: Game, console: Console, kinds: Mapping[str, str]) -> None:
        self.game = game
        self.console = console
        self.kinds = dict(kinds)  # side -> "human", "ai", ...
        self.maps = MapShower(console, game)
        self.actors: list[str] = []  # the side that decided each action of the record
        self.marks: list[int] = []  # the first event of each action
        self.humans = [s for s, k in self.kinds.items() if k == "human"]

    # -- building -------------------------------------------------------------------------
    @classmethod
    def resume(cls, record: Record, console: Console, kinds: Mapping[str, str]) -> Session:
        """The game of ``record`` replayed to where it stopped, remembering who decided what."""
        ruleset = get_ruleset(record.ruleset)
        if record.version != ruleset.meta.version:
            raise UmpireError(
                f"the saved game is for {record.ruleset} version {record.version}, "
                f"this Umpire has version {ruleset.meta.version}"
            )
        game = Game(ruleset, record.scenario, record.seed, record.options)
        game.record.players = dict(record.players)
        game.record.notes = dict(record.notes)  # the search's why of the moves so far
        game.record.why_public = record.why_public
        session = cls(game, console, kinds)
        for index, action in enumerate(record.actions):
            side = game.to_act
            try:
                session._apply(side or "", action)
            except IllegalActionError as exc:
                raise UmpireError(
                    f"saved game field actions.{index}: {action.to_dict()} is illegal there: {exc}"
                ) from exc
        return session

    def _apply(self, side: str, action: Action) -> list[Event]:
        mark = len(self.game.events)
        events = self.game.apply(action)
        self.actors.append(side)
        self.marks.append(mark)
        return events

    # -- undo -----------------------------------------------------------------------------
    def undo_refusal(self, side: str) -> str | int:
        """How many actions ``side``'s undo takes back, or the one-line reason it may not."""
        mine = [i for i, who in enumerate(self.actors) if who == side]
        if not mine:
            return "nothing to undo: you have not decided anything yet"
        start = mine[-1]
        for who in self.actors[start + 1 :]:
            if who != side and self.kinds.get(who) == "human":
                return f"cannot undo: {who.upper()} has decided since"
        for event in self.game.events[self.marks[start] :]:
            if event.kind == "roll":
                return "cannot undo: dice were rolled since your last decision"
            if event.visible_to is not None or event.public is not None:
                return "cannot undo: something not every side may see happened since"
        return len(self.actors) - start

    def undo(self, steps: int) -> None:
        self.game.undo(steps)
        del self.actors[-steps:]
        del self.marks[-steps:]

    # -- play -----------------------------------------------------------------------------
    def play(self, players: Mapping[str, Agent], on_event: EventSink | None = None) -> Game:
        """Let the players decide until the game ends or reaches its action cap."""
        game = self.game
        if on_event is not None:
            for event in game.events:
                on_event(event)
        limit = action_cap(game)
        while len(game.record.actions) < limit:
            side = game.to_act
            if side is None:
                break
            try:
                action = players[side].choose(game.view(side), LazyActions(game))
            except UndoRequest as request:
                self.undo(request.steps)
                self.console.print(f"  undone: {request.steps} action(s) taken back")
                continue
            reason = getattr(players[side], "last_event", None)  # a search player's why
            index = len(game.record.actions)
            if on_event is not None and isinstance(reason, Event):
                on_event(self._readable(reason))
            for event in self._apply(side, action):
                if on_event is not None:
                    on_event(event)
            if isinstance(reason, Event):  # kept in the record next to the move
                from umpire.agents.search.explain import note_of

                game.record.keep_note(index, note_of(reason))
        return game

    def _readable(self, reason: Event) -> Event:
        """The search's why as the log shows it: to its own side only (as made), or to every
        side when the game's setting (``Record.why_public``, by default every side of a
        perfect-information game) lets the other sides read it, as a replay will show it."""
        meta, public = self.game.ruleset.meta, self.game.record.why_public
        side = str(reason.get("side", ""))
        others = [s for s in meta.players if s != side]
        if others and all(why_readable(side, s, meta.information, public) for s in others):
            return Event(reason.kind, reason.text, reason.rule, **reason.data)
        return reason


class TerminalPlayer:
    """A person at the terminal playing ``side`` (see the module's commands)."""

    name = "human"

    def __init__(self, side: str, console: Console, session: Session) -> None:
        self.side = side
        self.console = console
        self.session = session
        self.last_reason = "chosen by the player"
        self.deploying = DeployPrompt(self)  # the deployment step's prompt (terminal.deploy)

    @property
    def game(self) -> Game:
        return self.session.game

    def _input(self, prompt: str) -> str:
        try:
            return input(prompt).strip()
        except EOFError:
            return "quit"

    # -- the menu -------------------------------------------------------------------------
    def lines(self, legal: Sequence[Action]) -> list[str]:
        """The menu: each option in words, places named, identical lines told apart."""
        game, side = self.game, self.side
        sides = game.ruleset.meta.players
        places = places_for(game, side)
        out = []
        for action in legal:
            text = game.describe(action)
            if places is not None and action.point is not None:
                text = places.rewrite(text, [action.point])
            elif places is None:  # a grid: the square's name says it, "E5 (4,4)" -> "E5"
                text = SQUARE_AND_POINT.sub(r"\1", text)
            if action.target is not None and "%" not in text:
                text = text.rstrip() + attack_note(game, side, action)
            out.append(need_words(plain(text, sides)))
        groups: dict[str, list[int]] = {}
        for index, line in enumerate(out):
            groups.setdefault(line, []).append(index)
        for indices in groups.values():
            if len(indices) > 1:  # tell identical lines apart by what differs between them
                for index in indices:
                    out[index] += f" [{_difference(legal, indices, index)}]"
        return out

    def hint(self, legal: Sequence[Action], places: Places | None) -> str:
        """What else may be typed here: a point or a square only where an option takes one."""
        pointed = [a for a in legal if a.point is not None or a.cell is not None]
        if not pointed:
            return "choose a number (or 'why N', 'map', 'undo', 'help', 'quit'): "
        first = pointed[0]
        if first.point is not None and places is not None:
            example = f"{first.kind} {first.point[0]:g} {first.point[1]:g}"
        else:
            words = self.lines([first])[0].split()
            square = next((w for w in reversed(words) if re.fullmatch(r"[A-Z]+\d+", w)), None)
            example = f"{first.kind} {square}" if square else f"{first.kind} WORDS"
        return f"choose a number (or '{example}', 'why N', 'map', 'undo', 'help', 'quit'): "

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        game, caps, side = self.game, view.ruleset.capabilities, self.side
        self.session.maps.refresh(side)
        status = ""
        if caps.status_line is not None:
            status = f" ({plain(caps.status_line(game.state), view.ruleset.meta.players)})"
        colour = caps.side_colours.get(side)
        style = f"bold {colour}" if colour else "bold"
        self.console.print(f"[{style}]{side.upper()}[/] to act{status}:".replace("[(", "\\[("))
        step = deploy_step(game, side, legal)
        if step is not None:  # one line a unit, then its position typed (terminal.deploy)
            return self.deploying.choose(view, legal, step)
        self.deploying.resting = False
        menu = self.lines(legal)
        for index, line in enumerate(menu, 1):
            self.console.print(f"  {index:>3}. {line}", markup=False, highlight=False)
        places = places_for(game, side)
        prompt = self.hint(legal, places)
        while True:
            answer = self._input(prompt)
            chosen = self.command(answer, legal, menu)
            if chosen is None:
                continue
            lost = certain_losses(game, side, chosen)
            if lost and not self.confirm(lost):
                continue
            return chosen

    def confirm(self, lost: Sequence[str]) -> bool:
        self.console.print("  [bold yellow]warning:[/] this choice loses, for certain:")
        for text in lost:
            self.console.print(f"    {text}", markup=False)
        return self._input("  go ahead? (y/n): ").lower() in ("y", "yes")

    def command(self, answer: str, legal: Sequence[Action], menu: Sequence[str]) -> Action | None:
        """The option ``answer`` picks, or ``None`` after handling a command or a refusal."""
        words = answer.split()
        if not words:
            return None
        head = words[0].lower()
        if head in ("q", "quit", "exit"):
            raise QuitGame
        if head in ("h", "help", "?"):
            self.console.print(HELP, markup=False)
            return None
        if head == "map":
            if not self.session.maps.show(self.side):
                self.console.print("  this ruleset draws no map")
            return None
        if head == "undo":
            found = self.session.undo_refusal(self.side)
            if isinstance(found, str):
                self.console.print(f"  {found}", markup=False)
                return None
            raise UndoRequest(found)
        if head == "why":
            if len(words) != 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= len(legal):
                self.console.print(f"  write 'why N' with N from 1 to {len(legal)}")
                return None
            index = int(words[1]) - 1
            self.console.print(f"  why {index + 1}: {menu[index]}", markup=False)
            for line in explain(self.game, self.side, legal[index]):
                self.console.print(f"    {line}", markup=False, highlight=False)
            return None
        if answer.isdigit():
            if 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            self.console.print(f"  [red]refused:[/] enter 1-{len(legal)} or a command ('help')")
            return None
        if len(words) == 3 and _number(words[1]) and _number(words[2]):
            return self.typed_point(words[0], float(words[1]), float(words[2]), legal)
        return self.typed_words(head, words[1:], legal, menu)

    def typed_point(self, kind: str, x: float, y: float, legal: Sequence[Action]) -> Action | None:
        pointed = {a.kind: a.unit for a in legal if a.point is not None}
        if not pointed:
            self.console.print("  [red]refused:[/] no option here takes a point on the table")
            return None
        unit = pointed.get(kind, next(iter(pointed.values()), None))
        candidate = Action(kind, unit=unit, point=(x, y))
        try:
            self.game.branch().apply(candidate)
        except (UmpireError, KeyError, ValueError, TypeError) as exc:
            self.console.print(f"  [red]refused:[/] {exc}".replace("[rule", "\\[rule"))
            return None
        return candidate

    def typed_words(
        self, kind: str, words: Sequence[str], legal: Sequence[Action], menu: Sequence[str]
    ) -> Action | None:
        """The one option of ``kind`` whose menu line has all ``words`` (``move E6``)."""
        wanted = [w.lower() for w in words]
        kinds = {a.kind for a in legal}
        if kind not in kinds:
            known = ", ".join(sorted(kinds))
            self.console.print(
                f"  [red]refused:[/] no {kind!r} option here (options: {known}); 'help' lists "
                "the commands",
                markup=True,
            )
            return None
        found = []
        for action, line in zip(legal, menu, strict=True):
            if action.kind != kind:
                continue
            tokens = set(_tokens(line)) | {
                str(v).lower() for v in (action.unit, action.target, action.cell, action.option)
            }
            if all(w in tokens for w in wanted):
                found.append(action)
        if len(found) == 1:
            return found[0]
        if not found:
            self.console.print(f"  [red]refused:[/] no {kind} option with {' '.join(words)}")
        else:
            numbers = ", ".join(str(list(legal).index(a) + 1) for a in found[:8])
            self.console.print(f"  several options match ({numbers}): type one of the numbers")
        return None


def _difference(legal: Sequence[Action], group: Sequence[int], index: int) -> str:
    """What sets ``legal[index]`` apart from the other options of ``group`` (same text)."""
    action = legal[index]
    words = []
    for name in ("unit", "target", "option", "cell", "card", "point", "units"):
        values = {repr(getattr(legal[i], name)) for i in group}
        value = getattr(action, name)
        if len(values) > 1 and value not in (None, ()):
            if name == "point":
                words.append(f"at {value[0]:.2f}, {value[1]:.2f}")
            elif name == "units":
                words.append(" ".join(value))
            else:
                words.append(str(value))
    return " ".join(words) or f"option {index + 1}"


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _tokens(line: str) -> list[str]:
    return [t.strip(".,;:()[]").lower() for t in line.split()]


def board_units(game: Game, side: str) -> list[Mapping[str, Any]]:
    """The units ``side``'s board shows (for tests and callers that list them)."""
    board = board_for(game, side)
    return list(board.get("units", [])) if board is not None else []
