"""Positions built by hand for rule tests, and whole games played through."""

from __future__ import annotations

from typing import Any

from umpire.core.game import Game
from umpire.play import LazyActions
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.ruleset import world
from umpire.rulesets.rhine.state import RhineState


def board(
    units: dict[str, str],
    *,
    turn: int = 1,
    scenario: str = "autobahn-gap",
    options: dict[str, Any] | None = None,
) -> RhineState:
    """A new game with only ``units`` on the map (unit -> hex); every other unit is off it."""
    state: RhineState = RULESET.new_state(scenario, 1, options or {})
    for u in state.pos:
        state.pos[u] = units.get(u)
        state.status[u] = "on" if u in units else "gone"
    state.flow.turn = turn
    state.memo.clear()
    return state


def dests(state: RhineState, unit: str, mode: str = "normal") -> dict[str, float]:
    from umpire.rulesets.rhine import rules as R

    return {
        o.dest: o.cost
        for o in R.move_options(world(state), state, unit, state.flow.turn)
        if o.mode == mode
    }


def take_suggested_setup(game: Any) -> None:
    """Both sides take the scenario's suggested set-up (rhine.setup.suggested), NATO first
    (rhine.setup.order): the game then stands at the first turn's order choice."""
    from umpire.core.actions import Action

    for side in ("nato", "pact"):
        assert game.to_act == side
        game.apply(Action("setup_suggested"))


def play_scripted(scenario: str, seed: int) -> Game:
    """``scenario`` played to its end by the scripted players, as ``play_out`` hands them the
    legal actions (listed only if a player looks at them)."""
    game = Game(RULESET, scenario, seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    while not game.is_over:
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), LazyActions(game)))
    return game
