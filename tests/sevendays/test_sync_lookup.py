"""``turns.sync`` reads the phase and side of the decision on top by a lookup instead of the
enums' constructors (issue 19): the same members, checked for every value and along whole
games against ``Phase(top.stage)`` / ``Side(top.side)``."""

from __future__ import annotations

import pytest

import umpire
from umpire.agents import make_agent
from umpire.rulesets.sevendays.state import Phase, Side
from umpire.rulesets.sevendays.turns import _PHASES, _SIDES


def test_every_member_by_value_and_by_itself() -> None:
    for phase in Phase:
        assert _PHASES[phase] is Phase(phase) and _PHASES[str(phase.value)] is phase
    for side in Side:
        assert _SIDES[side] is side and _SIDES[str(side.value)] is side
    assert set(_PHASES.values()) == set(Phase) and set(_SIDES.values()) == set(Side)


@pytest.mark.parametrize("agents,seed", [("scripted", 3), ("random", 4)])
def test_sync_along_whole_games(agents: str, seed: int) -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=seed)
    players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
    stacked = 0
    while game.to_act is not None:
        flow = game.state.flow
        if flow.core.stack and flow.outcome is None:
            top = flow.core.stack[-1]
            assert flow.phase is Phase(top.stage) and flow.to_act is Side(top.side)
            stacked += 1
        side = game.to_act
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
    assert stacked > 50
