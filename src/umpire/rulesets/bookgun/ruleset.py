"""The Book and The Gun ruleset on the shared core: flow, action kinds, set-up, views."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from typing import Any

from umpire.core.actions import Action
from umpire.core.catalog import RuleEntry, catalog_markdown, load_catalog
from umpire.core.chance import Test
from umpire.core.deck import Deck, card_rank, standard_deck
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind, Flow, FlowRules, FlowState, Pending, Phase
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
from umpire.core.switches import (
    OPTION_KEY,
    Advice,
    advice_events,
    advice_suffix,
    collect_advice,
    quiet_advice,
    switches_in,
)
from umpire.geometry.table import bearing
from umpire.rulesets.bookgun import aircraft, combat, mounts
from umpire.rulesets.bookgun.aircraft import vehicle_activations
from umpire.rulesets.bookgun.allowance import Allowance, path_length
from umpire.rulesets.bookgun.chances import RollUnder
from umpire.rulesets.bookgun.common import (
    active_units,
    card_owner,
    centre,
    dist,
    enemy,
    known_enemies,
    room_figures,
    secret,
    world,
)
from umpire.rulesets.bookgun.convoy import convoy_options, convoy_points, convoy_problem
from umpire.rulesets.bookgun.convoy import move_all as convoy_move_all
from umpire.rulesets.bookgun.convoy import start as convoy_start
from umpire.rulesets.bookgun.mounts import mount_options
from umpire.rulesets.bookgun.movement import (
    back_moves,
    back_problem,
    candidate_moves,
    carry,
    charge_reach,
    conceal_area,
    concealed_moves,
    do_move,
    flee,
    move_problem,
    place_in_rooms,
    place_outside,
    roll_allowance,
    room_space,
    stays_in,
    unit_room,
)
from umpire.rulesets.bookgun.riders import climb_on, ride_options
from umpire.rulesets.bookgun.scenario import load_scenario, scenario_ids
from umpire.rulesets.bookgun.state import (
    CAPTURED,
    GONE,
    KILLED,
    OK,
    OUT,
    PINNED,
    ROUTED,
    SHAKEN,
    SIDES,
    WOUNDED,
    BookGunState,
    Figure,
    Marker,
    Unit,
)
from umpire.rulesets.bookgun.tables import DATA, HOUSE_RULES
from umpire.rulesets.bookgun.watercraft import (
    landing_facing,
    landing_point,
    may_dismount,
    record_load,
    transport_ok,
)

VERSION = "0.3"
TURN_MINUTES = 2  # bookgun.scale.time: one full turn is two minutes (p.5)
S = BookGunState


@cache
def rule_catalog() -> dict[str, RuleEntry]:
    return load_catalog(DATA / "rules.yaml", "bookgun")


def rules_markdown() -> str:
    return catalog_markdown(
        "The Book and The Gun",
        "bookgun",
        "Provenance: `published` = the rulebook's pages 1-19; `reconstructed` = a reading of "
        "garbled text or a documented TSATF mechanic; `house` = ours, replaceable by data "
        "(`--house-rules`).",
        rule_catalog(),
    )


# -- cards --------------------------------------------------------------------------------------
def may_move(state: S, unit: Unit) -> bool:
    ready = (
        state.on_table(unit)
        and unit.side in SIDES
        and unit.status not in (ROUTED, OUT)
        and unit.id not in state.acted
        and unit.entered != state.flow.turn
    )
    if not ready or not lone_leader(unit, state):
        return ready
    # bookgun.lead.independent (p.13): a leader outside any basic unit moves on his own only
    # after every basic unit of both sides has moved (or had its chance)
    return not any(
        may_move(state, u)
        for u in state.units.values()
        if u.id != unit.id and not lone_leader(u, state)
    )


def lone_leader(unit: Unit, state: S) -> bool:
    """A leader not part of a basic unit (bookgun.lead.independent): a unit of one figure, a
    leader or officer (as ScenarioSpec.basic_units reads a higher leader on his own)."""
    return len(unit.figures) == 1 and state.figures[unit.figures[0]].role in ("leader", "officer")


def fire_cards(state: S, unit: Unit) -> list[list[Figure]]:
    """How the cards fire ``unit`` (bookgun.lead.fire_cards): the whole unit on one card when
    its fit leader has every fit figure within 6 in.; otherwise each figure on its own card.
    Reload markers do not enter into it (see :func:`fire_group`), so a menu lists its figures
    alike whether the markers stop fire or not."""
    if not state.on_table(unit) or unit.side not in SIDES or unit.status in (ROUTED, SHAKEN, OUT):
        return []
    if unit.id in state.acted:
        return []
    figs = [f for f in combat.firing_figures(state, unit) if f.id not in state.acted]
    if not figs:
        return []
    lead = state.leader_of(unit)
    radius = world(state).tables.command.radius
    if lead is not None and all(dist(f.pos, lead.pos) <= radius for f in state.fit_figures(unit)):
        return [figs]
    return [[f] for f in figs]


def fire_group(state: S, unit: Unit) -> list[list[Figure]]:
    """Who one card fires (:func:`fire_cards`), less the figures whose weapons carry a reload
    marker (bookgun.fire.reload, kept per weapon group - spec §4.1 step 5): with markers on the
    rifles only a loaded RPG or gun fires. Under ``advise``/``off`` everyone may fire (noted)."""
    out = []
    for g in fire_cards(state, unit):
        ready = [f for f in g if combat.loaded(state, unit, f)]
        if len(ready) < len(g) and not combat.relaxed(
            state, "bookgun.fire.reload", f"{unit.name} fires with a reload marker on it"
        ):
            g = ready
        if g:
            out.append(g)
    return out


def may_fire(state: S, unit: Unit) -> bool:
    return any(combat.fire_targets(state, unit, g) for g in fire_group(state, unit))


def eligible(state: S, side: str) -> bool:
    units = [u for u in state.units.values() if u.side == side]
    if state.flow.phase == "movement":
        return any(may_move(state, u) for u in units)
    return any(may_fire(state, u) for u in units)


def next_card(state: S) -> list[Event]:
    """Turn cards until one calls a side with something to do (bookgun.cards.skip)."""
    w = world(state)
    events: list[Event] = []
    state.card = None
    if not (eligible(state, "army") or eligible(state, "insurgents")):
        return events
    for _ in range(120):
        card = state.deck.draw(state.rng)
        if card is None:
            return events
        state.deck.discard.append(card)
        side = card_owner(w, card)
        arrived = card_arrivals(state, card)
        if eligible(state, side):
            state.card = card
            events.append(
                note(
                    "card",
                    f"{card}: {side} to {state.flow.phase}",
                    "bookgun.cards.deck",
                    card=card,
                    side=side,
                )
            )
            return events + arrived
        events.append(
            note(
                "card",
                f"{card}: {side} has nothing left to do, set aside",
                "bookgun.cards.skip",
                card=card,
            )
        )
        events += arrived
    return events


def _arrive(state: S, unit: Unit, how: str) -> Event:
    unit.arrives = None
    unit.arrive_cards = []
    unit.entered = state.flow.turn
    return note(
        "arrives",
        f"{unit.name} arrives on the table{how}",
        "bookgun.scenario.reinforce",
        unit=unit.id,
    )


def card_arrivals(state: S, card: str) -> list[Event]:
    """bookgun.scenario.reinforce: a unit waiting for ``card`` comes on when it is turned in a
    movement phase of its ``from_turn`` or later (placed on its edge; no move this turn)."""
    if state.flow.phase != "movement":
        return []
    return [
        _arrive(state, u, f" on the {card}")
        for u in state.units.values()
        if u.arrives is not None and card in u.arrive_cards and state.flow.turn >= u.arrive_from
    ]


def _turn_begin(state: S) -> list[Event]:
    w = world(state)
    events: list[Event] = []
    for u in state.units.values():
        u.moved_last, u.fired_last, u.fought_last = u.moved, u.fired, u.fought
        u.fired_at_last, u.fired_at = u.fired_at, []
        u.moved = u.fired = u.fought = False
        u.lost = 0
        u.leader_killed = False
        u.cc_margin = 0
        u.extra_die = 0
        u.minus_d6 = False
        u.spotted = False
        u.in_motion = False
    for f in state.figures.values():  # bookgun.los.figure: a figure's fire, this turn or last
        f.fired_last, f.fired = f.fired, False
    state.rallies = []  # bookgun.rally.chart: each leader one rally attempt a turn (p.17)
    events += finish_limbering(state)
    for u in state.units.values():
        if u.arrives is not None and u.arrives <= state.flow.turn:
            events.append(_arrive(state, u, " (its latest turn)" if u.arrive_cards else ""))
    state.deck = Deck.shuffled(standard_deck(2), state.rng)
    state.fire_points = [p for p in state.fire_points if p[0] >= state.flow.turn - 1]
    t = state.flow.turn
    events.append(
        note(
            "turn",
            f"turn {t} of {w.spec.turns} (minutes {TURN_MINUTES * (t - 1)}-{TURN_MINUTES * t}"
            " of the action): the deck is shuffled",
            "bookgun.cards.deck",
        )
    )
    return events


def _phase_begin(state: S) -> list[Event]:
    state.acted = []
    events: list[Event] = []
    if state.flow.phase == "fire":
        events += combat.spotting(state)
    return events + next_card(state)


def _movement_end(state: S) -> list[Event]:
    return combat.civilians_move(state) + _after(state)


def _turn_end(state: S) -> list[Event]:
    if state.flow.turn >= world(state).spec.turns:
        return finish(state, "turn limit")
    return []


def _after(state: S) -> list[Event]:
    """Checks after anything happens: sudden death, a side with nothing left."""
    if state.over is not None:
        return []
    from umpire.rulesets.bookgun.riders import check_hits

    jumped = check_hits(state)  # bookgun.move.tank_riders: a hit rider, all riders off
    if jumped:
        return jumped + _after(state)
    if not active_units(state, "army") or all(
        u.status == ROUTED for u in active_units(state, "army")
    ):
        return finish(state, "every army unit routed or removed", sudden="insurgents")
    if not active_units(state, "insurgents") and not state.to_deploy:
        return finish(state, "no insurgent left on the table")
    return []


# -- victory ---------------------------------------------------------------------------------
def army_points(state: S) -> dict[str, int]:
    w = world(state)
    v = w.spec.victory
    figs = state.figures.values()
    ins_down = sum(1 for f in figs if f.side == "insurgents" and f.status in (KILLED, CAPTURED))
    gl = any(f.group_leader and f.status in (KILLED, CAPTURED) for f in figs)
    civ = sum(
        1
        for f in figs
        if f.side == "civilians" and f.status in (KILLED, WOUNDED) and f.hit_by == "army"
    )
    army_killed = sum(1 for f in figs if f.side == "army" and f.status == KILLED)
    fit_army = [f for f in figs if f.side == "army" and f.fit]
    left = sum(
        1
        for f in figs
        if f.side == "army"
        and f.status == WOUNDED
        and not any(dist(f.pos, g.pos) <= 1.5 for g in fit_army)
    )
    exited = 0
    if v.exit_edge != "none":
        exited = sum(1 for f in fit_army if _beyond(w, f, v.exit_edge))
    parts = {
        "cache": v.cache if state.cache_found else 0,
        "group_leader": v.group_leader if gl else 0,
        "insurgents": v.per_two_insurgents * (ins_down // 2),
        "civilians": v.civilian_hit * civ,
        "army_killed": v.army_killed * army_killed,
        "wounded_left": v.army_wounded_left * left,
        "exit": v.army_exit * exited,
    }
    parts["total"] = sum(parts.values())
    return parts


def _beyond(w: Any, f: Figure, edge: str) -> bool:
    h, wd = float(w.spec.height), float(w.spec.width)
    return {
        "north": f.y >= h - 4,
        "south": f.y <= 4,
        "east": f.x >= wd - 4,
        "west": f.x <= 4,
    }[edge]


def finish(state: S, how: str, sudden: str | None = None) -> list[Event]:
    w = world(state)
    pts = army_points(state)
    if sudden is not None:
        winner = sudden
    elif pts["total"] >= w.spec.victory.army_win:
        winner = "army"
    elif pts["total"] <= w.spec.victory.insurgent_win:
        winner = "insurgents"
    else:
        winner = "draw"
    state.over = {
        "winner": winner,
        "how": how,
        "points": pts,
        "cache_room": state.cache_room,
        "commander": state.commanders.get("army"),
        # bookgun.lead.cinc: the insurgents' too when they had one (three or more basic units)
        **(
            {"insurgent_commander": state.commanders["insurgents"]}
            if "insurgents" in state.commanders
            else {}
        ),
    }
    state.flow.over = True
    text = f"game over ({how}): army points {pts['total']} -> {winner}"
    events = [note("end", text, "bookgun.victory.points", points=pts, winner=winner)]
    if state.cache_room:
        events.append(
            note("reveal", f"the cache was in {state.cache_room}", "bookgun.conceal.cache")
        )
    # bookgun.lead.cinc (p.8): each secret Commander-in-Chief is revealed at the game's end
    for side, cinc in sorted(state.commanders.items()):
        whose = "the" if side == "army" else f"the {side}'"
        events.append(note("reveal", f"{whose} Commander-in-Chief was {cinc}", "bookgun.lead.cinc"))
    return events


# -- action kinds ---------------------------------------------------------------------------------
class _CardKind(ActionKind[S]):
    joker = False

    def advise(self, state: S, side: str, action: Action) -> None:
        """Run the switchable guards (issue 21) of this one action, so that the rules under
        ``advise`` it breaks are noted (by :func:`umpire.core.switches.collect_advice`)."""

    def check(self, state: S, side: str, action: Action) -> None:
        """Allowed exactly when offered; a refusal names the switchable rule that forbids the
        action when relaxing the rules would let it through (else the kind's own rule)."""
        if action in set(self.options(state, side)):
            return
        found = self._forbidding(state, side, action)
        if found is not None:
            raise IllegalActionError(found.detail, found.rule)
        raise IllegalActionError(self.refusal(state, side, action), self.rule)

    def _forbidding(self, state: S, side: str, action: Action) -> Advice | None:
        """The first switchable rule that forbids ``action``: the action is tried with every
        Book and Gun rule under ``advise`` (nothing is played, the options are restored)."""
        saved = state.options.get(OPTION_KEY)
        state.options[OPTION_KEY] = {"bookgun.*": "advise"}
        try:
            with quiet_advice():
                offered = action in set(self.options(state, side))
            if not offered:
                return None
            with collect_advice() as notes:
                self.advise(state, side, action)
            return notes[0] if notes else None
        except (KeyError, ValueError, IllegalActionError):
            return None
        finally:
            if saved is None:
                state.options.pop(OPTION_KEY, None)
            else:
                state.options[OPTION_KEY] = saved

    def has_card(self, state: S, side: str) -> bool:
        if state.card is None or state.flow.stack:
            return False
        # in the fire phase a joker is an ordinary card of its colour (bookgun.cards.skip)
        is_joker = card_rank(state.card) == "joker" and state.flow.phase == "movement"
        return is_joker == self.joker and card_owner(world(state), state.card) == side

    def done(self, state: S, unit: Unit) -> list[Event]:
        state.acted.append(unit.id)
        return _after(state) + (next_card(state) if state.over is None else [])

    def per_mover(
        self, state: S, side: str, spots: Callable[[S, Unit], Iterable[str]]
    ) -> list[Action]:
        """On ``side``'s movement card: this kind for each of its units that may move, once
        per place ``spots`` offers it (a window's room, a wall to breach), in unit-id order."""
        if not self.has_card(state, side) or state.flow.phase != "movement":
            return []
        return [
            Action(self.name, unit=u.id, option=r)
            for u in sorted(state.units.values(), key=lambda u: u.id)
            if u.side == side and may_move(state, u)
            for r in spots(state, u)
        ]


class Deploy(ActionKind[S]):
    name, rule = "deploy", "bookgun.setup.deploy"

    def options(self, state: S, side: str) -> Iterable[Action]:
        if not state.to_deploy or side != "insurgents":
            return []
        w = world(state)
        what = state.to_deploy[0]
        used = {m.site for m in state.markers.values()}
        unit = state.units.get(what)
        return [
            Action("deploy", unit=what, option=s)
            for s in w.sites
            if s not in used and (unit is None or fits_at(state, unit, w.sites[s][1]))
        ]

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        w = world(state)
        what, site = str(action.unit), str(action.option)
        state.to_deploy.pop(0)
        pos, room = w.sites[site]
        mid = f"M{len(state.markers) + sum(1 for _ in ()) + 1}"
        while mid in state.markers:
            mid = f"M{int(mid[1:]) + 1}"
        unit_id = None if what.startswith("dummy") else what
        state.markers[mid] = Marker(mid, pos[0], pos[1], site, unit_id)
        if unit_id is not None:
            unit = state.units[unit_id]
            unit.marker = mid
            if room is not None:
                place_in_rooms(state, unit, room, pos)
            else:
                unit.formation = "unformed"
                place_outside(state, unit, pos, 270.0)
        held = "a dummy" if unit_id is None else state.units[unit_id].name
        text = f"marker {mid} at {site} holds {held}"
        private = note("deploy", text, self.rule, marker=mid, site=site, unit=unit_id)
        return [
            private.restricted(
                ("insurgents",),
                public=note(
                    "deploy",
                    f"concealment marker {mid} is placed at {site}",
                    self.rule,
                    marker=mid,
                    site=site,
                ),
            )
        ]

    def describe(self, state: S, side: str, action: Action) -> str:
        return f"put {action.unit} under a marker at {action.option}"


def must_try(unit: Unit) -> bool:
    """A shaken unit whose activation offers the plain move (and so its rally roll): it may
    not decline to move (p.18 7.1)."""
    return (
        unit.status == SHAKEN
        and unit.aboard is None
        and unit.rides is None
        and unit.gun is None
        and unit.vehicle is None
    )


def fits_at(state: S, unit: Unit, room: str | None) -> bool:
    """bookgun.building.capacity (p.19: at most 4 figures a room a floor): a unit set up under
    a marker in ``room`` must fit in it and its same-floor neighbours (where place_in_rooms
    puts it); an outdoor site takes anyone."""
    if room is None:
        return True
    w = world(state)
    rooms = [room] + [r for r in w.rooms[room].neighbours if r != room]
    return sum(room_space(state, r, unit) for r in rooms) >= len(state.unit_figures(unit))


class ChooseCache(ActionKind[S]):
    name, rule = "cache", "bookgun.conceal.cache"

    def options(self, state: S, side: str) -> Iterable[Action]:
        if side != "insurgents" or state.to_deploy or state.cache_chosen:
            return []
        return [Action("cache", option=r) for r in world(state).spec.cache_rooms]

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        state.cache_room, state.cache_chosen = action.option, True
        ev = note("cache", f"the weapons cache is hidden in {action.option}", self.rule)
        return [
            ev.restricted(
                ("insurgents",),
                public=note("cache", "the insurgents record the cache's room in secret", self.rule),
            )
        ]


class ChooseIed(ActionKind[S]):
    name, rule = "ied", "bookgun.scenario.ied"

    def options(self, state: S, side: str) -> Iterable[Action]:
        spec = world(state).spec.ied
        if side != "insurgents" or state.to_deploy or spec is None or state.ied_chosen:
            return []
        return [Action("ied", option=str(i)) for i in range(len(spec.sites))]

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        spec = world(state).spec.ied
        assert spec is not None
        at = spec.sites[int(str(action.option))]
        state.ied, state.ied_chosen = [float(at[0]), float(at[1])], True
        ev = note("ied", f"the IED is buried at ({at[0]:g}, {at[1]:g})", self.rule)
        return [
            ev.restricted(
                ("insurgents",), public=note("ied", "the insurgents prepare the road", self.rule)
            )
        ]


class ChooseCommander(ActionKind[S]):
    """bookgun.lead.cinc (p.8, spec §3.4): a side with three or more basic units secretly
    names one of its leaders (the scenario's candidates) as its Commander-in-Chief; the
    insurgents once their markers are down, the army after them. Only the side reads whom."""

    name, rule = "commander", "bookgun.lead.cinc"

    def options(self, state: S, side: str) -> Iterable[Action]:
        candidates = world(state).cinc.get(side, ())
        if not candidates or side in state.commanders or state.to_deploy:
            return []
        return [Action("commander", unit=f) for f in candidates]

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        state.commanders[side] = str(action.unit)
        ev = note("commander", f"{action.unit} is secretly the Commander-in-Chief", self.rule)
        names = "the army names its" if side == "army" else f"the {side} name their"
        return [
            ev.restricted(
                (side,),
                public=note("commander", f"{names} Commander-in-Chief in secret", self.rule),
            )
        ]


def _setup_to_act(state: S) -> str | None:
    w = world(state)
    if state.to_deploy:
        return "insurgents"
    if w.spec.cache_rooms and not state.cache_chosen:
        return "insurgents"
    if w.spec.ied is not None and not state.ied_chosen:
        return "insurgents"
    for side in ("insurgents", "army"):  # bookgun.lead.cinc
        if w.cinc[side] and side not in state.commanders:
            return side
    return None


FORMATIONS = ("open", "close", "column")
CIRCLE = "circle"  # bookgun.form.kinds: the defensive circle (house: forming it is the move)


# -- mounting, dismounting, backing up (bookgun.move.mount, bookgun.move.vehicles) ---------------
def riders(state: S, unit: Unit) -> int:
    """Figures a unit puts aboard: a towed gun's crew only (p.15: limbers carry the crew)."""
    return sum(1 for f in state.unit_figures(unit) if f.role != "gun")


def passengers(state: S, vehicle: Unit) -> int:
    return sum(riders(state, u) for u in state.units.values() if u.aboard == vehicle.id)


def mount_choices(state: S, unit: Unit) -> list[Unit]:
    """Friendly vehicles ``unit`` could board this move: room for all its figures (p.15), and
    every figure able to reach the vehicle within the most a 1D6 move can give (p.16)."""
    if (
        unit.vehicle is not None
        or unit.aboard is not None
        or unit.scout_of is not None
        or unit.concealed
        or unit.status != OK
        or unit.mounted == state.flow.turn
        or unit_room(state, unit) is not None
        or unit.side not in SIDES
        or (unit.gun is not None and (not unit.limbered or unit.limbering is not None))
        or unit.rides is not None
        or unit.ride is not None
    ):
        return []
    return [
        v
        for v in sorted(state.units.values(), key=lambda u: u.id)
        if v.side == unit.side and v.vehicle is not None and state.on_table(v)
        if may_board(state, unit, v)
        and transport_ok(state, unit, v)  # boats at the shore, helicopters landed (p.15)
    ]


def may_board(state: S, unit: Unit, v: Unit) -> bool:
    """Whether ``unit`` can get into vehicle ``v`` this move: every figure within reach of it
    (bookgun.move.mount) and room aboard for all (bookgun.move.vehicles, p.15 - switchable:
    under ``advise``/``off`` a vehicle takes more than its kind's passengers)."""
    w = world(state)
    reach = 6 * w.tables.mount.dice + w.tables.mount.reach
    model = state.unit_figures(v)[0]
    if not all(dist(f.pos, model.pos) <= reach for f in state.unit_figures(unit)):
        return False
    cap = w.tables.vehicles.kinds[str(v.vehicle)].passengers
    if riders(state, unit) <= cap - passengers(state, v):
        return True
    return combat.relaxed(
        state,
        "bookgun.move.vehicles",
        f"{unit.name} crowds into {v.name} beyond its {cap} passengers",
    )


def mount(state: S, unit: Unit, vehicle: Unit) -> list[Event]:
    """bookgun.move.mount (p.16): a unit that mounts moves up to 1D6 that phase; its figures
    must reach the vehicle within that move. Those that cannot, walk the 1D6 toward it."""
    from umpire.rulesets.bookgun.chances import boards, mount_roll

    w = world(state)
    events: list[Event] = []
    faces = mount_roll(w.tables.mount.dice, f"{unit.name} runs for {vehicle.name}").sample(
        state.rng, events
    )
    rolled = float(sum(faces))
    model = state.unit_figures(vehicle)[0]
    figs = state.unit_figures(unit)
    farthest = max(dist(f.pos, model.pos) for f in figs)
    if boards(faces, w.tables.mount.reach, farthest):
        unit.aboard = vehicle.id
        unit.mounted = state.flow.turn
        record_load(state, vehicle, "mount")  # boats and helicopters (p.15-16)
        carry(state, vehicle)
        events.append(
            note(
                "mount",
                f"{unit.name} mounts {vehicle.name}",
                "bookgun.move.mount",
                unit=unit.id,
                vehicle=vehicle.id,
            )
        )
        return events
    start = centre(state, unit)
    d = dist(start, model.pos)
    t = min(1.0, rolled / d) if d > 0 else 0.0
    dest = (start[0] + (model.pos[0] - start[0]) * t, start[1] + (model.pos[1] - start[1]) * t)
    if world(state).path_problem(start, dest) is None:
        do_move(state, unit, dest, None)
    events.append(
        note(
            "mount",
            f"{unit.name} cannot reach {vehicle.name} with {rolled:g} in. and moves toward it",
            "bookgun.move.mount",
            unit=unit.id,
        )
    )
    return events


def dismount(state: S, unit: Unit, events: list[Event], dice: int) -> float:
    """bookgun.move.mount (p.16): dismounting at the start of the move, the unit forms round
    its vehicle and may move the ``dice`` D6 rolled (1D6, or 2D6 to charge)."""
    from umpire.rulesets.bookgun.chances import movement_roll

    vehicle = state.units[str(unit.aboard or unit.rides)]
    model = state.unit_figures(vehicle)[0]
    faces = movement_roll(dice, "bookgun.move.mount", f"{unit.name} dismounts").sample(
        state.rng, events
    )
    vehicle.occupied_seen = False  # who is left inside is unknown again
    if unit.aboard is not None:
        record_load(state, vehicle, "dismount")  # boats and helicopters (p.15-16)
    unit.aboard = unit.rides = None
    unit.mounted = state.flow.turn
    if unit.formation in ("unformed", "column"):
        unit.formation = "open"
    at = landing_point(state, vehicle) or model.pos
    place_outside(state, unit, at, landing_facing(state, vehicle, at))
    events.append(
        note(
            "dismount",
            f"{unit.name} dismounts from {vehicle.name}",
            "bookgun.move.mount",
            unit=unit.id,
            vehicle=vehicle.id,
        )
    )
    return float(sum(faces))


# -- artillery (bookgun.move.artillery, p.16 3.1-3.4) ---------------------------------------------
def crew(state: S, unit: Unit) -> list[Figure]:
    return [f for f in state.fit_figures(unit) if f.role != "gun"]


def gun_options(state: S, unit: Unit) -> list[Action]:
    """A gun unit's moves: limber or unlimber (a full turn, one more per missing crewman),
    manhandle a light gun or recoilless rifle (two figures at least), mount its tow when
    limbered; the crew may go prone or stand up."""
    w = world(state)
    if unit.limbering is not None:
        return []
    out: list[Action] = []
    if unit.limbered:
        out.append(Action("activate", unit=unit.id, option="unlimber"))
        out += [
            Action("activate", unit=unit.id, option=f"mount:{v.id}")
            for v in mount_choices(state, unit)
        ]
        return out
    out.append(Action("activate", unit=unit.id, option="limber"))
    art = w.tables.artillery
    if art.kinds[str(unit.gun)].manhandle and len(state.fit_figures(unit)) - 1 >= min(
        art.manhandle_figures, art.full_crew
    ):
        out.append(Action("activate", unit=unit.id, option="manhandle"))
    prone = any(f.prone for f in crew(state, unit))
    out.append(Action("activate", unit=unit.id, option="stand" if prone else "prone"))
    return out


def start_limbering(state: S, unit: Unit, what: str) -> list[Event]:
    """p.16 (3.3): one full turn to limber or unlimber with a full crew, one more turn per
    crewman short; the gun neither moves nor fires meanwhile."""
    art = world(state).tables.artillery
    turns = 1 + max(0, art.full_crew - len(crew(state, unit)))
    unit.limbering = what
    unit.limber_until = state.flow.turn + turns - 1
    unit.moved = True
    return [
        note(
            "limber",
            f"{unit.name} starts to {what} the gun ({turns} turn{'s' if turns > 1 else ''})",
            "bookgun.move.artillery",
            unit=unit.id,
            turns=turns,
        )
    ]


def finish_limbering(state: S) -> list[Event]:
    events: list[Event] = []
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if u.limbering is not None and u.limber_until < state.flow.turn:
            u.limbered = u.limbering == "limber"
            events.append(
                note(
                    "limber",
                    f"{u.name}'s gun is "
                    + ("limbered" if u.limbered else "unlimbered, ready to fire"),
                    "bookgun.move.artillery",
                    unit=u.id,
                )
            )
            u.limbering = None
    return events


def manhandle(state: S, side: str, unit: Unit) -> list[Event]:
    """p.16 (3.1): the gun and crew spend the whole turn moving it, at the push-and-fire rate
    (spec §4.6: 1D6, rough ground drops the highest die - with one die, the 1 in. minimum)."""
    from umpire.rulesets.bookgun.chances import movement_roll

    w = world(state)
    art = w.tables.artillery
    events: list[Event] = []
    faces = list(
        movement_roll(
            art.manhandle_dice, "bookgun.move.artillery", f"{unit.name} manhandle the gun"
        ).sample(state.rng, events)
    )
    from umpire.rulesets.bookgun.movement import keep_dice

    floor = w.tables.movement.minimum_move
    clear = max(floor, float(sum(faces)))
    rough = max(floor, float(sum(keep_dice(faces, art.rough))))
    al = Allowance(clear, rough, clear, False, rough if w.dense else None)
    for f in state.unit_figures(unit):
        f.prone = False
    state.flow.stack.append(
        Pending(side, ("move_to", "stay"), "move", {"unit": unit.id, **al.to_dict()})
    )
    return events


def back_up(state: S, side: str, unit: Unit) -> list[Event]:
    """bookgun.move.vehicles (p.15): a wheeled vehicle backs up 1D6, a tracked one 2D6,
    straight back without turning; a horse-drawn vehicle never backs."""
    from umpire.rulesets.bookgun.chances import movement_roll

    assert unit.vehicle is not None
    events: list[Event] = []
    dice = world(state).tables.vehicles.kinds[unit.vehicle].back
    faces = movement_roll(dice, "bookgun.move.vehicles", f"{unit.name} backs up").sample(
        state.rng, events
    )
    rolled = float(sum(faces))
    al = Allowance(rolled, rolled, rolled, False, None)
    state.flow.stack.append(
        Pending(side, ("move_to", "stay"), "move", {"unit": unit.id, "back": True, **al.to_dict()})
    )
    return events


def form_circle(state: S, unit: Unit) -> list[Event]:
    """bookgun.form.kinds (p.8-10, house detail): the unit forms a defensive circle where it
    stands - its whole move - the leader amid a ring of figures facing out, all standing. The
    circle is stationary for close combat only (-1 to stand when charged, spec §4.3 step 3);
    it may move (p.10: 'may move but should act as a stationary formation assumed for close
    combat purpose (not movement)'), on the close-order dice, and stays a circle."""
    at = centre(state, unit)
    facing = next(iter(state.unit_figures(unit))).facing
    unit.formation = CIRCLE
    for f in state.unit_figures(unit):
        f.prone = False
    place_outside(state, unit, at, facing)
    face_out(state, unit, at)
    return [
        note(
            "formation", f"{unit.name} forms a defensive circle", "bookgun.form.kinds", unit=unit.id
        )
    ]


def face_out(state: S, unit: Unit, at: tuple[float, float]) -> None:
    """A defensive circle's ring faces out from its middle ``at`` (bookgun.form.kinds)."""
    for f in state.unit_figures(unit):
        if dist(f.pos, at) > 0.5:
            f.facing = math.degrees(math.atan2(f.y - at[1], f.x - at[0])) % 360


class Activate(_CardKind):
    """Roll a unit's movement dice (after rallying a shaken or pinned unit); the destination
    is then chosen from a pending decision."""

    name, rule = "activate", "bookgun.turn.movement"

    def options(self, state: S, side: str) -> Iterable[Action]:
        if not self.has_card(state, side):
            return []
        out = []
        for u in sorted(state.units.values(), key=lambda u: u.id):
            if u.side != side or not may_move(state, u):
                continue
            if u.aboard is not None or u.rides is not None:
                # bookgun.move.mount: passengers (and tank riders) may only dismount - from a
                # boat at the shore, a landed helicopter, an amphibious vehicle on land
                if may_dismount(state, u):
                    out.append(Action("activate", unit=u.id, option="dismount"))
                continue
            if u.gun is not None:  # a gun and its crew move only as the artillery rules allow
                out += gun_options(state, u)
                continue
            if u.vehicle is not None:  # drive, back up, sail, fly, land, lift off
                out += vehicle_activations(state, u)
                continue
            circled = u.formation == CIRCLE
            # a defensive circle may move, staying a circle (p.10; stationary only for close
            # combat); it does not go prone (house)
            out.append(Action("activate", unit=u.id))
            out += [
                Action("activate", unit=u.id, option=f"mount:{v.id}")
                for v in mount_choices(state, u)
            ]
            in_room = unit_room(state, u) is not None
            out += mount_options(state, u, in_room)  # horses and bicycles
            out += ride_options(state, u, in_room)  # tank riders
            if not in_room and not u.concealed and not u.riding:
                prone = any(f.prone for f in state.unit_figures(u))
                if not circled:
                    out.append(Action("activate", unit=u.id, option="stand" if prone else "prone"))
                out += [
                    Action("activate", unit=u.id, option=f)
                    for f in (*FORMATIONS, CIRCLE)
                    if f != u.formation and u.troop != "civilians"
                ]
        # bookgun.move.road_column: contiguous units on road rate move on one card
        return out + convoy_options(state, side, lambda u: may_move(state, u))

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        unit = state.units[str(action.unit)]
        events: list[Event] = []
        if action.option == "convoy":
            others = [state.units[str(x)] for x in action.units]
            data = convoy_start(state, unit, others, events)
            state.flow.stack.append(Pending(side, ("move_to", "stay"), "move", data))
            return events
        if action.option == "land":
            return aircraft.land(state, unit) + self.done(state, unit)
        if action.option == "take_off":
            events += aircraft.take_off(state, unit)
            al = roll_allowance(state, unit, None, False, events)
            state.flow.stack.append(
                Pending(side, ("move_to", "stay"), "move", {"unit": unit.id, **al.to_dict()})
            )
            return events
        if action.option in ("get_on", "get_off"):
            rolled = mounts.change(state, unit, world(state), events)
            return self._hide(unit, events + [self._pending(state, side, unit, rolled)])
        if action.option and str(action.option).startswith("ride:"):
            events += climb_on(state, unit, state.units[str(action.option)[5:]])
            unit.moved = True
            return events + _post_move(state, unit) + self.done(state, unit)
        if unit.concealed and unit.marker in state.markers:
            state.markers[str(unit.marker)].stirred = True  # the enemy reads "marker .. stirs"
        if unit.status in (SHAKEN, PINNED):  # rally first, whatever the move (p.18 7.2)
            if combat.rally_test(state, unit, events):
                events.append(
                    note("rally", f"{unit.name} rallies", "bookgun.rally.chart", unit=unit.id)
                )
                unit.status = OK
                for f in state.unit_figures(unit):
                    f.prone = False
            elif unit.status == SHAKEN:
                if unit.aboard is not None:  # shaken passengers get down and run (house)
                    state.units[unit.aboard].occupied_seen = False
                    unit.aboard = None
                flee(state, unit, 4, "bookgun.rally.chart", "retreats", events)
                unit.moved = True
                return self._hide(unit, events) + self.done(state, unit)
            else:
                events.append(
                    note("pinned", f"{unit.name} stays pinned", "bookgun.rally.chart", unit=unit.id)
                )
                return events + self.done(state, unit)
        if action.option == "dismount":
            rolled = dismount(state, unit, events, world(state).tables.mount.dice)
            return events + [self._pending(state, side, unit, rolled)]
        if action.option and str(action.option).startswith("mount:"):
            events += mount(state, unit, state.units[str(action.option)[6:]])
            unit.moved = True
            return events + _post_move(state, unit) + self.done(state, unit)
        if action.option == "back":
            return back_up(state, side, unit)
        if action.option in ("limber", "unlimber"):
            events += start_limbering(state, unit, str(action.option))
            return events + self.done(state, unit)
        if action.option == "manhandle":
            return manhandle(state, side, unit)
        if unit.gun is not None and action.option in ("prone", "stand"):
            # p.16 (3.4): gun crewmen may go prone round the gun in action (and not fire it)
            for f in crew(state, unit):
                f.prone = action.option == "prone"
            events.append(
                note(
                    "prone",
                    f"{unit.name}'s crew {'go prone' if action.option == 'prone' else 'stand'}",
                    "bookgun.move.artillery",
                    unit=unit.id,
                )
            )
            return events + self.done(state, unit)
        if action.option == CIRCLE:
            return self._hide(unit, events + form_circle(state, unit)) + self.done(state, unit)
        prone = action.option == "prone" or (
            action.option != "stand" and any(f.prone for f in state.unit_figures(unit))
        )
        for f in state.unit_figures(unit):
            f.prone = prone
        formation = action.option if action.option in FORMATIONS else None
        al = roll_allowance(state, unit, formation, prone, events)
        if formation is not None:
            unit.formation = formation
            events.append(
                note(
                    "formation",
                    f"{unit.name} forms {formation} order",
                    "bookgun.form.change",
                    unit=unit.id,
                )
            )
        state.flow.stack.append(
            Pending(side, ("move_to", "stay"), "move", {"unit": unit.id, **al.to_dict()})
        )
        return self._hide(unit, events)

    @staticmethod
    def _pending(state: S, side: str, unit: Unit, rolled: float) -> Event:
        """After dismounting: the 1D6 the unit may still move."""
        al = Allowance(rolled, rolled, rolled, False, rolled if world(state).dense else None)
        state.flow.stack.append(
            Pending(side, ("move_to", "stay"), "move", {"unit": unit.id, **al.to_dict()})
        )
        return note(
            "allowance",
            f"{unit.name} may move {rolled:g} in. after dismounting",
            "bookgun.move.mount",
            unit=unit.id,
            clear=rolled,
            rough=rolled,
            road=rolled,
            prone=False,
        )

    @staticmethod
    def _hide(unit: Unit, events: list[Event]) -> list[Event]:
        if not unit.concealed:
            return events
        return [secret(unit.side, e, f"marker {unit.marker} stirs") for e in events]

    def advise(self, state: S, side: str, action: Action) -> None:
        if action.option and str(action.option).startswith("mount:"):
            may_board(state, state.units[str(action.unit)], state.units[str(action.option)[6:]])

    def describe(self, state: S, side: str, action: Action) -> str:
        return f"activate {action.unit}" + (f" ({action.option})" if action.option else "")


def _allowance(data: Mapping[str, Any]) -> Allowance:
    dense = data.get("dense")
    return Allowance(
        float(data["clear"]),
        float(data["rough"]),
        float(data["road"]),
        bool(data["prone"]),
        None if dense is None else float(dense),
    )


class MoveTo(ActionKind[S]):
    name, rule = "move_to", "bookgun.move.dice"

    def _ctx(self, state: S) -> tuple[Unit, Allowance]:
        top = state.flow.stack[-1]
        assert isinstance(top, Pending)
        return state.units[top.data["unit"]], _allowance(top.data)

    def options(self, state: S, side: str) -> Iterable[Action]:
        top = state.flow.stack[-1] if state.flow.stack else None
        if not isinstance(top, Pending) or top.stage != "move":
            return []
        unit, al = self._ctx(state)
        if state.flow.stack[-1].data.get("back"):
            return [Action("move_to", unit=unit.id, point=p) for p in back_moves(state, unit, al)]
        if "convoy" in state.flow.stack[-1].data:  # bookgun.move.road_column
            others = [state.units[x] for x in state.flow.stack[-1].data["convoy"]]
            return [
                Action("move_to", unit=unit.id, point=p)
                for p in convoy_points(state, unit, others, al)
            ]
        out = []
        outdoors = unit.concealed and unit_room(state, unit) is None
        if (
            not outdoors
        ):  # concealed in a building: to its other rooms only (bookgun.conceal.reveal)
            for point, room in candidate_moves(state, unit, al):
                if unit.concealed and room is None:
                    continue
                out.append(Action("move_to", unit=unit.id, point=point, option=room))
        else:  # concealed out of doors: within its piece of concealing terrain
            out += [
                Action("move_to", unit=unit.id, point=p) for p in concealed_moves(state, unit, al)
            ]
        return out

    def check(self, state: S, side: str, action: Action) -> None:
        top = state.flow.stack[-1] if state.flow.stack else None
        if not isinstance(top, Pending) or top.stage != "move":
            raise IllegalActionError("no unit is moving now", self.rule)
        unit, al = self._ctx(state)
        if action.unit != unit.id:
            raise IllegalActionError(f"{unit.name} is the unit moving", self.rule)
        if (action.point is None) == (action.option is None):
            raise IllegalActionError("give a point or a room", self.rule)
        if "convoy" in state.flow.stack[-1].data:  # bookgun.move.road_column
            if action.point is None:
                raise IllegalActionError("a road column moves to a point", self.rule)
            others = [state.units[x] for x in state.flow.stack[-1].data["convoy"]]
            problem = convoy_problem(state, unit, others, al, action.point)
            if problem is not None:
                raise IllegalActionError(problem, "bookgun.move.road_column")
            return
        if state.flow.stack[-1].data.get("back"):
            if action.point is None:
                raise IllegalActionError("a vehicle backs up to a point", "bookgun.move.vehicles")
            problem = back_problem(state, unit, al, action.point)
            if problem is not None:
                raise IllegalActionError(problem, "bookgun.move.vehicles")
            return
        problem = move_problem(state, unit, al, action.point, action.option)
        if problem is not None:
            raise IllegalActionError(problem, self.rule)

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        unit, al = self._ctx(state)
        backing = bool(state.flow.stack[-1].data.get("back"))
        convoy = state.flow.stack[-1].data.get("convoy")
        state.flow.stack.pop()
        events: list[Event] = []
        if convoy is not None and action.point is not None:  # bookgun.move.road_column
            others = [state.units[x] for x in convoy]
            events += convoy_move_all(state, unit, others, al, action.point)
            return events + _post_move(state, unit) + Activate().done(state, unit)
        if unit.vehicle is not None and action.point is not None:
            return drive(state, unit, al, action.point, backing) + Activate().done(state, unit)
        was_concealed = unit.concealed
        if was_concealed and action.option is None and unit.marker in state.markers:
            area = conceal_area(state, unit)  # moving within it, the marker moves (p.11)
            point = action.point
            if area is None or point is None or not stays_in(area, centre(state, unit), point):
                events += combat.reveal(state, state.markers[str(unit.marker)], "breaks cover")
        # a concealed enemy in the room entered is found first (bookgun.conceal.reveal)
        if action.option is not None:
            for f in room_figures(state, action.option):
                owner = state.units[f.unit]
                if owner.side == enemy(side) and owner.concealed and owner.marker in state.markers:
                    events += combat.reveal(
                        state, state.markers[str(owner.marker)], "is found in the room"
                    )
                    unit.moved = True
                    return events + _post_move(state, unit) + Activate().done(state, unit)
        if unit.concealed and action.point is not None and unit.marker in state.markers:
            # within its concealing terrain (p.11): the marker moves, and the unit is placed
            # at it as the set-up places a unit at an outdoor marker (a loose group)
            mk = state.markers[str(unit.marker)]
            mk.x, mk.y = action.point
            unit.formation = "unformed"
            place_outside(state, unit, action.point, 270.0)
            unit.moved = True
            where = f"to ({mk.x:.1f}, {mk.y:.1f}) within {mk.site}"
            ev = note("move", f"{unit.name} moves {where}", self.rule, unit=unit.id, to=where)
            events.append(secret(side, ev, f"marker {mk.id} moves within {mk.site}"))
            return events + _post_move(state, unit) + Activate().done(state, unit)
        where = do_move(state, unit, action.point, action.option)
        if unit.formation == CIRCLE and action.point is not None:
            lead = state.leader_of(unit)
            face_out(state, unit, lead.pos if lead is not None else centre(state, unit))
        unit.moved = True
        ev = note("move", f"{unit.name} moves {where}", self.rule, unit=unit.id, to=where)
        if unit.concealed:
            m = state.markers.get(str(unit.marker))
            if m is not None:
                c = centre(state, unit)
                m.x, m.y = c
                m.site = unit_room(state, unit) or m.site
                ev = secret(side, ev, f"marker {m.id} moves to {m.site}")
        events.append(ev)
        return events + _post_move(state, unit) + Activate().done(state, unit)

    def describe(self, state: S, side: str, action: Action) -> str:
        if action.option:
            return f"{action.unit} moves into {action.option}"
        assert action.point is not None
        return f"{action.unit} moves to ({action.point[0]:.1f}, {action.point[1]:.1f})"


def drive(
    state: S, unit: Unit, al: Allowance, point: tuple[float, float], back: bool
) -> list[Event]:
    """Move a vehicle and its passengers; it is in motion as a target and a firer when it
    used half or more of its rolled move (bookgun.move.vehicles, p.15)."""
    model = state.unit_figures(unit)[0]
    facing = model.facing
    if back:
        length, allowed = dist(model.pos, point), al.clear
    else:
        length, allowed = path_length(state, unit, al, point)
    do_move(state, unit, point, None)
    if back:
        model.facing = facing  # backing: no turn
        carry(state, unit)
    unit.moved = True
    share = world(state).tables.vehicles.in_motion
    unit.in_motion = allowed > 0 and length >= share * allowed - 1e-9
    if world(state).tables.vehicles.kinds[str(unit.vehicle)].unlimited:
        unit.in_motion = length > 0.05  # a helicopter that moved; hovering it is not (house)
    words = "backs" if back else "drives"
    motion = "in motion" if unit.in_motion else "not in motion (under half its move)"
    ev = note(
        "move",
        f"{unit.name} {words} to ({point[0]:.1f}, {point[1]:.1f}), {length:.1f} of "
        f"{allowed:g} in.: {motion}",
        "bookgun.move.vehicles",
        unit=unit.id,
        to=f"to ({point[0]:.1f}, {point[1]:.1f})",
        in_motion=unit.in_motion,
    )
    return [ev] + _post_move(state, unit)


def _post_move(state: S, unit: Unit) -> list[Event]:
    return combat.check_reveals(state) + combat.ied_check(state)


class Stay(ActionKind[S]):
    name, rule = "stay", "bookgun.turn.movement"

    def options(self, state: S, side: str) -> Iterable[Action]:
        top = state.flow.stack[-1] if state.flow.stack else None
        if not isinstance(top, Pending) or top.stage != "move":
            return []
        return [Action("stay", unit=top.data["unit"])]

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        top = state.flow.stack.pop()
        unit = state.units[str(action.unit)]
        if isinstance(top, Pending):  # bookgun.move.road_column: the whole set stays
            state.acted.extend(str(x) for x in top.data.get("convoy", ()))
        if any(f.prone for f in state.unit_figures(unit)):
            unit.moved = False
        ev = note("stay", f"{unit.name} stays where it is", self.rule, unit=unit.id)
        if unit.concealed:
            ev = secret(side, ev, None)
        return [ev] + Activate().done(state, unit)


class Hold(_CardKind):
    name, rule = "hold", "bookgun.turn.movement"

    def options(self, state: S, side: str) -> Iterable[Action]:
        if not self.has_card(state, side):
            return []
        if state.flow.phase == "movement":
            # p.18 7.1: a shaken unit must try to move every movement phase (its rally roll
            # comes with the attempt, 7.2) - it may not be declared not moving, where it has a
            # move to try (a foot unit; riders, crews and vehicles keep their hold)
            return [
                Action("hold", unit=u.id)
                for u in sorted(state.units.values(), key=lambda u: u.id)
                if u.side == side and may_move(state, u) and not must_try(u)
            ]
        out = []
        for u in sorted(state.units.values(), key=lambda u: u.id):
            if u.side == side:
                apart = len(fire_cards(state, u)) > 1  # one card a figure (bookgun.lead.fire_cards)
                for g in fire_group(state, u):
                    if combat.fire_targets(state, u, g):
                        out.append(
                            Action(
                                "hold",
                                unit=u.id,
                                units=tuple(f.id for f in g) if len(g) == 1 and apart else (),
                            )
                        )
        return out

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        unit = state.units[str(action.unit)]
        if action.units:
            state.acted.extend(action.units)
            left = fire_group(state, unit)
            events = [
                note(
                    "hold", f"{state.figures[action.units[0]].name} holds fire", "bookgun.turn.fire"
                )
            ]
            if left:
                return events + _after(state) + next_card(state)
            return events + self.done(state, unit)
        ev = note(
            "hold",
            f"{unit.name} does not {'move' if state.flow.phase == 'movement' else 'fire'}",
            self.rule,
            unit=unit.id,
        )
        if unit.concealed or state.unseen_inside(unit, enemy(side)):
            ev = secret(side, ev, None)
        return [ev] + self.done(state, unit)


class Search(_CardKind):
    name, rule = "search", "bookgun.search"

    def options(self, state: S, side: str) -> Iterable[Action]:
        if not self.has_card(state, side) or side != "army":
            return []
        out = []
        for u in sorted(state.units.values(), key=lambda u: u.id):
            if u.side != side or not may_move(state, u) or u.status in (SHAKEN, PINNED):
                continue  # a shaken or pinned unit rallies first, on its activation (p.18 7.2)
            rooms = sorted(
                {f.room for f in state.fit_figures(u) if f.room and f.room not in state.searched}
            )
            for r in rooms:
                if f"{state.flow.turn}:{r}" in state.search_rolls:
                    continue  # one roll per room per turn (spec §4.7)
                if not any(
                    f.side != side and f.present and f.side != "civilians"
                    for f in room_figures(state, r)
                ):
                    out.append(Action("search", unit=u.id, option=r))
        return out

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        unit = state.units[str(action.unit)]
        room = str(action.option)
        events: list[Event] = []
        need = world(state).tables.search.need
        unit.moved = True
        state.search_rolls.append(f"{state.flow.turn}:{room}")
        if Test(
            6,
            need,
            self.rule,
            text=lambda faces, total, ok: (
                f"{unit.name} searches {room}: d6 {list(faces)}, need {need}+: "
                + ("searched" if ok else "not yet")
            ),
        ).sample(state.rng, events):
            state.searched.append(room)
            if room == state.cache_room:
                state.cache_found = True
                events.append(
                    note(
                        "cache",
                        f"the weapons cache is found in {room}!",
                        "bookgun.conceal.cache",
                        room=room,
                    )
                )
            else:
                events.append(note("search", f"{room} is searched: nothing", self.rule, room=room))
        return events + self.done(state, unit)


WINDOW_REACH = 1.5  # inches: how near a window a figure must stand to climb in (house)


def window_entries(state: S, unit: Unit) -> dict[str, list[tuple[Figure, tuple[float, float]]]]:
    """bookgun.building.windows (p.19): for each room, the figures of ``unit`` that stand at one
    of its windows (they moved up to it in an earlier turn: a unit moves once a turn) - one
    figure per window - while the room is not seen to be held by the enemy and has space."""
    w = world(state)
    if (
        unit.vehicle is not None
        or unit.gun is not None
        or unit.aboard is not None
        or unit.rides is not None  # tank riders (bookgun.move.tank_riders)
        or unit.riding  # on horses or bicycles (bookgun.move.cavalry / bicycles, house)
        or unit.concealed
        or unit.status != OK
        or unit.side not in SIDES
    ):
        return {}
    outside = [f for f in state.fit_figures(unit) if f.room is None and not f.prone]
    out: dict[str, list[tuple[Figure, tuple[float, float]]]] = {}
    used: set[str] = set()
    for b in sorted(w.buildings.values(), key=lambda b: b.id):
        for at, room in b.windows:
            if w.rooms[room].floor != 0:
                continue
            spot = w.door_outside(at, b)
            near = [f for f in outside if f.id not in used and dist(f.pos, spot) <= WINDOW_REACH]
            if not near:
                continue
            held = any(
                f.side == enemy(unit.side) and not state.units[f.unit].concealed
                for f in room_figures(state, room)
            )
            taken = len(out.get(room, []))
            if held or room_space(state, room, unit) - taken <= 0:
                continue
            f = min(near, key=lambda g: (dist(g.pos, spot), g.id))
            used.add(f.id)
            out.setdefault(room, []).append((f, at))
    return out


class Window(_CardKind):
    """bookgun.building.windows (p.19): figures that moved up to a window are placed inside,
    the window at their back, and stop; one figure per window per turn; never into a room
    the enemy holds. A concealed enemy inside is found instead (bookgun.conceal.reveal)."""

    name, rule = "window", "bookgun.building.windows"

    def options(self, state: S, side: str) -> Iterable[Action]:
        return self.per_mover(state, side, window_entries)

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        unit = state.units[str(action.unit)]
        room = str(action.option)
        w = world(state)
        climbers = window_entries(state, unit).get(room, [])
        unit.moved = True
        events: list[Event] = []
        for f in room_figures(state, room):
            owner = state.units[f.unit]
            if owner.side == enemy(side) and owner.concealed and owner.marker in state.markers:
                events += combat.reveal(
                    state, state.markers[str(owner.marker)], "is found at the window"
                )
                return events + _post_move(state, unit) + self.done(state, unit)
        r = w.rooms[room]
        for f, at in climbers:
            f.room = room
            taken = sum(1 for g in room_figures(state, room) if g.id != f.id)
            f.x, f.y = r.slots[taken % len(r.slots)]
            f.facing = bearing(at, r.centre)  # the window at his back
            events.append(
                note(
                    "window",
                    f"{f.name} climbs in at the window into {room}",
                    self.rule,
                    figure=f.id,
                    room=room,
                )
            )
        if any(f.room for f in state.unit_figures(unit)):
            unit.formation = "unformed"
        return events + _post_move(state, unit) + self.done(state, unit)

    def describe(self, state: S, side: str, action: Action) -> str:
        return f"{action.unit} climbs in at the windows of {action.option}"


BREACH_REACH = 1.5  # inches: how near a wall a figure must stand to place a charge (house)


def breach_spots(state: S, unit: Unit) -> dict[str, tuple[Figure, tuple[float, float]]]:
    """bookgun.building.breach (house, the rule is cut off on p.19): for each ground-floor room
    whose outer wall a fit figure of ``unit`` carrying a shaped charge stands at, that figure
    and the point of the wall nearest him."""
    from shapely.geometry import Point
    from shapely.ops import nearest_points

    w = world(state)
    if (
        unit.vehicle is not None
        or unit.gun is not None
        or unit.aboard is not None
        or unit.rides is not None  # tank riders (bookgun.move.tank_riders)
        or unit.riding  # on horses or bicycles (bookgun.move.cavalry / bicycles, house)
        or unit.concealed
        or unit.status != OK
        or unit.side not in SIDES
    ):
        return {}
    out: dict[str, tuple[Figure, tuple[float, float]]] = {}
    placed = {br["room"] for br in state.breaches}
    for f in state.fit_figures(unit):
        if f.charges <= 0 or f.room is not None:
            continue
        for r in sorted(w.rooms.values(), key=lambda r: r.id):
            if r.floor != 0 or r.id in out or r.id in placed:
                continue
            b = w.buildings[r.building]
            p = nearest_points(r.polygon.exterior, Point(f.pos))[0]
            if p.distance(Point(f.pos)) > BREACH_REACH or b.polygon.exterior.distance(p) > 1e-6:
                continue
            out[r.id] = (f, (round(p.x, 2), round(p.y, 2)))
    return out


class Breach(_CardKind):
    """bookgun.building.breach (house): a figure at a building's outer wall spends his unit's
    move placing a shaped charge; it blows at the end of this turn's fire phase and opens the
    wall into the room (an entry never locked); everyone in the room within 2 in. of it takes
    a blast roll as Category II (spec §4.1: a burst inside a room)."""

    name, rule = "breach", "bookgun.building.breach"

    def options(self, state: S, side: str) -> Iterable[Action]:
        return self.per_mover(state, side, breach_spots)

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        unit = state.units[str(action.unit)]
        room = str(action.option)
        f, at = breach_spots(state, unit)[room]
        f.charges -= 1
        unit.moved = True
        state.breaches.append(
            {
                "room": room,
                "x": at[0],
                "y": at[1],
                "turn": state.flow.turn,
                "side": side,
                "blown": False,
            }
        )
        ev = note(
            "breach",
            f"{f.name} places a shaped charge on the wall of {room} at ({at[0]:.1f}, {at[1]:.1f})",
            self.rule,
            figure=f.id,
            room=room,
        )
        return [ev] + _post_move(state, unit) + self.done(state, unit)

    def describe(self, state: S, side: str, action: Action) -> str:
        return f"{action.unit} places a breaching charge on {action.option}"


def blow_charges(state: S) -> list[Event]:
    """End of the fire phase: the charges placed this turn blow (bookgun.building.breach)."""
    events: list[Event] = []
    for br in state.breaches:
        if br["blown"] or br["turn"] != state.flow.turn:
            continue
        br["blown"] = True
        room = str(br["room"])
        at = (float(br["x"]), float(br["y"]))
        events.append(
            note(
                "breach",
                f"the charge blows a way into {room} at ({at[0]:.1f}, {at[1]:.1f})",
                "bookgun.building.breach",
                room=room,
                x=at[0],
                y=at[1],
            )
        )
        for f in room_figures(state, room):  # the blast shows who was inside
            owner = state.units[f.unit]
            if owner.concealed and owner.marker in state.markers:
                events += combat.reveal(state, state.markers[str(owner.marker)], "is blown open")
        events += combat.room_blast(state, room, at, str(br["side"]))
    return events + _after(state)


class Charge(_CardKind):
    name, rule = "charge", "bookgun.move.charge"

    def targets(self, state: S, unit: Unit) -> list[Unit]:
        w = world(state)
        c = centre(state, unit)
        out = []
        for e in known_enemies(state, unit.side):
            if not combat.targetable(e):
                continue
            near = min(state.unit_figures(e), key=lambda f: dist(c, f.pos))
            dice = (
                w.tables.mount.charge_dice
                if unit.aboard is not None
                else charge_reach(w, unit, c, near.pos)
            )
            if dice <= 0:  # no charge column (bicycles, p.14)
                continue
            if dist(c, near.pos) <= 6 * dice + w.tables.command.charge_stop:
                out.append(e)
        return out

    def options(self, state: S, side: str) -> Iterable[Action]:
        if not self.has_card(state, side):
            return []
        return [
            Action(
                "charge",
                unit=u.id,
                target=t.id,
                option="dismount" if u.aboard is not None else None,
            )
            for u in sorted(state.units.values(), key=lambda u: u.id)
            if u.side == side
            and may_move(state, u)
            and u.status == OK
            and not u.concealed
            and u.vehicle is None
            and u.gun is None
            and u.rides is None  # tank riders jump off first (house)
            and (u.aboard is None or may_dismount(state, u))
            and unit_room(state, u) is None
            for t in self.targets(state, u)
        ]

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        unit, target = state.units[str(action.unit)], state.units[str(action.target)]
        events: list[Event] = []
        dice = None
        if unit.aboard is not None:
            # bookgun.move.mount (p.16): dismounting within charge distance, 2D6 to charge
            w = world(state)
            vehicle = state.units[unit.aboard]
            model = state.unit_figures(vehicle)[0]
            vehicle.occupied_seen = False
            unit.aboard, unit.mounted = None, state.flow.turn
            record_load(state, vehicle, "dismount")  # boats and helicopters (p.15-16)
            if unit.formation in ("unformed", "column"):
                unit.formation = "open"
            at = landing_point(state, vehicle) or model.pos
            place_outside(state, unit, at, landing_facing(state, vehicle, at))
            events.append(
                note(
                    "dismount",
                    f"{unit.name} dismounts from {vehicle.name} to charge",
                    "bookgun.move.mount",
                    unit=unit.id,
                    vehicle=vehicle.id,
                )
            )
            dice = w.tables.mount.charge_dice
        events += evade(state, target)
        events += charge(state, unit, target, dice)
        return events + _post_move(state, unit) + self.done(state, unit)

    def describe(self, state: S, side: str, action: Action) -> str:
        return f"{action.unit} charges {action.target}"


def evade(state: S, target: Unit) -> list[Event]:
    """bookgun.move.scouts (p.17): a charged scout evades back to his parent unit (house: he
    always does, placed beside its leader, when the unit is on the table on foot)."""
    if target.scout_of is None:
        return []
    parent = state.units.get(target.scout_of)
    if parent is None or not state.on_table(parent) or parent.aboard is not None:
        return []
    w = world(state)
    at = centre(state, parent)
    spot = next(
        (
            p
            for p in ((at[0] + dx, at[1] + dy) for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1)))
            if w.table.inside(p[0], p[1], 0.3) and w.building_at(p) is None
        ),
        at,
    )
    for f in state.unit_figures(target):
        f.x, f.y, f.room = spot[0], spot[1], None
    to = parent.name
    if parent.concealed and parent.marker in state.markers:
        # the enemy sees the scout run to a marker, not whom it hides: it now knows the
        # marker holds troops (as when a marker stirs), never which
        marker = state.markers[str(parent.marker)]
        marker.stirred = True
        to = f"marker {marker.id}"
    return [
        note(
            "evade",
            f"{target.name} evades back to {to}",
            "bookgun.move.scouts",
            unit=target.id,
        )
    ]


def charge(state: S, unit: Unit, target: Unit, dice: int | None = None) -> list[Event]:
    """bookgun.move.charge (house detail): roll the charge dice; reaching 2 in. short of the
    target, the unit stops there charging; otherwise it moves the roll and is not charging."""
    w = world(state)
    events: list[Event] = []
    from umpire.rulesets.bookgun.chances import movement_roll

    start = centre(state, unit)
    troom = unit_room(state, target)
    if troom is not None:
        from umpire.rulesets.bookgun.movement import entry_point

        door = entry_point(state, unit.side, troom)
        goal = door[1] if door else centre(state, target)
        stop = 0.0
    else:
        near = min(state.unit_figures(target), key=lambda f: dist(start, f.pos))
        goal, stop = near.pos, w.tables.command.charge_stop
    faces = movement_roll(
        charge_reach(w, unit, start, goal) if dice is None else dice,
        "bookgun.move.charge",
        f"{unit.name} charges",
    ).sample(state.rng, events)
    need = max(0.0, dist(start, goal) - stop)
    go = min(float(sum(faces)), need)
    t = go / dist(start, goal) if dist(start, goal) > 0 else 0.0
    dest = (start[0] + (goal[0] - start[0]) * t, start[1] + (goal[1] - start[1]) * t)
    if w.path_problem(start, dest) is not None:
        dest, go = start, 0.0
    place_outside(
        state, unit, dest, bearing(start, goal) if go > 0 else state.figures[unit.figures[0]].facing
    )
    unit.moved = True
    if go >= need - 1e-6:
        unit.charging = target.id
        events.append(
            note(
                "charge",
                f"{unit.name} charges {target.name} and will close this turn",
                "bookgun.move.charge",
                unit=unit.id,
                target=target.id,
            )
        )
        if (
            target.status == SHAKEN
            and state.flow.phase == "movement"
            and target.id not in state.acted
        ):
            # p.18 7.4: charged before its move, a shaken unit has no chance to rally and runs
            # its 4D6 toward the nearest edge at once; its move is spent and no fight follows
            unit.charging = None
            combat.flee_from_charge(state, unit, target, events)
            state.acted.append(target.id)
    else:
        events.append(
            note(
                "charge",
                f"{unit.name} falls short of {target.name} ({go:.1f} of {need:.1f} in.)",
                "bookgun.move.charge",
                unit=unit.id,
            )
        )
    return events


class Joker(_CardKind):
    name, rule = "joker", "bookgun.turn.joker"
    joker = True

    def options(self, state: S, side: str) -> Iterable[Action]:
        if not self.has_card(state, side):
            return []
        return [
            Action("joker", unit=u.id)
            for u in sorted(state.units.values(), key=lambda u: u.id)
            if u.side == side and may_move(state, u)
        ]

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        unit = state.units[str(action.unit)]
        w = world(state)
        events: list[Event] = []
        from umpire.core.chance import TableLookup

        result = TableLookup(
            6,
            dict(w.tables.joker.results),
            self.rule,
            text=lambda faces, v, r: f"joker for {unit.name}: d6 {list(faces)}: {r}",
        ).sample(state.rng, events)
        if unit.concealed or state.unseen_inside(unit, enemy(side)):
            events = [secret(side, e, "a joker for a hidden unit") for e in events]
        done = False
        if result == "extra_die":
            unit.extra_die = 1
        elif result == "minus_d6":
            unit.minus_d6 = True
        elif result == "no_move":
            done = True
        elif result == "heal":
            for f in state.unit_figures(unit):
                if f.status == WOUNDED:
                    f.status = "fit"
                    heal = note("heal", f"{f.name} is back on his feet", self.rule, figure=f.id)
                    if unit.concealed or state.unseen_inside(unit, enemy(side)):
                        heal = secret(side, heal, None)
                    events.append(heal)
        elif result == "fall_back":
            # passengers and tank riders stay aboard (house)
            if not unit.concealed and unit.aboard is None and unit.rides is None:
                flee(state, unit, 2, self.rule, "falls back", events)
                if unit.vehicle is not None:
                    carry(state, unit)
            done = True
        elif result == "charge":
            foes = [e for e in known_enemies(state, side) if combat.targetable(e)]
            if (
                foes
                and not unit.concealed
                and unit_room(state, unit) is None
                and unit.vehicle is None
                and unit.aboard is None
                and unit.rides is None
                and unit.gun is None
            ):
                c = centre(state, unit)
                target = min(foes, key=lambda e: dist(c, centre(state, e)))
                events += charge(state, unit, target)
            done = True
        if done:
            unit.moved = True
            return events + _post_move(state, unit) + self.done(state, unit)
        return events + next_card(state)


class Fire(_CardKind):
    name, rule = "fire", "bookgun.turn.fire"

    def options(self, state: S, side: str) -> Iterable[Action]:
        if not self.has_card(state, side):
            return []
        out = []
        for u in sorted(state.units.values(), key=lambda u: u.id):
            if u.side != side:
                continue
            # one card per figure or the whole unit on one (whatever its reload markers)
            apart = len(fire_cards(state, u)) > 1 or state.leader_of(u) is None
            for g in fire_group(state, u):
                single = tuple(f.id for f in g) if apart else ()
                # only heavy weapons loaded (bookgun.fire.reload): an RPG fires as a blast
                heavy_only = (
                    u.reload > 0
                    and combat.reload_kept(state)
                    and not any(f.role == "gun" for f in g)
                )
                for t in combat.fire_targets(state, u, g):
                    if not (heavy_only and t in state.units):
                        out.append(Action("fire", unit=u.id, target=t, units=single))
                    if any(f.grenades or (f.second and f.rounds) for f in g) and t in state.units:
                        tgt = state.units[t]
                        if any(s.blast for s in combat.plan_shots(state, u, g, tgt, True)):
                            out.append(
                                Action("fire", unit=u.id, target=t, units=single, option="blast")
                            )
        return out

    @staticmethod
    def _firers(state: S, action: Action) -> list[Figure]:
        unit = state.units[str(action.unit)]
        if action.units:
            return [state.figures[f] for f in action.units]
        return next(iter(fire_group(state, unit)), [])

    def advise(self, state: S, side: str, action: Action) -> None:
        unit = state.units[str(action.unit)]
        figs = self._firers(state, action)  # a reload marker (bookgun.fire.reload)
        if not all(combat.loaded(state, unit, f) for f in figs):
            combat.relaxed(
                state, "bookgun.fire.reload", f"{unit.name} fires with a reload marker on it"
            )
        combat.target_allowed(state, unit, figs, str(action.target))

    def resolve(self, state: S, side: str, action: Action) -> list[Event]:
        unit = state.units[str(action.unit)]
        figs = self._firers(state, action)
        events = combat.resolve_fire(
            state, unit, figs, str(action.target), action.option == "blast"
        )
        if action.units:
            state.acted.extend(action.units)
            if fire_group(state, unit):
                return events + _after(state) + (next_card(state) if state.over is None else [])
        return events + self.done(state, unit)

    def describe(self, state: S, side: str, action: Action) -> str:
        who = ", ".join(action.units) if action.units else action.unit
        target = str(action.target)
        if target.startswith(combat.DOOR):
            from umpire.rulesets.bookgun.chances import door_opens

            room = target[len(combat.DOOR) :]
            unit = state.units.get(str(action.unit))
            shots = (
                combat.door_shots(state, unit, self._firers(state, action), room)
                if unit is not None
                else []
            )
            p = door_opens([s.need for s in shots]).probability(lambda ok: ok)
            return (
                f"{who} fire HE at the locked door of {room} "
                f"({len(shots)} round(s), P(door opens) {float(p):.0%})"
            )
        return (
            f"{who} fire{' blast weapons' if action.option == 'blast' else ''} at {action.target}"
        )


# -- the ruleset -----------------------------------------------------------------------------
class BookGun(FlowRules[S], RulesetBase[S]):
    """The Book and The Gun (Dan Fraser), figure-level counter-insurgency skirmish."""

    meta = RulesetMeta(
        id="bookgun",
        version=VERSION,
        title="The Book and The Gun",
        players=SIDES,
        chance="sampled",
        information="imperfect",
        max_turns=12,
        max_actions=5000,
    )
    capabilities = Capabilities(
        scripted=Lazy("umpire.rulesets.bookgun.agent:BookGunScripted"),
        odds=Lazy("umpire.rulesets.bookgun.odds_cli:ODDS"),
        board=Lazy("umpire.rulesets.bookgun.board:BOARD"),
        house_rules=HOUSE_RULES,
        catalog=lambda: rule_catalog(),
        rules_markdown=lambda: rules_markdown(),
        render=lambda state, viewer: _render(state, viewer),
        status_line=lambda state: (
            f"turn {state.flow.turn}, {state.flow.phase}, card {state.card or '-'}"
        ),
        options=(
            Option("double-ranges", "Double every range band (p.5).", type="bool", default=False),
        ),
        side_colours={"army": "#2c3e50", "insurgents": "#c0392b"},
        # set-up (concealed deployment, cache, IED, commander) is not play: the first player
        # of `umpire simulate` is the owner of the first card drawn (bookgun.cards.deck)
        in_play=lambda state: state.flow.phase != "setup",
        deployment=Lazy("umpire.rulesets.bookgun.deployment:step"),
    )

    def __init__(self) -> None:
        phases = [
            Phase[S]("setup", ("deploy", "cache", "ied", "commander"), to_act=_setup_to_act),
            Phase[S](
                "movement",
                (
                    "activate",
                    "hold",
                    "search",
                    "window",
                    "breach",
                    "charge",
                    "joker",
                    "move_to",
                    "stay",
                ),
                to_act=self._card_side,
                on_begin=_phase_begin,
                on_end=_movement_end,
                end_if=lambda s: s.card is None and not s.flow.stack,
            ),
            Phase[S](
                "fire",
                ("fire", "hold"),
                to_act=self._card_side,
                on_begin=_phase_begin,
                on_end=blow_charges,
                end_if=lambda s: s.card is None,
            ),
            Phase[S]("close_combat", on_begin=lambda s: combat.close_combats(s) + _after(s)),
            Phase[S]("morale", on_begin=lambda s: combat.morale_phase(s) + _after(s)),
        ]
        flow = Flow(
            phases,
            lambda s: s.flow,
            on_turn_begin=_turn_begin,
            on_turn_end=_turn_end,
            game_over=lambda s: s.over is not None,
        )
        kinds: list[ActionKind[S]] = [
            Deploy(),
            ChooseCache(),
            ChooseIed(),
            ChooseCommander(),
            Activate(),
            MoveTo(),
            Stay(),
            Hold(),
            Search(),
            Window(),
            Breach(),
            Charge(),
            Joker(),
            Fire(),
        ]
        FlowRules.__init__(self, flow, kinds)

    # -- rule switches (issue 21) ------------------------------------------------------------
    def _advice(self, state: S, action: Action) -> tuple[str, list[Advice]]:
        """The side acting and the rules under ``advise`` that ``action`` breaks (only its
        own: listing every option to check it notes nothing)."""
        with quiet_advice():
            side, kind = FlowRules.check(self, state, action)
        with collect_advice() as notes:
            if isinstance(kind, _CardKind):
                kind.advise(state, side, action)
        return side, notes

    def apply(self, state: S, action: Action) -> list[Event]:
        """The core's apply; under rule switches set to ``advise`` the log first warns of each
        rule the action breaks (the acting side reads what it did, the other the rule)."""
        if not switches_in(state.options):
            return FlowRules.apply(self, state, action)
        side, notes = self._advice(state, action)
        events = FlowRules.apply(self, state, action)
        return advice_events(notes, rule_catalog(), side) + events

    def describe(self, state: S, action: Action) -> str:
        """The menu line, naming the rules under ``advise`` the action breaks."""
        text = FlowRules.describe(self, state, action)
        if not switches_in(state.options):
            return text
        try:
            _, notes = self._advice(state, action)
        except IllegalActionError:
            return text
        return text + advice_suffix(notes)

    def _card_side(self, state: S) -> str | None:
        if state.flow.stack:
            return state.flow.stack[-1].side
        if state.card is None:
            return None
        return card_owner(world(state), state.card)

    def scenario_ids(self) -> list[str]:
        return scenario_ids()

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        spec = load_scenario(scenario)
        return ScenarioInfo(scenario, spec.title, spec.briefing)

    def new_state(self, scenario: str, seed: int, options: Mapping[str, Any]) -> S:
        from umpire.rulesets.bookgun.movement import formation_points
        from umpire.rulesets.bookgun.world import world_for

        w = world_for(scenario, options.get("house_rules"))
        rng = RandomStream(seed)
        figures: dict[str, Figure] = {}
        units: dict[str, Unit] = {}
        for us in w.spec.units:
            at = us.at or (0.0, 0.0)
            pts = formation_points(
                len(us.figures), (float(at[0]), float(at[1])), us.facing, us.formation
            )
            lead = next((f.id for f in us.figures if f.role == "leader"), None)
            for fs, p in zip(us.figures, pts, strict=True):
                figures[fs.id] = Figure(
                    fs.id,
                    fs.name,
                    us.id,
                    us.side,
                    fs.weapon,
                    fs.second,
                    fs.role,
                    p[0],
                    p[1],
                    us.facing,
                    grenades=fs.grenades,
                    rounds=fs.rounds,
                    charges=fs.charges,
                    crew=fs.crew,
                    group_leader=fs.group_leader,
                )
            units[us.id] = Unit(
                us.id,
                us.name,
                us.side,
                us.troop,
                us.quality,
                us.formation,
                [f.id for f in us.figures],
                lead,
                len(us.figures),
                concealed=us.concealed,
                arrives=us.arrives if us.arrives and us.arrives > 1 else None,
                vehicle=us.vehicle,
                armoured=us.armoured,
                gun=us.gun,
                limbered=us.limbered,
                aboard=us.aboard,
                scout_of=us.scout_of,
                radio=us.radio,
                ride=us.ride,
                riding=us.ride is not None and us.riding,
                amphibious=us.amphibious,
                landed=us.landed,
                rides=us.rides,
                rides_fit=len(us.figures) if us.rides is not None else 0,
            )
            if us.arrives_on is not None:
                units[us.id].arrives = us.arrives_on.latest or w.spec.turns + 1
                units[us.id].arrive_cards = list(us.arrives_on.cards)
                units[us.id].arrive_from = us.arrives_on.from_turn
        for u in units.values():
            if u.aboard is not None or u.rides is not None:  # riding from the start
                v = figures[units[str(u.aboard or u.rides)].figures[0]]
                for fid in u.figures:
                    figures[fid].x, figures[fid].y, figures[fid].facing = v.x, v.y, v.facing
        state = BookGunState(
            scenario=scenario,
            seed=int(seed),
            options={k: v for k, v in options.items()},
            rng=rng,
            flow=FlowState(),
            deck=Deck(pile=[]),
            casualties=Deck(pile=sorted(standard_deck(0))),
            figures=figures,
            units=units,
        )
        state.world_memo = w
        for u in state.units.values():  # bookgun.cavalry.holders: cavalry starting on foot
            if u.ride == "horse" and not u.riding:
                from umpire.rulesets.bookgun.mounts import assign_holders

                assign_holders(state, u, w)
        state.to_deploy = [u.id for u in w.spec.units if u.concealed] + [
            f"dummy-{i + 1}" for i in range(w.spec.dummies)
        ]
        state.setup_events = [
            note(
                "setup",
                f"{w.spec.title}: {w.spec.width:g} x {w.spec.height:g} in., {w.spec.turns} turns, "
                f"ROE {w.spec.roe}",  # never the seed: it would foretell the dice
                f"bookgun.roe.{w.spec.roe}",
            )
        ]
        state.setup_events += self.flow.start(state)
        return state

    def setup_events(self, state: S) -> list[Event]:
        return list(state.setup_events)

    def outcome(self, state: S) -> Outcome | None:
        if state.over is None:
            return None
        return Outcome(state.over["winner"], state.over["how"], {"points": state.over["points"]})

    def observation(self, state: S, player: str) -> dict[str, Any]:
        """What ``player`` sees: the army never sees concealed insurgents, what a marker holds,
        the cache room, the IED or the deck order; the insurgents never see who commands."""
        hidden_units = {
            u.id
            for u in state.units.values()
            if (u.concealed and u.side != player) or state.unseen_inside(u, player)
        }
        figs = {
            k: {
                "id": f.id,
                "name": f.name,
                "unit": f.unit,
                "side": f.side,
                "weapon": f.weapon,
                "second": f.second,
                "role": f.role,
                "x": round(f.x, 2),
                "y": round(f.y, 2),
                "facing": round(f.facing, 1),
                "status": f.status,
                "prone": f.prone,
                # bookgun.los.figure: a man's fire gives him away to those who see his unit
                "fired": f.fired,
                "fired_last": f.fired_last,
                "room": f.room,
                "grenades": f.grenades,
                "rounds": f.rounds,
                "charges": f.charges,
                "group_leader": f.group_leader,
            }
            for k, f in state.figures.items()
            if f.unit not in hidden_units
        }
        units = {}
        for u in state.units.values():
            if u.id in hidden_units:
                continue
            units[u.id] = {
                "id": u.id,
                "name": u.name,
                "side": u.side,
                "troop": u.troop,
                "formation": u.formation,
                "status": u.status,
                "reload": u.reload,
                "reload_heavy": u.reload_heavy,
                "moved": u.moved,
                "fired": u.fired,
                "fired_last": u.fired_last,
                "moved_last": u.moved_last,
                "spotted": u.spotted,
                "charging": u.charging,
                "concealed": u.concealed,
                "marker": u.marker if u.side == player else None,
                "leader": u.leader,
                "start": u.start,
                "on_table": state.on_table(u),
                "arrives": u.arrives,
                "entered": u.entered,
                "arrive_cards": list(u.arrive_cards),
                "arrive_from": u.arrive_from,
                "vehicle": u.vehicle,
                "armoured": u.armoured,
                "aboard": u.aboard,
                "in_motion": u.in_motion,
                "scout_of": u.scout_of,
                "gun": u.gun,
                "limbered": u.limbered,
                "limbering": u.limbering,
                "ride": u.ride,
                "riding": u.riding,
                "holders": list(u.holders),
                "horses_lost": u.horses_lost,
                "amphibious": u.amphibious,
                "landed": u.landed,
                "rides": u.rides,
            }
        markers = {
            m.id: {
                "id": m.id,
                "x": round(m.x, 2),
                "y": round(m.y, 2),
                "site": m.site,
                **({"unit": m.unit} if player == "insurgents" else {}),
            }
            for m in state.markers.values()
        }
        top = state.flow.stack[-1] if state.flow.stack else None
        out: dict[str, Any] = {
            "player": player,
            "scenario": state.scenario,
            "turn": state.flow.turn,
            "flow": state.flow.to_dict(viewer=player),
            "card": state.card,
            "deck": state.deck.view(player),
            "casualty_cards_left": len(state.casualties.pile),
            "casualty_discard": list(state.casualties.discard),
            "figures": figs,
            "units": units,
            "markers": markers,
            "searched": list(state.searched),
            "breaches": [dict(b) for b in state.breaches],
            # rooms whose doors are locked to this side: it sees the enemy hold the building
            # (bookgun.building.doors) - what its HE at a door names (door_fire)
            "locked_doors": sorted(combat.locked_doors(state, player)) if player in SIDES else [],
            "cache_found": state.cache_found,
            "acted": [a for a in state.acted if a not in hidden_units],
            "pending": top.to_dict() if isinstance(top, Pending) and top.side == player else None,
            "over": state.over,
            "table": [float(world(state).spec.width), float(world(state).spec.height)],
            "exit_edge": world(state).spec.victory.exit_edge,
        }
        if player == "insurgents":
            out["cache_room"] = state.cache_room
            out["ied"] = state.ied
        # bookgun.lead.cinc: a side reads its own Commander-in-Chief, never the other's
        if player == "army" or world(state).cinc.get(player):
            out["commander"] = state.commanders.get(player)
        return out

    def resample(self, state: S, player: str, rng: random.Random) -> S:
        """A state consistent with ``player``'s view: for the army, the concealed insurgent
        units and dummies re-dealt among the markers (see ``_redeal``), the cache among the rooms
        not yet searched, the IED among the sites no army figure stands near, the deck order and
        future dice drawn anew; for either, the enemy's Commander-in-Chief among its candidates
        (see ``_redraw_commander``) and the enemy riders it cannot see re-seated among the
        enemy's closed vehicles (see ``_reseat``)."""
        if player == "army":
            twin = self._redeal(state, rng)
            w = world(twin)
            if twin.cache_chosen and not twin.cache_found:
                rooms = [r for r in w.spec.cache_rooms if r not in twin.searched]
                twin.cache_room = rng.choice(rooms) if rooms else twin.cache_room
            if twin.ied is not None and not twin.ied_done and w.spec.ied is not None:
                trigger = w.spec.ied.trigger
                army = [f for u in active_units(twin, "army") for f in twin.fit_figures(u)]
                sites = [
                    at
                    for at in w.spec.ied.sites
                    if not any(dist(f.pos, (at[0], at[1])) <= trigger for f in army)
                ] or [(twin.ied[0], twin.ied[1])]
                at = rng.choice(sites)
                twin.ied = [float(at[0]), float(at[1])]
        else:
            twin = self.clone(state)
        self._redraw_commander(twin, enemy(player), rng)
        self._reseat(twin, player, rng)
        twin.deck.pile.sort(key=str)  # from an order the truth does not set
        rng.shuffle(twin.deck.pile)
        twin.rng = RandomStream(rng.randrange(2**32))
        return twin

    @staticmethod
    def _redraw_commander(twin: S, side: str, rng: random.Random) -> None:
        """Draw ``side``'s Commander-in-Chief anew in ``twin`` among what its enemy cannot rule
        out (bookgun.lead.cinc, p.8: he is revealed only when killed or captured, or at the
        end): a Commander-in-Chief killed or captured was revealed, so he stays; otherwise any
        candidate not killed or captured (their fall named nobody, so none of them was he) -
        wounded or gone off the table alike, as the enemy cannot tell."""
        truth = twin.commanders.get(side)
        if truth is None or twin.figures[truth].status in (KILLED, CAPTURED):
            return
        pool = [
            c for c in world(twin).cinc[side] if twin.figures[c].status not in (KILLED, CAPTURED)
        ]
        twin.commanders[side] = rng.choice(pool)

    @staticmethod
    def _reseat(twin: S, player: str, rng: random.Random, tries: int = 30) -> None:
        """Re-seat in ``twin`` the enemy units riding unseen inside the enemy's closed vehicles
        (bookgun.move.mount, house: ``player`` does not see who rides inside), keeping what
        ``player`` knows: which enemy units it does not see outside (they ride in some closed
        vehicle on the table); that a unit it saw get in (mount event; it would have seen it
        get out) is still in that vehicle; each vehicle's passenger limit (bookgun.move.vehicles);
        and that a vehicle from which it saw someone spot since the last unit got out holds
        somebody. Each unit that got in unseen (aboard from the start) draws its vehicle at
        random; draws breaking a limit are rejected, and after ``tries`` rejections the first
        seating that keeps them all, in the order of the vehicles' and units' ids, is taken
        (the true seating keeps them, so one exists). Nothing here reads the true seating of
        those units."""
        kinds = world(twin).tables.vehicles.kinds
        vehicles = sorted(
            v.id
            for v in twin.units.values()
            if v.side != player and v.armoured and v.vehicle is not None and twin.on_table(v)
        )
        inside = [
            u
            for u in sorted(twin.units.values(), key=lambda u: u.id)
            if u.side != player and u.aboard in vehicles
        ]
        free = [u.id for u in inside if u.mounted == 0]  # never seen getting in
        if not free:
            return
        known = [u for u in inside if u.mounted != 0]
        room = {
            v: kinds[str(twin.units[v].vehicle)].passengers
            - sum(riders(twin, u) for u in known if u.aboard == v)
            for v in vehicles
        }
        must = {
            v
            for v in vehicles
            if twin.units[v].occupied_seen and not any(u.aboard == v for u in known)
        }
        need = {u: riders(twin, twin.units[u]) for u in free}

        def fits(seats: Mapping[str, str]) -> bool:
            load = dict.fromkeys(vehicles, 0)
            for u, v in seats.items():
                load[v] += need[u]
            return all(load[v] <= room[v] for v in vehicles) and all(
                any(s == v for s in seats.values()) for v in must
            )

        chosen: dict[str, str] | None = None
        for _ in range(tries):
            seats = {u: rng.choice(vehicles) for u in free}
            if fits(seats):
                chosen = seats
                break
        if chosen is None:
            chosen = next(
                seats
                for seats in (
                    dict(zip(free, pick, strict=True))
                    for pick in itertools.product(vehicles, repeat=len(free))
                )
                if fits(seats)
            )
        for u, v in chosen.items():
            twin.units[u].aboard = v
        for v in vehicles:
            carry(twin, twin.units[v])

    def _redeal(self, state: S, rng: random.Random, tries: int = 30) -> S:
        """A clone with the concealed insurgent units and dummies dealt anew among the markers,
        keeping what the army knows (bookgun.conceal.markers): a marker it saw stir or move holds
        a unit, never a dummy; a unit that has acted this phase or is in the middle of its
        activation stays under its marker; and the deal must leave each side as able to act in
        this phase as it is in truth (a card the army saw called for the insurgents must find a
        unit of theirs able to use it), and each dealt unit must fit under its marker
        (bookgun.building.capacity, as set-up keeps it). Deals are drawn uniformly and
        those that break the last two conditions rejected; after ``tries`` rejections the
        first deal that keeps every condition is taken, walking the deals in an order set by
        the markers' and units' ids alone (never by the true deal, which keeps them all, so
        one is always found)."""
        fixed_units = set(state.acted) | {
            str(p.data.get("unit")) for p in state.flow.stack if isinstance(p, Pending)
        }
        markers = sorted(state.markers.values(), key=lambda m: m.id)
        free = [m for m in markers if m.unit is None or m.unit not in fixed_units]
        stirred = [m for m in free if m.stirred]
        quiet = [m for m in free if not m.stirred]
        units = sorted(m.unit for m in free if m.unit is not None)  # not in the truth's order
        dummies = len(free) - len(units)
        to_act = self.to_act(state)
        phase = state.flow.phase
        able = {s: eligible(state, s) for s in SIDES} if phase in ("movement", "fire") else {}

        def housed(twin: S) -> bool:
            """bookgun.building.capacity: every dealt unit fits where its marker is (no man
            left standing in a building outside its rooms, as set-up never leaves one)."""
            w = world(twin)
            return all(
                f.room is not None or w.building_at(f.pos) is None
                for u in units
                for f in twin.unit_figures(twin.units[u])
            )

        check_housed = housed(state)  # the truth keeps it (else the check is left out)

        def keeps(twin: S) -> bool:
            if any(eligible(twin, s) != ok for s, ok in able.items()):
                return False
            if check_housed and not housed(twin):
                return False
            # the army's own menu never hangs on what it cannot see (the same in every deal:
            # tests/bookgun/test_clone.py), so only the insurgents' is listed
            return to_act in (None, "army") or bool(self.legal_actions(twin))

        for _ in range(tries):
            twin = self.clone(state)
            deal = list(units)
            rng.shuffle(deal)
            rest: list[str | None] = [*deal[len(stirred) :], *([None] * dummies)]
            rng.shuffle(rest)
            contents: dict[str, str | None] = dict(
                zip([m.id for m in stirred], deal[: len(stirred)], strict=True)
            )
            contents.update(zip([m.id for m in quiet], rest, strict=True))
            self._place_deal(twin, contents)
            if keeps(twin):
                return twin
        order = [m.id for m in free]  # by marker id
        need = {m.id for m in stirred}
        for held in _deals(order, need, units, dummies):
            twin = self.clone(state)
            self._place_deal(twin, dict(zip(order, held, strict=True)))
            if keeps(twin):
                return twin
        raise AssertionError("no deal keeps what the army knows, not even the true one")

    @staticmethod
    def _place_deal(twin: S, contents: Mapping[str, str | None]) -> None:
        """Put each dealt unit under its marker: into the marker's room (and neighbours) in a
        building, else in a loose group at the marker."""
        w = world(twin)
        for mid, unit_id in contents.items():
            twin.markers[mid].unit = unit_id
            if unit_id is not None:
                for f in twin.unit_figures(twin.units[unit_id]):
                    f.room = None  # every dealt unit leaves its rooms before any is placed
        for mid, unit_id in sorted(contents.items()):
            if unit_id is None:
                continue
            m = twin.markers[mid]
            unit = twin.units[unit_id]
            unit.marker = m.id
            room = w.sites[m.site][1] if m.site in w.sites else None
            if room is None and m.site in w.rooms:
                room = m.site
            if room is not None:
                place_in_rooms(twin, unit, room, (m.x, m.y))
            else:
                unit.formation = "unformed"
                place_outside(twin, unit, (m.x, m.y), 270.0)

    @staticmethod
    def result_headline(winner: str) -> str:
        """The battle report's headline for ``winner``, as a sentence: the side names are a
        collective noun and a plural (the army wins, the insurgents win)."""
        return {"army": "The army wins", "insurgents": "The insurgents win"}.get(
            winner, "A draw" if winner == "draw" else f"{winner} wins"
        )

    def state_to_dict(self, state: S) -> dict[str, Any]:
        return state.to_dict()

    def state_from_dict(self, data: Mapping[str, Any]) -> S:
        return BookGunState.from_dict(data)

    def clone(self, state: S) -> S:
        return state.clone()  # a structural copy (state.py), not a to_dict round trip

    def summary(self, state: S) -> dict[str, Any]:
        figs = state.figures.values()
        return {
            "turns": state.flow.turn,
            "points": army_points(state),
            "losses": {
                side: {
                    status: sum(1 for f in figs if f.side == side and f.status == status)
                    for status in (KILLED, WOUNDED, CAPTURED, GONE)
                }
                for side in (*SIDES, "civilians")
            },
        }


def _deals(
    markers: list[str], stirred: set[str], units: list[str], dummies: int
) -> Iterator[list[str | None]]:
    """Every deal of ``units`` and ``dummies`` dummies (None) to ``markers`` in turn, a unit under
    each stirred marker, in a fixed order: units by id first, a dummy last, at each marker."""
    left: dict[str | None, int] = {u: units.count(u) for u in sorted(set(units))}
    left[None] = dummies
    held: list[str | None] = []

    def walk(i: int) -> Iterator[list[str | None]]:
        if i == len(markers):
            yield list(held)
            return
        for what, n in list(left.items()):
            if n == 0 or (what is None and markers[i] in stirred):
                continue
            left[what] = n - 1
            held.append(what)
            yield from walk(i + 1)
            held.pop()
            left[what] = n

    return walk(0)


def _render(state: S, viewer: str | None) -> str:
    from umpire.rulesets.bookgun.render import render

    return render(state, viewer)


__all__ = ["BookGun", "rule_catalog", "rules_markdown", "RollUnder", "OUT", "GONE"]
