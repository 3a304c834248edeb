"""The administrative phase (rhine.sequence.turn), in the order of spec 3.4 step 6: refugees
rolled and placed by the Pact in empty NATO-controlled hexes (rhine.admin.refugees), the EW,
air and used support markers off the map (rhine.admin.clear), cumulative artillery attrition
(rhine.admin.artillery_attrition), then the optional helicopter attrition and ammunition
rules; then the victory check."""

from __future__ import annotations

from collections.abc import Iterable

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind
from umpire.rulesets.rhine.hex_actions import cell_action_of
from umpire.rulesets.rhine.model import SIDES
from umpire.rulesets.rhine.position import ST, world
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


def admin_end(state: ST) -> list[Event]:
    w = world(state)
    events: list[Event] = []
    turn = state.flow.turn
    state.refugees_to_place = 0
    # spec 3.4 step 6, in its order (refugees came first, in admin_begin): EW, air and used
    # support markers off the map; artillery attrition; the optional helicopter attrition; the
    # optional ammunition rule. Used markers stay "used" until those rules say where they go.
    from umpire.core.chance import Roll, Test

    state.ew = {}
    state.air_markers = []
    events.append(
        note("clear", "EW, air and used support markers leave the map", "rhine.admin.clear")
    )
    ammunition = bool(w.switches.get("ammunition"))
    # the loser's pick (house, rhine.scenario.attrition_choice): a marker in the pool before
    # one kept off it (a used marker counts as back in the pool unless the ammunition rule
    # may keep it off)
    in_pool = ("ready",) if ammunition else ("ready", "used")
    # artillery attrition (cumulative)
    for side in SIDES:
        per = w.tables.attrition.losses_per_marker[side]  # type: ignore[index]
        due = state.losses[side] // per - state.attrition_taken[side]
        for _ in range(max(0, due)):
            state.attrition_taken[side] += 1
            pool = [
                m
                for m in state.cs
                if m.side == side and m.type == "artillery" and m.status != "lost"
            ]
            if not pool:
                continue
            counts: dict[str, int] = {}
            for m in pool:
                counts[m.nation] = counts.get(m.nation, 0) + 1
            nation = max(sorted(counts), key=lambda n: counts[n])
            victim = sorted(
                (m for m in pool if m.nation == nation),
                key=lambda m: (m.status not in in_pool, m.id),
            )[0]
            victim.status = "lost"
            events.append(
                note(
                    "attrition",
                    f"{side} artillery attrition: {victim.id} lost for good "
                    f"({state.losses[side]} units lost)",
                    "rhine.admin.artillery_attrition",
                )
            )
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
