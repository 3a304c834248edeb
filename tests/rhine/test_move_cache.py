"""The move listing's remembered answers (carried from position to position in
``ruleset.unit_answers``, shared by identity in ``MoveKind.options``, routes walked to one
hex in ``MoveKind.resolve``) give exactly what a fresh listing gives: over games on both
scenarios with a mix of scripted and random choices, at every decision the legal actions and
each movable unit's options equal those of a clone listed with every cache emptied."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from tests.rhine.helpers import take_suggested_setup
from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import agent as A
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine import ruleset as RS
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.state import RhineState


def fresh_listing(state: RhineState) -> tuple[list[object], dict[str, list[R.MoveOption]]]:
    twin = state.clone()  # a clone carries nothing over and remembers nothing
    R._ANSWERS.clear()
    R._SEARCHES.clear()
    RS._UNIT_ACTIONS.clear()
    RS._ANSWER_ACTIONS.clear()
    legal = RULESET.legal_actions(twin)
    side = RULESET.to_act(twin)
    moves = {}
    if side is not None and RS.segment(twin) == "move":
        moves = {u: RS.unit_moves(twin, u) for u in RS.movable(twin, side)}
    return list(legal), moves


@pytest.mark.parametrize("scenario,seed", [("autobahn-gap", 3), ("kinzig-valley", 4)])
def test_cached_moves_equal_fresh(scenario: str, seed: int) -> None:
    game = Game(RULESET, scenario, seed)
    take_suggested_setup(game)  # the positions compared are those of play
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    rng = random.Random(seed)
    compared = 0
    while not game.is_over and compared < 400:
        side = game.to_act
        assert side is not None
        legal = game.legal_actions()
        if any(a.kind == "move" for a in legal):
            state = game.state
            cached = {u: RS.unit_moves(state, u) for u in RS.movable(state, side)}
            fresh_legal, fresh_moves = fresh_listing(state)
            assert legal == fresh_legal
            assert cached == fresh_moves
            compared += 1
        if rng.random() < 0.5:
            action = rng.choice(legal)
        else:
            action = agents[side].choose(game.view(side), legal)
        game.apply(action)
    assert compared > 50  # the listing was compared in many movement positions


def test_route_to_one_hex_matches_all_routes() -> None:
    """A move's route walked to the chosen hex only is the route of the full listing."""
    game = Game(RULESET, "autobahn-gap", 5)
    agents = {s: RhineScripted(s, 5) for s in RULESET.meta.players}
    checked = 0
    while not game.is_over and checked < 60:
        side = game.to_act
        assert side is not None
        legal = game.legal_actions()
        state = game.state
        w = RS.world(state)
        for a in legal:
            if a.kind != "move" or a.unit is None or w.units[a.unit].heliborne:
                continue
            entry = RS.entry_hexes(state, a.unit)
            full = R.move_options(w, state, a.unit, state.flow.turn, entry, True, {})
            one = R.move_options(w, state, a.unit, state.flow.turn, entry, True, {}, a.cell)
            want = next(o for o in full if o.dest == a.cell and o.mode == a.option)
            got = next(o for o in one if o.dest == a.cell and o.mode == a.option)
            assert got == want and (got.path or got.dest == "exit")
            checked += 1
            break
        game.apply(agents[side].choose(game.view(side), legal))
    assert checked > 10


def expanded(units: Iterable[A.UnitMoves]) -> list[tuple[str, list[tuple[str, ...]]]]:
    """Each unit's destinations with their modes, (destination, mode) in order."""
    out = []
    for u, dests, runs in units:
        modes = [mode for mode, count in runs for _ in range(count)]
        assert len(modes) == len(dests)
        out.append((u, [(d, m) for d, m in zip(dests, modes, strict=True)]))
    return out


@pytest.mark.parametrize("scenario,seed", [("autobahn-gap", 6), ("kinzig-valley", 7)])
def test_players_own_moves_equal_the_listing(scenario: str, seed: int) -> None:
    """In a movement phase the scripted player works its moves out from its observation
    (agent.own_moves) instead of reading the listing: at every movement decision, with
    scripted and random choices mixed, they are the listing's moves, unit by unit and in
    order, and the player's choice is one of the legal actions. The destinations it scores
    (agent.own_destinations, read without making the options) are those same moves."""
    game = Game(RULESET, scenario, seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    rng = random.Random(seed)
    compared = 0
    while not game.is_over and compared < 300:
        side = game.to_act
        assert side is not None
        legal = game.legal_actions()
        obs = game.observation(side)
        if obs["segment"] == "move" and not obs["flow"]["stack"]:
            w = RS.world(game.state)
            board = A._Board(obs)
            units = R.movable_units(w, obs["status"], obs["moved"], side, obs["flow"]["turn"])
            own = [
                (u, [tuple(o[:2]) for o in opts])
                for u, opts in A.own_moves(w, board, obs, units, set())
            ]
            listed = [(u, [tuple(o[:2]) for o in opts]) for u, opts in A.listed_moves(legal)]
            assert own == listed
            # the destinations the player scores (its options never made) are the same
            # moves, and so are the listing's read the same way
            assert expanded(A.own_destinations(w, board, obs, units, set())) == own
            assert expanded(A.listed_destinations(legal)) == listed
            compared += 1
        if rng.random() < 0.3:
            action = rng.choice(legal)
        else:
            action = agents[side].choose(game.view(side), legal)
            assert action in legal
        game.apply(action)
    assert compared > 30  # many movement decisions compared
