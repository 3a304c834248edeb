"""The web table's drawing of a 7 Days to the Rhine position (``BOARD``, a
:class:`~umpire.core.ruleset.BoardCapability`).

Built from the viewer's observation only, plus the scenario's public map: hexes with terrain,
cities and control; river hexsides (with the bridges a road or autobahn makes) and road
hexsides; counters with their NATO symbol, strength and movement allowance; stacks; the zones
of control each side exerts; air superiority and its markers; EW markers; refugees; combat
support. A combat-support commitment is shown to the side that made it only: the other side
learns *that* it was made (the observation says "hidden"), never what, until the reveal.

Coordinates: the page draws flat-topped hexes in offset columns with ``x`` from the west edge
(0-based) and ``y`` from the south edge; column ``x`` odd is half a hex lower. The map's hex ids
are ``CCRR`` (1-based, row 01 at the north edge, even columns lower), so ``x = CC - 1`` and
``y = height - RR``.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

from umpire.core.actions import Action
from umpire.rulesets.rhine.model import SIDES, World, world_for

# unit type -> MIL-STD-2525C function id
_FUNCTIONS = {
    "tank": "UCA",
    "mech": "UCIZ",
    "recon": "UCR",
    "heliborne": "UCIA",  # air assault infantry
    "static_garrison": "UCI",
    "infantry": "UCI",
}
# rhine terrain -> the page's cell fill
_PAGE_TERRAIN = {
    "clear": "open",
    "forest": "woods",
    "rough": "hill",
    "mountain": "hill",
    "city": "town",
}


def _sidc(affiliation: str, function: str) -> str:
    """A MIL-STD-2525C letter SIDC padded to 15 characters (ground unit, present)."""
    return f"{f'S{affiliation}GP{function:-<6}-':-<15}"


def xy(world: World, h: str) -> tuple[int, int]:
    """The page's coordinates of hex id ``h``."""
    return int(h[:2]) - 1, world.spec.map.height - int(h[2:])


# what never changes in a world (terrain, hexsides, roads, cities), drawn once per world
_STATIC: weakref.WeakKeyDictionary[World, dict[str, Any]] = weakref.WeakKeyDictionary()


def _static(world: World) -> dict[str, Any]:
    found = _STATIC.get(world)
    if found is not None:
        return found
    roads = world.road_edges | world.autobahn_edges
    road_hexes = {h for e in roads for h in e}
    vp = world.spec.victory.city_vp
    cells = []
    for h in world.ids:
        x, y = xy(world, h)
        kind = world.terrain[h]
        cell: dict[str, Any] = {
            "id": h,
            "x": x,
            "y": y,
            "label": h,
            "terrain": _PAGE_TERRAIN.get(kind, "open"),
            "kind": kind,
        }
        if h in road_hexes:
            cell["road"] = True
        city = world.city_of.get(h)
        if city is not None:
            cell["city"] = city
            if city in vp:
                cell["objective"] = True
                cell["vp"] = vp[city]
        cells.append(cell)
    hexsides = []
    for edge, river in sorted(world.rivers.items(), key=lambda kv: sorted(kv[0])):
        a, b = sorted(edge)
        hexsides.append(
            {
                "a": a,
                "b": b,
                "kind": river,
                "bridge": edge in roads,
                "ends_move": bool(world.tables.tec.hexsides[river].ends_move) and edge not in roads,
            }
        )
    road_list = [
        {"a": a, "b": b, "kind": kind}
        for kind, edges in (("road", world.road_edges), ("autobahn", world.autobahn_edges))
        for a, b in sorted(tuple(sorted(e)) for e in edges)
    ]
    found = _STATIC[world] = {"cells": cells, "hexsides": hexsides, "roads": road_list}
    return found


class RhineBoard:
    """Hexes, hexsides, counters and markers of one side's view."""

    kind = "hexes"

    def board(
        self, game: Any, observation: Mapping[str, Any], viewer: str | None
    ) -> dict[str, Any]:
        obs = observation
        world = world_for(str(obs["scenario"]), (obs.get("options") or {}).get("house_rules"))
        static = _static(world)
        control: Mapping[str, str] = obs.get("control", {})
        pos: Mapping[str, str | None] = obs.get("pos", {})
        status: Mapping[str, str] = obs.get("status", {})
        ew: Mapping[str, int] = obs.get("ew", {})
        refugees = set(obs.get("refugees", []))
        air_markers = list(obs.get("air_markers", []))
        cells = []
        for c in static["cells"]:
            cell = dict(c)
            holder = control.get(c["id"])
            if holder is not None:
                cell["control"] = holder
                if "objective" in cell:
                    cell["holder"] = holder
            if c["id"] in refugees:
                cell["refugees"] = True
            if c["id"] in air_markers:
                cell["air_marker"] = True
            cells.append(cell)

        stacks: dict[str, list[str]] = {}
        for u, h in pos.items():
            if h is not None:
                stacks.setdefault(h, []).append(u)
        units = []
        for u, info in world.units.items():
            h = pos.get(u)
            st = status.get(u, "gone")
            entry: dict[str, Any] = {
                "id": u,
                "name": u,
                "side": info.side,
                "nation": info.nation,
                "division": info.division,
                "type": info.type,
                "strength": info.strength,
                "ma": info.ma,
                "recon": info.recon,
                "defence_only": info.static,
                "ew": int(ew.get(u, 0)),
                "status": "active" if h is not None else st,
                "map_status": st,
                "sidc": _sidc("F" if info.side == viewer else "H", _FUNCTIONS.get(info.type, "U")),
                "stats": {
                    "type": info.type.replace("_", " "),
                    "strength": info.strength,
                    "MA": info.ma,
                    "nation": info.nation,
                    "division": info.division,
                },
            }
            if h is not None:
                x, y = xy(world, h)
                entry.update(
                    hex=h, x=x, y=y, stack_index=stacks[h].index(u), stack_size=len(stacks[h])
                )
            units.append(entry)

        # zones of control: the hexes adjacent to each side's units (rhine.zoc.exert)
        zoc: dict[str, list[str]] = {}
        for side in SIDES:
            hexes: set[str] = set()
            for h, here in stacks.items():
                if world.units[here[0]].side == side:
                    hexes.update(world.neighbours[h])
            zoc[side] = sorted(hexes)
        holder = obs.get("air_holder")
        in_range: set[str] = set()
        for m in air_markers:
            in_range |= world.in_range[m]

        flow = obs.get("flow", {})
        commitments = []
        for d in flow.get("stack", []):
            if isinstance(d, Mapping) and d.get("type") == "secret":
                for side in d.get("sides", []):
                    made = d.get("committed", {}).get(side)
                    shown: dict[str, Any] = {"side": side, "committed": made is not None}
                    if side == viewer and isinstance(made, Mapping):
                        shown["option"] = made.get("option")
                    commitments.append(shown)
        combat = obs.get("combat")
        combat_shown = None
        if isinstance(combat, Mapping):
            combat_shown = {
                k: combat[k] for k in ("attacker", "target", "units", "defenders") if k in combat
            }
        return {
            "layout": "hex",
            "unit": "hex",
            "offset": "odd columns lower (page x = column - 1, y from the south edge)",
            "width": world.spec.map.width,
            "height": world.spec.map.height,
            "cells": cells,
            "hexsides": static["hexsides"],
            "roads": static["roads"],
            "units": units,
            "stacks": {h: us for h, us in sorted(stacks.items())},
            "zoc": zoc,
            "air": {
                "holder": holder,
                "markers": air_markers,
                "in_range": sorted(in_range) if holder is not None else [],
                "to_place": obs.get("air_to_place", 0),
            },
            "ew": {
                "holder": obs.get("ew_holder"),
                "marked": {u: n for u, n in ew.items() if n},
                "to_place": obs.get("ew_to_place", 0),
            },
            "refugees": sorted(refugees),
            "cs": list(obs.get("cs", [])),
            "commitments": commitments,
            "combat": combat_shown,
            "status": {
                "turn": flow.get("turn"),
                "turns": len(world.turns),
                "phase": flow.get("phase"),
                "segment": obs.get("segment"),
                "to_act": obs.get("to_act"),
                "order": obs.get("order", {}),
                "vp": obs.get("vp", {}),
                "losses": obs.get("losses", {}),
            },
        }

    def action_details(
        self, game: Any, observation: Mapping[str, Any], viewer: str, action: Action
    ) -> dict[str, Any] | None:
        """Nothing beyond the action's description yet (attack odds are in ``umpire odds``)."""
        return None


BOARD = RhineBoard()
