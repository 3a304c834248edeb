"""What a player's page sees: hidden information filtered, state turned into drawable JSON.

Everything a seat is sent goes through here. The drawable board is built from
``ruleset.observation(state, viewer)`` (never from the raw state), so whatever a ruleset hides
from a player cannot reach that player's page; the static table (terrain, roads, objectives,
unit profiles) is public. Events are filtered by the convention that an event may carry
``"visible_to": [sides]`` (absent: everyone), after the ruleset's own ``visible_events`` hook
when it has one.

A small adapter per ruleset converts an observation into drawable JSON. Its ``layout`` says how
the client draws the table: ``"continuous"`` (positions in inches), ``"square"`` or ``"hex"``
(cells). A ruleset may supply its own adapter as a ``web_view(observation, player)`` method.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from umpire.core.actions import Action
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.core.ruleset import Ruleset

# -- hidden information -------------------------------------------------------------------------


def visible_events(ruleset: Ruleset, events: Iterable[Event], player: str) -> list[Event]:
    """The events ``player`` may read: the ruleset's own filter (if any), then ``visible_to``."""
    items = list(events)
    hook = getattr(ruleset, "visible_events", None)
    if callable(hook):
        items = list(hook(items, player))
    return [e for e in items if player in e.get("visible_to", (player,))]


def _ids(data: Any, out: set[str]) -> set[str]:
    """Every string under a ``uid``/``id``/``unit`` key anywhere in ``data``."""
    stack = [data]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict or (kind is not list and kind is not tuple and isinstance(item, Mapping)):
            for key, value in item.items():
                if type(value) is str:
                    if key in ID_KEYS:
                        out.add(value)
                elif type(value) in CONTAINERS or isinstance(value, Mapping):
                    stack.append(value)
        elif kind is list or kind is tuple:
            stack.extend(v for v in item if type(v) in CONTAINERS or isinstance(v, Mapping))
    return out


ID_KEYS = frozenset({"uid", "id", "unit"})
CONTAINERS = (dict, list, tuple)


def hidden_ids(full_state: Mapping[str, Any], observation: Mapping[str, Any]) -> set[str]:
    """Ids in the full state that the observation does not show (hidden units, cards...)."""
    return _ids(full_state, set()) - _ids(observation, set())


def visible_actions(actions: Sequence[Action], hidden: set[str]) -> list[Action]:
    """Legal actions that name nothing hidden from the player (belt and braces: a ruleset
    that hides a unit should not offer to shoot at it, but the page must never learn its id)."""
    if not hidden:
        return list(actions)
    return [a for a in actions if a.unit not in hidden and a.target not in hidden]


# -- boards -------------------------------------------------------------------------------------

BoardAdapter = Callable[[Game, Mapping[str, Any], str], dict[str, Any]]


def board(game: Game, observation: Mapping[str, Any], viewer: str) -> dict[str, Any]:
    """Drawable JSON for ``viewer``'s observation of ``game``."""
    hook = getattr(game.ruleset, "web_view", None)
    if callable(hook):
        return dict(hook(observation, viewer))
    adapter = ADAPTERS.get(game.record.ruleset, _generic_board)
    return adapter(game, observation, viewer)


def _generic_board(game: Game, observation: Mapping[str, Any], viewer: str) -> dict[str, Any]:
    return {"layout": "none", "width": 1, "height": 1, "units": [], "status": {}}


def _affiliation(side: str, viewer: str) -> str:
    return "F" if side == viewer else "H"


def _sidc(affiliation: str, function: str, hq: bool = False, dimension: str = "G") -> str:
    """A MIL-STD-2525C letter SIDC: scheme, affiliation, dimension, status, function id (6),
    symbol modifier (HQ) and padding to 15 characters."""
    code = f"S{affiliation}{dimension}P{function:-<6}{'A' if hq else '-'}"
    return f"{code:-<15}"


# Seven Days ------------------------------------------------------------------------------------


def _sevendays_function(profile: Any) -> str:
    traits = profile.traits
    kind = str(profile.type.value)
    if kind == "helicopter":
        return "MHA"
    if kind == "mbt":
        return "UCA"
    if kind == "infantry":
        return "UCI"
    if "mortar" in traits:
        return "UCFM"
    if "sam" in traits or "manpad" in traits and kind == "support":
        return "UCDM"
    if "aa" in traits:
        return "UCD"
    if kind == "support":
        return "UCAA" if profile.atgm is not None else "UCI"
    # light vehicles
    if profile.atgm is not None and profile.weapon is None:
        return "UCAAA"
    if "recce" in traits:
        return "UCRVA"
    if traits & {"apc", "apc_plus", "apc_minus"}:
        return "UCIZ"
    return "UCATL"


def _sevendays_stats(profile: Any) -> dict[str, Any]:
    armour = profile.armour
    stats: dict[str, Any] = {
        "type": str(profile.type.value),
        "armour": f"{armour.front}{'s' if armour.special else ''}/{armour.side}"
        if armour
        else None,
        "weapon": str(profile.weapon) if profile.weapon else None,
        "to_hit": f"{profile.to_hit}+" if profile.to_hit else None,
        "morale": profile.morale,
        "atgm": f"{profile.atgm.to_hit}+ {profile.atgm.weapon}" if profile.atgm else None,
        "traits": sorted(profile.traits),
        "points": profile.points,
        "bp": profile.bp,
    }
    return {k: v for k, v in stats.items() if v not in (None, [])}


# what never changes in a game's world (terrain, unit profiles), drawn once per world
_STATIC: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def _sevendays_static(world: Any) -> dict[str, Any]:
    found = _STATIC.get(world)
    if found is None:
        table, spec = world.table, world.scenario.spec
        found = _STATIC[world] = {
            "terrain": [
                {
                    "id": area.id,
                    "kind": area.kind.name,
                    "points": [[round(x, 2), round(y, 2)] for x, y in area.polygon.exterior.coords],
                    "blocks_los": area.kind.blocks_los,
                    "cover": area.kind.cover,
                }
                for area in table.areas
            ],
            "roads": [
                {"id": r.id, "points": [[x, y] for x, y in r.line.coords], "width": r.width}
                for r in table.roads
            ],
            "objectives": [{"id": o.id, "x": o.at[0], "y": o.at[1]} for o in spec.objectives],
            "profiles": {},
        }
    return found


def _profile_static(world: Any, key: str, profile: Any) -> dict[str, Any]:
    """A unit profile's fixed drawing data (copied: callers add to it)."""
    from umpire.rulesets.sevendays.firing import fire_arc

    cache = _sevendays_static(world)["profiles"]
    if key not in cache:
        cache[key] = {
            "function": _sevendays_function(profile),
            "type": profile.name,
            "stats": _sevendays_stats(profile),
            "vehicle": profile.is_vehicle,
            "radius": world.house.footprint["vehicle" if profile.is_vehicle else "foot"],
            "arc": fire_arc(profile),
            "move": {
                speed: world.house.movement[speed][_move_class(profile)]
                for speed in ("normal", "rapid", "road")
            },
        }
    return dict(cache[key])


def _sevendays_board(game: Game, obs: Mapping[str, Any], viewer: str) -> dict[str, Any]:

    ruleset: Any = game.ruleset
    world = ruleset.world(game.state)
    table = world.table
    spec = world.scenario.spec
    flow = obs.get("flow", {})
    activation = flow.get("activation") or {}
    static = _sevendays_static(world)
    terrain, roads, objectives = static["terrain"], static["roads"], static["objectives"]
    units = []
    markers = []
    for raw in obs.get("units", []):
        if "uid" not in raw:  # a hidden-deployment marker: where, whose, never what
            markers.append(
                {
                    "id": str(raw.get("marker", "")),
                    "side": raw.get("side"),
                    "x": raw.get("x"),
                    "y": raw.get("y"),
                    "own": raw.get("side") == viewer,
                }
            )
            continue
        profile = world.profiles.get(raw.get("profile", ""))
        entry: dict[str, Any] = {
            "id": raw["uid"],
            "name": raw.get("name", raw["uid"]),
            "side": raw.get("side"),
            "x": raw.get("x"),
            "y": raw.get("y"),
            "facing": raw.get("facing", 0.0),
            "markers": raw.get("markers", 0),
            "tokens": raw.get("tokens", 0),
            "status": raw.get("status", "active"),
            "wreck": raw.get("wreck", False),
            "commander": raw.get("commander", False),
            "active": raw["uid"] == activation.get("unit"),
        }
        if profile is not None:
            fixed = _profile_static(world, raw["profile"], profile)
            entry.update(fixed)
            entry["sidc"] = _sidc(
                _affiliation(entry["side"], viewer),
                fixed["function"],
                hq=entry["commander"],
                dimension="A" if fixed["function"] == "MHA" else "G",
            )
        else:  # something the ruleset shows without saying what it is (a hidden marker)
            entry.update(sidc=_sidc(_affiliation(entry["side"], viewer), ""), radius=1.0)
        units.append(entry)
    extras: dict[str, Any] = {"hidden_markers": markers + list(obs.get("hidden_markers", []))}
    for key in ("cards", "hand", "hands"):
        if key in obs:
            extras[key] = obs[key]
    extras["smoke"] = [  # smoke screens, drawn as grey circles at their radius
        {"x": c[0], "y": c[1], "r": c[2]} if isinstance(c, list | tuple) else c
        for c in obs.get("smoke", [])
    ]
    return {
        "layout": "continuous",
        "unit": "inch",
        "width": table.width,
        "height": table.height,
        "terrain": terrain,
        "roads": roads,
        "objectives": objectives,
        "objective_radius": world.house.objective_radius,
        "units": units,
        "status": {
            "turn": flow.get("turn"),
            "turns": spec.turns,
            "phase": flow.get("phase"),
            "initiative": flow.get("initiative"),
            "to_act": flow.get("to_act"),
            "pools": flow.get("pools", {}),
            "active_unit": activation.get("unit"),
            "actions_left": activation.get("actions_left"),
        },
        **extras,
    }


def _move_class(profile: Any) -> str:
    kind = str(profile.type.value)
    return "fast" if kind == "mbt" and "fast" in profile.traits else kind


# Portable Wargame ------------------------------------------------------------------------------

_PORTABLE_FUNCTIONS = {
    "infantry": "UCI",
    "infantry_at": "UCAA",
    "engineers": "UCE",
    "dismounted_cavalry": "UCRC",
    "mounted_cavalry": "UCRH",
    "cyclists": "UCI",
    "machine_guns": "UCI",
    "mortars": "UCFM",
    "artillery": "UCF",
    "armoured_cars": "UCRVA",
    "light_tanks": "UCATL",
    "tanks": "UCA",
    "assault_guns": "UCAAA",
    "sp_artillery": "UCFHE",
    "half_tracks": "UCIZ",
    "trucks": "UST",
    "horse_transport": "UST",
    "spotters": "UCFO",
    "commanders": "UH",
    "reconnaissance": "MFR",
    "fighter": "MFF",
    "two_seat_fighter": "MFF",
    "bomber": "MFB",
}
_FACING_DEGREES = {"E": 0.0, "N": 90.0, "W": 180.0, "S": 270.0}


def _portable_board(game: Game, obs: Mapping[str, Any], viewer: str) -> dict[str, Any]:
    from umpire.geometry.squaregrid import label

    ruleset: Any = game.ruleset
    world = ruleset.world(game.state)
    width, height = world.grid.width, world.grid.height
    mines = {tuple(m) for m in obs.get("minefields", [])}
    wire = {tuple(w) for w in obs.get("wire", [])}
    gas = {(c.get("x"), c.get("y")) for c in obs.get("clouds", [])}
    holders = obs.get("holders", {})
    objectives = set(world.objectives)
    cells = []
    for y in range(height):
        for x in range(width):
            sq = (x, y)
            cell: dict[str, Any] = {"x": x, "y": y, "label": label(sq), "terrain": world.kind(sq)}
            for flag, on in (
                ("road", sq in world.roads),
                ("ford", sq in world.fords),
                ("trench", sq in world.trenches),
                ("mines", sq in mines),
                ("wire", sq in wire),
                ("gas", sq in gas),
            ):
                if on:
                    cell[flag] = True
            if sq in objectives:
                cell["objective"] = True
                cell["holder"] = holders.get(label(sq))
            cells.append(cell)
    flow = obs.get("flow", {})
    activation = flow.get("activation") or {}
    raw_units = [u for u in obs.get("units", []) if u.get("status") in ("active", "destroyed")]
    carried: dict[str, list[str]] = {}
    for u in raw_units:
        if u.get("carried_by") and u.get("status") == "active":
            carried.setdefault(u["carried_by"], []).append(u["name"])
    units = []
    for u in raw_units:
        if u.get("carried_by") or u.get("status") != "active":
            continue
        kind = str(u.get("type", ""))
        air = bool(u.get("air"))
        units.append(
            {
                "id": u["uid"],
                "name": u.get("name", u["uid"]),
                "side": u.get("side"),
                "x": u.get("x"),
                "y": u.get("y"),
                "facing": _FACING_DEGREES.get(str(u.get("facing")), 90.0),
                "facing_edge": u.get("facing"),
                "sidc": _sidc(
                    _affiliation(str(u.get("side")), viewer),
                    _PORTABLE_FUNCTIONS.get(kind, "U"),
                    dimension="A" if air else "G",
                ),
                "type": kind.replace("_", " "),
                "sp": u.get("sp"),
                "max_sp": u.get("max_sp"),
                "air": air,
                "quality": u.get("quality"),
                "carrying": carried.get(u["uid"], []),
                "status": u.get("status"),
                "active": u["uid"] == activation.get("unit"),
                "done": bool(u.get("activated")),
                "stats": {
                    "type": kind.replace("_", " "),
                    "quality": u.get("quality"),
                    "SP": f"{u.get('sp')}/{u.get('max_sp')}",
                    "artillery": u.get("artillery"),
                },
            }
        )
    return {
        "layout": "square",
        "unit": "square",
        "width": width,
        "height": height,
        "cells": cells,
        "units": units,
        "status": {
            "turn": flow.get("turn"),
            "turns": world.spec.turns,
            "stage": flow.get("stage"),
            "phase": flow.get("phase"),
            "to_act": flow.get("to_act"),
            "activations_left": flow.get("activations_left"),
            "active_unit": activation.get("unit"),
            "objectives held": {
                s: sum(1 for h in holders.values() if h == s) for s in game.ruleset.meta.players
            },
        },
    }


ADAPTERS: dict[str, BoardAdapter] = {
    "sevendays": _sevendays_board,
    "portable": _portable_board,
}


# -- actions with their odds --------------------------------------------------------------------


def action_entry(game: Game, action: Action) -> dict[str, Any]:
    """A legal action for the page: its JSON, a line describing it and, for a shot, the odds."""
    entry: dict[str, Any] = {"action": action.to_dict()}
    try:
        entry["text"] = game.describe(action)
    except Exception:  # a description must never cost the player the action
        entry["text"] = action.kind
    odds = _odds(game, action)
    if odds:
        entry["odds"] = odds
    return entry


def _odds(game: Game, action: Action) -> dict[str, Any] | None:
    shots = ("fire", "atgm", "rockets", "react")
    if game.record.ruleset != "sevendays" or action.kind not in shots:
        return None
    from umpire.rulesets.sevendays.firing import SHOT_WEAPONS, ShotPlan, plan_shot
    from umpire.rulesets.sevendays.odds import shot_odds
    from umpire.rulesets.sevendays.reactions import reaction_options

    ruleset: Any = game.ruleset
    state: Any = game.state
    world = ruleset.world(state)
    units = state.units
    try:
        if action.kind == "react":
            act = state.flow.activation
            activator = units[act.unit]
            for option in reaction_options(world, state, activator, state.flow.reacting_to_move):
                if option.unit == action.unit and option.plan is not None:
                    odds = shot_odds(world, option.plan, units[option.unit], activator)
                    return {**_plan_json(option.plan, odds), "reaction_need": option.need}
            return None
        act = state.flow.activation
        firer, target = units[action.unit or ""], units[action.target or ""]
        weapon = SHOT_WEAPONS[action.kind]
        planned = plan_shot(
            world, state, firer, target, weapon, moved=act.moved, actions_left=act.actions_left
        )
        if not isinstance(planned, ShotPlan):
            return None
        return _plan_json(planned, shot_odds(world, planned, firer, target))
    except (KeyError, AttributeError):
        return None


def _plan_json(plan: Any, odds: Any) -> dict[str, Any]:
    return {
        "target": plan.target,
        "weapon": plan.weapon_kind,
        "range": round(float(plan.range), 1),
        "dice": plan.dice,
        "need": plan.need,
        "modifiers": [{"rule": m.rule, "delta": m.delta, "why": m.why} for m in plan.modifiers],
        "p_hit": round(float(odds.hit), 4),
        "p_kill": round(float(odds.out), 4),
        "markers": round(float(odds.markers), 3),
    }


# -- line of sight ------------------------------------------------------------------------------


def sight_lines(game: Game, unit_id: str, visible: set[str]) -> list[dict[str, Any]]:
    """Which of the enemies the player can see are in ``unit_id``'s line of sight (sevendays);
    only units in ``visible`` are considered, so nothing hidden is revealed."""
    if game.record.ruleset != "sevendays":
        return []
    from umpire.rulesets.sevendays.los import sight

    ruleset: Any = game.ruleset
    state: Any = game.state
    world = ruleset.world(state)
    unit = state.units.get(unit_id)
    if unit is None or not unit.alive:
        return []
    out = []
    for other in state.units.values():
        if other.side == unit.side or not other.alive or other.uid not in visible:
            continue
        seen = sight(world, state, unit, other)
        out.append(
            {
                "target": other.uid,
                "visible": seen.visible,
                "obscured": seen.obscured,
                "range": round(math.dist(unit.pos, other.pos), 1),
            }
        )
    return out
