"""The Meeting Engagement scenario: table, terrain mix and forces of about 500 points."""

from __future__ import annotations

import umpire
from umpire.rulesets.sevendays.turns import pool_size


def test_meeting_engagement_table_terrain_and_forces() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=1)
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    assert (world.table.width, world.table.height) == (72, 48)
    kinds = {a.kind.name for a in world.table.areas}
    assert {"woods", "buildings", "hill", "rough", "very_rough"} <= kinds
    assert world.table.roads
    for side in ("nato", "pact"):
        points = sum(world.profile(u).points for u in game.state.units.values() if u.side == side)
        assert 450 <= points <= 550, f"{side} has {points} points"
        commanders = [u for u in game.state.units.values() if u.side == side and u.commander]
        assert len(commanders) == 1
        assert game.state.flow.pools[side] == pool_size(world, game.state, side)
    assert world.scenario.spec.objectives
