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
from umpire.rulesets.sevendays.morale import add_markers, may_rescue, remove
from umpire.rulesets.sevendays.movement import check_move, do_move, move_options
from umpire.rulesets.sevendays.orbat import UnitType, Weapon
from umpire.rulesets.sevendays.scenario import house_profile, side_orbat
from umpire.rulesets.sevendays.shots import ShotPlan, ToHit, hits_front
from umpire.rulesets.sevendays.state import (
    CARD_KINDS,
    OFF_BOARD_KINDS,
    RESCUE_KINDS,
    SIDES,
    Phase,
    SevenDaysState,
    Side,
    Status,
    Unit,
    other,
)
from umpire.rulesets.sevendays.tally import with_status
from umpire.rulesets.sevendays.transport import capacity, embark
from umpire.rulesets.sevendays.visibility import about, label
from umpire.rulesets.sevendays.world import World

DATA = Path(__file__).parent / "data" / "cards.yaml"
TIMINGS = ("any", "initiative", "start", "response", "removal")


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


def _reserve_choices(state: SevenDaysState, world: World, side: str) -> list[str]:
    """Reserves (book p22-23): one MBT, or one infantry unit alone or embarked in an APC of
    the same list that can carry it (``infantry+apc``)."""
    units = side_orbat(world.scenario.spec.sides[side]).units  # type: ignore[index]
    apcs = [u.id for u in units if capacity(u)[0] and not capacity(u)[1]]
    out: list[str] = []
    for u in units:
        if u.type is UnitType.MBT:
            out.append(u.id)
        elif u.type is UnitType.INFANTRY:
            out += [u.id, *(f"{u.id}+{apc}" for apc in apcs)]
    return out


def rescue_unit(state: SevenDaysState) -> Unit | None:
    """The unit about to be removed whose owner decides now (a ``rescue`` decision on top)."""
    stack = state.flow.core.stack
    top = stack[-1] if stack else None
    if top is None or top.stage != Phase.RESCUE or not isinstance(top.data.get("unit"), str):
        return None
    key = top.data["unit"]  # the uid, or the marker of a hidden unit (the enemy reads it)
    return next(
        (u for u in state.units.values() if u.status == Status.DOOMED and key in (u.uid, u.marker)),
        None,
    )


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
    stage = str(phase)
    if stage == "rescue":  # sevendays.cards.against_all_odds: at the moment of removal
        doomed = rescue_unit(state)
        held = "against_all_odds" in cards["hands"][side]
        wanted = only is None or "against_all_odds" in only
        if doomed is None or doomed.side != side or not held or not wanted:
            return []
        return [Action("card", unit=doomed.uid, option="against_all_odds")]
    if stage == "off_board":
        return []
    # sevendays.air.helicopter: cards strike targets on the ground, never a helicopter
    enemies = [u for u in state.alive(other(side)) if not u.hidden and not world.is_helicopter(u)]
    for card_id in sorted(set(cards["hands"][side])):
        card = deck[card_id]
        if only is not None and card_id not in only:
            continue
        if _open(state, side, card):
            out += _plays(world, state, side, card, enemies)
    return out


def _open(state: SevenDaysState, side: str, card: Card) -> bool:
    """Whether ``card`` may be played at ``side``'s decision in this phase (not as an answer,
    not at a removal; the rescue and off-board decisions are settled before)."""
    phase = state.flow.phase
    if card.when in ("response", "removal"):
        return False
    if card.when == "start" or phase == "swap":
        return card.when == "start" and phase == "swap"
    if card.when == "initiative":
        # "at any time you have initiative" (book p22-23, Precision Guided Artillery Strike):
        # choosing an activation, or during one of its own units' activations
        return phase in ("activate", "act") and state.flow.initiative == side
    return True


def communications_refusal(
    world: World, state: SevenDaysState, side: str, action: Action
) -> IllegalActionError | None:
    """Why a Communications play is illegal, or ``None`` (sevendays.cards.communications, book
    p22-23): the card gives the unit a single move action, so it takes every point an ordinary
    normal move of that unit takes (:func:`check_move`), not only the menu's short list; with a
    command token spent, the same for an enemy unit the player can see."""
    cards = state.cards
    refused = refuse_play(state, side, action)
    card_id, _, extra = (action.option or "").partition("|")
    if cards is None or cards["chain"] or card_id != "communications" or extra not in ("", "enemy"):
        return refused
    if str(state.flow.phase) in ("rescue", "off_board"):
        return refused
    card = load_deck().cards[card_id]
    if card_id not in cards["hands"][side] or not _open(state, side, card):
        return refused
    unit = state.units.get(action.unit or "")
    if unit is None or action.point is None or action.target is not None or not unit.alive:
        return refused
    if extra == "enemy":
        # the enemy units the menu offers: seen (not a hidden marker), on the ground
        if state.flow.pools[side] <= 0 or unit.side == side or unit.hidden:
            return refused
        if world.is_helicopter(unit):
            return refused
    elif unit.side != side:
        return refused
    why = check_move(world, state, unit, "normal", action.point)
    if why is not None:
        return IllegalActionError(f"{unit.name}: {why.reason}", why.rule)
    return None


def _plays(
    world: World, state: SevenDaysState, side: str, card: Card, enemies: list[Unit]
) -> list[Action]:
    cid = card.id
    if cid == "communications":
        own = [
            Action("card", unit=u.uid, point=p, option=cid)
            for u in state.alive(side)
            for p in move_options(world, state, u, "normal")[:6]
        ]
        if state.flow.pools[side] <= 0:
            return own
        # the card's special: spending a command token moves an enemy unit instead (book
        # p22-23; "instead of a friendly unit" is our reading, sevendays.cards.communications)
        return own + [
            Action("card", unit=e.uid, point=p, option=f"{cid}|enemy")
            for e in enemies
            for p in move_options(world, state, e, "normal")[:6]
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
    if stack and stack[-1].stage in (Phase.CARD, Phase.RESCUE):
        stack.pop()  # this card answers the window that was open (or the unit's removal)
    table["chain"].append({"card": card_id, "side": side, "action": action.to_dict()})
    answered = (
        f" in answer to {load_deck().cards[table['chain'][-2]['card']].name}"
        if len(table["chain"]) > 1
        else ""
    )
    events = [
        note(
            "card",
            f"{side.upper()} plays {card.name}{answered}{_played_on(state, action)}: "
            f"{card.summary}",
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


def _played_on(state: SevenDaysState, action: Action) -> str:
    """What a played card names, as everyone reads it (a hidden unit by its marker)."""
    card_id, _, extra = (action.option or "").partition("|")
    units = state.units
    named = [units[u] for u in (action.unit, action.target) if u is not None and u in units]
    if card_id == "precision_strike" and extra in units:
        named.append(units[extra])
    if not named:
        return ""
    words = " and ".join(label(u) for u in named)
    if action.point is not None:
        words += f" to ({action.point[0]:.1f}, {action.point[1]:.1f})"
    return f" on {words}"


def let_go(world: World, state: SevenDaysState, side: str) -> list[Event]:
    """``side`` plays no card on its unit about to be removed: the unit is removed."""
    unit = rescue_unit(state)
    state.flow.core.stack.pop()
    if unit is None:
        return []
    morale = world.profile(unit).morale or unit.markers
    return [remove(state, unit, unit.markers, morale)]


def offer_rescue(world: World, state: SevenDaysState) -> list[Event]:
    """After an action has resolved (sevendays.cards.against_all_odds): each unit about to be
    removed is put to its owner in turn, who may play Against All Odds on it; a unit whose
    owner cannot hold the card (as far as the enemy knows) is removed. Waits while a card's
    response window or another such decision is open."""
    if state.cards is None:
        return []  # without cards no unit is ever doomed (morale.add_markers removes it)
    stack = state.flow.core.stack
    if any(d.stage in (Phase.CARD, Phase.RESCUE) for d in stack):
        return []
    over = state.flow.outcome is not None  # the battle ended first: nobody is asked
    events: list[Event] = []
    for unit in with_status(state, Status.DOOMED):
        if not over and may_rescue(state, unit):
            key = unit.marker if unit.hidden else unit.uid
            stack.append(Pending(unit.side, RESCUE_KINDS, Phase.RESCUE, {"unit": key}))
            break
        morale = world.profile(unit).morale or unit.markers
        events.append(remove(state, unit, unit.markers, morale))
    if events and not over:
        from umpire.rulesets.sevendays.victory import check_break

        events += check_break(world, state)  # the removals may break a side
    return events


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
    world: World,
    state: SevenDaysState,
    card: Card,
    target: Unit,
    heavy: bool,
    off_board: bool = False,
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
    riding = target.status == Status.EMBARKED  # Divisional Artillery on a passenger
    events += add_markers(
        world, state, target, 1, rule, card.name, off_board=off_board, embarked=riding
    )
    in_play = target.alive or (off_board and target.status == Status.RESERVE)
    if in_play and not world.is_vehicle(target):
        # off the table a unit has no terrain around it: it converts as in the open (ours);
        # dug-in infantry and support count as fortified (sevendays.scenario.dug_in)
        if off_board:
            cover = "open"
        elif target.dug_in:
            cover = "fortified"
        else:
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
        events += add_markers(world, state, target, extra, rule, "conversion", off_board=off_board)
    return events


def off_board_units(world: World, state: SevenDaysState, side: str) -> list[Unit]:
    """``side``'s units waiting off the table that artillery can reach (not helicopters)."""
    return [
        u
        for u in state.units.values()
        if u.side == side and u.status == Status.RESERVE and not world.is_helicopter(u)
    ]


def off_board_choice(world: World, state: SevenDaysState, side: str, action: Action) -> list[Event]:
    """Divisional Artillery (book p22-23): an off-board unit takes its roll, or avoids it and
    may not move onto the table this turn."""
    state.flow.core.stack.pop()
    unit = state.units[action.unit or ""]
    card = load_deck().cards["divisional_artillery"]
    if action.option == "roll":
        return _bombard_one(world, state, card, unit, BOMBARDMENTS[card.id], off_board=True)
    unit.barred_turn = state.flow.turn
    return [
        note(
            "off_board",
            f"{unit.name} avoids the Divisional Artillery roll: it may not enter on turn "
            f"{state.flow.turn}",
            "sevendays.cards.divisional_artillery",
            unit=unit.uid,
        )
    ]


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
        if extra == "enemy":  # the special: a command token spent moves an enemy unit
            if state.flow.pools[side] <= 0:
                return [note("card", f"{side.upper()} has no command token to spend", rule)]
            state.flow.pools[side] -= 1
            spent = note(
                "tokens",
                f"{side.upper()} spends a command token: it moves {unit.name}",
                rule,
                pools=dict(state.flow.pools),
            )
            return [spent, *do_move(world, state, unit, "normal", action.point)]
        return do_move(world, state, unit, "normal", action.point)
    if cid == "against_all_odds":
        return _against_all_odds(world, state, state.units[action.unit or ""], rule)
    if cid == "divisional_artillery":
        # every enemy unit on the table, passengers too: only *dismounted* infantry and support
        # take the additional marker (book p22-23), so a unit riding in a transport is rolled
        # for and takes the single marker (the card is no shot, sevendays.transport.capacity)
        enemy = other(side)
        grounded = [
            u
            for u in state.units.values()
            if u.side == enemy
            and u.status in (Status.ACTIVE, Status.EMBARKED)
            and not world.is_helicopter(u)
        ]
        shelled = _bombard(world, state, card, grounded, heavy=BOMBARDMENTS[cid])
        # off-board units: their owner chooses, unit by unit, the roll or staying off this turn
        stack = state.flow.core.stack
        for unit in reversed(off_board_units(world, state, other(side))):
            stack.append(Pending(other(side), OFF_BOARD_KINDS, Phase.OFF_BOARD, {"unit": unit.uid}))
        return shelled
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


def _against_all_odds(world: World, state: SevenDaysState, unit: Unit, rule: str) -> list[Event]:
    """The unit about to be removed sheds a d6 of markers; below its morale value it stays."""
    if unit.status != Status.DOOMED:
        return [note("card", f"{label(unit)} is no longer about to be removed", rule)]
    rallied: list[Event] = []
    removed = against_all_odds_roll(
        unit.markers,
        lambda _faces, die, removed: (
            f"{unit.name} rallies against all odds: d6 {die}, removes {removed} marker(s)"
        ),
        unit=unit.uid,
    ).sample(state.rng, rallied)
    unit.markers -= removed
    events = [about(unit, rallied[0], f"{label(unit)} rallies against all odds")]
    morale = world.profile(unit).morale
    if morale is None or unit.markers < morale:
        unit.status = Status.ACTIVE
        state.touch()
        events.append(
            about(
                unit,
                note(
                    "rallied",
                    f"{unit.name} stays on the table with {unit.markers} marker(s)",
                    rule,
                    unit=unit.uid,
                ),
                f"{label(unit)} stays on the table",
            )
        )
    return events  # still at its morale value: it stays doomed and is removed (offer_rescue)


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
    # "infantry+apc": the APC is optional; chosen, it comes too with the infantry embarked
    wanted = profile_id.split("+")
    events: list[Event] = []
    arrived: list[Unit] = []
    for pid in wanted:
        profile = nation.profile(pid)
        key = f"{nation.nation}/{pid}"
        profile = house_profile(profile, key, world.house)  # sevendays.orbat.bp_corrections
        world.add_profile(key, profile)
        number = sum(1 for u in state.units if u.startswith(f"{side}-card-")) + 1
        uid = f"{side}-card-{number}"
        state.units[uid] = Unit(
            uid=uid,
            side=Side(side),
            profile=key,
            name=f"{profile.name} (card-{number})",
            x=x,  # an APC and the infantry it carries arrive together
            y=y,
            facing=side_spec.facing,
        )
        arrived.append(state.units[uid])
        events.append(
            note("reserve", f"{profile.name} arrives from the upper echelon", rule, unit=uid)
        )
    if len(arrived) == 2:
        rider, carrier = arrived
        events += embark(state, rider, carrier)
    state.touch()
    return events


# -- words for menus and logs (issue 20: every card by its name and what it does) ----------------
def card_names(ids: list[str] | str) -> str:
    """Card ids (a list or ``+``-joined) as their names, joined for a sentence."""
    wanted = [i for i in (ids.split("+") if isinstance(ids, str) else ids) if i]
    names = _names(wanted)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def describe_swap(state: SevenDaysState, side: str, option: str) -> str:
    """A swap choice as its owner reads it (only the owner's menu shows it)."""
    if not option:
        hand = _table(state)["hands"].get(side, []) if state.cards else []
        return f"keep the hand ({card_names(sorted(hand))})" if hand else "keep the hand"
    count = len([c for c in option.split("+") if c])
    fresh = "a fresh card" if count == 1 else f"{count} fresh cards"
    return f"exchange {card_names(option)} for {fresh} from the deck"


def describe_play(world: World, state: SevenDaysState, side: str, action: Action) -> str:
    """A card play as its owner's menu shows it: the card's name, on what, and what it does."""
    card_id, _, extra = (action.option or "").partition("|")
    card = load_deck().cards.get(card_id)
    if card is None:
        return f"play {card_id or 'a card'}"
    units = state.units
    unit = units.get(action.unit or "")
    target = units.get(action.target or "")
    where = (
        f" to ({action.point[0]:.1f}, {action.point[1]:.1f})" if action.point is not None else ""
    )
    what = ""
    if card_id == "communications" and unit is not None:
        what = (
            f"spend a command token: move the enemy's {label(unit)}{where}"
            if extra == "enemy"
            else f"move {unit.name}{where}"
        )
    elif card_id == "against_all_odds" and unit is not None:
        morale = world.profile(unit).morale
        what = f"save {unit.name}, {unit.markers} markers against morale {morale}"
    elif card_id == "reserves" and extra:
        nation = side_orbat(world.scenario.spec.sides[side])  # type: ignore[index]
        names = [nation.profile(p).name for p in extra.split("+")]
        what = f"{names[0]} embarked in {names[1]}" if len(names) == 2 else names[0]
    elif card_id == "tank_missile" and unit is not None and target is not None:
        what = f"{unit.name} at {label(target)}"
    elif target is not None:
        aimed = [target] + ([units[extra]] if extra in units else [])
        what = "at " + " and ".join(label(t) for t in aimed)
    chain = state.cards["chain"] if state.cards else []
    if card.when == "response" and chain:
        what = f"answer {load_deck().cards[chain[-1]['card']].name}"
    head = f"play {card.name}" + (f" ({what})" if what else "")
    return f"{head}: {card.summary}"


def describe_decline(world: World, state: SevenDaysState, side: str) -> str:
    """Declining: letting the card on top stand, or letting a unit about to go be removed."""
    doomed = rescue_unit(state)
    if doomed is not None:
        return f"let {doomed.name} be removed (play no card)"
    chain = state.cards["chain"] if state.cards else []
    if chain:
        return f"let {load_deck().cards[chain[-1]['card']].name} stand (no answer)"
    return "play no card"


def describe_off_board(state: SevenDaysState, action: Action) -> str:
    unit = state.units.get(action.unit or "")
    name = unit.name if unit is not None else action.unit
    if action.option == "roll":
        need = load_deck().cards["divisional_artillery"].to_hit
        return f"{name} takes the Divisional Artillery roll (a d10, {need}+ gives a morale marker)"
    return (
        f"{name} avoids the Divisional Artillery roll: it may not enter the table on turn "
        f"{state.flow.turn}"
    )


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
