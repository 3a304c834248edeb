"""Hidden information in derived text (issue 16, "Hidden information that leaked to the other
seat"): an event's sentence named a hidden transport ("embarks in FV432 (fv432-2)" while it
was marker-7). Seven Days' hidden deployment (rule sevendays.scenario.hidden_deployment) shows
the enemy only a numbered marker until the unit is spotted or acts; a passenger boarding a
hidden transport must read, for the enemy, as boarding that marker."""

from __future__ import annotations

import json

from umpire.core.actions import Action
from umpire.core.events import seen_by, to_dicts

from ..conftest import MakeGame, unit


def test_boarding_a_hidden_transport_names_only_its_marker_to_the_enemy(
    make_game: MakeGame,
) -> None:
    game = make_game(
        nato=[
            unit("i", "infantry", 36, 10, hidden=True),
            unit("a", "fv432", 37, 10, hidden=True),
        ],
        pact=[unit("t", "t72a", 36, 40)],
    )
    carrier = game.state.units["nato-a"]
    assert carrier.hidden and carrier.marker
    start = len(game.events)
    game.apply(Action("activate", unit="nato-i"))  # acting reveals the rider, not the carrier
    embark = Action("embark", unit="nato-i", target="nato-a")
    assert embark in game.legal_actions()
    game.apply(embark)
    # sevendays.reaction.window (ruleset 0.6): boarding as the first action of an activation
    # waits for the enemy's reaction; PACT lets it go
    assert game.to_act == "pact"
    game.apply(next(a for a in game.legal_actions() if a.kind == "no_react"))
    assert game.state.units["nato-i"].carried_by == "nato-a" and carrier.hidden

    pact = to_dicts(seen_by(game.events[start:], "pact"))
    words = json.dumps(pact)
    for secret in ("FV432", "fv432", "nato-a"):
        assert secret not in words, f"PACT reads {secret!r}: {words}"
    boarding = [e for e in pact if e.get("kind") == "embark"]
    assert len(boarding) == 1 and boarding[0]["text"].endswith(f"embarks in {carrier.marker}")
    view = json.dumps(game.observation("pact"))
    assert "fv432" not in view.lower() and "nato-a" not in view

    nato = to_dicts(seen_by(game.events[start:], "nato"))  # the owner reads the truth
    assert any("embarks in FV432" in e.get("text", "") for e in nato)
