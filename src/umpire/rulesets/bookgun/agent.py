"""Scripted Book and The Gun players; they decide from their own observation only.

Insurgents hide under their markers and hold fire until the army is close (ambush), shoot
when they have a target, and pull back once a cell has lost half its men (withdrawal). The army
moves by bounds (one team covers while another moves), heads for the rooms it has not
searched, searches, and fires only where its rules of engagement allow (the engine offers
nothing else) and never at civilians even where it could.

Vehicles and guns: foot units far from their objective and out of the fight get into a friendly
vehicle that can take them (it then drives them up); a vehicle with an enemy close by (or an
RPG gunner in range) backs away from it; a gun with nothing to shoot at from where it stands is
manhandled (or unlimbered) into a place it can fire from - judged from the side's own
observation and the scenario's public map (line of sight, the gun's range and 180-degree view)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from umpire.agents.base import View
from umpire.core.actions import Action

Vec = tuple[float, float]
AMBUSH_RANGE = 12.0
DISMOUNT_RANGE = 12.0  # passengers dismount when the enemy is this near their vehicle
STOP_RANGE = 8.0  # a vehicle carrying troops stops this near the enemy
DOOR = "door:"  # a fire target naming a locked door (bookgun.building.door_fire)
MOUNT_FAR = 18.0  # foot units this far from their objective ride if they can
DANGER_RANGE = 6.0  # a vehicle backs away from a seen enemy this near...
RPG_RANGE = 12.0  # ... or from a seen RPG gunner with a round left this near
GUN_RANGE_BAND = 1  # a gun looks for targets within its medium range band
CINC_RANGE = 6.0  # the Commander-in-Chief steadies morale tests this near (bookgun.morale.table)


def _dist(a: Vec, b: Vec) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _centre(obs: Mapping[str, Any], unit: str) -> Vec | None:
    figs = [
        f
        for f in obs["figures"].values()
        if f["unit"] == unit and f["status"] in ("fit", "wounded")
    ]
    if not figs:
        return None
    return (sum(f["x"] for f in figs) / len(figs), sum(f["y"] for f in figs) / len(figs))


def _enemy_points(obs: Mapping[str, Any], side: str) -> list[Vec]:
    pts = [
        (f["x"], f["y"])
        for f in obs["figures"].values()
        if f["side"] not in (side, "civilians") and f["status"] in ("fit", "wounded")
    ]
    if side == "army":
        pts += [(m["x"], m["y"]) for m in obs["markers"].values()]
    return pts


def _enemy_figs(obs: Mapping[str, Any], side: str) -> list[Mapping[str, Any]]:
    return [
        f
        for f in obs["figures"].values()
        if f["side"] not in (side, "civilians") and f["status"] in ("fit", "wounded")
    ]


def _angle(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _bearing(a: Vec, b: Vec) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0


def _map(obs: Mapping[str, Any]) -> Any:
    """The scenario's table (public: every player has the map) for line of sight."""
    from umpire.rulesets.bookgun.world import world_for

    return world_for(str(obs["scenario"]), None)


def gun_shot(obs: Mapping[str, Any], side: str, at: Vec, facing: float, weapon: str) -> bool:
    """Whether a gun at ``at`` facing ``facing`` has a seen enemy figure in its 180-degree
    view (bookgun.move.facing), in line of sight and within its medium range band."""
    w = _map(obs)
    reach = w.tables.weapons.types[weapon].bands[GUN_RANGE_BAND]
    for f in _enemy_figs(obs, side):
        if f.get("role") in ("vehicle", "gun"):
            continue  # never a target (spec §4.8)
        p = (f["x"], f["y"])
        if f.get("room") or _dist(at, p) > reach or _angle(facing, _bearing(at, p)) > 90.0:
            continue
        if w.sight_for(side, at, p):
            return True
    return False


def _exit_point(obs: Mapping[str, Any], me: Vec, edge: str) -> Vec:
    """Straight for the edge the scenario scores (a convoy pushing through)."""
    width, height = obs["table"]
    return {
        "north": (me[0], height),
        "south": (me[0], 0.0),
        "east": (width, me[1]),
        "west": (0.0, me[1]),
    }[edge]


class BookGunScripted:
    name = "scripted"

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(seed * 7919 + len(side))
        self.last_reason = ""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        obs = view.observation
        kinds: dict[str, list[Action]] = {}
        for a in legal:
            kinds.setdefault(a.kind, []).append(a)
        if "deploy" in kinds:
            return self._deploy(obs, kinds["deploy"])
        if "commander" in kinds:
            return self._commander(obs, kinds["commander"])
        for k in ("cache", "ied"):
            if k in kinds:
                self.last_reason = f"secret choice: {k}"
                return self._rng.choice(kinds[k])
        if "fire" in kinds:
            return self._fire(obs, kinds["fire"], kinds.get("hold", []))
        if "move_to" in kinds or "stay" in kinds:
            return self._move_to(obs, kinds.get("move_to", []), kinds.get("stay", []))
        if "joker" in kinds:
            self.last_reason = "joker for the first unit"
            return kinds["joker"][0]
        if "search" in kinds:
            self.last_reason = "search the room"
            return kinds["search"][0]
        if self.side == "insurgents":
            return self._insurgent_card(obs, kinds, legal)
        return self._army_card(obs, kinds, legal)

    # -- set-up ------------------------------------------------------------------------------
    def _deploy(self, obs: Mapping[str, Any], options: list[Action]) -> Action:
        what = str(options[0].unit)
        rooms = [a for a in options if str(a.option)[:1].isupper() and str(a.option)[1:].isdigit()]
        outside = [a for a in options if a not in rooms]
        pool = (outside or rooms) if what.startswith("dummy") else (rooms or outside)
        self.last_reason = "cells in buildings, dummies in the brush"
        return self._rng.choice(pool)

    def _commander(self, obs: Mapping[str, Any], options: list[Action]) -> Action:
        """The Commander-in-Chief (bookgun.lead.cinc): the leader with the most of his side's
        other units within 6" of him, where his -1 to their morale tests counts most (the
        first listed of the best)."""
        figures = obs["figures"]
        own = {f["unit"] for f in figures.values() if f["side"] == self.side}
        centres = {u: _centre(obs, u) for u in own}

        def near(a: Action) -> int:
            me = figures.get(str(a.unit))
            if me is None:
                return -1
            at = (me["x"], me["y"])
            return sum(
                1
                for u, c in centres.items()
                if u != me["unit"] and c is not None and _dist(at, c) <= CINC_RANGE
            )

        best = max(options, key=near)
        self.last_reason = "Commander-in-Chief: the leader with most units within 6 inches"
        return best

    # -- fire ------------------------------------------------------------------------------
    def _fire(self, obs: Mapping[str, Any], fires: list[Action], holds: list[Action]) -> Action:
        # bookgun.building.door_fire: HE at a locked door only to get into rooms still to
        # search, and only when nobody is in the sights; the insurgents never blast doors open
        doors = [a for a in fires if str(a.target).startswith(DOOR)]
        fires = [a for a in fires if a not in doors]
        if not fires:
            searched = set(obs["searched"])
            useful = [a for a in doors if str(a.target)[len(DOOR) :] not in searched]
            if self.side == "army" and useful:
                self.last_reason = "blow the locked door open with HE"
                return useful[0]
            if holds:
                self.last_reason = "hold fire: nothing worth a round"
                return holds[0]
            fires = doors
        if self.side == "insurgents":
            units = obs["units"]
            near = []
            for a in fires:
                me = _centre(obs, str(a.unit))
                them = _centre(obs, str(a.target))
                concealed = units.get(str(a.unit), {}).get("concealed")
                if me and them and concealed and _dist(me, them) > AMBUSH_RANGE:
                    continue
                near.append(a)
            if not near and holds:
                self.last_reason = "hold fire: let them come closer"
                return holds[0]
            fires = near or fires
        else:
            # bookgun.roe.4: even where the rules of engagement let civilians be targeted,
            # deliberately doing so removes the soldier - the army never aims at them
            units = obs["units"]
            fires = [a for a in fires if units.get(str(a.target), {}).get("side") != "civilians"]
            if not fires:
                self.last_reason = "hold fire: only civilians in the sights"
                return holds[0]
        blast = [a for a in fires if a.option == "blast"]
        pick = blast or fires

        def key(a: Action) -> float:
            me, them = _centre(obs, str(a.unit)), _centre(obs, str(a.target))
            return _dist(me, them) if me and them else 99.0

        self.last_reason = "fire at the nearest target"
        return min(pick, key=key)

    # -- movement cards ------------------------------------------------------------------------
    def _insurgent_card(
        self, obs: Mapping[str, Any], kinds: dict[str, list[Action]], legal: Sequence[Action]
    ) -> Action:
        units = obs["units"]
        for a in kinds.get("activate", []):
            u = units.get(str(a.unit), {})
            if (
                a.option is None
                and not u.get("concealed")
                and u.get("status") in ("shaken", "pinned")
            ):
                self.last_reason = "rally and pull back"
                return a
        for a in kinds.get("activate", []):
            u = units.get(str(a.unit), {})
            figs = [
                f for f in obs["figures"].values() if f["unit"] == a.unit and f["status"] == "fit"
            ]
            if a.option is None and not u.get("concealed") and len(figs) * 2 <= u.get("start", 7):
                self.last_reason = "withdraw: the cell has lost half its men"
                return a
        for a in kinds.get("activate", []):
            u = units.get(str(a.unit), {})
            crew = [
                f
                for f in obs["figures"].values()
                if f["unit"] == a.unit and f["status"] == "fit" and f.get("role") != "gun"
            ]
            if a.option == "limber" and len(crew) * 2 < u.get("start", 4):
                self.last_reason = "limber the gun to pull it out"
                return a
        gun = self._gun_card(obs, kinds)
        if gun is not None:
            return gun
        holds = kinds.get("hold", [])
        if holds:
            self.last_reason = "stay hidden in ambush"
            return holds[0]
        return legal[0]

    def _gun_card(self, obs: Mapping[str, Any], kinds: dict[str, list[Action]]) -> Action | None:
        """bookgun.move.artillery: a gun with no shot where it stands is unlimbered (if towed
        and the enemy is in range) or manhandled toward a place it can fire from."""
        units = obs["units"]
        if not _enemy_figs(obs, self.side):
            return None
        for a in kinds.get("activate", []):
            u = units.get(str(a.unit), {})
            if not u.get("gun") or u.get("status") != "ok":
                continue
            gun = next(
                (f for f in obs["figures"].values() if f["unit"] == a.unit and f["role"] == "gun"),
                None,
            )
            if gun is None:
                continue
            at = (gun["x"], gun["y"])
            if a.option == "unlimber" and self._gun_in_range(obs, at, gun["weapon"]):
                self.last_reason = "unlimber the gun: the enemy is in range"
                return a
            if a.option == "manhandle" and not gun_shot(
                obs, self.side, at, gun["facing"], gun["weapon"]
            ):
                self.last_reason = "manhandle the gun into a firing position"
                return a
        return None

    def _gun_in_range(self, obs: Mapping[str, Any], at: Vec, weapon: str) -> bool:
        reach = _map(obs).tables.weapons.types[weapon].bands[GUN_RANGE_BAND]
        return any(_dist(at, (f["x"], f["y"])) <= reach for f in _enemy_figs(obs, self.side))

    def _army_vehicle_card(
        self, obs: Mapping[str, Any], kinds: dict[str, list[Action]], enemies: list[Vec]
    ) -> Action | None:
        """bookgun.move.vehicles / bookgun.move.mount: back a vehicle out of danger; put foot
        units far from their objective, out of the fight, into a vehicle that drives."""
        threats = [
            (f["x"], f["y"])
            for f in _enemy_figs(obs, self.side)
            if f.get("second") == "rpg" and f.get("rounds", 0) > 0
        ]
        for a in kinds.get("activate", []):
            if a.option != "back":
                continue
            me = _centre(obs, str(a.unit))
            if me is None:
                continue
            near = any(_dist(me, e) <= DANGER_RANGE for e in enemies)
            rpg = any(_dist(me, t) <= RPG_RANGE for t in threats)
            if near or rpg:
                self.last_reason = "back the vehicle out of danger"
                return a
        for a in kinds.get("activate", []):
            if not a.option or not str(a.option).startswith("mount:"):
                continue
            me = _centre(obs, str(a.unit))
            goal = self._goal(obs, str(a.unit))
            if me is None or goal is None or _dist(me, goal) < MOUNT_FAR:
                continue
            if enemies and min(_dist(me, e) for e in enemies) <= DISMOUNT_RANGE:
                continue  # in the fight: fight on foot
            vid = str(a.option)[6:]
            at = _centre(obs, vid)
            if at is not None and _dist(at, goal) < _dist(me, goal) + 6.0:
                self.last_reason = "mount up: the vehicle gets us there faster"
                return a
        return None

    def _army_card(
        self, obs: Mapping[str, Any], kinds: dict[str, list[Action]], legal: Sequence[Action]
    ) -> Action:
        units = obs["units"]
        charges = kinds.get("charge", [])
        for a in charges:
            me, them = _centre(obs, str(a.unit)), _centre(obs, str(a.target))
            target = units.get(str(a.target), {})
            if me and them and _dist(me, them) < 6 and target.get("status") in ("shaken", "pinned"):
                self.last_reason = "charge a shaken enemy close by"
                return a
        enemies = _enemy_points(obs, "army")
        searched = set(obs["searched"])
        # bookgun.building.windows: climb in where a room is still to search
        for a in kinds.get("window", []):
            if a.option not in searched:
                self.last_reason = "climb in at the window"
                return a
        # bookgun.building.breach: blow a way into a room still to search
        for a in kinds.get("breach", []):
            if a.option not in searched:
                self.last_reason = "place a breaching charge"
                return a
        vehicle = self._army_vehicle_card(obs, kinds, enemies)
        if vehicle is not None:
            return vehicle
        # bookgun.move.mount: passengers get down once the vehicle is close to the enemy
        for a in kinds.get("activate", []):
            if a.option == "dismount":
                vid = units.get(str(a.unit), {}).get("aboard")
                at = _centre(obs, str(vid)) if vid else None
                if at and enemies and min(_dist(at, e) for e in enemies) <= DISMOUNT_RANGE:
                    self.last_reason = "dismount near the enemy"
                    return a
        acts = [
            a
            for a in kinds.get("activate", [])
            if a.option is None and self._vehicle_drives(obs, str(a.unit), enemies)
        ]
        # bounds: a team that moved last turn covers while one that did not moves up
        fresh = [a for a in acts if not units.get(str(a.unit), {}).get("moved_last")]
        pool = fresh or acts
        if enemies:
            covering = []
            for a in pool:
                me = _centre(obs, str(a.unit))
                if (
                    me
                    and min(_dist(me, e) for e in enemies) < 10
                    and units[str(a.unit)]["fired"] is False
                ):
                    covering.append(a)
            if covering and kinds.get("hold") and self._rng.random() < 0.3:
                hold = [h for h in kinds["hold"] if h.unit == covering[0].unit]
                if hold:
                    self.last_reason = "cover the bound from where we are"
                    return hold[0]
        if pool:
            self.last_reason = "bound forward"
            return pool[0]
        if kinds.get("hold"):
            return kinds["hold"][0]
        return legal[0]

    @staticmethod
    def _vehicle_drives(obs: Mapping[str, Any], unit: str, enemies: list[Vec]) -> bool:
        """A vehicle drives while it carries troops and is not yet close to the enemy; empty
        or arrived, it stays put and covers with its gun."""
        units = obs["units"]
        if not units.get(unit, {}).get("vehicle"):
            return True
        if not any(u.get("aboard") == unit for u in units.values()):
            return False
        me = _centre(obs, unit)
        return not (me and enemies and min(_dist(me, e) for e in enemies) <= STOP_RANGE)

    def _goal(self, obs: Mapping[str, Any], unit: str) -> Vec | None:
        me = _centre(obs, unit)
        if me is None:
            return None
        if self.side == "insurgents":
            enemies = _enemy_points(obs, self.side)
            if not enemies:
                return None
            near = min(enemies, key=lambda e: _dist(me, e))
            away = (me[0] - near[0], me[1] - near[1])
            n = math.hypot(*away) or 1.0
            return (me[0] + away[0] / n * 20, me[1] + away[1] / n * 20)
        edge = obs.get("exit_edge", "none")
        if edge != "none":
            return _exit_point(obs, me, edge)
        targets = [(m["x"], m["y"]) for m in obs["markers"].values()]
        targets += [
            (f["x"], f["y"])
            for f in obs["figures"].values()
            if f["side"] == "insurgents" and f["status"] == "fit"
        ]
        if not targets:
            return None
        return min(targets, key=lambda t: _dist(me, t))

    def _vehicle_or_gun_move(
        self, obs: Mapping[str, Any], unit: str, moves: list[Action], stays: list[Action]
    ) -> Action | None:
        """A vehicle near danger backs to the point farthest from the enemy; a manhandled gun
        goes where it will have a shot (the nearest such point), else closes on the enemy."""
        u = obs["units"].get(unit, {})
        me = _centre(obs, unit)
        points = [a for a in moves if a.point is not None]
        enemies = [(f["x"], f["y"]) for f in _enemy_figs(obs, self.side)]
        if me is None or not points or not enemies:
            return None
        if u.get("vehicle"):
            if min(_dist(me, e) for e in enemies) > max(DANGER_RANGE, RPG_RANGE):
                return None

            def clear(p: Vec) -> float:
                return min(_dist(p, e) for e in enemies)

            best = max(points, key=lambda a: clear(a.point or me))
            if clear(best.point or me) > clear(me) + 0.5:
                self.last_reason = "back away from the enemy"
                return best
            return None
        if u.get("gun"):
            gun = next(
                (f for f in obs["figures"].values() if f["unit"] == unit and f["role"] == "gun"),
                None,
            )
            if gun is None:
                return None
            good = [
                a
                for a in points
                if a.point is not None
                and gun_shot(obs, self.side, a.point, _bearing(me, a.point), gun["weapon"])
            ]
            if good:
                self.last_reason = "manhandle the gun to where it has a shot"
                return min(good, key=lambda a: _dist(a.point or me, me))
            if gun_shot(obs, self.side, me, gun["facing"], gun["weapon"]) and stays:
                self.last_reason = "the gun has a shot from here"
                return stays[0]
            self.last_reason = "manhandle the gun toward the enemy"
            return min(points, key=lambda a: min(_dist(a.point or me, e) for e in enemies))
        return None

    def _move_to(self, obs: Mapping[str, Any], moves: list[Action], stays: list[Action]) -> Action:
        if not moves:
            self.last_reason = "nowhere to go"
            return stays[0]
        unit = str(moves[0].unit)
        special = self._vehicle_or_gun_move(obs, unit, moves, stays)
        if special is not None:
            return special
        rooms = [a for a in moves if a.option]
        searched = set(obs["searched"])
        if self.side == "army" and obs.get("exit_edge", "none") == "none":
            fresh_rooms = [a for a in rooms if a.option not in searched]
            if fresh_rooms:
                self.last_reason = "enter a room not yet searched"
                return fresh_rooms[0]
        if self.side == "insurgents" and obs["units"].get(unit, {}).get("concealed"):
            self.last_reason = "stay under cover"
            return stays[0] if stays else moves[0]
        goal = self._goal(obs, unit)
        me = _centre(obs, unit)
        points = [a for a in moves if a.point is not None]
        if goal is None or me is None or not points:
            self.last_reason = "hold the ground"
            return stays[0] if stays else moves[0]
        best = min(points, key=lambda a: _dist(a.point or me, goal))
        if _dist(best.point or me, goal) >= _dist(me, goal) - 0.5 and stays:
            self.last_reason = "no better ground in reach"
            return stays[0]
        self.last_reason = "move toward the objective"
        return best
