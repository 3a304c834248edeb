"""Command tokens, initiative and activation (book p6-8)."""

from __future__ import annotations

from umpire.core.actions import Action
from umpire.rulesets.sevendays.state import Unit
from umpire.rulesets.sevendays.turns import activation_need

from ..conftest import MakeGame, unit


def _chieftain(tokens: int, markers: int) -> Unit:
    return Unit("c", "nato", "uk/chieftain-mk9", "Chieftain", 0, 0, 90, tokens, markers)


def test_chieftain_example_book_p8_one_token_needs_2_plus() -> None:
    # Book p8: a Chieftain already activated once (one token) needs 2+ to activate again.
    assert activation_need(_chieftain(1, 0)) == 2


def test_chieftain_example_book_p8_one_token_two_markers_needs_4_plus() -> None:
    # Book p8: the same Chieftain with two morale markers needs 4+.
    assert activation_need(_chieftain(1, 2)) == 4


def test_first_activation_needs_no_test() -> None:
    assert activation_need(_chieftain(0, 3)) is None


def test_natural_six_always_activates() -> None:
    # Five tokens and three markers would need 9+; a natural 6 still succeeds (book p8).
    assert activation_need(_chieftain(5, 3)) == 6


# rules: sevendays.tokens.pool, sevendays.tokens.apc, sevendays.tokens.commander
def test_pool_one_token_per_unit_apc_none_commander_two(make_game: MakeGame) -> None:
    game = make_game(
        nato=[
            unit("c1", "chieftain-mk9", 10, 5, commander=True),
            unit("inf", "infantry", 20, 5),
            unit("apc", "fv432", 22, 5),
        ],
        pact=[unit("t1", "t64b", 10, 40), unit("b1", "bmp2", 20, 40)],
    )
    # NATO: Chieftain 1 + commander 2 + infantry 1 + FV432 (APC) 0 = 4; PACT: T-64B 1 + BMP-2 0
    assert game.state.flow.pools == {"nato": 4, "pact": 1}


# rules: sevendays.activation.token
def test_second_activation_rolls_test_and_token_is_spent_either_way(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c1", "chieftain-mk9", 10, 5), unit("c2", "chieftain-mk9", 30, 5)],
        pact=[unit("t1", "t64b", 60, 45)],
    )
    uid = "nato-c1"
    game.apply(Action("activate", unit=uid))
    game.apply(Action("end", unit=uid))
    if game.state.flow.initiative != "nato":  # the side keeps the initiative while it has tokens
        raise AssertionError("NATO should still hold the initiative")
    before = game.state.flow.pools["nato"]
    events = game.apply(Action("activate", unit=uid))
    tests = [e for e in events if e.get("rule") == "sevendays.activation.test"]
    assert len(tests) == 1
    assert tests[0]["need"] == 2
    assert game.state.flow.pools["nato"] == before - 1
    assert game.state.units[uid].tokens == 2


# rules: sevendays.initiative.pass
def test_passing_twice_ends_the_turn(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("c1", "chieftain-mk9", 10, 5)], pact=[unit("t1", "t64b", 60, 45)])
    assert game.state.flow.turn == 1
    game.apply(Action("pass"))
    assert game.state.flow.initiative == "pact"
    game.apply(Action("pass"))
    assert game.state.flow.turn == 2


# rules: sevendays.activation.actions
def test_rapid_move_uses_both_actions_and_ends_activation(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c1", "chieftain-mk9", 10, 5), unit("c2", "chieftain-mk9", 14, 5)],
        pact=[unit("t1", "t64b", 60, 45)],
    )
    game.apply(Action("activate", unit="nato-c1"))
    game.apply(Action("rapid", unit="nato-c1", point=(10, 20)))
    state = game.state
    assert state.units["nato-c1"].pos == (10, 20)
    if state.flow.phase == "react":  # the enemy may react to the move first
        game.apply(Action("no_react"))
    assert state.flow.activation is None  # both actions used
    assert state.flow.phase == "activate"
