"""Terrain sight lines fetched lazily in batches (issue 19) answer as lines traced one by one.

``los.prefetch_between`` fetches the first lines at once and queues the others, which are
fetched in batches as :func:`~umpire.rulesets.sevendays.los.sight` asks for them. Terrain is
static (rule sevendays.los.blockers: blocking terrain cuts the line; sevendays.los.obscured:
the rays across the target's width), so whatever the order and the batches, every answer must
equal the line traced on its own by the table.
"""

from __future__ import annotations

from typing import cast

import umpire
from umpire.agents import make_agent
from umpire.play import play_out
from umpire.rulesets.sevendays import los
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.world import World


def test_lazy_batches_answer_as_single_lines() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=3)
    players = {s: make_agent("scripted", "sevendays", s, 3) for s in ("nato", "pact")}
    play_out(game, players, max_actions=80)  # into the battle: units off their start spots
    base = cast(SevenDays, game.ruleset).world(game.state)
    units = [u for u in game.state.units.values() if u.alive]
    nato = [u for u in units if u.side == "nato"]
    pact = [u for u in units if u.side == "pact"]
    assert len(nato) * len(pact) > 2 * los.SIGHT_BATCH  # several batches

    lazy = World(base.scenario, base.house)
    lazy.table = type(base.table)(base.table.width, base.table.height, base.table.areas)
    los.prefetch_between(lazy, nato, pact, reaction=True)
    assert lazy.sight_queue  # some lines were left for later
    single = World(base.scenario, base.house)
    single.table = type(base.table)(base.table.width, base.table.height, base.table.areas)
    blocked = 0
    for f in reversed(nato):  # out of the order listed, too
        for t in pact:
            got = los._terrain(lazy, (f.x, f.y), t, True)
            want = los._terrain(single, (f.x, f.y), t, True)
            assert got == want
            blocked += got[0]
    assert 0 < blocked < len(nato) * len(pact)  # some lines blocked, some clear
