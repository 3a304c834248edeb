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
            "sight": True,  # the page asks action_details("sight") for a unit's reach
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
        """For the page, from ``viewer``'s observation only:

        - ``attack``: the exact CRT distribution of the proposed attack with every DRM known
          before support (air, armour, EW, terrain), and how each number of the attacker's own
          support markers would shift it; the defender's support is unknown until the reveal
          (rhine.cs.secret), so it is never assumed, only bounded by what it could be;
        - ``cs`` (choosing one's own secret support): the distribution with that commitment
          and no enemy support, and with the most the enemy could commit;
        - ``sight`` (the page asks when a unit is clicked): the unit's reach this movement
          phase as ``lines`` of hexes (``{"reach": hex, "mode", "cost"}``).
        """
        try:
            if action.kind == "attack":
                return _attack_odds(observation, viewer, action)
            if action.kind == "cs":
                return _cs_odds(observation, viewer, action)
            if action.kind == "sight":
                return {"lines": _reach(observation, action.unit or "")}
        except (KeyError, ValueError, IndexError, AssertionError):
            return None
        return None


# -- odds and reach from an observation ---------------------------------------------------------
RESULT_ORDER = ("AE", "AR", "NE", "EX", "DR1", "DR2", "DE")


class _Seen:
    """The :class:`~umpire.rulesets.rhine.rules.Board` the rules read, made of an observation."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.pos: dict[str, str | None] = dict(obs.get("pos", {}))
        self.ew: dict[str, int] = {k: int(v) for k, v in obs.get("ew", {}).items()}
        self.control: dict[str, str] = dict(obs.get("control", {}))
        self.air_holder: str | None = obs.get("air_holder")
        self.air_markers: list[str] = list(obs.get("air_markers", []))
        self.refugees: list[str] = list(obs.get("refugees", []))
        self.heli_ma: dict[str, int] = {k: int(v) for k, v in obs.get("heli_ma", {}).items()}


def _world(obs: Mapping[str, Any]) -> World:
    return world_for(str(obs["scenario"]), (obs.get("options") or {}).get("house_rules"))


def _distribution(world: World, column: int, drm: int) -> dict[str, Any]:
    from umpire.rulesets.rhine import rules as R

    dist = R.crt_distribution(world, column, drm)
    results = {r: float(dist[r]) for r in RESULT_ORDER if r in dist}
    return {
        "drm": drm,
        "results": results,
        "exact": {r: str(dist[r]) for r in RESULT_ORDER if r in dist},
        "vacated": sum(results.get(r, 0.0) for r in ("EX", "DR1", "DR2", "DE")),
    }


def _max_support(
    world: World,
    board: _Seen,
    obs: Mapping[str, Any],
    side: str,
    attacker: str,
    target: str,
    own: list[str],
) -> int:
    """The most support markers ``side`` could commit to this combat (its ready markers within
    rhine.cs.limit.*): public, since every marker on the track is open."""
    from umpire.rulesets.rhine import rules as R

    ready: dict[tuple[str, str], int] = {}
    for m in obs.get("cs", []):
        if m.get("side") == side and m.get("status") == "ready":
            key = (str(m["type"]), str(m["nation"]))
            ready[key] = ready.get(key, 0) + 1
    art, heli, nations = R.cs_limits(
        world, board, side, attacker, target, own, obs.get("order", {})
    )
    choices = R.cs_choices(ready, art, heli, nations)
    return max((sum(c.values()) for c in choices), default=0)


def _figures_json(world: World, fig: Any) -> dict[str, Any]:
    return {
        "kind": "crt",
        "odds": f"{fig.attack}:{fig.defence}",
        "column": world.tables.crt.columns[fig.column],
        "modifiers": [{"rule": m.rule, "delta": m.value, "why": m.why} for m in fig.drms],
        "order": list(RESULT_ORDER),
    }


def _attack_odds(obs: Mapping[str, Any], side: str, action: Action) -> dict[str, Any] | None:
    from umpire.rulesets.rhine import rules as R

    world = _world(obs)
    board = _Seen(obs)
    target = action.cell or ""
    units = list(action.units)
    defenders = [u for u, h in board.pos.items() if h == target]
    if not units or not defenders:
        return None
    fig = R.combat_figures(world, board, side, target, units, defenders)
    if fig.column is None:
        return None
    out = _figures_json(world, fig)
    out.update(_distribution(world, fig.column, fig.drm))
    out["before_support"] = True
    own_max = _max_support(world, board, obs, side, side, target, units)
    enemy_max = _max_support(world, board, obs, R.other(side), side, target, defenders)
    out["support"] = [
        {"own": k, **_distribution(world, fig.column, fig.drm + k)} for k in range(1, own_max + 1)
    ]
    out["enemy_support_max"] = enemy_max
    return out


def _cs_odds(obs: Mapping[str, Any], side: str, action: Action) -> dict[str, Any] | None:
    from umpire.rulesets.rhine import rules as R

    combat = obs.get("combat")
    if not isinstance(combat, Mapping):
        return None
    world = _world(obs)
    board = _Seen(obs)
    attacker = str(combat["attacker"])
    target = str(combat["target"])
    units = list(combat["units"])
    defenders = list(combat["defenders"])
    own = sum(R.parse_cs(str(action.option or "none")).values())
    fig = R.combat_figures(world, board, attacker, target, units, defenders)
    if fig.column is None:
        return None
    sign = 1 if side == attacker else -1
    enemy = R.other(side)
    enemy_units = defenders if side == attacker else units
    enemy_max = _max_support(world, board, obs, enemy, attacker, target, enemy_units)
    out = _figures_json(world, fig)
    out.update(_distribution(world, fig.column, fig.drm + sign * own))
    out["own_support"] = own
    out["enemy_support_assumed"] = 0
    out["enemy_support_max"] = enemy_max
    if enemy_max:
        worst = _distribution(world, fig.column, fig.drm + sign * own - sign * enemy_max)
        out["worst"] = {"enemy": enemy_max, **worst}
    return out


def _reach(obs: Mapping[str, Any], unit: str) -> list[dict[str, Any]]:
    """Where ``unit`` (on the map) could move this turn (rhine.move.*), by mode."""
    from umpire.rulesets.rhine import rules as R

    world = _world(obs)
    board = _Seen(obs)
    if unit not in world.units or board.pos.get(unit) is None:
        return []
    turn = int((obs.get("flow") or {}).get("turn") or 1)
    options = R.move_options(world, board, unit, turn, None, False, {})
    best: dict[str, Any] = {}
    for o in options:
        if o.dest == "exit":
            continue
        prev = best.get(o.dest)
        if prev is None or (o.mode == "normal" and prev.mode != "normal"):
            best[o.dest] = o
    out = []
    for h, o in sorted(best.items()):
        x, y = xy(world, h)
        out.append({"reach": h, "x": x, "y": y, "mode": o.mode, "cost": round(float(o.cost), 2)})
    return out


BOARD = RhineBoard()
