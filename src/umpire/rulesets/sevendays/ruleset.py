"""The Seven Days ruleset: legal actions and applying them, over the rule modules."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, UmpireError
from umpire.core.events import Event, note
from umpire.core.flow import FlowRules, Pending
from umpire.core.lazy import Lazy
from umpire.core.lru import LruMap
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
from umpire.core.switches import with_advice
from umpire.rulesets.sevendays import cards, deployment, kinds, special, transport
from umpire.rulesets.sevendays import scenario as scenarios
from umpire.rulesets.sevendays.config import house_rules
from umpire.rulesets.sevendays.kinds import KINDS
from umpire.rulesets.sevendays.state import (
    SIDES,
    SWAP_KINDS,
    Flow,
    Phase,
    SevenDaysState,
    Side,
    Unit,
    flow_dict,
    other,
)
from umpire.rulesets.sevendays.turns import FLOW, sync
from umpire.rulesets.sevendays.visibility import observed_units
from umpire.rulesets.sevendays.world import World

if TYPE_CHECKING:
    from umpire.core.catalog import RuleEntry

OPTIONS = {"house_rules", "forces", "cards", "deployment"}  # what a game's options may set
# what a side must do at each decision instead of an action of another kind, and the rule
NOT_NOW = {
    Phase.SWAP: ("swap cards", "sevendays.cards.play"),
    Phase.DEPLOY: ("place a unit in its deployment zone", deployment.RULE),
    Phase.CARD: ("answer the card or decline", "sevendays.cards.play"),
    Phase.RESCUE: (
        "play Against All Odds on its unit or let it go",
        "sevendays.cards.against_all_odds",
    ),
    Phase.OFF_BOARD: (
        "choose whether its off-board unit takes the artillery roll",
        "sevendays.cards.divisional_artillery",
    ),
    Phase.ACTIVATE: ("activate a unit or pass", "sevendays.activation.token"),
    Phase.REACT: ("react or decline", "sevendays.reaction.window"),
    Phase.ACT: ("choose an act of the active unit", "sevendays.activation.actions"),
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
        scripted=Lazy("umpire.rulesets.sevendays.deployment:DeployingScripted"),
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
            Option(
                "deployment",
                "fixed: units stand where the scenario puts them; free: each side places its "
                "own in its zone before play (hidden units as markers)",
                choices=("fixed", "free"),
                default="fixed",
            ),
        ),
        catalog=_catalog,
        rules_markdown=_rules_markdown,
        render=None,
        status_line=status_line,
        side_colours={"nato": "#1f4e9c", "pact": "#b22222"},
        balance=Lazy("umpire.rulesets.sevendays.balance_cli:DUELS"),
        in_play=Lazy("umpire.rulesets.sevendays.turns:in_play"),
        deployment=Lazy("umpire.rulesets.sevendays.deployment:step"),
    )

    meta = RulesetMeta(
        id="sevendays",
        # 0.4: issue 15 corrections (cards, Capture, provenance): docs/rules/sevendays.md
        # 0.5: the review's findings (Communications, Divisional Artillery, extra tokens)
        # 0.7: infantry proximity as the specification words it
        version="0.7",
        title="Seven Days to the River Rhine",
        players=("nato", "pact"),
        chance="sampled",
        information="imperfect",  # hidden deployment and the cards in hand
        default_scenario="meeting-engagement",
        rank=0,  # the README's first game
    )

    engine: FlowRules[SevenDaysState] = FlowRules(FLOW, (*KINDS, deployment.PLACE))
    _shared: SevenDays | None = None

    def __init__(self) -> None:
        self._worlds: LruMap[tuple[str, str, str], World] = LruMap()

    @classmethod
    def shared(cls) -> SevenDays:
        """One instance whose world cache rule code may use when a state has no world yet."""
        if cls._shared is None:
            cls._shared = cls()
        return cls._shared

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

        def make() -> World:
            house = house_rules(dict(override) if override else None)
            return World(scenarios.load_scenario(scenario, house, forces), house)

        return self._worlds.get_or_make(key, make)

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
            nation = scenarios.side_orbat(side_spec)
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
                f"{spec.turns} turns",  # never the seed: it would foretell the dice
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
        state.world_memo = world
        if options.get("cards", spec.cards):
            state.setup_events += cards.deal(state)
            # sevendays.cards.deal: NATO, then PACT, may exchange cards before turn 1
            state.flow.core.stack += [Pending(s, SWAP_KINDS, Phase.SWAP) for s in reversed(SIDES)]
        # sevendays.scenario.free_deployment: with the option, each side places its units first
        state.setup_events += deployment.set_up(world, state)
        state.setup_events += FLOW.start(state)
        sync(state)
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
        return self.engine.to_act(state)

    def outcome(self, state: SevenDaysState) -> Outcome | None:
        raw = state.flow.outcome
        if raw is None:
            return None
        details = {k: v for k, v in raw.items() if k not in ("winner", "how")}
        return Outcome(raw["winner"], raw["how"], details)

    def legal_actions(self, state: SevenDaysState) -> list[Action]:
        """The options of every kind the decision on top allows, in the order a menu lists
        them (see ``kinds.py``)."""
        self.world(state)
        return self.engine.legal_actions(state)

    # helpers the scripted player reads (defined once, in kinds.py)
    @staticmethod
    def _reserves(world: World, state: SevenDaysState) -> list[Unit]:
        return kinds.reserves(world, state)

    @staticmethod
    def counts_moved(world: World, state: SevenDaysState, unit: Unit) -> bool:
        return kinds.counts_moved(world, state, unit)

    # -- applying --------------------------------------------------------------------------
    def apply(self, state: SevenDaysState, action: Action) -> list[Event]:
        """Check ``action`` (raising IllegalActionError naming the rule, state untouched) and
        play it; the flow then moves on until someone must decide."""
        world = self.world(state)
        side, allowed = FLOW.decision(state)
        if side is None:
            raise IllegalActionError("the game is over", "sevendays.victory.break_point")
        if action.kind not in allowed:
            top = FLOW.top(state)
            stage = Phase(top.stage) if top is not None else Phase.ACTIVATE
            raise IllegalActionError(
                f"{side.upper()} must {NOT_NOW[stage][0]}, not {action.kind!r}",
                NOT_NOW[stage][1],
            )
        # what engine.check does once the decision is known (it asks for it again): the
        # kind's own check
        kind = self.engine.kinds[action.kind]
        kind.check(state, side, action)
        events = kind.resolve(state, side, action)
        # sevendays.cards.against_all_odds: a unit about to be removed is put to its owner
        # once the action that doomed it has resolved, before the flow moves on
        events += cards.offer_rescue(world, state)
        events += FLOW.advance(state)
        late = cards.offer_rescue(world, state)  # doomed by the flow's own hooks
        if late:  # (passengers bailing out at a turn's end): removals may end the battle
            events += late + FLOW.advance(state)
        sync(state)
        state.actions_played += 1
        return events

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
        # written out rather than ``state.to_dict()`` then filtered (the observation is read at
        # every decision): no random stream and no seed (they would let a planner replay the
        # dice to come), the enemy's hidden units as their markers only (visibility.py)
        seen = observed_units(state.units, player, state.records())
        out = {
            "scenario": state.scenario,
            "flow": flow_dict(state.flow),
            "units": seen,
            # deployed force files list every unit, hidden ones too: keep only the house rules
            "options": {k: v for k, v in state.options.items() if k == "house_rules"},
            "house_fired": dict(state.house_fired),
            "actions_played": state.actions_played,
            "cards": cards.view(state.cards, player),
            "smoke": [list(c) for c in state.smoke],
            "mortar_marks": [list(m) for m in state.mortar_marks],
            "player": player,
        }
        imported = _imported_profiles(state.options)
        if imported:  # an imported catalogue's lines, of the units this side reads only
            keys = sorted({u["profile"] for u in seen if "profile" in u} & set(imported))
            out["force_profiles"] = {k: imported[k] for k in keys}
        return out

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
        # both lists in an order the truth does not set (by id, by marker), so the deal drawn
        # for a given ``rng`` depends only on what ``player`` knows
        hidden = sorted(
            (
                u
                for u in twin.units.values()
                if u.hidden and u.side == enemy and u.alive and u.uid not in carriers
            ),
            key=lambda u: u.uid,
        )
        slots = sorted(((u.marker, u.x, u.y, u.facing, u.dug_in) for u in hidden), key=str)
        rng.shuffle(slots)
        for unit, (marker, x, y, facing, dug_in) in zip(hidden, slots, strict=True):
            unit.marker, unit.x, unit.y, unit.facing, unit.dug_in = marker, x, y, facing, dug_in
        if twin.cards is not None:
            table = twin.cards
            aside = table.setdefault("set_aside", {})
            unseen = list(table["deck"]) + list(table["hands"].get(enemy, []))
            unseen += list(aside.get(enemy, []))
            unseen.sort(key=str)
            rng.shuffle(unseen)
            sizes = (len(table["hands"].get(enemy, [])), len(aside.get(enemy, [])))
            table["hands"][enemy] = unseen[: sizes[0]]
            if enemy in aside:
                aside[enemy] = unseen[sizes[0] : sizes[0] + sizes[1]]
            table["deck"] = unseen[sizes[0] + sizes[1] :]
        twin.rng = RandomStream(rng.randrange(2**62))
        twin.world_memo = state.world_memo
        twin.reaction_memo = twin.reactor_memo = None
        twin.touch()
        return twin

    def state_from_dict(self, data: Mapping[str, Any]) -> SevenDaysState:
        return SevenDaysState.from_dict(dict(data))

    def clone(self, state: SevenDaysState) -> SevenDaysState:
        return state.clone()

    def describe(self, state: SevenDaysState, action: Action) -> str:
        """A line for menus and logs, with the odds of a shot."""
        self.world(state)
        kind = self.engine.kinds.get(action.kind)
        if kind is None:
            return action.kind
        text = kind.describe(state, FLOW.decision(state)[0] or "", action)
        return with_advice(state.options, text, lambda: self.engine.check(state, action))


def _imported_profiles(options: Mapping[str, Any]) -> dict[str, Any]:
    """Profile key -> profile data of the deployed forces that bring their own ORBAT (an
    imported BattleScribe catalogue: ``forces.SIDE.orbat``); empty for built-in nations."""
    out: dict[str, Any] = {}
    for spec in (options.get("forces") or {}).values():
        if isinstance(spec, Mapping) and spec.get("orbat"):
            for unit in spec["orbat"].get("units", ()):
                out[f"{spec['nation']}/{unit['id']}"] = unit
    return out
