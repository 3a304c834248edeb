"""The shot menus (``kinds.Shoot.options``) against the plain definition, at positions of whole
games (issue 19): the menu lists a shot at every target whose full plan (``kinds.known_plan``)
is possible, and the shot declared with a move after it (sevendays.fire.declared_move, book p8)
at every target a move could still open whose plan with the move is possible.

The menu plans in full only the targets whose answer the facts read before the sight line do
not settle (``firing.shot_outlook``): book p15, a shot is refused by its weapon, range limits
and arc before anyone looks along the line (sevendays.fire.base, .atgm_min_range,
.atgm_actions, .infantry_at_range, .arc), by a blocked line (sevendays.los.blockers), and a seen
target more than 50% obscured (+1, sevendays.los.obscured) or enemy infantry close to the firer
(+1, sevendays.fire.modifier.infantry_close) can only make a shot need more than 10 on the d10
when that is foretold.
"""

from __future__ import annotations

import pytest

import umpire
from umpire.agents import make_agent
from umpire.core.actions import Action
from umpire.core.ruleset import get_ruleset
from umpire.rulesets.sevendays import kinds
from umpire.rulesets.sevendays.movement import THEN_MOVE
from umpire.rulesets.sevendays.shots import ShotPlan
from umpire.rulesets.sevendays.state import SevenDaysState


def _plain_menu(shoot: kinds.Shoot, state: SevenDaysState, side: str) -> list[Action]:
    """Every target planned in full, in table order (the menu's order)."""
    unit = shoot.open(state)
    act = state.flow.activation
    if unit is None or act is None or act.fired:
        return []
    world = kinds.world_of(state)
    if shoot.weapon not in world.shot_kinds(unit):
        return []
    out = []
    open_to_move = []
    for target in [t for t in state.units.values() if t.alive and t.side != unit.side]:
        plan = kinds.known_plan(world, state, unit, target, shoot.weapon)
        if isinstance(plan, ShotPlan):
            if plan.possible:
                out.append(Action(shoot.name, unit=unit.uid, target=target.uid))
            open_to_move.append(target)
        elif plan.rule in kinds.MOVE_MAY_LIFT:
            open_to_move.append(target)
    if kinds.may_declare_move(state, shoot.name):
        for target in open_to_move:
            plan = kinds.known_plan(world, state, unit, target, shoot.weapon, then_move=True)
            if isinstance(plan, ShotPlan) and plan.possible:
                out.append(Action(shoot.name, unit=unit.uid, target=target.uid, option=THEN_MOVE))
    return out


@pytest.mark.parametrize(
    "scenario,seed,agents",
    [
        ("meeting-engagement", 21, "random"),
        ("breakthrough", 22, "random"),
        ("escalating-engagement", 23, "scripted"),
        ("capture", 24, "random"),
    ],
)
def test_shot_menus_equal_the_plain_definition(scenario: str, seed: int, agents: str) -> None:
    ruleset = get_ruleset("sevendays")
    game = umpire.new_game(f"sevendays/{scenario}", seed=seed)
    players = {s: make_agent(agents, "sevendays", s, seed) for s in ("nato", "pact")}
    shooters = [k for k in kinds.ACTS if isinstance(k, kinds.Shoot)]
    listed = declared = menus = lost = 0
    for _ in range(500):
        side = game.to_act
        if side is None:
            break
        state = game.state
        ruleset.world(state)  # type: ignore[attr-defined]
        if state.flow.activation is not None:
            for shoot in shooters:
                menu = list(shoot.options(state, side))
                assert menu == _plain_menu(shoot, state, side)
                listed += len(menu)
                declared += sum(1 for a in menu if a.option == THEN_MOVE)
                menus += 1
                # morale markers on the firer (+1 each, sevendays.fire.modifier.morale): shots
                # the markers make impossible whatever the sight line (foretold) or only
                # when obscured or with infantry close (planned in full)
                for markers in (2, 4, 6):
                    twin = state.clone()
                    ruleset.world(twin)  # type: ignore[attr-defined]
                    twin.units[state.flow.activation.unit].markers = markers
                    worse = list(shoot.options(twin, side))
                    assert worse == _plain_menu(shoot, twin, side)
                    lost += len(menu) - len(worse)
        game.apply(players[side].choose(game.view(side), game.legal_actions()))
    assert menus > 20 and listed > 5 and lost > 0
    if agents == "random":
        assert declared > 0
