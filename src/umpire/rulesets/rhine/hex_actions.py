"""One action per hex for the kinds that name a hex (air markers, EW markers, EW strikes on
air markers, refugees): made once per map and kind and listed again rather than made again
(actions are immutable values), each hex's place in the map's order, and the check of such
a kind by its hex's action."""

from __future__ import annotations

from typing import Any

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.flow import ActionKind
from umpire.rulesets.rhine.model import World
from umpire.rulesets.rhine.position import ST, world

# per map and kind, one action per hex in map order (actions are immutable values: listed
# again rather than made again)
_CELL_ACTIONS: dict[tuple[int, str], tuple[Any, list[Action], dict[str, Action]]] = {}


def _cell_actions_made(w: Any, kind: str) -> tuple[Any, list[Action], dict[str, Action]]:
    found = _CELL_ACTIONS.get((id(w), kind))
    if found is None or found[0] is not w:
        made = [Action(kind, cell=h) for h in w.ids]
        found = _CELL_ACTIONS[(id(w), kind)] = (w, made, dict(zip(w.ids, made, strict=True)))
    return found


def cell_actions(w: Any, kind: str) -> list[Action]:
    return _cell_actions_made(w, kind)[1]


def cell_action_of(w: Any, kind: str) -> dict[str, Action]:
    return _cell_actions_made(w, kind)[2]


_HEX_ORDER: dict[int, tuple[World, dict[str, int]]] = {}


def hex_order(w: World) -> dict[str, int]:
    """Each hex's place in the map's order (per map, made once)."""
    found = _HEX_ORDER.get(id(w))
    if found is None or found[0] is not w:
        found = _HEX_ORDER[id(w)] = (w, {h: i for i, h in enumerate(w.ids)})
    return found[1]


def cell_check(
    kind: ActionKind[ST], state: ST, side: str, action: Action, listed: list[Action]
) -> None:
    """The core's default check (allowed exactly when it is one of the listed actions) for a
    kind whose listing holds the one action per hex of :func:`cell_actions`: the action must
    equal its hex's action, and that action be listed (found by identity, not by hashing the
    whole listing)."""
    made = cell_action_of(world(state), kind.name).get(action.cell or "")
    if made is None or not (made is action or made == action) or not any(a is made for a in listed):
        raise IllegalActionError(kind.refusal(state, side, action), kind.rule)
