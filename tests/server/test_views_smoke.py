"""The table view draws smoke screens, and flags units off the table, from the game state."""

from __future__ import annotations

import umpire
from umpire.server.views import board


def test_smoke_screens_reach_the_board_as_circles() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    game.state.smoke.append((36.0, 24.0, 3.0))
    drawn = board(game, game.observation("nato"), "nato")
    assert drawn["smoke"] == [{"x": 36.0, "y": 24.0, "r": 3.0}]
    assert board(game, game.observation("pact"), "pact")["smoke"] == drawn["smoke"]  # both see it


def test_units_off_the_table_are_flagged_by_status() -> None:
    game = umpire.new_game("sevendays/capture", seed=1)
    drawn = board(game, game.observation("pact"), "pact")
    statuses = {u["id"]: u.get("status") for u in drawn["units"]}
    assert statuses["pact-infantry-1"] == "embarked"  # riding in its BMP: not drawn
    assert statuses["pact-t64b-4"] == "reserve"
