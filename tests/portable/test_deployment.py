"""Free deployment in the Portable Wargame (game option ``deployment: free``; house rule
portable.setup.free_deployment): each side places its ground units on squares of its own first
rows before turn 1, as a unit could end a move there (portable.move.stacking, portable.move.
stack_limit, portable.terrain.river.impassable); the default keeps the scenario's squares."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from umpire.analysis.simulate import play_game
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game
from umpire.core.ruleset import DeployStep, get_ruleset
from umpire.geometry.squaregrid import parse_label
from umpire.rulesets.portable.deployment import OFF, DeployingScripted

FREE = {"deployment": "free"}


def dumped(data: Any) -> Any:
    return json.loads(json.dumps(data, default=str))


def test_fixed_by_default_no_step_and_the_turn_begins_at_set_up() -> None:
    r = get_ruleset("portable")
    state = r.new_state("village-attack", 4, {})
    assert r.capabilities.deployment(state) is None
    assert all(a.kind != "place" for a in r.legal_actions(state))
    assert state.flow.phase != ""  # the turn's flow has begun


def test_village_attack_blue_places_first_in_its_first_rows() -> None:
    r = get_ruleset("portable")
    state = r.new_state("village-attack", 4, FREE)
    step = r.capabilities.deployment(state)
    assert isinstance(step, DeployStep) and step.side == "blue" and not step.hidden
    # Blue's scenario units stand on rows 1-2 (facing north): its zone is rows 1-2
    assert set(step.zone["cells"]) == {f"{c}{n}" for c in "ABCDEFGHIJ" for n in (1, 2)}
    legal = r.legal_actions(state)
    assert legal and all(a.kind == "place" and a.cell in step.zone["cells"] for a in legal)
    # the trucks' passengers ride with them: not placed on their own
    carried = {u.uid for u in state.units.values() if u.carried_by}
    assert carried and not carried & set(step.pieces)
    # no die is rolled and nobody holds the initiative before the last unit is placed
    assert state.flow.phase == "" and r.observation(state, "red")["flow"]["decision"] == "deploy"
    assert all(state.units[p].pos == OFF for p in step.pieces)


def test_placements_follow_the_stacking_and_zone_rules() -> None:
    r = get_ruleset("portable")
    state = r.new_state("village-attack", 4, FREE)
    before = dumped(r.state_to_dict(state))
    for bad in (
        Action("place", unit="blue-c-inf", cell="C7"),  # no such unit
        Action("place", unit="red-hq", cell="F7"),  # not Blue's
        Action("activate", unit="blue-commander"),
    ):
        with pytest.raises(IllegalActionError):
            r.apply(state, bad)
        assert dumped(r.state_to_dict(state)) == before
    step = r.capabilities.deployment(state)
    assert step is not None
    infantry = [p for p in step.pieces if state.units[p].type == "infantry"]
    with pytest.raises(IllegalActionError, match="deployment zone"):
        r.apply(state, Action("place", unit=infantry[0], cell="C5"))
    r.apply(state, Action("place", unit=infantry[0], cell="C2"))
    assert state.units[infantry[0]].pos == parse_label("C2")
    # portable.move.stacking: a second fighting unit may not share the square
    with pytest.raises(IllegalActionError, match="another friendly unit"):
        r.apply(state, Action("place", unit=infantry[1], cell="C2"))
    assert Action("place", unit=infantry[1], cell="C2") not in r.legal_actions(state)


def test_cargo_goes_with_its_carrier_and_red_follows_blue() -> None:
    r = get_ruleset("portable")
    state = r.new_state("village-attack", 4, FREE)
    carrier = next(
        u for u in state.units.values() if any(c.carried_by == u.uid for c in state.units.values())
    )
    r.apply(state, Action("place", unit=carrier.uid, cell="F1"))
    for cargo in state.units.values():
        if cargo.carried_by == carrier.uid:
            assert cargo.pos == carrier.pos == parse_label("F1")
    while (step := r.capabilities.deployment(state)) is not None and step.side == "blue":
        r.apply(state, r.legal_actions(state)[0])
    assert step is not None and step.side == "red"
    assert all(int(c[1:]) >= 6 for c in step.zone["cells"])  # Red's rows 6-8 (facing south)
    while r.capabilities.deployment(state) is not None:
        r.apply(state, r.legal_actions(state)[-1])
    assert state.flow.phase != "" and r.to_act(state) is not None
    assert all(a.kind != "place" for a in r.legal_actions(state))


def test_deploy_for_me_keeps_the_scenarios_squares_where_it_can() -> None:
    r = get_ruleset("portable")
    game = Game(r, "armoured-meeting", 5, FREE)
    fixed = Game(r, "armoured-meeting", 5, {})
    agents = {s: DeployingScripted(s, 5) for s in r.meta.players}
    while (step := r.capabilities.deployment(game.state)) is not None:
        action = agents[step.side].choose(game.view(step.side), game.legal_actions())
        assert action in game.legal_actions()
        game.apply(action)
    same = [u for u in game.state.units.values() if u.pos == fixed.state.units[u.uid].pos]
    assert len(same) == len(game.state.units)


@pytest.mark.parametrize("scenario", ["village-attack", "armoured-meeting"])
@pytest.mark.parametrize("kind", ["random", "scripted"])
def test_games_from_free_deployment_play_to_their_end(scenario: str, kind: str) -> None:
    row = play_game(f"portable/{scenario}", FREE, {"blue": kind, "red": kind}, 0, 3)
    assert row["winner"] in ("blue", "red", "draw") and row["actions"] > 20


def test_replays_and_round_trips_mid_deployment() -> None:
    r = get_ruleset("portable")
    game = Game(r, "trench-raid", 6, FREE)
    rng = random.Random(6)
    for _ in range(25):
        game.apply(rng.choice(game.legal_actions()))
    twin = Game(r, "trench-raid", 6, FREE)
    for action in game.record.actions:
        twin.apply(action)
    assert dumped(r.state_to_dict(twin.state)) == dumped(r.state_to_dict(game.state))
    again = r.state_from_dict(dumped(r.state_to_dict(game.state)))
    assert r.legal_actions(again) == r.legal_actions(game.state)


def test_no_objective_is_held_before_a_unit_stands_on_it() -> None:
    """portable.victory.result counts the last side to stand on an objective: with free
    deployment the scenario's squares hold nothing."""
    r = get_ruleset("portable")
    fixed = r.new_state("village-attack", 4, {})
    state = r.new_state("village-attack", 4, FREE)
    assert fixed.holders and not state.holders


# rules: portable.setup.free_deployment (the least rows are house_rules.yaml data)
def test_the_least_zone_depth_is_a_house_rule_number() -> None:
    r = get_ruleset("portable")
    house = {"free_deployment_min_rows": 4}
    state = r.new_state("village-attack", 4, {**FREE, "house_rules": house})
    step = r.capabilities.deployment(state)
    assert isinstance(step, DeployStep)
    # Blue's scenario units stand on rows 1-2, but the file asks for at least four rows
    assert set(step.zone["cells"]) == {f"{c}{n}" for c in "ABCDEFGHIJ" for n in (1, 2, 3, 4)}
