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
from umpire.rulesets.sevendays.state import Status
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


def test_bodies_listed_per_arrangement_are_the_scan() -> None:
    """Rule sevendays.los.blockers (enemy vehicles and wrecks block, friendly vehicles only
    obscure; hidden markers do neither): the bodies listed once per arrangement of units
    answer as the scan of every unit, on a table below the unit index's size, also after a
    unit moves and one is wrecked (the list follows the arrangement)."""
    game = umpire.new_game("sevendays/meeting-engagement", seed=4)
    players = {s: make_agent("scripted", "sevendays", s, 4) for s in ("nato", "pact")}
    play_out(game, players, max_actions=60)
    state = game.state
    world = cast(SevenDays, game.ruleset).world(state)
    assert not world.holds(state, next(iter(state.units.values())))  # the list, not the index

    def compare() -> int:
        units = [u for u in state.units.values() if u.alive]
        found = 0
        for firer in units:
            for target in units:
                if firer is target:
                    continue
                for reach in (0.5, 3.0, 8.0):
                    a, b = firer.pos, target.pos
                    box = (
                        min(a[0], b[0]) - reach,
                        min(a[1], b[1]) - reach,
                        max(a[0], b[0]) + reach,
                        max(a[1], b[1]) + reach,
                    )
                    got = los._bodies(world, state, firer, target, a, b, reach)
                    assert got == los._bodies_scan(world, state, firer, target, box)
                    found += len(got[0]) + len(got[1])
        return found

    assert compare() > 0
    vehicles = [u for u in state.units.values() if u.alive and world.is_ground_vehicle(u)]
    vehicles[0].x, vehicles[0].y = vehicles[1].x + 1.5, vehicles[1].y
    state.touch()
    assert compare() > 0
    vehicles[2].status = Status.DESTROYED
    vehicles[2].wreck = True
    state.touch()
    assert compare() > 0
