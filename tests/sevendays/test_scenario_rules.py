"""Scenario special rules: hidden deployment (and that it never leaks), dug in, reserves,
extra tokens, Random Operation Length, capture and breakthrough victory."""

from __future__ import annotations

import json

import pytest

from umpire.agents.base import make_agent
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import seen_by, to_dicts
from umpire.core.game import Game, new_game, replay
from umpire.play import summary
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.shots import Refusal, ShotPlan
from umpire.rulesets.sevendays.special import can_exit, reveal_spotted

from ..conftest import MakeGame, unit

SCENARIOS = ["meeting-engagement", "escalating-engagement", "capture", "breakthrough"]


def _world(game: Game):  # type: ignore[no-untyped-def]
    return game.ruleset.world(game.state)  # type: ignore[attr-defined]


def _secrets(game: Game, side: str) -> list[str]:
    """Strings that would give away the enemy's hidden units: uids and unit names."""
    return [
        text
        for u in game.state.units.values()
        if u.hidden and u.side != side
        for text in (u.uid, u.name)
    ]


def test_hidden_deployment_never_leaks_to_the_other_side() -> None:
    # a whole AI-vs-AI Capture: at every step, nothing PACT may see names a hidden NATO unit
    game = new_game("sevendays/capture", seed=3)
    players = {s: make_agent("scripted", "sevendays", s, 3) for s in ("nato", "pact")}
    hidden_at_start = {u.uid for u in game.state.units.values() if u.hidden}
    assert len(hidden_at_start) == 7
    pact_log = seen_by(game.events, "pact")
    steps = 0
    while game.to_act is not None:
        secrets = _secrets(game, "pact")
        view = json.dumps(game.observation("pact"))
        seen = json.dumps(to_dicts(pact_log))
        for secret in secrets:
            assert secret not in view, f"observation leaks {secret} at step {steps}"
            assert secret not in seen, f"log leaks {secret} at step {steps}"
        if game.to_act == "pact":
            for action in game.legal_actions():
                assert action.unit not in secrets and action.target not in secrets
        new = game.apply(players[game.to_act].choose(game.view(game.to_act), game.legal_actions()))
        pact_log += seen_by(new, "pact")
        steps += 1
    # NATO's own view and log do show its hidden units
    nato_log = seen_by(game.events, "nato")
    assert any(e.get("kind") == "hidden" and e.get("unit") for e in nato_log)
    # the replay shown to PACT is the same filtered log: rebuilt from the record, filtered again
    again = replay(game.record)
    assert seen_by(again.events, "pact") == pact_log


def test_markers_are_numbered_at_random_and_shown_as_markers() -> None:
    orders = set()
    for seed in range(6):
        game = new_game("sevendays/capture", seed=seed)
        by_marker = {u.marker: u.uid for u in game.state.units.values() if u.hidden}
        orders.add(tuple(sorted(by_marker.items())))
        view = game.observation("pact")
        markers = [u for u in view["units"] if u.get("hidden")]
        assert sorted(m["marker"] for m in markers) == sorted(by_marker)
        assert all(set(m) == {"marker", "side", "x", "y", "hidden"} for m in markers)
        assert all(u.get("uid") not in by_marker.values() for u in view["units"])
        # NATO sees its own units in full
        assert not any(
            u.get("hidden") and "uid" not in u for u in game.observation("nato")["units"]
        )
    assert len(orders) > 1  # the marker numbers do not tell which unit is which


def test_hidden_markers_cannot_be_targeted_and_are_revealed_when_spotted(
    make_game: MakeGame,
) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10, hidden=True)],
        pact=[unit("t", "t72a", 36, 40)],
    )
    world, state = _world(game), game.state
    assert state.units["nato-c"].hidden
    plan = plan_shot(world, state, state.units["pact-t"], state.units["nato-c"], "gun")
    assert isinstance(plan, Refusal) and plan.rule == "sevendays.scenario.hidden_deployment"
    assert reveal_spotted(world, state) == []  # 30" away: not spotted
    state.units["pact-t"].y = 20.0
    state.touch()
    events = reveal_spotted(world, state)
    assert events and events[0]["kind"] == "revealed" and not state.units["nato-c"].hidden
    plan = plan_shot(world, state, state.units["pact-t"], state.units["nato-c"], "gun")
    assert isinstance(plan, ShotPlan)


def test_activating_a_hidden_unit_reveals_it(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10, hidden=True), unit("d", "chieftain-mk9", 20, 5)],
        pact=[unit("t", "t72a", 36, 40)],
    )
    events = game.apply(Action("activate", unit="nato-c"))
    assert events[0]["kind"] == "revealed" and "visible_to" not in events[0]
    assert not game.state.units["nato-c"].hidden


# rules: sevendays.scenario.dug_in
def test_dug_in_counts_as_fortified_until_the_unit_moves(make_game: MakeGame) -> None:
    game = make_game(  # a Chieftain Mk5: no thermal sight, so cover counts against it
        nato=[unit("c", "chieftain-mk5", 36, 10)],
        pact=[unit("r", "motor-rifles", 36, 20, dug_in=True), unit("t", "t72a", 20, 40)],
    )
    world, state = _world(game), game.state
    plan = plan_shot(world, state, state.units["nato-c"], state.units["pact-r"], "gun")
    assert isinstance(plan, ShotPlan) and plan.cover == "fortified"
    assert "sevendays.fire.modifier.cover" in [m.rule for m in plan.modifiers]
    from umpire.rulesets.sevendays.movement import do_move

    do_move(world, state, state.units["pact-r"], "normal", (36.0, 24.0))
    assert not state.units["pact-r"].dug_in
    plan = plan_shot(world, state, state.units["nato-c"], state.units["pact-r"], "gun")
    assert isinstance(plan, ShotPlan) and plan.cover == "open"


def test_reserves_come_on_from_turn_two_and_bring_no_tokens(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("r", "chieftain-mk9", 50, 1, reserve=True)],
        pact=[unit("t", "t72a", 36, 40)],
    )
    state = game.state
    assert state.units["nato-r"].status == "reserve"
    assert state.flow.pools["nato"] == 1  # the reserve generates no token while off the table
    assert Action("activate", unit="nato-r") not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="from turn 2"):
        game.apply(Action("activate", unit="nato-r"))
    while game.state.flow.turn == 1:
        game.apply(
            Action("pass")
            if game.to_act == game.state.flow.initiative and game.state.flow.phase == "activate"
            else game.legal_actions()[-1]
        )
    while game.to_act != "nato" or game.state.flow.phase != "activate":
        game.apply(game.legal_actions()[-1])
    assert Action("activate", unit="nato-r") in game.legal_actions()
    events = game.apply(Action("activate", unit="nato-r"))
    assert events[0]["rule"] == "sevendays.scenario.reserves"
    assert game.state.units["nato-r"].alive and game.state.units["nato-r"].pos == (50.0, 1.0)


# rules: sevendays.scenario.attacker_moved
def test_capture_defender_extra_tokens_and_attacker_moved() -> None:
    game = new_game("sevendays/capture", seed=5)
    game.apply(Action("swap", option=""))  # the cards' exchange comes before turn 1
    game.apply(Action("swap", option=""))
    rolls = [e for e in game.events if e.get("rule") == "sevendays.scenario.extra_tokens"]
    assert len(rolls) == 1 and len(rolls[0]["dice"]) == 7  # one d6 per NATO unit on the table
    extra = rolls[0]["result"]
    assert game.state.flow.pools["nato"] == 5 + 2 + extra  # 5 non-APC units, commander 2
    assert game.state.flow.initiative == "pact"
    world = _world(game)
    game.apply(Action("activate", unit="pact-t64b-2"))
    assert game.ruleset.counts_moved(world, game.state, game.state.units["pact-t64b-2"])  # type: ignore[attr-defined]


def test_random_operation_length_rolls_after_the_last_turn() -> None:
    lengths = set()
    for seed in range(12):
        game = new_game("sevendays/escalating-engagement", seed=seed)
        players = {s: make_agent("random", "sevendays", s, seed) for s in ("nato", "pact")}
        while game.to_act is not None:
            game.apply(players[game.to_act].choose(game.view(game.to_act), game.legal_actions()))
        rolls = [e for e in game.events if e.get("rule") == "sevendays.scenario.random_length"]
        turn = game.state.flow.turn
        assert turn <= 10
        if game.outcome and game.outcome.how in ("objectives", "turn limit"):
            assert turn >= 7 and len(rolls) == turn - 6 - (1 if turn == 10 else 0)
            lengths.add(turn)
    assert any(turn > 7 for turn in lengths)  # some operations ran past the scenario's turns


# rules: sevendays.victory.capture
def test_capture_is_lost_when_the_defender_abandons_the_objectives(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 60, 5)],
        pact=[unit("t", "t72a", 36, 40), unit("u", "t72a", 40, 40)],
        objectives=[{"id": "village", "at": [36, 24]}],
        attacker="pact",
        victory="capture",
        first_initiative="pact",
    )
    while game.to_act is not None and game.state.flow.turn <= 3:
        game.apply(
            Action("pass") if game.state.flow.phase == "activate" else game.legal_actions()[-1]
        )
    outcome = game.outcome
    assert (
        outcome is not None and outcome.winner == "pact" and outcome.how == "objectives abandoned"
    )
    assert game.state.flow.turn == 2  # away at the end of turn 1, still away at the end of turn 2


# rules: sevendays.victory.breakthrough
def test_breakthrough_units_exit_and_win(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 10, 30)],
        pact=[unit("t", "t72a", 60, 1.5), unit("u", "t72a", 66, 40)],
        attacker="pact",
        victory="breakthrough",
        exit_edge="south",
        exit_fraction=0.5,
        first_initiative="pact",
    )
    world = _world(game)
    assert can_exit(world, game.state.units["pact-t"])
    assert not can_exit(world, game.state.units["pact-u"])
    game.apply(Action("activate", unit="pact-t"))
    events = game.apply(Action("exit", unit="pact-t"))
    if game.state.flow.phase == "react":  # the enemy may react to the activation first
        events = game.apply(Action("no_react"))
    assert any(e["kind"] == "exited" for e in events)
    assert game.outcome is not None and game.outcome.winner == "pact"
    assert game.outcome.how == "breakthrough"
    assert summary(game)["losses"]["pact"]["units"] == 0  # a unit that got through is no loss


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_plays_to_a_result(scenario: str) -> None:
    # (100 seeds per scenario run in tests/sevendays/test_scenarios_many.py)
    for seed in range(3):
        game = new_game(f"sevendays/{scenario}", seed=seed)
        players = {s: make_agent("scripted", "sevendays", s, seed) for s in ("nato", "pact")}
        while game.to_act is not None:
            game.apply(players[game.to_act].choose(game.view(game.to_act), game.legal_actions()))
        assert game.outcome is not None
