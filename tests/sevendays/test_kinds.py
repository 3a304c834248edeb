"""Each action kind is defined once: every action it lists passes its own check, and actions
it does not allow are refused naming a rule, without touching the state."""

from __future__ import annotations

import random

import pytest

import umpire
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.flow import Pending
from umpire.rulesets.sevendays.kinds import KINDS
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.state import ACT_KINDS, Phase
from umpire.rulesets.sevendays.turns import FLOW

ENGINE = SevenDays.engine


def _positions(scenario: str, seed: int, cards: bool, steps: int) -> list[umpire.Game]:
    """Games at many positions of a random playout (each a separate copy)."""
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed, options={"cards": cards})
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            break
        if rng.random() < 0.3:
            out.append(umpire.replay(game.record))
        game.apply(rng.choice(legal))
    return out


@pytest.mark.parametrize(
    ("scenario", "seed", "cards"),
    [("meeting-engagement", 3, True), ("breakthrough", 4, True), ("capture", 5, False)],
)
def test_every_listed_action_passes_its_kinds_check(scenario: str, seed: int, cards: bool) -> None:
    checked: set[str] = set()
    for game in _positions(scenario, seed, cards, 160):
        state = game.state
        side, allowed = FLOW.decision(state)
        assert side is not None
        for name in allowed:
            kind = ENGINE.kinds[name]
            for action in kind.options(state, side):
                assert action.kind == name
                before = state.to_dict()
                kind.check(state, side, action)  # raises if listing and checking disagree
                assert state.to_dict() == before  # a check changes nothing
                checked.add(name)
        # the engine's menu is exactly the union of the allowed kinds' options
        assert game.legal_actions() == [
            a for name in allowed for a in ENGINE.kinds[name].options(state, side)
        ]
    assert {"activate", "pass", "move", "end"} <= checked


def test_kinds_cover_every_decision() -> None:
    names = {k.name for k in KINDS}
    assert set(ACT_KINDS) <= names
    assert {"swap", "card", "no_response", "react", "no_react", "activate", "pass"} <= names


def _refused(game: umpire.Game, action: Action) -> IllegalActionError:
    before = game.state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        game.apply(action)
    assert game.state.to_dict() == before
    return err.value


def test_illegal_submissions_are_refused_naming_the_rule() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=2, options={"cards": False})
    side = game.to_act
    assert game.state.flow.phase == Phase.ACTIVATE
    enemy = next(u for u in game.state.units.values() if u.side != side)
    own = next(u for u in game.state.units.values() if u.side == side)
    # an act before any unit is activated
    err = _refused(game, Action("move", unit=own.uid, point=(1.0, 1.0)))
    assert err.rule == "sevendays.activation.token"
    # activating an enemy unit
    err = _refused(game, Action("activate", unit=enemy.uid))
    assert err.rule == "sevendays.activation.token" and enemy.uid in str(err)
    # a card in a game without cards
    err = _refused(game, Action("card", option="airstrike"))
    assert err.rule == "sevendays.cards.play"
    # activate a unit, then ask for acts it may not take
    game.apply(Action("activate", unit=own.uid))
    top = FLOW.top(game.state)
    assert isinstance(top, Pending) and top.stage == Phase.ACT
    err = _refused(game, Action("move", unit=own.uid, point=(own.x + 60.0, own.y)))
    assert err.rule is not None and err.rule.startswith("sevendays.move")
    other = next(u for u in game.state.units.values() if u.side == side and u.uid != own.uid)
    err = _refused(game, Action("end", unit=other.uid))
    assert err.rule == "sevendays.activation.actions"
    err = _refused(game, Action("exit", unit=own.uid))
    assert err.rule == "sevendays.victory.breakthrough"
    err = _refused(game, Action("disembark", unit=own.uid, target=enemy.uid))
    assert err.rule == "sevendays.transport.disembark"
    game.apply(next(a for a in game.legal_actions() if a.kind == "move"))
    while game.state.flow.phase == Phase.REACT:
        game.apply(Action("no_react"))
    if game.state.flow.activation is not None:
        err = _refused(game, Action("move", unit=own.uid, point=(own.x, own.y)))
        assert err.rule == "sevendays.activation.actions" and "already moved" in str(err)
        err = _refused(game, Action("rapid", unit=own.uid, point=(own.x, own.y)))
        assert err.rule == "sevendays.activation.actions"


def test_a_reaction_window_is_a_pending_decision_of_the_enemy() -> None:
    for seed in range(20):
        game = umpire.new_game("sevendays/meeting-engagement", seed=seed, options={"cards": False})
        rng = random.Random(seed)
        for _ in range(200):
            if game.state.flow.phase == Phase.REACT:
                top = FLOW.top(game.state)
                assert isinstance(top, Pending) and top.stage == Phase.REACT
                act = game.state.flow.activation
                assert act is not None
                active_side = game.state.units[act.unit].side
                assert top.side != active_side == game.state.flow.core.stack[-2].side
                err = _refused(game, Action("end", unit=act.unit))
                assert err.rule == "sevendays.reaction.window"
                err = _refused(game, Action("react", unit=act.unit))
                assert err.rule == "sevendays.reaction.window"
                return
            legal = game.legal_actions()
            if not legal:
                break
            game.apply(rng.choice(legal))
    pytest.fail("no reaction window opened in 20 random games")
