"""Scenario special rules (sevendays.scenario.*): hidden deployment, dug in and waiting,
reserves, the defender's extra tokens, Random Operation Length, and the capture and
breakthrough victory conditions.

Hidden units are real units whose identity only their owner knows: the enemy sees a marker
(``Unit.marker``, an opaque id dealt at set-up) at the unit's place. A hidden unit cannot be
targeted; it is revealed when it activates or reacts, or at the end of any action when an enemy
unit sees it within the spotting range (house). Events about a unit while it is hidden are for
its owner only, the enemy reading a stand-in that names the marker (see
:mod:`~umpire.rulesets.sevendays.visibility`), and :func:`view_for` strips hidden units from what
the enemy observes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from umpire.core.chance import CountAtLeast, Faces, Test
from umpire.core.events import Event, note
from umpire.rulesets.sevendays.los import sight
from umpire.rulesets.sevendays.state import SIDES, SevenDaysState, Status, Unit, other
from umpire.rulesets.sevendays.world import World


def set_up(world: World, state: SevenDaysState) -> list[Event]:
    """Place hidden markers (shuffled opaque ids), dig in and hold back reserves."""
    events: list[Event] = []
    specs = {
        f"{side}-{u.id}": u for side, spec in world.scenario.spec.sides.items() for u in spec.units
    }
    hidden = [uid for uid, spec in specs.items() if spec.hidden]
    order = list(range(1, len(hidden) + 1))
    state.rng.shuffle(order)  # marker numbers dealt with the game's own stream
    for uid, number in zip(hidden, order, strict=True):
        unit = state.units[uid]
        unit.hidden = True
        unit.marker = f"marker-{number}"
        events.append(
            note(
                "hidden",
                f"{unit.name} deploys hidden as {unit.marker}",
                "sevendays.scenario.hidden_deployment",
                unit=uid,
                visible_to=[unit.side],
            )
        )
    for side in SIDES:
        markers = sorted(str(u.marker) for u in state.units.values() if u.side == side and u.hidden)
        if markers:
            events.append(
                note(
                    "hidden",
                    f"{side.upper()} deploys {len(markers)} hidden markers",
                    "sevendays.scenario.hidden_deployment",
                    markers=markers,
                )
            )
    for uid, spec in specs.items():
        unit = state.units[uid]
        if spec.dug_in:
            unit.dug_in = True
        if spec.reserve:
            unit.status = Status.RESERVE
    dug = [u for u in state.units.values() if u.dug_in and not u.hidden]
    if dug:
        events.append(
            note(
                "setup",
                "dug in and waiting: " + ", ".join(u.name for u in dug),
                "sevendays.scenario.dug_in",
            )
        )
    reserves = [u for u in state.units.values() if u.status == "reserve"]
    if reserves:
        events.append(
            note(
                "setup",
                f"in reserve from turn {world.scenario.spec.reserves_from}: "
                + ", ".join(u.name for u in reserves),
                "sevendays.scenario.reserves",
            )
        )
    return events


def reveal(state: SevenDaysState, unit: Unit, why: str) -> list[Event]:
    """Turn a hidden marker over (everyone sees what it was)."""
    if not unit.hidden:
        return []
    unit.hidden = False
    state.touch()  # it can now be shot at: plans cached for the marker are stale
    return [
        note(
            "revealed",
            f"{unit.marker} is revealed: {unit.name} ({why})",
            "sevendays.scenario.hidden_deployment",
            unit=unit.uid,
            marker=unit.marker,
        )
    ]


def reveal_spotted(world: World, state: SevenDaysState) -> list[Event]:
    """Hidden units an enemy unit sees within the spotting range are revealed."""
    if not world.has_hidden:
        return []
    hidden = [u for u in state.units.values() if u.hidden and u.alive]
    if not hidden:
        return []
    reach = world.house.hidden_spot_range
    events: list[Event] = []
    for unit in hidden:
        for enemy in state.alive(other(unit.side)):
            if math.dist(enemy.pos, unit.pos) <= reach and sight(world, state, enemy, unit).visible:
                events += reveal(state, unit, f"spotted by {enemy.name}")
                break
    return events


def enter_reserve(state: SevenDaysState, unit: Unit) -> list[Event]:
    """A reserve unit comes onto the table at its entry point when activated."""
    unit.status = Status.ACTIVE
    state.touch()
    return [
        note(
            "reserve",
            f"{unit.name} arrives from reserve at ({unit.x:.0f}, {unit.y:.0f})",
            "sevendays.scenario.reserves",
            unit=unit.uid,
        )
    ]


def extra_tokens(world: World, state: SevenDaysState, side: str) -> tuple[int, list[Event]]:
    """The defender's extra tokens (Capture, published): a d6 per unit on the tabletop, a
    unit riding in a transport included (as the token pool counts it, sevendays.tokens.pool)."""
    need = world.scenario.spec.extra_tokens.get(side)  # type: ignore[call-overload]
    if need is None:
        return 0, []
    events: list[Event] = []
    on_table = sum(
        1
        for u in state.units.values()
        if u.side == side and (u.status == "active" or u.status == "embarked")
    )
    extra = extra_tokens_roll(
        on_table,
        need,
        lambda faces, extra: (
            f"{side.upper()} rolls {len(faces)}d6 {list(faces)} for extra tokens, "
            f"{need}+ each -> +{extra}"
        ),
    ).sample(state.rng, events)
    return extra, events


def extra_tokens_roll(
    units: int, need: int, text: Callable[[Faces, int], str] | str = ""
) -> CountAtLeast:
    """Capture's extra tokens as one chance: a d6 per unit, each at or above ``need`` a token."""
    return CountAtLeast(units, 6, need, "sevendays.scenario.extra_tokens", text)


def random_length_roll(ends_on: int, text: Callable[[Faces, int, bool], str] | str = "") -> Test:
    """Random Operation Length (house) as one chance: a d6; ``ends_on`` or more ends it (the
    outcome True: the operation ends)."""
    return Test(sides=6, need=ends_on, rule="sevendays.scenario.random_length", text=text)


def operation_continues(world: World, state: SevenDaysState) -> tuple[bool, list[Event]]:
    """Random Operation Length (house): after the scenario's turns, a d6 at each turn's end;
    the operation ends on ``ends_on`` or more, and always after ``max_turns``."""
    cfg = world.house.random_length
    if state.flow.turn >= cfg.max_turns:
        return False, [note("length", "the operation reaches its last possible turn", None)]
    events: list[Event] = []
    ends = random_length_roll(
        cfg.ends_on,
        lambda faces, _total, ends: (
            f"random operation length: d6 {faces[0]}, ends on {cfg.ends_on}+ -> "
            + ("the operation ends" if ends else "one more turn")
        ),
    ).sample(state.rng, events)
    return not ends, events


def defenders_near_objectives(world: World, state: SevenDaysState, side: str) -> bool:
    reach = world.house.capture_hold_range
    return any(
        math.dist(u.pos, o.at) <= reach
        for u in state.alive(side)
        for o in world.scenario.spec.objectives
        if not world.is_helicopter(u)  # sevendays.air.helicopter: helicopters hold no ground
    )


def capture_lost(world: World, state: SevenDaysState) -> bool:
    """Capture (published): a defender with no unit within 12" of any objective at a turn's
    end must have one there by the end of the next turn, or the attacker wins."""
    spec = world.scenario.spec
    if spec.victory != "capture" or spec.attacker is None:
        return False
    defender = other(spec.attacker)
    flow = state.flow
    if defenders_near_objectives(world, state, defender):
        flow.objectives_left_on = None
        return False
    if flow.objectives_left_on is None:
        flow.objectives_left_on = flow.turn
        return False
    return flow.turn > flow.objectives_left_on


def can_exit(world: World, unit: Unit) -> bool:
    """Breakthrough (house): an attacking unit within 2" of the exit edge may leave by it."""
    spec = world.scenario.spec
    if spec.exit_edge is None or unit.side != spec.attacker:
        return False
    edge = spec.table.height if spec.exit_edge == "north" else 0.0
    return abs(unit.y - edge) <= world.house.exit_distance


def exited_bp(world: World, state: SevenDaysState, side: str) -> int:
    return sum(
        world.profile(u).bp for u in state.units.values() if u.side == side and u.status == "exited"
    )


def breakthrough_made(world: World, state: SevenDaysState) -> bool:
    spec = world.scenario.spec
    if spec.victory != "breakthrough" or spec.attacker is None:
        return False
    need = math.ceil(world.total_bp(state, spec.attacker) * spec.exit_fraction)
    return exited_bp(world, state, spec.attacker) >= need


# -- what each side may know ------------------------------------------------------------------
def view_for(data: dict[str, Any], player: str) -> dict[str, Any]:
    """A state dict with the other side's hidden units reduced to their markers."""
    secret = {
        u["uid"]: u["marker"] for u in data["units"] if u.get("hidden") and u["side"] != player
    }
    units = [
        {**u, "carried_by": secret[u["carried_by"]]} if u.get("carried_by") in secret else u
        for u in data["units"]
        if u["uid"] not in secret
    ]
    markers = sorted(
        (
            {"marker": u["marker"], "side": u["side"], "x": u["x"], "y": u["y"], "hidden": True}
            for u in data["units"]
            if u.get("hidden") and u["side"] != player
        ),
        key=lambda m: str(m["marker"]),
    )
    return {**data, "units": units + markers}
