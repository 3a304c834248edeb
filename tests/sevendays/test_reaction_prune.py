"""The scripted player bounds each reaction's worth before planning it (issue 19) and still
reacts exactly as when it plans every reactor of its shortlist.

A reaction's worth is the chance the reaction roll passes times the shot's value (rules
sevendays.reaction.target, .tokens_markers, .recce, book p16: the score needed by the
activating unit's type and cover, one less with an ATGM; sevendays.fire.*: the shot's odds).
The bound takes the best odds any of the reactor's weapons could give (the easiest situation:
clear sight, no infantry close) and the lowest score the reaction could need; a reactor whose
bound is below the worth of a token, or no more than the best reaction found so far, is not
planned. These tests play whole games of every scenario and compare, at every reaction window,
the player's choice and its reason with the plain search that plans every reactor, with the
shortlist as it is and widened to every unit that may react.
"""

from __future__ import annotations

from typing import Any

import pytest

import umpire
from umpire.agents import make_agent
from umpire.core.actions import Action
from umpire.play import play_out
from umpire.rulesets.sevendays import agent as agent_module
from umpire.rulesets.sevendays.agent import REACTION_WORTH, SevenDaysScripted, _shortlist
from umpire.rulesets.sevendays.odds import shot_odds
from umpire.rulesets.sevendays.reactions import reaction_option, reactors
from umpire.rulesets.sevendays.scenario import scenario_ids
from umpire.rulesets.sevendays.state import SevenDaysState
from umpire.rulesets.sevendays.world import World


def _plain_react(
    player: SevenDaysScripted, world: World, state: SevenDaysState
) -> tuple[Action, str]:
    """Every reactor of the shortlist planned, the best reaction by value (the first among
    equals) taken if it is worth a token."""
    act = state.flow.activation
    assert act is not None
    activator = state.units[act.unit]
    moving = state.flow.reacting_to_move
    best: tuple[float, Action | None, str] = (0.0, None, "")
    for reactor in _shortlist(world, reactors(state, activator), activator):
        option = reaction_option(world, state, activator, reactor, moving)
        if option is None or option.plan is None:
            continue
        odds = shot_odds(world, option.plan, reactor, activator)
        p_react = min(1.0, (7 - option.need) / 6)
        value = p_react * (odds.out + 0.3 * odds.markers / (world.profile(activator).morale or 5))
        action = Action("react", unit=option.unit)
        if value > best[0] and player._allowed(action):
            why = (
                f"react with {reactor.name}: {option.need}+ to react, "
                f"P kill {odds.out:.0%} against {activator.name}"
            )
            best = (value, action, why)
    if best[1] is not None and best[0] >= REACTION_WORTH:
        return best[1], best[2]
    return Action("no_react"), "no reaction worth a token"


def _play(scenario: str, seeds: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Play scripted games, checking the player's reaction at every window against the plain
    search; how many windows, reactions taken, reactors bounded and reactors not planned."""
    pruned = SevenDaysScripted._react
    bound = SevenDaysScripted._reaction_bound
    seen = {"windows": 0, "reacted": 0, "bounded": 0, "skipped": 0}

    def counting(world: World, reactor: Any, activator: Any, moving: bool) -> float:
        most = float(bound.__func__(SevenDaysScripted, world, reactor, activator, moving))  # type: ignore[attr-defined]
        seen["bounded"] += 1
        seen["skipped"] += most < REACTION_WORTH
        return most

    def checking(self: SevenDaysScripted, world: World, state: SevenDaysState) -> Action:
        want = _plain_react(self, world, state)
        got = pruned(self, world, state)
        assert (got, self.last_reason) == want
        seen["windows"] += 1
        seen["reacted"] += got.kind == "react"
        return got

    with monkeypatch.context() as patch:
        patch.setattr(SevenDaysScripted, "_reaction_bound", staticmethod(counting))
        patch.setattr(SevenDaysScripted, "_react", checking)
        for seed in seeds:
            game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
            players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
            play_out(game, players)
    return seen


@pytest.mark.parametrize("scenario", scenario_ids())
def test_bounded_reactions_are_the_planned_ones(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _play(scenario, (41, 42), monkeypatch)
    assert seen["windows"] > 5 and seen["reacted"] > 0


def test_every_bounded_reactor_is_planned_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no nearest units kept apart (the shortlist is then the ATGM carriers, each
    bounded before it is planned), over every scenario: the same choices, and reactors left
    unplanned."""
    monkeypatch.setattr(agent_module, "REACTION_SHORTLIST", 0)
    total = {"windows": 0, "reacted": 0, "bounded": 0, "skipped": 0}
    for scenario in scenario_ids():
        for key, n in _play(scenario, (43,), monkeypatch).items():
            total[key] += n
    assert total["windows"] > 20 and total["reacted"] > 0
    assert total["bounded"] > 0 and total["skipped"] > 0
