"""The engine of the turn over the core's :class:`~umpire.core.flow.FlowRules`: the listing
of legal actions, the check of a chosen action, its resolution or secret commitment, the
reveal of both sides' support, and what is remembered of one position (``state.memo``)
between them; under rule switches set to ``advise`` the log warns of each rule an action
breaks."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from umpire.core.actions import Action
from umpire.core.events import Event
from umpire.core.flow import ActionKind, Flow, FlowRules, SecretCommit
from umpire.core.switches import (
    OPTION_KEY,
    advice_events,
    collect_advice,
    switches_in,
    with_advice,
)
from umpire.rulesets.rhine.combat_support import reveal_support
from umpire.rulesets.rhine.model import rule_catalog
from umpire.rulesets.rhine.position import ST


# -- the ruleset --------------------------------------------------------------------------------
def _no_switches(state: ST) -> bool:
    """Whether every rule is simply enforced (``not switches_in(state.options)``), read
    first from whether the game has any switch set at all (most have none)."""
    return not state.options.get(OPTION_KEY) or not switches_in(state.options)


class RhineRules(FlowRules[ST]):
    def __init__(self, flow: Flow[ST], kinds: Iterable[ActionKind[ST]]) -> None:
        super().__init__(flow, kinds)
        # the kinds whose check is the core's default (allowed exactly when listed): none
        # reads the rule switches, so a listing made under book_only is the menu's too
        self.listed_check = frozenset(
            name for name, k in self.kinds.items() if type(k).check is ActionKind.check
        )

    def legal_actions(self, state: ST) -> list[Action]:
        """The core's listing; the actions of the kinds checked by their listing alone (the
        core's default check) are remembered for the position, for :meth:`check`, and so
        are the attacks of a game without rule switches (each listed attack is one the
        check allows: the listing tests what the check does, attackers, divisions and odds;
        under switches the check also words the advice of each rule it reads)."""
        side, allowed = self.flow.decision(state)
        if side is None:
            return []
        out: list[Action] = []
        memo = state.memo
        for name in allowed:
            listed = list(self.kinds[name].options(state, side))
            if name in self.listed_check or (name == "attack" and _no_switches(state)):
                memo[("listed", name, side)] = listed
            out.extend(listed)
        return out

    def check(self, state: ST, action: Action) -> tuple[str, ActionKind[ST]]:
        """The core's check (it changes nothing: what is remembered of the position stays).
        An action of a kind checked by its listing alone that is one of the very actions
        listed in this position (the player's pick from the listing) needs no second
        listing."""
        side, allowed = self.flow.decision(state)
        listed = state.memo.get(("listed", action.kind, side)) if action.kind in allowed else None
        if (
            side is not None
            and listed is not None
            and any(a is action for a in listed)
            and (action.kind in self.listed_check or _no_switches(state))
        ):
            return side, self.kinds[action.kind]
        return super().check(state, action)

    def apply(self, state: ST, action: Action) -> list[Event]:
        """The core's apply (check, resolve or commit, then the flow moves on); under rule
        switches set to ``advise``, the log first warns of each rule the action breaks.

        ``state.memo`` holds what was worked out for one position: it is dropped before an
        action changes the position (a move drops it itself, once its resolve has read the
        unit's route from it), after the action and after each hook of the flow (see
        :func:`fresh`), so what the flow's ``to_act`` works out for the position it settles
        in is kept for that position's listing and check; on an error it is dropped too."""
        try:
            if _no_switches(state):
                return self._apply(state, action)
            side = self.flow.decision(state)[0]
            with collect_advice() as advice:
                self.check(state, action)
            events = self._apply(state, action)
            return advice_events(advice, rule_catalog(), side) + events
        except BaseException:
            state.memo.clear()
            raise

    def _apply(self, state: ST, action: Action) -> list[Event]:
        side, kind = self.check(state, action)
        memo = state.memo
        if action.kind != "move":
            memo.clear()
        top = self.flow.top(state)
        if isinstance(top, SecretCommit):
            return self._commit(state, top, side, kind, action)
        events = kind.resolve(state, side, action)
        memo.clear()
        return events + self.flow.advance(state)

    def describe(self, state: ST, action: Action) -> str:
        """The core's menu line, naming any rule (under ``advise``) the action breaks."""
        text = super().describe(state, action)
        return with_advice(state.options, text, lambda: self.check(state, action))

    def reveal(self, state: ST, commit: SecretCommit) -> list[Event]:
        """Both sides' support, revealed together, then the combat is resolved."""
        try:
            return reveal_support(state, commit)
        finally:
            state.memo.clear()  # the position changed


def fresh(hook: Callable[[ST], list[Event]]) -> Callable[[ST], list[Event]]:
    """A flow hook that drops what was remembered of the position before and after it runs
    (it changes the position): ``state.memo`` holds answers for one position only."""

    def run(state: ST) -> list[Event]:
        state.memo.clear()
        try:
            return hook(state)
        finally:
            state.memo.clear()

    run.__name__ = run.__qualname__ = hook.__name__
    run.__doc__ = hook.__doc__
    return run
