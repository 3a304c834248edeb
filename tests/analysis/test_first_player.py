"""The first-player statistic of ``umpire simulate`` names the side that first acted in play.

Set-up decisions do not count: Seven Days' Tactical Advantage card swap before turn 1 (and any
card played during it), or Portable's artillery targets, which both sides declare together
before the initiative dice say who moves first. Expected sides come from the rules, read off
the game's own log: the winner of the turn-1 initiative roll (Seven Days book p7 'Initiative',
rule ``sevendays.initiative.roll``; Portable 'Dicing for initiative' a), rule
``portable.initiative.roll``: the higher activates first), or the side a scenario gives the
initiative (Seven Days seed p32, Capture: the attacker starts with it).
"""

from __future__ import annotations

from typing import Any

from umpire.agents.base import make_agent
from umpire.analysis.simulate import Job, play_game, play_noting_first, run_local
from umpire.core.events import Event
from umpire.core.game import Game, new_game
from umpire.core.ruleset import get_ruleset

SEEDS = range(1, 9)


def _scripted(game_id: str, seed: int) -> dict[str, Any]:
    ruleset = game_id.split("/")[0]
    return {
        side: make_agent("scripted", ruleset, side, seed)
        for side in get_ruleset(ruleset).meta.players
    }


def _first_roll(game: Game, rule: str) -> Event:
    """The first decisive roll of ``rule`` in the umpire's log (a tie is rolled again)."""
    rolls = [e for e in game.events if e.rule == rule and e.kind == "roll"]
    decisive = [e for e in rolls if e["dice"][0] != e["dice"][1]]
    assert decisive, f"no decisive {rule} roll"
    return decisive[0]


def _sevendays_turn1_initiative(game: Game) -> str:
    dice = _first_roll(game, "sevendays.initiative.roll")["dice"]
    return "nato" if dice[0] > dice[1] else "pact"  # the dice are NATO's, then the Pact's


def test_sevendays_with_cards_names_the_initiative_holder_not_the_first_to_swap() -> None:
    game_id = "sevendays/meeting-engagement"
    firsts, swappers = [], []
    for seed in SEEDS:
        game = new_game(game_id, seed=seed, options={"cards": True})
        assert game.observation(game.to_act or "")["flow"]["phase"] == "swap"
        swappers.append(game.to_act)  # the first decision is the card swap, not play
        first = play_noting_first(game, _scripted(game_id, seed))
        assert first == _sevendays_turn1_initiative(game)
        firsts.append(first)
    # the test can tell the two apart: some games are opened in play by the side that did not
    # swap first
    assert any(f != s for f, s in zip(firsts, swappers, strict=True))
    assert set(firsts) == {"nato", "pact"}


def test_sevendays_capture_attacker_acts_first_after_the_defender_swaps() -> None:
    # Capture has cards on and gives the Pact (the attacker) the initiative on turn 1, so no
    # initiative is rolled then; NATO is asked for its card swap first.
    for seed in range(1, 4):
        game = new_game("sevendays/capture", seed=seed)
        assert game.to_act == "nato"
        row = play_game("sevendays/capture", {}, {"nato": "scripted", "pact": "scripted"}, 0, seed)
        assert row["first_player"] == "pact"


def test_sevendays_without_cards_the_first_decision_is_play() -> None:
    game_id = "sevendays/meeting-engagement"
    for seed in range(1, 4):
        game = new_game(game_id, seed=seed, options={"cards": False})
        before = game.to_act
        first = play_noting_first(game, _scripted(game_id, seed))
        assert first == before == _sevendays_turn1_initiative(game)


def test_portable_names_the_initiative_winner_not_the_first_artillery_declaration() -> None:
    game_id = "portable/trench-raid"
    differs = 0
    for seed in SEEDS:
        game = new_game(game_id, seed=seed)
        declarer = game.to_act  # both sides' artillery targets are declared first
        assert game.observation(str(declarer))["flow"]["decision"] == "artillery"
        first = play_noting_first(game, _scripted(game_id, seed))
        winner = _first_roll(game, "portable.initiative.roll")["winner"]
        assert first == winner
        activations = [a for a in game.record.actions if a.kind == "activate"]
        assert activations and activations[0].unit is not None
        assert activations[0].unit.startswith(f"{first}-")  # it activated the first unit
        differs += first != declarer
    assert differs > 0


def test_first_player_rows_are_plain_side_names() -> None:
    rows = run_local(Job("portable/armoured-meeting", n=4, seed=2))
    assert all(type(r["first_player"]) is str for r in rows)
    assert {r["first_player"] for r in rows} <= {"blue", "red"}


def test_a_ruleset_without_the_capability_counts_the_first_decision() -> None:
    ruleset = get_ruleset("tiny")
    assert ruleset.capabilities.in_play is None
    scenario = ruleset.scenario_ids()[0]
    game = new_game(f"tiny/{scenario}", seed=4)
    before = game.to_act
    agents = {side: make_agent("random", "tiny", side, 4) for side in ruleset.meta.players}
    assert play_noting_first(game, agents) == before
    assert game.is_over  # and the game was played to its end


def test_book_and_gun_names_the_owner_of_the_first_card_not_the_deploying_side() -> None:
    """The Book and The Gun p.8: the movement phase draws a card per unit and its owner moves;
    the insurgents' concealed deployment, cache and IED choices before turn 1 are set-up."""
    game_id = "bookgun/market-day"
    firsts = []
    for seed in range(1, 5):
        game = new_game(game_id, seed=seed)
        assert game.to_act == "insurgents"  # the first decision is their hidden deployment
        first = play_noting_first(game, _scripted(game_id, seed))
        drawn = [e for e in game.events if e.kind == "card" and e.rule == "bookgun.cards.deck"]
        assert first == drawn[0]["side"]
        firsts.append(first)
    assert "army" in firsts  # not always the deploying side
