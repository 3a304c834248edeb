"""``Game``: a ruleset, a state and the record that produced it.

The record (ruleset + version, scenario, seed, actions) is the source of truth: undo and
branching rebuild the state by replaying it, so hidden information and dice can never leak
through a stored snapshot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, RecordMismatchError
from umpire.core.events import Event, seen_by
from umpire.core.record import Record
from umpire.core.rng import RandomStream
from umpire.core.ruleset import Outcome, Ruleset, get_ruleset, split_game_id
from umpire.core.switches import (
    advising,
    attach_switches,
    book_bound,
    book_only,
    ruleset_options,
)
from umpire.core.view import View  # imported once: a view is made at every decision


class Game:
    """A game in progress: ``legal_actions()``, ``apply(action)``, ``undo()``, ``record``."""

    def __init__(
        self,
        ruleset: Ruleset[Any],
        scenario: str,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.options = dict(options or {})
        # rule switches (umpire.core.switches) are the core's option: the ruleset's own
        # options go to new_state, the switches onto the state's options where its rules read
        self.state = ruleset.new_state(scenario, seed, ruleset_options(self.options))
        attach_switches(self.state, self.options)
        self.record = Record(
            ruleset=ruleset.meta.id,
            version=ruleset.meta.version,
            scenario=scenario,
            seed=seed,
            options=dict(self.options),
        )
        self.events: list[Event] = ruleset.setup_events(self.state)
        self._event_marks: list[int] = []
        self._advising = advising(self.options)  # some rule under advise (rule switches)

    # -- queries ---------------------------------------------------------------------------
    @property
    def to_act(self) -> str | None:
        """The player who must decide now (``None`` once the game is over)."""
        return self.ruleset.to_act(self.state)

    @property
    def is_over(self) -> bool:
        return self.ruleset.outcome(self.state) is not None

    @property
    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    def legal_actions(self) -> list[Action]:
        return self.ruleset.legal_actions(self.state)

    def describe(self, action: Action) -> str:
        return self.ruleset.describe(self.state, action)

    def observation(self, player: str) -> dict[str, Any]:
        """What ``player`` may see: no future dice, no opponent secrets."""
        return self.ruleset.observation(self.state, player)

    def log(self, player: str | None) -> list[Event]:
        """The events so far as ``player`` read them (``None``: all, as the umpire saw them)."""
        return seen_by(self.events, player)

    def view(self, player: str) -> View:
        """What ``player``'s agent is handed: its observation (computed when first read), its
        log, and determinised states drawn from what it cannot see (``View.determinise``, via
        ``ruleset.resample``). Agents see nothing else of the game."""
        return View(
            self.ruleset,
            player,
            lambda: self.observation(player),
            lambda: self.log(player),
            lambda rng: self._determinise(player, rng),
            legal=self.legal_actions,
            advised=self._advising,
        )

    def _determinise(self, player: str, rng: random.Random) -> Any:
        """A state for ``player``'s search: ``ruleset.resample`` of the game's state, and the
        dice to come drawn afresh when the ruleset's resample kept them (a perfect-information
        ruleset's default resample is a plain copy; the stream is hidden from every side)."""
        draws = self._draws(rng)
        twin = self.ruleset.resample(self.state, player, draws)
        stream = getattr(twin, "rng", None)
        if isinstance(stream, RandomStream) and stream == getattr(self.state, "rng", None):
            twin.rng = RandomStream(draws.getrandbits(62))
        return twin

    def _draws(self, rng: random.Random) -> random.Random:
        """The generator a determinisation is drawn with: the agent's ``rng`` mixed with a
        number the agent does not know (from the game's seed), so an agent cannot replay a
        ruleset's shuffle to work back from a determinised state to the hidden truth."""
        secret = random.Random(f"determinise/{self.record.seed}").getrandbits(64)
        return random.Random(rng.getrandbits(64) ^ secret)

    def to_dict(self) -> dict[str, Any]:
        return self.ruleset.state_to_dict(self.state)

    # -- changes ---------------------------------------------------------------------------
    def apply(self, action: Action | Mapping[str, Any]) -> list[Event]:
        """Play ``action``; raises ``IllegalActionError``, state unchanged, if rules forbid it."""
        if not isinstance(action, Action):
            action = Action.from_dict(dict(action))
        if self._advising and book_bound(self.record.players.get(str(self.to_act))):
            # a side played by a built-in agent keeps to the book under advise: its action
            # resolves as with every advised rule enforced (tests it fails, turns it ends)
            with book_only():
                new_events = self.ruleset.apply(self.state, action)
        else:
            new_events = self.ruleset.apply(self.state, action)
        self._event_marks.append(len(self.events))
        self.events.extend(new_events)
        self.record.actions.append(action)
        return new_events

    def apply_with(self, action: Action | Mapping[str, Any], stream: Any) -> list[Event]:
        """Play ``action`` with its dice taken from ``stream`` instead of the game's own (a
        physical table's, companion mode: see ``umpire.core.chance.EnteredOutcomes``); the
        game's own stream is put back afterwards."""
        inner = self.state.rng
        self.state.rng = stream
        try:
            return self.apply(action)
        finally:
            self.state.rng = inner

    def apply_entered(self, action: Action, step: list[dict[str, Any]]) -> list[Event]:
        """Play ``action`` again with the outcomes entered for it at a physical table
        (``Record.entered``); raises ``RecordMismatchError`` if the rules roll otherwise."""
        from umpire.core.chance import EnteredOutcomes

        table = EnteredOutcomes(self.state.rng, step)
        events = self.apply_with(action, table)
        table.finish()
        if self.record.entered is None:
            self.record.entered = []
        self.record.entered.append(list(step))
        return events

    def undo(self, steps: int = 1) -> None:
        """Take back the last ``steps`` actions (the dice rolled for them are un-rolled too)."""
        steps = max(0, min(steps, len(self.record.actions)))
        if steps == 0:
            return
        rebuilt = self.branch(len(self.record.actions) - steps)
        self.state, self.events, self._event_marks = (
            rebuilt.state,
            rebuilt.events,
            rebuilt._event_marks,
        )
        self.record.actions = rebuilt.record.actions
        self.record.trim_notes()  # the why of an action taken back goes with it

    def branch(self, at: int | None = None) -> Game:
        """A new, independent game replayed from the first ``at`` actions of this one."""
        count = len(self.record.actions) if at is None else at
        if not 0 <= count <= len(self.record.actions):
            raise ValueError(f"branch point {count} outside 0..{len(self.record.actions)}")
        twin = Game(self.ruleset, self.record.scenario, self.record.seed, self.options)
        twin.record.players = dict(self.record.players)
        entered = self.record.entered  # outcomes entered at a physical table (companion mode)
        for index, action in enumerate(self.record.actions[:count]):
            if entered is None or index >= len(entered):
                twin.apply(action)
            else:
                twin.apply_entered(action, entered[index])
        return twin


def new_game(game_id: str, seed: int = 0, options: Mapping[str, Any] | None = None) -> Game:
    """Start a game, e.g. ``new_game("sevendays/meeting-engagement", seed=1)``."""
    ruleset_id, scenario = split_game_id(game_id)
    return Game(get_ruleset(ruleset_id), scenario, seed, options)


def replay(record: Record) -> Game:
    """Rebuild a game from its record; raises if the record is for another ruleset version."""
    ruleset = get_ruleset(record.ruleset)
    if record.version != ruleset.meta.version:
        raise RecordMismatchError(
            f"record is for {record.ruleset} version {record.version}, "
            f"this Umpire has version {ruleset.meta.version}"
        )
    game = Game(ruleset, record.scenario, record.seed, record.options)
    game.record.players = dict(record.players)
    game.record.notes = dict(record.notes)  # informative: never read to replay
    game.record.why_public = record.why_public
    entered = record.entered  # outcomes entered at a physical table (companion mode)
    for index, action in enumerate(record.actions):
        try:
            if entered is None or index >= len(entered):  # rolled by the game's stream
                game.apply(action)
            else:
                game.apply_entered(action, entered[index])
        except IllegalActionError as exc:
            raise RecordMismatchError(
                f"record field actions.{index}: {action.to_dict()} is illegal there: {exc}"
            ) from exc
    return game


def load_record(path: str | Path) -> Record:
    """Read a record file saved with ``--record``."""
    return Record.load(path)
