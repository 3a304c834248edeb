"""The scripted player's shortcuts (issue 13, speed) choose what the plain computation
chooses. A movement decision is worked out from the rules' answers one mode at a time
(:meth:`RhineScripted._move_answers`), each answer's destinations scored in one pass; a hex
with no enemy next to it is scored once for every strength (``_calm``); the Pact keeps what
each hex offers from one enemy position to the next but for the hexes where the enemy
strength next to them (or an enemy in them) changed; NATO's distance to the nearest enemy is
worked out for every hex at once. The plain computation is a twin player that forgets all of
that before each decision, scores each unit's options joined (:meth:`RhineScripted._move`,
over :func:`agent.own_moves`) and finds each hex's nearest enemy by its own loop. At every
decision of whole games on both scenarios (both sides scripted, and with random choices
mixed in so that unusual positions are reached) both players are asked and must give the
same action and the same reason (which prints the scores compared)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import agent as A
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine import ruleset as RS
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.model import World


class PlainPlayer(RhineScripted):
    """The scripted player without the shortcuts: nothing kept between decisions, each
    unit's options joined and scored one by one, the nearest enemy found hex by hex."""

    def choose(self, view: Any, legal: Any) -> Action:
        self._hexes_key = ()  # what each hex offers: worked out afresh
        self._hexes, self._scored, self._calm = {}, {}, {}
        self._near_key, self._near = frozenset(), {}
        return super().choose(view, legal)

    def _movement(self, w: World, board: A._Board, obs: Mapping[str, Any]) -> Action:
        turn = obs["flow"]["turn"]
        movable = R.movable_units(w, obs["status"], obs["moved"], self.side, turn)
        jammed = R.heli_ma_units(w, movable, board.ew, board.heli_ma)
        if jammed:
            return Action("heli_ma", unit=jammed[0])
        found = self._move(w, board, A.own_moves(w, board, obs, movable, self._stay))
        if found is not None:
            return found
        self.last_reason = "nothing worth doing"
        return A._END_PHASE

    def _nato_base(
        self,
        w: World,
        board: A._Board,
        h: str,
        terrain: int,
        n_friends: int,
        enemy: Mapping[str, list[str]],
        col: int | None = None,
    ) -> tuple[float, int]:
        if h not in self._near:
            self._near[h] = min((w.distance(h, e) for e in enemy), default=6)
        return super()._nato_base(w, board, h, terrain, n_friends, enemy, col)


@pytest.mark.parametrize(
    "scenario,seed,random_share",
    [
        ("autobahn-gap", 11, 0.0),
        ("autobahn-gap", 12, 0.0),
        ("autobahn-gap", 13, 0.3),
        ("kinzig-valley", 14, 0.0),
        ("kinzig-valley", 15, 0.3),
    ],
)
def test_player_shortcuts_choose_as_the_plain_player(
    scenario: str, seed: int, random_share: float
) -> None:
    game = Game(RULESET, scenario, seed)
    fast = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    plain = {s: PlainPlayer(s, seed) for s in RULESET.meta.players}
    rng = random.Random(seed)
    movement = compared = 0
    while not game.is_over:
        side = game.to_act
        assert side is not None
        legal = game.legal_actions()
        obs = game.observation(side)
        got = fast[side].choose(game.view(side), legal)
        want = plain[side].choose(game.view(side), legal)
        assert got == want, (len(game.record.actions), side)
        assert fast[side].last_reason == plain[side].last_reason
        assert got in legal
        compared += 1
        if obs["segment"] == "move" and not obs["flow"]["stack"]:
            movement += 1
        game.apply(rng.choice(legal) if rng.random() < random_share else got)
    assert compared > 100 and movement > 30  # whole games, many movement decisions


@pytest.mark.parametrize("scenario,seed", [("autobahn-gap", 21), ("kinzig-valley", 22)])
def test_own_answers_joined_are_own_moves(scenario: str, seed: int) -> None:
    """:func:`agent.own_answers` hands the rules' answers of each unit, one per mode, the
    empty ones left out: joined, they are the options :func:`agent.own_moves` lists."""
    game = Game(RULESET, scenario, seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    compared = 0
    while not game.is_over:
        side = game.to_act
        assert side is not None
        obs = game.observation(side)
        if obs["segment"] == "move" and not obs["flow"]["stack"]:
            w = RS.world(game.state)
            board = A._Board(obs)
            units = R.movable_units(w, obs["status"], obs["moved"], side, obs["flow"]["turn"])
            joined = [
                (u, [o for answer in answers for o in answer])
                for u, answers in A.own_answers(w, board, obs, units, set())
            ]
            moves = [(u, list(opts)) for u, opts in A.own_moves(w, board, obs, units, set())]
            assert joined == moves
            for _, answers in A.own_answers(w, board, obs, units, set()):
                assert all(answers) and all(len({o.mode for o in a}) == 1 for a in answers)
            compared += 1
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    assert compared > 30
