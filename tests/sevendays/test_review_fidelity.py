"""The rules-fidelity review of Seven Days (branch sevendays-review): differences between what
the engine played and the rules as the specification (``shared/rules/sevendays.md``) and the
seed's book text word them, each pinned by a test written from the book's procedure.

Findings:

1. Reactions come when an enemy unit activates (spec 'Command tokens, initiative, activation':
   reactions, transcription p12; our window rule sevendays.reaction.window: the first action of
   an activation opens it). An activation that began with an assault, an embark, a disembark,
   smoke or an exit opened no window at all.
2. The reaction fire modifier (book p15 modifier table) is for a target that is moving in its
   activation; a unit that declared its shot with a move after it (book p8 'Shoot and Move',
   sevendays.fire.declared_move) is such a target, as the book's own 'firer moved' note counts a
   unit that fires and then moves as moving.
3. Dug-in infantry and support count as fortified (sevendays.scenario.dug_in): the artillery
   cards' conversion dice read it too (book p19 artillery row: 4-6 in cover, 5-6 fortified).
4. A dug-in unit is in cover: the reaction roll against it as the activating unit is the cover
   number (transcription p12: 5+ against infantry in cover, 4+ against vehicles).
5. The Precision Guided Artillery Strike may be played at any time its player has the initiative
   (book p22-23), so during its own unit's activation too, not only between activations.
"""

from __future__ import annotations

from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.rulesets.sevendays.reactions import reaction_need, reaction_options
from umpire.rulesets.sevendays.state import Side
from umpire.rulesets.sevendays.turns import sync

from ..conftest import MakeGame, unit


def _world(game: Game):  # type: ignore[no-untyped-def]
    return game.ruleset.world(game.state)  # type: ignore[attr-defined]


# -- Finding 1: every activation's first action opens the reaction window -------------------------
# rules: sevendays.reaction.window, sevendays.close_combat
def test_an_assault_opens_the_reaction_window_before_it_resolves(make_game: MakeGame) -> None:
    """Transcription p12: when an enemy unit activates, a unit may try to react. An infantry
    unit that activates to assault is such a unit: the enemy may react before the assault goes
    in, and the assaulting unit is moving in its activation (book p15: -1 to reaction fire)."""
    game = make_game(
        nato=[unit("a", "infantry", 36, 20), unit("c", "chieftain-mk9", 5, 5)],
        pact=[unit("r", "motor-rifles", 36, 25), unit("t", "t64b", 36, 40)],
    )
    game.apply(Action("activate", unit="nato-a"))
    assault = Action("assault", unit="nato-a", target="pact-r")
    events = game.apply(assault)
    assert game.state.flow.phase == "react" and game.to_act == "pact"
    assert game.state.flow.pending == assault
    assert not [e for e in events if e.get("rule") == "sevendays.close_combat"]
    world = _world(game)
    options = reaction_options(world, game.state, game.state.units["nato-a"], True)
    tank = next(o for o in options if o.unit == "pact-t")
    assert tank.plan is not None
    assert "sevendays.fire.modifier.reaction_moving" in [m.rule for m in tank.plan.modifiers]
    events = game.apply(Action("no_react"))
    assert any(e.get("rule") == "sevendays.close_combat" and e["kind"] == "roll" for e in events)


# rules: sevendays.reaction.window, sevendays.transport.embark
def test_infantry_that_activates_only_to_embark_may_be_reacted_to(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("apc", "fv432", 30, 8), unit("inf", "infantry", 30, 10)],
        pact=[unit("t", "t64b", 30, 30)],
    )
    game.apply(Action("activate", unit="nato-inf"))
    game.apply(Action("embark", unit="nato-inf", target="nato-apc"))
    assert game.state.flow.phase == "react" and game.to_act == "pact"
    assert game.state.units["nato-inf"].carried_by is None  # not yet: the reaction comes first
    game.apply(Action("no_react"))
    assert game.state.units["nato-inf"].carried_by == "nato-apc"
    assert game.state.flow.activation is None


# rules: sevendays.reaction.window, sevendays.transport.disembark
def test_a_transport_that_activates_to_disembark_may_be_reacted_to(make_game: MakeGame) -> None:
    game = make_game(
        nato=[
            unit("apc", "fv432", 30, 8),
            unit("inf", "infantry", 30, 8, embarked_in="apc"),
            unit("c", "chieftain-mk9", 60, 5),
        ],
        pact=[unit("t", "t64b", 30, 30)],
    )
    game.apply(Action("activate", unit="nato-apc"))
    game.apply(Action("disembark", unit="nato-apc", target="nato-inf"))
    assert game.state.flow.phase == "react" and game.to_act == "pact"
    game.apply(Action("no_react"))
    assert game.state.units["nato-inf"].alive
    # the window opens once per activation: the move after the disembark opens none
    game.apply(Action("move", unit="nato-apc", point=(20.0, 8.0)))
    assert game.state.flow.phase != "react"


# rules: sevendays.reaction.window, sevendays.smoke
def test_a_mortar_laying_smoke_may_be_reacted_to(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("m", "fv432m", 36, 4), unit("c", "chieftain-mk9", 20, 10)],
        pact=[unit("t", "t64b", 36, 40)],
    )
    game.apply(Action("activate", unit="nato-m"))
    smoke = Action("smoke", unit="nato-m", target="pact-t")
    assert smoke in game.legal_actions()
    game.apply(smoke)
    assert game.state.flow.phase == "react" and game.state.flow.pending == smoke
    assert not game.state.smoke
    game.apply(Action("no_react"))
    assert game.state.smoke


# -- Finding 2: a shot declared with a move after it is a moving target's -------------------------
# rules: sevendays.fire.modifier.reaction_moving, sevendays.fire.declared_move
def test_reaction_fire_at_a_unit_that_declared_shoot_and_move_takes_the_minus_one(
    make_game: MakeGame,
) -> None:
    """Book p15: -1 for reaction fire at a target that is moving in its activation; a unit that
    declared 'shoot and move' (book p8) moves in this activation, as the book's 'firer moved'
    note says of the firer itself."""
    shots = 0
    for seed in range(6):
        game = make_game(
            seed=seed,
            nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 10, 5)],
            pact=[unit("t", "t64b", 36, 40)],
        )
        game.apply(Action("activate", unit="nato-c"))
        game.apply(Action("fire", unit="nato-c", target="pact-t", option="then_move"))
        assert game.state.flow.phase == "react"
        assert game.state.flow.reacting_to_move
        options = reaction_options(_world(game), game.state, game.state.units["nato-c"], True)
        plan = next(o for o in options if o.unit == "pact-t").plan
        assert plan is not None
        assert "sevendays.fire.modifier.reaction_moving" in [m.rule for m in plan.modifiers]
        events = game.apply(Action("react", unit="pact-t"))
        fired = [
            e for e in events if e.get("rule") == "sevendays.fire.base" and e["firer"] == "pact-t"
        ]
        for shot in fired:
            shots += 1
            assert "sevendays.fire.modifier.reaction_moving" in shot["modifiers"]
    assert shots


def test_a_shot_declared_without_a_move_is_no_moving_target(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 10, 5)],
        pact=[unit("t", "t64b", 36, 40)],
    )
    game.apply(Action("activate", unit="nato-c"))
    game.apply(Action("fire", unit="nato-c", target="pact-t"))
    assert game.state.flow.phase == "react"
    assert not game.state.flow.reacting_to_move


# -- Finding 3: the artillery cards read dug-in infantry as fortified -----------------------------
# rules: sevendays.scenario.dug_in, sevendays.cards.off_table_artillery
def test_artillery_card_conversion_against_dug_in_infantry_needs_5_plus(
    make_game: MakeGame,
) -> None:
    """Book p19 (artillery row, 2d6): 4-6 in the open or cover, 5-6 fortified. Dug-in infantry
    count as fortified (sevendays.scenario.dug_in), so each conversion die needs 5+."""
    from umpire.rulesets.sevendays.cards import _bombard_one, load_deck

    card = load_deck().cards["off_table_artillery"]
    seen = 0
    for seed in range(60):
        game = make_game(
            seed=seed,
            nato=[unit("i", "infantry", 36, 10, dug_in=True)],
            pact=[unit("t", "t64b", 36, 40)],
        )
        target = game.state.units["nato-i"]
        events = _bombard_one(_world(game), game.state, card, target, True)
        rolls = [e for e in events if e.get("kind") == "roll" and "conversion" in e["text"]]
        for roll in rolls:
            seen += 1
            assert "need 5+" in roll["text"]
            assert roll["result"] == sum(1 for d in roll["dice"] if d >= 5)
    assert seen


# -- Finding 4: a dug-in activating unit is in cover for the reaction roll -------------------------
# rules: sevendays.reaction.target, sevendays.scenario.dug_in
def test_reacting_to_dug_in_infantry_needs_the_cover_number(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("i", "infantry", 36, 20, dug_in=True), unit("j", "infantry", 50, 20)],
        pact=[unit("t", "t64b", 36, 40), unit("u", "t64b", 50, 40)],
    )
    world = _world(game)
    state = game.state
    state.flow.initiative = Side.NATO
    sync(state)
    dug = state.units["nato-i"]
    open_ = state.units["nato-j"]
    assert reaction_need(world, state, state.units["pact-u"], open_, None) == 4
    assert reaction_need(world, state, state.units["pact-t"], dug, None) == 5


# -- Finding 5: the Precision Guided Artillery Strike whenever its player has the initiative -----
# rules: sevendays.cards.precision_strike, sevendays.cards.play
def test_precision_strike_may_be_played_during_an_own_activation(make_game: MakeGame) -> None:
    """Book p22-23: 'play at any time you have initiative' - while one of its units is
    activated the side still has the initiative."""
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 30, 10, commander=True), unit("d", "fv432", 40, 10)],
        pact=[unit("t", "t64b", 36, 40, commander=True), unit("u", "t64b", 60, 44)],
        cards=True,
        first_initiative="pact",
    )
    game.apply(Action("swap", option=""))
    game.apply(Action("swap", option=""))
    assert game.state.cards is not None
    game.state.cards["hands"]["nato"] = []
    game.state.cards["hands"]["pact"] = ["precision_strike"]
    assert game.to_act == "pact" and game.state.flow.phase == "activate"
    game.apply(Action("activate", unit="pact-u"))
    assert game.state.flow.phase == "act" and game.to_act == "pact"
    plays = [a for a in game.legal_actions() if a.kind == "card"]
    assert Action("card", target="nato-c", option="precision_strike") in plays
    # the side without the initiative may not play it, whatever decision it may have
    from umpire.rulesets.sevendays.cards import playable

    game.state.cards["hands"]["nato"] = ["precision_strike"]
    assert not playable(_world(game), game.state, "nato")
    events = game.apply(Action("card", target="nato-c", option="precision_strike"))
    if game.state.flow.phase == "card":  # NATO may answer with a card (it holds none that can)
        events += game.apply(Action("no_response"))
    assert any(e.get("rule") == "sevendays.cards.precision_strike" for e in events)


# -- a declared act goes ahead only if it is still possible once the reaction is over -------------
# rules: sevendays.reaction.window, sevendays.close_combat, sevendays.smoke
def test_an_assault_or_smoke_no_longer_possible_after_the_reaction_is_lost(
    make_game: MakeGame,
) -> None:
    """A reaction may change the table (a recce-spotted reaction move,
    sevendays.reaction.recce_spotting): the declared act is then checked again, as a declared
    shot is, and lost if its target is out of reach."""
    game = make_game(
        nato=[unit("a", "infantry", 36, 20), unit("c", "chieftain-mk9", 5, 5)],
        pact=[unit("r", "motor-rifles", 36, 25), unit("t", "t64b", 36, 40)],
    )
    game.apply(Action("activate", unit="nato-a"))
    game.apply(Action("assault", unit="nato-a", target="pact-r"))
    assert game.state.flow.phase == "react"
    rifles = game.state.units["pact-r"]
    rifles.x, rifles.y = 60.0, 44.0  # as if it had moved away meanwhile
    game.state.touch()
    events = game.apply(Action("no_react"))
    assert [e["kind"] for e in events if e.get("rule") == "sevendays.close_combat"] == ["cancelled"]
    assert game.state.units["nato-a"].pos == (36.0, 20.0)

    game = make_game(
        nato=[unit("m", "fv432m", 36, 4), unit("c", "chieftain-mk9", 20, 10)],
        pact=[unit("t", "t64b", 36, 40)],
    )
    game.apply(Action("activate", unit="nato-m"))
    game.apply(Action("smoke", unit="nato-m", target="pact-t"))
    assert game.state.flow.phase == "react"
    tank = game.state.units["pact-t"]
    tank.x, tank.y = 36.0, 12.0  # now within 12": no mortar may fire at it
    game.state.touch()
    events = game.apply(Action("no_react"))
    assert not game.state.smoke
    assert [e["kind"] for e in events if e.get("rule") == "sevendays.smoke"] == ["cancelled"]
