"""Declaring combat: which enemy hexes may be attacked and by whom (rhine.combat.one_hex,
rhine.combat.once, rhine.combat.defonly, rhine.combat.heliborne_div, rhine.combat.odds), the
attack kind that opens the secret support commitment, probing attacks into empty hexes of
the enemy's zone (rhine.probe, rhine.probe.limits) and the momentum attack offered to units
that advanced or probed (rhine.momentum)."""

from __future__ import annotations

from collections.abc import Iterable

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind, Pending, SecretCommit
from umpire.core.switches import quiet_advice, switches_in
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.position import ST, enter, momentum_units, segment, world

# the attack actions, made once per target and group (actions are immutable values)
_ATTACKS: dict[tuple[str, tuple[str, ...]], Action] = {}


def attack_targets(state: ST, side: str, only: set[str] | None) -> dict[str, list[str]]:
    w = world(state)
    occ = R.occupancy(w, state)
    attacked = set(state.attacked)
    switches = switches_in(state.options)
    out: dict[str, list[str]] = {}
    for h, here in occ.items():
        if w.units[here[0]].side == side:
            continue
        cands = R.attackers_eligible(w, state, side, h, attacked, only, switches, occ)
        if cands:
            out[h] = cands
    return out


def attack_ok(state: ST, side: str, target: str, units: tuple[str, ...]) -> tuple[str, str] | None:
    """Why this attack may not be made and the rule that forbids it, or None."""
    one_hex = "rhine.combat.one_hex"
    w = world(state)
    only = momentum_units(state)
    if only is None and segment(state) != "combat":
        return "attacks are made in the combat phase", one_hex
    if not units or len(set(units)) != len(units):
        return "name the attacking units", one_hex
    here = state.units_at(target)
    if not here or w.units[here[0]].side == side:
        return f"{target} holds no enemy unit", one_hex
    switches = switches_in(state.options)
    attacked = set(state.attacked)
    with quiet_advice():  # every unit next to the target is asked; this attack's own below
        cands = set(R.attackers_eligible(w, state, side, target, attacked, only, switches))
    for u in units:
        if u in cands:
            R.may_attack(w, u, side, attacked, only, switches)  # its advice, if any
    bad = [u for u in units if u not in cands]
    if bad:
        info = w.units.get(bad[0])
        adjacent = state.pos.get(bad[0]) in w.neighbours[target]
        rule = one_hex
        if info is not None and adjacent and info.side == side:
            if info.defence_only:
                rule = "rhine.combat.defonly"
            elif bad[0] in attacked:
                rule = "rhine.combat.once"
        return (
            f"{', '.join(bad)} may not attack {target} "
            "(not adjacent, already attacked or defence-only)",
            rule,
        )
    if not R.heliborne_ok(w, units, switches):
        return (
            "heliborne units may not attack with another division",
            "rhine.combat.heliborne_div",
        )
    fig = R.combat_figures(w, state, side, target, units, here)
    if fig.column is None:
        return f"odds {fig.attack}:{fig.defence} are below the lowest column", "rhine.combat.odds"
    return None


class AttackKind(ActionKind[ST]):
    name = "attack"
    rule = "rhine.combat.one_hex"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        only = momentum_units(state)
        if only is None and segment(state) != "combat":
            return []
        w = world(state)
        out = []
        for target, cands in attack_targets(state, side, only).items():
            defenders = state.units_at(target)
            for g in R.attack_groups(w, cands, switches_in(state.options), state.pos):
                fig = R.combat_figures(w, state, side, target, g, defenders)
                if fig.column is not None:
                    a = _ATTACKS.get((target, g))
                    if a is None:
                        if len(_ATTACKS) > 65536:
                            _ATTACKS.clear()
                        a = _ATTACKS[(target, g)] = Action("attack", cell=target, units=g)
                    out.append(a)
        return out

    def check(self, state: ST, side: str, action: Action) -> None:
        refused = attack_ok(state, side, action.cell or "", action.units)
        if refused:
            raise IllegalActionError(*refused)

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        assert action.cell is not None
        w = world(state)
        is_momentum = momentum_units(state) is not None
        rest: list[str] = []
        if is_momentum:
            # the advancing units that do not join keep their own momentum attack, made
            # once this combat is over (rhine.momentum: each advancing unit's right)
            offered = state.flow.stack.pop()
            rest = [u for u in offered.data["units"] if u not in action.units]
            state.momentum_used.extend(action.units)
        else:
            state.attacked.extend(action.units)
        defenders = state.units_at(action.cell)
        fig = R.combat_figures(w, state, side, action.cell, action.units, defenders)
        state.combat = {
            "attacker": side,
            "target": action.cell,
            "units": list(action.units),
            "from": sorted({state.pos[u] or "" for u in action.units}),
            "defenders": defenders,
            "momentum": is_momentum,
            "momentum_rest": rest,
            "todo": [],
        }
        cols = w.tables.crt.columns
        assert fig.column is not None
        state.flow.stack.append(
            SecretCommit(
                sides=(side, R.other(side)),
                kinds=("cs",),
                stage="cs",
                data={"target": action.cell, "units": list(action.units)},
            )
        )
        kind = "momentum attack" if is_momentum else "attack"
        return [
            note(
                "attack",
                f"{side} {kind} on {action.cell} ({', '.join(defenders)}) with "
                f"{', '.join(action.units)}: {fig.attack}:{fig.defence}, "
                f"column {cols[fig.column]}, "
                f"modifiers before support {fig.drm:+d}"
                + "".join(f"; {m.label()}" for m in fig.drms),
                "rhine.momentum" if is_momentum else self.rule,
                target=action.cell,
                units=list(action.units),
            )
        ]

    def describe(self, state: ST, side: str, action: Action) -> str:
        w = world(state)
        here = state.units_at(action.cell or "")
        fig = R.combat_figures(w, state, side, action.cell or "", action.units, here)
        col = w.tables.crt.columns[fig.column] if fig.column is not None else "-"
        return f"attack {action.cell} with {'+'.join(action.units)} ({col}, {fig.drm:+d})"


def probe_options(state: ST, side: str, only: set[str] | None) -> list[Action]:
    """rhine.probe / rhine.probe.limits."""
    w = world(state)
    occ = R.occupancy(w, state)
    zone = R.ezoc(w, occ, side)
    out = []
    for u, h in state.pos.items():
        if h is None:
            continue
        info = w.units[u]
        if info.side != side or info.defence_only or info.strength <= 0 or info.static:
            continue
        if u in state.probed:
            continue
        if only is not None:
            if u not in only:
                continue
        elif u in state.attacked:
            continue
        nbrs = w.neighbours[h]
        if not any(occ.get(n) and w.units[occ[n][0]].side != side for n in nbrs):
            continue
        for n in nbrs:
            if n in zone and not occ.get(n):
                out.append(Action("probe", unit=u, cell=n))
    return out


def push_momentum(state: ST, side: str, units: list[str]) -> None:
    """Offer ``units`` (those that just advanced or probed) their momentum attack
    (rhine.momentum: each unit once per game turn, before any other unit attacks), unless
    none has one left or none could attack or probe."""
    fresh = [u for u in units if u not in state.momentum_used and state.pos.get(u)]
    if not fresh:
        return
    pending = Pending(side, ("attack", "probe", "decline"), "momentum", {"units": fresh})
    state.flow.stack.append(pending)
    if not list(AttackKind().options(state, side)) and not probe_options(state, side, set(fresh)):
        state.flow.stack.pop()


class ProbeKind(ActionKind[ST]):
    name = "probe"
    rule = "rhine.probe"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        only = momentum_units(state)
        if only is None and segment(state) != "combat":
            return []
        return probe_options(state, side, only)

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        assert action.unit is not None and action.cell is not None
        only = momentum_units(state)
        rest: list[str] = []
        if only is not None:
            offered = state.flow.stack.pop()
            rest = [u for u in offered.data["units"] if u != action.unit]
            state.momentum_used.append(action.unit)
        else:
            state.attacked.append(action.unit)
        state.probed.append(action.unit)
        frm = state.pos[action.unit]
        enter(state, action.unit, [action.cell])
        events = [
            note(
                "probe",
                f"{action.unit} probes from {frm} into the empty hex {action.cell}",
                self.rule,
                unit=action.unit,
                cell=action.cell,
            )
        ]
        if only is None:
            push_momentum(state, side, [action.unit])
        elif rest:
            push_momentum(state, side, rest)  # the other advancing units' own (rhine.momentum)
        return events

    def describe(self, state: ST, side: str, action: Action) -> str:
        return f"probe with {action.unit} into {action.cell}"
