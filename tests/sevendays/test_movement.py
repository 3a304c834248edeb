"""Movement (transcription p13-14): distances, terrain tests, roads, proximity."""

from __future__ import annotations

import math

import pytest

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.rulesets.sevendays.movement import check_move, move_options

from ..conftest import MakeGame, unit

MARSH = [{"id": "marsh", "kind": "very_rough", "rect": [30, 20, 42, 26]}]
FIELDS = [{"id": "fields", "kind": "rough", "rect": [30, 12, 42, 16]}]


# rules: sevendays.move.rapid
@pytest.mark.parametrize(
    ("profile", "normal", "rapid"),
    [("infantry", 6, 9), ("chieftain-mk9", 10, 15), ("scorpion", 12, 18), ("fox", 12, 18)],
)
def test_move_distances(make_game: MakeGame, profile: str, normal: float, rapid: float) -> None:
    game = make_game(nato=[unit("u", profile, 10, 5)], pact=[unit("t", "t64b", 60, 45)])
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    u = game.state.units["nato-u"]
    assert world.move_distance(u, "normal") == normal
    assert world.move_distance(u, "rapid") == rapid
    assert check_move(world, game.state, u, "normal", (10, 5 + normal)) is None
    assert check_move(world, game.state, u, "normal", (10, 5 + normal + 0.5)) is not None


# rules: sevendays.move.fast_mbt
def test_fast_mbt_moves_as_a_light_vehicle(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("u", "chieftain-mk9", 10, 5)], pact=[unit("t", "t64b", 60, 40)])
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    assert world.move_distance(game.state.units["pact-t"], "normal") == 12  # T-64B is fast
    assert world.move_distance(game.state.units["pact-t"], "road") == 24


def test_wheeled_vehicle_cannot_enter_very_rough(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("s", "saxon", 36, 14)], pact=[unit("t", "t64b", 60, 45)], terrain=MARSH
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    saxon = game.state.units["nato-s"]
    refusal = check_move(world, game.state, saxon, "normal", (36, 24))
    assert refusal is not None and refusal.rule == "sevendays.move.terrain_test"
    # the menu never offers a destination across the marsh
    for point in move_options(world, game.state, saxon, "normal"):
        assert check_move(world, game.state, saxon, "normal", point) is None
        assert not (30 <= point[0] <= 42 and 20 <= point[1] <= 26)


# rules: sevendays.move.terrain_fail
def test_tracked_vehicle_tests_on_entering_rough_and_may_stop_at_the_edge(
    make_game: MakeGame,
) -> None:
    outcomes = set()
    for seed in range(30):
        game = make_game(
            seed=seed,
            nato=[unit("c", "chieftain-mk9", 36, 6), unit("d", "chieftain-mk9", 10, 6)],
            pact=[unit("t", "t64b", 60, 45)],
            terrain=FIELDS,
        )
        game.apply(Action("activate", unit="nato-c"))
        events = game.apply(Action("move", unit="nato-c", point=(36, 15)))
        tests = [e for e in events if e.get("rule") == "sevendays.move.terrain_test"]
        assert len(tests) == 1 and tests[0]["need"] == 2  # tracked in rough: 2+
        y = game.state.units["nato-c"].y
        if tests[0]["success"]:
            assert y == 15
        else:
            assert y < 12  # stopped at the edge of the fields
        outcomes.add(tests[0]["success"])
    assert outcomes == {True, False}


def test_infantry_need_no_test_for_rough(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("i", "infantry", 36, 8), unit("d", "chieftain-mk9", 10, 6)],
        pact=[unit("t", "t64b", 60, 45)],
        terrain=FIELDS,
    )
    game.apply(Action("activate", unit="nato-i"))
    events = game.apply(Action("move", unit="nato-i", point=(36, 13)))
    assert not [e for e in events if e.get("rule") == "sevendays.move.terrain_test"]
    assert game.state.units["nato-i"].y == 13


def test_road_move_along_the_road(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 10, 24), unit("d", "chieftain-mk9", 10, 6)],
        pact=[unit("t", "t64b", 60, 45)],
        roads=[{"id": "r", "path": [[0, 24], [72, 24]], "width": 2}],
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    tank = game.state.units["nato-c"]
    options = move_options(world, game.state, tank, "road")
    assert (30.0, 24.0) in options  # 20" along the road for an MBT
    game.apply(Action("activate", unit="nato-c"))
    with pytest.raises(IllegalActionError, match="sevendays.move.road"):
        game.apply(Action("road", unit="nato-c", point=(31, 24)))
    game.apply(Action("road", unit="nato-c", point=(30, 24)))
    assert tank.pos == (30.0, 24.0)


# rules: sevendays.move.proximity
def test_a_vehicle_may_not_end_within_an_inch_of_enemy_infantry(make_game: MakeGame) -> None:
    # spec "Movement": a vehicle may not end a move within 1" of enemy infantry (house, for
    # the book's p13 Infantry Proximity), by a move action or in the move menu
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("i", "motor-rifles", 36, 18)]
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    tank = game.state.units["nato-c"]
    refusal = check_move(world, game.state, tank, "normal", (36, 17.5))
    assert refusal is not None and refusal.rule == "sevendays.move.proximity"
    assert check_move(world, game.state, tank, "normal", (36, 16.9)) is None
    assert all(
        math.dist(p, (36, 18)) >= 1.0 for p in move_options(world, game.state, tank, "normal")
    )
    game.apply(Action("activate", unit="nato-c"))
    with pytest.raises(IllegalActionError, match="sevendays.move.proximity"):
        game.apply(Action("move", unit="nato-c", point=(36, 17.5)))


# rules: sevendays.move.proximity
@pytest.mark.parametrize(
    ("mover", "enemy"),
    [("chieftain-mk9", "t64b"), ("infantry", "t64b"), ("infantry", "motor-rifles")],
)
def test_only_vehicles_keep_off_only_infantry(make_game: MakeGame, mover: str, enemy: str) -> None:
    # the house rule binds vehicles near enemy infantry only: a tank may close on a tank,
    # infantry on anything
    game = make_game(nato=[unit("m", mover, 36, 12)], pact=[unit("e", enemy, 36, 18)])
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    assert check_move(world, game.state, game.state.units["nato-m"], "normal", (36, 17.5)) is None


# rules: sevendays.move.proximity
@pytest.mark.parametrize("hidden_profile", ["motor-rifles", "t64b"])
def test_a_hidden_marker_is_kept_off_whatever_it_hides(
    make_game: MakeGame, hidden_profile: str
) -> None:
    # a vehicle cannot tell what a hidden marker is: it keeps off every marker, so its
    # refusals and its menu are the same whatever the marker hides
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)],
        pact=[unit("t", "t64b", 60, 45), unit("h", hidden_profile, 36, 18, hidden=True)],
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    tank = game.state.units["nato-c"]
    refusal = check_move(world, game.state, tank, "normal", (36, 17.5))
    assert refusal is not None and refusal.rule == "sevendays.move.proximity"
    assert all(
        math.dist(p, (36, 18)) >= 1.0 for p in move_options(world, game.state, tank, "normal")
    )


# rules: sevendays.move.proximity
def test_the_proximity_scope_is_a_house_rule(make_game: MakeGame) -> None:
    # every class in both lists: no unit may end a move within 1" of any enemy
    every = ["infantry", "support", "light", "mbt", "helicopter"]
    options = {"house_rules": {"proximity_scope": {"movers": every, "near": every}}}
    game = make_game(
        options=options,
        nato=[unit("c", "chieftain-mk9", 36, 10)],
        pact=[unit("t", "t64b", 36, 18)],
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    refusal = check_move(world, game.state, game.state.units["nato-c"], "normal", (36, 17.5))
    assert refusal is not None and refusal.rule == "sevendays.move.proximity"
    assert '1"' in refusal.reason
