"""Movement (transcription p13-14): distances, terrain tests, roads, proximity."""

from __future__ import annotations

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


def test_may_not_end_next_to_an_enemy(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 18)])
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    refusal = check_move(world, game.state, game.state.units["nato-c"], "normal", (36, 17.5))
    assert refusal is not None and refusal.rule == "sevendays.move.proximity"
