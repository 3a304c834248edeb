"""Whether a reaction window opens, decided before the obscured test where it cannot matter
(issue 19): ``reactions.any_reaction`` asks ``reactions.reaction_outlook`` first.

Book p15-16: a shot is refused by the rules read before anyone looks along the line (the
weapon, ATGM minimum range and targets, infantry at vehicles beyond 12", the firer's arc:
sevendays.fire.base, .atgm_min_range, .atgm_actions, .infantry_at_range, .arc); a target it
cannot see is refused (sevendays.los.blockers); a seen target more than 50% obscured costs +1
(sevendays.los.obscured, sevendays.fire.modifier.cover), as enemy infantry within 12" does
(sevendays.fire.modifier.infantry_close); a shot needing more than 10 on the d10 is impossible.
So when every combination of the two dear facts leaves the shot possible, the shot is there
exactly when the reactor sees the activator, and when none does, it is never there.

These tests check, at positions of whole games, for every activator and every reactor, that
the outlook never contradicts the full plan (``reactions.reaction_option``), that
``any_reaction`` answers as the plain search over every reactor, and that the window's menu
(``reactions.reaction_actions``, which reads only whether each reactor has a shot) lists the
actions of the full listing (``reactions.reaction_options``, with each option's roll), recce
spotting's reaction moves included (sevendays.reaction.recce_spotting).
"""

from __future__ import annotations

import pytest

import umpire
from umpire.agents import make_agent
from umpire.core.ruleset import get_ruleset
from umpire.rulesets.sevendays import reactions
from umpire.rulesets.sevendays.los import sight
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World


def _plain_any(world: World, state: SevenDaysState, activator: Unit, moving: bool) -> bool:
    candidates = reactions.reactors(state, activator)
    if any(reactions.reaction_option(world, state, activator, u, moving) for u in candidates):
        return True
    return (
        bool(candidates)
        and reactions.recce_spots(world, state, activator)
        and any(reactions.move_reactions(world, state, activator, u, limit=1) for u in candidates)
    )


@pytest.mark.parametrize(
    "scenario,seed,agents",
    [
        ("meeting-engagement", 11, "random"),
        ("meeting-engagement", 12, "scripted"),
        ("breakthrough", 3, "random"),
        ("escalating-engagement", 4, "scripted"),
    ],
)
def test_outlook_agrees_with_the_full_plan(scenario: str, seed: int, agents: str) -> None:
    ruleset = get_ruleset("sevendays")
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
    counts = {"no": 0, "sight": 0, "full": 0, "windows": 0, "open": 0, "moves": 0}
    for n in range(300):
        side = game.to_act
        if side is None:
            break
        if n % 7 == 0:
            state = game.state
            world = ruleset.world(state)  # type: ignore[attr-defined]
            alive = [u for u in state.units.values() if u.alive]
            for activator in alive:
                for moving in (False, True):
                    for reactor in reactions.reactors(state, activator):
                        outlook = reactions.reaction_outlook(
                            world, state, activator, reactor, moving
                        )
                        option = reactions.reaction_option(world, state, activator, reactor, moving)
                        if outlook is None:
                            counts["full"] += 1
                        elif outlook is reactions.SIGHT:
                            seen = sight(world, state, reactor, activator, obscured=False)
                            assert (option is not None) == seen.visible
                            counts["sight"] += 1
                        else:
                            assert outlook is False and option is None
                            counts["no"] += 1
                        assert reactions.has_reaction_shot(
                            world, state, activator, reactor, moving
                        ) == (option is not None)
                    found = reactions.any_reaction(world, state, activator, moving)
                    assert found == _plain_any(world, state, activator, moving)
                    counts["windows"] += 1
                    counts["open"] += found
                    # the window's menu: the listing's actions, each listed afresh
                    state.reaction_memo = state.reactor_memo = None
                    menu = reactions.reaction_actions(world, state, activator, moving)
                    state.reaction_memo = state.reactor_memo = None
                    listed = reactions.reaction_options(world, state, activator, moving)
                    assert menu == [o.action() for o in listed]
                    assert bool(menu) == found
                    counts["moves"] += sum(1 for a in menu if a.point is not None)
                    state.reaction_memo = state.reactor_memo = None
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
    # both shortcuts, the full plan, and windows both ways were met
    assert counts["no"] > 10 and counts["sight"] > 10 and counts["full"] > 0
    assert 0 < counts["open"] < counts["windows"] and counts["moves"] > 0
