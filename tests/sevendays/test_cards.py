"""Tactical Advantage cards: the deck as data, the deal and swap, response chains (the book's
Airstrike -> Anti-air -> Intelligence Coup example), each card's effect, and secrecy."""

from __future__ import annotations

import json
from typing import Any

import pytest

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import seen_by, to_dicts
from umpire.core.game import Game
from umpire.rulesets.sevendays.cards import load_deck, swap_options
from umpire.rulesets.sevendays.scenario import load_nation
from umpire.rulesets.sevendays.turns import sync

from ..conftest import MakeGame, unit

DIGEST_NAMES = [
    "Communications",
    "Against All Odds",
    "Divisional Artillery Available",
    "Precision Guided Artillery Strike",
    "Reserves",
    "Airstrike",
    "Anti-air",
    "Intelligence Coup",
    "Air Cover",
    "Tank Missile",
    "Electronic Warfare",
    "Off-table Artillery",
]


def _game(
    make_game: MakeGame, nato: list[dict[str, Any]], pact: list[dict[str, Any]], **extra: Any
) -> Game:
    game = make_game(nato=nato, pact=pact, cards=True, **extra)
    game.apply(Action("swap", option=""))  # NATO keeps its hand
    game.apply(Action("swap", option=""))  # PACT too; turn 1 starts
    _hand(game, "nato", [])  # each test deals the cards it needs
    _hand(game, "pact", [])
    return game


def _hand(game: Game, side: str, cards: list[str]) -> None:
    assert game.state.cards is not None
    game.state.cards["hands"][side] = list(cards)


def _to_initiative(game: Game, side: str) -> None:
    """Set the table to ``side`` holding the initiative with no activation under way."""
    game.state.flow.initiative = side
    game.state.flow.activation = None
    game.state.flow.core.stack.clear()
    sync(game.state)
    assert game.to_act == side and game.state.flow.phase == "activate"


# rules: sevendays.cards.deal
def test_every_card_named_in_the_digest_is_in_the_deck_as_data() -> None:
    deck = load_deck()
    assert sorted(c.name for c in deck.cards.values()) == sorted(DIGEST_NAMES)
    assert deck.hand == 5 and deck.swap == 2
    for card in deck.cards.values():
        assert card.provenance in ("published", "house") and card.summary


# rules: sevendays.cards.deal
def test_deal_five_and_swap_up_to_two_in_secret(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t72a", 36, 40)], cards=True
    )
    cards = game.state.cards
    assert cards is not None and game.state.flow.phase == "swap" and game.to_act == "nato"
    assert all(len(h) == 5 for h in cards["hands"].values())
    options = swap_options(game.state, "nato")
    assert "" in options and all(len([c for c in o.split("+") if c]) <= 2 for o in options)
    with pytest.raises(IllegalActionError):
        game.apply(Action("swap", option="+".join(sorted(cards["hands"]["nato"])[:3])))
    out = sorted(cards["hands"]["nato"])[:2]
    deck_before = len(cards["deck"])
    game.apply(Action("swap", option="+".join(out)))
    assert len(cards["hands"]["nato"]) == 5 and len(cards["deck"]) == deck_before - 2
    assert game.to_act == "pact"
    # PACT knows how many NATO exchanged, never which, nor NATO's hand
    view = game.observation("pact")["cards"]
    assert view["enemy_hand"] == 5 and "hands" not in view and isinstance(view["deck"], int)
    pact_log = json.dumps(to_dicts(seen_by(game.events, "pact")))
    nato_names = {load_deck().cards[c].name for c in cards["hands"]["nato"] + out}
    pact_names = {load_deck().cards[c].name for c in cards["hands"]["pact"]}
    for name in nato_names - pact_names:
        assert name not in pact_log
    # the two exchanged cards are set aside face down: PACT reads only that two were swapped
    assert view["discard"] == [] and view["set_aside"] == []
    for card in set(out) - set(cards["hands"]["pact"]):
        assert card not in json.dumps(view)
    assert "NATO exchanges 2 card(s)" in pact_log
    assert game.observation("nato")["cards"]["set_aside"] == out
    # the hand dealt: PACT reads that NATO holds five cards, NATO reads which
    hands = [e for e in seen_by(game.events, "pact") if e["kind"] == "hand"]
    assert "NATO holds 5 cards" in [e["text"] for e in hands]
    game.apply(Action("swap", option=""))
    assert game.state.flow.phase == "activate"  # turn 1 begins after both swaps


# rules: sevendays.cards.play, sevendays.cards.airstrike, sevendays.cards.anti_air,
# rules: sevendays.cards.intelligence_coup
def test_airstrike_anti_air_intelligence_coup_example_seed_p30(make_game: MakeGame) -> None:
    # The book's example: the Soviet player calls an Airstrike, the British answer with
    # Anti-air, the Soviet player answers with an Intelligence Coup: the Airstrike goes in.
    game = _game(
        make_game,
        nato=[
            unit("c", "chieftain-mk9", 36, 10, commander=True),
            unit("i", "infantry", 20, 8),
            unit("d", "chieftain-mk9", 10, 5),
            unit("e", "chieftain-mk9", 60, 5),
        ],
        pact=[unit("t", "t64b", 36, 40, commander=True), unit("u", "t72a", 50, 44)],
    )
    _hand(game, "pact", ["airstrike", "intelligence_coup"])
    _hand(game, "nato", ["anti_air"])  # the infantry's MANPAD is its air defence
    _to_initiative(game, "pact")
    assert Action("card", target="nato-c", option="airstrike") in game.legal_actions()
    game.apply(Action("card", target="nato-c", option="airstrike"))
    assert game.state.flow.phase == "card" and game.to_act == "nato"
    assert Action("card", option="anti_air") in game.legal_actions()
    game.apply(Action("card", option="anti_air"))
    assert (
        game.to_act == "pact" and Action("card", option="intelligence_coup") in game.legal_actions()
    )
    events = game.apply(Action("card", option="intelligence_coup"))
    # NATO holds nothing to answer with, so the chain resolves at once
    texts = [e["text"] for e in events]
    assert "Anti-air is cancelled" in texts
    strike = [
        e for e in events if e.get("rule") == "sevendays.cards.airstrike" and e["kind"] == "roll"
    ]
    assert strike and strike[0]["target"] == "nato-c"
    assert game.state.flow.phase == "activate" and game.to_act == "pact"
    assert game.state.cards is not None
    assert sorted(game.state.cards["discard"][-3:]) == [
        "airstrike",
        "anti_air",
        "intelligence_coup",
    ]


# rules: sevendays.cards.air_cover
def test_air_cover_cancels_an_airstrike_without_air_defence(make_game: MakeGame) -> None:
    game = _game(
        make_game,
        nato=[unit("c", "chieftain-mk9", 36, 10, commander=True)],
        pact=[unit("t", "t64b", 36, 40, commander=True)],
    )
    _hand(game, "pact", ["airstrike"])
    _hand(game, "nato", ["air_cover", "anti_air"])
    _to_initiative(game, "pact")
    game.apply(Action("card", target="nato-c", option="airstrike"))
    legal = game.legal_actions()
    assert Action("card", option="air_cover") in legal
    assert Action("card", option="anti_air") not in legal  # no air-defence unit on the table
    events = game.apply(Action("card", option="air_cover"))
    assert "Airstrike is cancelled" in [e["text"] for e in events]
    assert not any(e.get("kind") == "roll" for e in events)


def test_cards_needing_commander_or_recce_sight_check_it(make_game: MakeGame) -> None:
    # the only NATO unit hides behind the north wood from the Soviet commander
    game = _game(
        make_game,
        nato=[unit("c", "chieftain-mk9", 44, 31, commander=True)],
        pact=[unit("t", "t64b", 44, 45, commander=True)],
        terrain=[{"id": "wood", "kind": "woods", "rect": [38, 34, 50, 40]}],
    )
    _hand(game, "pact", ["airstrike", "precision_strike", "off_table_artillery"])
    _to_initiative(game, "pact")
    assert not [a for a in game.legal_actions() if a.kind == "card"]
    with pytest.raises(IllegalActionError, match="cannot play airstrike"):
        game.apply(Action("card", target="nato-c", option="airstrike"))


# rules: sevendays.cards.precision_strike
def test_precision_strike_two_vehicles_side_armour_weapon_9(make_game: MakeGame) -> None:
    game = _game(
        make_game,
        nato=[unit("c", "chieftain-mk9", 30, 10, commander=True), unit("d", "fv432", 40, 10)],
        pact=[unit("t", "t64b", 36, 40, commander=True)],
    )
    _hand(game, "pact", ["precision_strike"])
    _to_initiative(game, "pact")
    events = game.apply(Action("card", target="nato-c", option="precision_strike|nato-d"))
    rolls = [
        e
        for e in events
        if e.get("rule") == "sevendays.cards.precision_strike" and e["kind"] == "roll"
    ]
    assert [r["target"] for r in rolls] == ["nato-c", "nato-d"] and all(
        r["need"] == 8 for r in rolls
    )
    for pen in [e for e in events if e.get("rule") == "sevendays.hit.penetration"]:
        assert "side armour" in pen["text"] and "+ 9 =" in pen["text"]


# rules: sevendays.cards.communications
def test_communications_moves_a_unit_out_of_turn(make_game: MakeGame) -> None:
    game = _game(
        make_game, nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 40)]
    )
    _hand(game, "nato", ["communications"])
    _to_initiative(game, "nato")
    plays = [a for a in game.legal_actions() if a.option == "communications"]
    assert plays
    game.apply(plays[0])
    assert game.state.units["nato-c"].pos == plays[0].point
    assert game.state.units["nato-c"].tokens == 0  # no activation was spent


# rules: sevendays.cards.against_all_odds
def test_against_all_odds_is_not_played_before_the_removal(make_game: MakeGame) -> None:
    """Book p22-23: the card is played on a unit *about to be removed*, so a unit one marker
    short of removal is no target yet (the play at removal: test_book_corrections_cards.py)."""
    game = _game(
        make_game, nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 40)]
    )
    _hand(game, "nato", ["against_all_odds"])
    _to_initiative(game, "nato")
    game.state.units["nato-c"].markers = 5  # morale 6: one more marker removes it
    assert not [a for a in game.legal_actions() if a.kind == "card"]
    with pytest.raises(IllegalActionError):
        game.apply(Action("card", unit="nato-c", option="against_all_odds"))


# rules: sevendays.cards.divisional_artillery
def test_divisional_artillery_before_the_first_initiative(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)],
        pact=[unit("t", "t64b", 36, 40), unit("r", "motor-rifles", 20, 40)],
        cards=True,
    )
    _hand(game, "nato", ["divisional_artillery"])
    _hand(game, "pact", [])
    assert Action("card", option="divisional_artillery") in game.legal_actions()
    events = game.apply(Action("card", option="divisional_artillery"))
    rolls = [
        e
        for e in events
        if e.get("rule") == "sevendays.cards.divisional_artillery"
        and "target" in e
        and "d10" in e["text"]
    ]
    assert sorted(r["target"] for r in rolls) == ["pact-r", "pact-t"]
    assert all(r["need"] == 8 for r in rolls)
    assert game.state.flow.phase == "swap"  # back to the swap afterwards
    game.apply(Action("swap", option=""))
    assert Action("card", option="divisional_artillery") not in game.legal_actions()


# rules: sevendays.cards.reserves
def test_reserves_card_brings_an_mbt_to_the_friendly_edge(make_game: MakeGame) -> None:
    game = _game(
        make_game, nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 40)]
    )
    _hand(game, "nato", ["reserves"])
    _to_initiative(game, "nato")
    events = game.apply(Action("card", option="reserves|challenger-1"))
    new = game.state.units["nato-card-1"]
    assert new.profile == "uk/challenger-1" and new.alive and new.y == 1.0
    assert events[-1]["rule"] == "sevendays.cards.reserves"
    game.apply(Action("activate", unit="nato-card-1"))  # and it can fight
    _hand(game, "pact", ["reserves"])
    _to_initiative(game, "pact")
    first_apc = next(u.id for u in load_nation("ussr").units if "apc" in u.traits)
    game.apply(Action("card", option=f"reserves|motor-rifles+{first_apc}"))  # in its APC
    arrived = sorted(u.profile for u in game.state.units.values() if u.uid.startswith("pact-card"))
    assert arrived == sorted(["ussr/motor-rifles", f"ussr/{first_apc}"])


# rules: sevendays.cards.electronic_warfare
def test_electronic_warfare_takes_two_enemy_tokens(make_game: MakeGame) -> None:
    game = _game(
        make_game,
        nato=[unit("c", "chieftain-mk9", 36, 10, commander=True)],
        pact=[unit("t", "t64b", 36, 40, commander=True)],
    )
    _hand(game, "nato", ["electronic_warfare"])
    _to_initiative(game, "nato")
    before = game.state.flow.pools["pact"]
    game.apply(Action("card", option="electronic_warfare"))
    assert game.state.flow.pools["pact"] == before - 2


# rules: sevendays.cards.off_table_artillery
def test_off_table_artillery_hits_the_target_and_units_near_it(make_game: MakeGame) -> None:
    game = _game(
        make_game,
        nato=[unit("c", "chieftain-mk9", 36, 10, commander=True)],
        pact=[unit("t", "t64b", 36, 40), unit("u", "t72a", 38, 40), unit("w", "t72a", 60, 40)],
    )
    _hand(game, "nato", ["off_table_artillery"])
    _to_initiative(game, "nato")
    events = game.apply(Action("card", target="pact-t", option="off_table_artillery"))
    targets = {e["target"] for e in events if e.get("kind") == "roll" and "d10" in e["text"]}
    assert targets == {"pact-t", "pact-u"}


# rules: sevendays.cards.tank_missile
def test_tank_missile_is_the_tanks_shot(make_game: MakeGame) -> None:
    game = _game(
        make_game, nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 40)]
    )
    _hand(game, "nato", ["tank_missile"])
    _to_initiative(game, "nato")
    assert not [a for a in game.legal_actions() if a.kind == "card"]  # only while it acts
    game.apply(Action("activate", unit="nato-c"))
    missile = Action("card", unit="nato-c", target="pact-t", option="tank_missile")
    assert missile in game.legal_actions()
    events = game.apply(missile)
    assert any(
        e.get("rule") == "sevendays.cards.tank_missile" and e.get("need") == 4 for e in events
    )
    assert game.state.flow.activation is None or game.state.flow.activation.fired
