"""The Rhine web table's questions answered from one side's observation: the exact CRT
distribution of a proposed attack and of each secret support choice, and a unit's reach.

Checked against the analysis tool (``umpire odds rhine``, a separate code path over the same
CRT, rhine.crt.table), against the rules' own legal moves (rhine.move.*), and for hidden
information: a side's board and odds are the same whatever the other side's secret support
commitment (rhine.cs.secret) is re-drawn to be."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from umpire.core.actions import Action
from umpire.core.flow import SecretCommit
from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.board import BOARD
from umpire.rulesets.rhine.odds_cli import ODDS


def _play_until(seed: int, stop: Any, limit: int = 3000) -> Game:
    game = Game(RULESET, "autobahn-gap", seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    for _ in range(limit):
        if game.is_over or stop(game):
            return game
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    raise AssertionError("the position looked for never came")


def _has(kind: str) -> Any:
    return lambda g: any(a.kind == kind for a in g.legal_actions())


def _half_committed(g: Game) -> bool:
    """One side has committed its support, secretly, out of more than one choice."""
    from umpire.rulesets.rhine.ruleset import cs_options_for

    stack = g.state.flow.stack
    top = stack[-1] if stack else None
    if not (isinstance(top, SecretCommit) and len(top.committed) == 1):
        return False
    (made,) = top.committed
    return len(cs_options_for(g.state, made)) > 1


def _details(game: Game, side: str, action: Action, state: Any = None) -> Any:
    state = game.state if state is None else state
    obs = RULESET.observation(state, side)
    holder = SimpleNamespace(state=state, ruleset=RULESET)
    return BOARD.action_details(holder, obs, side, action)


def test_attack_odds_are_the_crt_distribution_of_the_odds_tool() -> None:
    game = _play_until(3, _has("attack"))
    side = game.to_act
    assert side is not None
    attacks = [a for a in game.legal_actions() if a.kind == "attack"]
    assert attacks
    for a in attacks:
        odds = _details(game, side, a)
        assert odds is not None and odds["kind"] == "crt"
        attack, defence = (int(v) for v in odds["odds"].split(":"))
        expected, _ = ODDS.answer({"attack": attack, "defence": defence, "drm": odds["drm"]})
        assert odds["column"] == expected["column"]
        assert odds["exact"] == expected["exact"]
        assert sum(odds["results"].values()) == pytest.approx(1.0)
        # the DRMs listed are those the action's description names (rhine.drm.*)
        assert odds["drm"] == sum(m["delta"] for m in odds["modifiers"])
        assert f"({odds['column']}, {odds['drm']:+d})" in game.describe(a)
        # each own support marker adds +1 (rhine.cs.drm): the same tool at drm + k
        for row in odds["support"]:
            shifted, _ = ODDS.answer(
                {"attack": attack, "defence": defence, "drm": odds["drm"] + row["own"]}
            )
            assert row["exact"] == shifted["exact"]


def test_support_choice_odds_assume_no_enemy_support_and_bound_the_worst() -> None:
    game = _play_until(5, _has("cs"))
    side = game.to_act
    assert side is not None
    combat = game.state.combat
    assert combat is not None
    attacking = side == combat["attacker"]
    base = None
    for a in game.legal_actions():
        odds = _details(game, side, a)
        assert odds is not None and odds["enemy_support_assumed"] == 0
        k = sum(int(part.rpartition("=")[2]) for part in str(a.option).split(";") if "=" in part)
        assert odds["own_support"] == k
        if k == 0:
            base = odds["drm"]
        if "worst" in odds:
            assert odds["worst"]["enemy"] == odds["enemy_support_max"] > 0
    assert base is not None
    for a in game.legal_actions():
        odds = _details(game, side, a)
        assert odds["drm"] == base + (odds["own_support"] if attacking else -odds["own_support"])


def test_reach_is_where_the_rules_let_the_unit_move() -> None:
    game = _play_until(2, _has("move"))
    side = game.to_act
    assert side is not None
    moves = [a for a in game.legal_actions() if a.kind == "move" and a.cell != "exit"]
    movers = sorted({str(a.unit) for a in moves if game.state.pos.get(str(a.unit))})
    assert movers
    for unit in movers[:4]:
        found = _details(game, side, Action("sight", unit=unit))
        assert found is not None
        reach = {line["reach"] for line in found["lines"]}
        assert reach == {a.cell for a in moves if a.unit == unit}


@pytest.mark.parametrize("seed", [7, 11])
def test_board_and_odds_do_not_depend_on_the_other_sides_secret(seed: int) -> None:
    game = _play_until(seed, _half_committed)
    top = game.state.flow.stack[-1]
    assert isinstance(top, SecretCommit)
    waiting = top.side
    assert waiting is not None
    rng = random.Random(seed)
    obs = RULESET.observation(game.state, waiting)
    drawn = BOARD.board(game, obs, waiting)
    odds = [_details(game, waiting, a) for a in game.legal_actions()]
    seen = set()
    for _ in range(12):
        twin = RULESET.resample(game.state, waiting, rng)
        ((_, theirs),) = [(s, d) for s, d in twin.flow.stack[-1].committed.items() if s != waiting]
        seen.add(theirs.get("option"))
        twin_obs = RULESET.observation(twin, waiting)
        assert BOARD.board(game, twin_obs, waiting) == drawn
        assert [_details(game, waiting, a, twin) for a in game.legal_actions()] == odds
    assert len(seen) > 1  # resampling really drew other commitments


def test_boards_during_a_game_are_identical_under_resampling() -> None:
    game = Game(RULESET, "kinzig-valley", 4)
    agents = {s: RhineScripted(s, 4) for s in RULESET.meta.players}
    rng = random.Random(4)
    for step in range(400):
        if game.is_over:
            break
        if step % 25 == 0:
            for side in RULESET.meta.players:
                drawn = BOARD.board(game, RULESET.observation(game.state, side), side)
                twin = RULESET.resample(game.state, side, rng)
                assert BOARD.board(game, RULESET.observation(twin, side), side) == drawn
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
