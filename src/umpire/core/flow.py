"""Flow: turns, phases and stages declared once, and a stack of pending decisions.

boardgame.io's idea, typed: a ruleset declares its turn as a list of :class:`Phase` objects with
begin/end hooks, the action kinds a side may take in each, who decides, and when the phase is
over. Interrupts — reactions, card responses, retreats, a choice forced on the other side — are
:class:`Pending` decisions pushed on a stack; the top one is answered first. A
:class:`SecretCommit` is a pending decision that several sides answer in turn *without seeing
each other's choice*: each commitment is recorded as an event only its side may read, and the
choices are revealed together once the last side has locked its own.

Each :class:`ActionKind` is defined once — its options, its check, its resolution and its
words — and :class:`FlowRules` builds ``legal_actions`` and ``apply`` from them, so the list of
legal actions and the check of a submitted action can never drift apart: by default an action is
legal exactly when it is among the options; a kind whose actions carry free parameters (a move
to any point in reach) overrides :meth:`ActionKind.check` and builds its options through it.

The flow's position is plain data (:class:`FlowState`) kept inside the game state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note

S = TypeVar("S")

Hook = Callable[[S], list[Event]]

_ATOMS = frozenset({str, int, float, bool, type(None)})  # values plain_copy returns as they are


def plain_copy(value: Any) -> Any:
    """A copy of plain JSON data (dicts, lists, scalars) that shares no list or dict with the
    original: a saved position must not change when play goes on."""
    # scalars are returned as they are without a call (a pending decision's data is mostly
    # strings and numbers, copied at every observation)
    if isinstance(value, dict):
        return {k: v if type(v) in _ATOMS else plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _ATOMS else plain_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain_copy(v) for v in value)
    return value


@dataclass
class Pending:
    """A decision waiting on the stack: ``side`` chooses one action of ``kinds``.

    ``stage`` names it ("react", "card_response", "retreat"); ``data`` carries its context as
    plain JSON data (the unit reacted to, the hex to retreat from)."""

    side: str
    kinds: tuple[str, ...]
    stage: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "pending",
            "side": self.side,
            "kinds": list(self.kinds),
            "stage": self.stage,
            "data": plain_copy(self.data),
        }


@dataclass
class SecretCommit:
    """Several sides each lock one choice of ``kinds`` before any sees another's.

    ``committed`` maps a side to its action (as JSON); it is the umpire's knowledge only: views
    show each side its own commitment and merely *whether* the others have committed."""

    sides: tuple[str, ...]
    kinds: tuple[str, ...]
    stage: str
    committed: dict[str, dict[str, Any]] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def side(self) -> str:
        """The next side to commit (sides commit in the declared order, blind)."""
        for s in self.sides:
            if s not in self.committed:
                return s
        return self.sides[-1]

    @property
    def complete(self) -> bool:
        return all(s in self.committed for s in self.sides)

    def view(self, viewer: str | None) -> dict[str, Any]:
        """What ``viewer`` may know of the commitments so far."""
        return {
            "type": "secret",
            "sides": list(self.sides),
            "kinds": list(self.kinds),
            "stage": self.stage,
            "committed": {
                s: (plain_copy(a) if viewer is None or s == viewer else "hidden")
                for s, a in self.committed.items()
            },
            "data": plain_copy(self.data),
        }

    def to_dict(self) -> dict[str, Any]:
        return self.view(None)


Decision = Pending | SecretCommit


def _text(value: Any) -> str:
    """``str(value)``, without the call for a plain string (a StrEnum's ``str`` is a Python
    function, and a position is read back at every decision of a scripted player)."""
    return value if type(value) is str else str(value)


def decision_from_dict(data: Mapping[str, Any]) -> Decision:
    if data.get("type") == "secret":
        return SecretCommit(
            sides=tuple(data["sides"]),
            kinds=tuple(data["kinds"]),
            stage=_text(data["stage"]),
            committed={s: dict(a) for s, a in data.get("committed", {}).items()},
            data=plain_copy(dict(data.get("data", {}))),
        )
    extra = data.get("data", {})
    return Pending(  # side, kinds, stage, data (positional: quicker)
        _text(data["side"]),
        tuple(data["kinds"]),
        _text(data["stage"]),
        plain_copy(extra if type(extra) is dict else dict(extra)),  # a copy either way
    )


@dataclass
class FlowState:
    """Where the game is: turn, phase, stage within the phase, the side whose phase it is, the
    stack of pending decisions and whether the game is over. Plain data."""

    turn: int = 1
    phase: str = ""
    stage: str = ""
    active: str | None = None
    stack: list[Decision] = field(default_factory=list)
    over: bool = False

    def to_dict(self, viewer: str | None = None) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "stage": self.stage,
            "active": self.active,
            "stack": [
                d.view(viewer) if isinstance(d, SecretCommit) else d.to_dict() for d in self.stack
            ],
            "over": self.over,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FlowState:
        return cls(  # turn, phase, stage, active, stack, over (positional: quicker)
            int(data.get("turn", 1)),
            _text(data.get("phase", "")),
            _text(data.get("stage", "")),
            data.get("active"),
            [decision_from_dict(d) for d in data.get("stack", [])],
            bool(data.get("over", False)),
        )

    def clone(self) -> FlowState:
        """A copy sharing no mutable part (the same as ``from_dict(to_dict())``, without the
        round trip through dicts): each decision's data and commitments copied."""
        stack: list[Decision] = []
        for d in self.stack:
            if isinstance(d, Pending):
                stack.append(Pending(_text(d.side), d.kinds, _text(d.stage), plain_copy(d.data)))
            else:
                stack.append(
                    SecretCommit(
                        d.sides,
                        d.kinds,
                        _text(d.stage),
                        plain_copy(d.committed),
                        plain_copy(d.data),
                    )
                )
        return FlowState(
            self.turn, _text(self.phase), _text(self.stage), self.active, stack, self.over
        )


@dataclass(frozen=True)
class Phase(Generic[S]):
    """One phase of the turn.

    ``kinds``: the action kinds its own decisions allow; ``to_act(state)``: who decides now
    (``None``: nobody — the phase ends, or is automatic); ``on_begin``/``on_end``: hooks that
    return events; ``end_if(state)``: the phase is over (checked after every action and
    after ``on_begin``; a phase with no decisions to make and no ``end_if`` ends at once)."""

    name: str
    kinds: tuple[str, ...] = ()
    to_act: Callable[[S], str | None] | None = None
    on_begin: Hook[S] | None = None
    on_end: Hook[S] | None = None
    end_if: Callable[[S], bool] | None = None


class ActionKind(Generic[S]):
    """One kind of action, defined once: what a side may choose now (:meth:`options`), whether
    a submitted action is allowed (:meth:`check`), what it does (:meth:`resolve`), and how a
    player reads it (:meth:`describe`)."""

    name: str = ""
    rule: str | None = None  # the rule a refusal names when no more specific one applies

    def options(self, state: S, side: str) -> Iterable[Action]:
        """Every action of this kind ``side`` may take now."""
        return ()

    def check(self, state: S, side: str, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule if ``action`` is not allowed.

        By default: allowed exactly when it is one of :meth:`options` (so listing and
        checking cannot disagree)."""
        if action not in set(self.options(state, side)):
            raise IllegalActionError(self.refusal(state, side, action), self.rule)

    def refusal(self, state: S, side: str, action: Action) -> str:
        """Why ``action`` is refused (one line)."""
        what = action.unit or action.target or action.cell or action.card or ""
        return f"{side} cannot {self.name} {what}".rstrip()

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        """Carry the action out (after :meth:`check`); return what happened."""
        raise NotImplementedError

    def describe(self, state: S, side: str, action: Action) -> str:
        """A line for menus and logs."""
        return action.kind


class FixedChoice(ActionKind[S]):
    """A kind with exactly one action, ``Action(name)``, always open when its decision is:
    passing, declining a reaction or a card, holding fire, ending the side's activations."""

    def options(self, state: S, side: str) -> Iterable[Action]:
        return [Action(self.name)]


class Flow(Generic[S]):
    """The turn's phases in order; ``flow_of(state)`` finds the :class:`FlowState` in a state.

    ``on_turn_begin``/``on_turn_end`` run around each turn; ``game_over(state)`` stops the flow
    (checked after each action and each hook); ``last_turn(state)`` ends the game by time when it
    returns true at the end of a turn (``on_time_out`` words the ending)."""

    def __init__(
        self,
        phases: Sequence[Phase[S]],
        flow_of: Callable[[S], FlowState],
        *,
        on_turn_begin: Hook[S] | None = None,
        on_turn_end: Hook[S] | None = None,
        game_over: Callable[[S], bool] | None = None,
        max_steps: int = 10_000,
    ) -> None:
        if not phases:
            raise ValueError("a flow needs at least one phase")
        names = [p.name for p in phases]
        if len(set(names)) != len(names):
            raise ValueError(f"phase names repeat: {names}")
        self.phases = list(phases)
        self.by_name = {p.name: p for p in phases}
        self.flow_of = flow_of
        self.on_turn_begin = on_turn_begin
        self.on_turn_end = on_turn_end
        self.game_over = game_over
        self.max_steps = max_steps

    # -- where we are ----------------------------------------------------------------------
    def phase(self, state: S) -> Phase[S]:
        return self.by_name[self.flow_of(state).phase]

    def decision(self, state: S) -> tuple[str | None, tuple[str, ...]]:
        """Who decides now and which action kinds they may use (``None``: nobody)."""
        fs = self.flow_of(state)
        if fs.over:
            return None, ()
        if fs.stack:
            top = fs.stack[-1]
            return top.side, top.kinds
        phase = self.by_name[fs.phase]
        side = phase.to_act(state) if phase.to_act is not None else None
        return side, (phase.kinds if side is not None else ())

    def top(self, state: S) -> Decision | None:
        stack = self.flow_of(state).stack
        return stack[-1] if stack else None

    # -- interrupts ------------------------------------------------------------------------
    def push(self, state: S, decision: Decision) -> None:
        self.flow_of(state).stack.append(decision)

    def pop(self, state: S) -> Decision:
        return self.flow_of(state).stack.pop()

    # -- moving on -------------------------------------------------------------------------
    def start(self, state: S) -> list[Event]:
        """Begin turn 1's first phase (call once, at set-up)."""
        fs = self.flow_of(state)
        fs.phase = self.phases[0].name
        events = self._hook(self.on_turn_begin, state)
        events += self._hook(self.phases[0].on_begin, state)
        return events + self.advance(state)

    def advance(self, state: S) -> list[Event]:
        """After an action or hook: end phases that are over and begin the next ones, turn
        after turn, until someone must decide or the game is over."""
        events: list[Event] = []
        fs = self.flow_of(state)
        for _ in range(self.max_steps):
            if fs.over or (self.game_over is not None and self.game_over(state)):
                fs.over = True
                fs.stack.clear()
                return events
            if fs.stack:
                return events
            phase = self.by_name[fs.phase]
            if phase.end_if is not None:
                done = phase.end_if(state)
            else:
                done = phase.to_act is None or phase.to_act(state) is None
            if not done:
                return events
            events += self._hook(phase.on_end, state)
            if fs.over or (self.game_over is not None and self.game_over(state)):
                continue
            index = self.phases.index(phase) + 1
            if index == len(self.phases):
                events += self._hook(self.on_turn_end, state)
                if fs.over or (self.game_over is not None and self.game_over(state)):
                    continue
                fs.turn += 1
                index = 0
                fs.phase = self.phases[0].name
                fs.stage = ""
                events += self._hook(self.on_turn_begin, state)
            nxt = self.phases[index]
            fs.phase = nxt.name
            fs.stage = ""
            events += self._hook(nxt.on_begin, state)
        raise RuntimeError(f"flow did not settle within {self.max_steps} steps")

    @staticmethod
    def _hook(hook: Hook[S] | None, state: S) -> list[Event]:
        return list(hook(state)) if hook is not None else []


class FlowRules(Generic[S]):
    """``legal_actions``, ``apply`` and ``describe`` built from a :class:`Flow` and the action
    kinds: the engine half of a ruleset. A ruleset subclasses it (or holds one)."""

    flow: Flow[S]
    kinds: Mapping[str, ActionKind[S]]

    def __init__(self, flow: Flow[S], kinds: Iterable[ActionKind[S]]) -> None:
        self.flow = flow
        self.kinds = {k.name: k for k in kinds}
        for phase in flow.phases:
            missing = [k for k in phase.kinds if k not in self.kinds]
            if missing:
                raise ValueError(f"phase {phase.name} allows undefined kinds {missing}")

    def to_act(self, state: S) -> str | None:
        return self.flow.decision(state)[0]

    def legal_actions(self, state: S) -> list[Action]:
        side, allowed = self.flow.decision(state)
        if side is None:
            return []
        out: list[Action] = []
        for name in allowed:
            out.extend(self.kinds[name].options(state, side))
        return out

    def check(self, state: S, action: Action) -> tuple[str, ActionKind[S]]:
        """The deciding side and the kind, once ``action`` is known to be allowed."""
        side, allowed = self.flow.decision(state)
        if side is None:
            raise IllegalActionError("the game is over")
        if action.kind not in allowed:
            kinds = ", ".join(allowed) or "nothing"
            raise IllegalActionError(f"{side} must choose one of: {kinds} (not {action.kind!r})")
        kind = self.kinds[action.kind]
        kind.check(state, side, action)
        return side, kind

    def apply(self, state: S, action: Action) -> list[Event]:
        side, kind = self.check(state, action)
        top = self.flow.top(state)
        if isinstance(top, SecretCommit):
            return self._commit(state, top, side, kind, action)
        events = kind.resolve(state, side, action)
        return events + self.flow.advance(state)

    def _commit(
        self,
        state: S,
        top: SecretCommit,
        side: str,
        kind: ActionKind[S],
        action: Action,
    ) -> list[Event]:
        """A blind commitment: only its side reads what it chose; the others read that it
        committed. When every side has committed, :meth:`reveal` resolves them together."""
        top.committed[side] = action.to_dict()
        private = note(
            "commit",
            f"{side} commits: {kind.describe(state, side, action)}",
            kind.rule,
            visible_to=(side,),
            public=note("commit", f"{side} has committed", kind.rule, side=side),
            side=side,
        )
        events = [private]
        if top.complete:
            self.flow.pop(state)
            events += self.reveal(state, top)
        return events + self.flow.advance(state)

    def reveal(self, state: S, commit: SecretCommit) -> list[Event]:
        """Resolve a completed secret commitment (each side's action, in the declared order,
        through its kind's ``resolve``). Override for a joint resolution."""
        events: list[Event] = []
        for s in commit.sides:
            action = Action.from_dict(commit.committed[s])
            events += self.kinds[action.kind].resolve(state, s, action)
        return events

    def describe(self, state: S, action: Action) -> str:
        side, _ = self.flow.decision(state)
        kind = self.kinds.get(action.kind)
        if kind is None or side is None:
            return action.kind
        return kind.describe(state, side, action)
