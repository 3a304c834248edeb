"""Rule switches: how strictly each rule is applied in one game (issue 21).

Every guarded rule id is in one of three modes:

- ``enforce`` — an action the rule forbids is refused with the rule (digital play's default);
- ``advise`` — the action is offered and allowed, with a warning naming the rule and what the
  book says, in the action's menu line and in the log (companion mode's default: the players at
  the table are the final judges);
- ``off`` — the action is offered and allowed without a word (where the ruleset can play
  without the rule).

A game's switches are a table of ``rule-id: mode`` (wildcards such as ``RULESET.TOPIC.*``
allowed) kept in the game's options under :data:`OPTION_KEY`, so the record stores them and a
replay, a branch or a simulated game applies the same ones. Rule code asks at each guarded
check::

    if not switches_in(state.options).allows(rule, ok, detail):
        raise IllegalActionError(detail, rule)

``allows`` is ``ok`` itself under ``enforce`` (so a game with every rule enforced is the game
without switches), and True under ``advise`` and ``off``; under ``advise`` it also notes the
broken rule for whoever collects advice (:func:`collect_advice`): the ruleset collects it while
checking an action, to word the menu line (:func:`advice_suffix`) and the log
(:func:`advice_events`).

Which rules have a switch is data in each ruleset's rule catalogue (``switchable: true``);
rules that cannot be switched (turn structure, victory...) say why (``switchable: false`` with
``fixed_because``); a rule the catalogue does not mark is always enforced.

Built-in agents are held to the book: under ``advise`` a side's menu offers what a rule forbids,
but an agent (scripted, random, search, an RL env's learner) chooses only among the actions
every rule allows. Inside :func:`book_only` every rule under ``advise`` reads as ``enforce``
(rules switched ``off`` stay off: the players took them out of the game), so the legal
actions listed there are exactly the book's; :class:`umpire.core.view.View` lists them with
``legal_actions(book_only=True)`` and :func:`umpire.agents.base.held_to_the_book` hands them to
every built-in agent.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.core.datafiles import load_yaml
from umpire.core.errors import DataFileError, IllegalActionError
from umpire.core.events import Event

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from umpire.core.catalog import RuleEntry

OPTION_KEY = "rule_switches"


class Mode(StrEnum):
    """How a rule is applied: refused, allowed with a warning, or not applied."""

    ENFORCE = "enforce"
    ADVISE = "advise"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class Advice:
    """A rule broken under ``advise``: the rule and what the action did against it."""

    rule: str
    detail: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a guarded check decided: whether the action is allowed, under which mode, and
    the warning to give (``advise`` only)."""

    rule: str
    allowed: bool
    mode: Mode
    advice: Advice | None = None

    def refuse(self, message: str) -> None:
        """Raise the rule's refusal if the check did not allow the action."""
        if not self.allowed:
            raise IllegalActionError(message, self.rule)


_COLLECTOR: ContextVar[list[Advice] | None] = ContextVar("umpire_advice", default=None)


@contextmanager
def collect_advice() -> Iterator[list[Advice]]:
    """Collect the advice the checks run inside the block give (each distinct one once)."""
    notes: list[Advice] = []
    token = _COLLECTOR.set(notes)
    try:
        yield notes
    finally:
        _COLLECTOR.reset(token)


@contextmanager
def quiet_advice() -> Iterator[None]:
    """Collect nothing inside the block: for a check that lists every option (a unit's
    reachable squares) while one action is being checked, so only that action's advice
    counts."""
    token = _COLLECTOR.set(None)
    try:
        yield
    finally:
        _COLLECTOR.reset(token)


def _specificity(pattern: str) -> tuple[int, int]:
    """Exact ids first, then the wildcard with the longest fixed part."""
    wild = any(c in pattern for c in "*?[")
    fixed = len(pattern.split("*")[0].split("?")[0].split("[")[0])
    return (0 if wild else 1, fixed)


class RuleSwitches:
    """A game's table of rule modes, wildcards resolved (exact id, else the most specific
    matching pattern, else ``enforce``)."""

    __slots__ = ("_table", "_order", "_memo", "_book")

    def __init__(self, table: Mapping[str, Mode | str] | None = None) -> None:
        self._table = {key: Mode(value) for key, value in (table or {}).items()}
        self._order = sorted(
            (k for k in self._table if any(c in k for c in "*?[")),
            key=_specificity,
            reverse=True,
        )
        self._memo: dict[str, Mode] = {}
        self._book: RuleSwitches | None = None

    # -- building ---------------------------------------------------------------------------
    @classmethod
    def default_for(cls, mode: Mode | str = Mode.ENFORCE) -> RuleSwitches:
        """Every switchable rule in ``mode``: digital play's ``enforce``, companion mode's
        ``advise`` (``RuleSwitches.default_for(mode="advise")``)."""
        mode = Mode(mode)
        return cls() if mode is Mode.ENFORCE else cls({"*": mode})

    @classmethod
    def from_option(cls, raw: Mapping[str, str] | None) -> RuleSwitches:
        """The switches stored in a game's options (see :func:`switches_in`)."""
        if not raw:
            return ENFORCE_ALL
        return _parsed(tuple(sorted(raw.items())))

    @classmethod
    def load(cls, path: Path | str, catalog: Mapping[str, RuleEntry], ruleset: str) -> RuleSwitches:
        """A ``--rules FILE``: YAML mapping ``rule-id: mode`` (wildcards allowed), checked
        against ``ruleset``'s catalogue. A bad mode, an unknown id, a pattern matching no
        switchable rule or a rule without a switch is a one-line error naming file and key."""
        source = Path(path)
        raw = load_yaml(source)
        if isinstance(raw, dict):  # YAML reads a bare off / on as false / true
            raw = {k: _BARE.get(v, v) if isinstance(v, bool) else v for k, v in raw.items()}
        # pydantic is imported here, when a switches file is read, not with the rules
        from pydantic import ValidationError

        try:
            table = _file_model().validate_python({} if raw is None else raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = [str(p) for p in first["loc"]]
            where = loc[0] if loc else "(top level)"
            if first["type"] == "enum":
                value = first.get("input")
                raise DataFileError(
                    f"{source}: key {where}: mode {value!r} is not enforce, advise or off"
                ) from exc
            raise DataFileError(
                f"{source}: key {where}: {first['msg']} (a mapping of rule-id: mode)"
            ) from exc
        for key, mode in table.items():
            problem = key_problem(key, mode, catalog, ruleset)
            if problem:
                raise DataFileError(f"{source}: key {key}: {problem}")
        return cls(table)

    # -- reading ----------------------------------------------------------------------------
    def mode(self, rule: str) -> Mode:
        """The mode of ``rule`` (``enforce`` unless the table says otherwise)."""
        found = self._memo.get(rule)
        if found is None:
            found = self._table.get(rule)
            if found is None:
                found = Mode.ENFORCE
                for pattern in self._order:
                    if fnmatch.fnmatchcase(rule, pattern):
                        found = self._table[pattern]
                        break
            self._memo[rule] = found
        return found

    def check(self, rule: str, ok: bool, detail: str = "") -> Verdict:
        """The verdict on one guarded check: ``ok`` is whether the action keeps the rule."""
        if ok:
            return Verdict(rule, True, Mode.ENFORCE)
        mode = self.mode(rule)
        if mode is Mode.ENFORCE:
            return Verdict(rule, False, mode)
        advice = Advice(rule, detail) if mode is Mode.ADVISE else None
        return Verdict(rule, True, mode, advice)

    def allows(self, rule: str, ok: bool, detail: str = "") -> bool:
        """Whether a guarded check lets the action through; under ``advise`` a broken rule is
        noted for the advice being collected."""
        if ok:
            return True
        verdict = self.check(rule, ok, detail)
        if verdict.advice is not None:
            notes = _COLLECTOR.get()
            if notes is not None and verdict.advice not in notes:
                notes.append(verdict.advice)
        return verdict.allowed

    def relaxed(self, rule: str) -> bool:
        """Whether ``rule`` is not enforced (menus offer what it forbids)."""
        return self.mode(rule) is not Mode.ENFORCE

    @property
    def advises(self) -> bool:
        """Whether some rule is under ``advise`` (menus may offer what the book forbids)."""
        return any(mode is Mode.ADVISE for mode in self._table.values())

    def book(self) -> RuleSwitches:
        """These switches with every ``advise`` read as ``enforce`` (``off`` stays off): what
        an agent held to the book plays under."""
        if self._book is None:
            if not self.advises:
                self._book = self
            else:
                self._book = RuleSwitches(
                    {
                        key: Mode.ENFORCE if mode is Mode.ADVISE else mode
                        for key, mode in self._table.items()
                    }
                )
        return self._book

    @property
    def table(self) -> dict[str, str]:
        return {key: str(mode) for key, mode in self._table.items()}

    def to_option(self) -> dict[str, str]:
        """The form kept in a game's options (and so in its record)."""
        return self.table

    def __bool__(self) -> bool:
        return any(mode is not Mode.ENFORCE for mode in self._table.values())

    def __repr__(self) -> str:
        return f"RuleSwitches({self.table})"


ENFORCE_ALL = RuleSwitches()


_BARE = {False: "off", True: "enforce"}


@cache
def _file_model() -> TypeAdapter[dict[str, Mode]]:
    """A ``--rules`` file: rule ids or patterns to modes (pydantic's validator, built on the
    first file read)."""
    from pydantic import TypeAdapter

    return TypeAdapter(dict[str, Mode])


@lru_cache(maxsize=64)
def _parsed(items: tuple[tuple[str, str], ...]) -> RuleSwitches:
    return RuleSwitches(dict(items))


_BOOK_ONLY: ContextVar[bool] = ContextVar("umpire_book_only", default=False)


@contextmanager
def book_only() -> Iterator[None]:
    """Inside the block every rule under ``advise`` is enforced (see :meth:`RuleSwitches.book`):
    the legal actions listed there are the ones every rule allows, as an agent is offered
    them. Nothing is noted as advice inside it (nothing advised is allowed)."""
    token = _BOOK_ONLY.set(True)
    try:
        yield
    finally:
        _BOOK_ONLY.reset(token)


def switches_in(options: Mapping[str, Any]) -> RuleSwitches:
    """The switches of a game, from its options (all enforced when it has none; inside
    :func:`book_only`, with ``advise`` read as ``enforce``)."""
    raw = options.get(OPTION_KEY)
    if not raw:
        return ENFORCE_ALL
    found = RuleSwitches.from_option(raw)
    return found.book() if _BOOK_ONLY.get() else found


AGENT_KINDS = ("scripted", "random", "search")  # built-in players (``umpire.agents``)


def book_bound(kind: str | None) -> bool:
    """Whether a side recorded as played by ``kind`` (a record's ``players``) is held to the
    book under ``advise``: a built-in agent (``scripted``, ``random``, ``search[:P][@S]``) is;
    a person (``human``, ``me``) or an unrecorded player is not. The game resolves such a
    side's actions inside :func:`book_only`, so its failed tests and finished phases are the
    book's, and the record (which keeps ``players``) replays them alike."""
    if not kind:
        return False
    return kind.split(":")[0].split("@")[0] in AGENT_KINDS


def advising(options: Mapping[str, Any]) -> bool:
    """Whether a game's options put some rule under ``advise`` (its menus may then offer
    actions the book forbids, which agents are not offered)."""
    raw = options.get(OPTION_KEY)
    return bool(raw) and RuleSwitches.from_option(raw).advises


def with_switches(options: Mapping[str, Any], switches: RuleSwitches | None) -> dict[str, Any]:
    """``options`` with ``switches`` stored in them (unchanged when ``switches`` is None)."""
    out = dict(options)
    if switches is not None and switches.table:
        out[OPTION_KEY] = switches.to_option()
    return out


# -- the catalogue's side ----------------------------------------------------------------------
def switchable(entry: RuleEntry) -> bool:
    """Whether the catalogue gives ``entry`` a switch."""
    return entry.switchable is True


def key_problem(key: str, mode: Mode, catalog: Mapping[str, RuleEntry], ruleset: str) -> str:
    """Why a ``--rules`` key cannot be set to ``mode`` ('' when it can)."""
    wild = any(c in key for c in "*?[")
    if not wild:
        entry = catalog.get(key)
        if entry is None:
            return f"no rule {key} in {ruleset}'s catalogue (see `umpire rules {ruleset}`)"
        if mode is Mode.ENFORCE or switchable(entry):
            return ""
        return f"cannot be set to {mode}: {fixed_reason(entry)}"
    matched = [e for rule, e in catalog.items() if fnmatch.fnmatchcase(rule, key)]
    if not matched:
        return f"the pattern matches no rule of {ruleset}"
    if mode is not Mode.ENFORCE and not any(switchable(e) for e in matched):
        return f"the pattern matches no switchable rule of {ruleset} (all are always enforced)"
    return ""


def fixed_reason(entry: RuleEntry) -> str:
    """Why a rule has no switch, in a player's words."""
    reason = entry.fixed_because
    if entry.switchable is False:
        return reason or "the game cannot be played without it"
    return "it has no switch yet (always enforced)"


def effective_mode(switches: RuleSwitches, entry: RuleEntry) -> str:
    """What ``umpire rules --rules FILE`` shows for a rule: its mode, or ``enforce`` with
    ``(fixed)`` for a rule that cannot be switched and ``(no switch)`` for one without a
    switch yet."""
    if switchable(entry):
        return str(switches.mode(entry.id))
    if entry.switchable is False:
        return "enforce (fixed)"
    return "enforce (no switch)"


# -- words ------------------------------------------------------------------------------------
def advice_line(advice: Advice, catalog: Mapping[str, RuleEntry]) -> str:
    """``advice: <what was done> — <rule>: <what the book says>``."""
    entry = catalog.get(advice.rule)
    book = f": {entry.summary}" if entry is not None else ""
    what = f"{advice.detail} — " if advice.detail else ""
    return f"advice: {what}against {advice.rule}{book}"


def advice_suffix(notes: list[Advice]) -> str:
    """What a menu line carries for an action the rules (under ``advise``) would forbid."""
    if not notes:
        return ""
    return " [advice: against " + ", ".join(dict.fromkeys(n.rule for n in notes)) + "]"


def advice_events(
    notes: list[Advice], catalog: Mapping[str, RuleEntry], side: str | None
) -> list[Event]:
    """The log's warnings for an action played against rules under ``advise``: the acting
    side reads what it did; the others read the rule broken and the book's words (what the
    action was may be hidden from them)."""
    out = []
    for advice in notes:
        entry = catalog.get(advice.rule)
        book = f": {entry.summary}" if entry is not None else ""
        public = Event(
            "advice",
            f"advice: {(side or 'a side').upper()} acted against {advice.rule}{book}",
            advice.rule,
        )
        text = advice_line(advice, catalog)
        if side is None:
            out.append(Event("advice", text, advice.rule, detail=advice.detail))
        else:
            out.append(
                Event(
                    "advice",
                    text,
                    advice.rule,
                    visible_to=(side,),
                    public=public,
                    detail=advice.detail,
                )
            )
    return out


def verdict_events(
    verdict: Verdict, catalog: Mapping[str, RuleEntry], side: str | None
) -> list[Event]:
    """The log's warning for one verdict reached while an action resolves (none unless the
    rule is under ``advise`` and was broken)."""
    return advice_events([verdict.advice], catalog, side) if verdict.advice else []


def ruleset_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """A game's options without its switches: what the ruleset's ``new_state`` is given."""
    return {key: value for key, value in options.items() if key != OPTION_KEY}


def attach_switches(state: Any, options: Mapping[str, Any]) -> None:
    """Put a game's switches on its new state's ``options`` (where the rules read them with
    :func:`switches_in`, and where clones, branches and saved states carry them)."""
    raw = options.get(OPTION_KEY)
    if not raw:
        return
    if not isinstance(raw, Mapping):
        raise DataFileError(f"options field {OPTION_KEY}: must map rule ids to modes")
    for key, mode in raw.items():  # a record edited by hand: one line, not a traceback
        if not isinstance(key, str) or mode not in {m.value for m in Mode}:
            raise DataFileError(
                f"options field {OPTION_KEY}.{str(key)[:80]}: mode {str(mode)[:20]!r} is not "
                "enforce, advise or off"
            )
    held = getattr(state, "options", None)
    if isinstance(held, dict):
        held[OPTION_KEY] = dict(raw)


def load_for(ruleset: Any, path: Path | str) -> RuleSwitches:
    """``--rules FILE`` for ``ruleset`` (a registered ruleset), checked against its catalogue."""
    catalog = ruleset.capabilities.catalog
    if catalog is None:
        raise DataFileError(f"{path}: {ruleset.meta.id} has no rule catalogue to switch rules in")
    return RuleSwitches.load(path, catalog(), ruleset.meta.id)


def with_advice(options: Mapping[str, Any], text: str, check: Callable[[], object]) -> str:
    """A menu line ``text`` ending with the rules under ``advise`` that the action breaks:
    ``check`` is the action's legality check, run (its refusal ignored) only when the game
    has switches."""
    if not switches_in(options):
        return text
    with collect_advice() as notes, suppress(IllegalActionError):
        check()
    return text + advice_suffix(notes)
