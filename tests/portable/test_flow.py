"""The turn as a flow of phases with pending decisions, and action kinds defined once: every
option a kind lists passes its own check, submissions it does not list are refused naming a
rule, and the chance definitions play samples agree with their exact enumeration."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

import umpire
from tests.portable.helpers import act_as, fix_dice, make, st, unit, waiting
from umpire.agents.base import RandomAgent
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.rng import RandomStream
from umpire.rulesets.portable.activation import activation_roll
from umpire.rulesets.portable.close_combat import close_combat_hits, combat_side
from umpire.rulesets.portable.enums import Decision, Phase, Stage
from umpire.rulesets.portable.kinds import KINDS
from umpire.rulesets.portable.ruleset import Portable
from umpire.rulesets.portable.turns import FLOW
from umpire.rulesets.portable.world import world_of

SCENARIOS = ("village-attack", "armoured-meeting", "trench-raid")
KIND = {k.name: k for k in KINDS}


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_option_of_every_kind_passes_its_check(name: str) -> None:
    """portable.turn.sequence: listing and checking cannot drift apart."""
    seen: Counter[str] = Counter()
    for seed in range(4):
        game = umpire.new_game(f"portable/{name}", seed=seed)
        agent = RandomAgent(seed)
        while not game.is_over:
            side, allowed = FLOW.decision(st(game))
            assert side is not None and side == game.to_act
            legal = game.legal_actions()
            assert legal and {a.kind for a in legal} <= set(allowed)
            for action in legal:
                KIND[action.kind].check(st(game), side, action)  # raises if it disagrees
                assert game.describe(action)
                seen[action.kind] += 1
            game.apply(agent.choose(game.view(side), legal))
        assert game.legal_actions() == [] and game.to_act is None
    assert {"bombard", "hold", "activate", "done", "move", "fire", "end"} <= set(seen)


def test_the_turn_runs_through_its_phases_in_order() -> None:
    """portable.turn.sequence, portable.initiative.roll, portable.activation.count"""
    game = umpire.new_game("portable/village-attack", seed=4)
    agent = RandomAgent(4)
    phases: list[str] = []
    while st(game).flow.turn == 1 and not game.is_over:
        phase = st(game).flow.phase
        if not phases or phases[-1] != phase:
            phases.append(phase)
        game.apply(agent.choose(game.view(game.to_act or ""), game.legal_actions()))
    assert phases[0] == Phase.ARTILLERY
    assert phases.index(Phase.FIRST) < phases.index(Phase.SECOND)
    rules = [e.get("rule") for e in game.events]
    kinds = [e["kind"] for e in game.events]
    assert rules.index("portable.initiative.roll") < kinds.index("activate")


def test_illegal_submissions_are_refused_naming_the_rule(tmp_path: Path) -> None:
    """portable.activation.once, portable.move.allowance, portable.fire.range,
    portable.artillery.simultaneous"""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2"), unit("j", "infantry", "A1")],
        [unit("r", "infantry", "E9")],
    )
    before = game.to_dict()
    # the artillery phase has nothing to declare here: a move now is out of turn
    with pytest.raises(IllegalActionError) as err:
        game.apply(Action("move", unit="blue-i", point=(4.0, 2.0)))
    assert err.value.rule and "must choose one of" in str(err.value)
    assert game.to_dict() == before
    act_as(game, "blue-i")
    cases = [
        (Action("move", unit="blue-j", point=(0.0, 1.0)), "portable.activation.once"),
        (Action("move", unit="blue-i", point=(4.0, 7.0)), "portable.move.allowance"),
        (Action("fire", unit="blue-i", target="red-nobody"), "portable.fire.range"),
        (Action("fire", unit="blue-i", target="red-r"), "portable.fire.range"),
        (Action("face", unit="blue-i", option="N"), "portable.activation.once"),
    ]
    for action, rule in cases:
        snapshot = game.to_dict()
        with pytest.raises(IllegalActionError) as err:
            game.apply(action)
        assert err.value.rule == rule, (action, str(err.value))
        assert "\n" not in str(err.value) and game.to_dict() == snapshot


def test_a_hit_unit_retreats_as_a_pending_decision_above_the_activation(tmp_path: Path) -> None:
    """portable.hit.retreat_or_lose: the choice interrupts the firer's activation, which
    resumes once the target has retreated."""
    game = make(tmp_path, [unit("i", "infantry", "E2")], [unit("r", "infantry", "E4")])
    act_as(game, "blue-i")
    fix_dice(game, [6, 5])
    game.apply(Action("fire", unit="blue-i", target="red-r"))
    stack = st(game).flow.stack
    assert [d.stage for d in stack] == [Stage.ACT, Stage.RETREAT]
    assert waiting(game) == (Decision.RETREAT, "red")
    with pytest.raises(IllegalActionError) as err:
        game.apply(Action("end", unit="blue-i"))
    assert err.value.rule == "portable.hit.retreat"
    game.apply(Action("retreat", unit="red-r", point=(4.0, 4.0)))
    assert waiting(game) == (Decision.ACT, "blue")
    assert [d.stage for d in st(game).flow.stack] == [Stage.ACT]


def _close(exact: float, hits: int, n: int, what: str) -> None:
    sigma = math.sqrt(exact * (1 - exact) / n)
    assert abs(hits / n - exact) <= 4 * sigma + 1e-12, (what, exact, hits / n)


def test_close_combat_odds_match_the_play_code(tmp_path: Path) -> None:
    """portable.cc.scores, portable.cc.flank_rear: the exact chance of each side being hit,
    from the very dice resolve_close_combat rolls, against 3000 played combats."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E4"), unit("hq", "commanders", "D4")],
        [unit("r", "infantry", "E5", facing="E")],
        terrain=[{"kind": "woods", "squares": ["E5"]}],
    )
    base, world = st(game), world_of(st(game))
    attacker, defender = base.units["blue-i"], base.units["red-r"]
    exact = close_combat_hits(
        combat_side(world, base, attacker, defender, True),
        combat_side(world, base, defender, attacker, False),
    ).outcomes()
    assert sum(exact.values()) == 1
    act_as(game, "blue-i")
    trials = 3000
    counts: Counter[tuple[bool, bool]] = Counter()
    ruleset = game.ruleset
    assert isinstance(ruleset, Portable)
    for trial in range(trials):
        state = st(game).clone()
        state.rng = RandomStream(7_000 + trial)
        events = ruleset.apply(state, Action("assault", unit="blue-i", target="red-r"))
        safe = {
            e["unit"]: e["success"]
            for e in events
            if e["kind"] == "roll" and e["rule"] in ("portable.cc.scores", "portable.cc.flank_rear")
        }
        counts[(not safe["blue-i"], not safe["red-r"])] += 1
    for outcome, p in exact.items():
        _close(float(p), counts[outcome], trials, f"close combat {outcome}")


def test_activation_dice_odds_match_the_play_code() -> None:
    """portable.activation.count: the distribution of units a side may activate."""
    roll = activation_roll(2)
    exact = roll.outcomes()
    assert exact[2] == pytest.approx(1 / 36) and exact[7] == pytest.approx(6 / 36)
    trials = 4000
    counts: Counter[int] = Counter()
    stream = RandomStream(11)
    for _ in range(trials):
        log: list = []  # type: ignore[type-arg]
        counts[roll.sample(stream, log)] += 1
        assert log[0]["rule"] == "portable.activation.count"
    for total, p in exact.items():
        _close(float(p), counts[total], trials, f"activation total {total}")
