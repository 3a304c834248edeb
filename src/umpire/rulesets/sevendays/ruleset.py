"""The Seven Days ruleset: legal actions and applying them, over the rule modules."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, UmpireError
from umpire.core.events import Event, note
from umpire.core.lazy import Lazy
from umpire.core.rng import RandomStream
from umpire.core.ruleset import (
    Capabilities,
    ForcesCapability,
    Option,
    Outcome,
    RulesetBase,
    RulesetMeta,
    ScenarioInfo,
    capability,
)
from umpire.geometry.table import bearing, in_arc
from umpire.rulesets.sevendays import cards, platoon, special, transport
from umpire.rulesets.sevendays import scenario as scenarios
from umpire.rulesets.sevendays.close_combat import assault, assault_targets
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.config import house_rules
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.los import prefetch_between
from umpire.rulesets.sevendays.morale import battlegroup_check, house_fired
from umpire.rulesets.sevendays.mortars import is_mortar, lay_smoke, smoke_targets
from umpire.rulesets.sevendays.movement import check_move, do_move, fall_back_point, move_options
from umpire.rulesets.sevendays.odds import shot_odds
from umpire.rulesets.sevendays.orbat import UnitType
from umpire.rulesets.sevendays.reactions import (
    any_reaction,
    best_plan,
    reaction_options,
    reactors,
    roll_reaction,
)
from umpire.rulesets.sevendays.shots import (
    SHOT_VERBS,
    SHOT_WEAPONS,
    Refusal,
    ShotPlan,
    describe_modifiers,
    fire_arc,
)
from umpire.rulesets.sevendays.state import Flow, Phase, SevenDaysState, Side, Status, Unit, other
from umpire.rulesets.sevendays.turns import (
    activate,
    activation_need,
    end_activation,
    pass_initiative,
    start_turn,
)
from umpire.rulesets.sevendays.victory import check_break
from umpire.rulesets.sevendays.world import World

if TYPE_CHECKING:
    from umpire.core.catalog import RuleEntry

OPTIONS = {"house_rules", "forces", "cards"}  # what a game's options may set
MOVE_KINDS = {"move": "normal", "rapid": "rapid", "road": "road"}
SHOTS = frozenset(SHOT_WEAPONS)
ACTION_COST = {
    "move": 1,
    "turn": 1,
    "fire": 1,
    "rockets": 1,
    "rapid": 2,
    "road": 2,
    "atgm": 2,
    "morale": 2,
    "fall_back": 2,
    "exit": 1,
    "embark": 1,
    "disembark": 1,
    "smoke": 1,
    "assault": 2,
}


class HouseRulesFile:
    """The house-rules capability: a user's YAML override of house-rule numbers, validated."""

    def load(self, path: Path) -> dict[str, Any]:
        from umpire.rulesets.sevendays.config import load_house_rules_override

        return load_house_rules_override(path)


def _catalog() -> Mapping[str, RuleEntry]:
    from umpire.rulesets.sevendays.config import rule_catalog

    return rule_catalog()


def _rules_markdown() -> str:
    from umpire.rulesets.sevendays.config import rules_markdown

    return rules_markdown()


def status_line(state: SevenDaysState) -> str:
    """One line for a terminal: the turn and each side's command tokens."""
    flow = state.flow
    return f"turn {flow.turn}, tokens {flow.pools}"


class SevenDays(RulesetBase[SevenDaysState]):
    """Seven Days to the River Rhine."""

    capabilities = Capabilities(
        board=Lazy("umpire.rulesets.sevendays.board:BOARD"),
        odds=Lazy("umpire.rulesets.sevendays.odds_cli:ODDS"),
        scripted=Lazy("umpire.rulesets.sevendays.agent:SevenDaysScripted"),
        house_rules=HouseRulesFile(),
        forces=Lazy("umpire.importers.roster:FORCES"),
        options=(
            Option("cards", "Tactical Advantage cards on or off", type="bool"),
            Option(
                "force",
                "this side fields a force file (.toml, .ros, .rosz)",
                type="path",
                key="forces",
                per_side=True,
            ),
        ),
        catalog=_catalog,
        rules_markdown=_rules_markdown,
        render=None,
        status_line=status_line,
        side_colours={"nato": "#1f4e9c", "pact": "#b22222"},
        balance=Lazy("umpire.rulesets.sevendays.balance_cli:DUELS"),
    )

    meta = RulesetMeta(
        id="sevendays",
        version="0.3",
        title="Seven Days to the River Rhine",
        players=("nato", "pact"),
        chance="sampled",
        information="imperfect",  # hidden deployment and the cards in hand
    )

    def __init__(self) -> None:
        self._worlds: dict[tuple[str, str, str], World] = {}

    # -- set-up ----------------------------------------------------------------------------
    def scenario_ids(self) -> list[str]:
        return scenarios.scenario_ids()

    def world(self, state: SevenDaysState) -> World:
        """The static side of this game (kept on the state after the first look-up)."""
        found = state.world_memo
        if found is None:
            options = state.options
            found = state.world_memo = self.world_for(
                state.scenario, options.get("house_rules"), options.get("forces")
            )
        return found  # type: ignore[no-any-return]

    def world_for(
        self,
        scenario: str,
        override: Mapping[str, Any] | None,
        forces: Mapping[str, Any] | None = None,
    ) -> World:
        """The static side of a scenario with these house rules and deployed forces (cached)."""
        key = (scenario, json.dumps(override or {}, sort_keys=True), json.dumps(forces or {}))
        world = self._worlds.get(key)
        if world is None:
            house = house_rules(dict(override) if override else None)
            world = World(scenarios.load_scenario(scenario, house, forces), house)
            self._worlds[key] = world
        return world

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> SevenDaysState:
        unknown = sorted(set(options) - OPTIONS)
        if unknown:
            raise UmpireError(
                f"sevendays has no option {', '.join(map(repr, unknown))} "
                f"(options: {', '.join(sorted(OPTIONS))})"
            )
        if any(isinstance(v, str | Path) for v in (options.get("forces") or {}).values()):
            forces: ForcesCapability = capability(self, "forces")
            options = forces.prepare_options(scenario, options)
        world = self.world_for(scenario, options.get("house_rules"), options.get("forces"))
        spec = world.scenario.spec
        units: dict[str, Unit] = {}
        for side, side_spec in spec.sides.items():
            nation = scenarios.load_nation(side_spec.nation)
            for u in side_spec.units:
                profile = world.profiles[f"{nation.nation}/{u.profile}"]
                uid = f"{side}-{u.id}"
                units[uid] = Unit(
                    uid=uid,
                    side=Side(side),
                    profile=f"{nation.nation}/{u.profile}",
                    name=f"{profile.name} ({u.id})",
                    x=float(u.at[0]),
                    y=float(u.at[1]),
                    facing=side_spec.facing,
                    commander=u.commander,
                )
        state = SevenDaysState(
            scenario=scenario,
            seed=int(seed),
            rng=RandomStream(seed),
            flow=Flow(),
            units=units,
            options=dict(options),
        )
        state.setup_events = [
            note(
                "setup",
                f'{spec.name} on a {spec.table.width:g}"x{spec.table.height:g}" table, '
                f"{spec.turns} turns, seed {seed}",
                None,
            )
        ]
        state.setup_events += special.set_up(world, state)
        for side, side_spec in spec.sides.items():
            for u in side_spec.units:
                if u.embarked_in is not None:
                    rider = units[f"{side}-{u.id}"]
                    state.setup_events += transport.embark(
                        state, rider, units[f"{side}-{u.embarked_in}"]
                    )
        if options.get("cards", spec.cards):
            state.setup_events += cards.deal(state)
            state.flow.phase = Phase.SWAP  # sevendays.cards.deal: exchanges before turn 1
            state.flow.to_act = Side.NATO
        else:
            state.setup_events += start_turn(world, state)
        return state

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        """The scenario's title and the first sentence of its description."""
        spec = self.world_for(scenario, None).scenario.spec
        text = " ".join(spec.description.split())
        briefing = text.split(". ")[0].rstrip(".") + "." if text else ""
        return ScenarioInfo(scenario, spec.name, briefing)

    def setup_events(self, state: SevenDaysState) -> list[Event]:
        """What happened at set-up (deployment, hidden markers, the deal), each event with
        its visibility."""
        return list(state.setup_events)

    # -- queries ---------------------------------------------------------------------------
    def to_act(self, state: SevenDaysState) -> str | None:
        return state.flow.to_act

    def outcome(self, state: SevenDaysState) -> Outcome | None:
        raw = state.flow.outcome
        if raw is None:
            return None
        details = {k: v for k, v in raw.items() if k not in ("winner", "how")}
        return Outcome(raw["winner"], raw["how"], details)

    def legal_actions(self, state: SevenDaysState) -> list[Action]:
        flow = state.flow
        world = self.world(state)
        if flow.phase == "over":
            return []
        side = flow.to_act or flow.initiative
        if flow.phase == "swap":
            swaps = [Action("swap", option=o) for o in cards.swap_options(state, side)]
            return cards.playable(world, state, side) + swaps
        if flow.phase == "card":
            return cards.responses(world, state, side) + [Action("no_response")]
        return self._phase_actions(world, state) + cards.playable(world, state, side)

    def _phase_actions(self, world: World, state: SevenDaysState) -> list[Action]:
        flow = state.flow
        if flow.phase == "activate":
            own = state.alive(flow.initiative)
            acts = [Action("activate", unit=u.uid) for u in own]
            acts += [
                Action("activate", unit=u.uid, option="platoon")
                for u in own
                if platoon.can_lead(world, state, u)
            ]
            acts += [Action("activate", unit=u.uid) for u in self._reserves(world, state)]
            return acts + [Action("pass")]
        if flow.phase == "react":
            activator = state.units[self._active_uid(state)]
            opts = reaction_options(world, state, activator, flow.reacting_to_move)
            return [o.action() for o in opts] + [Action("no_react")]
        return self._act_actions(world, state)

    @staticmethod
    def _may_embark(world: World, state: SevenDaysState, unit: Unit) -> bool:
        """Rule sevendays.transport.combos: infantry may move or fire and embark; a support
        team may fire and embark, but not move and embark."""
        act = state.flow.activation
        if act is None or not world.is_foot(unit):
            return False
        profile = world.profile(unit)
        return not (profile.type is UnitType.SUPPORT and act.moved)

    @staticmethod
    def _reserves(world: World, state: SevenDaysState) -> list[Unit]:
        """Reserve units of the side with the initiative that may come on now."""
        if not world.has_reserves or state.flow.turn < world.scenario.spec.reserves_from:
            return []
        side = state.flow.initiative
        return [u for u in state.units.values() if u.side == side and u.status == "reserve"]

    def _active_uid(self, state: SevenDaysState) -> str:
        assert state.flow.activation is not None
        return state.flow.activation.unit

    def _act_actions(self, world: World, state: SevenDaysState) -> list[Action]:
        act = state.flow.activation
        assert act is not None
        unit = state.units[act.unit]
        out: list[Action] = []
        if not act.fired:
            enemies = [t for t in state.units.values() if t.alive and t.side != unit.side]
            prefetch_between(world, [unit], enemies)
            kinds = world.shot_kinds(unit)
            for target in enemies:
                for kind in kinds:
                    plan = self._plan(world, state, unit, target, kind)
                    if isinstance(plan, ShotPlan) and plan.possible:
                        out.append(Action(SHOT_VERBS[kind], unit=unit.uid, target=target.uid))
        if not act.moved:
            out += [
                Action("move", unit=unit.uid, point=p)
                for p in move_options(world, state, unit, "normal")
            ]
            if fire_arc(world.profile(unit)) < 360:
                for enemy in self._nearest_enemies(state, unit, 3):
                    if not in_arc(unit.pos, unit.facing, fire_arc(world.profile(unit)), enemy.pos):
                        out.append(Action("turn", unit=unit.uid, target=enemy.uid))
        if act.actions_left == 2:
            out += [
                Action(kind, unit=unit.uid, point=p)
                for kind, speed in (("rapid", "rapid"), ("road", "road"))
                for p in move_options(world, state, unit, speed)
            ]
            if any(u.markers for u in state.alive(unit.side)):
                out.append(Action("morale", unit=unit.uid))
            if unit.markers and fall_back_point(world, state, unit) is not None:
                out.append(Action("fall_back", unit=unit.uid))
        if act.actions_left == 2 and not act.moved and not act.fired:
            out += [
                Action("assault", unit=unit.uid, target=t.uid)
                for t in assault_targets(world, state, unit)
            ]
        if not act.fired and is_mortar(world.profile(unit)):
            out += [
                Action("smoke", unit=unit.uid, target=t.uid)
                for t in smoke_targets(world, state, unit)
            ]
        if special.can_exit(world, unit):
            out.append(Action("exit", unit=unit.uid))
        if self._may_embark(world, state, unit):
            out += [
                Action("embark", unit=unit.uid, target=c.uid)
                for c in transport.carriers_near(world, state, unit)
            ]
        out += [
            Action("disembark", unit=unit.uid, target=r.uid)
            for r in transport.passengers(state, unit)
        ]
        out.append(Action("end", unit=unit.uid))
        if act.platoon:  # sevendays.activation.platoon: a platoon moves and shoots only
            out = [a for a in out if a.kind in platoon.ACTIONS]
        return out

    @staticmethod
    def _nearest_enemies(state: SevenDaysState, unit: Unit, n: int) -> list[Unit]:
        enemies = [u for u in state.units.values() if u.alive and u.side != unit.side]
        enemies.sort(key=lambda e: math.dist(e.pos, unit.pos))
        return enemies[:n]

    def _plan(
        self, world: World, state: SevenDaysState, unit: Unit, target: Unit, kind: str
    ) -> ShotPlan | Refusal:
        act = state.flow.activation
        assert act is not None
        return plan_shot(
            world,
            state,
            unit,
            target,
            kind,
            moved=self.counts_moved(world, state, unit),
            actions_left=act.actions_left,
            known_only=True,  # the menu, its check and its odds: what the side knows
        )

    @staticmethod
    def counts_moved(world: World, state: SevenDaysState, unit: Unit) -> bool:
        """Moved this activation, or (sevendays.scenario.attacker_moved) an attacker on
        turn 1 of a scenario whose attackers all count as having moved."""
        act = state.flow.activation
        spec = world.scenario.spec
        if act is not None and act.moved:
            return True
        return spec.attacker_moved and state.flow.turn == 1 and unit.side == spec.attacker

    # -- applying --------------------------------------------------------------------------
    def apply(self, state: SevenDaysState, action: Action) -> list[Event]:
        world = self.world(state)
        flow = state.flow
        if flow.phase == "over":
            raise IllegalActionError("the game is over", "sevendays.victory.break_point")
        if action.kind in ("card", "no_response") or flow.phase in ("swap", "card"):
            events = self._apply_cards(world, state, action)
        else:
            handler = {
                "activate": self._apply_activate,
                "act": self._apply_act,
                "react": self._apply_react,
            }[flow.phase]
            events = handler(world, state, action)
        state.actions_played += 1
        return events

    def _apply_cards(self, world: World, state: SevenDaysState, action: Action) -> list[Event]:
        """Swaps before turn 1, card plays and responses (sevendays.cards.*)."""
        flow = state.flow
        side = flow.to_act or flow.initiative
        if state.cards is None:
            raise IllegalActionError("no cards are in play in this game", "sevendays.cards.play")
        if flow.phase == "swap" and action.kind == "swap":
            events = cards.swap(state, side, action.option or "")
            if side == "nato":
                flow.to_act = Side.PACT
                return events
            return events + start_turn(world, state)
        if action.kind == "no_response" and flow.phase == "card":
            events = cards.decline(world, state, side)
        elif action.kind == "card":
            events = cards.play(world, state, side, action)
        else:
            wanted = "swap cards" if flow.phase == "swap" else "answer the card or decline"
            raise IllegalActionError(
                f"{side.upper()} must {wanted}, not {action.kind!r}", "sevendays.cards.play"
            )
        if flow.phase == "card":  # a response window is open
            return events
        return events + self._after_cards(world, state)

    def _after_cards(self, world: World, state: SevenDaysState) -> list[Event]:
        """Back to the game after a chain: losses may have broken a side or the active unit."""
        flow = state.flow
        events = special.reveal_spotted(world, state) + check_break(world, state)
        if flow.outcome is not None or flow.phase in ("swap", "activate"):
            return events
        act = flow.activation
        assert act is not None
        unit = state.units[act.unit]
        if flow.phase == "react" and flow.pending is not None and not unit.alive:
            flow.pending = None
        if not unit.alive:
            return events + end_activation(world, state)
        return events

    def _apply_activate(self, world: World, state: SevenDaysState, action: Action) -> list[Event]:
        flow = state.flow
        if action.kind == "pass":
            return pass_initiative(world, state)
        if action.kind != "activate":
            raise IllegalActionError(
                f"{flow.initiative.upper()} must activate a unit or pass, not {action.kind!r}",
                "sevendays.activation.token",
            )
        unit = state.units.get(action.unit or "")
        events: list[Event] = []
        if unit is not None and unit.status == "reserve" and unit.side == flow.initiative:
            if unit not in self._reserves(world, state):
                raise IllegalActionError(
                    f"reserves may come on from turn {world.scenario.spec.reserves_from}",
                    "sevendays.scenario.reserves",
                )
            events += special.enter_reserve(state, unit)
        if unit is None or unit.side != flow.initiative or not unit.alive:
            raise IllegalActionError(
                f"{action.unit!r} is not a {flow.initiative.upper()} unit on the table",
                "sevendays.activation.token",
            )
        events += special.reveal(state, unit, "it activates")
        members: list[Unit] = []
        if action.option == "platoon":
            members = platoon.platoon_of(world, state, unit)
            if not members:
                raise IllegalActionError(
                    f"{unit.name} has no unit of its type within "
                    f'{world.house.platoon.reach:g}" to lead in a platoon action',
                    platoon.RULE,
                )
        elif action.option is not None:
            raise IllegalActionError(
                f"unknown activation option {action.option!r} (only 'platoon')",
                "sevendays.activation.token",
            )
        return events + activate(world, state, unit, members)

    def _apply_act(self, world: World, state: SevenDaysState, action: Action) -> list[Event]:
        flow = state.flow
        act = flow.activation
        assert act is not None
        unit = state.units[act.unit]
        if action.unit not in (None, unit.uid):
            raise IllegalActionError(
                f"{unit.name} is the active unit, not {action.unit}", "sevendays.activation.actions"
            )
        kind = action.kind
        if kind == "end":
            return [note("end", f"{unit.name} ends its activation", None)] + end_activation(
                world, state
            )
        cost = ACTION_COST.get(kind)
        if cost is None:
            raise IllegalActionError(f"unknown action {kind!r}", "sevendays.activation.actions")
        if cost > act.actions_left:
            raise IllegalActionError(
                f"{kind} needs {cost} actions, {act.actions_left} left",
                "sevendays.activation.actions",
            )
        self._validate_act(world, state, unit, action)
        first = not act.window_used
        if (kind in SHOTS or kind == "morale") and first:
            act.window_used = True
            if any_reaction(world, state, unit, False):
                flow.pending = action
                flow.reacting_to_move = False
                flow.phase = Phase.REACT
                flow.to_act = other(unit.side)
                target = state.units[action.target] if action.target else None
                what = f"{kind} at {target.name}" if target else kind
                return [note("declare", f"{unit.name} declares {what}", None)]
        events = self._resolve_act(world, state, unit, action)
        if kind in ("move", "rapid", "road", "turn", "fall_back") and first and unit.alive:
            act.window_used = True
            if any_reaction(world, state, unit, kind != "turn"):
                flow.reacting_to_move = kind != "turn"
                flow.phase = Phase.REACT
                flow.to_act = other(unit.side)
                return events
        return events + self._after_action(world, state)

    def _validate_act(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> None:
        act = state.flow.activation
        assert act is not None
        kind = action.kind
        if act.platoon and kind not in platoon.ACTIONS:
            raise IllegalActionError(
                f"a platoon action moves and shoots only, not {kind!r}", platoon.RULE
            )
        if (kind in MOVE_KINDS or kind == "turn") and act.moved:
            raise IllegalActionError(
                f"{unit.name} has already moved in this activation",
                "sevendays.activation.actions",
            )
        if kind in MOVE_KINDS:
            if action.point is None:
                raise IllegalActionError(f"{kind} needs a point", "sevendays.move.normal")
            refusal = check_move(world, state, unit, MOVE_KINDS[kind], action.point)
            if refusal:
                raise IllegalActionError(refusal.reason, refusal.rule)
        elif kind == "turn":
            if state.units.get(action.target or "") is None:
                raise IllegalActionError("turn needs a unit to face", "sevendays.move.turret")
        elif kind in SHOTS:
            if act.fired:
                raise IllegalActionError(
                    f"{unit.name} has already fired in this activation", "sevendays.fire.one_shot"
                )
            target = state.units.get(action.target or "")
            if target is None:
                raise IllegalActionError(f"no unit {action.target!r}", "sevendays.fire.base")
            plan = self._plan(world, state, unit, target, SHOT_WEAPONS[kind])
            if isinstance(plan, Refusal):
                raise IllegalActionError(plan.reason, plan.rule)
        elif kind == "assault":
            target = state.units.get(action.target or "")
            if act.moved or act.fired or target not in assault_targets(world, state, unit):
                raise IllegalActionError(
                    f"{unit.name} cannot assault {action.target!r}: infantry or support that "
                    "has not acted, with an enemy in reach of a normal move",
                    "sevendays.close_combat",
                )
        elif kind == "smoke":
            target = state.units.get(action.target or "")
            if (
                act.fired
                or not is_mortar(world.profile(unit))
                or target is None
                or target not in smoke_targets(world, state, unit)
            ):
                raise IllegalActionError(
                    f"{unit.name} cannot lay smoke there (a mortar that has not fired, on an "
                    'enemy a friend sees beyond 12")',
                    "sevendays.smoke",
                )
        elif kind == "embark":
            carrier = state.units.get(action.target or "")
            if (
                carrier is None
                or not self._may_embark(world, state, unit)
                or carrier not in transport.carriers_near(world, state, unit)
            ):
                raise IllegalActionError(
                    f'{unit.name} cannot embark there (a friendly transport with room within 2")',
                    "sevendays.transport.embark",
                )
        elif kind == "disembark":
            rider = state.units.get(action.target or "")
            if rider is None or rider.carried_by != unit.uid:
                raise IllegalActionError(
                    f"{unit.name} carries no {action.target!r}", "sevendays.transport.disembark"
                )
        elif kind == "exit" and not special.can_exit(world, unit):
            raise IllegalActionError(
                f"{unit.name} is not at the edge it must break out by",
                "sevendays.victory.breakthrough",
            )
        elif kind == "fall_back" and (
            not unit.markers or fall_back_point(world, state, unit) is None
        ):
            raise IllegalActionError(
                f"{unit.name} cannot fall back (no markers or no room)",
                "sevendays.morale.fall_back",
            )

    def _resolve_act(
        self, world: World, state: SevenDaysState, unit: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        kind = action.kind
        act.actions_left -= ACTION_COST[kind]
        members = [state.units[u] for u in act.platoon]
        if kind in MOVE_KINDS:
            act.moved = True
            assert action.point is not None
            start = unit.pos
            events = do_move(world, state, unit, MOVE_KINDS[kind], action.point)
            if members:
                events += platoon.follow_move(
                    world, state, members, MOVE_KINDS[kind], start, unit.pos
                )
            return events
        if kind == "turn":
            act.moved = True
            target = state.units[action.target or ""]
            unit.facing = round(bearing(unit.pos, target.pos), 1)
            state.touch()
            events = [
                note("turn", f"{unit.name} turns to face {target.name}", "sevendays.move.turret")
            ]
            return events + (platoon.follow_turn(state, members, unit.facing) if members else [])
        if kind in SHOTS:
            act.fired = True
            target = state.units[action.target or ""]
            plan = plan_shot(
                world,
                state,
                unit,
                target,
                SHOT_WEAPONS[kind],
                moved=self.counts_moved(world, state, unit),
                actions_left=2 if kind == "atgm" else act.actions_left + 1,
            )
            if isinstance(plan, Refusal):
                return [note("cancelled", f"{unit.name}'s shot is lost: {plan.reason}", plan.rule)]
            events = resolve_shot(world, state, plan)
            if members:
                moved = self.counts_moved(world, state, unit)
                events += platoon.follow_fire(
                    world, state, members, target, SHOT_WEAPONS[kind], moved
                )
            return events
        if kind == "morale":
            return battlegroup_check(world, state, unit)
        if kind == "assault":
            act.moved = act.fired = True
            return assault(world, state, unit, state.units[action.target or ""])
        if kind == "smoke":
            act.fired = True
            return lay_smoke(world, state, unit, state.units[action.target or ""].pos)
        if kind == "embark":
            act.actions_left = 0  # the passenger is off the table: its activation is over
            return transport.embark(state, unit, state.units[action.target or ""])
        if kind == "disembark":
            return transport.disembark(world, state, state.units[action.target or ""])
        if kind == "exit":
            unit.status = Status.EXITED
            state.touch()
            act.actions_left = 0
            return [
                note(
                    "exited",
                    f"{unit.name} breaks through and leaves the table",
                    "sevendays.victory.breakthrough",
                    unit=unit.uid,
                )
            ]
        if kind == "fall_back":
            act.moved = True
            point = fall_back_point(world, state, unit)
            if point is None:
                return [note("cancelled", f"{unit.name} has no room to fall back", None)]
            house_fired(state, "sevendays.morale.fall_back")
            events = do_move(world, state, unit, "rapid", point)
            removed = min(unit.markers, world.house.fall_back_markers)
            unit.markers -= removed
            events.append(
                note(
                    "rally",
                    f"{unit.name} falls back and sheds {removed} marker(s)",
                    "sevendays.morale.fall_back",
                    unit=unit.uid,
                )
            )
            return events
        raise IllegalActionError(f"unknown action {kind!r}", "sevendays.activation.actions")

    def _after_action(self, world: World, state: SevenDaysState) -> list[Event]:
        flow = state.flow
        act = flow.activation
        assert act is not None
        events = special.reveal_spotted(world, state) + check_break(world, state)
        if flow.outcome is not None:
            return events
        unit = state.units[act.unit]
        if not unit.alive or act.actions_left <= 0:
            return events + end_activation(world, state)
        flow.phase = Phase.ACT
        flow.to_act = unit.side
        return events

    def _apply_react(self, world: World, state: SevenDaysState, action: Action) -> list[Event]:
        flow = state.flow
        act = flow.activation
        assert act is not None
        activator = state.units[act.unit]
        events: list[Event] = []
        if action.kind == "react":
            reactor = state.units.get(action.unit or "")
            option = None
            if reactor is not None and reactor in reactors(state, activator):
                point = tuple(action.point) if action.point is not None else None
                option = next(
                    (
                        o
                        for o in reaction_options(world, state, activator, flow.reacting_to_move)
                        if o.unit == reactor.uid and o.point == point
                    ),
                    None,
                )
            if reactor is None or option is None:
                raise IllegalActionError(
                    f"{action.unit!r} cannot react to {activator.name} now",
                    "sevendays.reaction.window",
                )
            events = special.reveal(state, reactor, "it reacts")
            ok, rolled = roll_reaction(world, state, reactor, option)
            events += rolled
            if ok and option.plan is not None:
                # rolled from the whole truth (hidden markers count), as the umpire knows it
                truth = best_plan(
                    world,
                    state,
                    reactor,
                    activator,
                    reaction=True,
                    target_moving=flow.reacting_to_move,
                )
                if isinstance(truth, ShotPlan):
                    events += resolve_shot(world, state, truth)
            elif ok and option.point is not None:  # sevendays.reaction.recce_spotting
                house_fired(state, "sevendays.reaction.recce_spotting")
                events += do_move(world, state, reactor, "normal", option.point)
        elif action.kind != "no_react":
            raise IllegalActionError(
                f"{other(activator.side).upper()} may react or decline, not {action.kind!r}",
                "sevendays.reaction.window",
            )
        else:
            events.append(note("no_react", f"{other(activator.side).upper()} does not react", None))
        events += check_break(world, state)
        if flow.outcome is not None:
            return events
        flow.phase = Phase.ACT
        flow.to_act = activator.side
        pending, flow.pending = flow.pending, None
        flow.reacting_to_move = False
        if pending is not None:
            if activator.alive:
                events += self._resolve_act(world, state, activator, pending)
            else:
                act.actions_left = 0
        return events + self._after_action(world, state)

    # -- views -----------------------------------------------------------------------------
    def summary(self, state: SevenDaysState) -> dict[str, Any]:
        """Losses per side (units, points, BP), break points and house rules that fired."""
        world = self.world(state)
        losses: dict[str, Any] = {}
        for side in self.meta.players:
            lost = [
                u
                for u in state.units.values()
                if u.side == side and u.status in ("destroyed", "removed")
            ]
            losses[side] = {
                "units": len(lost),
                "of_units": sum(1 for u in state.units.values() if u.side == side),
                "points": sum(world.profile(u).points for u in lost),
                "bp": world.lost_bp(state, side),
                "break_point": world.break_point(state, side),
                "total_bp": world.total_bp(state, side),
                "destroyed": sorted(u.name for u in lost if u.status == "destroyed"),
                "removed": sorted(u.name for u in lost if u.status == "removed"),
            }
        return {
            "turns": state.flow.turn,
            "losses": losses,
            "house_rules_fired": dict(sorted(state.house_fired.items())),
        }

    def observation(self, state: SevenDaysState, player: str) -> dict[str, Any]:
        """Everything on the table, without the random stream (no peeking at future dice)."""
        data = state.to_dict()
        data.pop("rng")
        data.pop("seed")  # the seed would let a planner replay the dice to come
        # deployed force files list every unit, hidden ones too: keep only the house rules
        data["options"] = {k: v for k, v in data["options"].items() if k == "house_rules"}
        data["cards"] = cards.view(state.cards, player)
        data = special.view_for(data, player)
        data["player"] = player
        return data

    def state_to_dict(self, state: SevenDaysState) -> dict[str, Any]:
        return state.to_dict()

    def resample(self, state: SevenDaysState, player: str, rng: random.Random) -> SevenDaysState:
        """A full state consistent with what ``player`` knows (determinisation for search).

        The enemy's hidden units are dealt afresh among the hidden markers ``player`` sees
        (each marker keeps its place, a different unit may stand under it; transports with
        passengers and their riders keep theirs, as the riders' places tell them apart), the
        enemy's hand, its set-aside cards and the deck are re-drawn from the cards ``player``
        has not seen, and the dice to come are re-seeded. ``player``'s observation of the
        result is identical to its observation of ``state``."""
        twin = state.clone()
        enemy = other(player)
        carriers = {u.carried_by for u in twin.units.values() if u.carried_by}
        hidden = [
            u
            for u in twin.units.values()
            if u.hidden and u.side == enemy and u.alive and u.uid not in carriers
        ]
        slots = [(u.marker, u.x, u.y, u.facing, u.dug_in) for u in hidden]
        rng.shuffle(slots)
        for unit, (marker, x, y, facing, dug_in) in zip(hidden, slots, strict=True):
            unit.marker, unit.x, unit.y, unit.facing, unit.dug_in = marker, x, y, facing, dug_in
        if twin.cards is not None:
            table = twin.cards
            aside = table.setdefault("set_aside", {})
            unseen = list(table["deck"]) + list(table["hands"].get(enemy, []))
            unseen += list(aside.get(enemy, []))
            rng.shuffle(unseen)
            sizes = (len(table["hands"].get(enemy, [])), len(aside.get(enemy, [])))
            table["hands"][enemy] = unseen[: sizes[0]]
            if enemy in aside:
                aside[enemy] = unseen[sizes[0] : sizes[0] + sizes[1]]
            table["deck"] = unseen[sizes[0] + sizes[1] :]
        twin.rng = RandomStream(rng.randrange(2**62))
        twin.world_memo = state.world_memo
        twin.reaction_memo = None
        twin.touch()
        return twin

    def state_from_dict(self, data: Mapping[str, Any]) -> SevenDaysState:
        return SevenDaysState.from_dict(dict(data))

    def clone(self, state: SevenDaysState) -> SevenDaysState:
        return state.clone()

    def describe(self, state: SevenDaysState, action: Action) -> str:
        """A line for menus and logs, with the odds of a shot."""
        units = state.units
        name = units[action.unit].name if action.unit in units else ""
        kind = action.kind
        if kind == "activate":
            unit = units[action.unit or ""]
            if action.option == "platoon":
                members = platoon.platoon_of(self.world(state), state, unit)
                need = activation_need(platoon.worst([unit, *members]))
                names = ", ".join(m.name for m in members)
                test = f", test {need}+" if need is not None else ""
                return f"activate {name} as a platoon with {names} [one token{test}]"
            need = activation_need(unit)
            test = f", test {need}+" if need is not None else ""
            return f"activate {name} [{unit.markers} markers{test}]"
        if kind in ("pass", "no_react"):
            return {"pass": "pass the initiative", "no_react": "do not react"}[kind]
        if kind == "react":
            world = self.world(state)
            activator = units[self._active_uid(state)]
            for o in reaction_options(world, state, activator, state.flow.reacting_to_move):
                if o.unit == action.unit and o.plan is None and o.point is not None:
                    if action.point is not None and o.point == tuple(action.point):
                        x, y = o.point
                        return (
                            f"react with {name}: needs {o.need}+ on d6, then moves to "
                            f"({x:.1f}, {y:.1f}) (a recce unit sees the enemy)"
                        )
                elif o.unit == action.unit and o.plan is not None and action.point is None:
                    odds = shot_odds(world, o.plan, units[o.unit], activator)
                    return (
                        f"react with {name}: needs {o.need}+ on d6, then {o.plan.weapon_kind} "
                        f"needs {o.plan.need}+ (P hit {odds.hit:.0%}, P kill {odds.out:.0%})"
                    )
            return f"react with {name}"
        if kind in MOVE_KINDS and action.point:
            d = math.dist(units[action.unit or ""].pos, action.point)
            return f'{kind} {name} {d:.1f}" to ({action.point[0]:.1f}, {action.point[1]:.1f})'
        if kind in SHOTS:
            world = self.world(state)
            target = units[action.target or ""]
            plan = self._plan(world, state, units[action.unit or ""], target, SHOT_WEAPONS[kind])
            if isinstance(plan, Refusal):
                return f"fire at {target.name} (not possible: {plan.reason})"
            odds = shot_odds(world, plan, units[plan.firer], target)
            return (
                f'{name} fires {plan.weapon_kind} at {target.name} {plan.range:.0f}": '
                f"{plan.dice}d10 need {plan.need}+ [{describe_modifiers(plan)}] "
                f"P hit {odds.hit:.0%}, P kill {odds.out:.0%}"
            )
        if kind == "turn":
            return f"{name} turns to face {units[action.target or ''].name}"
        labels = {
            "morale": "battlegroup morale check (both actions)",
            "fall_back": "fall back (both actions, sheds a marker)",
            "end": "end activation",
        }
        return f"{name}: {labels.get(kind, kind)}"
