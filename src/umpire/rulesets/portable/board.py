"""The web table's drawing of a Portable Wargame position (``BOARD``, a
:class:`~umpire.core.ruleset.BoardCapability`): squares with their terrain and works, units
with NATO symbols, all taken from the viewer's observation plus the public map."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.core.actions import Action

_FUNCTIONS = {
    "infantry": "UCI",
    "infantry_at": "UCAA",
    "engineers": "UCE",
    "dismounted_cavalry": "UCRC",
    "mounted_cavalry": "UCRH",
    "cyclists": "UCI",
    "machine_guns": "EWRH",  # MIL-STD-2525C: weapon, machine gun (heavy)
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
    "spotters": "UCFTF",  # field artillery target acquisition, optical (observers); UCFO is weather
    "commanders": "UH",
    "reconnaissance": "MFR",
    "fighter": "MFF",
    "two_seat_fighter": "MFF",
    "bomber": "MFB",
}
_FACING_DEGREES = {"E": 0.0, "N": 90.0, "W": 180.0, "S": 270.0}


def _sidc(affiliation: str, function: str, dimension: str = "G", hq: bool = False) -> str:
    """A MIL-STD-2525C letter SIDC padded to 15 characters (``hq``: the headquarters staff,
    symbol modifier A, for a commander)."""
    modifier = "A" if hq else "-"
    return f"{f'S{affiliation}{dimension}P{function:-<6}{modifier}':-<15}"


class PortableBoard:
    """A square grid: cells with terrain, roads, works and objectives; units on them."""

    kind = "squares"

    def board(
        self, game: Any, observation: Mapping[str, Any], viewer: str | None
    ) -> dict[str, Any]:
        from umpire.geometry.squaregrid import label

        obs = observation
        world = game.ruleset.world(game.state)
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
                cell: dict[str, Any] = {
                    "x": x,
                    "y": y,
                    "label": label(sq),
                    "terrain": world.kind(sq),
                }
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
        shown = [u for u in obs.get("units", []) if u.get("status") in ("active", "destroyed")]
        carried: dict[str, list[str]] = {}
        for u in shown:
            if u.get("carried_by") and u.get("status") == "active":
                carried.setdefault(u["carried_by"], []).append(u["name"])
        units = []
        for u in shown:
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
                        "F" if u.get("side") == viewer else "H",
                        _FUNCTIONS.get(kind, "U"),
                        dimension="A" if air else "G",
                        hq=kind == "commanders",
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

    def action_details(
        self, game: Any, observation: Mapping[str, Any], viewer: str, action: Action
    ) -> dict[str, Any] | None:
        """Nothing beyond the action's description yet."""
        return None


BOARD = PortableBoard()
