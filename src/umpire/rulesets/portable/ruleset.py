"""The Portable Wargame ruleset: set-up, and the engine built from the turn's flow
(:mod:`~umpire.rulesets.portable.turns`) and the action kinds
(:mod:`~umpire.rulesets.portable.kinds`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import FlowRules, FlowState
from umpire.core.lazy import Lazy
from umpire.core.rng import RandomStream
from umpire.core.ruleset import (
    Capabilities,
    Option,
    Outcome,
    RulesetBase,
    RulesetMeta,
    ScenarioInfo,
)
from umpire.core.switches import advice_events, collect_advice, with_advice
from umpire.rulesets.portable import deployment
from umpire.rulesets.portable import scenario as scenarios
from umpire.rulesets.portable.common import cargo_of, kind
from umpire.rulesets.portable.config import HOUSE_RULES, rule_catalog, rules_markdown
from umpire.rulesets.portable.enums import SIDES, Decision, Side, Status
from umpire.rulesets.portable.exhaustion import (
    exhausted,
    exhaustion_point,
    initial_strength,
    lost_sp,
)
from umpire.rulesets.portable.kinds import KINDS
from umpire.rulesets.portable.render import draw, status_line
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.turns import (
    ARTILLERY_KINDS,
    FLOW,
    begin,
    decision,
    flow_summary,
    settle,
)
from umpire.rulesets.portable.units import ARTILLERY
from umpire.rulesets.portable.victory import update_holders
from umpire.rulesets.portable.world import World, load_world, world_of

# the rule a refusal names when an action of the wrong kind is offered at a decision
NOT_NOW = {
    Decision.ARTILLERY: "portable.artillery.simultaneous",
    Decision.ACTIVATE: "portable.activation.count",
    Decision.ACT: "portable.activation.once",
    Decision.FACE: "portable.grid.facing",
    Decision.ADVANCE: "portable.cc.advance",
    Decision.RETREAT: "portable.hit.retreat",
    Decision.OVER: "portable.exhaustion.end",
}


class Portable(RulesetBase[PortableState]):
    """The Portable Wargame, squared version (modern), with its optional rules as switches."""

    meta = RulesetMeta(
        id="portable",
        version="0.3",
        title="The Portable Wargame (squared version)",
        players=SIDES,
        chance="sampled",
        information="perfect",
    )
    capabilities = Capabilities(
        board=Lazy("umpire.rulesets.portable.board:BOARD"),
        odds=Lazy("umpire.rulesets.portable.odds_cli:ODDS"),
        scripted=Lazy("umpire.rulesets.portable.deployment:DeployingScripted"),
        house_rules=HOUSE_RULES,
        catalog=rule_catalog,
        rules_markdown=rules_markdown,
        render=draw,
        status_line=lambda state: deployment.status_line(state, status_line),
        side_colours={"blue": "#1f4e9c", "red": "#b22222"},
        in_play=Lazy("umpire.rulesets.portable.turns:in_play"),
        options=(
            Option(
                "deployment",
                "fixed: units stand on the scenario's squares; free: each side places its own "
                "in its zone (its first rows) before turn 1",
                choices=("fixed", "free"),
                default="fixed",
            ),
        ),
        deployment=Lazy("umpire.rulesets.portable.deployment:step"),
    )

    engine: FlowRules[PortableState] = FlowRules(FLOW, KINDS)

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
            flow=FlowState(),
            units=units,
            minefields=[list(m) for m in spec.minefields],
            wire=[list(w) for w in spec.wire],
            options=dict(options),
        )
        state.world_memo = world
        state.initial_sp = {s: initial_strength(state, s) for s in SIDES}
        on = [k for k, v in sorted(world.switches.items()) if v]
        state.setup_events = [  # never the seed: it would foretell the dice
            note(
                "setup",
                f"{spec.name} on a {spec.grid.width}x{spec.grid.height} grid, {spec.turns} turns, "
                f"optional rules: {', '.join(on) or 'none'}; exhaustion points "
                + ", ".join(
                    f"{s} {exhaustion_point(world, state.initial_sp[s])} of "
                    f"{state.initial_sp[s]} SP"
                    for s in SIDES
                ),
                "portable.exhaustion.point",
            )
        ]
        update_holders(world, state)
        if deployment.free(options):  # portable.setup.free_deployment: turn 1 waits for it
            state.setup_events += deployment.set_up(world, state)
        else:
            state.setup_events += begin(state)
        return state

    # -- queries ---------------------------------------------------------------------------
    def to_act(self, state: PortableState) -> str | None:
        if deployment.deploying(state):
            return deployment.side_to_place(state)
        return self.engine.to_act(state)

    def outcome(self, state: PortableState) -> Outcome | None:
        raw = state.turn_info.outcome
        if raw is None:
            return None
        details = {k: v for k, v in raw.items() if k not in ("winner", "how")}
        return Outcome(raw["winner"], raw["how"], details)

    def legal_actions(self, state: PortableState) -> list[Action]:
        """The options of every kind the decision allows, in the order a menu lists them
        (in the artillery phase gun by gun, holding fire last)."""
        if deployment.deploying(state):
            return deployment.options(state, str(deployment.side_to_place(state)))
        side, allowed = FLOW.decision(state)
        if side is None:
            return []
        kinds = self.engine.kinds
        legal = [a for name in allowed for a in kinds[name].options(state, side)]
        if allowed == ARTILLERY_KINDS:
            legal.sort(key=lambda a: (a.kind == "hold", a.unit or ""))
        return legal

    # -- applying --------------------------------------------------------------------------
    def apply(self, state: PortableState, action: Action) -> list[Event]:
        """Check ``action`` (raising IllegalActionError, state untouched) and play it."""
        if deployment.deploying(state):  # portable.setup.free_deployment, then turn 1
            placer = str(deployment.side_to_place(state))
            placed = deployment.check(state, placer, action)
            events = deployment.resolve(state, placed, action)
            if not deployment.deploying(state):
                update_holders(self.world(state), state)
                events += begin(state)
            update_holders(self.world(state), state)
            state.actions_played += 1
            return events
        side, allowed = FLOW.decision(state)
        if side is None:
            raise IllegalActionError("the battle is over", "portable.exhaustion.end")
        if action.kind not in allowed:
            raise IllegalActionError(
                f"{side.upper()} must choose one of: {', '.join(allowed)} (not {action.kind!r})",
                NOT_NOW[decision(state)[0]],
            )
        kind = self.engine.kinds[action.kind]
        with collect_advice() as advice:  # rules under advise this action breaks
            kind.check(state, side, action)
        events = advice_events(advice, rule_catalog(), side) if advice else []
        events += kind.resolve(state, side, action)
        events += settle(state)
        update_holders(self.world(state), state)
        state.actions_played += 1
        return events

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
        """Everything on the board, without the random stream (no peeking at future dice).
        ``flow`` is the flow's position with the decision awaited (``decision``: artillery,
        activate, act, face, advance, retreat or over), the side ``to_act``, the ``unit`` it
        is about, the ``activation`` under way and the ``activations_left``."""
        deploying = deployment.deploying(state)
        flow = deployment.flow_summary(state) if deploying else flow_summary(state)
        data = state.board_dict(flow)
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
        if deployment.deploying(state):
            return deployment.describe(state, action)
        kind = self.engine.kinds.get(action.kind)
        if kind is None:
            return action.kind
        side = decision(state)[1] or ""
        text = kind.describe(state, side, action)  # + the rules under advise it breaks
        return with_advice(state.options, text, lambda: kind.check(state, side, action))

    # -- helpers the scripted player uses ------------------------------------------------
    def cargo(self, state: PortableState, unit: Unit) -> list[Unit]:
        """Units carried or towed by ``unit``."""
        return cargo_of(state, unit)

    def kind(self, state: PortableState, unit: Unit) -> str:
        return kind(self.world(state), unit)
