"""The engine's shortcuts (issue 13, speed) give what the plain rules give.

* What the flow works out while it settles after an action (who acts, the EW listing, the
  refugee hexes) is kept for the position it settles in: the listing and the side to act read
  from it equal those of a fresh copy of the same position that remembers nothing
  (rhine.sequence.turn: the turn's phases and who decides in each).
* A side's observation is the state as that side reads it, never the seed or the dice stream,
  and the other side's combat-support choice stays hidden until both have committed
  (rhine.cs.secret: "both sides choose their support secretly and reveal together").
* The EW-marker and refugee checks (rhine.ew.use: an EW marker on an enemy stack, two at most
  per hex; rhine.admin.refugees: one per hex, on empty NATO-controlled hexes) accept exactly
  the listed actions.
* The victory points equal the scenario's count (rhine.victory.scenario, spec 5.8-5.9: cities
  held by the Pact, strong units exited, losses in steps of the scenario's divisors).
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Iterator
from typing import Any

import pytest

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.flow import SecretCommit
from umpire.core.game import Game
from umpire.play import LazyActions
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import ruleset as RS
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.state import RhineState


def positions(scenario: str, seed: int, limit: int = 10_000) -> Iterator[Game]:
    """Each position of a scripted game, the game as it stands before the next action."""
    game = Game(RULESET, scenario, seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    while not game.is_over and len(game.record.actions) < limit:
        yield game
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), LazyActions(game)))
    yield game


def fresh(state: RhineState) -> RhineState:
    """The same position, remembering nothing (no memo, no carried answers)."""
    twin = RhineState.from_dict(state.to_dict())
    assert not twin.memo and not twin.carry and not twin.keep
    return twin


@pytest.mark.parametrize(("scenario", "seed"), [("autobahn-gap", 25), ("kinzig-valley", 26)])
def test_what_the_flow_keeps_equals_a_fresh_reading(scenario: str, seed: int) -> None:
    kept_something = 0
    compared = 0
    for game in positions(scenario, seed, limit=400):
        state = game.state
        kept_something += bool(state.memo)  # worked out while the flow settled, kept
        twin = fresh(state)
        assert RULESET.to_act(state) == RULESET.to_act(twin)
        assert RULESET.legal_actions(state) == RULESET.legal_actions(twin)
        compared += 1
    assert compared > 100
    assert kept_something > 10  # the shortcut is taken (else this test would prove nothing)


def test_an_illegal_action_leaves_the_position_and_what_is_kept_intact() -> None:
    game = Game(RULESET, "autobahn-gap", 3)
    before = game.state.to_dict()
    listed = game.legal_actions()
    with pytest.raises(IllegalActionError):
        game.apply(Action("refugee", cell="nowhere"))
    assert game.state.to_dict() == before
    assert game.legal_actions() == listed


def plain_observation(state: RhineState, side: str) -> dict[str, Any]:
    obs = state.to_dict(side, with_rng=False)
    del obs["seed"]
    return obs


@pytest.mark.parametrize("scenario", ["autobahn-gap", "kinzig-valley"])
def test_observation_is_the_state_as_the_side_reads_it(scenario: str) -> None:
    secret_seen = 0
    for game in positions(scenario, 4, limit=300):
        state = game.state
        for side in RULESET.meta.players:
            obs = RULESET.observation(state, side)
            assert "seed" not in obs and "rng" not in obs
            expected = plain_observation(state, side)
            assert {k: obs[k] for k in expected} == expected
            assert list(obs)[: len(expected)] == list(expected)
            assert obs["side"] == side and obs["to_act"] == RULESET.to_act(state)
            assert obs["vp"] == RS.victory_points(state)
            # its own copies, or parts no reader may change: nothing reaches the game or
            # another reader's observation
            obs["pos"].clear()
            obs["control"].clear()
            next(iter(obs["units"].values()))["hex"] = "elsewhere"
            obs["units"].clear()
            if obs["cs"]:
                with pytest.raises(TypeError):
                    obs["cs"][0]["status"] = "changed"
                with pytest.raises(TypeError):
                    obs["cs"].append({})
            assert plain_observation(state, side) == expected
            assert RULESET.observation(state, side) == {
                **expected,
                **{k: obs[k] for k in ("side", "to_act", "segment", "vp")},
            }
            assert json.loads(json.dumps(obs["cs"])) == expected["cs"]
            assert pickle.loads(pickle.dumps(obs["cs"])) == expected["cs"]
            plain = copy.deepcopy(obs["cs"])
            assert type(plain) is list and plain == expected["cs"]
            assert all(type(m) is dict for m in plain)  # a copy is made to be changed
        for d in state.flow.stack:
            if isinstance(d, SecretCommit) and d.committed:
                for side in RULESET.meta.players:
                    seen = RULESET.observation(state, side)["flow"]["stack"]
                    shown = [x for x in seen if x.get("type") == "secret"][-1]
                    for other, choice in d.committed.items():
                        if other != side:  # whether it committed, never what
                            assert choice not in shown.get("committed", {}).values()
                            secret_seen += 1
    assert secret_seen > 0


def ew_position() -> Game:
    for game in positions("autobahn-gap", 2):
        if any(a.kind == "ew_mark" for a in game.legal_actions()):
            return game
    raise AssertionError("no EW placement in this game")


def refugee_position() -> Game:
    for game in positions("autobahn-gap", 2):
        if any(a.kind == "refugee" for a in game.legal_actions()):
            return game
    raise AssertionError("no refugee placement in this game")


@pytest.mark.parametrize("kind", ["ew_mark", "refugee"])
def test_hex_checks_accept_exactly_the_listed_actions(kind: str) -> None:
    game = ew_position() if kind == "ew_mark" else refugee_position()
    state = game.state
    w = RS.world(state)
    listed = {a.cell for a in game.legal_actions() if a.kind == kind}
    assert listed
    for h in w.ids:
        for action in (
            Action(kind, cell=h),  # an equal copy of a listed one, not the listed object
            Action(kind, cell=h, unit=next(iter(state.pos))),  # a field the listing lacks
        ):
            allowed = action in set(game.legal_actions())  # the core's default check
            assert allowed == (h in listed and action.unit is None)
            try:
                RS.ENGINE.check(state, action)
                accepted = True
            except IllegalActionError as e:
                accepted = False
                assert e.rule == RS.ENGINE.kinds[kind].rule
            assert accepted == allowed, (kind, h, action)
    with pytest.raises(IllegalActionError):
        RS.ENGINE.check(state, Action(kind, cell="no-such-hex"))


def scenario_vp(state: RhineState) -> dict[str, int]:
    """The scenario's victory points counted the plain way (spec 5.8-5.9)."""
    w = RS.world(state)
    v = w.spec.victory
    cities = sum(
        v.city_vp[name]
        for h, name in w.city_of.items()
        if name in v.city_vp and state.control.get(h) == "pact"
    )
    exits = sum(
        v.exit_vp
        for u, s in state.status.items()
        if s == "exited" and w.units[u].strength >= v.exit_min_strength
    )
    kills = state.losses["nato"] // v.per_nato_losses
    own = state.losses["pact"] // v.per_pact_losses
    return {
        "cities": cities,
        "exits": exits,
        "nato_losses": kills,
        "pact_losses": -own,
        "total": cities + exits + kills - own,
    }


def test_victory_points_equal_the_scenario_count() -> None:
    exits = 0
    for seed in (1, 2, 3):
        for game in positions("autobahn-gap", seed):
            assert RS.victory_points(game.state) == scenario_vp(game.state)
            exits += RS.victory_points(game.state)["exits"] > 0
    assert exits > 0  # the exit count is exercised


@pytest.mark.parametrize(("scenario", "seed"), [("autobahn-gap", 8), ("kinzig-valley", 9)])
def test_a_move_is_accepted_exactly_when_listed(scenario: str, seed: int) -> None:
    """rhine.move.costs: a move is checked against the moving unit's answer for the mode it
    names alone; it is accepted exactly when the full listing holds it."""
    checked = 0
    for game in positions(scenario, seed, limit=250):
        state = game.state
        if RS.segment(state) != "move" or state.flow.stack or len(state.moved) % 3:
            continue
        listed = {a for a in RULESET.legal_actions(fresh(state)) if a.kind == "move"}
        w = RS.world(state)
        side = RULESET.to_act(state)
        assert side is not None
        twin = fresh(state)  # checked with nothing listed in its position
        for u in RS.movable(twin, side):
            for h in [*w.ids, "exit"]:
                for mode in ("normal", "column", "heli"):
                    action = Action("move", unit=u, cell=h, option=mode)
                    try:
                        RS.ENGINE.check(twin, action)
                        accepted = True
                    except IllegalActionError:
                        accepted = False
                    assert accepted == (action in listed), action
                    checked += 1
        answers = [k for k in twin.memo if isinstance(k, tuple) and k[0] == "answers"]
        assert all(len(k) == 3 for k in answers)  # one mode's answer at a time
    assert checked > 1000


@pytest.mark.parametrize(("scenario", "seed"), [("autobahn-gap", 10), ("kinzig-valley", 11)])
def test_may_move_reads_the_movable_units_for_one_unit(scenario: str, seed: int) -> None:
    """rhine.reinf.entry, rhine.move.static: the check of one unit agrees with the rules'
    list of the units that may still move (read fresh, nothing remembered)."""
    from umpire.rulesets.rhine import rules as R

    compared = 0
    for game in positions(scenario, seed, limit=300):
        state = fresh(game.state)
        w = RS.world(state)
        for side in RULESET.meta.players:
            listed = R.movable_units(w, state.status, state.moved, side, state.flow.turn)
            for u in [*state.pos, None, "no-such-unit"]:
                assert RS.may_move(state, side, u) == (u in listed)
                compared += 1
            assert not state.memo  # read without the listing
    assert compared > 1000


@pytest.mark.parametrize(("scenario", "seed"), [("autobahn-gap", 12), ("kinzig-valley", 13)])
def test_every_listed_attack_passes_the_full_check(scenario: str, seed: int) -> None:
    """rhine.combat.one_hex, rhine.combat.odds: an attack picked from the listing is taken
    without a second check; each listed attack is one the full check allows."""
    checked = 0
    for game in positions(scenario, seed):
        state = fresh(game.state)
        side = RULESET.to_act(state)
        if side is None:
            continue
        for a in RULESET.legal_actions(state):
            if a.kind == "attack":
                assert RS.attack_ok(state, side, a.cell or "", a.units) is None, a
                RS.AttackKind().check(state, side, a)
                checked += 1
    assert checked > 10


def test_the_markers_are_shared_until_one_changes() -> None:
    """The support markers of an observation are made again exactly when a marker or the
    pool changes (rhine.cs.pool: a marker's status)."""
    state = Game(RULESET, "autobahn-gap", 1).state
    a, b = RULESET.observation(state, "pact"), RULESET.observation(state, "nato")
    assert a["cs"] is b["cs"]
    assert a["units"] is not b["units"]  # the units: each observation its own copy
    state.cs[0].status = "used"
    c = RULESET.observation(state, "pact")
    assert c["cs"] is not a["cs"] and c["cs"][0]["status"] == "used"
    state.cs.append(state.cs.pop(0))  # the same markers in another order
    assert RULESET.observation(state, "pact")["cs"] == [m.to_dict() for m in state.cs]
    state.cs.pop()
    assert RULESET.observation(state, "pact")["cs"] == [m.to_dict() for m in state.cs]
    twin = RhineState.from_dict(state.to_dict())  # another game's writes count too
    twin.cs[0].back = 9
    assert RULESET.observation(state, "pact")["cs"] == [m.to_dict() for m in state.cs]


def test_a_stop_is_accepted_exactly_as_listed() -> None:
    """rhine.sequence.turn: ending a phase (or placing no more markers) is one action; an
    equal copy is accepted, one with any other field is refused."""
    seen = set()
    for game in positions("autobahn-gap", 14, limit=200):
        state = game.state
        for a in RULESET.legal_actions(state):
            if a.kind in ("end_phase", "stop_air", "stop_ew", "decline"):
                seen.add(a.kind)
                RS.ENGINE.check(state, Action(a.kind))
                for odd in (Action(a.kind, unit="x"), Action(a.kind, cell="0101")):
                    with pytest.raises(IllegalActionError) as refused:
                        RS.ENGINE.check(state, odd)
                    assert refused.value.rule == RS.ENGINE.kinds[a.kind].rule
    assert {"end_phase", "stop_air"} <= seen
