"""``state.flow_dict`` (written out as one literal for speed, issue 19) against the plain
definition: every field of :class:`state.Flow` by name, in the fields' order, the activation's
fields likewise, the pending action in its JSON form, nothing shared with the live flow. Checked
on the flows of whole games (activations, reaction windows, declared shots, the end)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import umpire
from umpire.agents import make_agent
from umpire.rulesets.sevendays.state import ACTIVATION_FIELDS, FLOW_FIELDS, Flow, flow_dict


def _plain(flow: Flow) -> dict[str, Any]:
    out = {f: getattr(flow, f) for f in FLOW_FIELDS}
    out["pools"] = dict(flow.pools)
    act = flow.activation
    if act is not None:
        raw = {f: getattr(act, f) for f in ACTIVATION_FIELDS}
        raw["platoon"] = list(act.platoon)
        out["activation"] = raw
    out["pending"] = flow.pending.to_dict() if flow.pending else None
    out["outcome"] = copy.deepcopy(flow.outcome) if flow.outcome is not None else None
    out["core"] = flow.core.to_dict()
    return out


@pytest.mark.parametrize("agents,seed", [("scripted", 2), ("random", 5)])
def test_flow_dict_is_the_plain_definition(agents: str, seed: int) -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=seed)
    players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
    seen: set[str] = set()
    while True:
        flow = game.state.flow
        fast = flow_dict(flow)
        plain = _plain(flow)
        assert fast == plain
        assert list(fast) == list(plain)  # the same keys in the same order
        if fast["activation"] is not None:
            assert list(fast["activation"]) == list(plain["activation"])
            assert fast["activation"]["platoon"] is not flow.activation.platoon  # type: ignore[union-attr]
        assert fast["pools"] is not flow.pools
        assert json.dumps(fast) == json.dumps(plain)
        seen.add(str(flow.phase))
        side = game.to_act
        if side is None:
            break
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
    assert {"activate", "act", "react", "over"} <= seen
