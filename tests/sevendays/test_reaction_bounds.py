"""A reactor whose line to the activating unit terrain surely blocks has no reaction shot
(issue 19): ``reactions.reaction_option`` answers it without planning.

Book p15 (sevendays.los.blockers): a unit cannot fire at what it cannot see, and blocking
terrain across the line hides the target; only a mortar fires on another unit's sight
(sevendays.mortar.fire), and nothing on the ground hides a helicopter (sevendays.air.helicopter;
``los.terrain_blocked`` is never true for one). These tests play games and check, at every
position, for every pair the shortcut answers, that the full planner refuses every shot too.
"""

from __future__ import annotations

import pytest

import umpire
from umpire.agents import make_agent
from umpire.core.ruleset import get_ruleset
from umpire.rulesets.sevendays import reactions
from umpire.rulesets.sevendays.los import prefetch_between, terrain_blocked
from umpire.rulesets.sevendays.shots import ShotPlan


@pytest.mark.parametrize(
    "scenario,seed,agents",
    [("meeting-engagement", 4, "random"), ("breakthrough", 2, "scripted")],
)
def test_a_reactor_terrain_blinds_has_no_shot(scenario: str, seed: int, agents: str) -> None:
    ruleset = get_ruleset("sevendays")
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
    shortcut = planned = 0
    for n in range(300):
        side = game.to_act
        if side is None:
            break
        if n % 5 == 0:
            state = game.state
            world = ruleset.world(state)  # type: ignore[attr-defined]
            alive = [u for u in state.units.values() if u.alive]
            for activator in alive:
                foes = [u for u in alive if u.side != activator.side]
                prefetch_between(world, foes, [activator], reaction=True, lazy=False)
                for reactor in foes:
                    if not terrain_blocked(world, reactor, activator):
                        continue
                    if "mortar" in world.profile(reactor).traits:
                        continue
                    for moving in (False, True):
                        full = reactions.best_plan(
                            world,
                            state,
                            reactor,
                            activator,
                            reaction=True,
                            target_moving=moving,
                            known_only=True,
                        )
                        assert not (isinstance(full, ShotPlan) and full.possible)
                        assert (
                            reactions.reaction_option(world, state, activator, reactor, moving)
                            is None
                        )
                        planned += 1
                    shortcut += 1
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
    assert shortcut > 20 and planned == 2 * shortcut


def _never_blocked(*_args: object) -> bool:
    return False


@pytest.mark.parametrize("scenario,seed", [("meeting-engagement", 6), ("breakthrough", 9)])
def test_menus_are_the_same_with_and_without_the_terrain_shortcut(
    scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the shot menus (kinds.Shoot) and the reaction menus (reactions.reaction_options) list
    # the same actions as when every shot is planned in full
    from umpire.rulesets.sevendays import kinds

    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    players = {s: make_agent("random", "sevendays", s, seed) for s in ("nato", "pact")}
    shots = windows = 0
    for _ in range(400):
        side = game.to_act
        if side is None:
            break
        state = game.state
        with_shortcut = [
            list(k.options(state, side)) for k in kinds.ACTS if isinstance(k, kinds.Shoot)
        ]
        react = kinds.KINDS[[k.name for k in kinds.KINDS].index("react")]
        reacting = state.flow.activation is not None and any(
            getattr(p, "stage", None) == kinds.Phase.REACT for p in state.flow.core.stack[-1:]
        )
        menu = list(react.options(state, side)) if reacting else []
        with monkeypatch.context() as patch:
            patch.setattr(kinds, "terrain_blocked", _never_blocked)
            patch.setattr(reactions, "terrain_blocked", _never_blocked)
            state.reaction_memo = state.reactor_memo = None  # list the window afresh
            in_full = [
                list(k.options(state, side)) for k in kinds.ACTS if isinstance(k, kinds.Shoot)
            ]
            full_menu = list(react.options(state, side)) if reacting else []
        state.reaction_memo = state.reactor_memo = None
        assert with_shortcut == in_full
        assert menu == full_menu
        shots += sum(map(len, in_full))
        windows += reacting
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
    assert shots > 20 and windows > 3
