"""The scripted player beats the random player in at least 90% of 200 seeded games."""

from __future__ import annotations

import umpire
from umpire.agents import make_agent
from umpire.play import play_out

GAMES = 200


def test_scripted_beats_random_in_90_percent_of_200_games() -> None:
    wins = 0
    for seed in range(GAMES):
        scripted = "blue" if seed % 2 == 0 else "red"
        rand = "red" if scripted == "blue" else "blue"
        game = umpire.new_game("portable/village-attack", seed=seed)
        players = {
            scripted: make_agent("scripted", "portable", scripted, seed),
            rand: make_agent("random", "portable", rand, seed),
        }
        play_out(game, players)
        assert game.outcome is not None
        wins += game.outcome.winner == scripted
    assert wins / GAMES >= 0.90, f"scripted won {wins}/{GAMES}"


def test_scripted_explains_itself() -> None:
    game = umpire.new_game("portable/armoured-meeting", seed=3)
    side = game.to_act or "blue"
    agent = make_agent("scripted", "portable", side, 3)
    game.apply(agent.choose(game.view(side), game.legal_actions()))
    assert agent.last_reason
