"""The scripted player must beat the random player in at least 90% of 200 seeded games."""

from __future__ import annotations

import umpire
from umpire.agents import make_agent
from umpire.play import play_out

GAMES = 200


def test_scripted_beats_random_in_90_percent_of_200_games() -> None:
    wins = 0
    for seed in range(GAMES):
        scripted_side = "nato" if seed % 2 == 0 else "pact"
        random_side = "pact" if scripted_side == "nato" else "nato"
        game = umpire.new_game("sevendays/meeting-engagement", seed=seed)
        players = {
            scripted_side: make_agent("scripted", "sevendays", scripted_side, seed),
            random_side: make_agent("random", "sevendays", random_side, seed),
        }
        play_out(game, players)
        assert game.outcome is not None
        wins += game.outcome.winner == scripted_side
    assert wins / GAMES >= 0.90, f"scripted won {wins}/{GAMES}"


def test_scripted_explains_itself() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=3)
    side = game.to_act or "nato"
    agent = make_agent("scripted", "sevendays", side, 3)
    action = agent.choose(game.view(side), game.legal_actions())
    game.apply(action)
    assert agent.last_reason
