"""A scripted Seven Days player that plays sensibly, says why, and decides only from what its
side may know.

It is handed its side's :class:`~umpire.agents.base.View` and the legal actions, never the
game. From the observation it rebuilds the table as its side knows it (:class:`KnownTable`):
its own units, the enemy units in the open, and the enemy's hidden markers as unknown threats
at their places (what a marker is, it cannot read). The ruleset's public rule functions (sight,
shot plans and odds, moves, reactions, cards) then run on that picture, with the static side of
the game (table, terrain, unit profiles, house rules) from ``view.ruleset.world_for``.

- Activates each unit once, best shot first; keeps the rest of the pool for reactions.
- Shoots the target with the best chance of a kill (ATGM when it is better); moves to cover and
  towards the objectives when it has no worthwhile shot.
- Reacts when the reaction's chance of killing the activating unit is worth the token.
- Units near their morale value fall back or call a battlegroup morale check.
"""

from __future__ import annotations

import math
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from itertools import compress, repeat
from operator import is_not
from typing import Any, NamedTuple, cast

from umpire.agents.base import View
from umpire.core.actions import Action
from umpire.core.flow import FlowState
from umpire.core.rng import RandomStream
from umpire.rulesets.sevendays import cards
from umpire.rulesets.sevendays.close_combat import assault_targets, support
from umpire.rulesets.sevendays.firing import (
    TargetFacts,
    plan_shot,
    situation_key_of,
    situation_plans,
    target_facts,
)
from umpire.rulesets.sevendays.los import prefetch_between, terrain_blocked_all
from umpire.rulesets.sevendays.movement import (
    check_move,
    fall_back_point,
    move_after_fire_refusal,
    move_candidates,
)
from umpire.rulesets.sevendays.odds import shot_odds
from umpire.rulesets.sevendays.orbat import UnitProfile
from umpire.rulesets.sevendays.reactions import (
    reaction_option,
    reactors,
)
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.scenario import load_nation, side_orbat
from umpire.rulesets.sevendays.shots import SHOT_VERBS, ShotPlan
from umpire.rulesets.sevendays.special import can_exit
from umpire.rulesets.sevendays.state import (
    Activation,
    Flow,
    SevenDaysState,
    Side,
    Unit,
    arrangement_number,
    unit_place,
)
from umpire.rulesets.sevendays.state import other as other_side
from umpire.rulesets.sevendays.transport import passengers
from umpire.rulesets.sevendays.world import World

SHOT_WORTH = 0.08  # a shot whose value is below this is not worth the action
REACTION_WORTH = 0.06  # a reaction whose value is below this is not worth the token
REACTION_SHORTLIST = 5  # nearest units weighed as reactors (besides every ATGM carrier)

AMBUSH_RANGE = 24.0
DISMOUNT_RANGE = 18.0
UNUSED_CARDS = ("communications", "tank_missile")  # this player never plays them
MOVE_KINDS = ("move", "rapid", "road")

# what a place on a table is worth apart from the enemy (nearest objective, cover): static,
# so kept per table for as long as the table (World) lives
_PLACES: weakref.WeakKeyDictionary[World, dict[tuple[float, float], tuple[float, bool]]] = (
    weakref.WeakKeyDictionary()
)


class KnownTable(NamedTuple):
    """The table as one side knows it: the static world and a state holding that side's units,
    the enemy's units in the open and the enemy's hidden markers (as ``hidden`` stand-ins
    placed at the markers, with no profile of their own that the agent reads)."""

    world: World
    state: SevenDaysState
    markers: tuple[str, ...]  # ids of the enemy's hidden markers on the table


def known_table(view: View) -> KnownTable:
    """Rebuild ``view.side``'s picture of the table from its observation (and nothing else)."""
    obs = view.observation
    ruleset = cast(SevenDays, view.ruleset)
    options = obs.get("options") or {}
    override = options.get("house_rules")
    world = _WORLDS.get(obs["scenario"]) if not override else None
    if world is None:
        world = ruleset.world_for(obs["scenario"], override)
        if not override:
            _WORLDS[obs["scenario"]] = world
    for line, data in (obs.get("force_profiles") or {}).items():
        if line not in world.profiles:  # an imported catalogue's lines, of units this side sees
            world.add_profile(line, UnitProfile.model_validate(data))
    units, places, markers = _known_units(world, view.side, obs["units"])
    raw_flow = obs["flow"]
    activation = raw_flow.get("activation")
    pending = raw_flow.get("pending")
    core = raw_flow.get("core")
    if raw_flow.keys() == _FLOW_KEYS:  # as flow_dict writes it: every field, nothing else
        flow = Flow(**raw_flow)  # (activation, pending and core are set again below)
        flow.core = FlowState()
    else:
        flow = Flow(**{k: v for k, v in raw_flow.items() if k in _FLOW_PLAIN})
    if core is not None:  # the core flow's position (turn phase, pending decisions)
        flow.core = FlowState.from_dict(core)  # type: ignore[attr-defined,unused-ignore]
    flow.pools = dict(flow.pools)
    flow.activation = Activation(**activation) if activation else None
    flow.pending = Action.from_dict(pending) if pending else None
    smoke = obs.get("smoke") or []
    marks = obs.get("mortar_marks") or []
    state = SevenDaysState(
        scenario=obs["scenario"],
        seed=0,
        rng=_NO_DICE,  # the agent never rolls: a stand-in stream, not the game's
        flow=flow,
        units=units,
        options=dict(options),
        actions_played=int(obs.get("actions_played", 0)),
        cards=_known_cards(obs.get("cards"), view.side),
        smoke=[(float(x), float(y), float(r)) for x, y, r in smoke] if smoke else [],
        mortar_marks=[(float(x), float(y)) for x, y in marks] if marks else [],
    )
    state.world_memo = world
    # the sight and plan caches key on the picture's arrangement of units (state.geometry):
    # a picture with no hidden marker in it is the table itself, and shares what the game
    # has worked out on it (the arrangement is put together here from the units' places
    # remembered with their records; the last one per side is found again without hashing)
    arrangement = (tuple(places), tuple(state.smoke), tuple(state.mortar_marks))
    last = _LAST_ARRANGEMENT.get(view.side)
    if last is not None and last[0] == arrangement:
        state.arrangement = last[1]
    else:
        state.arrangement = arrangement_number(arrangement)
        _LAST_ARRANGEMENT[view.side] = (arrangement, state.arrangement)
    return KnownTable(world, state, tuple(markers))


class _Units(NamedTuple):
    """The unit part of one side's last picture, kept to build the next one from."""

    world: World
    raws: list[Mapping[str, Any]]  # the observation's records, held (their ids stay theirs)
    units: dict[str, Unit]
    places: list[tuple[object, ...]]  # what sight lines and plans read of each unit
    markers: list[str]


def _known_units(
    world: World, side: str, raws: list[Mapping[str, Any]]
) -> tuple[dict[str, Unit], list[tuple[object, ...]], list[str]]:
    """The units of ``side``'s picture (by uid, in the observation's order), their places and
    the enemy's hidden markers' ids.

    Incremental: between two decisions most records are handed over again as the same
    objects, so only the records that are not (a unit that changed, a hidden marker) are read
    again, in the last picture's units, places and markers (copies); a picture whose units
    came or went or changed order is built afresh."""
    last = _LAST_UNITS.get(side)
    if last is not None and last.world is world and len(last.raws) == len(raws):
        changed = list(compress(range(len(raws)), map(is_not, raws, last.raws)))
        if not changed:
            return dict(last.units), last.places, last.markers
        old_raws = last.raws
        if all(_record_uid(raws[i]) == _record_uid(old_raws[i]) for i in changed):
            units = dict(last.units)
            places = list(last.places)
            for i in changed:
                unit, place = _known_unit(world, raws[i])
                units[unit.uid] = unit
                places[i] = place
            _LAST_UNITS[side] = _Units(world, list(raws), units, places, last.markers)
            return dict(units), places, last.markers
    units = {}
    places = []
    markers = []
    for raw in raws:
        unit, place = _known_unit(world, raw)
        if "uid" not in raw:
            markers.append(unit.uid)
        units[unit.uid] = unit
        places.append(place)
    _LAST_UNITS[side] = _Units(world, list(raws), units, places, markers)
    return dict(units), places, markers


def _record_uid(raw: Mapping[str, Any]) -> object:
    """A record's key in the picture: a unit's uid, a hidden marker's marker."""
    return raw["uid"] if "uid" in raw else ("marker", raw["marker"])


def _known_unit(world: World, raw: Mapping[str, Any]) -> tuple[Unit, tuple[object, ...]]:
    """The Unit of one observed record and its place (a hidden marker as a stand-in)."""
    if "uid" not in raw:
        unit = _marker_unit(world, raw)
        return unit, unit_place(unit)
    # the planning functions read units and never change them, so one Unit per distinct
    # record is shared between pictures (building them is a hot spot); the observation hands
    # an unchanged unit's record over again as the same object, found by identity first (the
    # memo holds the record, so its id cannot be reused)
    known = _BY_RECORD.get(id(raw))
    if known is not None and known[0] is raw:
        unit, place = known[1], known[2]
    else:
        content = tuple(raw.values())
        found = _UNITS.get(content)
        if found is None:
            found = Unit(**raw)
            if len(_UNITS) > 20_000:
                _UNITS.clear()
            _UNITS[content] = found
        unit, place = found, unit_place(found)
        if len(_BY_RECORD) > 8192:
            _BY_RECORD.clear()
        _BY_RECORD[id(raw)] = (raw, unit, place)
    if unit.profile not in world.profiles:  # a force file's line: public ORBAT data
        nation, _, line = unit.profile.partition("/")
        world.add_profile(unit.profile, load_nation(nation).profile(line))
    return unit, place


# the flow's fields read from the observation as they are (the others are rebuilt below)
_FLOW_PLAIN = frozenset(Flow.__dataclass_fields__) - {"activation", "pending", "core"}
_FLOW_KEYS = frozenset(Flow.__dataclass_fields__)
_WORLDS: dict[str, World] = {}  # scenario id -> its world without house-rule overrides
_UNITS: dict[tuple[object, ...], Unit] = {}  # a unit's record as observed -> its Unit
# id of a unit record -> the record, its Unit, its ``unit_place``
_BY_RECORD: dict[int, tuple[Mapping[str, Any], Unit, tuple[object, ...]]] = {}
_LAST_ARRANGEMENT: dict[str, tuple[tuple[object, ...], int]] = {}  # side -> last, its number
_LAST_UNITS: dict[str, _Units] = {}  # side -> the unit part of its last picture
_NO_DICE = RandomStream(0)


def _marker_unit(world: World, raw: Mapping[str, Any]) -> Unit:
    """A hidden enemy marker as a stand-in unit at its place (see :func:`_marker_profile`)."""
    marker = str(raw["marker"])
    return Unit(
        uid=marker,
        side=Side(raw["side"]),
        profile=_marker_profile(world),
        name=marker,
        x=float(raw["x"]),
        y=float(raw["y"]),
        facing=0.0,
        hidden=True,
        marker=marker,
    )


def _marker_profile(world: World) -> str:
    """The profile a hidden marker stands in with: a man on foot (it neither blocks nor
    obscures sight, as the side cannot know that it would). Only its place is ever used: a
    marker cannot be targeted, assaulted or spotted for a card."""
    found = _STAND_INS.get(world)
    if found is None:
        foot = sorted(key for key, p in world.profiles.items() if p.is_foot)
        found = _STAND_INS[world] = foot[0] if foot else min(world.profiles)
    return found


_STAND_INS: weakref.WeakKeyDictionary[World, str] = weakref.WeakKeyDictionary()


def _known_cards(view: Mapping[str, Any] | None, side: str) -> dict[str, Any] | None:
    """The card table as ``side`` knows it: its own hand, the public discard and chain; the
    enemy's hand and the deck are unknown (left empty)."""
    if not view:
        return None
    return {
        "deck": [],
        "hands": {side: list(view["hand"]), other_side(side): []},
        "discard": list(view["discard"]),
        "set_aside": {side: list(view.get("set_aside", []))},
        "chain": [dict(c) for c in view["chain"]],
    }


class SevenDaysScripted:
    """Scripted player for one side of a Seven Days battle (decides from its view only)."""

    name = "scripted"

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self.seed = seed  # this player is deterministic: the seed is kept for the record only
        self.last_reason = ""
        self._legal: Sequence[Action] = ()
        self._check = False

    # -- helpers ---------------------------------------------------------------------------
    def _allowed(self, action: Action) -> bool:
        """Whether the rules allow ``action``. The agent's picture has the enemy's hidden
        markers only as places, so while any are on the table a choice that the rules list
        exhaustively (shots, cards, reactions, assaults) is checked against the legal actions;
        moves are checked on the picture itself (the markers' places are known)."""
        if not self._check or action.kind in MOVE_KINDS:
            return True
        return action in self._legal

    @staticmethod
    def _shot_value(world: World, plan: ShotPlan, firer: Unit, target: Unit) -> tuple[float, float]:
        """(value, chance to knock the target out): dearer targets and removals count more."""
        odds = shot_odds(world, plan, firer, target)
        profile = world.profile(target)
        weight = 1.0 + profile.bp / 10.0
        morale = profile.morale or 5
        return (odds.out + 0.5 * odds.markers / morale) * weight, odds.out

    @staticmethod
    def _odds_bound(
        world: World,
        unit: Unit,
        target: Unit,
        kind: str,
        moved: bool = False,
        actions_left: int = 2,
        reaction: bool = False,
        target_moving: bool = False,
        facts: TargetFacts | None = None,
    ) -> tuple[float, float]:
        """The most a ``kind`` shot can give of (chance to put the target out, expected
        markers), from the facts that cost little (the two profiles, markers, range band, the
        target's cover and facing): the odds of the easiest plan sight and the infantry near
        the firer could still leave (:func:`~.firing.situation_plans`, whose odds are the most
        of any plan they make); ``inf`` for a shot planned another way (AA, mortar), ``-inf``
        for one no situation allows. Remembered per world. ``facts``: the target's
        :func:`~.firing.target_facts`, when the caller has them."""
        key = (
            unit.profile,
            unit.markers,
            target.profile,
            target.markers,
            target.hidden,
            kind,
            moved,
            actions_left >= 2,
            reaction,
            target_moving,
            situation_key_of(world, facts or target_facts(world, target), unit, kind),
        )
        cache = world.bound_cache
        found = cache.get(key)
        if found is None:
            plans = situation_plans(
                world,
                unit,
                target,
                kind,
                moved=moved,
                reaction=reaction,
                target_moving=target_moving,
                actions_left=actions_left,
                easiest=True,
            )
            if plans is None:
                found = (math.inf, math.inf)
            elif not plans:
                found = (-math.inf, -math.inf)
            else:
                odds = [shot_odds(world, plan, unit, target) for plan in plans]
                found = (max(o.out for o in odds), max(o.markers for o in odds))
            if len(cache) > 50_000:
                cache.clear()
            cache[key] = found
        return found

    @staticmethod
    def _shot_bound(
        world: World,
        unit: Unit,
        target: Unit,
        kind: str,
        moved: bool,
        actions_left: int,
        facts: TargetFacts | None = None,
    ) -> float:
        """The most :meth:`_shot_value` can give this shot (see :meth:`_odds_bound`)."""
        out, markers = SevenDaysScripted._odds_bound(
            world, unit, target, kind, moved, actions_left, facts=facts
        )
        if out == math.inf or out == -math.inf:
            return out
        profile = world.profiles[target.profile]
        return (out + 0.5 * markers / (profile.morale or 5)) * (1.0 + profile.bp / 10.0)

    def _best_shot(
        self, world: World, state: SevenDaysState, unit: Unit, moved: bool, actions_left: int
    ) -> tuple[float, Action | None, str]:
        """The unit's best shot by :meth:`_shot_value` (the first found among equals) that the
        rules allow, if it is worth ``SHOT_WORTH``; below that, maybe none (the caller does not
        take such a shot). Shots are planned in order of their bound (:meth:`_shot_bound`),
        and planning stops at the first whose bound cannot beat the best allowed shot found:
        a shot left unplanned could not have been chosen."""
        kinds = list(world.shot_kinds(unit))  # "gun" too for an AA shot at a helicopter
        if "atgm" in kinds and (moved or actions_left < 2):
            kinds.remove("atgm")
        enemies = [
            t for t in state.units.values() if t.status == "active" and t.side != unit.side
        ]  # Unit.alive, written out
        bound = self._shot_bound
        order = 0
        candidates: list[tuple[float, int, Unit, str]] = []
        # most sight lines are blocked by terrain (static): their shots are refused whatever
        # else, so neither bounded nor planned (a mortar's, planned another way, excepted)
        # (rule sevendays.los.blockers, the terrain part: static, see los.terrain_blocked_all)
        blocked_all = terrain_blocked_all(world, unit, enemies)
        mortar = "mortar" in world.profile(unit).traits
        step = len(kinds)
        for target, blocked in zip(enemies, blocked_all, strict=True):
            if blocked and not mortar:
                order += step  # no shot of any kind: skipped at once
                continue
            facts = None if blocked else target_facts(world, target)
            for kind in kinds:
                if blocked and not (mortar and kind == "gun"):
                    order += 1
                    continue
                most = bound(world, unit, target, kind, moved, actions_left, facts)
                if most >= SHOT_WORTH:
                    candidates.append((-most, order, target, kind))
                order += 1
        candidates.sort(key=_bound_order)
        # the best allowed shot so far, (value, order); a bound below SHOT_WORTH never counts
        best_value, best_order = SHOT_WORTH, math.inf
        shots: list[tuple[float, int, ShotPlan, Unit, float, str]] = []
        for neg_most, order, target, kind in candidates:
            most = -neg_most
            if most < best_value or (most == best_value and order > best_order):
                break  # neither this shot nor any after it can be chosen
            plan = plan_shot(
                world,
                state,
                unit,
                target,
                kind,
                moved=moved,
                actions_left=actions_left,
                known_only=True,
            )
            if not isinstance(plan, ShotPlan) or not plan.possible:
                continue
            value, p_out = self._shot_value(world, plan, unit, target)
            if value > 0.0:
                shots.append((value, order, plan, target, p_out, kind))
                if (value > best_value or (value == best_value and order < best_order)) and (
                    self._allowed(Action(SHOT_VERBS[kind], unit=unit.uid, target=target.uid))
                ):
                    best_value, best_order = value, order
        # best first; among equals the first found (as a strict ">" scan would keep it)
        shots.sort(key=lambda s: (-s[0], s[1]))
        for value, _, plan, target, p_out, kind in shots:
            action = Action(SHOT_VERBS[kind], unit=unit.uid, target=target.uid)
            if not self._allowed(action):
                continue
            why = (
                f"{unit.name} {plan.weapon_kind} at {target.name}: need {plan.need}+, "
                f"P kill {p_out:.0%} is the best shot available"
            )
            return value, action, why
        return 0.0, None, ""

    @staticmethod
    def _shaken(world: World, unit: Unit) -> bool:
        morale = world.profile(unit).morale or 99
        return unit.markers > 0 and unit.markers >= morale - 2

    # -- decisions -------------------------------------------------------------------------
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        world, state, markers = known_table(view)
        self._legal = legal
        self._check = bool(markers)
        phase = state.flow.phase
        if phase == "swap":
            return self._swap(world, state)
        if phase in ("card", "rescue"):  # rescue: Against All Odds on a unit about to go
            return self._respond(legal)
        if phase == "off_board":  # Divisional Artillery: stay off (listed first) or roll
            self.last_reason = "keep the off-board unit out of the artillery's way"
            return legal[0]
        if state.cards is not None and phase == "activate" and state.flow.initiative == self.side:
            play = self._card(world, state)
            if play is not None:
                return play
        if phase == "react":
            return self._react(world, state)
        if phase == "activate":
            return self._activate(world, state)
        return self._act(world, state)

    # -- Tactical Advantage cards -----------------------------------------------------------
    def _swap(self, world: World, state: SevenDaysState) -> Action:
        start = [
            a
            for a in cards.playable(world, state, self.side, only={"divisional_artillery"})
            if self._allowed(a)
        ]
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
        plays = [
            a for a in cards.playable(world, state, self.side, only=wanted) if self._allowed(a)
        ]
        if not plays:
            return None

        def value(action: Action) -> float:
            card_id, _, extra = (action.option or "").partition("|")
            if card_id == "reserves":
                own = world.scenario.spec.sides[self.side]  # type: ignore[index]
                try:
                    return side_orbat(own).profile(extra).points
                except KeyError:  # a line of a force file this picture does not hold
                    return 0.0
            targets = [action.target, extra if card_id == "precision_strike" else None]
            return sum(world.profile(state.units[t]).points for t in targets if t) + (
                50 if card_id == "against_all_odds" else 0
            )

        best = max(plays, key=value)
        self.last_reason = f"play {best.option} now: worth about {value(best):.0f} points"
        return best

    def _activate(self, world: World, state: SevenDaysState) -> Action:
        fresh = [
            u
            for u in state.alive(self.side)
            if u.tokens == 0 and (not u.hidden or self._may_show(state, u))
        ]
        fresh += SevenDays._reserves(world, state)
        if not fresh:
            self.last_reason = "every unit has acted; keeping tokens for reactions"
            return Action("pass")
        shaken = [u for u in fresh if u.markers > 0 and self._shaken(world, u)]
        if shaken:
            unit = max(shaken, key=lambda u: u.markers)
            self.last_reason = f"{unit.name} is shaken ({unit.markers} markers): rally it first"
            return Action("activate", unit=unit.uid)
        # dearest units first: they carry the best guns, and ranking every unit by its best
        # shot before each activation costs more than it gains (the shot itself is chosen
        # when the unit acts)
        profiles = world.profiles  # world.profile, written out
        unit = max(fresh, key=lambda u: (profiles[u.profile].points, u.uid))
        self.last_reason = f"activate {unit.name}: the strongest unit that has not acted"
        return Action("activate", unit=unit.uid)

    @staticmethod
    def _time_to_dismount(world: World, state: SevenDaysState, carrier: Unit) -> bool:
        """Dismount within 18" of the enemy (a hidden marker counts) or 8" of an objective."""
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

    def _act(self, world: World, state: SevenDaysState) -> Action:
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
                and self._allowed(Action("assault", unit=unit.uid, target=t.uid))
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
        if not act.moved and move_after_fire_refusal(act) is None:  # fired, no move declared
            move = self._best_move(world, state, unit)
            if move is not None:
                return move
        self.last_reason = f"{unit.name} has nothing better to do"
        return Action("end", unit=unit.uid)

    def _best_move(self, world: World, state: SevenDaysState, unit: Unit) -> Action | None:
        objectives = [o.at for o in world.scenario.spec.objectives]
        # the enemy as this side knows it: units in the open and hidden markers' places
        enemies = [
            u for u in state.units.values() if u.status == "active" and u.side != unit.side
        ]  # Unit.alive, written out
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
        places = _PLACES.get(world)
        if places is None:
            places = _PLACES[world] = {}
        place_score = self._place_scorer(world, places, vehicle, objectives, foes, keep_off, weight)

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
            # checked on the known picture: a hidden marker's place is known, and the rules
            # refuse a move only for the places of units and the terrain
            if check_move(world, state, unit, speed, point) is None:
                self.last_reason = (
                    f"{unit.name} {kind} to ({point[0]:.0f}, {point[1]:.0f}): "
                    "closer to the objectives and into cover where it can"
                )
                return Action(kind, unit=unit.uid, point=point)
        return None

    @staticmethod
    def _place_scorer(
        world: World,
        places: dict[tuple[float, float], tuple[float, bool]],
        vehicle: bool,
        objectives: list[tuple[float, float]],
        foes: list[tuple[float, float]],
        keep_off: float,
        objective_weight: float,
    ) -> Callable[[tuple[float, float]], float]:
        """How good a place is: near an objective, in cover, out of the enemy's reach (what
        does not depend on the enemy is remembered per place: ``places``)."""
        dist = math.dist
        radius = world.house.objective_radius
        areas_at = world.table.areas_at
        near_only = keep_off <= 0.0 and not vehicle
        # the enemy counts only when the nearest is nearer than ``reach``: only the foes
        # within ``reach`` (and a margin) in x of a place are measured (foes sorted by x, a
        # window found by bisection). A foe outside the window is farther than ``reach``
        # (its distance is at least its gap in x), so when the nearest in the window is
        # nearer than ``reach`` it is the nearest of all, and otherwise neither penalty
        # below applies, as when measuring every foe (issue 19: a wide table)
        reach = max(keep_off, 6.0 if vehicle else 0.0)
        by_x = sorted(foes)
        xs = [f[0] for f in by_x]
        window = reach + 1e-6

        def score_of(point: tuple[float, float]) -> float:
            place = places.get(point)
            if place is None:
                nearest_objective = min([dist(point, o) for o in objectives], default=0.0)
                cover = any(a.kind.cover for a in areas_at(*point))
                place = (nearest_objective, cover)
                if len(places) > 100_000:
                    places.clear()
                places[point] = place
            nearest_objective, cover = place
            score = 0.0
            if objectives:
                score -= nearest_objective * objective_weight
                if nearest_objective <= radius:
                    score += 4.0 * objective_weight
            if cover:
                score += 4.0
            if near_only:
                return score
            px = point[0]
            near = by_x[bisect_left(xs, px - window) : bisect_right(xs, px + window)]
            if not near:
                return score
            nearest = min(map(dist, repeat(point), near))
            if nearest < keep_off:
                score -= (keep_off - nearest) * 2
            if vehicle and nearest < 6:
                score -= 6 - nearest  # keep tanks out of LAW range
            return score

        return score_of

    def _react(self, world: World, state: SevenDaysState) -> Action:
        act = state.flow.activation
        assert act is not None
        activator = state.units[act.unit]
        best: tuple[float, Action | None, str] = (0.0, None, "")
        moving = state.flow.reacting_to_move
        # the likeliest reactors: ATGM carriers (long reach, +1 to react) and the nearest
        # units; weighing every unit on the table costs more than it gains
        shortlist = _shortlist(world, reactors(state, activator), activator)
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
            action = Action("react", unit=option.unit)
            if value > best[0] and self._allowed(action):
                why = (
                    f"react with {reactor.name}: {option.need}+ to react, "
                    f"P kill {odds.out:.0%} against {activator.name}"
                )
                best = (value, action, why)
        if best[1] is not None and best[0] >= REACTION_WORTH:
            self.last_reason = best[2]
            return best[1]
        self.last_reason = "no reaction worth a token"
        return Action("no_react")


def _shortlist(world: World, units: list[Unit], activator: Unit) -> list[Unit]:
    """The ``REACTION_SHORTLIST`` units nearest ``activator`` and every ATGM carrier among
    ``units``, nearest first (among equals, in the order of ``units``): what picking from
    :func:`~.reactions.nearest_first` gives, with the distances worked out once and sorted by
    index (a key the sort reads without a Python call per unit)."""
    ax, ay = activator.x, activator.y
    # the distance as nearest_first measures it, written the same way
    keys = [(u.x - ax) ** 2 + (u.y - ay) ** 2 for u in units]
    order = sorted(range(len(units)), key=keys.__getitem__)  # stable, as nearest_first
    profiles = world.profiles
    return [
        units[i]
        for rank, i in enumerate(order)
        if rank < REACTION_SHORTLIST or profiles[units[i].profile].atgm is not None
    ]


def _bound_order(candidate: tuple[float, int, Unit, str]) -> tuple[float, int]:
    """Candidates by bound, highest first, then in the order they were found."""
    return candidate[0], candidate[1]


def act_has_two(state: SevenDaysState) -> bool:
    return state.flow.activation is not None and state.flow.activation.actions_left == 2
