"""The web table's drawing of a Seven Days position (``BOARD``, a
:class:`~umpire.core.ruleset.BoardCapability`).

Units, markers, smoke and the turn status come from the viewer's observation only; terrain,
roads, objectives and unit profiles are public scenario data, drawn once per world. Shot odds
and line of sight are worked out only between units the viewer's observation shows.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping
from typing import Any

from umpire.core.actions import Action

SHOT_KINDS = ("fire", "atgm", "rockets", "react")


def _sidc(affiliation: str, function: str, hq: bool = False, dimension: str = "G") -> str:
    """A MIL-STD-2525C letter SIDC: scheme, affiliation, dimension, status, function id (6),
    symbol modifier (HQ) and padding to 15 characters."""
    code = f"S{affiliation}{dimension}P{function:-<6}{'A' if hq else '-'}"
    return f"{code:-<15}"


def _affiliation(side: str | None, viewer: str | None) -> str:
    return "F" if side == viewer else "H"


def _function(profile: Any) -> str:
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


def _stats(profile: Any) -> dict[str, Any]:
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


def _move_class(profile: Any) -> str:
    kind = str(profile.type.value)
    return "fast" if kind == "mbt" and "fast" in profile.traits else kind


# what never changes in a game's world (terrain, unit profiles), drawn once per world
_STATIC: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def _static(world: Any) -> dict[str, Any]:
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

    cache = _static(world)["profiles"]
    if key not in cache:
        cache[key] = {
            "function": _function(profile),
            "type": profile.name,
            "stats": _stats(profile),
            "vehicle": profile.is_vehicle,
            "radius": world.house.footprint["vehicle" if profile.is_vehicle else "foot"],
            "arc": fire_arc(profile),
            "move": {
                speed: world.house.movement[speed][_move_class(profile)]
                for speed in ("normal", "rapid", "road")
            },
        }
    return dict(cache[key])


def _shown_ids(observation: Mapping[str, Any]) -> set[str]:
    """The units the observation shows by id (a hidden marker shows none)."""
    return {str(u["uid"]) for u in observation.get("units", []) if "uid" in u}


class SevenDaysBoard:
    """Continuous table in inches, NATO symbols, shot odds and line of sight."""

    kind = "table"

    def board(
        self, game: Any, observation: Mapping[str, Any], viewer: str | None
    ) -> dict[str, Any]:
        obs = observation
        world = game.ruleset.world(game.state)
        table = world.table
        spec = world.scenario.spec
        flow = obs.get("flow", {})
        activation = flow.get("activation") or {}
        static = _static(world)
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
            else:  # something shown without saying what it is
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
            "terrain": static["terrain"],
            "roads": static["roads"],
            "objectives": static["objectives"],
            "objective_radius": world.house.objective_radius,
            "units": units,
            "sight": True,  # the page may ask action_details for a unit's line of sight
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

    def action_details(
        self, game: Any, observation: Mapping[str, Any], viewer: str, action: Action
    ) -> dict[str, Any] | None:
        """The odds of a shot (``fire``, ``atgm``, ``rockets``, ``react``), or for the page's
        ``sight`` question the line of sight from ``action.unit`` to each enemy it may see."""
        shown = _shown_ids(observation)
        if action.kind == "sight":
            if action.unit not in shown:
                return None
            return {"lines": _sight_lines(game, action.unit or "", shown)}
        if action.kind not in SHOT_KINDS:
            return None
        if action.unit not in shown or (action.target is not None and action.target not in shown):
            return None
        try:
            return _shot_odds(game, action)
        except (KeyError, AttributeError):
            return None


def _shot_odds(game: Any, action: Action) -> dict[str, Any] | None:
    from umpire.rulesets.sevendays.firing import SHOT_WEAPONS, ShotPlan, plan_shot
    from umpire.rulesets.sevendays.kinds import counts_moved
    from umpire.rulesets.sevendays.odds import shot_odds
    from umpire.rulesets.sevendays.reactions import reaction_options

    state = game.state
    world = game.ruleset.world(state)
    units = state.units
    act = state.flow.activation
    if action.kind == "react":
        activator = units[act.unit]
        for option in reaction_options(world, state, activator, state.flow.reacting_to_move):
            if option.unit == action.unit and option.plan is not None:
                odds = shot_odds(world, option.plan, units[option.unit], activator)
                return {**_plan_json(option.plan, odds), "reaction_need": option.need}
        return None
    firer, target = units[action.unit or ""], units[action.target or ""]
    planned = plan_shot(
        world,
        state,
        firer,
        target,
        SHOT_WEAPONS[action.kind],
        # as the menu plans it (sevendays.fire.modifier.moved: moved, or a move declared)
        moved=counts_moved(world, state, firer) or action.option == "then_move",
        actions_left=act.actions_left,
        known_only=True,
    )
    if not isinstance(planned, ShotPlan):
        return None
    return _plan_json(planned, shot_odds(world, planned, firer, target))


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


def _sight_lines(game: Any, unit_id: str, shown: set[str]) -> list[dict[str, Any]]:
    """Which enemies the viewer can see are in ``unit_id``'s line of sight; only units in
    ``shown`` are considered, so nothing hidden is revealed."""
    from umpire.rulesets.sevendays.los import sight

    state = game.state
    world = game.ruleset.world(state)
    unit = state.units.get(unit_id)
    if unit is None or not unit.alive:
        return []
    out = []
    for other in state.units.values():
        if other.side == unit.side or not other.alive or other.uid not in shown:
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


BOARD = SevenDaysBoard()
