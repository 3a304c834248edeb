"""Close combat (house): assault into contact, d6 + support - markers, the loser takes the
difference in markers."""

from __future__ import annotations

import pytest

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.rulesets.sevendays.close_combat import score, support

from ..conftest import MakeGame, unit


# rules: sevendays.close_combat
def test_assault_moves_into_contact_and_the_loser_takes_the_difference(
    make_game: MakeGame,
) -> None:
    seen = set()
    for seed in range(30):
        game = make_game(
            seed=seed,
            nato=[
                unit("a", "infantry", 36, 20),
                unit("b", "infantry", 37.5, 23),
                unit("c", "chieftain-mk9", 5, 5),
            ],
            pact=[unit("r", "motor-rifles", 36, 25), unit("t", "t72a", 66, 44)],
        )
        state = game.state
        game.apply(Action("activate", unit="nato-a"))
        assault = Action("assault", unit="nato-a", target="pact-r")
        assert assault in game.legal_actions()
        events = game.apply(assault)
        if state.flow.phase == "react":  # the enemy may react to the activation first
            events = game.apply(Action("no_react"))
        fight = next(
            e for e in events if e.get("rule") == "sevendays.close_combat" and e["kind"] == "roll"
        )
        a_die, d_die = fight["dice"]
        attacker, defender = state.units["nato-a"], state.units["pact-r"]
        assert abs(((attacker.x - 36) ** 2 + (attacker.y - 25) ** 2) ** 0.5 - 1.5) < 0.05
        # in contact, NATO has its second squad within 2": +1; Pact fights alone
        margin = (a_die + 1) - d_die
        assert fight["result"] == margin
        if margin > 0:
            assert defender.markers == margin or not defender.alive
            seen.add("won")
        elif margin < 0:
            assert attacker.markers == -margin
            seen.add("lost")
        else:
            assert attacker.markers == defender.markers == 0
            seen.add("tie")
    assert {"won", "lost"} <= seen


def test_support_and_markers_count(make_game: MakeGame) -> None:
    game = make_game(
        nato=[
            unit("a", "infantry", 36, 20),
            unit("b", "milan", 37, 21),
            unit("c", "chieftain-mk9", 36, 21.5),
        ],
        pact=[unit("r", "motor-rifles", 36, 30)],
    )
    world, state = game.ruleset.world(game.state), game.state  # type: ignore[attr-defined]
    a = state.units["nato-a"]
    a.markers = 2
    assert support(world, state, a) == 1  # the Milan team; the tank is no infantry support
    assert score(world, state, a, 4) == 4 + 1 - 2


def test_vehicles_and_units_that_moved_cannot_assault(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("a", "infantry", 36, 20), unit("c", "chieftain-mk9", 40, 20)],
        pact=[unit("r", "motor-rifles", 36, 25), unit("t", "t72a", 66, 44)],
    )
    game.apply(Action("activate", unit="nato-c"))
    assert not [a for a in game.legal_actions() if a.kind == "assault"]
    with pytest.raises(IllegalActionError, match="cannot assault"):
        game.apply(Action("assault", unit="nato-c", target="pact-r"))
