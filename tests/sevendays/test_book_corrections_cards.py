"""Issue 15 (Seven Days list): Tactical Advantage cards, Capture and provenance corrected against
the rulebook's own wording (seed ``000_seven-days-to-the-river-rhine.txt``: card inventory on
book p22-23, Capture on p32, UK table on p35); and issue 20's first bullet, cards by their names.

Each test's docstring cites the page and says, in our words, what the book asks for."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from umpire.core.actions import Action
from umpire.core.errors import DataFileError, IllegalActionError
from umpire.core.game import Game
from umpire.rulesets.sevendays import kinds
from umpire.rulesets.sevendays.cards import load_deck
from umpire.rulesets.sevendays.config import house_rules, rule_catalog, rules_markdown
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import deploy_limit, load_nation, load_scenario
from umpire.rulesets.sevendays.state import Side, Status
from umpire.rulesets.sevendays.transport import capacity
from umpire.rulesets.sevendays.turns import sync
from umpire.rulesets.sevendays.victory import check_break

from ..conftest import MakeGame, unit

REPO = Path(__file__).resolve().parents[2]
SEED = REPO.parent / "shared" / "seeds" / "000_seven-days-to-the-river-rhine.txt"
BUILDING = [{"id": "house", "kind": "buildings", "rect": [34, 8, 38, 12]}]


def _game(make_game: MakeGame, **kw: Any) -> Game:
    """A card game past the swap (both keep their hands), every hand then emptied."""
    game = make_game(cards=True, **kw)
    game.apply(Action("swap", option=""))
    game.apply(Action("swap", option=""))
    _hand(game, "nato", [])
    _hand(game, "pact", [])
    return game


def _hand(game: Game, side: str, cards: list[str]) -> None:
    assert game.state.cards is not None
    game.state.cards["hands"][side] = list(cards)


def _to_initiative(game: Game, side: str) -> None:
    flow = game.state.flow
    flow.initiative = Side(side)
    flow.activation = None
    flow.core.stack.clear()
    sync(game.state)
    assert game.to_act == side and flow.phase == "activate"


def _card_plays(game: Game, card: str) -> list[Action]:
    return [a for a in game.legal_actions() if (a.option or "").partition("|")[0] == card]


# -- Reserves ----------------------------------------------------------------------------------
# rules: sevendays.cards.reserves
def test_reserves_infantry_may_come_alone_or_embarked_in_an_apc(make_game: MakeGame) -> None:
    """Book p22-23, Reserves: one MBT or one infantry detachment arrives on the friendly edge;
    with infantry the player *may* also take an APC for free, and then the infantry must be
    embarked in it. So the APC is optional, and when taken the infantry rides inside."""
    game = _game(
        make_game, nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 40)]
    )
    _hand(game, "nato", ["reserves"])
    _to_initiative(game, "nato")
    options = {(a.option or "").partition("|")[2] for a in _card_plays(game, "reserves")}
    uk = load_nation("uk")
    carriers = {u.id for u in uk.units if capacity(u)[0] and not capacity(u)[1]}
    assert "infantry" in options and "challenger-1" in options  # alone, and an MBT
    assert {f"infantry+{apc}" for apc in carriers} <= options  # or with an APC
    assert all(
        o.split("+")[0] == "infantry" and o.split("+")[1] in carriers for o in options if "+" in o
    ), "only infantry brings an APC, and only one that can carry it"

    alone = _game(
        make_game, nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 40)]
    )
    _hand(alone, "nato", ["reserves"])
    _to_initiative(alone, "nato")
    alone.apply(Action("card", option="reserves|infantry"))
    arrived = [u for u in alone.state.units.values() if u.uid.startswith("nato-card")]
    assert [(u.profile, u.status) for u in arrived] == [("uk/infantry", "active")]

    game.apply(Action("card", option="reserves|infantry+fv432"))
    came = {u.profile: u for u in game.state.units.values() if u.uid.startswith("nato-card")}
    rider, apc = came["uk/infantry"], came["uk/fv432"]
    assert apc.alive and apc.y == 1.0  # on NATO's own edge
    assert rider.status == "embarked" and rider.carried_by == apc.uid and rider.pos == apc.pos


# -- Communications ------------------------------------------------------------------------------
# rules: sevendays.cards.communications
def test_communications_token_spent_moves_an_enemy_unit(make_game: MakeGame) -> None:
    """Book p22-23, Communications: a friendly unit may make a move action at once; and if a
    command token is spent, an enemy unit can be given one movement action, which the card's
    player decides, following every movement rule."""
    game = _game(
        make_game,
        nato=[unit("c", "chieftain-mk9", 36, 10)],
        pact=[unit("t", "t64b", 36, 40), unit("h", "t64b", 50, 40, hidden=True)],
    )
    _hand(game, "nato", ["communications"])
    _to_initiative(game, "nato")
    plays = _card_plays(game, "communications")
    enemy = [a for a in plays if a.option == "communications|enemy"]
    assert {a.unit for a in plays if a.option == "communications"} == {"nato-c"}
    assert {a.unit for a in enemy} == {"pact-t"}  # a hidden marker is not a unit NATO can see
    pools = dict(game.state.flow.pools)
    tokens = game.state.units["pact-t"].tokens
    game.apply(enemy[0])
    assert game.state.units["pact-t"].pos == enemy[0].point  # moved where NATO chose
    assert game.state.flow.pools["nato"] == pools["nato"] - 1  # the token NATO spent
    assert game.state.flow.pools["pact"] == pools["pact"]
    assert game.state.units["pact-t"].tokens == tokens

    none_left = _game(
        make_game, nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 40)]
    )
    _hand(none_left, "nato", ["communications"])
    _to_initiative(none_left, "nato")
    none_left.state.flow.pools["nato"] = 0
    plays = _card_plays(none_left, "communications")
    assert plays and all(a.option == "communications" for a in plays)  # no token, no enemy move


# -- Against All Odds ----------------------------------------------------------------------------
def _milan_about_to_go(
    make_game: MakeGame, hand: list[str], markers: int = 2, seed: int = 0
) -> tuple[Game, list[Any]]:
    """A Milan team (morale 3) firing its ATGM from a building takes the back-blast marker
    after its shot (sevendays.fire.atgm_backblast): with 2 markers already, that one removes it.
    PACT has no token to react with."""
    game = _game(
        make_game,
        seed=seed,
        nato=[unit("m", "milan", 36, 10), unit("c", "chieftain-mk9", 10, 5)],
        pact=[unit("t", "t64b", 36, 30)],
        terrain=BUILDING,
    )
    _hand(game, "nato", hand)
    _to_initiative(game, "nato")
    game.state.flow.pools["pact"] = 0
    game.state.units["nato-m"].markers = markers
    game.apply(Action("activate", unit="nato-m"))
    events = game.apply(Action("atgm", unit="nato-m", target="pact-t"))
    return game, events


# rules: sevendays.cards.against_all_odds, sevendays.morale.removal
def test_against_all_odds_is_offered_at_the_moment_of_removal(make_game: MakeGame) -> None:
    """Book p22-23, Against All Odds: played on a friendly unit that is about to be removed
    because of its morale markers; a d6 is rolled and that many markers come off at once. The
    owner is asked when the removal happens; a unit then below its morale value stays."""
    game, events = _milan_about_to_go(make_game, ["against_all_odds"])
    milan = game.state.units["nato-m"]
    assert milan.markers == 3 and milan.status == "doomed"
    assert game.to_act == "nato" and game.state.flow.phase == "rescue"
    assert not any(e.get("kind") == "removed" for e in events)
    assert game.state.flow.outcome is None
    legal = game.legal_actions()
    assert legal == [
        Action("card", unit="nato-m", option="against_all_odds"),
        Action("no_response"),
    ]
    events = game.apply(legal[0])
    roll = next(
        e for e in events if e.get("rule") == "sevendays.cards.against_all_odds" and "dice" in e
    )
    die = roll["dice"][0]
    assert milan.markers == 3 - min(3, die) and milan.status == "active"  # 3 - d6 < 3: it stays
    assert game.state.cards is not None and "against_all_odds" in game.state.cards["discard"]
    assert game.state.flow.phase != "rescue"


# rules: sevendays.cards.against_all_odds
def test_against_all_odds_leaves_a_unit_still_at_its_morale_value_to_go(
    make_game: MakeGame,
) -> None:
    """Book p22-23: the d6 takes that many markers off; a unit left at or above its morale value
    is still removed (our reading of "about to be removed"). Milan morale 3 with 8 markers: only
    a 6 saves it."""
    for seed in range(6):
        game, _ = _milan_about_to_go(make_game, ["against_all_odds"], markers=7, seed=seed)
        events = game.apply(Action("card", unit="nato-m", option="against_all_odds"))
        roll = next(
            e for e in events if e.get("rule") == "sevendays.cards.against_all_odds" and "dice" in e
        )
        left = 8 - roll["dice"][0]
        milan = game.state.units["nato-m"]
        assert milan.markers == left
        assert milan.status == ("active" if left < 3 else "removed")


# rules: sevendays.cards.against_all_odds, sevendays.morale.removal
def test_letting_the_unit_go_removes_it_and_counts_the_loss(make_game: MakeGame) -> None:
    """Book p22-23: the card is the owner's choice; declining it, the unit is removed by its
    markers as usual and its break points are lost."""
    game, _ = _milan_about_to_go(make_game, ["against_all_odds"])
    world = SevenDays.shared().world(game.state)
    before = world.lost_bp(game.state, "nato")
    events = game.apply(Action("no_response"))
    assert game.state.units["nato-m"].status == "removed"
    assert any(e.get("kind") == "removed" for e in events)
    assert (
        world.lost_bp(game.state, "nato") == before + world.profile(game.state.units["nato-m"]).bp
    )
    assert game.state.cards is not None and game.state.cards["hands"]["nato"] == [
        "against_all_odds"
    ]


# rules: sevendays.cards.against_all_odds
def test_the_rescue_decision_tells_the_enemy_nothing_of_the_hand(make_game: MakeGame) -> None:
    """A hidden hand stays hidden: whether the owner is asked depends only on what the enemy
    knows (cards in hand, copies in the discard pile). With Against All Odds or another card,
    PACT's observation and log are the same; with no card at all the unit goes at once."""
    with_card, _ = _milan_about_to_go(make_game, ["against_all_odds"])
    other_card, _ = _milan_about_to_go(make_game, ["reserves"])
    assert other_card.state.flow.phase == "rescue"  # asked, though it can only let go
    assert other_card.legal_actions() == [Action("no_response")]
    seen = [{**g.observation("pact"), "scenario": ""} for g in (with_card, other_card)]
    assert seen[0] == seen[1]  # (the scenario files differ by name only)
    texts = [[e["text"] for e in g.log("pact")] for g in (with_card, other_card)]
    assert texts[0] == texts[1]

    empty, events = _milan_about_to_go(make_game, [])
    assert empty.state.units["nato-m"].status == "removed"  # no card in hand: public fact
    assert empty.state.flow.phase != "rescue"
    assert any(e.get("kind") == "removed" for e in events)


# rules: sevendays.cards.against_all_odds, sevendays.cards.intelligence_coup
def test_against_all_odds_can_be_answered_and_then_the_unit_goes(make_game: MakeGame) -> None:
    """Book p22: each card is played one at a time and the other player may play cards in
    reaction. PACT cancels the Against All Odds (Intelligence Coup, house card); NATO, with no
    card left, cannot save the unit again, so it is removed."""
    game, _ = _milan_about_to_go(make_game, ["against_all_odds"])
    _hand(game, "pact", ["intelligence_coup"])
    game.apply(Action("card", unit="nato-m", option="against_all_odds"))
    assert game.to_act == "pact" and game.state.flow.phase == "card"
    assert game.state.units["nato-m"].status == "doomed"  # not yet decided
    events = game.apply(Action("card", option="intelligence_coup"))
    assert any(e.get("kind") == "cancelled" for e in events)
    assert game.state.units["nato-m"].status == "removed"
    assert game.state.units["nato-m"].markers == 3  # the card never took effect


def test_the_rescue_copies_come_from_the_deck() -> None:
    """The public count of Against All Odds copies is the deck's own (data/cards.yaml)."""
    card = load_deck().cards["against_all_odds"]
    assert card.when == "removal" and card.count == 2


# -- Divisional Artillery and off-board units --------------------------------------------
def _off_board_game(make_game: MakeGame) -> Game:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)],
        pact=[
            unit("t", "t64b", 36, 40),
            unit("r1", "t64b", 30, 47, reserve=True),
            unit("r2", "t64b", 42, 47, reserve=True),
        ],
        cards=True,
        reserves_from=1,
        first_initiative="pact",
    )
    _hand(game, "nato", ["divisional_artillery"])
    _hand(game, "pact", [])
    return game


# rules: sevendays.cards.divisional_artillery
def test_off_board_units_choose_the_roll_or_stay_off_that_turn(make_game: MakeGame) -> None:
    """Book p22-23, Divisional Artillery Available: a d10 for each enemy unit, 8+ a morale
    marker; off-board units may choose to avoid the roll, but may not move onto the table that
    turn (turn 1: the card is played before the first initiative roll)."""
    game = _off_board_game(make_game)
    game.apply(Action("card", option="divisional_artillery"))
    assert game.to_act == "pact" and game.state.flow.phase == "off_board"
    assert game.legal_actions() == [
        Action("off_board", unit="pact-r1", option="stay"),
        Action("off_board", unit="pact-r1", option="roll"),
    ]
    assert "may not enter" in game.describe(game.legal_actions()[0])
    game.apply(Action("off_board", unit="pact-r1", option="stay"))
    events = game.apply(Action("off_board", unit="pact-r2", option="roll"))
    rolled = [e for e in events if e.get("target") == "pact-r2" and "d10" in e.get("text", "")]
    assert len(rolled) == 1 and rolled[0]["need"] == 8
    assert game.state.flow.phase == "swap" and game.to_act == "nato"  # back to NATO's swap
    game.apply(Action("swap", option=""))
    game.apply(Action("swap", option=""))
    assert game.state.flow.turn == 1 and game.to_act == "pact"
    activations = {a.unit for a in game.legal_actions() if a.kind == "activate"}
    assert "pact-r2" in activations and "pact-r1" not in activations
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action("activate", unit="pact-r1"))
    assert refused.value.rule == "sevendays.cards.divisional_artillery"
    game.state.flow.turn = 2  # the next turn it may come on
    world = SevenDays.shared().world(game.state)
    game.state.flow.initiative = Side.PACT
    assert game.state.units["pact-r1"] in kinds.reserves(world, game.state)


# -- Capture ---------------------------------------------------------------------------------------
# rules: sevendays.victory.capture, sevendays.victory.break_point
def test_capture_break_points_are_exact_fractions(make_game: MakeGame) -> None:
    """Book p32, Capture: the defender's break point is 2/3 of its total BP, the attacker's 1/2.
    Exact: 24 BP of defenders break at 16 (a decimal 0.6667 would make it 17)."""
    spec = SevenDays().world_for("capture", None).scenario.spec
    assert spec.break_point_fraction == {"nato": Fraction(2, 3), "pact": Fraction(1, 2)}
    game = make_game(
        nato=[unit(f"c{i}", "chieftain-mk9", 20 + 6 * i, 10) for i in range(3)],  # 3 x 8 BP
        pact=[unit("t", "t64b", 36, 40)],
        break_point_fraction={"nato": "2/3", "pact": "1/2"},
    )
    world = SevenDays.shared().world(game.state)
    assert world.total_bp(game.state, "nato") == 24
    assert world.break_point(game.state, "nato") == 16
    for uid in ("nato-c0", "nato-c1"):  # 16 BP lost: exactly two thirds
        game.state.units[uid].status = Status.DESTROYED
    check_break(world, game.state)
    assert game.state.flow.outcome is not None and game.state.flow.outcome["winner"] == "pact"
    total = world.total_bp(game.state, "pact")
    assert world.break_point(game.state, "pact") == max(1, math.ceil(Fraction(total, 2)))


# rules: sevendays.scenario.deployment
def test_capture_attacker_deploys_at_most_two_thirds(make_game: MakeGame, tmp_path: Path) -> None:
    """Book p32, Capture deployment: the attacker deploys up to 2/3 of its units; the rest wait
    (here: in reserve)."""
    spec = SevenDays().world_for("capture", None).scenario.spec
    assert spec.attacker == "pact" and spec.attacker_deploys == Fraction(2, 3)
    units = spec.sides["pact"].units
    on_table = [u for u in units if not u.reserve]
    assert len(on_table) <= math.floor(Fraction(2, 3) * len(units)) == deploy_limit(spec, "pact")

    with pytest.raises(DataFileError, match="sevendays.scenario.deployment"):
        make_game(
            nato=[unit("c", "chieftain-mk9", 36, 10)],
            pact=[unit(f"t{i}", "t64b", 10 + 8 * i, 40) for i in range(3)],  # 3 on, 2 allowed
            attacker="pact",
            attacker_deploys="2/3",
        )
    force = {  # a force file deployed as the attacker: its last units wait in reserve (house)
        "pact": {
            "nation": "ussr",
            "facing": 270,
            "units": [unit(f"t{i}", "t64b", 10 + 8 * i, 44, commander=i == 0) for i in range(6)],
        }
    }
    loaded = load_scenario("capture", house_rules(), force).spec.sides["pact"].units
    assert [u.id for u in loaded if u.reserve] == ["t4", "t5"]
    assert next(u for u in loaded if u.id == "t0").commander and not loaded[0].reserve


# -- Provenance ------------------------------------------------------------------------------------
# rules: sevendays.initiative.roll, sevendays.initiative.pass, sevendays.hit.foot_conversion
def test_rules_the_seed_only_names_are_not_published() -> None:
    """The seed's contents name 'Initiative', 'Passing the Initiative' (p7) and the p19 hits on
    infantry, but print no procedure: the dice-off with re-rolled ties, passing and the 1d6/2d6
    conversion are reconstructed, not published."""
    catalog = rule_catalog()
    for rule in ("sevendays.initiative.roll", "sevendays.initiative.pass"):
        assert catalog[rule].provenance == "reconstructed"
    conversion = catalog["sevendays.hit.foot_conversion"]
    assert conversion.provenance in ("reconstructed", "house") and "2d6" in conversion.summary
    if SEED.exists():  # the sections are only named in the seed, never worded
        text = SEED.read_text(encoding="utf-8")
        assert "Passing the Initiative\t7" in text and "roll again" not in text.lower()


# rules: sevendays.cards.deal, sevendays.cards.play
def test_card_references_are_the_books_card_pages() -> None:
    """The Tactical Advantage cards are on book p22-23 (the seed's contents: 'TACTICAL ADVANTAGE
    CARDS 22'); no reference cites the seed's own page count."""
    if SEED.exists():
        assert re.search(r"TACTICAL ADVANTAGE CARDS\t22", SEED.read_text(encoding="utf-8"))
    catalog = rule_catalog()
    published = [c.id for c in load_deck().cards.values() if c.provenance == "published"]
    cards = {k: catalog[k] for k in ("sevendays.cards.deal", "sevendays.cards.play")}
    cards |= {f"sevendays.cards.{c}": catalog[f"sevendays.cards.{c}"] for c in published}
    assert len(cards) == 7
    for rule, entry in cards.items():
        assert "p22" in entry.ref, rule
    assert not [e.id for e in catalog.values() if "seed p30" in e.ref]


# rules: sevendays.orbat.bp_corrections
def test_uk_break_points_are_printed_with_a_house_switch(make_game: MakeGame) -> None:
    """Book p35, UK table: Warrior 11, Spartan 8, FV432 7 and Saxon 5 BP, as printed, are the
    published default; the points/8 values (2, 2, 1, 1) are a named house switch, off unless
    a player turns it on."""
    printed = {"warrior": 11, "spartan": 8, "fv432": 7, "saxon": 5}
    uk = load_nation("uk")
    assert {k: uk.profile(k).bp for k in printed} == printed
    if SEED.exists():
        text = SEED.read_text(encoding="utf-8")
        for name, bp in (("Warrior", 11), ("Spartan", 8), ("FV432", 7), ("Saxon", 5)):
            row = next(r for r in text.splitlines() if r.startswith(f"Light\t{name}\t"))
            assert int(row.split("\t")[-1]) == bp
    switch = house_rules().bp_corrections
    assert switch.use is False
    assert switch.bp == {"uk/warrior": 2, "uk/spartan": 2, "uk/fv432": 1, "uk/saxon": 1}
    units = [unit(k, k, 10 + 10 * i, 10) for i, k in enumerate(printed)]
    plain = make_game(nato=units, pact=[unit("t", "t64b", 36, 40)])
    world = SevenDays.shared().world(plain.state)
    assert world.total_bp(plain.state, "nato") == 31
    switched = make_game(
        nato=units,
        pact=[unit("t", "t64b", 36, 40)],
        options={"house_rules": {"bp_corrections": {"use": True}}},
    )
    world = SevenDays.shared().world(switched.state)
    assert world.total_bp(switched.state, "nato") == 6
    documented = (REPO / "src/umpire/rulesets/sevendays/data/house_rules.yaml").read_text()
    assert "bp_corrections" in documented and "sevendays.orbat.bp_corrections" in documented


def test_version_and_changes_are_noted() -> None:
    """The ruleset's version is bumped for these corrections and the rules page notes them."""
    # 0.5: the review's findings (test_review_findings); 0.6: the fidelity review
    # (test_review_fidelity); 0.7: infantry proximity (test_movement)
    assert SevenDays.meta.version == "0.7"
    page = (REPO / "docs" / "rules" / "sevendays.md").read_text(encoding="utf-8")
    assert page == rules_markdown()
    assert "### 0.4" in page and "### 0.5" in page and "### 0.6" in page and "### 0.7" in page


# -- Issue 20: cards by their names -----------------------------------------------------
# rules: sevendays.cards.deal
def test_swap_menu_names_the_cards_and_the_enemy_never_reads_them(make_game: MakeGame) -> None:
    """Book p22: the hand is dealt face down and only its owner examines it; exchanging cards
    shows the enemy how many, never which. The owner's menu names them."""
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 40)], cards=True
    )
    assert game.state.cards is not None
    deck = load_deck().cards
    hand = list(game.state.cards["hands"]["nato"])
    menu = {a: game.describe(a) for a in game.legal_actions()}
    for action, text in menu.items():
        assert text not in ("swap", "card", "no_response") and not text.startswith("swap:")
        if action.kind == "swap" and action.option:
            for card_id in action.option.split("+"):
                assert deck[card_id].name in text
    keep = menu[Action("swap", option="")]
    assert keep.startswith("keep the hand") and all(deck[c].name in keep for c in hand)
    pair = next(a for a in menu if a.kind == "swap" and a.option and "+" in a.option)
    game.apply(pair)
    secret = set(hand) | set(game.state.cards["hands"]["nato"])
    names = {deck[c].name for c in secret}
    for event in game.log("pact"):
        if "NATO" in event["text"]:
            assert not any(n in event["text"] for n in names), event["text"]
    seen = game.observation("pact")["cards"]
    assert seen["enemy_hand"] == 5 and not set(seen["hand"]) & (secret - set(seen["hand"]))
    for action in game.legal_actions():  # PACT's menu names PACT's cards only
        text = game.describe(action)
        pact_names = {deck[c].name for c in game.state.cards["hands"]["pact"]}
        assert not any(n in text for n in names - pact_names)


# rules: sevendays.cards.play
def test_card_plays_name_the_card_and_what_it_does(make_game: MakeGame) -> None:
    """Book p22: a card is played, one at a time, and the other player may answer it. The menu
    line and the log name the card and say what it does; the answer window names the card."""
    game = _game(
        make_game, nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t64b", 36, 40)]
    )
    _hand(game, "nato", ["electronic_warfare", "reserves"])
    _hand(game, "pact", ["intelligence_coup"])
    _to_initiative(game, "nato")
    deck = load_deck().cards
    for action in game.legal_actions():
        if action.kind == "card":
            card = deck[(action.option or "").partition("|")[0]]
            text = game.describe(action)
            assert text.startswith(f"play {card.name}") and card.summary in text
    jam = Action("card", option="electronic_warfare")
    events = game.apply(jam)
    played = next(e for e in events if e.get("kind") == "card")
    assert deck["electronic_warfare"].name in played["text"]
    assert deck["electronic_warfare"].summary in played["text"]
    assert played in game.log("pact")  # a played card is public
    assert game.to_act == "pact"
    lines = {a.kind: game.describe(a) for a in game.legal_actions()}
    assert lines["no_response"] == "let Electronic Warfare stand (no answer)"
    assert lines["card"].startswith("play Intelligence Coup (answer Electronic Warfare)")


def test_describe_never_falls_back_to_the_kind_in_a_card_game(make_game: MakeGame) -> None:
    """Every menu line of a whole scripted game with cards names what it does (issue 20)."""
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10, commander=True), unit("i", "infantry", 30, 12)],
        pact=[unit("t", "t64b", 36, 40, commander=True), unit("r", "motor-rifles", 40, 40)],
        cards=True,
        turns=2,
    )
    from umpire.rulesets.sevendays.agent import SevenDaysScripted

    players = {s: SevenDaysScripted(s) for s in ("nato", "pact")}
    for _ in range(400):
        side = game.to_act
        if side is None:
            break
        legal = game.legal_actions()
        for action in legal:
            if action.kind in ("card", "swap", "no_response", "off_board"):
                assert game.describe(action) not in ("card", "swap", "no_response", "off_board")
        game.apply(players[side].choose(game.view(side), legal))
