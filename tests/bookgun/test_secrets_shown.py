"""The Book and The Gun: each side's own secrets in its terminal view, and the scripted
player's Commander-in-Chief.

bookgun.lead.cinc (rulebook p.8): a side with three or more basic units secretly names one
leader its Commander-in-Chief; units testing morale within 6" of him take -1 (spec §4.4,
bookgun.morale.table). The player who named him must be able to see whom he named, and the
other side must not; likewise the insurgents' cache room (bookgun.conceal.cache) and their
IED's site (bookgun.ied), which they chose in secret.
"""

from __future__ import annotations

from tests.bookgun.helpers import past_setup, place_in_open
from umpire.core.game import Game
from umpire.core.view import View
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.agent import BookGunScripted
from umpire.rulesets.bookgun.render import render
from umpire.rulesets.bookgun.state import BookGunState


# rules: bookgun.lead.cinc
def test_each_side_sees_its_own_commander_in_chief_and_not_the_others() -> None:
    state = past_setup("convoy-ambush")
    cinc = state.commanders["army"]
    army = render(state, "army")
    assert f"army Commander-in-Chief (secret): {cinc} of " in army
    insurgents = render(state, "insurgents")
    assert "Commander-in-Chief" not in insurgents
    # the insurgents' view is the same whichever leader the army named
    other = "ssg" if cinc == "lt" else "lt"
    state.commanders["army"] = other
    assert render(state, "insurgents") == insurgents
    assert f"army Commander-in-Chief (secret): {other} of " in render(state, "army")


# rules: bookgun.conceal.cache, bookgun.ied
def test_the_insurgents_see_their_cache_and_ied_and_the_army_does_not() -> None:
    market = past_setup("market-day")
    assert market.cache_room
    assert f"insurgents' cache (secret): room {market.cache_room}" in render(market, "insurgents")
    army = render(market, "army")
    assert "cache" not in army
    market.cache_room = "B1" if market.cache_room != "B1" else "A1"
    assert render(market, "army") == army  # re-sampled hidden truth: the same army view
    convoy = past_setup("convoy-ambush")
    assert convoy.ied is not None
    assert "IED (secret): at (" in render(convoy, "insurgents")
    assert "IED" not in render(convoy, "army")


def _at_commander_choice() -> Game:
    game = Game(RULESET, "convoy-ambush", 1)
    while game.legal_actions()[0].kind != "commander":
        game.apply(game.legal_actions()[0])
    assert game.to_act == "army"
    return game


def _scripted_pick(game: Game) -> str:
    agent = BookGunScripted("army", 1)
    view = View(RULESET, "army", lambda: RULESET.observation(game.state, "army"))
    action = agent.choose(view, game.legal_actions())
    assert action.kind == "commander"
    return str(action.unit)


# rules: bookgun.lead.cinc
def test_the_scripted_army_names_the_leader_with_most_units_near_him() -> None:
    # the lead team's lieutenant alone in the north; the rear team's staff sergeant with the
    # quick-reaction force 3" away: the sergeant steadies more units
    game = _at_commander_choice()
    state = game.state
    assert isinstance(state, BookGunState)
    place_in_open(state, "lead-team", 5.0, 40.0)
    place_in_open(state, "rear-team", 20.0, 10.0)
    place_in_open(state, "qrf", 20.0, 13.0)
    assert _scripted_pick(game) == "ssg"
    # the other way round
    place_in_open(state, "lead-team", 20.0, 13.0)
    place_in_open(state, "qrf", 16.0, 13.0)
    place_in_open(state, "rear-team", 5.0, 40.0)
    assert _scripted_pick(game) == "lt"
