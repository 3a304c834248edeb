"""The Portable Wargame ruleset: legal actions and applying them, over the rule modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.lazy import Lazy
from umpire.core.rng import RandomStream
from umpire.core.ruleset import Capabilities, Outcome, RulesetBase, RulesetMeta, ScenarioInfo
from umpire.geometry.squaregrid import FACINGS, Square, distance, label
from umpire.rulesets.portable import air, engineers, transport
from umpire.rulesets.portable import scenario as scenarios
from umpire.rulesets.portable.activation import can_activate
from umpire.rulesets.portable.artillery import declare
from umpire.rulesets.portable.close_combat import (
    assault_targets,
    cannot_assault,
    resolve_close_combat,
)
from umpire.rulesets.portable.common import Refusal, cargo_of, kind, mods_text, total
from umpire.rulesets.portable.config import HOUSE_RULES, rule_catalog, rules_markdown
from umpire.rulesets.portable.enums import Side, Status
from umpire.rulesets.portable.exhaustion import (
    exhausted,
    exhaustion_point,
    initial_strength,
    lost_sp,
)
from umpire.rulesets.portable.fire import FirePlan, fire_options, hit_on, plan_fire, resolve_fire
from umpire.rulesets.portable.hits import retreat, retreat_squares, stand
from umpire.rulesets.portable.movement import (
    cannot_move,
    do_move,
    facing_options,
    move_refusal,
    reachable,
)
from umpire.rulesets.portable.render import draw, status_line
from umpire.rulesets.portable.state import SIDES, Activation, Flow, PortableState, Unit
from umpire.rulesets.portable.turns import artillery_choices, proceed, start_turn
from umpire.rulesets.portable.units import ARTILLERY
from umpire.rulesets.portable.victory import update_holders
from umpire.rulesets.portable.world import World, load_world, world_of

WORK = tuple(engineers.TASK_RULES)


def _square(point: tuple[float, float] | None) -> Square | None:
    if point is None:
        return None
    return (int(round(point[0])), int(round(point[1])))


class Portable(RulesetBase[PortableState]):
    """The Portable Wargame, squared version (modern), with its optional rules as switches."""

    meta = RulesetMeta(
        id="portable",
        version="0.1",
        title="The Portable Wargame (squared version)",
        players=SIDES,
        chance="sampled",
        information="perfect",
    )
    capabilities = Capabilities(
        board=Lazy("umpire.rulesets.portable.board:BOARD"),
        odds=Lazy("umpire.rulesets.portable.odds_cli:ODDS"),
        scripted=Lazy("umpire.rulesets.portable.agent:PortableScripted"),
        house_rules=HOUSE_RULES,
        catalog=rule_catalog,
        rules_markdown=rules_markdown,
        render=draw,
        status_line=status_line,
        side_colours={"blue": "#1f4e9c", "red": "#b22222"},
    )

    # -- set-up ----------------------------------------------------------------------------
    def scenario_ids(self) -> list[str]:
        return scenarios.scenario_ids()

    def world(self, state: PortableState) -> World:
        """The static side of this game: board, tables, house rules (public data)."""
        return world_of(state)

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        """Title and one-line briefing of a scenario."""
        spec = load_world(scenario, None).spec
        briefing = " ".join(spec.description.split())
        first = briefing.split(". ")[0].rstrip(".")
        return ScenarioInfo(scenario, spec.name, first + "." if first else "")

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> PortableState:
        world = load_world(scenario, options.get("house_rules"))
        spec = world.spec
        types = world.types
        units: dict[str, Unit] = {}
        for side_name, side_spec in spec.sides.items():
            side = Side(side_name)
            for u in side_spec.units:
                uid = f"{side}-{u.id}"
                facing = u.facing or side_spec.facing
                if u.type in types.aircraft:
                    plane = types.aircraft[u.type]
                    units[uid] = Unit(
                        uid=uid,
                        side=side,
                        type=u.type,
                        name=f"{side[0].upper()}-{u.id} ({plane.name})",
                        quality=u.quality,
                        sp=u.sp or plane.sp,
                        max_sp=u.sp or plane.sp,
                        x=u.at[0],
                        y=u.at[1],
                        facing=facing,
                        status=Status.WAITING,
                        air=True,
                        arrives=u.arrives,
                        bombs=world.house.bomb_loads if plane.ground_attack == "bombs" else 0,
                    )
                    continue
                ground = types.ground[u.type]
                gas = world.house.gas_shells_per_gun if world.switches.get("gas") else 0
                units[uid] = Unit(
                    uid=uid,
                    side=side,
                    type=u.type,
                    name=f"{side[0].upper()}-{u.id} ({ground.name})",
                    quality=u.quality,
                    sp=u.sp or ground.sp,
                    max_sp=u.sp or ground.sp,
                    x=u.at[0],
                    y=u.at[1],
                    facing=facing,
                    artillery=u.artillery,
                    gas_shells=gas if ground.kind in ARTILLERY else 0,
                )
            for u in side_spec.units:
                if u.carrying:
                    units[f"{side}-{u.carrying}"].carried_by = f"{side}-{u.id}"
        state = PortableState(
            scenario=scenario,
            seed=int(seed),
            rng=RandomStream(seed),
            flow=Flow(),
            units=units,
            minefields=[list(m) for m in spec.minefields],
            wire=[list(w) for w in spec.wire],
            options=dict(options),
        )
        state.world_memo = world
        state.initial_sp = {s: initial_strength(state, s) for s in SIDES}
        on = [k for k, v in sorted(world.switches.items()) if v]
        state.setup_events = [
            note(
                "setup",
                f"{spec.name} on a {spec.grid.width}x{spec.grid.height} grid, {spec.turns} turns, "
                f"seed {seed}; optional rules: {', '.join(on) or 'none'}; exhaustion points "
                + ", ".join(
                    f"{s} {exhaustion_point(world, state.initial_sp[s])} of "
                    f"{state.initial_sp[s]} SP"
                    for s in SIDES
                ),
                "portable.exhaustion.point",
            )
        ]
        update_holders(world, state)
        state.setup_events += start_turn(world, state)
        state.setup_events += proceed(world, state)
        return state

    # -- queries ---------------------------------------------------------------------------
    def to_act(self, state: PortableState) -> str | None:
        return state.flow.to_act

    def outcome(self, state: PortableState) -> Outcome | None:
        raw = state.flow.outcome
        if raw is None:
            return None
        details = {k: v for k, v in raw.items() if k not in ("winner", "how")}
        return Outcome(raw["winner"], raw["how"], details)

    def legal_actions(self, state: PortableState) -> list[Action]:
        world = self.world(state)
        flow = state.flow
        phase = flow.phase
        if phase == "over":
            return []
        if phase == "artillery":
            assert flow.to_act is not None
            return artillery_choices(world, state, flow.to_act) + [Action("hold")]
        if phase == "retreat":
            uid = flow.retreats[0]["unit"]
            unit = state.units[uid]
            return [
                Action("retreat", unit=uid, point=(float(sq[0]), float(sq[1])))
                for sq in retreat_squares(world, state, unit)
            ] + [Action("stand", unit=uid)]
        if phase == "activate":
            side = flow.to_act
            return [
                Action("activate", unit=u.uid)
                for u in sorted(state.units.values(), key=lambda u: u.uid)
                if u.side == side and can_activate(world, state, u)
            ] + [Action("done")]
        act = flow.activation
        assert act is not None
        unit = state.units[act.unit]
        if phase == "face":
            return [
                Action("face", unit=unit.uid, option=f) for f in facing_options(world, state, unit)
            ]
        if phase == "advance":
            return [Action("advance", unit=unit.uid), Action("stay", unit=unit.uid)]
        return self._act_actions(world, state, unit)

    def _act_actions(self, world: World, state: PortableState, unit: Unit) -> list[Action]:
        uid = unit.uid
        out: list[Action] = []
        if unit.air:
            out += [
                Action("fire", unit=uid, target=t.uid) for t in air.air_targets(world, state, unit)
            ]
            out += [
                Action("fire", unit=uid, target=t.uid)
                for t in air.strafe_targets(world, state, unit)
            ]
            if air.can_bomb(world, state, unit):
                out += [Action("bomb", unit=uid, option=str(n)) for n in range(1, unit.bombs + 1)]
            out += [
                Action("move", unit=uid, point=(float(sq[0]), float(sq[1])))
                for sq in air.move_options(world, state, unit)
            ]
            return out + [Action("end", unit=uid)]
        if unit.carried_by is not None:
            if transport.can_unload(world, state, unit):
                out.append(Action("unload", unit=uid))
            return out + [Action("end", unit=uid)]
        out += [Action("fire", unit=uid, target=p.target) for p in fire_options(world, state, unit)]
        out += [
            Action("assault", unit=uid, target=t.uid) for t in assault_targets(world, state, unit)
        ]
        if cannot_move(world, state, unit) is None:
            for sq in sorted(reachable(world, state, unit)):
                out.append(Action("move", unit=uid, point=(float(sq[0]), float(sq[1]))))
            out += [Action("turn", unit=uid, option=f) for f in FACINGS if f != unit.facing]
        out += [
            Action("load", unit=uid, target=t.uid)
            for t in transport.load_options(world, state, unit)
        ]
        out += [
            Action(task, unit=uid, point=(float(sq[0]), float(sq[1])))
            for task, sq in engineers.work_options(world, state, unit)
        ]
        return out + [Action("end", unit=uid)]

    # -- applying --------------------------------------------------------------------------
    def apply(self, state: PortableState, action: Action) -> list[Event]:
        """Validate ``action`` (raising IllegalActionError, state untouched) and play it."""
        world = self.world(state)
        phase = state.flow.phase
        if phase == "over":
            raise IllegalActionError("the battle is over", "portable.exhaustion.end")
        handler = {
            "artillery": self._apply_artillery,
            "retreat": self._apply_retreat,
            "activate": self._apply_activate,
            "act": self._apply_act,
            "face": self._apply_face,
            "advance": self._apply_advance,
        }[phase]
        events = handler(world, state, action)
        events += proceed(world, state)
        update_holders(world, state)
        state.actions_played += 1
        return events

    def _apply_artillery(self, world: World, state: PortableState, action: Action) -> list[Event]:
        side = state.flow.to_act
        assert side is not None
        if action.kind == "hold":
            state.flow.held.append(side)
            return [note("hold", f"{side.upper()}'s remaining guns hold their fire", None)]
        if action not in artillery_choices(world, state, side):
            raise IllegalActionError(
                f"{side.upper()} cannot {action.kind} with {action.unit} at {action.target} now",
                "portable.artillery.ranges",
            )
        gun = state.units[action.unit or ""]
        target = state.units[action.target or ""]
        if action.kind == "gas":
            gun.gas_shells -= 1
        state.flow.declared.append(declare(gun, target.pos, target.uid, action.kind))
        what = {"bombard": "fire", "gas": "a gas shell", "flak": "fire"}[action.kind]
        rule = {
            "bombard": "portable.artillery.simultaneous",
            "gas": "portable.gas.shell",
            "flak": "portable.air.ground_to_air",
        }[action.kind]
        return [
            note(
                "declare",
                f"{gun.name} declares {what} at {target.name} in {label(target.pos)}",
                rule,
                unit=gun.uid,
            )
        ]

    def _apply_retreat(self, world: World, state: PortableState, action: Action) -> list[Event]:
        head = state.flow.retreats[0]
        unit = state.units[head["unit"]]
        if action.unit not in (None, unit.uid):
            raise IllegalActionError(
                f"{unit.name} must retreat or stand first", "portable.hit.retreat"
            )
        if action.kind == "stand":
            state.flow.retreats.pop(0)
            return stand(world, state, unit, unable=False)
        square = _square(action.point)
        if action.kind != "retreat" or square not in retreat_squares(world, state, unit):
            raise IllegalActionError(
                f"{unit.name} may retreat only to an empty adjacent square away from the enemy",
                "portable.hit.retreat",
            )
        state.flow.retreats.pop(0)
        return retreat(world, state, unit, square)

    def _apply_activate(self, world: World, state: PortableState, action: Action) -> list[Event]:
        flow = state.flow
        side = flow.to_act
        if action.kind == "done":
            flow.activations_left = 0
            return [note("done", f"{str(side).upper()} activates no more units", None)]
        unit = state.units.get(action.unit or "")
        if action.kind != "activate" or unit is None or unit.side != side:
            raise IllegalActionError(
                f"{str(side).upper()} must activate one of its units or be done",
                "portable.activation.count",
            )
        if not can_activate(world, state, unit):
            raise IllegalActionError(
                f"{unit.name} cannot be activated (again) this turn", "portable.activation.once"
            )
        unit.activated = True
        flow.activations_left -= 1
        flow.activation = Activation(unit.uid)
        return [
            note(
                "activate",
                f"{unit.name} is activated in {label(unit.pos)} "
                f"({flow.activations_left} activation(s) left)",
                "portable.activation.count",
                unit=unit.uid,
            )
        ]

    def _apply_face(self, world: World, state: PortableState, action: Action) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        unit = state.units[act.unit]
        options = facing_options(world, state, unit)
        if action.kind != "face" or action.option not in options:
            rule = "portable.move.face_enemy" if len(options) < 4 else "portable.grid.facing"
            raise IllegalActionError(f"{unit.name} must face one of {', '.join(options)}", rule)
        unit.facing = str(action.option)
        act.must_face = False
        return [
            note("face", f"{unit.name} faces {unit.facing}", "portable.grid.facing", unit=unit.uid)
        ]

    def _apply_advance(self, world: World, state: PortableState, action: Action) -> list[Event]:
        act = state.flow.activation
        assert act is not None and act.advance_to is not None
        unit = state.units[act.unit]
        square = (act.advance_to[0], act.advance_to[1])
        if action.kind not in ("advance", "stay"):
            raise IllegalActionError(f"{unit.name} may advance or stay", "portable.cc.advance")
        act.advance_to = None
        if action.kind == "stay":
            return [note("stay", f"{unit.name} holds its ground", "portable.cc.advance")]
        from umpire.rulesets.portable.movement import Path

        hazards = (square,) if state.has_mines(square) or state.cloud_at(square) else ()
        events = do_move(world, state, unit, square, Path(1, hazards, False))
        unit.fought = False  # may fight again from the square it has taken
        act.must_face = True
        moved = events[0]
        events[0] = note(
            moved.kind,
            f"{unit.name} advances into {label(square)}",
            "portable.cc.advance",
            **moved.data,
        )
        return events

    def _apply_act(self, world: World, state: PortableState, action: Action) -> list[Event]:
        flow = state.flow
        act = flow.activation
        assert act is not None
        unit = state.units[act.unit]
        if action.unit not in (None, unit.uid):
            raise IllegalActionError(
                f"{unit.name} is the active unit, not {action.unit}", "portable.activation.once"
            )
        kind_ = action.kind
        if kind_ == "end":
            flow.activation = None
            return [note("end", f"{unit.name} ends its activation", None)]
        if unit.air:
            return self._act_air(world, state, unit, action)
        if unit.carried_by is not None:
            if kind_ == "unload" and transport.can_unload(world, state, unit):
                flow.activation = None
                return transport.unload(world, state, unit)
            raise IllegalActionError(
                f"{unit.name} is aboard and may only get off (if its transport has not moved)",
                "portable.transport.load",
            )
        if kind_ == "move":
            square = _square(action.point)
            if square is None:
                raise IllegalActionError("a move needs a square", "portable.move.allowance")
            refusal = move_refusal(world, state, unit, square)
            if refusal is not None:
                raise IllegalActionError(refusal.reason, refusal.rule)
            path = reachable(world, state, unit)[square]
            events = do_move(world, state, unit, square, path)
            act.must_face = True
            return events
        if kind_ == "turn":
            refusal = cannot_move(world, state, unit)
            if refusal is not None:
                raise IllegalActionError(refusal.reason, refusal.rule)
            if action.option not in FACINGS:
                raise IllegalActionError("turn to N, E, S or W", "portable.grid.facing")
            unit.facing = str(action.option)
            unit.moved = True
            state.fired_house("portable.move.turn_in_place")
            return [
                note(
                    "turn",
                    f"{unit.name} turns to face {unit.facing} (its move)",
                    "portable.move.turn_in_place",
                    unit=unit.uid,
                )
            ]
        if kind_ == "fire":
            target = state.units.get(action.target or "")
            if target is None:
                raise IllegalActionError(f"no unit {action.target!r}", "portable.fire.range")
            plan = plan_fire(world, state, unit, target)
            if isinstance(plan, Refusal):
                raise IllegalActionError(plan.reason, plan.rule)
            return resolve_fire(world, state, plan)
        if kind_ == "assault":
            target = state.units.get(action.target or "")
            if target is None or target not in assault_targets(world, state, unit):
                refusal = cannot_assault(world, state, unit)
                rule = refusal.rule if refusal else "portable.cc.adjacent_facing"
                reason = (
                    refusal.reason
                    if refusal
                    else (f"{unit.name} can only attack the enemy in the square it faces")
                )
                raise IllegalActionError(reason, rule)
            act.assault_square = [target.x, target.y]
            return resolve_close_combat(world, state, unit, target)
        if kind_ == "load":
            carrier = state.units.get(action.target or "")
            if carrier is None or carrier not in transport.load_options(world, state, unit):
                raise IllegalActionError(
                    f"{unit.name} cannot board that this turn (same square, neither has moved, "
                    "room aboard)",
                    "portable.transport.load",
                )
            flow.activation = None
            return transport.load(world, state, unit, carrier)
        if kind_ in WORK:
            square = _square(action.point)
            if square is None or (kind_, square) not in engineers.work_options(world, state, unit):
                raise IllegalActionError(
                    f"{unit.name} cannot {kind_} there now", engineers.TASK_RULES[kind_]
                )
            flow.activation = None
            return engineers.start(world, state, unit, kind_, square)
        raise IllegalActionError(f"unknown action {kind_!r}", "portable.activation.once")

    def _act_air(
        self, world: World, state: PortableState, plane: Unit, action: Action
    ) -> list[Event]:
        act = state.flow.activation
        assert act is not None
        kind_ = action.kind
        if kind_ == "move":
            square = _square(action.point)
            if square is None or square not in air.move_options(world, state, plane):
                raise IllegalActionError(
                    f"{plane.name} cannot fly there now", "portable.air.movement"
                )
            start = plane.pos
            plane.x, plane.y = square
            plane.moved = True
            act.must_face = True
            return [
                note(
                    "move",
                    f"{plane.name} flies {distance(start, square)} squares from "
                    f"{label(start)} to {label(square)}",
                    "portable.air.movement",
                    unit=plane.uid,
                    to=list(square),
                )
            ]
        if kind_ == "fire":
            target = state.units.get(action.target or "")
            if target is not None and target in air.air_targets(world, state, plane):
                return air.air_to_air(world, state, plane, target)
            if target is not None and target in air.strafe_targets(world, state, plane):
                return air.strafe(world, state, plane, target)
            raise IllegalActionError(
                f"{plane.name} cannot engage {action.target}",
                "portable.air.fire_once" if plane.fired else "portable.air.arcs",
            )
        if kind_ == "bomb":
            loads = int(action.option or 0) if (action.option or "").isdigit() else 0
            if not air.can_bomb(world, state, plane) or not 1 <= loads <= plane.bombs:
                raise IllegalActionError(
                    f"{plane.name} cannot drop {action.option} bomb load(s) here",
                    "portable.air.bombs",
                )
            return air.bomb(world, state, plane, loads)
        raise IllegalActionError(f"an aircraft cannot {kind_}", "portable.air.movement")

    # -- views -----------------------------------------------------------------------------
    def summary(self, state: PortableState) -> dict[str, Any]:
        """Losses per side (units, SP, exhaustion) and house rules that fired."""
        world = self.world(state)
        losses: dict[str, Any] = {}
        for side in SIDES:
            mine = [u for u in state.units.values() if u.side == side]
            lost = [u for u in mine if u.status is Status.DESTROYED]
            losses[side] = {
                "units": len(lost),
                "of_units": len(mine),
                "sp_lost": lost_sp(state, side),
                "initial_sp": state.initial_sp.get(side, 0),
                "exhaustion_point": exhaustion_point(world, state.initial_sp.get(side, 0)),
                "exhausted": exhausted(world, state, side),
                "objectives": sum(1 for h in state.holders.values() if h == side),
                "destroyed": sorted(u.name for u in lost),
            }
        return {
            "turns": state.flow.turn,
            "losses": losses,
            "house_rules_fired": dict(sorted(state.house_fired.items())),
        }

    def observation(self, state: PortableState, player: str) -> dict[str, Any]:
        """Everything on the board, without the random stream (no peeking at future dice)."""
        data = state.to_dict()
        data.pop("rng")
        data.pop("seed")
        data["player"] = player
        return data

    def state_to_dict(self, state: PortableState) -> dict[str, Any]:
        return state.to_dict()

    def state_from_dict(self, data: Mapping[str, Any]) -> PortableState:
        return PortableState.from_dict(dict(data))

    def clone(self, state: PortableState) -> PortableState:
        return state.clone()

    def describe(self, state: PortableState, action: Action) -> str:
        """A line for menus and logs (with the odds of a shot)."""
        units = state.units
        unit = units.get(action.unit or "")
        name = unit.name if unit else ""
        target = units.get(action.target or "")
        tname = f"{target.name} in {label(target.pos)}" if target else ""
        square = _square(action.point)
        where = f"{label(square)} ({square[0]},{square[1]})" if square else ""
        k = action.kind
        if k == "fire" and unit is not None and target is not None and not unit.air:
            plan = plan_fire(self.world(state), state, unit, target)
            if isinstance(plan, FirePlan):
                mod = total(plan.mods)
                single = sum(1 for d in range(1, 7) if hit_on(d, mod, plan.need)) / 6
                p = 1 - (1 - single) ** plan.dice
                return (
                    f"{name} fires at {tname}: {plan.dice}d6 need {plan.need} "
                    f"[{mods_text(plan.mods)}], P(hit) {p:.0%}"
                )
        texts = {
            "hold": "hold the fire of the remaining guns",
            "bombard": f"{name} fires at {tname}",
            "gas": f"{name} fires a gas shell at {tname}",
            "flak": f"{name} fires at aircraft {tname}",
            "retreat": f"{name} retreats to {where}",
            "stand": f"{name} stands and loses 1 SP",
            "activate": f"activate {name} in {label(unit.pos) if unit else ''}",
            "done": "activate no more units this turn",
            "face": f"{name} faces {action.option}",
            "advance": f"{name} advances into the square it won",
            "stay": f"{name} stays where it is",
            "fire": f"{name} fires at {tname}",
            "assault": f"{name} attacks {tname} in close combat",
            "move": f"{name} moves to {where}",
            "turn": f"{name} turns to face {action.option} (uses its move)",
            "load": f"{name} boards / limbers to {tname}",
            "unload": f"{name} gets off / unlimbers",
            "bomb": f"{name} drops {action.option} bomb load(s)",
            "end": f"{name} ends its activation",
        }
        for task in WORK:
            texts[task] = f"{name}: {task.replace('_', ' ')} in {where}"
        return texts.get(k, k)

    # -- helpers the scripted player uses ------------------------------------------------
    def cargo(self, state: PortableState, unit: Unit) -> list[Unit]:
        """Units carried or towed by ``unit``."""
        return cargo_of(state, unit)

    def kind(self, state: PortableState, unit: Unit) -> str:
        return kind(self.world(state), unit)
