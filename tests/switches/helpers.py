"""Checks shared by the rule-switch tests: one guarded action tried under each mode."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game
from umpire.core.switches import OPTION_KEY

MODES = ("enforce", "advise", "off")


def switched(rule: str, mode: str) -> dict[str, dict[str, str]]:
    """Game options setting ``rule`` to ``mode``."""
    return {OPTION_KEY: {rule: mode}}


def check_modes(
    build: Callable[[dict[str, dict[str, str]]], Game],
    action: Action,
    rule: str,
    mode: str,
    *,
    acting: str,
    other: str,
    menu: bool = True,
    refused_by: str | None = "",
) -> None:
    """``action`` breaks ``rule``: under ``enforce`` it is not offered and is refused with the
    rule; under ``advise`` it is offered with the rule named in its menu line and played with a
    warning in the log (the acting side reads what was done, the other side the rule and the
    book's words); under ``off`` it is offered and played without a word. ``menu`` False: the
    ruleset's menu line does not name the rule (Seven Days, see docs/rule-switches.md);
    ``refused_by``: the rule an enforced refusal names when it is not ``rule`` (None: any)."""
    game = build(switched(rule, mode))
    offered = action in game.legal_actions()
    line = game.describe(action)
    if mode == "enforce":
        assert not offered
        with pytest.raises(IllegalActionError) as err:
            game.apply(action)
        if refused_by is not None:
            assert err.value.rule == (refused_by or rule)
        return
    assert offered, f"{action} not offered under {mode}"
    events = game.apply(action)
    advice = [e for e in events if e.kind == "advice"]
    if mode == "off":
        assert "advice" not in line
        assert advice == []
        return
    if menu:
        assert f"[advice: against {rule}]" in line
    assert [e.rule for e in advice] == [rule]
    mine = [e for e in game.log(acting) if e.kind == "advice"]
    theirs = [e for e in game.log(other) if e.kind == "advice"]
    assert mine and mine[-1].text.startswith("advice: ") and rule in mine[-1].text
    assert (
        theirs and rule in theirs[-1].text and f"{acting.upper()} acted against" in theirs[-1].text
    )
    detail = mine[-1]["detail"]  # what was done: the acting side's words only
    assert detail and detail in mine[-1].text and detail not in theirs[-1].text
