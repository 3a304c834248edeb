"""The web table's drawing of a game of The Book and The Gun (``BOARD``, a
:class:`~umpire.core.ruleset.BoardCapability`).

Everything that moves comes from the viewer's observation only (``BookGun.observation``): the
figures it shows, drawn one by one at their place and facing; the units they belong to, with
formation and state; the concealment markers, which tell the army *where* a marker is and never
*what* it is (the observation has no ``unit`` key for the army); the card just drawn and the
casualty pile. The table itself (terrain areas, buildings with their rooms by floor, doors and
windows, the rooms where a cache may be) is public scenario data, drawn once per world. The
insurgents' page also marks the cache room and the IED site, which only their observation holds.

``action_details`` answers the page's questions, from the observation too:

- ``sight`` (a unit clicked): a spotting line from the unit's nearest figure to each enemy
  figure and concealment marker the viewer can see, saying whether sight is clear
  (``bookgun.spot`` geometry: buildings, high walls, rooms) and the spotting number at that
  range from the spotting chart;
- ``fire``: the exact distribution of casualties (``bookgun.fire.procedure``: the d20s of each
  firing figure, then one casualty card per hit from the cards left in the casualty pile, hits
  beyond the visible target figures lost). The d20s are the rule's own
  :class:`~umpire.rulesets.bookgun.chances.HitsUnder` chances; the cards are counted exactly
  (a multivariate hypergeometric over the pile the observation shows, the same draw without
  replacement ``chances.cards_effects`` enumerates; a unit test checks they agree). Fire on a
  concealment marker or by a group whose target the viewer cannot see has no odds: the marker
  may be a dummy. HE at a locked door (``bookgun.building.door_fire``) gives the exact chance
  the door opens (``chances.door_opens``: each round's d20, one after another), only for the
  viewer's own units.

House choices: a figure's base is drawn 0.8 in. across (a 20-25 mm base) ``house``.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from umpire.core.actions import Action
from umpire.core.deck import card_colour, card_rank, card_suit
from umpire.rulesets.bookgun.world import World, world_for

FIGURE_BASE = 0.8  # inches across (house)
_SUIT = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
SIDE_FUNCTION = {"army": "UCI", "insurgents": "UCI", "civilians": ""}


def _world(obs: Mapping[str, Any]) -> World:
    return world_for(str(obs["scenario"]), (obs.get("options") or {}).get("house_rules"))


def _rect_points(rect: Any) -> list[list[float]]:
    x0, y0, x1, y1 = (float(v) for v in rect)
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


# what never changes in a world (terrain, buildings, rooms), drawn once per world
_STATIC: weakref.WeakKeyDictionary[World, dict[str, Any]] = weakref.WeakKeyDictionary()


def _static(world: World) -> dict[str, Any]:
    found = _STATIC.get(world)
    if found is not None:
        return found
    spec = world.spec
    terrain = []
    for t in spec.terrain:
        if t.rect is not None:
            pts = _rect_points(t.rect)
        else:
            pts = [[float(x), float(y)] for x, y in (t.polygon or [])]
        # a steep slope is drawn as a hill (contours); smoke as a grey cloud
        kind = "hill" if t.kind == "steep" else t.kind
        entry: dict[str, Any] = {
            "id": t.id,
            "kind": kind,
            "points": pts,
            "conceal": bool(t.conceal),
        }
        if t.kind == "steep":
            entry["uphill"] = t.uphill
        terrain.append(entry)
    buildings = []
    for b in spec.buildings:
        floors = sorted({r.floor for r in b.rooms})
        buildings.append(
            {
                "id": b.id,
                "name": b.name,
                "points": _rect_points(b.rect),
                "floors": floors,
                "rooms": [
                    {
                        "id": r.id,
                        "floor": r.floor,
                        "points": _rect_points(r.rect),
                        "centre": list(world.rooms[r.id].centre),
                        "cache_candidate": r.id in spec.cache_rooms,
                    }
                    for r in b.rooms
                ],
                "doors": [
                    {"at": [float(d.at[0]), float(d.at[1])], "room": d.room} for d in b.doors
                ],
                "windows": [
                    {"at": [float(w.at[0]), float(w.at[1])], "room": w.room} for w in b.windows
                ],
                "stairs": [list(s) for s in b.stairs],
            }
        )
    found = _STATIC[world] = {"terrain": terrain, "buildings": buildings}
    return found


VEHICLE_HULL = (2.0, 1.0)  # inches long and wide a vehicle model is drawn (house)


def _hull(f: Mapping[str, Any], unit: Mapping[str, Any]) -> dict[str, Any]:
    """A vehicle's hull, drawn as a rectangle at its model turned to its facing (kind vehicle),
    with the model's own figure (facing line) on top."""
    import math

    length, width = VEHICLE_HULL
    a = math.radians(float(f.get("facing", 0.0)))
    fx, fy, sx, sy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    x, y = float(f["x"]), float(f["y"])
    pts = [
        [
            round(x + fx * dl * length / 2 + sx * dw * width / 2, 3),
            round(y + fy * dl * length / 2 + sy * dw * width / 2, 3),
        ]
        for dl, dw in ((1, 1), (1, -1), (-1, -1), (-1, 1), (1, 1))
    ]
    return {
        "id": f"{unit['id']} ({unit.get('vehicle')})",
        "kind": "vehicle",
        "points": pts,
        "conceal": False,
        "unit": unit["id"],
        "side": unit.get("side"),
    }


def card_label(card: str | None) -> str | None:
    """``"10-diamonds"`` -> ``"10♦"``; a joker stays ``"joker"``."""
    if not card:
        return None
    suit = card_suit(card)
    return card_rank(card) + (_SUIT.get(suit, "") if suit else "")


def _sidc(affiliation: str, side: str) -> str:
    code = f"S{affiliation}GP{SIDE_FUNCTION.get(side, ''):-<6}-"
    return f"{code:-<15}"


class BookGunBoard:
    """Figures at scale, buildings by floor, concealment markers, the card just drawn."""

    kind = "table"

    def board(
        self, game: Any, observation: Mapping[str, Any], viewer: str | None
    ) -> dict[str, Any]:
        obs = observation
        world = _world(obs)
        static = _static(world)
        spec = world.spec
        figs: Mapping[str, Mapping[str, Any]] = obs.get("figures", {})
        units_obs: Mapping[str, Mapping[str, Any]] = obs.get("units", {})
        flow = obs.get("flow", {}) or {}
        active = flow.get("active")
        searched = set(obs.get("searched", []))

        figures = []
        members: dict[str, list[Mapping[str, Any]]] = {}
        riders: dict[str, int] = {}
        hulls: list[dict[str, Any]] = []
        for f in sorted(figs.values(), key=lambda f: str(f["id"])):
            unit = units_obs.get(str(f["unit"]))
            if unit is None or not unit.get("on_table", True):
                continue
            if unit.get("aboard"):  # riding inside: counted on the vehicle, not drawn
                if f.get("status") in ("fit", "wounded"):
                    riders[str(unit["aboard"])] = riders.get(str(unit["aboard"]), 0) + 1
                continue
            if unit.get("vehicle") and f.get("status") in ("fit", "wounded"):
                hulls.append(_hull(f, unit))
            if f.get("status") == "gone":
                continue
            room = f.get("room")
            floor = world.rooms[room].floor if room in world.rooms else None
            figures.append(
                {
                    "id": f["id"],
                    "name": f.get("name"),
                    "unit": f["unit"],
                    "side": f.get("side"),
                    "x": f["x"],
                    "y": f["y"],
                    "facing": f.get("facing", 0.0),
                    "status": f.get("status"),
                    "prone": bool(f.get("prone")),
                    "role": f.get("role"),
                    "weapon": f.get("weapon"),
                    "second": f.get("second"),
                    "room": room,
                    "floor": floor,
                }
            )
            if f.get("status") in ("fit", "wounded"):
                members.setdefault(str(f["unit"]), []).append(f)

        units = []
        for u in sorted(units_obs.values(), key=lambda u: str(u["id"])):
            here = members.get(str(u["id"]), [])
            on_table = bool(u.get("on_table", True)) and bool(here)
            side = str(u.get("side"))
            aff = "F" if side == viewer else ("N" if side == "civilians" else "H")
            entry: dict[str, Any] = {
                "id": u["id"],
                "name": u.get("name", u["id"]),
                "side": side,
                "troop": u.get("troop"),
                "formation": u.get("formation"),
                "status": "active" if on_table else "off",
                "state": u.get("status"),
                "figures": [str(f["id"]) for f in here],
                "active": u["id"] == active,
                "sidc": _sidc(aff, side),
                "stats": {
                    **(
                        {
                            "vehicle": u.get("vehicle"),
                            # a closed vehicle's riders are the owner's to know
                            "passengers": riders.get(str(u["id"]), 0)
                            if side == viewer or not u.get("armoured")
                            else None,
                            "in_motion": u.get("in_motion"),
                        }
                        if u.get("vehicle")
                        else {}
                    ),
                    **({"aboard": u.get("aboard")} if u.get("aboard") else {}),
                    # bookgun.move.tank_riders / cavalry / bicycles / helicopters
                    **({"rides": u.get("rides")} if u.get("rides") else {}),
                    **(
                        {
                            "mounts": u.get("ride"),
                            "riding": bool(u.get("riding")),
                            # bookgun.cavalry.holders / stampede
                            "holders": len(u.get("holders") or []),
                            "horses_lost": bool(u.get("horses_lost")),
                        }
                        if u.get("ride")
                        else {}
                    ),
                    **(
                        {"landed": bool(u.get("landed"))}
                        if u.get("vehicle") == "helicopter"
                        else {}
                    ),
                    "formation": u.get("formation"),
                    "state": u.get("status"),
                    "figures": len(here),
                    "reload": u.get("reload"),
                    "spotted": u.get("spotted"),
                    "moved": u.get("moved"),
                    "fired": u.get("fired"),
                },
            }
            if here:
                entry["x"] = round(sum(float(f["x"]) for f in here) / len(here), 2)
                entry["y"] = round(sum(float(f["y"]) for f in here) / len(here), 2)
            if u.get("concealed"):  # only ever one's own: the others' are not observed
                entry["concealed"] = True
            if u.get("marker"):  # one's own concealed unit: which marker it hides under
                entry["marker"] = u["marker"]
            units.append(entry)

        markers = []
        for m in sorted(obs.get("markers", {}).values(), key=lambda m: str(m["id"])):
            shown: dict[str, Any] = {
                "id": m["id"],
                "side": "insurgents",
                "x": m["x"],
                "y": m["y"],
                "site": m.get("site"),
                "own": viewer == "insurgents",
            }
            if "unit" in m:  # only the insurgents' observation says what a marker is
                shown["contents"] = m["unit"] if m["unit"] is not None else "dummy"
            markers.append(shown)

        buildings = []
        for b in static["buildings"]:
            rooms = [dict(r, searched=r["id"] in searched) for r in b["rooms"]]
            buildings.append(dict(b, rooms=rooms))
        secret: dict[str, Any] = {}
        if obs.get("cache_room") is not None:
            secret["cache_room"] = obs["cache_room"]
        ied = obs.get("ied")
        if isinstance(ied, list | tuple) and len(ied) >= 2:
            secret["ied"] = [float(ied[0]), float(ied[1])]
        if obs.get("commander") is not None:  # bookgun.lead.cinc: one's own, never the enemy's
            secret["commander"] = obs["commander"]

        if viewer == "insurgents" and flow.get("phase") == "setup":
            # where the insurgents may put their concealment markers (bookgun.setup.deploy),
            # for their own page's deployment step: the sites already taken are left out
            taken = {m.get("site") for m in obs.get("markers", {}).values()}
            secret["deploy_sites"] = [
                {"id": site, "x": pos[0], "y": pos[1], "room": room}
                for site, (pos, room) in world.sites.items()
                if site not in taken
            ]

        card = obs.get("card")
        colour = card_colour(card) if card else None
        card_side = next((s for s, c in spec.colours.items() if c == colour), None)
        deck = obs.get("deck", {}) or {}
        table = obs.get("table") or [spec.width, spec.height]
        return {
            "layout": "continuous",
            "unit": "inch",
            "width": float(table[0]),
            "height": float(table[1]),
            "terrain": static["terrain"] + hulls,
            "buildings": buildings,
            "roads": [],
            "objectives": [],
            "figures": figures,
            "figure_base": FIGURE_BASE,
            "units": units,
            "hidden_markers": markers,
            **secret,
            "drawn_card": {
                "card": card,
                "label": card_label(card),
                "side": card_side,
                "joker": bool(card and card.startswith("joker")),
            }
            if card
            else None,
            "deck": {
                "pile": deck.get("pile"),
                "discard": [card_label(c) for c in deck.get("discard", [])],
            },
            "casualty_pile": {
                "left": obs.get("casualty_cards_left"),
                "discard": [card_label(c) for c in obs.get("casualty_discard", [])],
            },
            "sight": True,
            "status": {
                "turn": obs.get("turn"),
                "turns": spec.turns,
                "phase": flow.get("phase"),
                "card": card_label(card),
                "to_act": flow.get("to_act"),
                "cache_found": obs.get("cache_found"),
            },
        }

    def action_details(
        self, game: Any, observation: Mapping[str, Any], viewer: str, action: Action
    ) -> dict[str, Any] | None:
        units = observation.get("units", {})
        if action.kind == "sight":
            figs = observation.get("figures", {})
            if action.unit in figs:  # one figure of a unit: its own lines
                fig = figs[str(action.unit)]
                return {"lines": spotting_lines(observation, str(fig["unit"]), str(fig["id"]))}
            if action.unit not in units:
                return None
            return {"lines": spotting_lines(observation, str(action.unit))}
        if action.kind == "fire":
            if str(action.target).startswith("door:"):
                # only the viewer's own unit: which doors are locked is what its side knows
                if units.get(str(action.unit), {}).get("side") != viewer:
                    return None
                try:
                    return door_odds(game, action)
                except (KeyError, ValueError, IndexError, AttributeError, StopIteration):
                    return None
            if action.unit not in units or action.target not in units:
                return None  # a marker (maybe a dummy) or something the viewer cannot see
            try:
                return fire_odds(game, observation, action)
            except (KeyError, ValueError, IndexError, AttributeError, StopIteration):
                return None
        return None


# -- spotting ------------------------------------------------------------------------------------
def _fig(f: Mapping[str, Any]) -> Any:
    return SimpleNamespace(
        room=f.get("room"),
        pos=(float(f["x"]), float(f["y"])),
        side=f.get("side"),
        prone=bool(f.get("prone", False)),  # bookgun.move.prone: unseen behind a low screen
        fired=bool(f.get("fired", False)),  # bookgun.los.figure: ... unless he fired
        fired_last=bool(f.get("fired_last", False)),
    )


def spotting_lines(
    obs: Mapping[str, Any], unit_id: str, figure: str | None = None
) -> list[dict[str, Any]]:
    """From ``unit_id``'s figures (or only ``figure``) to each enemy figure and marker the
    viewer sees; civilians are nobody's enemy and are left out."""
    from umpire.rulesets.bookgun.combat import sees, spot_number

    world = _world(obs)
    units = obs.get("units", {})
    unit = units.get(unit_id)
    if unit is None:
        return []
    figs = obs.get("figures", {})
    own = [
        f
        for f in figs.values()
        if f["unit"] == unit_id
        and f.get("status") in ("fit", "wounded")
        and (figure is None or f["id"] == figure)
    ]
    if not own or not units[unit_id].get("on_table", True):
        return []
    side = unit.get("side")
    spotter: Any = SimpleNamespace(troop=unit.get("troop"))
    leader = any(f.get("role") in ("leader", "officer") and f.get("status") == "fit" for f in own)
    targets: list[tuple[str, str, Any, list[float]]] = []
    for f in figs.values():
        other = units.get(str(f["unit"]))
        if (
            other is None
            or other.get("side") in (side, "civilians")
            or f.get("status") not in ("fit", "wounded")
            or not other.get("on_table", True)
        ):
            continue
        body = _fig(f)  # carries the figure's own fire (p.11 2.2, bookgun.los.figure)
        targets.append((str(f["unit"]), str(f["id"]), body, [f["x"], f["y"]]))
    if side == "army":
        for m in obs.get("markers", {}).values():
            room = world.sites[m["site"]][1] if m.get("site") in world.sites else None
            point = SimpleNamespace(room=room, pos=(float(m["x"]), float(m["y"])), prone=False)
            targets.append((str(m["id"]), str(m["id"]), point, [m["x"], m["y"]]))
    lines = []
    for target, figure, body, at in sorted(targets, key=lambda t: t[1]):
        best = None
        for f in own:
            a = _fig(f)
            d = math.dist(a.pos, body.pos)
            seen = sees(world, a, body)
            key = (not seen, d)
            if best is None or key < best[0]:
                best = (key, f, seen, d)
        assert best is not None
        _, f, seen, d = best
        need = spot_number(world, spotter, d, leader)
        lines.append(
            {
                "target": target,
                "figure": figure,
                "from_figure": f["id"],
                "from": [f["x"], f["y"]],
                "to": at,
                "visible": bool(seen),
                "obscured": False,
                "range": round(d, 1),
                "spot": "auto" if need is None else need,
            }
        )
    return lines


# -- fire odds -----------------------------------------------------------------------------------
def _pile(obs: Mapping[str, Any]) -> list[str]:
    """The casualty cards left: the deck less the discards the observation shows (an empty
    pile is reshuffled from the discards, bookgun.casualty.card)."""
    from umpire.rulesets.bookgun.chances import CASUALTY_DECK

    gone = list(obs.get("casualty_discard", []))
    left = list(CASUALTY_DECK)
    for c in gone:
        if c in left:
            left.remove(c)
    return left or list(CASUALTY_DECK)


@lru_cache(maxsize=512)
def card_tallies(
    hits: int, leader_present: bool, pile: tuple[str, ...], horses: bool = False
) -> tuple[tuple[tuple[int, int, int], Fraction], ...]:
    """Exact (killed, wounded, leader) of ``hits`` casualty cards drawn without replacement from
    ``pile``: the multivariate hypergeometric over each card's effect (chances.casualty_effect),
    the distribution ``chances.cards_effects(...).map(_tally)`` enumerates draw by draw. With
    ``horses`` (a dismounted horse unit with none of its own key men in view) a face card hits a
    led horse, no figure (bookgun.cavalry.holders, combat.casualty_cards)."""
    from itertools import product
    from math import comb

    from umpire.rulesets.bookgun.chances import casualty_effect

    counts: dict[str, int] = {}
    for c in pile:
        e = casualty_effect(c, leader_present)
        counts[e] = counts.get(e, 0) + 1
    kinds = sorted(counts)
    n = sum(counts.values())
    k = min(hits, n)
    total = comb(n, k)
    out: dict[tuple[int, int, int], Fraction] = {}
    for split in product(*(range(min(counts[e], k) + 1) for e in kinds)):
        if sum(split) != k:
            continue
        ways = 1
        for e, m in zip(kinds, split, strict=True):
            ways *= comb(counts[e], m)
        got = dict(zip(kinds, split, strict=True))
        key_killed = 0 if horses else got.get("key_killed", 0)
        key_wounded = 0 if horses else got.get("key_wounded", 0)
        killed = got.get("killed", 0) + key_killed + got.get("leader", 0)
        wounded = got.get("wounded", 0) + key_wounded
        key = (killed, wounded, got.get("leader", 0))
        out[key] = out.get(key, Fraction(0)) + Fraction(ways, total)
    return tuple(sorted(out.items()))


def casualty_distribution(
    parts: list[Any], leader_present: bool, visible: int, pile: list[str], horses: bool = False
) -> dict[tuple[int, int, int], Fraction]:
    """Exact (killed, wounded, leader hit) of one fire action: the firers' d20s (the rule's
    own chances, summed), then a card per hit up to the visible target figures."""
    from umpire.rulesets.bookgun.chances import total_hits

    hits = total_hits(parts).outcomes() if parts else {0: Fraction(1)}
    out: dict[tuple[int, int, int], Fraction] = {}
    key_pile = tuple(sorted(pile))
    for h, p in hits.items():
        for tally, q in card_tallies(min(int(h), visible), leader_present, key_pile, horses):
            out[tally] = out.get(tally, Fraction(0)) + p * q
    return out


def door_odds(game: Any, action: Action) -> dict[str, Any] | None:
    """HE fired at a locked door (bookgun.building.door_fire): the rounds the rules would fire
    (``combat.door_shots``, the firer's own figures and the table's doors - nothing hidden: the
    menu offers the door only when the building is seen held), and the exact chance the door
    opens from ``chances.door_opens`` - the same d20s play rolls, one round after another."""
    from umpire.rulesets.bookgun import combat
    from umpire.rulesets.bookgun.chances import door_opens
    from umpire.rulesets.bookgun.ruleset import fire_group

    state = game.state
    unit = state.units[str(action.unit)]
    room = str(action.target)[len(combat.DOOR) :]
    if action.units:
        figs = [state.figures[f] for f in action.units]
    else:
        figs = next(iter(fire_group(state, unit)), [])
    shots = combat.door_shots(state, unit, figs, room)
    if not shots:
        return None
    opens = door_opens([s.need for s in shots]).probability(lambda ok: ok)
    results = {"door opens": float(opens), "stays locked": float(1 - opens)}
    return {
        "kind": "door",
        "room": room,
        "dice": [
            {
                "figure": s.firer,
                "weapon": s.weapon,
                "need": s.need,
                "band": s.band,
                "range": round(float(s.distance), 1),
            }
            for s in shots
        ],
        "order": list(results),
        "results": results,
        "exact": {"door opens": str(opens), "stays locked": str(1 - opens)},
        "p_open": float(opens),
    }


def fire_odds(game: Any, obs: Mapping[str, Any], action: Action) -> dict[str, Any] | None:
    """The shots the rules would roll (``combat.plan_shots``) for a fire action between two
    units the viewer's observation shows, and the exact casualty distribution."""
    from umpire.rulesets.bookgun import combat
    from umpire.rulesets.bookgun.chances import HitsUnder, RollUnder
    from umpire.rulesets.bookgun.ruleset import fire_group

    state = game.state
    world = _world(obs)
    unit = state.units[str(action.unit)]
    target = state.units[str(action.target)]
    if action.units:
        figs = [state.figures[f] for f in action.units]
    else:
        figs = next(iter(fire_group(state, unit)), [])
    if not figs:
        return None
    blast = action.option == "blast"
    shots = combat.plan_shots(state, unit, figs, target, blast)
    always = world.tables.fire_table.always_miss
    parts = [
        HitsUnder(s.dice, 20, s.number, "bookgun.fire.table", always) for s in shots if not s.blast
    ]
    seen = {t.id: t for f in figs for t in combat.visible_targets(state, world, f, target, True)}
    visible = len(seen)
    # an ace kills the unit's leader (or attached officer) wherever he stands (p.7 IV.1)
    leader = any(t.fit and t.role in ("leader", "officer") for t in state.unit_figures(target))
    from umpire.rulesets.bookgun.mounts import led_horses

    # bookgun.cavalry.holders: face cards hit the led horses of a unit with no key men in view
    horses = led_horses(target) and not any(t.fit and t.role == "key" for t in seen.values())
    dist = casualty_distribution(parts, leader, visible, _pile(obs), horses)
    casualties: dict[int, float] = {}
    killed: dict[int, float] = {}
    for (k, w, _lead), p in dist.items():
        casualties[k + w] = casualties.get(k + w, 0.0) + float(p)
        killed[k] = killed.get(k, 0.0) + float(p)
    leader_hit = float(sum((p for (_k, _w, lead), p in dist.items() if lead), Fraction(0)))
    results = {f"{n} hit" if n == 1 else f"{n} hits": casualties[n] for n in sorted(casualties)}
    # a blast weapon: the chance it lands on target (bookgun.fire.blast, the same RollUnder play
    # rolls); where a miss scatters to, and who is caught there, is left out of these odds
    blasts = []
    for s in shots:
        if s.blast:
            need = (
                world.tables.blast.on_target_short
                if s.band == "short"
                else world.tables.blast.on_target_beyond
            )
            chance = RollUnder(20, need, "bookgun.fire.blast").outcomes()
            blasts.append(
                {"figure": s.firer, "weapon": s.blast, "on_target": float(chance.get(True, 0))}
            )
    return {
        "kind": "casualties",
        "target": target.id,
        "dice": [
            {
                "figure": s.firer,
                "dice": s.dice,
                "need": s.number,
                "band": s.band,
                "category": s.category,
                "range": round(float(s.distance), 1),
                "blast": s.blast,
            }
            for s in shots
        ],
        "visible": visible,
        "order": list(results),
        "results": results,
        "killed": {str(k): v for k, v in sorted(killed.items())},
        "leader_hit": leader_hit,
        "expected": sum(n * p for n, p in casualties.items()),
        "p_any": 1.0 - casualties.get(0, 0.0),
        "blast_not_counted": any(s.blast for s in shots),
        "blasts": blasts,
    }


BOARD = BookGunBoard()
