"""A scripted Portable Wargame player that plays sensibly, says why, and decides only from its
side's view.

The Portable Wargame hides nothing, so the observation holds the whole board (all but the
random stream): the player rebuilds the board from it (:func:`known_board`) and runs the
ruleset's public rule functions on that, never on the game.

- Artillery: fires at the enemy square where it is likeliest to land, weighted by what is in it,
  and never where a short or long round would land on its own units.
- Activates aircraft first (they crash otherwise), then units nearest the enemy.
- A unit attacks in close combat when its odds are at least even, otherwise fires first (while
  it still has the "not moved" bonus) and then moves: towards the objectives it does not hold,
  into cover, within reach of targets; commanders stay beside their units, transports carry
  their loads forward and drop them short of the enemy.
- Retreats rather than lose SP, except on an objective with SP to spare.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from umpire.agents.base import View
from umpire.core.actions import Action
from umpire.core.rng import RandomStream
from umpire.geometry.squaregrid import Square, distance, facing_towards, step
from umpire.rulesets.portable import air
from umpire.rulesets.portable.artillery import landing, landing_square
from umpire.rulesets.portable.close_combat import assault_targets, combat_side
from umpire.rulesets.portable.common import cargo_of, enemies_of, kind, standing, total
from umpire.rulesets.portable.enums import Landing
from umpire.rulesets.portable.fire import FirePlan, fire_options, hit_on
from umpire.rulesets.portable.hits import retreat_squares
from umpire.rulesets.portable.movement import facing_options, reachable
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.units import ARTILLERY, ASSAULTERS, TANKS, TRANSPORT
from umpire.rulesets.portable.world import COVER, World, load_world

FIRE_WORTH = 0.15  # expected hits below this are not worth giving up the move bonus for


def known_board(view: View) -> tuple[World, PortableState]:
    """The board as ``view.side`` sees it (everything: nothing is hidden in this game), rebuilt
    from the observation with a stand-in random stream, and its static world."""
    obs = view.observation
    # the agent never rolls: a stand-in stream, not the game's
    state = PortableState.from_dict(dict(obs), stand_in=RandomStream(0))
    world = load_world(obs["scenario"], (obs.get("options") or {}).get("house_rules"))
    state.world_memo = world
    return world, state


def _p_hit(need: int, mod: int) -> float:
    return sum(1 for d in range(1, 7) if hit_on(d, mod, need)) / 6


class PortableScripted:
    """Scripted player for one side of a Portable Wargame battle."""

    name = "scripted"

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self.seed = seed  # this player is deterministic: the seed is kept for the record only
        self.last_reason = ""

    # -- entry point -----------------------------------------------------------------------
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        world, state = known_board(view)
        flow: dict[str, Any] = view.observation["flow"]
        decision = flow["decision"]
        if decision == "artillery":
            return self._artillery(world, state, legal)
        if decision == "retreat":
            return self._retreat(world, state, str(flow["unit"]))
        if decision == "activate":
            return self._activate(world, state, legal)
        unit = state.units[str(flow["unit"] or flow["activation"]["unit"])]
        if decision == "face":
            return self._face(world, state, unit)
        if decision == "advance":
            self.last_reason = f"{unit.name} follows up its win"
            return Action("advance", unit=unit.uid)
        if unit.air:
            return self._fly(world, state, unit, legal)
        return self._act(world, state, unit, legal)

    # -- helpers ---------------------------------------------------------------------------
    def _goals(self, world: World, state: PortableState) -> list[Square]:
        """Objectives not held by this side (or all of them, to defend, when it holds all)."""
        mine = {sq for sq in world.objectives if state.holders.get(_label(sq)) == self.side}
        wanted = [sq for sq in world.objectives if sq not in mine]
        return wanted or list(world.objectives)

    def _value(self, world: World, unit: Unit) -> float:
        """How much a hit on ``unit`` is worth (weak units and objectives' holders first)."""
        return 1.0 + 1.0 / max(1, unit.sp) + (0.5 if unit.pos in world.objectives else 0.0)

    def _shot_value(self, world: World, state: PortableState, plan: FirePlan) -> float:
        p = _p_hit(plan.need, total(plan.mods)) * plan.dice
        if plan.at_aircraft:
            return p
        victims = [u for u in standing(state) if u.pos == plan.square and u.side != self.side]
        value = 0.0
        for v in victims:
            if not plan.destroys_tanks and kind(world, v) in TANKS and v.sp <= 1:
                continue  # portable.fire.destroy_tanks: the tank keeps its last SP
            value += self._value(world, v)
        return p * value / 2

    # -- phases ----------------------------------------------------------------------------
    def _artillery(self, world: World, state: PortableState, legal: Sequence[Action]) -> Action:
        from umpire.rulesets.portable.artillery import plan_bombard

        best: tuple[float, Action | None] = (0.2, None)
        friends = {u.pos for u in standing(state, self.side)}
        for action in legal:
            if action.kind not in ("bombard", "gas", "flak"):
                continue
            gun = state.units[action.unit or ""]
            target = state.units[action.target or ""]
            if action.kind == "flak":
                value = 0.5
            else:
                plan = plan_bombard(world, state, gun, target)
                if not hasattr(plan, "mods"):
                    continue
                mod = total(plan.mods)  # type: ignore[union-attr]
                spots = [landing(d + mod, world) for d in range(1, 7)]
                if any(
                    landing_square(world, gun.pos, target.pos, s) in friends
                    for s in spots
                    if s != Landing.NONE
                ):
                    continue
                p = spots.count(Landing.TARGET) / 6
                if action.kind == "gas":
                    p = (6 - spots.count(Landing.NONE)) / 6 * 0.6
                victims = [u for u in standing(state) if u.pos == target.pos]
                value = p * sum(self._value(world, v) for v in victims)
            if value > best[0]:
                best = (value, action)
        if best[1] is None:
            self.last_reason = "no target worth the guns' fire"
            return Action("hold")
        self.last_reason = f"best expected effect ({best[0]:.2f}) for the guns"
        return best[1]

    def _retreat(self, world: World, state: PortableState, uid: str) -> Action:
        unit = state.units[uid]
        options = retreat_squares(world, state, unit)
        if not options or (unit.pos in world.objectives and unit.sp >= 3):
            self.last_reason = f"{unit.name} holds its ground"
            return Action("stand", unit=uid)
        foes = enemies_of(state, self.side)

        def safety(sq: Square) -> float:
            near = min((distance(sq, e.pos) for e in foes), default=9)
            return near + (1.5 if world.kind(sq) in COVER else 0.0)

        square = max(options, key=lambda sq: (safety(sq), sq))
        self.last_reason = f"{unit.name} retreats rather than lose strength"
        return Action("retreat", unit=uid, point=(float(square[0]), float(square[1])))

    def _activate(self, world: World, state: PortableState, legal: Sequence[Action]) -> Action:
        candidates = [state.units[a.unit or ""] for a in legal if a.kind == "activate"]
        foes = enemies_of(state, self.side)

        def priority(u: Unit) -> tuple[int, int, str]:
            if u.air:
                return (0, 0, u.uid)
            k = kind(world, u)
            if k == "artillery" and u.fired and u.carried_by is None:
                return (9, 0, u.uid)
            near = min((distance(u.pos, e.pos) for e in foes), default=99)
            return (1 if k not in TRANSPORT else 2, near, u.uid)

        useful = [u for u in candidates if priority(u)[0] < 9]
        if not useful:
            self.last_reason = "no unit has anything worth doing"
            return Action("done")
        unit = min(useful, key=priority)
        self.last_reason = f"activate {unit.name}" + (
            " (aircraft must be activated)" if unit.air else ", nearest the enemy"
        )
        return Action("activate", unit=unit.uid)

    def _face(self, world: World, state: PortableState, unit: Unit) -> Action:
        options = facing_options(world, state, unit)
        if unit.air:
            ground = [e for e in enemies_of(state, self.side) if distance(e.pos, unit.pos) == 1]
            if ground:
                facing = facing_towards(unit.pos, ground[0].pos)
                self.last_reason = f"{unit.name} turns its guns on {ground[0].name}"
                return Action("face", unit=unit.uid, option=facing)
        foes = [
            e
            for e in state.units.values()
            if e.alive and e.side != self.side and (not e.air or unit.air)
        ]
        if foes:
            nearest = min(foes, key=lambda e: (distance(e.pos, unit.pos), e.uid))
            facing = facing_towards(unit.pos, nearest.pos)
            if facing in options:
                self.last_reason = f"{unit.name} faces the nearest enemy, {nearest.name}"
                return Action("face", unit=unit.uid, option=facing)
        self.last_reason = f"{unit.name} faces {options[0]}"
        return Action("face", unit=unit.uid, option=options[0])

    def _assault_odds(
        self, world: World, state: PortableState, unit: Unit, target: Unit
    ) -> tuple[float, float]:
        """(P attacker is hit, P defender is hit)."""
        mine = combat_side(world, state, unit, target, True)
        theirs = combat_side(world, state, target, unit, False)
        p_mine = 1 - _p_hit(mine.need, total(mine.mods))
        p_theirs = 1 - _p_hit(theirs.need, total(theirs.mods))
        return p_mine, p_theirs

    def _act(
        self, world: World, state: PortableState, unit: Unit, legal: Sequence[Action]
    ) -> Action:
        uid = unit.uid
        end = Action("end", unit=uid)
        kinds = {a.kind for a in legal}
        if unit.carried_by is not None:
            carrier = state.units[unit.carried_by]
            near = min(
                (distance(carrier.pos, e.pos) for e in enemies_of(state, self.side)), default=99
            )
            goal = min((distance(carrier.pos, g) for g in self._goals(world, state)), default=0)
            if "unload" in kinds and (near <= 4 or goal <= 1):
                self.last_reason = f"{unit.name} gets off: the enemy is {near} squares away"
                return Action("unload", unit=uid)
            self.last_reason = f"{unit.name} stays aboard"
            return end
        k = kind(world, unit)
        for target in assault_targets(world, state, unit):
            p_mine, p_theirs = self._assault_odds(world, state, unit, target)
            if p_theirs >= p_mine or (target.sp == 1 and p_theirs >= 0.3):
                self.last_reason = (
                    f"{unit.name} attacks {target.name}: P(they are hit) {p_theirs:.0%} "
                    f"against P(we are hit) {p_mine:.0%}"
                )
                return Action("assault", unit=uid, target=target.uid)
        if "fire" in kinds:
            plans = fire_options(world, state, unit)
            if plans:
                value, plan = max(
                    ((self._shot_value(world, state, p), p) for p in plans),
                    key=lambda t: (t[0], t[1].target),
                )
                if value >= FIRE_WORTH:
                    self.last_reason = (
                        f"{unit.name} fires at {state.units[plan.target].name}: value {value:.2f}"
                    )
                    return Action("fire", unit=uid, target=plan.target)
        if "move" in kinds and k not in ARTILLERY or (k == "sp_artillery" and "move" in kinds):
            move = self._best_move(world, state, unit)
            if move is not None:
                return move
        if "turn" in kinds and k in ARTILLERY:
            foes = enemies_of(state, self.side)
            if foes:
                nearest = min(foes, key=lambda e: (distance(e.pos, unit.pos), e.uid))
                facing = facing_towards(unit.pos, nearest.pos)
                if facing != unit.facing:
                    self.last_reason = f"{unit.name} turns its gun towards {nearest.name}"
                    return Action("turn", unit=uid, option=facing)
        self.last_reason = f"{unit.name} has nothing better to do"
        return end

    def _place_score(
        self,
        world: World,
        state: PortableState,
        unit: Unit,
        sq: Square,
        foes: list[Unit],
        goals: list[Square],
        friends: list[Unit],
    ) -> float:
        k = kind(world, unit)
        near = min((distance(sq, e.pos) for e in foes), default=20)
        if k in ("commanders", "spotters"):
            around = sum(1 for f in friends if f.uid != unit.uid and distance(f.pos, sq) <= 1)
            score = around * 1.0 - (3.0 if near <= 1 else 0.0)
            if k == "spotters":
                score += 0.5 * sum(1 for e in foes if world.terrain_line_clear(sq, e.pos))
            return score
        goal = min((distance(sq, g) for g in goals), default=0)
        score = -1.0 * goal + (3.0 if goal == 0 else 0.0)
        if k in TRANSPORT:
            loaded = bool(cargo_of(state, unit))
            if not loaded:
                return -near * 0.1 if near < 3 else 0.0
            return score - (4.0 if near <= 2 else 0.0)
        if world.kind(sq) in COVER or sq in world.trenches:
            score += 0.7
        weapon_id = world.types.ground[unit.type].weapon
        if weapon_id is not None:
            reach = world.types.weapons[weapon_id].range
            if any(
                distance(sq, e.pos) <= reach and world.terrain_line_clear(sq, e.pos) for e in foes
            ):
                score += 0.8
        if near == 1:
            if k in ASSAULTERS and unit.sp >= 2:
                score += 0.5
            else:
                score -= 2.0
        if unit.sp == 1 and near <= 2:
            score -= 1.5
        return score

    def _best_move(self, world: World, state: PortableState, unit: Unit) -> Action | None:
        options = reachable(world, state, unit)
        if not options:
            return None
        foes = enemies_of(state, self.side)
        goals = self._goals(world, state)
        friends = standing(state, self.side)
        here = self._place_score(world, state, unit, unit.pos, foes, goals, friends)
        best_sq, best = None, here + 0.3
        for sq, path in sorted(options.items()):
            score = self._place_score(world, state, unit, sq, foes, goals, friends)
            score -= 2.0 * len(path.hazards)
            if score > best:
                best_sq, best = sq, score
        if best_sq is None:
            return None
        self.last_reason = (
            f"{unit.name} moves towards the objectives, into cover and within reach of targets"
        )
        return Action("move", unit=unit.uid, point=(float(best_sq[0]), float(best_sq[1])))

    def _fly(
        self, world: World, state: PortableState, plane: Unit, legal: Sequence[Action]
    ) -> Action:
        uid = plane.uid
        for a in legal:
            if a.kind == "bomb" and a.option == str(plane.bombs):
                self.last_reason = f"{plane.name} drops every bomb load on the enemy below"
                return a
        fire = [a for a in legal if a.kind == "fire"]
        if fire:
            self.last_reason = f"{plane.name} engages {state.units[fire[0].target or ''].name}"
            return fire[0]
        if plane.moved:
            self.last_reason = f"{plane.name} has done what it can"
            return Action("end", unit=uid)
        spec = world.types.aircraft[plane.type]
        foes = [
            e
            for e in enemies_of(state, self.side)
            if kind(world, e) not in TANKS or e.sp > 1 or spec.ground_attack == "bombs"
        ]
        # portable.air.movement e): attacking costs a square of the move, so stop one short
        options = {
            sq
            for sq in air.move_options(world, state, plane)
            if distance(sq, plane.pos) < spec.move
        }
        target_sq: Square | None = None
        if spec.ground_attack == "bombs" and plane.bombs:
            for e in sorted(foes, key=lambda e: (-e.sp, e.uid)):
                if e.pos in options:
                    target_sq = e.pos
                    break
        elif spec.ground_attack == "guns":
            for e in sorted(foes, key=lambda e: (distance(e.pos, plane.pos), e.uid)):
                for facing in ("N", "E", "S", "W"):
                    sq = step(e.pos, facing)
                    if sq in options:
                        target_sq = sq
                        break
                if target_sq is not None:
                    break
        if target_sq is None:
            self.last_reason = f"{plane.name} circles where it is"
            return Action("end", unit=uid)
        self.last_reason = f"{plane.name} flies to attack from {target_sq}"
        return Action("move", unit=uid, point=(float(target_sq[0]), float(target_sq[1])))


def _label(square: Square) -> str:
    from umpire.geometry.squaregrid import label

    return label(square)
