"""Tiny Skirmish: a two-player test ruleset built only on the shared core.

Each turn both sides draw a card, blind-bid a card for the initiative (a secret commitment,
revealed together), then each side in initiative order attacks, rallies or holds. A hit gives
the defender a reaction (a pending decision): brace by discarding a card, or take the hit. In
the ``ambush`` scenario one blue unit starts hidden: red does not see it, and what it does
reaches red's log only as a public stand-in until it attacks and is revealed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from umpire.core.actions import Action
from umpire.core.catalog import RuleEntry, catalog_markdown, load_catalog
from umpire.core.chance import Modifier, TableLookup, Test
from umpire.core.deck import Deck, card_rank, standard_deck
from umpire.core.errors import UnknownScenarioError
from umpire.core.events import Event, note
from umpire.core.flow import (
    ActionKind,
    FixedChoice,
    Flow,
    FlowRules,
    FlowState,
    Pending,
    Phase,
    SecretCommit,
)
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

SIDES = ("red", "blue")
DATA = Path(__file__).parent / "data"
RANKS = ("9", "10", "J", "Q", "K", "A")
DAMAGE = {1: 0, 2: 1, 3: 1, 4: 1, 5: 2, 6: 2}  # d6 + modifiers -> strength lost
# scenario: (title, briefing, turns, hand size, units as (id, name, strength, max, hidden))
SCENARIOS: dict[str, tuple[str, str, int, int, list[tuple[str, str, int, int, bool]]]] = {
    "skirmish": (
        "Skirmish",
        "Two small forces in the open.",
        4,
        2,
        [
            ("red-1", "Lancers", 3, 3, False),
            ("red-2", "Archers", 2, 2, False),
            ("blue-1", "Guards", 3, 3, False),
            ("blue-2", "Slingers", 2, 2, False),
        ],
    ),
    "ambush": (
        "Ambush",
        "Blue has scouts hidden in the woods, gathering their strength.",
        6,
        3,
        [
            ("red-1", "Lancers", 3, 3, False),
            ("red-2", "Archers", 2, 2, False),
            ("red-3", "Pikes", 2, 2, False),
            ("blue-1", "Guards", 3, 3, False),
            ("blue-2", "Slingers", 2, 2, False),
            ("blue-3", "Scouts", 1, 3, True),
        ],
    ),
}


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def card_value(card: str) -> int:
    return RANKS.index(card_rank(card))


@dataclass
class Unit:
    id: str
    side: str
    name: str
    strength: int
    max_strength: int
    hidden: bool = False


@dataclass
class TinyState:
    """Plain data: everything a position needs, and nothing that is not plain data."""

    scenario: str
    seed: int
    turns: int
    rng: RandomStream
    flow: FlowState
    deck: Deck
    units: dict[str, Unit]
    initiative: str = "red"
    acted: list[str] = field(default_factory=list)
    time_up: bool = False
    setup_events: list[Event] = field(default_factory=list)  # not part of the position

    def alive(self, side: str) -> bool:
        return any(u.side == side for u in self.units.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "seed": self.seed,
            "turns": self.turns,
            "rng": self.rng.to_dict(),
            "flow": self.flow.to_dict(),
            "deck": self.deck.to_dict(),
            "units": {uid: asdict(u) for uid, u in self.units.items()},
            "initiative": self.initiative,
            "acted": list(self.acted),
            "time_up": self.time_up,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TinyState:
        return cls(
            scenario=data["scenario"],
            seed=data["seed"],
            turns=data["turns"],
            rng=RandomStream.from_dict(data["rng"]),
            flow=FlowState.from_dict(data["flow"]),
            deck=Deck.from_dict(data["deck"]),
            units={uid: Unit(**u) for uid, u in data["units"].items()},
            initiative=data["initiative"],
            acted=list(data["acted"]),
            time_up=data["time_up"],
        )


def out_of_sight(events: Iterable[Event], side: str) -> list[Event]:
    """What a hidden unit did: its owner reads it, the enemy reads only that something moved."""
    public = note("secret", f"{side} acts out of sight", "tiny.hidden.secret", side=side)
    return [e.restricted((side,), public=public) for e in events]


# -- action kinds: each defined once (options, check, resolve, describe) ----------------------
class Bid(ActionKind[TinyState]):
    name, rule = "bid", "tiny.initiative.bid"

    def options(self, state: TinyState, side: str) -> Iterable[Action]:
        return [Action("bid", card=c) for c in sorted(state.deck.hands.get(side, []))]

    def describe(self, state: TinyState, side: str, action: Action) -> str:
        return f"bid {action.card} for the initiative"


class Attack(ActionKind[TinyState]):
    name, rule = "attack", "tiny.attack.hit"

    def options(self, state: TinyState, side: str) -> Iterable[Action]:
        mine = [u for u in state.units.values() if u.side == side]
        targets = [u for u in state.units.values() if u.side != side and not u.hidden]
        return [Action("attack", unit=a.id, target=t.id) for a in mine for t in targets]

    def test(self, state: TinyState, action: Action) -> Test:
        attacker, target = state.units[str(action.unit)], state.units[str(action.target)]
        mods = (Modifier("tiny.attack.odds", 1, "stronger"),)
        return Test(6, 4, self.rule, modifiers=mods if attacker.strength > target.strength else ())

    def resolve(self, state: TinyState, side: str, action: Action) -> list[Event]:
        attacker = state.units[str(action.unit)]
        events: list[Event] = []
        if attacker.hidden:
            attacker.hidden = False
            text = f"{attacker.name} ({attacker.id}) is revealed"
            events.append(note("reveal", text, "tiny.hidden.reveal", unit=attacker.id))
        if self.test(state, action).sample(state.rng, events):
            target = state.units[str(action.target)]
            data = {"attacker": attacker.id, "target": target.id, "side": side}
            state.flow.stack.append(Pending(target.side, ("brace", "take"), "react", data))
            events.append(note("hit", f"{target.name} is hit", "tiny.attack.react", unit=target.id))
        else:
            state.acted.append(side)
        return events

    def describe(self, state: TinyState, side: str, action: Action) -> str:
        chance = self.test(state, action).probability(bool)
        return f"{action.unit} attacks {action.target} (hits {float(chance):.0%})"


class React(ActionKind[TinyState]):
    """The defender's answer to a hit: ``brace`` (discard a card, -2 damage) or ``take``."""

    def __init__(self, name: str) -> None:
        self.name, self.rule = name, "tiny.attack.react"

    def options(self, state: TinyState, side: str) -> Iterable[Action]:
        if self.name == "take":
            return [Action("take")]
        return [Action("brace", card=c) for c in sorted(state.deck.hands.get(side, []))]

    def resolve(self, state: TinyState, side: str, action: Action) -> list[Event]:
        pending = state.flow.stack.pop()
        assert isinstance(pending, Pending)
        events: list[Event] = []
        if action.card is not None:
            state.deck.play(side, action.card)
            events.append(note("brace", f"{side} discards {action.card} to brace", self.rule))
        lookup = TableLookup(6, DAMAGE, "tiny.attack.damage", drm=-2 if action.card else 0, low=1)
        target = state.units[pending.data["target"]]
        target.strength -= lookup.sample(state.rng, events)
        if target.strength <= 0:
            del state.units[target.id]
            text = f"{target.name} is destroyed"
            events.append(note("destroyed", text, "tiny.attack.destroyed", unit=target.id))
        state.acted.append(pending.data["side"])
        return events

    def describe(self, state: TinyState, side: str, action: Action) -> str:
        return f"brace, discarding {action.card}" if action.card else "take the hit"


class Rally(ActionKind[TinyState]):
    name, rule = "rally", "tiny.rally"

    def options(self, state: TinyState, side: str) -> Iterable[Action]:
        weak = [u for u in state.units.values() if u.side == side and u.strength < u.max_strength]
        return [Action("rally", unit=u.id) for u in weak]

    def resolve(self, state: TinyState, side: str, action: Action) -> list[Event]:
        unit = state.units[str(action.unit)]
        events: list[Event] = []
        if Test(6, 5, self.rule, data={"unit": unit.id}).sample(state.rng, events):
            unit.strength += 1
        state.acted.append(side)
        return out_of_sight(events, side) if unit.hidden else events


class Hold(FixedChoice[TinyState]):
    name, rule = "hold", "tiny.hold"

    def resolve(self, state: TinyState, side: str, action: Action) -> list[Event]:
        state.acted.append(side)
        return [note("hold", f"{side} holds", self.rule)]


# -- the turn ---------------------------------------------------------------------------------
def draw_cards(state: TinyState) -> list[Event]:
    state.acted = []
    events = []
    for side in SIDES:
        card = state.deck.draw(state.rng)
        if card is not None:
            state.deck.give(side, card)
            public = note("draw", f"{side} draws a card", "tiny.cards.draw", side=side)
            text = f"{side} draws {card}"
            events.append(note("draw", text, "tiny.cards.draw", visible_to=(side,), public=public))
    return events


def open_bids(state: TinyState) -> list[Event]:
    if all(state.deck.hands.get(s) for s in SIDES):
        state.flow.stack.append(SecretCommit(SIDES, ("bid",), "bid"))
        return []
    state.initiative = other(state.initiative)
    return [
        note("initiative", f"no bids: {state.initiative} has the initiative", "tiny.initiative.tie")
    ]


def fight_to_act(state: TinyState) -> str | None:
    order = (state.initiative, other(state.initiative))
    return next((s for s in order if s not in state.acted), None)


def turn_end(state: TinyState) -> list[Event]:
    if state.flow.turn < state.turns:
        return []
    state.time_up = True
    return [note("end", f"turn {state.turns} was the last", "tiny.victory.turns")]


@cache
def rule_catalog() -> dict[str, RuleEntry]:
    return load_catalog(DATA / "rules.yaml", "tiny")


class Tiny(RulesetBase[TinyState], FlowRules[TinyState]):
    meta = RulesetMeta(
        id="tiny",
        version="1",
        title="Tiny Skirmish (test ruleset)",
        players=SIDES,
        information="imperfect",
        max_turns=12,
        max_actions=400,
    )
    capabilities = Capabilities(
        scripted=Lazy("umpire_tiny.agent:TinyScripted"),
        catalog=lambda: rule_catalog(),
        rules_markdown=lambda: catalog_markdown(
            "Tiny Skirmish", "tiny", "Every rule here is a house rule.", rule_catalog()
        ),
        render=lambda state, viewer: render(state, viewer),
        status_line=lambda state: f"turn {state.flow.turn}/{state.turns}",
        options=(Option("turns", "Number of turns (default: the scenario's).", type="int"),),
        side_colours={"red": "#c0392b", "blue": "#2e86c1"},
    )

    def __init__(self) -> None:
        phases = [
            Phase[TinyState]("bid", on_begin=open_bids),
            Phase[TinyState]("fight", ("attack", "rally", "hold"), to_act=fight_to_act),
        ]
        flow = Flow(
            phases,
            lambda s: s.flow,
            on_turn_begin=draw_cards,
            on_turn_end=turn_end,
            game_over=lambda s: s.time_up or not all(s.alive(side) for side in SIDES),
        )
        kinds = [Bid(), Attack(), React("brace"), React("take"), Rally(), Hold()]
        FlowRules.__init__(self, flow, kinds)

    def reveal(self, state: TinyState, commit: SecretCommit) -> list[Event]:
        """Both bids are turned over together; the higher card takes the initiative."""
        bids = {s: str(commit.committed[s]["card"]) for s in SIDES}
        for side, card in bids.items():
            state.deck.play(side, card)
        red, blue = (card_value(bids[s]) for s in SIDES)
        rule = "tiny.initiative.bid" if red != blue else "tiny.initiative.tie"
        state.initiative = other(state.initiative) if red == blue else SIDES[int(blue > red)]
        text = (
            f"bids: red {bids['red']}, blue {bids['blue']}: {state.initiative} has the initiative"
        )
        return [note("initiative", text, rule, bids=bids)]

    def scenario_ids(self) -> list[str]:
        return list(SCENARIOS)

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        title, briefing, *_ = SCENARIOS[scenario]
        return ScenarioInfo(scenario, title, briefing)

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> TinyState:
        if scenario not in SCENARIOS:
            raise UnknownScenarioError(f"tiny has no scenario {scenario!r}")
        _, _, turns, hand, units = SCENARIOS[scenario]
        rng = RandomStream(seed)
        cards = [c for c in standard_deck(0) if card_rank(c) in RANKS]
        state = TinyState(
            scenario,
            seed,
            int(options.get("turns") or turns),
            rng,
            FlowState(),
            Deck.shuffled(cards, rng),
            {u[0]: Unit(u[0], u[0].split("-")[0], *u[1:]) for u in units},
        )
        state.deck.deal(SIDES, hand, rng)
        for side in SIDES:
            dealt = ", ".join(state.deck.hands[side])
            public = note("deal", f"{side} is dealt {hand} cards", "tiny.cards.deal")
            text = f"{side} is dealt {dealt}"
            state.setup_events.append(
                note("deal", text, "tiny.cards.deal", visible_to=(side,), public=public)
            )
        state.setup_events += self.flow.start(state)
        return state

    def outcome(self, state: TinyState) -> Outcome | None:
        if not state.flow.over:
            return None
        alive = [s for s in SIDES if state.alive(s)]
        if len(alive) < 2:
            winner = alive[0] if alive else "draw"
            return Outcome(winner, "annihilation", {"rule": "tiny.victory.annihilation"})
        power = {s: sum(u.strength for u in state.units.values() if u.side == s) for s in SIDES}
        winner = "draw" if power["red"] == power["blue"] else max(power, key=power.__getitem__)
        return Outcome(winner, "turn limit", {"strength": power})

    def observation(self, state: TinyState, player: str) -> dict[str, Any]:
        """What ``player`` may know: no stream, no enemy hand, no pile order, no hidden enemy
        unit, no enemy bid."""
        seen = {
            uid: asdict(u) for uid, u in state.units.items() if u.side == player or not u.hidden
        }
        hidden = sum(1 for u in state.units.values() if u.side != player and u.hidden)
        return {
            "player": player,
            "scenario": state.scenario,
            "turns": state.turns,
            "flow": state.flow.to_dict(viewer=player),
            "initiative": state.initiative,
            "acted": list(state.acted),
            "units": seen,
            "hidden_enemies": hidden,
            "deck": state.deck.view(player),
        }

    def resample(self, state: TinyState, player: str, rng: random.Random) -> TinyState:
        """Deal the cards ``player`` cannot see at random (keeping every count), move the
        enemy's secret bid to a card of its new hand, and draw new future dice."""
        twin = self.clone(state)
        unseen = sorted(twin.deck.unseen_by(player), key=str)  # not in the truth's order
        rng.shuffle(unseen)
        for side in SIDES:
            if side != player:
                count = len(twin.deck.hands.get(side, []))
                twin.deck.hands[side], unseen = unseen[:count], unseen[count:]
        twin.deck.pile = unseen
        for decision in twin.flow.stack:
            if isinstance(decision, SecretCommit):
                for side in decision.committed:
                    if side != player:
                        card = rng.choice(sorted(twin.deck.hands[side]))
                        decision.committed[side] = Action("bid", card=card).to_dict()
        twin.rng = RandomStream(rng.randrange(2**32))
        return twin

    def state_to_dict(self, state: TinyState) -> dict[str, Any]:
        return state.to_dict()

    def state_from_dict(self, data: Mapping[str, Any]) -> TinyState:
        return TinyState.from_dict(data)

    def clone(self, state: TinyState) -> TinyState:
        twin = TinyState.from_dict(state.to_dict())
        twin.setup_events = list(state.setup_events)
        return twin

    def summary(self, state: TinyState) -> dict[str, Any]:
        return {
            "turns": state.flow.turn,
            "strength": {
                s: sum(u.strength for u in state.units.values() if u.side == s) for s in SIDES
            },
        }


def render(state: TinyState, viewer: str | None) -> str:
    """The position as ``viewer`` sees it, in a few lines of text."""
    lines = [f"turn {state.flow.turn}/{state.turns}, initiative {state.initiative}"]
    for unit in state.units.values():
        if unit.hidden and viewer not in (None, unit.side):
            continue
        mark = " (hidden)" if unit.hidden else ""
        lines.append(
            f"  {unit.id:8} {unit.name:9} strength {unit.strength}/{unit.max_strength}{mark}"
        )
    if viewer is not None:
        lines.append(f"  your hand: {', '.join(state.deck.hands.get(viewer, [])) or '-'}")
    return "\n".join(lines)
