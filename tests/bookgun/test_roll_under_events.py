"""Book and Gun rolls under a number (a d20 at or below the spotting, hit or morale number
passes, rulebook p.9-17): their events say so (``under``), so a log or a page does not show
"need 6+" for a roll that needs 6 or less (a user saw exactly that at the web table)."""

from __future__ import annotations

from umpire.agents import make_agent
from umpire.core.game import new_game


def test_every_roll_under_says_so_and_no_other_roll_does() -> None:
    game = new_game("bookgun/market-day", seed=2)
    agents = {s: make_agent("scripted", "bookgun", s, 2) for s in game.ruleset.meta.players}
    under = other = 0
    while not game.is_over:
        side = game.to_act
        assert side is not None
        for event in game.apply(agents[side].choose(game.view(side), game.legal_actions())):
            data = event.to_dict()
            if data["kind"] != "roll":
                continue
            if "or less" in event.text:
                assert data.get("under") is True, event.text
                under += 1
            else:
                assert "under" not in data, event.text
                other += 1
    assert under and other
