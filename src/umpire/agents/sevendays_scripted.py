"""A scripted Seven Days player that plays sensibly and says why.

- Activates each unit once, best shot first; keeps the rest of the pool for reactions.
- Shoots the target with the best chance of a kill (ATGM when it is better); moves to cover and
  towards the objectives when it has no worthwhile shot.
- Reacts when the reaction's chance of killing the activating unit is worth the token.
- Units near their morale value fall back or call a battlegroup morale check.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from typing import cast

from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.rulesets.sevendays import cards
from umpire.rulesets.sevendays.close_combat import assault_targets, support
from umpire.rulesets.sevendays.firing import (
    SHOT_VERBS,
    ShotPlan,
    plan_shot,
)
from umpire.rulesets.sevendays.los import prefetch_between
from umpire.rulesets.sevendays.movement import check_move, fall_back_point, move_candidates
from umpire.rulesets.sevendays.odds import shot_odds
from umpire.rulesets.sevendays.reactions import nearest_first, reaction_option, reactors
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import load_nation
from umpire.rulesets.sevendays.special import can_exit
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.state import other as other_side
from umpire.rulesets.sevendays.transport import passengers
from umpire.rulesets.sevendays.world import World

SHOT_WORTH = 0.08  # a shot whose value is below this is not worth the action
REACTION_SHORTLIST = 5  # nearest units weighed as reactors (besides every ATGM carrier)

AMBUSH_RANGE = 24.0
DISMOUNT_RANGE = 18.0
UNUSED_CARDS = ("communications", "tank_missile")  # this player never plays them

# what a place on a table is worth apart from the enemy (nearest objective, cover): static,
# so kept per table for as long as the table (World) lives
_PLACES: weakref.WeakKeyDictionary[World, dict[tuple[float, float], tuple[float, bool]]] = (
    weakref.WeakKeyDictionary()
)


class SevenDaysScripted:
    name = "scripted"

    def __init__(self, side: str) -> None:
        self.side = side
        self.last_reason = ""

    # -- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _shot_value(world: World, plan: ShotPlan, firer: Unit, target: Unit) -> tuple[float, float]:
        """(value, chance to knock the target out): dearer targets and removals count more."""
        odds = shot_odds(world, plan, firer, target)
        profile = world.profile(target)
        weight = 1.0 + profile.bp / 10.0
        morale = profile.morale or 5
        return (odds.out + 0.5 * odds.markers / morale) * weight, odds.out

    def _best_shot(
        self, world: World, state: SevenDaysState, unit: Unit, moved: bool, actions_left: int
    ) -> tuple[float, Action | None, str]:
        best_value = 0.0
        best: tuple[ShotPlan, Unit, float, str] | None = None
        kinds = list(world.shot_kinds(unit))  # "gun" too for an AA shot at a helicopter
        if "atgm" in kinds and (moved or actions_left < 2):
            kinds.remove("atgm")
        enemies = [t for t in state.units.values() if t.alive and t.side != unit.side]
        prefetch_between(world, [unit], enemies)
        for target in enemies:
            for kind in kinds:
                plan = plan_shot(
                    world, state, unit, target, kind, moved=moved, actions_left=actions_left
                )
                if not isinstance(plan, ShotPlan) or not plan.possible:
                    continue
                value, p_out = self._shot_value(world, plan, unit, target)
                if value > best_value:
                    best_value, best = value, (plan, target, p_out, kind)
        if best is None:
            return 0.0, None, ""
        plan, target, p_out, kind = best
        verb = SHOT_VERBS[kind]
        why = (
            f"{unit.name} {plan.weapon_kind} at {target.name}: need {plan.need}+, "
            f"P kill {p_out:.0%} is the best shot available"
        )
        return best_value, Action(verb, unit=unit.uid, target=target.uid), why

    @staticmethod
    def _shaken(world: World, unit: Unit) -> bool:
        morale = world.profile(unit).morale or 99
        return unit.markers > 0 and unit.markers >= morale - 2

    # -- decisions -------------------------------------------------------------------------
    def choose(self, game: Game, legal: Sequence[Action]) -> Action:
        ruleset = cast(SevenDays, game.ruleset)
        state = cast(SevenDaysState, game.state)
        world = ruleset.world(state)
        phase = state.flow.phase
        if phase == "swap":
            return self._swap(world, state)
        if phase == "card":
            return self._respond(legal)
        if state.cards is not None and phase == "activate" and state.flow.initiative == self.side:
            play = self._card(world, state)
            if play is not None:
                return play
        if phase == "react":
            return self._react(world, state, legal)
        if phase == "activate":
            return self._activate(world, state, legal)
        return self._act(world, state, legal)

    # -- Tactical Advantage cards -----------------------------------------------------------
    def _swap(self, world: World, state: SevenDaysState) -> Action:
        start = cards.playable(world, state, self.side, only={"divisional_artillery"})
        if start:
            self.last_reason = "divisional artillery before the battle: every enemy unit is shelled"
            return start[0]
        hand = state.cards["hands"][self.side] if state.cards else []
        unused = [c for c in hand if c in UNUSED_CARDS]
        if not cards._air_defence(world, state, self.side):
            unused += [c for c in hand if c == "anti_air"]
        option = "+".join(sorted(unused[:2]))
        self.last_reason = f"exchange {option or 'nothing'}: cards this player does not use"
        return Action("swap", option=option)

    def _respond(self, legal: Sequence[Action]) -> Action:
        answers = [a for a in legal if a.kind == "card"]
        if answers:
            self.last_reason = f"answer the enemy's card with {answers[0].option}"
            return answers[0]
        self.last_reason = "no card to answer with"
        return Action("no_response")

    def _card(self, world: World, state: SevenDaysState) -> Action | None:
        flow = state.flow
        wanted = {"airstrike", "precision_strike", "off_table_artillery", "against_all_odds"}
        if flow.pools[other_side(self.side)] >= 2:
            wanted.add("electronic_warfare")
        if flow.turn >= 2:
            wanted.add("reserves")
        plays = cards.playable(world, state, self.side, only=wanted)
        if not plays:
            return None

        def value(action: Action) -> float:
            card_id, _, extra = (action.option or "").partition("|")
            if card_id == "reserves":
                profile = world.scenario.spec.sides[self.side].nation  # type: ignore[index]
                return load_nation(profile).profile(extra).points
            targets = [action.target, extra if card_id == "precision_strike" else None]
            return sum(world.profile(state.units[t]).points for t in targets if t) + (
                50 if card_id == "against_all_odds" else 0
            )

        best = max(plays, key=value)
        self.last_reason = f"play {best.option} now: worth about {value(best):.0f} points"
        return best

    def _activate(self, world: World, state: SevenDaysState, legal: Sequence[Action]) -> Action:
        fresh = [
            u
            for u in state.alive(self.side)
            if u.tokens == 0 and (not u.hidden or self._may_show(state, u))
        ]
        fresh += SevenDays._reserves(world, state)
        if not fresh:
            self.last_reason = "every unit has acted; keeping tokens for reactions"
            return Action("pass")
        shaken = [u for u in fresh if self._shaken(world, u)]
        if shaken:
            unit = max(shaken, key=lambda u: u.markers)
            self.last_reason = f"{unit.name} is shaken ({unit.markers} markers): rally it first"
            return Action("activate", unit=unit.uid)
        # dearest units first: they carry the best guns, and ranking every unit by its best
        # shot before each activation costs more than it gains (the shot itself is chosen
        # when the unit acts)
        unit = max(fresh, key=lambda u: (world.profile(u).points, u.uid))
        self.last_reason = f"activate {unit.name}: the strongest unit that has not acted"
        return Action("activate", unit=unit.uid)

    @staticmethod
    def _time_to_dismount(world: World, state: SevenDaysState, carrier: Unit) -> bool:
        """Dismount within 18" of the enemy or 8" of an objective."""
        near_enemy = any(
            math.dist(e.pos, carrier.pos) <= DISMOUNT_RANGE
            for e in state.alive()
            if e.side != carrier.side
        )
        near_goal = any(math.dist(o.at, carrier.pos) <= 8.0 for o in world.scenario.spec.objectives)
        return near_enemy or near_goal

    @staticmethod
    def _may_show(state: SevenDaysState, unit: Unit) -> bool:
        """A hidden unit waits in ambush until an enemy comes within 24"."""
        if not unit.hidden:
            return True
        return any(
            math.dist(e.pos, unit.pos) <= AMBUSH_RANGE for e in state.alive() if e.side != unit.side
        )

    def _act(self, world: World, state: SevenDaysState, legal: Sequence[Action]) -> Action:
        act = state.flow.activation
        assert act is not None
        unit = state.units[act.unit]
        if can_exit(world, unit):
            self.last_reason = f"{unit.name} breaks through: leave by the enemy's edge"
            return Action("exit", unit=unit.uid)
        riders = passengers(state, unit)
        if riders and self._time_to_dismount(world, state, unit):
            self.last_reason = f"{unit.name} is close to the fight: its infantry dismounts"
            return Action("disembark", unit=unit.uid, target=riders[0].uid)
        if self._shaken(world, unit) and act.actions_left == 2:
            if fall_back_point(world, state, unit) is not None:
                self.last_reason = f"{unit.name} is shaken: fall back and shed a marker"
                return Action("fall_back", unit=unit.uid)
            if unit.markers:
                self.last_reason = f"{unit.name} is shaken: battlegroup morale check"
                return Action("morale", unit=unit.uid)
        if act.actions_left == 2 and not act.moved and not act.fired and world.is_foot(unit):
            edge = {
                t.uid: (support(world, state, unit) - unit.markers)
                - (support(world, state, t) - t.markers)
                for t in assault_targets(world, state, unit)
                if world.is_foot(t)
            }
            if edge and max(edge.values()) >= 1:
                target = max(edge, key=lambda uid: edge[uid])
                self.last_reason = (
                    f"{unit.name} assaults {state.units[target].name}: stronger there"
                )
                return Action("assault", unit=unit.uid, target=target)
        if not act.fired:
            value, shot, why = self._best_shot(
                world, state, unit, SevenDays.counts_moved(world, state, unit), act.actions_left
            )
            if shot is not None and value >= SHOT_WORTH:
                self.last_reason = why
                return shot
        if not act.moved:
            move = self._best_move(world, state, unit)
            if move is not None:
                return move
        self.last_reason = f"{unit.name} has nothing better to do"
        return Action("end", unit=unit.uid)

    def _best_move(self, world: World, state: SevenDaysState, unit: Unit) -> Action | None:
        objectives = [o.at for o in world.scenario.spec.objectives]
        enemies = [u for u in state.units.values() if u.alive and u.side != unit.side]
        if not enemies:
            return None
        profile = world.profile(unit)
        keep_off = 12.5 if profile.atgm is not None or profile.type.value == "support" else 0.0
        # objectives matter more as the last turn nears
        turns_left = world.scenario.spec.turns - state.flow.turn
        weight = 0.3 if turns_left > 2 else 1.0
        speeds = [("move", "normal")]
        if act_has_two(state):
            speeds += [("rapid", "rapid"), ("road", "road")]
        scored: list[tuple[float, str, str, tuple[float, float]]] = []
        foes = [e.pos for e in enemies]
        vehicle = world.is_vehicle(unit)
        places = _PLACES.setdefault(world, {})

        def place_score(point: tuple[float, float]) -> float:
            return self._place_score(
                world, places, vehicle, point, objectives, foes, keep_off, weight
            )

        for kind, speed in speeds:
            penalty = 0.0 if kind == "move" else 1.0  # a rapid move gives up the shot
            # a rapid move is for getting somewhere: no compass points
            for point in move_candidates(world, state, unit, speed, compass=kind == "move"):
                scored.append((place_score(point) - penalty, kind, speed, point))
        here = place_score(unit.pos)
        scored.sort(key=lambda t: t[0], reverse=True)
        for score, kind, speed, point in scored:
            if score <= here + 0.5:
                break
            if check_move(world, state, unit, speed, point) is None:
                self.last_reason = (
                    f"{unit.name} {kind} to ({point[0]:.0f}, {point[1]:.0f}): "
                    "closer to the objectives and into cover where it can"
                )
                return Action(kind, unit=unit.uid, point=point)
        return None

    @staticmethod
    def _place_score(
        world: World,
        places: dict[tuple[float, float], tuple[float, bool]],
        vehicle: bool,
        point: tuple[float, float],
        objectives: list[tuple[float, float]],
        foes: list[tuple[float, float]],
        keep_off: float,
        objective_weight: float,
    ) -> float:
        """How good a place is: near an objective, in cover, out of the enemy's reach."""
        dist = math.dist
        place = places.get(point)
        if place is None:
            nearest_objective = min([dist(point, o) for o in objectives], default=0.0)
            cover = any(a.kind.cover for a in world.table.areas_at(*point))
            place = (nearest_objective, cover)
            if len(places) > 100_000:
                places.clear()
            places[point] = place
        nearest_objective, cover = place
        score = 0.0
        if objectives:
            score -= nearest_objective * objective_weight
            if nearest_objective <= world.house.objective_radius:
                score += 4.0 * objective_weight
        if cover:
            score += 4.0
        if keep_off <= 0.0 and not vehicle:
            return score
        nearest = min([dist(point, f) for f in foes])
        if nearest < keep_off:
            score -= (keep_off - nearest) * 2
        if vehicle and nearest < 6:
            score -= 6 - nearest  # keep tanks out of LAW range
        return score

    def _react(self, world: World, state: SevenDaysState, legal: Sequence[Action]) -> Action:
        act = state.flow.activation
        assert act is not None
        activator = state.units[act.unit]
        best: tuple[float, Action | None, str] = (0.0, None, "")
        moving = state.flow.reacting_to_move
        # the likeliest reactors: ATGM carriers (long reach, +1 to react) and the nearest
        # units; weighing every unit on the table costs more than it gains
        candidates = nearest_first(reactors(state, activator), activator)
        shortlist = [
            u
            for rank, u in enumerate(candidates)
            if rank < REACTION_SHORTLIST or world.profile(u).atgm is not None
        ]
        prefetch_between(world, shortlist, [activator], reaction=True)
        for reactor in shortlist:
            option = reaction_option(world, state, activator, reactor, moving)
            if option is None or option.plan is None:
                continue
            odds = shot_odds(world, option.plan, reactor, activator)
            p_react = min(1.0, (7 - option.need) / 6)
            value = p_react * (
                odds.out + 0.3 * odds.markers / (world.profile(activator).morale or 5)
            )
            if value > best[0]:
                why = (
                    f"react with {reactor.name}: {option.need}+ to react, "
                    f"P kill {odds.out:.0%} against {activator.name}"
                )
                best = (value, Action("react", unit=option.unit), why)
        if best[1] is not None and best[0] >= 0.06:
            self.last_reason = best[2]
            return best[1]
        self.last_reason = "no reaction worth a token"
        return Action("no_react")


def act_has_two(state: SevenDaysState) -> bool:
    return state.flow.activation is not None and state.flow.activation.actions_left == 2
