"""Transports: capacities, embarking and disembarking, riding along, bailing out."""

from __future__ import annotations

import pytest

from umpire.core.actions import Action
from umpire.core.errors import DataFileError, IllegalActionError
from umpire.rulesets.sevendays.orbat import UnitProfile
from umpire.rulesets.sevendays.transport import bail_out, capacity

from ..conftest import MakeGame, unit


def _profile(traits: set[str]) -> UnitProfile:
    return UnitProfile.model_validate(
        {
            "id": "x",
            "name": "X",
            "type": "light",
            "points": 10,
            "bp": 1,
            "traits": sorted(traits),
            "armour": {"front": 10, "side": 8},
            "morale": 4,
        }
    )


# rules: sevendays.transport.capacity
def test_capacities_by_trait() -> None:
    assert capacity(_profile({"apc"})) == (1, False)
    assert capacity(_profile({"apc_plus"})) == (2, False)
    assert capacity(_profile({"apc_minus"})) == (1, True)
    assert capacity(_profile(set())) == (0, False)


# rules: sevendays.transport.capacity
def test_passengers_start_embarked_and_still_bring_their_token(make_game: MakeGame) -> None:
    game = make_game(
        nato=[
            unit("apc", "fv432", 30, 8),
            unit("inf", "infantry", 30, 8, embarked_in="apc"),
            unit("c", "chieftain-mk9", 40, 8),
        ],
        pact=[unit("t", "t72a", 36, 40)],
    )
    rider = game.state.units["nato-inf"]
    assert rider.status == "embarked" and rider.carried_by == "nato-apc" and not rider.alive
    assert game.state.flow.pools["nato"] == 2  # infantry 1, Chieftain 1, the APC none
    assert Action("activate", unit="nato-inf") not in game.legal_actions()


def test_a_scenario_overloading_a_transport_is_refused(make_game: MakeGame) -> None:
    with pytest.raises(DataFileError, match="embarked_in: FV432 carries 1 unit"):
        make_game(
            nato=[
                unit("apc", "fv432", 30, 8),
                unit("a", "infantry", 30, 8, embarked_in="apc"),
                unit("b", "milan", 30, 8, embarked_in="apc"),
            ],
            pact=[unit("t", "t72a", 36, 40)],
        )


# rules: sevendays.transport.disembark, sevendays.transport.combos
def test_transport_moves_then_disembarks_and_the_passenger_rides_along(
    make_game: MakeGame,
) -> None:
    game = make_game(
        nato=[
            unit("apc", "fv432", 30, 8),
            unit("inf", "infantry", 30, 8, embarked_in="apc"),
            unit("c", "chieftain-mk9", 60, 5),
        ],
        pact=[unit("t", "t72a", 36, 44)],
    )
    game.apply(Action("activate", unit="nato-apc"))
    game.apply(Action("move", unit="nato-apc", point=(30.0, 18.0)))
    if game.state.flow.phase == "react":
        game.apply(Action("no_react"))
    assert game.state.units["nato-inf"].pos == (30.0, 18.0)  # it rode along
    assert Action("disembark", unit="nato-apc", target="nato-inf") in game.legal_actions()
    events = game.apply(Action("disembark", unit="nato-apc", target="nato-inf"))
    rider = game.state.units["nato-inf"]
    assert rider.alive and rider.carried_by is None
    assert abs(((rider.x - 30) ** 2 + (rider.y - 18) ** 2) ** 0.5 - 2.0) < 1e-6
    assert events[0]["rule"] == "sevendays.transport.disembark"


# rules: sevendays.transport.embark, sevendays.transport.combos
def test_infantry_moves_then_embarks_support_may_not(make_game: MakeGame) -> None:
    game = make_game(
        nato=[
            unit("apc", "fv432", 30, 8),
            unit("inf", "infantry", 30, 14),
            unit("m", "milan", 34, 14),
            unit("apc2", "fv432", 34, 9),
        ],
        pact=[unit("t", "t72a", 36, 44)],
    )
    game.apply(Action("activate", unit="nato-inf"))
    assert not [a for a in game.legal_actions() if a.kind == "embark"]  # 6" away
    game.apply(Action("move", unit="nato-inf", point=(30.0, 9.5)))
    if game.state.flow.phase == "react":
        game.apply(Action("no_react"))
    game.apply(Action("embark", unit="nato-inf", target="nato-apc"))
    assert game.state.units["nato-inf"].carried_by == "nato-apc"
    assert game.state.flow.activation is None  # embarking ends its activation
    # a support team that moved may not embark in the same activation
    while game.to_act != "nato" or game.state.flow.phase != "activate":
        game.apply(
            Action("pass") if game.state.flow.phase == "activate" else game.legal_actions()[-1]
        )
    game.apply(Action("activate", unit="nato-m"))
    game.apply(Action("move", unit="nato-m", point=(34.0, 10.5)))
    if game.state.flow.phase == "react":
        game.apply(Action("no_react"))
    with pytest.raises(IllegalActionError, match="cannot embark"):
        game.apply(Action("embark", unit="nato-m", target="nato-apc2"))


# rules: sevendays.transport.destroyed
def test_passengers_bail_out_of_a_lost_transport_with_two_markers(make_game: MakeGame) -> None:
    game = make_game(
        nato=[
            unit("apc", "fv432", 30, 8),
            unit("inf", "infantry", 30, 8, embarked_in="apc"),
            unit("c", "chieftain-mk9", 60, 5),
        ],
        pact=[unit("t", "t72a", 36, 44)],
    )
    world, state = game.ruleset.world(game.state), game.state  # type: ignore[attr-defined]
    state.units["nato-apc"].status = "destroyed"
    events = bail_out(world, state)
    rider = state.units["nato-inf"]
    assert rider.alive and rider.markers == 2
    assert [e["rule"] for e in events] == [
        "sevendays.transport.disembark",
        "sevendays.transport.destroyed",
    ]
