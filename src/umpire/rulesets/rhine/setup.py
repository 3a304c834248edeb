"""A scenario's opening position: the units fixed on their hexes, waiting to be set up in the
set-up phase (rhine.setup.order) or waiting to enter (rhine.reinf.entry),
control of the hexes (rhine.control.initial), the combat-support pools (rhine.cs.pool) and
the optional rules switched on for the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.core.events import note
from umpire.core.flow import FlowState
from umpire.core.rng import RandomStream
from umpire.rulesets.rhine.model import World, world_for
from umpire.rulesets.rhine.state import CSMarker, RhineState


def initial_control(w: World, h: str) -> str | None:
    """rhine.control.initial: the side that controls hex ``h`` at the start, by the
    scenario's columns (None: neither)."""
    c = w.spec.control
    col = w.column(h)
    if c.nato_columns[0] <= col <= c.nato_columns[1]:
        return "nato"
    if c.pact_columns[0] <= col <= c.pact_columns[1]:
        return "pact"
    return None


def opening_state(scenario: str, seed: int, options: Mapping[str, Any]) -> RhineState:
    """The scenario's opening position before the flow starts: units where the scenario
    sets them up or waiting to enter, each hex's control by the scenario's columns, the
    combat-support markers, the optional rules folded into the house rules, and the
    setup note (never the seed: it would foretell the dice)."""
    w = world_for(scenario, options.get("house_rules"))
    pos: dict[str, str | None] = {}
    status: dict[str, str] = {}
    steps = w.setup_steps
    for u in w.spec.units:
        pos[u.id] = u.at
        status[u.id] = "on" if u.at is not None else "waiting"
        j = w.setup_step_of.get(u.id)
        if j is not None and not steps[j][1]:
            # set up in the set-up phase (rhine.setup.*): on no hex until then
            pos[u.id] = None
            status[u.id] = "setup"
    control: dict[str, str] = {}
    for h in w.ids:
        side = initial_control(w, h)
        if side is not None:
            control[h] = side
    cs: list[CSMarker] = []
    for spec in w.spec.cs:
        for _k in range(spec.count):
            cs.append(
                CSMarker(
                    id=f"{spec.side}-{spec.nation}-{spec.type[:3]}-{len(cs) + 1}",
                    side=spec.side,
                    nation=spec.nation,
                    type=spec.type,
                    status="ready" if spec.from_turn <= 1 else "later",
                    back=spec.from_turn,
                )
            )
    opts = dict(options)
    for key in ("heli_attrition", "ammunition"):
        if opts.get(key) is not None:
            hr = dict(opts.get("house_rules") or {})
            hr["switches"] = {**(hr.get("switches") or {}), key: bool(opts[key])}
            opts["house_rules"] = hr
    w = world_for(scenario, opts.get("house_rules"))
    state = RhineState(
        scenario=scenario,
        seed=int(seed),
        rng=RandomStream(seed),
        flow=FlowState(),
        options=opts,
        pos=pos,
        status=status,
        control=control,
        cs=cs,
    )
    on = [k for k, v in sorted(w.switches.items()) if v]
    state.setup_events = [  # never the seed: it would foretell the dice
        note(
            "setup",
            f"{w.spec.title}: {w.spec.map.width}x{w.spec.map.height} hexes, "
            f"{len(w.turns)} turns; optional rules on: {', '.join(on) or 'none'}; "
            f"air DRM cap {w.air_cap}",
            "rhine.victory.scenario",
        )
    ]
    return state
