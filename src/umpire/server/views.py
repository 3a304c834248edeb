"""What a player's page sees: events, board and actions for one side, for any ruleset.

Everything a seat is sent goes through here. Events are filtered structurally with
:func:`umpire.core.events.seen_by` (each event says who may read it). The drawable board comes
from the ruleset's board capability, handed only ``ruleset.observation(state, viewer)`` (never
the raw state to draw from), so whatever a ruleset hides from a player cannot reach that
player's page; a ruleset without a board capability gets a plain listing of the observation.
The actions are the legal actions the ruleset gives the side to act, each described and, where
the board capability says, with its odds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from umpire.core.actions import Action
from umpire.core.events import Event, seen_by
from umpire.core.game import Game
from umpire.core.ruleset import DeployStep


def visible_events(events: Iterable[Event], player: str) -> list[Event]:
    """The events as ``player`` reads them (the one structural filter)."""
    return seen_by(events, player)


def event_dicts(events: Iterable[Event], player: str) -> list[dict[str, Any]]:
    """The events ``player`` reads, in their JSON form."""
    return [e.to_dict() for e in seen_by(events, player)]


def board_capability(game: Game) -> Any:
    """The ruleset's board capability, or ``None`` for the generic listing."""
    return game.ruleset.capabilities.board


def board(game: Game, observation: Mapping[str, Any], viewer: str) -> dict[str, Any]:
    """Drawable JSON for ``viewer``'s observation of ``game``."""
    cap = board_capability(game)
    if cap is None:
        return generic_board(observation)
    return dict(cap.board(game, observation, viewer))


def generic_board(observation: Mapping[str, Any]) -> dict[str, Any]:
    """A ruleset without a board: the page lists what the observation shows, as JSON."""
    return {
        "layout": "none",
        "width": 1,
        "height": 1,
        "units": [],
        "status": {},
        "listing": json.loads(json.dumps(observation, default=str)),
    }


def action_entry(
    game: Game, observation: Mapping[str, Any], viewer: str, action: Action
) -> dict[str, Any]:
    """A legal action for the page: its JSON, a line describing it and its details (the odds
    of a shot) when the board capability has any."""
    entry: dict[str, Any] = {"action": action.to_dict()}
    try:
        entry["text"] = game.describe(action)
    except Exception:  # a description must never cost the player the action
        entry["text"] = action.kind
    cap = board_capability(game)
    if cap is not None:
        details = cap.action_details(game, observation, viewer, action)
        if details:
            entry["odds"] = details
    return entry


def action_entries(
    game: Game, observation: Mapping[str, Any], viewer: str, legal: Sequence[Action]
) -> list[dict[str, Any]]:
    return [action_entry(game, observation, viewer, a) for a in legal]


def sight(game: Game, observation: Mapping[str, Any], viewer: str, unit: str) -> Any:
    """What the board capability says a unit of the viewer's sees (``None``: nothing to say,
    or a unit the viewer cannot see)."""
    cap = board_capability(game)
    if cap is None:
        return None
    return cap.action_details(game, observation, viewer, Action("sight", unit=unit))


def card_ids(board_json: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> set[str]:
    """The card ids a seat's page names: in its board's cards (hand, chain, discard, set
    aside) and in the options of its card and swap actions (``id|detail``, ``a+b``)."""
    found: set[str] = set()
    cards = board_json.get("cards")
    if isinstance(cards, Mapping):
        for value in cards.values():
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, str):
                        found.add(item)
                    elif isinstance(item, Mapping) and isinstance(item.get("card"), str):
                        found.add(item["card"])
    hand = board_json.get("hand")
    if isinstance(hand, list):
        found.update(c for c in hand if isinstance(c, str))
    for entry in actions:
        action = entry.get("action", {})
        option = action.get("option")
        if action.get("kind") == "card" and isinstance(option, str):
            found.add(option.split("|", 1)[0])
        elif action.get("kind") == "swap" and isinstance(option, str) and option:
            found.update(option.split("+"))
    return found


def card_info(game: Game, ids: Iterable[str]) -> dict[str, dict[str, str]]:
    """Each card's name and text as the ruleset's catalogue gives it (the rule
    ``<ruleset>.cards.<id>``, summary ``"Name: what it does"``); a card the catalogue does not
    know keeps its id, spelt as words."""
    catalog = game.ruleset.capabilities.catalog
    entries: Mapping[str, Any] = catalog() if catalog is not None else {}
    out: dict[str, dict[str, str]] = {}
    for card in sorted(ids):
        rule = f"{game.ruleset.meta.id}.cards.{card}"
        entry = entries.get(rule)
        summary = str(getattr(entry, "summary", "") or "")
        name, _, text = summary.partition(": ")
        if not text:
            name, text = card.replace("_", " ").capitalize(), summary
        out[card] = {"name": name, "text": text, "rule": rule if entry is not None else ""}
    return out


def deploy_step(game: Game) -> DeployStep | None:
    """The deployment step now due, as the ruleset's ``deployment`` capability declares it
    (``None``: the ruleset has none, the game is over, or the decision is not a placement)."""
    cap = game.ruleset.capabilities.deployment
    if cap is None or game.is_over:
        return None
    found = cap(game.state)
    return found if isinstance(found, DeployStep) else None


def deployment(step: DeployStep, own: bool) -> dict[str, Any]:
    """The deployment step for a page: whose, where (the zone), with which action kinds and,
    for the deploying side's own seat only (``own``), the pieces still to place."""
    out: dict[str, Any] = {
        "side": step.side,
        "kinds": list(step.kinds),
        "zone": json.loads(json.dumps(step.zone, default=str)),
        "hidden": step.hidden,
        "rule": step.rule,
    }
    if own:
        out["pieces"] = list(step.pieces)
    return out
