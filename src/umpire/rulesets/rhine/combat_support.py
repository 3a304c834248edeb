"""Combat support (rhine.cs.pool, rhine.cs.secret): the support each side may commit to a
combat, committed secretly and simultaneously by both sides (the flow's
:class:`~umpire.core.flow.SecretCommit`: neither side sees the other's choice before both are
locked), then revealed together, the markers used and the combat resolved on the CRT."""

from __future__ import annotations

from collections.abc import Iterable

from umpire.core.actions import Action
from umpire.core.events import Event, note
from umpire.core.flow import ActionKind, SecretCommit
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.combat_results import apply_result
from umpire.rulesets.rhine.position import ST, world

# the support actions, made once per choice (actions are immutable values)
_CS_ACTIONS: dict[str, Action] = {}


def cs_ready(state: ST, side: str) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for m in state.cs:
        if m.side == side and m.status == "ready":
            out[(m.type, m.nation)] = out.get((m.type, m.nation), 0) + 1
    return out


def cs_options_for(state: ST, side: str) -> list[str]:
    combat = state.combat
    assert combat is not None
    w = world(state)
    own = combat["units"] if side == combat["attacker"] else combat["defenders"]
    art, heli, nations = R.cs_limits(
        w, state, side, combat["attacker"], combat["target"], own, state.order
    )
    return [R.cs_code(c) for c in R.cs_choices(cs_ready(state, side), art, heli, nations)]


class CSKind(ActionKind[ST]):
    name = "cs"
    rule = "rhine.cs.secret"

    def options(self, state: ST, side: str) -> Iterable[Action]:
        out = []
        for c in cs_options_for(state, side):
            a = _CS_ACTIONS.get(c)
            if a is None:
                a = _CS_ACTIONS[c] = Action("cs", option=c)
            out.append(a)
        return out

    def resolve(self, state: ST, side: str, action: Action) -> list[Event]:
        return []  # resolved jointly by reveal_support, once both sides are locked

    def describe(self, state: ST, side: str, action: Action) -> str:
        return "no support" if action.option == "none" else f"support {action.option}"


def reveal_support(state: ST, commit: SecretCommit) -> list[Event]:
    """Both sides' support, revealed together, the markers committed used, then the combat
    resolved on the CRT (rhine.cs.secret, rhine.crt.results)."""
    combat = state.combat
    assert combat is not None
    w = world(state)
    attacker = combat["attacker"]
    counts: dict[str, int] = {}
    words = []
    for side in commit.sides:
        code = str(commit.committed[side].get("option") or "none")
        choice = R.parse_cs(code)
        counts[side] = sum(choice.values())
        for (kind, nation), n in choice.items():
            ready = [
                m
                for m in state.cs
                if m.side == side and m.status == "ready" and m.type == kind and m.nation == nation
            ]
            for m in ready[:n]:
                m.status = "used"
        words.append(f"{side} {code}")
    events = [
        note(
            "cs_reveal",
            "support revealed: " + "; ".join(words),
            "rhine.cs.secret",
            committed={s: commit.committed[s].get("option") for s in commit.sides},
        )
    ]
    units = combat["units"]
    fig = R.combat_figures(w, state, attacker, combat["target"], units, combat["defenders"], counts)
    assert fig.column is not None
    mods = "".join(f" {m.value:+d} {m.why};" for m in fig.drms)
    chance = R.crt_chance(w, fig.column, fig.drm, text=f"{mods} " if mods else "")
    result = chance.sample(state.rng, events)
    return events + apply_result(state, str(result))
