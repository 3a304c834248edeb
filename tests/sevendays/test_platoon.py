"""Platoon actions (book p11; house procedure): up to four units of one type within 4" of each
other activated with one token, all doing what the leader does."""

from __future__ import annotations

import pytest

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game

from ..conftest import MakeGame, unit

LAKE = [{"id": "lake", "kind": "water", "rect": [35, 10, 37, 20]}]


def _tanks(make_game: MakeGame, seed: int = 0, **kwargs: object) -> Game:
    # five Chieftains 3" apart in a row, infantry beside them, a lone tank 10" off
    return make_game(
        seed=seed,
        nato=[
            unit("a", "chieftain-mk9", 30, 5),
            unit("b", "chieftain-mk9", 33, 5),
            unit("c", "chieftain-mk9", 36, 5),
            unit("d", "chieftain-mk9", 39, 5),
            unit("e", "chieftain-mk9", 42, 5),
            unit("i", "infantry", 31, 7),
            unit("f", "chieftain-mk9", 60, 5),
        ],
        pact=[unit("t", "t64b", 36, 40)],
        **kwargs,
    )


def _platoon(game: Game) -> list[str]:
    act = game.state.flow.activation
    assert act is not None
    return list(act.platoon)


# rules: sevendays.activation.platoon
def test_a_platoon_is_up_to_four_units_of_one_type_within_four_inches(
    make_game: MakeGame,
) -> None:
    game = _tanks(make_game)
    legal = game.legal_actions()
    assert Action("activate", unit="nato-a", option="platoon") in legal
    assert Action("activate", unit="nato-f", option="platoon") not in legal  # 18" from the rest
    assert Action("activate", unit="nato-i", option="platoon") not in legal  # no other infantry
    pool = game.state.flow.pools["nato"]
    game.apply(Action("activate", unit="nato-a", option="platoon"))
    # the nearest three tanks in the chain follow; the fifth and the infantry do not
    assert _platoon(game) == ["nato-b", "nato-c", "nato-d"]
    assert game.state.flow.pools["nato"] == pool - 1  # one token for the platoon
    units = game.state.units
    assert [units[u].tokens for u in ("nato-a", "nato-b", "nato-c", "nato-d", "nato-e")] == [
        1,
        1,
        1,
        1,
        0,
    ]


# rules: sevendays.activation.platoon
def test_followers_make_the_leaders_move_where_it_is_legal(make_game: MakeGame) -> None:
    game = _tanks(make_game, terrain=LAKE)
    game.apply(Action("activate", unit="nato-a", option="platoon"))
    events = game.apply(Action("move", unit="nato-a", point=(30.0, 15.0)))
    units = game.state.units
    assert units["nato-a"].pos == (30.0, 15.0)
    assert units["nato-b"].pos == (33.0, 15.0)
    assert units["nato-d"].pos == (39.0, 15.0)
    # the lake is impassable to tanks: c would end in it, so it stays where it was
    assert units["nato-c"].pos == (36.0, 5.0)
    assert any(e["kind"] == "platoon" and "stays" in e["text"] for e in events)
    assert units["nato-e"].pos == (42.0, 5.0)


# rules: sevendays.activation.platoon
def test_the_platoon_shoots_at_the_leaders_target(make_game: MakeGame) -> None:
    game = _tanks(make_game)
    game.apply(Action("activate", unit="nato-a", option="platoon"))
    events = list(game.apply(Action("fire", unit="nato-a", target="pact-t")))
    while game.state.flow.phase == "react":
        events += game.apply(Action("no_react"))
    shooters = [
        e["firer"]
        for e in events
        if e.get("kind") == "roll" and e.get("rule") == "sevendays.fire.base"
    ]
    # every tank fires until the target is gone
    if game.state.units["pact-t"].alive:
        assert shooters == ["nato-a", "nato-b", "nato-c", "nato-d"]
    else:
        assert shooters[0] == "nato-a" and len(shooters) >= 1


# rules: sevendays.activation.platoon, sevendays.activation.test
def test_the_worst_unit_takes_the_activation_test(make_game: MakeGame) -> None:
    game = _tanks(make_game)
    units = game.state.units
    units["nato-c"].tokens = 1
    units["nato-c"].markers = 2
    events = game.apply(Action("activate", unit="nato-a", option="platoon"))
    test = next(e for e in events if e.get("rule") == "sevendays.activation.test")
    assert test["need"] == 4  # one token and two markers: 4+, as for a single unit
    assert "(c)" in test["text"]


# rules: sevendays.activation.platoon
def test_a_platoon_only_moves_and_shoots(make_game: MakeGame) -> None:
    game = _tanks(make_game)
    game.state.units["nato-b"].markers = 1  # a morale check would otherwise be offered
    game.apply(Action("activate", unit="nato-a", option="platoon"))
    kinds = {a.kind for a in game.legal_actions()}
    assert "morale" not in kinds and "move" in kinds and "fire" in kinds
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action("morale", unit="nato-a"))
    assert info.value.rule == "sevendays.activation.platoon"


# rules: sevendays.activation.platoon
def test_a_unit_alone_cannot_lead_a_platoon(make_game: MakeGame) -> None:
    game = _tanks(make_game)
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action("activate", unit="nato-f", option="platoon"))
    assert info.value.rule == "sevendays.activation.platoon"
