"""The victory points read at every observation (issue 13, speed: each count taken over all
cities and all scoring units at once) equal the scenario's count (rhine.victory.scenario,
spec 5.8-5.9: cities held by the Pact, units of the scenario's least strength off the west
edge, losses in steps of the scenario's divisors), at every position of whole games of both
scenarios and with made-up city holders and exits."""

from __future__ import annotations

import random

import pytest

from tests.rhine.test_engine_shortcuts import positions, scenario_vp
from umpire.rulesets.rhine import ruleset as RS


@pytest.mark.parametrize(("scenario", "seed"), [("kinzig-valley", 70), ("autobahn-gap", 71)])
def test_victory_points_equal_the_scenario_count(scenario: str, seed: int) -> None:
    rng = random.Random(seed)
    held = exited = 0
    for game in positions(scenario, seed):
        state = game.state
        assert RS.victory_points(state) == scenario_vp(state)
        # the same position with other holders of the cities and other units off the map
        twin = state.clone()
        w = RS.world(twin)
        for h in w.city_of:
            twin.control[h] = rng.choice(["pact", "nato"])
        for u in rng.sample(sorted(twin.status), 3):
            twin.status[u] = "exited"
        got = RS.victory_points(twin)
        assert got == scenario_vp(twin)
        held += got["cities"] > 0
        exited += got["exits"] > 0
    assert held > 10 and exited > 10  # both counts exercised
