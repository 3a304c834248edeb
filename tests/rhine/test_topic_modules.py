"""The rhine ruleset split by rule topic: each decision's kind is defined in the module of its
topic and wired once into the engine; what other modules and the tests take from
``rhine.ruleset`` is the topic module's own object (the caches a test empties are the ones the
engine fills); and the observation, whose combat part is now handed out as a shared read-only
copy, still never shows a side the other side's secret support (rhine.cs.secret) and never
shows a stale combat."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from umpire.core.actions import Action
from umpire.core.flow import ActionKind, SecretCommit
from umpire.core.game import Game
from umpire.play import LazyActions
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import ruleset as RS
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.combat_support import cs_options_for

# each kind's topic module, and the rule-id families its rule belongs to (the series rules'
# sections: order choice, air and EW, movement, combat, support, results, administration)
TOPICS: dict[str, tuple[str, tuple[str, ...]]] = {
    "order": ("turn", ("rhine.order.",)),
    "end_phase": ("turn", ("rhine.sequence.",)),
    "decline": ("turn", ("rhine.momentum",)),
    "place_air": ("air_ew", ("rhine.air.",)),
    "stop_air": ("turn", ("rhine.air.",)),
    "ew_mark": ("air_ew", ("rhine.ew.",)),
    "ew_strip": ("air_ew", ("rhine.ew.",)),
    "stop_ew": ("turn", ("rhine.ew.",)),
    "move": ("movement", ("rhine.move.",)),
    "heli_ma": ("movement", ("rhine.ew.effect.",)),
    "attack": ("attacks", ("rhine.combat.",)),
    "probe": ("attacks", ("rhine.probe",)),
    "cs": ("combat_support", ("rhine.cs.",)),
    "retreat": ("combat_results", ("rhine.retreat.",)),
    "ex_loss": ("combat_results", ("rhine.crt.",)),
    "advance": ("combat_results", ("rhine.advance",)),
    "refugee": ("admin", ("rhine.admin.",)),
    "attrition": ("admin", ("rhine.admin.",)),
    "place": ("placement", ("rhine.setup.",)),
    "setup_suggested": ("placement", ("rhine.setup.",)),
}


def test_each_kind_is_defined_in_its_topic_module_and_wired_once() -> None:
    """rhine.sequence.turn: every decision of the turn's sequence is one kind of the engine,
    defined in the module of its rule topic, and every phase allows only kinds it has."""
    names = [k.name for k in RS.KINDS]
    assert len(names) == len(set(names))  # each kind wired once
    assert set(names) == set(TOPICS)
    for name, kind in RS.ENGINE.kinds.items():
        module, families = TOPICS[name]
        assert type(kind).__module__ == f"umpire.rulesets.rhine.{module}", name
        assert kind.rule.startswith(families), (name, kind.rule)
    for phase in RS.FLOW.phases:
        assert set(phase.kinds) <= set(RS.ENGINE.kinds), phase.name


def test_the_kinds_checked_by_their_listing_alone_are_those_with_the_core_check() -> None:
    """The engine's set of kinds whose check is the core's default (allowed exactly when
    listed) is worked out from its own kinds: those that override the check are not in it."""
    default = {k.name for k in RS.KINDS if type(k).check is ActionKind.check}
    assert RS.ENGINE.listed_check == default
    # the kinds with a check of their own (hex checks, move, attack, stops) are not
    for name in ("move", "attack", "ew_mark", "refugee", "end_phase", "place_air"):
        assert name not in RS.ENGINE.listed_check


def test_names_taken_from_ruleset_are_the_topic_modules_own() -> None:
    """Every name the ruleset module hands on is the very object of the module that defines it,
    and the move-action caches the tests empty through it are the ones the move listing
    fills."""
    from umpire.rulesets.rhine import movement

    for name in RS.__all__:
        obj = getattr(RS, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            home = obj.__module__
            assert home.startswith("umpire.rulesets.rhine."), name
            module = __import__(home, fromlist=[name])
            assert getattr(module, name) is obj, name
    assert RS._UNIT_ACTIONS is movement._UNIT_ACTIONS
    assert RS._ANSWER_ACTIONS is movement._ANSWER_ACTIONS
    game = Game(RULESET, "autobahn-gap", 3)
    agents = {s: RhineScripted(s, 3) for s in RULESET.meta.players}
    RS._UNIT_ACTIONS.clear()
    while RS.segment(game.state) != "move":
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), LazyActions(game)))
    assert any(a.kind == "move" for a in game.legal_actions())
    assert RS._UNIT_ACTIONS  # filled by the listing, seen through rhine.ruleset


def _half_committed(seed: int) -> Game:
    """A scripted game stopped where one side has committed support out of more than one
    choice and the other has not."""
    game = Game(RULESET, "autobahn-gap", seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    while not game.is_over:
        stack = game.state.flow.stack
        top = stack[-1] if stack else None
        if isinstance(top, SecretCommit) and len(top.committed) == 1:
            (made,) = top.committed
            if len(cs_options_for(game.state, made)) > 1:
                return game
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), LazyActions(game)))
    raise AssertionError("no half-made commitment with a choice in this game")


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_the_waiting_side_sees_the_same_whatever_the_other_committed(seed: int) -> None:
    """rhine.cs.secret: support is committed secretly and simultaneously; the side still to
    commit is shown the same observation (the combat, the markers, the flow) whatever the
    other side committed, among all its legal choices."""
    game = _half_committed(seed)
    state = game.state
    top = state.flow.stack[-1]
    assert isinstance(top, SecretCommit)
    (made,) = top.committed
    waiting = next(s for s in top.sides if s not in top.committed)
    seen: set[str] = set()
    for option in cs_options_for(state, made):
        twin = state.clone()
        twin_top = twin.flow.stack[-1]
        assert isinstance(twin_top, SecretCommit)
        twin_top.committed[made] = Action("cs", option=option).to_dict()
        obs = RULESET.observation(twin, waiting)
        text = json.dumps(obs, sort_keys=True)
        if option != "none":
            assert option not in json.dumps(obs["flow"], sort_keys=True)
        seen.add(text)
    assert len(seen) == 1


def _combat_position(seed: int) -> Game:
    game = Game(RULESET, "autobahn-gap", seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    while game.state.combat is None:
        assert not game.is_over
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), LazyActions(game)))
    return game


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_the_combat_shown_follows_the_combat_and_no_reader_can_change_it() -> None:
    """The combat being resolved (rhine.combat.one_hex, rhine.crt.results) as both sides read
    it: equal to the state's, changed as soon as the state's is (never a stale copy), and
    read-only, so that no reader's change reaches the game or another reader."""
    game = _combat_position(4)
    state = game.state
    assert state.combat is not None
    first = RULESET.observation(state, "pact")["combat"]
    assert _plain(first) == _plain(state.combat)
    with pytest.raises(TypeError):
        first["target"] = "elsewhere"
    with pytest.raises(TypeError):
        first["units"].append("someone")
    assert _plain(RULESET.observation(state, "nato")["combat"]) == _plain(state.combat)
    # the state's combat changes in place (as a result's steps are worked through)
    state.combat["todo"].append({"step": "advance"})
    state.combat["advanced"] = list(state.combat["units"])
    again = RULESET.observation(state, "nato")["combat"]
    assert _plain(again) == _plain(state.combat) != _plain(first)
    state.combat = None
    assert RULESET.observation(state, "pact")["combat"] is None
