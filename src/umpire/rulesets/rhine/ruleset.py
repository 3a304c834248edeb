"""7 Days to the Rhine on the shared core: the :class:`Rhine` ruleset, wiring the turn as a
:class:`~umpire.core.flow.Flow` of phases with every decision an
:class:`~umpire.core.flow.ActionKind` defined once in its topic's module: the turn and order
choice (:mod:`.turn`), air and EW (:mod:`.air_ew`), movement (:mod:`.movement`,
:mod:`.move_answers`), combat (:mod:`.attacks`, :mod:`.combat_support`, whose support is a
secret simultaneous commitment of both sides, :mod:`.combat_results`), the administrative
phase (:mod:`.admin`) and victory (:mod:`.victory`), run by :mod:`.engine`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from umpire.core.actions import Action
from umpire.core.events import Event
from umpire.core.flow import ActionKind, Flow, Phase, SecretCommit
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
from umpire.rulesets.rhine.admin import (
    AttritionKind,
    RefugeeKind,
    admin_begin,
    admin_close,
    admin_end,
    admin_finish,
    attrition_to_act,
    refugee_hexes,
    refugee_to_act,
)
from umpire.rulesets.rhine.air_ew import (
    EWMarkKind,
    EWStripKind,
    PlaceAirKind,
    air_begin,
    ew_begin,
    ew_to_act,
    placing_to_act,
)
from umpire.rulesets.rhine.attacks import AttackKind, ProbeKind, attack_ok
from umpire.rulesets.rhine.combat_results import (
    AdvanceKind,
    ExLossKind,
    RetreatKind,
    apply_result,
)
from umpire.rulesets.rhine.combat_support import CSKind, cs_options_for
from umpire.rulesets.rhine.engine import RhineRules, fresh
from umpire.rulesets.rhine.model import (
    SIDES,
    rule_catalog,
    rules_markdown,
    scenario_ids,
    world_for,
)
from umpire.rulesets.rhine.move_answers import entry_hexes, unit_moves
from umpire.rulesets.rhine.movement import (
    _ANSWER_ACTIONS,
    _UNIT_ACTIONS,
    HeliMAKind,
    MoveKind,
    may_move,
    movable,
)
from umpire.rulesets.rhine.placement import (
    PlaceKind,
    SuggestedKind,
    setup_begin,
    setup_to_act,
)
from umpire.rulesets.rhine.position import (
    SEGMENTS,
    enter,
    segment,
    world,
)
from umpire.rulesets.rhine.setup import opening_state
from umpire.rulesets.rhine.state import RhineState
from umpire.rulesets.rhine.turn import (
    OrderKind,
    StopKind,
    on_turn_begin,
    order_to_act,
    segment_begin,
    segment_to_act,
)
from umpire.rulesets.rhine.victory import check_victory, exited, victory_points

# what other modules and the tests take from here (each defined in its topic's module)
__all__ = [
    "ENGINE",
    "FLOW",
    "KINDS",
    "AttackKind",
    "Rhine",
    "_ANSWER_ACTIONS",
    "_UNIT_ACTIONS",
    "admin_begin",
    "admin_end",
    "apply_result",
    "attack_ok",
    "check_victory",
    "cs_options_for",
    "enter",
    "entry_hexes",
    "may_move",
    "movable",
    "on_turn_begin",
    "refugee_hexes",
    "segment",
    "unit_moves",
    "victory_points",
    "world",
]

ST = RhineState


KINDS: list[ActionKind[ST]] = [
    OrderKind(),
    PlaceAirKind(),
    StopKind("stop_air", "rhine.air.place", "places no more air markers"),
    EWMarkKind(),
    EWStripKind(),
    StopKind("stop_ew", "rhine.ew.use", "uses no more EW markers"),
    MoveKind(),
    HeliMAKind(),
    AttackKind(),
    ProbeKind(),
    StopKind("end_phase", "rhine.sequence.turn", "ends the phase"),
    StopKind("decline", "rhine.momentum", "makes no momentum attack"),
    CSKind(),
    RetreatKind(),
    ExLossKind(),
    AdvanceKind(),
    RefugeeKind(),
    PlaceKind(),
    SuggestedKind(),
    AttritionKind(),
]
SEGMENT_KINDS = ("move", "heli_ma", "attack", "probe", "end_phase")


FLOW: Flow[ST] = Flow(
    [
        # the set-up (spec 5.5, 5.6): decisions on turn 1 only, before the order choice
        Phase(
            "setup",
            ("setup_suggested", "place"),
            to_act=setup_to_act,
            on_begin=fresh(setup_begin),
        ),
        Phase("order", ("order",), to_act=order_to_act),
        Phase(
            "air",
            ("place_air", "stop_air"),
            to_act=placing_to_act("air_to_place", "air_holder", ()),
            on_begin=fresh(air_begin),
        ),
        Phase("ew", ("ew_mark", "ew_strip", "stop_ew"), to_act=ew_to_act, on_begin=fresh(ew_begin)),
        *[
            Phase(name, SEGMENT_KINDS, to_act=segment_to_act, on_begin=fresh(segment_begin))
            for name in SEGMENTS
        ],
        Phase(
            "admin",
            ("refugee",),
            to_act=refugee_to_act,
            on_begin=fresh(admin_begin),
            on_end=fresh(admin_close),
        ),
        # artillery attrition where the owner chooses the marker, then the rest of the
        # administrative phase and the victory check
        Phase("attrition", ("attrition",), to_act=attrition_to_act, on_end=fresh(admin_finish)),
    ],
    lambda s: s.flow,
    on_turn_begin=fresh(on_turn_begin),
    game_over=lambda s: s.outcome is not None,
)
ENGINE = RhineRules(FLOW, KINDS)


class Rhine(RulesetBase[RhineState]):
    """7 Days to the Rhine, the operational hex-and-counter game."""

    meta = RulesetMeta(
        id="rhine",
        version="0.5",
        title="7 Days to the Rhine (operational)",
        players=SIDES,
        chance="sampled",
        information="imperfect",  # combat support is committed blind
        max_turns=None,
    )
    capabilities = Capabilities(
        board=Lazy("umpire.rulesets.rhine.board:BOARD"),
        odds=Lazy("umpire.rulesets.rhine.odds_cli:ODDS"),
        house_rules=Lazy("umpire.rulesets.rhine.odds_cli:HOUSE_RULES"),
        options=(
            Option("heli-attrition", "optional rule: helicopter attrition", "bool"),
            Option("ammunition", "optional rule: artillery ammunition", "bool"),
        ),
        scripted=Lazy("umpire.rulesets.rhine.agent:RhineScripted"),
        catalog=rule_catalog,
        rules_markdown=rules_markdown,
        render=Lazy("umpire.rulesets.rhine.render:render"),
        status_line=Lazy("umpire.rulesets.rhine.render:status_line"),
        side_colours={"pact": "red", "nato": "blue"},
        in_play=Lazy("umpire.rulesets.rhine.placement:in_play"),
        deployment=Lazy("umpire.rulesets.rhine.placement:deployment"),
    )

    def scenario_ids(self) -> list[str]:
        return scenario_ids()

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        spec = world_for(scenario).spec
        return ScenarioInfo(scenario, spec.title, spec.briefing)

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> RhineState:
        state = opening_state(scenario, seed, options)
        state.setup_events += FLOW.start(state)
        return state

    def to_act(self, state: RhineState) -> str | None:
        return ENGINE.to_act(state)

    def legal_actions(self, state: RhineState) -> list[Action]:
        return ENGINE.legal_actions(state)

    def apply(self, state: RhineState, action: Action) -> list[Event]:
        return ENGINE.apply(state, action)

    def describe(self, state: RhineState, action: Action) -> str:
        return ENGINE.describe(state, action)

    def outcome(self, state: RhineState) -> Outcome | None:
        if state.outcome is None:
            return None
        o = state.outcome
        return Outcome(
            o["winner"], o["how"], {k: v for k, v in o.items() if k not in ("winner", "how")}
        )

    def observation(self, state: RhineState, player: str) -> dict[str, Any]:
        obs = state.observed(player)  # never the seed or the stream: they foretell the dice
        obs["side"] = player
        obs["to_act"] = self.to_act(state)
        obs["segment"] = segment(state)
        obs["vp"] = victory_points(state)
        return obs

    def resample(self, state: RhineState, player: str, rng: random.Random) -> RhineState:
        """Everything is open but the other side's combat-support commitment, which is
        redrawn among its legal choices; the dice are re-seeded."""
        twin = state.clone()
        twin.rng = RandomStream(rng.randrange(2**31))
        for d in twin.flow.stack:
            if isinstance(d, SecretCommit):
                for s in list(d.committed):
                    if s != player:
                        opts = cs_options_for(twin, s)
                        d.committed[s] = Action("cs", option=rng.choice(opts)).to_dict()
        return twin

    def state_to_dict(self, state: RhineState) -> dict[str, Any]:
        return state.to_dict()

    def state_from_dict(self, data: Mapping[str, Any]) -> RhineState:
        return RhineState.from_dict(dict(data))

    def clone(self, state: RhineState) -> RhineState:
        return state.clone()

    def summary(self, state: RhineState) -> dict[str, Any]:
        return {
            "turns": state.flow.turn,
            "turn": state.flow.turn,
            "phase": state.flow.phase,
            "losses": {
                s: {
                    "units": state.losses[s],  # what simulate's report reads as units lost
                    "eliminated": state.losses[s],
                    "exited": exited(state, s),
                }
                for s in SIDES
            },
            "vp": victory_points(state),
            "outcome": state.outcome,
        }
