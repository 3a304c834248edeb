"""Tactical Advantage cards (sevendays.cards.*): the deck as data, the deal and the swap before
turn 1, playing cards and the response chain, and each card's effect.

A side may play a card whenever it has a decision (house timing for "at any time during either
side's activation": its own activations and the reaction windows in the enemy's). A card played
opens a response window for the other side if it holds a card that can answer; answers may be
answered in turn. When a side declines, the chain resolves from the top: a response that is not
itself cancelled cancels the card it answered; cancelled cards have no effect.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from umpire.core.actions import Action
from umpire.core.chance import Chance, Faces, Fixed, TableLookup, Test
from umpire.core.datafiles import load_yaml
from umpire.core.errors import DataFileError, IllegalActionError
from umpire.core.events import Event, note, roll
from umpire.core.flow import Pending
from umpire.rulesets.sevendays.damage import (
    conversion,
    conversion_roll,
    resolve_foot_hits,
    resolve_vehicle_hit,
)
from umpire.rulesets.sevendays.los import sight
from umpire.rulesets.sevendays.morale import add_markers
from umpire.rulesets.sevendays.movement import check_move, do_move, move_options
from umpire.rulesets.sevendays.orbat import UnitType, Weapon
from umpire.rulesets.sevendays.scenario import side_orbat
from umpire.rulesets.sevendays.shots import ShotPlan, ToHit, hits_front
from umpire.rulesets.sevendays.state import (
    CARD_KINDS,
    SIDES,
    Phase,
    SevenDaysState,
    Side,
    Unit,
    other,
)
from umpire.rulesets.sevendays.visibility import about
from umpire.rulesets.sevendays.world import World

DATA = Path(__file__).parent / "data" / "cards.yaml"
TIMINGS = ("any", "initiative", "start", "response")


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    count: int
    when: str
    provenance: str
    ref: str
    summary: str
    needs: str | None = None
    cancels: tuple[str, ...] = ()
    to_hit: int = 0
    weapon: int = 0
    dice: int = 1
    targets: int = 1
    tokens: int = 0
    radius: float = 0.0


@dataclass(frozen=True)
class Deck:
    cards: dict[str, Card]
    hand: int
    swap: int


@cache
def load_deck(path: Path = DATA) -> Deck:
    """The deck, validated: one-line errors name the file and the card."""
    raw = load_yaml(path)
    cards: dict[str, Card] = {}
    for index, entry in enumerate(raw.get("deck", [])):
        where = f"{path}: field deck.{index}"
        try:
            card = Card(**{**entry, "cancels": tuple(entry.get("cancels", ()))})
        except TypeError as exc:
            raise DataFileError(f"{where}: {exc}") from exc
        if card.when not in TIMINGS:
            raise DataFileError(f"{where}.when: {card.when!r} is not one of {', '.join(TIMINGS)}")
        cards[card.id] = card
    return Deck(cards, int(raw.get("hand", 5)), int(raw.get("swap", 2)))


# -- the deal and the swap --------------------------------------------------------------------
def deal(state: SevenDaysState) -> list[Event]:
    """Shuffle the deck with the game's stream and deal each side its hand (seen by its owner
    only)."""
    deck = load_deck()
    pile = [c.id for c in deck.cards.values() for _ in range(c.count)]
    state.rng.shuffle(pile)
    hands = {side: [pile.pop() for _ in range(deck.hand)] for side in SIDES}
    state.cards = {
        "deck": pile,
        "hands": hands,
        "discard": [],
        "set_aside": {},
        "chain": [],
    }
    events = [
        note(
            "cards",
            f"each side is dealt {deck.hand} Tactical Advantage cards",
            "sevendays.cards.deal",
        )
    ]
    for side in SIDES:
        events.append(
            note(
                "hand",
                f"{side.upper()} holds: {', '.join(_names(hands[side]))}",
                "sevendays.cards.deal",
                visible_to=[side],
                public=note(
                    "hand",
                    f"{side.upper()} holds {len(hands[side])} cards",
                    "sevendays.cards.deal",
                ),
            )
        )
    return events


def _table(state: SevenDaysState) -> dict[str, Any]:
    """The card state of a game that plays with cards."""
    if state.cards is None:
        raise IllegalActionError("no cards are in play in this game", "sevendays.cards.play")
    return state.cards


def _names(ids: list[str]) -> list[str]:
    cards = load_deck().cards
    return [cards[i].name for i in ids]


def swap_options(state: SevenDaysState, side: str) -> list[str]:
    """Every choice of up to ``swap`` cards to exchange, as ``+``-joined card ids."""
    hand = sorted(_table(state)["hands"][side])
    out = {""}
    for size in range(1, load_deck().swap + 1):
        out |= {"+".join(combo) for combo in itertools.combinations(hand, size)}
    return sorted(out)


def swap(state: SevenDaysState, side: str, option: str) -> list[Event]:
    """Exchange the named cards for fresh ones from the deck (the enemy sees only how many)."""
    if option not in swap_options(state, side):
        raise IllegalActionError(
            f"{side.upper()} may exchange up to {load_deck().swap} cards it holds",
            "sevendays.cards.deal",
        )
    names = [n for n in option.split("+") if n]
    hand = _table(state)["hands"][side]
    aside = _table(state).setdefault("set_aside", {}).setdefault(side, [])
    for name in names:  # out of play, face down: the enemy learns only how many
        hand.remove(name)
        aside.append(name)
    drawn = [_table(state)["deck"].pop() for _ in names]
    hand += drawn
    events = [
        note("swap", f"{side.upper()} exchanges {len(names)} card(s)", "sevendays.cards.deal")
    ]
    if names:
        events.append(
            note(
                "hand",
                f"{side.upper()} discards {', '.join(_names(names))}, draws "
                f"{', '.join(_names(drawn))}",
                "sevendays.cards.deal",
                visible_to=[side],
            )
        )
    return events


# -- what may be played -----------------------------------------------------------------------
def _commander_or_recce(world: World, state: SevenDaysState, side: str) -> list[Unit]:
    return [u for u in state.alive(side) if u.commander or "recce" in world.profile(u).traits]


def _spotted(world: World, state: SevenDaysState, side: str, target: Unit) -> bool:
    return not target.hidden and any(
        sight(world, state, eye, target).visible for eye in _commander_or_recce(world, state, side)
    )


def _air_defence(world: World, state: SevenDaysState, side: str) -> bool:
    return any(world.profile(u).traits & {"sam", "aa", "manpad"} for u in state.alive(side))


def _about_to_go(world: World, unit: Unit) -> bool:
    morale = world.profile(unit).morale
    return morale is not None and unit.markers >= morale - 1 and unit.markers > 0


def _reserve_choices(state: SevenDaysState, world: World, side: str) -> list[str]:
    units = side_orbat(world.scenario.spec.sides[side]).units  # type: ignore[index]
    return [u.id for u in units if u.type is UnitType.MBT or u.type is UnitType.INFANTRY]


def playable(
    world: World, state: SevenDaysState, side: str, only: set[str] | None = None
) -> list[Action]:
    """The card plays open to ``side`` at its decision now (not responses: see
    :func:`responses`); ``only`` limits the search to those card ids."""
    cards = state.cards
    if not cards or cards["chain"]:
        return []
    deck = load_deck().cards
    flow = state.flow
    phase = flow.phase
    out: list[Action] = []
    # sevendays.air.helicopter: cards strike targets on the ground, never a helicopter
    enemies = [u for u in state.alive(other(side)) if not u.hidden and not world.is_helicopter(u)]
    for card_id in sorted(set(cards["hands"][side])):
        card = deck[card_id]
        if card.when == "response" or (only is not None and card_id not in only):
            continue
        if card.when == "start" and phase != "swap":
            continue
        if card.when != "start" and phase == "swap":
            continue
        if card.when == "initiative" and not (phase == "activate" and flow.initiative == side):
            continue
        out += _plays(world, state, side, card, enemies)
    return out


def _plays(
    world: World, state: SevenDaysState, side: str, card: Card, enemies: list[Unit]
) -> list[Action]:
    cid = card.id
    if cid == "communications":
        return [
            Action("card", unit=u.uid, point=p, option=cid)
            for u in state.alive(side)
            for p in move_options(world, state, u, "normal")[:6]
        ]
    if cid == "against_all_odds":
        return [
            Action("card", unit=u.uid, option=cid)
            for u in state.alive(side)
            if _about_to_go(world, u)
        ]
    if cid in ("divisional_artillery", "electronic_warfare"):
        return [Action("card", option=cid)]
    if cid == "reserves":
        return [Action("card", option=f"{cid}|{p}") for p in _reserve_choices(state, world, side)]
    if cid == "tank_missile":
        act = state.flow.activation
        if act is None or act.fired or state.units[act.unit].side != side:
            return []
        tank = state.units[act.unit]
        if world.profile(tank).type is not UnitType.MBT:
            return []
        return [
            Action("card", unit=tank.uid, target=e.uid, option=cid)
            for e in enemies
            if world.is_vehicle(e)
            and math.dist(e.pos, tank.pos) > 12
            and sight(world, state, tank, e).visible
        ]
    seen = [e for e in enemies if _spotted(world, state, side, e)]
    if cid == "precision_strike":
        vehicles = [e for e in seen if world.is_vehicle(e)]
        out = [Action("card", target=e.uid, option=cid) for e in vehicles]
        out += [
            Action("card", target=a.uid, option=f"{cid}|{b.uid}")
            for a, b in itertools.combinations(vehicles, 2)
        ]
        return out
    if cid in ("airstrike", "off_table_artillery"):
        return [Action("card", target=e.uid, option=cid) for e in seen]
    return []


def responses(world: World, state: SevenDaysState, side: str) -> list[Action]:
    """The answers ``side`` may play to the card on top of the chain."""
    chain = state.cards["chain"] if state.cards else []
    if not chain or chain[-1]["side"] == side:
        return []
    top = chain[-1]["card"]
    deck = load_deck().cards
    out = []
    for card_id in sorted(set(_table(state)["hands"][side])):
        card = deck[card_id]
        if card.when != "response" or not ("any" in card.cancels or top in card.cancels):
            continue
        if card.needs == "air_defence" and not _air_defence(world, state, side):
            continue
        out.append(Action("card", option=card_id))
    return out


# -- playing ----------------------------------------------------------------------------------
def play(world: World, state: SevenDaysState, side: str, action: Action) -> list[Event]:
    """Put a card on the chain (the action has passed the ``card`` kind's check), then open
    the enemy's response window (a pending decision on the flow's stack) or resolve."""
    card_id = (action.option or "").partition("|")[0]
    card = load_deck().cards[card_id]
    table = _table(state)
    table["hands"][side].remove(card_id)
    stack = state.flow.core.stack
    if stack and stack[-1].stage == Phase.CARD:
        stack.pop()  # this card answers the window that was open
    table["chain"].append({"card": card_id, "side": side, "action": action.to_dict()})
    answered = (
        f" in answer to {load_deck().cards[table['chain'][-2]['card']].name}"
        if len(table["chain"]) > 1
        else ""
    )
    events = [
        note(
            "card",
            f"{side.upper()} plays {card.name}{answered}",
            f"sevendays.cards.{card_id}",
            card=card_id,
        )
    ]
    if responses(world, state, other(side)):
        stack.append(Pending(other(side), CARD_KINDS, Phase.CARD))
        return events
    return events + resolve_chain(world, state)


def refuse_play(state: SevenDaysState, side: str, action: Action) -> IllegalActionError:
    """Why a card play that is not among the options is refused (naming the card's rule)."""
    card_id = (action.option or "").partition("|")[0]
    held = card_id in _table(state)["hands"][side]
    why = "not now or not on that target" if held else "not in the hand"
    return IllegalActionError(
        f"{side.upper()} cannot play {card_id or 'that card'}: {why}",
        f"sevendays.cards.{card_id}" if card_id in load_deck().cards else "sevendays.cards.play",
    )


def decline(world: World, state: SevenDaysState, side: str) -> list[Event]:
    """``side`` lets the card on top of the chain stand: its window closes, the chain resolves."""
    stack = state.flow.core.stack
    if stack and stack[-1].stage == Phase.CARD:
        stack.pop()
    events = [note("no_response", f"{side.upper()} does not answer", "sevendays.cards.play")]
    return events + resolve_chain(world, state)


def resolve_chain(world: World, state: SevenDaysState) -> list[Event]:
    """Resolve from the top: uncancelled responses cancel what they answered."""
    chain = _table(state)["chain"]
    cancelled = [False] * len(chain)
    deck = load_deck().cards
    events: list[Event] = []
    for index in range(len(chain) - 1, -1, -1):
        entry = chain[index]
        card = deck[entry["card"]]
        if cancelled[index]:
            events.append(
                note("cancelled", f"{card.name} is cancelled", f"sevendays.cards.{card.id}")
            )
            continue
        if card.when == "response":
            cancelled[index - 1] = True
            continue
        events += _effect(world, state, entry["side"], card, Action.from_dict(entry["action"]))
    _table(state)["discard"] += [e["card"] for e in chain]
    _table(state)["chain"] = []
    state.touch()
    return events


# -- the cards' rolls, each one chance definition (sampled below, enumerated by the odds) ---------
HEAT_ATTACKS = frozenset({"airstrike", "tank_missile"})  # house: their warheads are HEAT
SIDE_ATTACKS = frozenset({"precision_strike", "airstrike"})  # always hit the side armour
# heavy conversion? Artillery hits convert on the p19 artillery row (2d6): both cards
BOMBARDMENTS = {"divisional_artillery": True, "off_table_artillery": True}


def bombard_hit(
    card: Card, text: Callable[[Faces, int, bool], str] | str = "", **data: Any
) -> Test:
    """Divisional and off-table artillery: a d10 per unit, hit on the card's score."""
    return Test(sides=10, need=card.to_hit, rule=f"sevendays.cards.{card.id}", text=text, data=data)


def against_all_odds_roll(
    markers: int, text: Callable[[Faces, int, int], str] | str = "", **data: Any
) -> TableLookup[int]:
    """Against All Odds: a d6 removes that many morale markers (at most those there are);
    the outcome is the number removed."""
    return TableLookup(
        sides=6,
        row=lambda die: min(markers, die),
        rule="sevendays.cards.against_all_odds",
        text=text,
        data=data,
        success=lambda removed: removed > 0,
    )


def bombard_markers(card: Card, vehicle: bool, cover: str) -> Chance[int]:
    """The markers a bombardment card puts on one unit, as one chance: its d10, then on a hit
    one marker and, on infantry or support, the conversion die as for the weapon class (the
    rolls :func:`_bombard_one` makes, in its order)."""
    converted = conversion_roll(1, BOMBARDMENTS[card.id], cover).map(_one_more)
    struck: Chance[int] = Fixed(1) if vehicle else converted
    missed: Chance[int] = Fixed(0)
    return bombard_hit(card).then(lambda hit: struck if hit else missed)


def _one_more(extra: int) -> int:
    return 1 + extra


def card_attack_plan(card: Card, vehicle: bool, cover: str, *, heat: bool, front: bool) -> ShotPlan:
    """A card's attack as a shot plan: the card's d10s and score, then the game's own hit
    effects (heavy conversion against infantry)."""
    return ShotPlan(
        firer=card.id,
        target="",
        weapon_kind=card.id,
        weapon=Weapon(value=card.weapon, heat=heat),
        dice=card.dice,
        base=card.to_hit,
        need=card.to_hit,
        range=0.0,
        target_is_vehicle=vehicle,
        heavy=True,
        cover=cover,
        front=front,
    )


# -- effects ----------------------------------------------------------------------------------
def _card_plan(card: Card, target: Unit, world: World, heat: bool, front: bool) -> ShotPlan:
    vehicle = world.is_vehicle(target)
    cover = (
        "fortified"
        if target.dug_in and not vehicle
        else ("cover" if world.in_cover(target) or target.dug_in else "open")
    )
    plan = card_attack_plan(card, vehicle, cover, heat=heat, front=front)
    return plan._replace(target=target.uid)


def _attack(
    world: World, state: SevenDaysState, card: Card, target: Unit, *, heat: bool, front: bool
) -> list[Event]:
    """A card's attack: the card's d10s to hit, then the game's own hit effects."""
    if not target.alive:
        return [note("card", f"{target.name} is no longer there", f"sevendays.cards.{card.id}")]
    plan = _card_plan(card, target, world, heat, front)

    def record(dice: list[int], hits: int) -> Event:
        return roll(
            f"sevendays.cards.{card.id}",
            f"{card.name} at {target.name}: {len(dice)}d10 {dice} need {card.to_hit}+ -> "
            + ("hits" if hits else "misses"),
            dice,
            hits,
            card.to_hit,
            hits > 0,
            target=target.uid,
        )

    events: list[Event] = []
    hits = ToHit(plan, record=record).sample(state.rng, events)
    if hits:
        if plan.target_is_vehicle:
            events += resolve_vehicle_hit(world, state, plan, target)
        else:
            events += resolve_foot_hits(world, state, plan, hits, target)
    return events


def _bombard(
    world: World, state: SevenDaysState, card: Card, targets: list[Unit], heavy: bool
) -> list[Event]:
    """Divisional and off-table artillery: a d10 per unit, a marker on a hit, then a conversion
    die for infantry and support as for the weapon class."""
    events: list[Event] = []
    for target in targets:
        events += _bombard_one(world, state, card, target, heavy)
    return events


def _bombard_one(
    world: World, state: SevenDaysState, card: Card, target: Unit, heavy: bool
) -> list[Event]:
    rule = f"sevendays.cards.{card.id}"
    log: list[Event] = []
    struck = bombard_hit(
        card,
        lambda faces, _total, _hit: (
            f"{card.name} on {target.name}: d10 {faces[0]} need {card.to_hit}+"
        ),
        target=target.uid,
    ).sample_result(state.rng, log)
    events = [about(target, log[0], f"{card.name} on {target.marker}: d10 {struck.faces[0]}")]
    if not struck.success:
        return events
    events += add_markers(world, state, target, 1, rule, card.name)
    if target.alive and not world.is_vehicle(target):
        cover = "cover" if world.in_cover(target) else "open"
        need = conversion(heavy, cover)[1]
        log = []
        extra = conversion_roll(
            1,
            heavy,
            cover,
            lambda faces, k: f"conversion {list(faces)} need {need}+ -> {k} more",
            rule=rule,
            target=target.uid,
        ).sample(state.rng, log)
        dice = list(log[0]["dice"])
        events.append(about(target, log[0], f"conversion {dice} -> {extra} more"))
        events += add_markers(world, state, target, extra, rule, "conversion")
    return events


def _effect(
    world: World, state: SevenDaysState, side: str, card: Card, action: Action
) -> list[Event]:
    rule = f"sevendays.cards.{card.id}"
    cid = card.id
    extra = (action.option or "").partition("|")[2]
    if cid == "communications":
        unit = state.units[action.unit or ""]
        assert action.point is not None
        if not unit.alive or check_move(world, state, unit, "normal", action.point):
            return [note("card", f"{unit.name} cannot make that move now", rule)]
        return do_move(world, state, unit, "normal", action.point)
    if cid == "against_all_odds":
        unit = state.units[action.unit or ""]
        rallied: list[Event] = []
        removed = against_all_odds_roll(
            unit.markers,
            lambda _faces, die, removed: (
                f"{unit.name} rallies against all odds: d6 {die}, removes {removed} marker(s)"
            ),
            unit=unit.uid,
        ).sample(state.rng, rallied)
        unit.markers -= removed
        return rallied
    if cid == "divisional_artillery":
        grounded = [u for u in state.alive(other(side)) if not world.is_helicopter(u)]
        return _bombard(world, state, card, grounded, heavy=BOMBARDMENTS[cid])
    if cid == "off_table_artillery":
        centre = state.units[action.target or ""]
        near = [
            u
            for u in state.alive()
            if math.dist(u.pos, centre.pos) <= card.radius and not world.is_helicopter(u)
        ]
        return _bombard(world, state, card, near, heavy=BOMBARDMENTS[cid])
    if cid == "precision_strike":
        targets = [state.units[action.target or ""]] + ([state.units[extra]] if extra else [])
        events: list[Event] = []
        for target in targets:
            events += _attack(world, state, card, target, heat=cid in HEAT_ATTACKS, front=False)
        return events
    if cid == "airstrike":
        target = state.units[action.target or ""]
        return _attack(world, state, card, target, heat=cid in HEAT_ATTACKS, front=False)
    if cid == "tank_missile":
        tank = state.units[action.unit or ""]
        target = state.units[action.target or ""]
        if state.flow.activation is not None and state.flow.activation.unit == tank.uid:
            state.flow.activation.fired = True
        front = hits_front(target, tank.pos)
        return _attack(world, state, card, target, heat=cid in HEAT_ATTACKS, front=front)
    if cid == "electronic_warfare":
        enemy = other(side)
        lost = min(card.tokens, state.flow.pools[enemy])
        state.flow.pools[enemy] -= lost
        return [note("tokens", f"{enemy.upper()} loses {lost} command token(s) to jamming", rule)]
    if cid == "reserves":
        return _reinforce(world, state, side, extra, rule)
    return []


def _reinforce(
    world: World, state: SevenDaysState, side: str, profile_id: str, rule: str
) -> list[Event]:
    spec = world.scenario.spec
    side_spec = spec.sides[side]  # type: ignore[index]
    nation = side_orbat(side_spec)
    start_y = sum(u.at[1] for u in side_spec.units) / len(side_spec.units)
    y = 1.0 if start_y < spec.table.height / 2 else spec.table.height - 1.0
    x = spec.table.width / 2
    while any(math.dist((x, y), u.pos) < 3 for u in state.units.values() if u.alive):
        x += 3.0
    wanted = [profile_id]
    if nation.profile(profile_id).type is UnitType.INFANTRY:
        apcs = [u.id for u in nation.units if "apc" in u.traits]
        wanted += apcs[:1]
    events: list[Event] = []
    for offset, pid in enumerate(wanted):
        profile = nation.profile(pid)
        key = f"{nation.nation}/{pid}"
        world.add_profile(key, profile)
        number = sum(1 for u in state.units if u.startswith(f"{side}-card-")) + 1
        uid = f"{side}-card-{number}"
        state.units[uid] = Unit(
            uid=uid,
            side=Side(side),
            profile=key,
            name=f"{profile.name} (card-{number})",
            x=x + 2.0 * offset,
            y=y,
            facing=side_spec.facing,
        )
        events.append(
            note("reserve", f"{profile.name} arrives from the upper echelon", rule, unit=uid)
        )
    state.touch()
    return events


def view(cards: dict[str, Any] | None, player: str) -> dict[str, Any] | None:
    """What ``player`` may know of the cards: its hand, the enemy's hand size, the public
    discard pile and chain, the size of the deck (never its order)."""
    if not cards:
        return None
    return {
        "hand": list(cards["hands"].get(player, [])),
        "set_aside": list(cards.get("set_aside", {}).get(player, [])),
        "enemy_hand": len(cards["hands"].get(other(player), [])),
        "deck": len(cards["deck"]),
        "discard": list(cards["discard"]),
        "chain": [{"card": c["card"], "side": c["side"]} for c in cards["chain"]],
    }
