"""Reactions (transcription p12) and seizing the initiative."""

from __future__ import annotations

from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.reactions import reaction_need, reaction_options
from umpire.rulesets.sevendays.shots import ShotPlan

from ..conftest import MakeGame, unit

WOOD = [{"id": "w", "kind": "woods", "rect": [33, 8, 39, 14]}]


def _options(game: Game, activator: str, moving: bool = False) -> dict[str, int]:
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    units = game.state.units
    return {o.unit: o.need for o in reaction_options(world, game.state, units[activator], moving)}


def test_reaction_numbers_by_activating_unit_type(make_game: MakeGame) -> None:
    # activating vehicle in the open: 3+; infantry in the open: 4+
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 20, 10), unit("i", "infantry", 50, 10)],
        pact=[unit("t", "t64b", 20, 30), unit("u", "t64b", 50, 30)],
    )
    assert _options(game, "nato-c")["pact-t"] == 3
    assert _options(game, "nato-i")["pact-u"] == 4


def test_reaction_numbers_against_units_in_cover(make_game: MakeGame) -> None:
    # vehicle in cover 4+, infantry in cover 5+
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 35, 12.5), unit("i", "infantry", 37, 12.5)],
        pact=[unit("t", "t64b", 36, 30)],
        terrain=WOOD,
    )
    assert _options(game, "nato-c")["pact-t"] == 4
    assert _options(game, "nato-i")["pact-t"] == 5


def test_atgm_reactor_adds_one_and_tokens_and_markers_count(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)],
        pact=[unit("m", "brdm-spandrel", 36, 40), unit("t", "t64b", 20, 40)],
    )
    options = _options(game, "nato-c")
    assert options["pact-m"] == 2  # 3+ against a vehicle, +1 for an ATGM reactor
    assert options["pact-t"] == 3
    # house rule: one more per token already on the reactor and per morale marker
    game.state.units["pact-t"].tokens = 1
    game.state.units["pact-t"].markers = 1
    game.state.reaction_memo = None
    assert _options(game, "nato-c")["pact-t"] == 5


# rules: sevendays.reaction.window, sevendays.reaction.seize
def test_reaction_spends_a_token_and_a_natural_six_seizes_the_initiative(
    make_game: MakeGame,
) -> None:
    seen_six = seen_other = False
    for seed in range(40):
        game = make_game(
            seed=seed,
            nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 10, 5)],
            pact=[unit("t", "t64b", 36, 40), unit("u", "t64b", 60, 44)],
        )
        game.apply(Action("activate", unit="nato-c"))
        game.apply(Action("move", unit="nato-c", point=(36, 16)))
        assert game.state.flow.phase == "react" and game.to_act == "pact"
        pool = game.state.flow.pools["pact"]
        events = game.apply(Action("react", unit="pact-t"))
        assert game.state.flow.pools["pact"] == pool - 1
        assert game.state.units["pact-t"].tokens == 1
        die = next(e for e in events if e.get("rule") == "sevendays.reaction.target")["result"]
        fired = [e for e in events if e.get("rule") == "sevendays.fire.base"]
        assert bool(fired) == (die >= 3)
        if fired:  # reaction fire at a target that moved in its activation: -1
            assert "sevendays.fire.modifier.reaction_moving" in fired[0]["modifiers"]
        if game.state.flow.activation is not None:
            game.apply(Action("end", unit="nato-c"))
        if game.is_over:
            continue
        if die == 6:
            seen_six = True
            assert game.state.flow.initiative == "pact"
        else:
            seen_other = True
            assert game.state.flow.initiative == "nato"
    assert seen_six and seen_other


def test_declared_shot_waits_for_the_reaction(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 10, 5)],
        pact=[unit("t", "t64b", 36, 40)],
    )
    game.apply(Action("activate", unit="nato-c"))
    events = game.apply(Action("fire", unit="nato-c", target="pact-t"))
    assert [e["kind"] for e in events] == ["declare"]
    assert game.state.flow.pending == Action("fire", unit="nato-c", target="pact-t")
    events = game.apply(Action("no_react"))
    assert any(e.get("rule") == "sevendays.fire.base" for e in events)


# rules: sevendays.reaction.recce
def test_recce_reacts_on_3_plus_counting_markers_not_tokens(make_game: MakeGame) -> None:
    # a Scorpion (recce) reacting to infantry in cover: an ordinary unit would need 5+
    # (plus its tokens and markers); the recce needs 3+, one more per marker only
    game = make_game(
        nato=[unit("s", "scorpion", 36, 10), unit("c", "chieftain-mk5", 40, 10)],
        pact=[unit("r", "motor-rifles", 36, 25), unit("t", "t64b", 60, 44)],
        terrain=[{"id": "scrub", "kind": "rough", "rect": [33, 23, 39, 27]}],
    )
    world, state = game.ruleset.world(game.state), game.state  # type: ignore[attr-defined]
    recce, tank, rifles = state.units["nato-s"], state.units["nato-c"], state.units["pact-r"]
    recce.tokens, recce.markers = 2, 1
    tank.tokens, tank.markers = 2, 1
    plan = plan_shot(world, state, recce, rifles, "gun", reaction=True)
    tank_plan = plan_shot(world, state, tank, rifles, "gun", reaction=True)
    assert isinstance(plan, ShotPlan) and isinstance(tank_plan, ShotPlan)
    assert reaction_need(world, state, recce, rifles, plan) == 4  # 3 + 1 marker
    assert reaction_need(world, state, tank, rifles, tank_plan) == 8  # 5 + 2 tokens + 1 marker


# rules: sevendays.reaction.cherry_picker
def test_reacting_to_a_cherry_pickers_atgm_shot_is_harder(make_game: MakeGame) -> None:
    # a LAV-AT (concealed shooter) declares a TOW shot at a T-72A 30" away
    game = make_game(
        nato=[unit("i", "lav-at", 36, 10), unit("c", "m1", 10, 5)],
        pact=[unit("t", "t72a", 36, 40), unit("u", "t64b", 60, 44)],
        nations={"nato": "us"},
    )
    game.apply(Action("activate", unit="nato-i"))
    game.apply(Action("atgm", unit="nato-i", target="pact-t"))
    assert game.state.flow.phase == "react"
    world, state = game.ruleset.world(game.state), game.state  # type: ignore[attr-defined]
    options = {o.unit: o.need for o in reaction_options(world, state, state.units["nato-i"], False)}
    assert options["pact-t"] == 4  # vehicle in the open 3+, one more for the concealed shooter


# rules: sevendays.reaction.recce_spotting
def test_a_unit_without_sight_may_react_by_moving_while_recce_sees_the_enemy(
    make_game: MakeGame,
) -> None:
    # a wood hides the Chieftain from the T-64B; a BRM-1 (recce) sees it from the flank
    wood = [{"id": "w", "kind": "woods", "rect": [30, 18, 42, 26]}]
    layout = {
        "nato": [unit("c", "chieftain-mk9", 36, 10), unit("x", "chieftain-mk9", 5, 5)],
        "terrain": wood,
    }
    pact_without = [unit("t", "t64b", 36, 40)]
    pact_with = [unit("t", "t64b", 36, 40), unit("s", "brm1", 60, 12)]
    game = make_game(pact=pact_without, **layout)
    assert _options(game, "nato-c") == {}  # no sight, no recce: no reaction at all
    game = make_game(pact=pact_with, **layout)
    world, state = game.ruleset.world(game.state), game.state  # type: ignore[attr-defined]
    options = reaction_options(world, state, state.units["nato-c"], False)
    moves = [o for o in options if o.unit == "pact-t"]
    assert moves and all(o.plan is None and o.point is not None for o in moves)
    assert moves[0].need == 3  # the usual number: a vehicle activating in the open
    # the T-64B reacts to the Chieftain's move by moving itself
    for seed in range(20):
        game = make_game(seed=seed, pact=pact_with, **layout)
        game.apply(Action("activate", unit="nato-c"))
        game.apply(Action("move", unit="nato-c", point=(26.0, 10.0)))
        assert game.state.flow.phase == "react"
        move = next(a for a in game.legal_actions() if a.unit == "pact-t")
        assert move.point is not None
        events = game.apply(move)
        test = next(e for e in events if e.get("rule") == "sevendays.reaction.target")
        tank = game.state.units["pact-t"]
        if test["success"]:
            assert tank.pos == tuple(move.point)
            return
        assert tank.pos == (36.0, 40.0)
    raise AssertionError("no reaction roll succeeded in 20 seeds")
