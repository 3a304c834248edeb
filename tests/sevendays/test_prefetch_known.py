"""``los.prefetch_between`` lists only the sight lines not yet known (issue 19).

Terrain is static (rule sevendays.los.blockers: terrain cuts the centre line;
sevendays.los.obscured: the rays across the target's width), so a line fetched once needs no
second fetch: a sweep over lines already in the cache fetches nothing, a sweep that now wants
the rays of lines fetched without them fetches just those, and every answer equals the line
traced on its own by a fresh table.
"""

from __future__ import annotations

from typing import cast

import umpire
from umpire.agents import make_agent
from umpire.play import play_out
from umpire.rulesets.sevendays import los
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.state import Unit
from umpire.rulesets.sevendays.world import World


def _fresh(base: World) -> World:
    world = World(base.scenario, base.house)
    world.table = type(base.table)(base.table.width, base.table.height, base.table.areas)
    return world


def test_known_lines_are_not_fetched_again() -> None:
    game = umpire.new_game("sevendays/meeting-engagement", seed=5)
    players = {s: make_agent("scripted", "sevendays", s, 5) for s in ("nato", "pact")}
    play_out(game, players, max_actions=60)
    base = cast(SevenDays, game.ruleset).world(game.state)
    units = [u for u in game.state.units.values() if u.alive]
    nato = [u for u in units if u.side == "nato"]
    pact = [u for u in units if u.side == "pact"]

    world = _fresh(base)
    fetched: list[int] = []
    real = los.prefetch

    def counting(w: World, pairs: list[tuple[los.Vec, Unit, bool]]) -> None:
        fetched.append(len(pairs))
        real(w, pairs)

    los.prefetch = counting  # type: ignore[assignment]
    try:
        los.prefetch_between(world, nato, pact, lazy=False, rays=False)
        first = sum(fetched)
        assert first == len(nato) * len(pact)  # every centre line, once
        keys = dict(world.sight_cache)
        assert all(v[1] in ((), None) for v in keys.values())  # no rays traced yet
        fetched.clear()
        los.prefetch_between(world, nato, pact, lazy=False, rays=False)
        assert sum(fetched) == 0  # all known: nothing listed
        assert world.sight_cache == keys
        fetched.clear()
        los.prefetch_between(world, nato, pact, lazy=False, rays=True)
        # now only the clear lines to targets in the open, seen through plain sights, want
        # their rays; a blocked line never does
        open_clear = [
            (f, t)
            for f in nato
            for t in pact
            if not keys[(f.x, f.y, t.x, t.y, world.radius(t))][0]
            and not world.in_cover(t)
            and "thermal" not in world.profile(f).traits
        ]
        assert sum(fetched) == len(open_clear)
    finally:
        los.prefetch = real
    single = _fresh(base)
    for f in nato:
        for t in pact:
            assert los._terrain(world, (f.x, f.y), t, True) == los._terrain(
                single, (f.x, f.y), t, True
            )
