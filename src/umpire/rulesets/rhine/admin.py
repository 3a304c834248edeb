"""The administrative phase (rhine.sequence.turn), in the order of spec 3.4 step 6: refugees
rolled and placed by the Pact in empty NATO-controlled hexes (rhine.admin.refugees), the EW,
air and used support markers off the map (rhine.admin.clear), cumulative artillery attrition
(rhine.admin.artillery_attrition: the owner chooses the marker it loses when it has a real
choice, in the attrition phase), then the optional helicopter attrition and ammunition rules;
then the victory check."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind
from umpire.rulesets.rhine.hex_actions import cell_action_of
from umpire.rulesets.rhine.model import SIDES
from umpire.rulesets.rhine.position import ST, world
from umpire.rulesets.rhine.state import CSMarker
from umpire.rulesets.rhine.victory import check_victory


class RefugeeKind(ActionKind[ST]):
    name = "refugee"
    rule = "rhine.admin.refugees"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        made = cell_action_of(world(state), "refugee")
        return [made[h] for h in _refugee_hexes(state)]

    def check(self, state: ST, side: str, action: Action) -> None:
        """Allowed exactly when listed (the core's default), read by the action's hex."""
        made = cell_action_of(world(state), self.name).get(action.cell or "")
        if (
            made is None
            or not (made is action or made == action)
            or action.cell not in _refugee_set(state)
        ):
            raise IllegalActionError(self.refusal(state, side, action), self.rule)

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        assert action.cell is not None
        state.refugees.append(action.cell)
        state.refugees_to_place -= 1
        return [note("refugee", f"refugees clog {action.cell}", self.rule, cell=action.cell)]

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"refugees to {action.cell}"


def refugee_hexes(state: ST) -> list[str]:
    """Empty NATO-controlled hexes without a refugee marker (remembered for the position)."""
    return list(_refugee_hexes(state))


def _refugee_hexes(state: ST) -> list[str]:
    found = state.memo.get("refugee_hexes")
    if found is None:
        found = state.memo["refugee_hexes"] = _refugee_hexes_now(state)
    assert isinstance(found, list)
    return found


def _refugee_hexes_now(state: ST) -> list[str]:
    """The refugee hexes, in map order. The administrative phase places refugees one at a
    time: while the units stand where they stood and control is the same, the hexes are
    those of the last position read less the refugees placed since."""
    w = world(state)
    where = tuple(state.pos.items())
    control = state.control
    refugees = state.refugees
    kept = state.keep.get("refugee_hexes")
    if (
        kept is not None
        and kept[0] is w
        and kept[1] == where
        and len(refugees) >= len(kept[3])
        and refugees[: len(kept[3])] == kept[3]
        and kept[2] == control
    ):
        placed = set(refugees[len(kept[3]) :])
        found = [h for h in kept[4] if h not in placed]
        where, seen_control = kept[1], kept[2]  # equal to the position's: kept, not copied
    else:
        occupied = {h for _, h in where if h is not None}
        have = set(refugees)
        found = [
            h for h in w.ids if control.get(h) == "nato" and h not in occupied and h not in have
        ]
        seen_control = dict(control)
    state.keep["refugee_hexes"] = (w, where, seen_control, list(refugees), tuple(found))
    return found


def _refugee_set(state: ST) -> frozenset[str]:
    found = state.memo.get("refugee_set")
    if found is None:
        found = state.memo["refugee_set"] = frozenset(_refugee_hexes(state))
    assert isinstance(found, frozenset)
    return found


def admin_begin(state: ST) -> list[Event]:
    w = world(state)
    t = w.tables.refugees
    events: list[Event] = [note("phase", "administrative phase", "rhine.sequence.turn")]
    if state.flow.turn >= t.first_turn and t.dice > 0:
        state.refugees = []
        from umpire.core.chance import Roll

        faces = Roll(
            t.dice,
            6,
            "rhine.admin.refugees",
            lambda f: f"refugees: {t.dice}d6 {list(f)} = {sum(f)} markers for the Pact to place",
        ).sample(state.rng, events)
        state.refugees_to_place = min(sum(faces), len(refugee_hexes(state)))
    return events


def refugee_to_act(state: ST) -> str | None:
    return "pact" if state.refugees_to_place > 0 and _refugee_hexes(state) else None


def admin_close(state: ST) -> list[Event]:
    """The end of the refugee placement: the EW, air and used support markers leave the map
    (rhine.admin.clear), then artillery attrition as far as no owner has a choice to make
    (:func:`settle_attrition`; the attrition phase asks for the rest)."""
    # spec 3.4 step 6, in its order (refugees came first, in admin_begin): EW, air and used
    # support markers off the map; artillery attrition; the optional helicopter attrition; the
    # optional ammunition rule (admin_finish). Used markers stay "used" until those rules say
    # where they go.
    state.refugees_to_place = 0
    state.ew = {}
    state.air_markers = []
    events = [note("clear", "EW, air and used support markers leave the map", "rhine.admin.clear")]
    return events + settle_attrition(state)


def attrition_due(state: ST, side: str) -> int:
    """How many artillery markers ``side`` still has to lose (rhine.admin.artillery_attrition:
    one per full 4 NATO / 3 Pact units lost, cumulative)."""
    per = world(state).tables.attrition.losses_per_marker[side]  # type: ignore[index]
    return state.losses[side] // per - state.attrition_taken[side]


def attrition_choices(state: ST, side: str) -> list[CSMarker]:
    """The artillery markers ``side`` may choose to lose, one for each kind it holds (nation,
    and where the marker is: ready, used this turn, resting, still to arrive); markers of one
    kind are alike, the first by id stands for them."""
    kinds: dict[tuple[str, str, int], CSMarker] = {}
    for m in sorted(state.cs, key=lambda m: m.id):
        if m.side == side and m.type == "artillery" and m.status != "lost":
            kinds.setdefault((m.nation, m.status, m.back), m)
    return sorted(kinds.values(), key=lambda m: m.id)


def _lose(state: ST, side: str, victim: CSMarker, chosen: bool) -> Event:
    state.attrition_taken[side] += 1
    victim.status = "lost"
    how = f"; {side}'s choice" if chosen else ""
    return note(
        "attrition",
        f"{side} artillery attrition: {victim.id} lost for good "
        f"({state.losses[side]} units lost{how})",
        "rhine.admin.artillery_attrition",
    )


def settle_attrition(state: ST) -> list[Event]:
    """Artillery attrition, side by side (Pact, then NATO), as long as the side has no real
    choice (all its artillery markers alike, or none left); stops at the first loss whose
    marker the owner chooses (rhine.admin.artillery_attrition 'of its choice')."""
    events: list[Event] = []
    for side in SIDES:
        while attrition_due(state, side) > 0:
            choices = attrition_choices(state, side)
            if len(choices) > 1:
                return events  # the owner's choice: the attrition phase asks it
            if not choices:
                state.attrition_taken[side] += 1  # nothing left to lose
                continue
            events.append(_lose(state, side, choices[0], False))
    return events


def attrition_to_act(state: ST) -> str | None:
    """The side choosing which artillery marker it loses (after :func:`settle_attrition`)."""
    for side in SIDES:
        if attrition_due(state, side) > 0:
            return side
    return None


class AttritionKind(ActionKind[ST]):
    """rhine.admin.artillery_attrition: the side chooses which of its artillery markers it
    loses for good (offered only when its markers are not all alike)."""

    name = "attrition"
    rule = "rhine.admin.artillery_attrition"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        return [Action("attrition", option=m.id) for m in attrition_choices(state, side)]

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        victim = next(m for m in state.cs if m.id == action.option)
        return [_lose(state, side, victim, True), *settle_attrition(state)]

    def describe(self, state: ST, side: str, action: Action) -> str:
        m = next((m for m in state.cs if m.id == action.option), None)
        if m is None:
            return f"lose {action.option}"
        where = {"later": f"to arrive on turn {m.back}", "resting": f"resting until turn {m.back}"}
        return f"lose {m.nation} artillery {m.id} ({where.get(m.status, m.status)})"


def house_attrition_pick(
    markers: Iterable[Mapping[str, Any]], side: str, ammunition: bool
) -> str | None:
    """The scripted player's rule of thumb for the marker it loses (house,
    rhine.scenario.attrition_choice): from the nation with most artillery markers left, one
    in the pool before one kept off it (a used marker counts as back in the pool unless the
    ammunition rule may keep it off), the first by id."""
    pool = [
        m
        for m in markers
        if m["side"] == side and m["type"] == "artillery" and m["status"] != "lost"
    ]
    if not pool:
        return None
    in_pool = ("ready",) if ammunition else ("ready", "used")
    counts: dict[str, int] = {}
    for m in pool:
        counts[m["nation"]] = counts.get(m["nation"], 0) + 1
    nation = max(sorted(counts), key=lambda n: counts[n])
    victim = min(
        (m for m in pool if m["nation"] == nation),
        key=lambda m: (m["status"] not in in_pool, m["id"]),
    )
    return str(victim["id"])


def admin_finish(state: ST) -> list[Event]:
    """After artillery attrition: the optional helicopter attrition and ammunition rules,
    the used markers back in the pool, then the victory check."""
    w = world(state)
    events: list[Event] = []
    turn = state.flow.turn
    from umpire.core.chance import Roll, Test

    ammunition = bool(w.switches.get("ammunition"))
    # optional helicopter attrition
    if w.switches.get("heli_attrition"):
        for m in state.cs:
            if m.status != "used" or m.type != "helicopter":
                continue
            lost = Test(
                6,
                w.tables.attrition.heli_loss_on,
                "rhine.admin.heli_attrition",
                keep="sum",
                text=f"helicopter attrition {m.id}: a 6 on d6 loses it for good",
            ).sample(state.rng, events)
            if lost:
                m.status = "lost"
    # optional ammunition
    if ammunition:
        for m in state.cs:
            if m.status != "used" or m.type != "artillery":
                continue
            div = (
                w.tables.attrition.ammo_pact_divisor
                if m.side == "pact"
                else w.tables.attrition.ammo_nato_divisor
            )
            faces = Roll(
                1, 6, "rhine.admin.ammo", f"ammunition {m.id}: back in d6/{div} turns, rounded up"
            ).sample(state.rng, events)
            m.status = "resting"
            m.back = turn + -(-faces[0] // div)
    for m in state.cs:
        if m.status == "used":
            m.status = "ready"
    events += check_victory(state)
    return events


def admin_end(state: ST) -> list[Event]:
    """The whole end of the administrative phase at once, for positions driven by hand: as
    :func:`admin_close`, each choice of an artillery marker to lose made by
    :func:`house_attrition_pick` (in play the owner makes it), then :func:`admin_finish`."""
    events = admin_close(state)
    ammunition = bool(world(state).switches.get("ammunition"))
    while (side := attrition_to_act(state)) is not None:
        pick = house_attrition_pick([m.to_dict() for m in state.cs], side, ammunition)
        victim = next(m for m in state.cs if m.id == pick)
        events += [_lose(state, side, victim, False), *settle_attrition(state)]
    return events + admin_finish(state)
