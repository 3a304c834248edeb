"""The companion session: Umpire beside a physical table.

A :class:`Companion` holds the digital game and talks to the players through two functions
(``read(prompt) -> line`` and ``write(line)``), so a terminal, a test script or a later browser
page drive it alike. The players' own decisions are typed (a menu number, or ``move UNIT X,Y``
with the position measured on the table); the AI sides decide from their own side's view and are
printed as steps for the table; every die is asked of the players (or rolled by Umpire where
the AI's unit is hidden, or when ``ai_dice="umpire"``) and stored in the record, which is saved
after every entry.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from umpire.agents.base import Agent, make_agent
from umpire.companion.dice import ImpossibleRoll, TableDice, parse_faces
from umpire.companion.errors import QuitCompanion, Refused
from umpire.companion.measure import Measure
from umpire.companion.words import draw_request, roll_request
from umpire.core.actions import Action
from umpire.core.chance import Chance, EnteredOutcomes
from umpire.core.errors import DataFileError, IllegalActionError, UmpireError
from umpire.core.events import Event, seen_by
from umpire.core.game import Game, replay
from umpire.core.record import Record
from umpire.play import summary

AI_KINDS = ("scripted", "search", "random")
AI_DICE = ("table", "umpire")
COMPANION_KEY = "companion"  # the record file's extra key (pending entries, sides)

HELP = (
    "commands: N (a menu line) | KIND UNIT POSITION (e.g. move t64b-3 41.5,30 or move "
    "B-inf C4) | units | los A B | range A B | sees UNIT | menu | undo | quit; at a dice "
    "prompt: the faces (e.g. 7 3), units/los/range/sees, quit"
)


def _side_name(side: str) -> str:
    return str(getattr(side, "value", side)).upper()


class Companion:
    """One companion game: the game, who plays each side, and the record file."""

    def __init__(
        self,
        game: Game,
        sides: Mapping[str, str],
        path: Path,
        read: Callable[[str], str],
        write: Callable[[str], None],
        ai_dice: str = "table",
        pending: Mapping[str, Any] | None = None,
    ) -> None:
        players = [str(s) for s in game.ruleset.meta.players]
        for side, kind in sides.items():
            if side not in players:
                raise Refused(f"no side {side!r} in {game.record.ruleset} ({', '.join(players)})")
            if kind != "me" and kind.split(":")[0].split("@")[0] not in AI_KINDS:
                raise Refused(f"side {side}: {kind!r} is not me, {', '.join(AI_KINDS)}")
        missing = [p for p in players if p not in sides]
        if missing:
            raise Refused(f"say who plays {', '.join(missing)} (--side SIDE=me or =scripted)")
        if ai_dice not in AI_DICE:
            raise Refused(f"--ai-dice must be one of {', '.join(AI_DICE)}")
        self.game = game
        self.sides = dict(sides)
        self.path = path
        self.read = read
        self.write = write
        self.ai_dice = ai_dice
        self.me = [s for s in players if sides[s] == "me"]
        self.viewer: str | None = self.me[0] if len(self.me) == 1 else None
        self.pending: dict[str, Any] | None = dict(pending) if pending else None
        self.rolling_for = ""  # the action whose dice are being asked for, in words
        if game.record.entered is None:
            game.record.entered = [[] for _ in game.record.actions]
        game.record.players = {s: k for s, k in sides.items()}
        self.agents: dict[str, Agent] = {
            side: make_agent(kind, game.record.ruleset, side, game.record.seed)
            for side, kind in sides.items()
            if kind != "me"
        }
        self.measure = Measure(game, self.viewer)

    # -- files -------------------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        game_id: str,
        seed: int,
        sides: Mapping[str, str],
        path: Path,
        read: Callable[[str], str],
        write: Callable[[str], None],
        ai_dice: str = "table",
        options: Mapping[str, Any] | None = None,
    ) -> Companion:
        from umpire.core.game import new_game

        game = new_game(game_id, seed, options)
        game.record.entered = []
        companion = cls(game, sides, path, read, write, ai_dice)
        companion.save()
        return companion

    @classmethod
    def resume(
        cls, path: Path, read: Callable[[str], str], write: Callable[[str], None]
    ) -> Companion:
        """Continue a saved companion game: replayed from its record with the entered
        outcomes, then the action that was being rolled for, with the dice already typed."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise DataFileError(f"{path}: cannot be read as a companion game ({exc})") from None
        record = Record.from_dict(raw, str(path))
        extra = raw.get(COMPANION_KEY) or {}
        if not isinstance(extra, dict) or not isinstance(extra.get("sides"), dict):
            raise DataFileError(f"{path}: field {COMPANION_KEY}: not a companion game record")
        if record.entered is None or len(record.entered) < len(record.actions):
            raise DataFileError(
                f"{path}: field entered: not every action of this game was played at the "
                "table (continue it with umpire battle --resume)"
            )
        game = replay(record)
        return cls(
            game,
            {str(k): str(v) for k, v in extra["sides"].items()},
            path,
            read,
            write,
            str(extra.get("ai_dice", "table")),
            extra.get("pending"),
        )

    def save(self) -> None:
        """The record and what is being entered now, written atomically after every entry."""
        data = self.game.record.to_dict()
        data[COMPANION_KEY] = {
            "sides": self.sides,
            "ai_dice": self.ai_dice,
            "pending": self.pending,
        }
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            tmp.replace(self.path)
        except OSError as exc:
            raise DataFileError(f"{self.path}: cannot be written ({exc.strerror})") from exc

    # -- input -------------------------------------------------------------------------------
    def _ask(self, prompt: str) -> str:
        try:
            line = self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            self.save()
            raise QuitCompanion from None
        if line.strip().lower() in ("quit", "exit"):
            self.save()
            raise QuitCompanion
        return line.strip()

    def ask_faces(self, count: int, sides: int, chance: Chance[Any] | None) -> list[int]:
        words = roll_request(count, sides, chance)
        if " for " not in words and self.rolling_for:  # a roll the ruleset made bare
            # the roll may be for a step the action led to (a retreat, a morale test), so it
            # names the action being resolved, not a purpose it cannot know
            words += f" (while resolving: {self.rolling_for})"
        self.write(f"  {words}")
        while True:
            line = self._ask(f"{count}d{sides}> ")
            try:
                if self.aid(line, self.viewer or self.me[0] if self.me else None, ()):
                    continue
                return parse_faces(line, count, sides)
            except (ImpossibleRoll, Refused) as exc:
                self.write(f"refused: {exc}")

    def ask_index(self, items: Sequence[Any], chance: Chance[Any] | None) -> int:
        self.write(f"  {draw_request(items, chance)}")
        names = [str(i).lower() for i in items]
        while True:
            line = self._ask("card> ").lower()
            if line in names:
                return names.index(line)
            self.write(f"refused: {line!r} is not a card that can be drawn now")

    # -- the game ----------------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        """Play to the end (or until the players quit: :class:`QuitCompanion`)."""
        self.write(f"Companion game saved after every entry in {self.path}")
        self.write(self.measure.table_words())
        if not self.game.record.actions and self.pending is None:
            for event in seen_by(self.game.events, self.viewer):  # the set-up, as dealt
                if event.text:
                    self.write(f"  - {event.text}")
        if self.pending is not None:
            pending = self.pending
            self.write("continuing the action being rolled for when the game was saved")
            self.play(
                Action.from_dict(pending["action"]),
                seeded=bool(pending.get("seeded")),
                prefilled=list(pending.get("entered") or []),
            )
        while not self.game.is_over:
            side = self.game.to_act
            if side is None:
                break
            if side in self.me:
                self.decide(side)
            else:
                self.ai_turn(side)
        data = summary(self.game)
        self.game.record.result = data
        self.save()
        self.write(f"Game over: {data['winner']} ({data['how']}). Record: {self.path}")
        return data

    def play(
        self, action: Action, seeded: bool = False, prefilled: Sequence[Mapping[str, Any]] = ()
    ) -> list[Event]:
        """Apply ``action`` with the table's dice; the entries are saved as they are typed."""
        self.pending = {"action": action.to_dict(), "seeded": seeded, "entered": list(prefilled)}
        self.save()
        self.rolling_for = "" if seeded else self._words(action)

        def entered(entries: list[dict[str, Any]]) -> None:
            assert self.pending is not None
            self.pending["entered"] = entries
            self.save()

        table = TableDice(
            self.game.state.rng,
            self.ask_faces,
            self.ask_index,
            prefilled=prefilled,
            seeded=seeded,
            on_entry=entered,
        )
        try:
            events = self.game.apply_with(action, table)
        except IllegalActionError as exc:
            self.pending = None
            self.save()
            raise Refused(str(exc)) from None
        assert self.game.record.entered is not None
        self.game.record.entered.append(table.entries)
        self.pending = None
        self.save()
        for event in seen_by(events, self.viewer):
            if event.text:
                self.write(f"  - {event.text}")
        return events

    def _words(self, action: Action) -> str:
        """The action in the ruleset's words, or its fields when the ruleset cannot word it
        (a position typed that no menu line proposed)."""
        try:
            return self.game.describe(action)
        except (UmpireError, KeyError, ValueError, TypeError):
            return " ".join(f"{k}={v}" for k, v in action.to_dict().items())

    def ai_turn(self, side: str) -> None:
        legal = self.game.legal_actions()
        action = self.agents[side].choose(self.game.view(side), legal)
        visible = self.viewer is None or self.measure.visible_to(action.unit, self.viewer)
        if action.unit is not None and visible:
            self.write(f"{_side_name(side)}: {self.instruction(side, action)}")
        elif action.unit is None:
            # cards, passes, secret choices: what the players may know of it is in the events
            self.write(f"{_side_name(side)} decides:")
        else:
            self.write(f"{_side_name(side)} acts with a unit you cannot see (Umpire keeps it)")
        self.play(action, seeded=self.ai_dice == "umpire" or not visible)

    def instruction(self, side: str, action: Action) -> str:
        """The AI's decision as a step for the physical table."""
        words = self.game.describe(action)
        if action.point is not None and action.unit is not None:
            unit = self.measure.unit_of(action.unit, side)
            if unit is not None:
                here = self.measure.spot_words((float(unit["x"]), float(unit["y"])))
                there = self.measure.spot_words(action.point)
                return f"{words} - move it from {here} to {there} on the table"
        return words

    def menu(self, side: str, legal: Sequence[Action]) -> None:
        self.write(f"{_side_name(side)} to decide:")
        for number, action in enumerate(legal, 1):
            self.write(f"{number:>4}. {self.game.describe(action)}")

    def decide(self, side: str) -> None:
        legal = self.game.legal_actions()
        self.menu(side, legal)
        while True:
            line = self._ask(f"{side}> ")
            try:
                if self.command(side, line, legal):
                    return
            except Refused as exc:
                self.write(f"refused: {exc}")

    def command(self, side: str, line: str, legal: Sequence[Action]) -> bool:
        """Do what ``line`` says; True once an action was played (or the game rewound)."""
        words = line.split()
        if not words:
            return False
        head = words[0].lower()
        if head.isdigit():
            number = int(head)
            if not 1 <= number <= len(legal):
                raise Refused(f"no menu line {number} (1-{len(legal)})")
            self.play(legal[number - 1])
            return True
        if head == "menu":
            self.menu(side, legal)
            return False
        if self.aid(line, self.viewer or side, legal):
            return False
        if head == "undo":
            self.undo()
            return True
        kinds = {a.kind for a in legal if a.unit is not None}
        if head in kinds:
            self.play(self.entered_action(side, head, words[1:], legal))
            return True
        raise Refused(f"{line!r} is not understood; {HELP}")

    def aid(self, line: str, side: str | None, legal: Sequence[Action]) -> bool:
        """The measuring aids and help, at any prompt; True when ``line`` was one of them."""
        words = line.split()
        head = words[0].lower() if words else ""
        if head in ("help", "?"):
            self.write(HELP)
            return True
        if head not in ("units", "los", "range", "sees"):
            return False
        if side is None:
            raise Refused("measuring needs a side at the table (--side SIDE=me)")
        if head == "units":
            for line_out in self.measure.unit_lines(side):
                self.write(line_out)
        elif head in ("los", "range"):
            if len(words) != 3:
                raise Refused(f"{head} needs two units or positions: {head} A B")
            a = self.measure.spot(words[1], side)
            b = self.measure.spot(words[2], side)
            self.write(self.measure.between(a, b))
        else:
            if len(words) != 2:
                raise Refused("sees needs one unit: sees UNIT")
            for line_out in self.measure.sees(words[1], side, legal):
                self.write(line_out)
        return True

    def entered_action(
        self, side: str, kind: str, rest: Sequence[str], legal: Sequence[Action]
    ) -> Action:
        """``KIND UNIT [POSITION|TARGET]`` as an action: the unit by id or name, a position
        measured on the table (checked to be on it), or a target unit."""
        if not rest:
            raise Refused(f"{kind} needs a unit: {kind} UNIT ...")
        unit = self.measure.unit_id(rest[0], side, own=True)
        if len(rest) == 1:
            found = [a for a in legal if a.kind == kind and a.unit == unit]
            if len(found) == 1:
                return found[0]
            raise Refused(f"{kind} {rest[0]} needs a position or target ({len(found)} choices)")
        where = " ".join(rest[1:])
        with_cell = [a for a in legal if a.kind == kind and a.unit == unit and a.cell is not None]
        if with_cell:  # hexes (and squares named by cell): the rules list every cell there is
            for action in with_cell:
                if str(action.cell).lower() == where.lower():
                    return action
            raise Refused(f"{unit} cannot {kind} to {where!r} now (not a cell it may reach)")
        with_point = [a for a in legal if a.kind == kind and a.point is not None]
        if with_point:
            spot = self.measure.spot(where, side, units=False)
            return Action(kind, unit=unit, point=spot.point)
        target = self.measure.unit_id(where, side, own=False)
        for action in legal:
            if action.kind == kind and action.unit == unit and action.target == target:
                return action
        raise Refused(f"{kind} {rest[0]} at {where} is not possible now")

    # -- undo --------------------------------------------------------------------------------
    def undo(self) -> None:
        """Rewind to before the players' last decision, saying what to put back on the table."""
        record = self.game.record
        entered = record.entered or []
        twin = Game(self.game.ruleset, record.scenario, record.seed, record.options)
        actors: list[str | None] = []
        for index, action in enumerate(record.actions):
            actors.append(twin.to_act)
            twin.apply_with(action, EnteredOutcomes(twin.state.rng, entered[index]))
        mine = [i for i, a in enumerate(actors) if a in self.me]
        if not mine:
            raise Refused("nothing of yours to undo")
        keep = mine[-1]
        rewound = Record(
            ruleset=record.ruleset,
            version=record.version,
            scenario=record.scenario,
            seed=record.seed,
            options=dict(record.options),
            actions=list(record.actions[:keep]),
            players=dict(record.players),
            entered=[list(e) for e in entered[:keep]],
        )
        before = self.measure.snapshot(self.viewer or self.me[0])
        self.game = replay(rewound)
        self.measure = Measure(self.game, self.viewer)
        after = self.measure.snapshot(self.viewer or self.me[0])
        self.pending = None
        self.save()
        steps = undo_steps(before, after, self.measure)
        self.write(f"undone {len(record.actions) - keep} action(s); on the table:")
        for step in steps or ["nothing to move back"]:
            self.write(f"  - {step}")


def undo_steps(
    before: Mapping[str, Mapping[str, Any]],
    after: Mapping[str, Mapping[str, Any]],
    measure: Measure,
) -> list[str]:
    """The changes to reverse on the physical table, unit by unit."""
    steps: list[str] = []
    for uid, unit in after.items():
        name = unit.get("name", uid)
        now = before.get(uid)
        place = measure.spot_words((float(unit["x"]), float(unit["y"])))
        if now is None:
            steps.append(f"put {name} back at {place}")
            continue
        if not (
            math.isclose(float(now["x"]), float(unit["x"]))
            and math.isclose(float(now["y"]), float(unit["y"]))
        ):
            old = measure.spot_words((float(now["x"]), float(now["y"])))
            steps.append(f"move {name} back from {old} to {place}")
        for key in ("facing", "sp", "markers", "tokens", "status", "hidden", "wreck"):
            if key in unit and now.get(key) != unit.get(key):
                steps.append(f"{name}: {key} back from {now.get(key)} to {unit.get(key)}")
    for uid, unit in before.items():
        if uid not in after:
            steps.append(f"take {unit.get('name', uid)} off the table")
    return steps
