"""Live games: the store, a small cache of rebuilt games, seats, AI players and per-seat views.

Every change to a game happens under the game's lock: the action is checked against the index
the client expects (optimistic concurrency), played on the cached game (the ruleset refuses an
illegal one with the state unchanged) and committed to SQLite before anyone is told. If the
commit fails the cached game is dropped, so memory never runs ahead of the database.

Costs under load (issue 19). No lock is shared between games: each game has its own asyncio
lock, and the store's lock is held only for one short statement. A seat's view is built once
per state version and kept as JSON (``Live.views``: the board, the legal actions with their
text and odds, cards, deployment and outcome, keyed by what the seat may see; ``Live.log_json``:
each log entry as each side reads it), so a page that asks again, or a second page of the same
side, is answered from memory. Seats (immutable once created) are remembered, so a request
reaches its game without a database query. The rules run in a small pool of game
threads; the AI players think in processes of their own (:mod:`umpire.server.ai_worker`), so a
long think holds neither a thread nor the interpreter lock a player's request is waiting for.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from umpire.agents.base import Agent, make_agent
from umpire.agents.search import web as search_web
from umpire.agents.search.support import why_not_searchable
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, UmpireError
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.core.record import why_readable
from umpire.core.ruleset import Option, get_ruleset, ruleset_ids
from umpire.play import LazyActions, action_cap, result
from umpire.play import summary as battle_summary
from umpire.server import views
from umpire.server.ai_worker import AiProcesses, Move, runtime_target
from umpire.server.guard import (
    ApiError,
    check_game_choice,
    check_name,
    check_seed,
    finite_number,
    short,
)
from umpire.server.options import lobby_options
from umpire.server.store import GameRow, Seat, StaleIndexError, Store
from umpire.server.undo import action_reason, chance_mark

log = logging.getLogger("umpire.server")

PLAYER_KINDS = ("here", "remote", "ai")
CREATE_FIELDS = frozenset({"ruleset", "scenario", "seed", "players", "options", "why_public"})
SETTINGS_NOTE = -1  # the notes row (no action has this number) keeping the game's why_public
ACTION_FIELDS = frozenset({"kind", "unit", "target", "point", "option", "units", "cell", "card"})
MAX_UNITS = 64  # pieces named in one action
MAX_AUTODEPLOY = 200  # placements "deploy for me" plays at most in one request
NO_GAME = "no game with that link"  # unknown game and wrong token alike: nothing to tell apart
SEAT_CACHE = 4096  # seats remembered (a seat never changes once created)
GAME_THREADS = 2  # threads running the rules for players' requests (views, actions, undo)
AI_PROCESSES = 2  # processes in which the AI players think (see umpire.server.ai_worker)
__all__ = ["ApiError", "Live", "Service"]
T = TypeVar("T")
_GENERATIONS = itertools.count()


@dataclass(eq=False)
class Live:
    """A game rebuilt from its record, with the events of each action kept apart."""

    row: GameRow
    game: Game
    setup: list[Event]
    log: list[list[Event]]  # log[i]: the events of action i
    sides: list[str | None]  # sides[i]: the side that played action i
    # chance[i]: why action i touched dice, cards or a secret (None: it did not); undo against
    # another party stops there (see umpire.server.undo)
    chance: list[str | None] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    agents: dict[str, Agent] = field(default_factory=dict)  # "deploy for me"'s players
    # changed whenever the AI must start afresh (a new Live, an undo): see ai_worker.Move
    generation: int = field(default_factory=lambda: next(_GENERATIONS))
    ai_task: asyncio.Task[None] | None = None
    ai_error: str | None = None
    replay_game: Game | None = None
    dropped: bool = False
    reasons: dict[int, str] = field(default_factory=dict)  # action index -> search's why
    # views[(viewer, yours, seat sides)]: the JSON of the seat-independent part of a view at
    # ``views_at`` actions (cleared when the record changes; see Service._view_json)
    views: dict[tuple[str, bool, tuple[str, ...]], str] = field(default_factory=dict)
    views_at: int = -1
    # log_json[viewer][i]: log entry i as ``viewer`` reads it (entry 0: the setup), JSON
    log_json: dict[str, list[str]] = field(default_factory=dict)
    # costs[kind]: CPU seconds the last view ("view") or action ("act") of this game took
    # (Service._quick: short work runs in the event loop)
    costs: dict[str, float] = field(default_factory=dict)

    @property
    def index(self) -> int:
        return len(self.game.record.actions)

    def notify(self) -> None:
        """Wake every page waiting for a change."""
        self.changed.set()
        self.changed = asyncio.Event()


class Service:
    """Everything the HTTP layer asks of games."""

    def __init__(self, store: Store, ai_delay: float = 0.5, cache_size: int = 64) -> None:
        self.store = store
        self.ai_delay = ai_delay
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Live] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}
        self._seats: OrderedDict[str, Seat] = OrderedDict()
        self._game_pool = ThreadPoolExecutor(GAME_THREADS, thread_name_prefix="umpire-game")
        self._ai = AiProcesses(AI_PROCESSES)

    async def _work(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a game thread (the rules: views, actions, undo, loading)."""
        return await asyncio.get_running_loop().run_in_executor(self._game_pool, fn, *args)

    async def _quick(self, live: Live, kind: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, a view or an action of ``live``'s game: in the event loop itself when
        the same kind of work on this game last took less CPU than the interpreter's switch
        interval, else (and the first time) in a game thread. A thread gains nothing for
        work that short: the loop waits for the interpreter lock all the while anyway, as it
        is handed over only after the switch interval, and the two hand-offs between threads
        cost CPU and, on a busy machine, a wait for the OS scheduler each (issue 19). Work
        that grew past the interval goes back to a thread the next time."""
        last = live.costs.get(kind)
        if last is not None and last < sys.getswitchinterval():
            return _timed(live.costs, kind, fn, *args)
        return await self._work(_timed, live.costs, kind, fn, *args)

    # -- catalogue -------------------------------------------------------------------------
    def rulesets(self) -> list[dict[str, Any]]:
        out = []
        for rid in ruleset_ids():
            try:
                ruleset = get_ruleset(rid)
                scenarios = ruleset.scenario_ids()
            except Exception:  # a ruleset that fails to load is left off the menu
                log.exception("ruleset %s failed to load", rid)
                continue
            infos = [ruleset.scenario_info(s) for s in scenarios]
            out.append(
                {
                    "id": rid,
                    "title": ruleset.meta.title,
                    "players": list(ruleset.meta.players),
                    "information": ruleset.meta.information,
                    "scenarios": scenarios,
                    "briefings": {i.id: {"title": i.title, "briefing": i.briefing} for i in infos},
                    "side_colours": dict(ruleset.capabilities.side_colours),
                    "has_ai": ruleset.capabilities.scripted is not None,
                    "options": [option_info(o) for o in ruleset.capabilities.options],
                    "house_rules": ruleset.capabilities.house_rules is not None,
                }
            )
        return out

    @staticmethod
    def rule_summaries(ruleset_id: str) -> dict[str, str]:
        """Every rule id of a ruleset's catalogue with its one-line summary (public text: the
        page shows it when a player points at a rule id in the log)."""
        check_name(ruleset_id, "ruleset")
        if ruleset_id not in ruleset_ids():
            raise ApiError(404, f"no ruleset {ruleset_id!r}")
        return dict(_rule_summaries(ruleset_id))

    async def preview(self, ruleset_id: str, scenario: str) -> dict[str, Any]:
        """A scenario's map for the lobby: the table, terrain and objectives of its start, no
        unit, marker or card (nothing any side keeps secret: only public map keys are kept)."""
        check_name(ruleset_id, "ruleset")
        check_name(scenario, "scenario")
        if ruleset_id not in ruleset_ids():
            raise ApiError(404, f"no ruleset {ruleset_id!r}")
        try:
            known = get_ruleset(ruleset_id).scenario_ids()
        except UmpireError as exc:
            raise ApiError(404, str(exc)) from exc
        if scenario not in known:
            raise ApiError(404, f"no scenario {scenario!r} in {ruleset_id}")
        try:
            return await asyncio.to_thread(_preview, ruleset_id, scenario)
        except Exception as exc:  # a scenario that cannot start has no preview
            log.warning("preview of %s/%s failed: %r", ruleset_id, scenario, exc)
            raise ApiError(404, f"{ruleset_id}/{scenario} has no map to preview") from exc

    def visitor_games(self, visitor: str) -> list[dict[str, Any]]:
        """The games whose links this browser holds (kept on the server), newest first."""
        out = []
        for row in self.store.visitor_games(visitor):
            sides = row["sides"]
            out.append(
                {
                    "id": row["game"],
                    "ruleset": row["ruleset"],
                    "scenario": row["scenario"],
                    "sides": sides,
                    "players": row["players"],
                    "url": f"/play/{row['game']}/{row['token']}",
                    "created": row["created"],
                    "updated": row["updated"],
                    "actions": row["actions"],
                }
            )
        return out

    def remember_seat(self, visitor: str, token: str) -> None:
        self.store.remember_seat(visitor, token)

    # -- creating and loading ----------------------------------------------------------------
    async def create(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """A new game from the lobby: ruleset, scenario, seed, who plays each side and the
        ruleset's simple options. Everything is checked before the game is built; nothing the
        lobby sends can name a file on the server."""
        ruleset_id, scenario, ruleset = check_game_choice(body, CREATE_FIELDS)
        chosen = body.get("seed")
        # a seed the server draws is a secret of the umpire: 62 random bits (no seat could try
        # them all against the dice it has seen), never sent to a seat
        seed = secrets.randbits(62) if chosen is None else check_seed(chosen)
        options = await asyncio.to_thread(lobby_options, ruleset, body.get("options"), scenario)
        raw_players = body.get("players") or {}
        if not isinstance(raw_players, dict):
            raise ApiError(400, "players must map each side to here, remote or ai")
        players: dict[str, str] = {}
        for side in ruleset.meta.players:
            kind = raw_players.get(side, "here")
            if isinstance(kind, str) and search_web.is_search(kind):  # search:PRESET@S
                refused = search_web.check_kind(kind) or why_not_searchable(ruleset)
                if refused:
                    raise ApiError(400, f"players.{side}: {refused}")
                kind = search_web.canonical(kind)
            elif not isinstance(kind, str) or kind not in PLAYER_KINDS:
                raise ApiError(400, f"players.{side}: {short(kind)} is not one of here, remote, ai")
            if kind == "ai" and ruleset.capabilities.scripted is None:
                raise ApiError(400, f"players.{side}: {ruleset_id} has no AI player")
            players[side] = kind
        extra = sorted(set(raw_players) - set(players))
        if extra:
            raise ApiError(400, f"players: no side {short(extra[0])} in {ruleset_id}")
        game_id = secrets.token_urlsafe(9)
        here = tuple(s for s, k in players.items() if k == "here")
        seats = []
        if here:
            seats.append(Seat(secrets.token_urlsafe(18), game_id, here))
        for side, kind in players.items():
            if kind == "remote":
                seats.append(Seat(secrets.token_urlsafe(18), game_id, (side,)))
        if not seats:  # every side an AI: a link to watch
            seats.append(Seat(secrets.token_urlsafe(18), game_id, ()))
        # build the game first: a scenario that fails to start is refused, nothing stored
        try:
            game = await asyncio.to_thread(Game, ruleset, scenario, seed, options)
        except UmpireError as exc:
            raise ApiError(400, str(exc)) from exc
        except Exception as exc:  # a ruleset bug: say so in one line, store nothing
            log.exception("starting %s/%s failed", ruleset_id, scenario)
            raise ApiError(
                422, f"{ruleset_id}/{scenario} failed to start: {type(exc).__name__}"
            ) from exc
        game.record.players = dict(players)
        # the lobby's "AI explains its moves to everyone": true, false or absent (the default)
        why_public = body.get("why_public")
        if why_public is not None and not isinstance(why_public, bool):
            raise ApiError(400, f"why_public: {short(why_public)} is not true, false or null")
        game.record.why_public = why_public
        now = time.time()
        row = GameRow(
            id=game_id,
            ruleset=ruleset_id,
            version=ruleset.meta.version,
            scenario=scenario,
            seed=seed,
            options=options,
            players=players,
            created=now,
            updated=now,
        )
        await asyncio.to_thread(self.store.create_game, row, seats)
        if why_public is not None:  # kept with the game (an undo never deletes row -1)
            note = {"why_public": why_public}
            await asyncio.to_thread(self.store.keep_note, game_id, SETTINGS_NOTE, note)
        for seat in seats:
            self._remember_seat(seat)
        live = Live(row=row, game=game, setup=list(game.events), log=[], sides=[])
        self._remember(live)
        self._kick_ai(live)
        return {
            "id": game_id,
            **({"seed": seed} if chosen is not None else {}),
            "seats": [
                {
                    "token": s.token,
                    "sides": list(s.sides),
                    "here": bool(here) and s.sides == here,
                    "url": f"/play/{game_id}/{s.token}",
                }
                for s in seats
            ],
        }

    def _remember(self, live: Live) -> None:
        self._cache[live.row.id] = live
        self._cache.move_to_end(live.row.id)
        while len(self._cache) > self.cache_size:
            for gid, old in self._cache.items():
                busy = old.lock.locked() or (old.ai_task is not None and not old.ai_task.done())
                if not busy:
                    old.dropped = True
                    del self._cache[gid]
                    break
            else:
                break

    def _drop(self, live: Live) -> None:
        live.dropped = True
        if self._cache.get(live.row.id) is live:
            del self._cache[live.row.id]

    async def live(self, game_id: str) -> Live:
        found = self._cache.get(game_id)
        if found is not None:
            self._cache.move_to_end(game_id)
            return found
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            found = self._cache.get(game_id)
            if found is None:
                found = await self._work(self._load, game_id)
                self._remember(found)
                self._kick_ai(found)
        self._loading.pop(game_id, None)
        return found

    def _load(self, game_id: str) -> Live:
        row = self.store.game(game_id)
        if row is None:
            raise ApiError(404, f"no game {game_id!r}")
        try:
            ruleset = get_ruleset(row.ruleset)
        except UmpireError as exc:
            raise ApiError(409, f"game {game_id}: {exc}") from exc
        if ruleset.meta.version != row.version:
            raise ApiError(
                409,
                f"game {game_id} was played under {row.ruleset} {row.version}; "
                f"this Umpire has {ruleset.meta.version}",
            )
        game = Game(ruleset, row.scenario, row.seed, row.options)
        game.record.players = dict(row.players)
        live = Live(
            row=row,
            game=game,
            setup=list(game.events),
            log=[],
            sides=[],
        )
        for index, raw in enumerate(self.store.actions(game_id)):
            side = game.to_act
            try:
                self._record(live, Action.from_dict(raw), side)
            except (IllegalActionError, TypeError, ValueError, KeyError) as exc:
                raise ApiError(
                    409, f"game {game_id}: stored action {index} is illegal: {exc}"
                ) from exc
        stored = self.store.notes(game_id)
        search_web.restore_whys(live.reasons, game.record, stored)
        kept = stored.get(SETTINGS_NOTE)
        setting = kept.get("why_public") if isinstance(kept, dict) else None
        game.record.why_public = setting if isinstance(setting, bool) else None
        return live

    @staticmethod
    def _record(live: Live, action: Action, side: str | None) -> list[Event]:
        """Play ``action`` on the live game and keep its events, its side and whether it
        touched chance or a secret (raises, the game unchanged, if the rules refuse it)."""
        before = chance_mark(live.game.state)
        events = live.game.apply(action)
        live.log.append(events)
        live.sides.append(side)
        live.chance.append(action_reason(before, chance_mark(live.game.state), events, side))
        return events

    # -- seats and views -----------------------------------------------------------------------
    async def seat(self, game_id: str, token: str) -> tuple[Seat, Live]:
        """The seat a link opens and its game. The token is checked before the game is loaded
        (an outsider never makes the server replay a game or start its AI), and an unknown
        game and a wrong token get the same 404, so the answer does not say a game exists."""
        if len(token) > 200 or len(game_id) > 200:
            raise ApiError(404, NO_GAME)
        seat = self._seats.get(token)
        if seat is None:
            seat = await asyncio.to_thread(self.store.seat, token)
            if seat is not None:
                self._remember_seat(seat)
        else:
            self._seats.move_to_end(token)
        if seat is None or not secrets.compare_digest(seat.game_id.encode(), game_id.encode()):
            raise ApiError(404, NO_GAME)
        return seat, await self.live(game_id)

    def _remember_seat(self, seat: Seat) -> None:
        """Keep a seat found in (or written to) the store: seats are never changed or removed
        while the server runs, so memory cannot disagree with the database (only seats that
        exist are kept: a guessed token is asked of the database every time)."""
        self._seats[seat.token] = seat
        self._seats.move_to_end(seat.token)
        while len(self._seats) > SEAT_CACHE:
            self._seats.popitem(last=False)

    def viewer(self, seat: Seat, live: Live) -> str:
        """The side whose eyes the seat sees with: the side to act if the seat plays it (hot
        seat), else the seat's first side; a watcher of an all-AI game sees as the first side."""
        to_act = live.game.to_act
        if to_act in seat.sides:
            return to_act
        if seat.sides:
            return seat.sides[0]
        return live.game.ruleset.meta.players[0]

    def _controls(self, seat: Seat, live: Live, side: str | None) -> bool:
        return (
            side is not None
            and side in seat.sides
            and not search_web.is_ai(live.row.players.get(side))
        )

    def _log_json(self, live: Live, viewer: str, since: int) -> list[str]:
        """The log entries from action ``since`` on (``since`` <= 0: the setup first), as
        ``viewer`` reads them, each turned into JSON once and kept (``Live.log_json``)."""
        kept = live.log_json.get(viewer)
        if kept is None:
            kept = live.log_json[viewer] = [
                dumps({"index": 0, "setup": True, "events": self._events(live, live.setup, viewer)})
            ]
        for i in range(len(kept) - 1, live.index):
            events = views.event_dicts(live.log[i], viewer)
            why = self._why(live, i, viewer)
            kept.append(dumps({"index": i + 1, "events": events, **why}))
        return kept[0 if since <= 0 else since + 1 : live.index + 1]

    @staticmethod
    def _why(live: Live, index: int, viewer: str) -> dict[str, str]:
        """``{"why": text}`` for action ``index`` when ``viewer`` may read the search player's
        why of it (the mover's side always; another side as the game's ``why_public`` says,
        by default only in a perfect-information ruleset), else {} (the live log and replay)."""
        text = live.reasons.get(index)
        mover = live.sides[index] if index < len(live.sides) else None
        if not text or mover is None or not search_web.is_search(live.row.players.get(mover)):
            return {}
        information = live.game.ruleset.meta.information
        if why_readable(mover, viewer, information, live.game.record.why_public):
            return {"why": text}
        return {}

    @staticmethod
    def _events(live: Live, events: list[Event], viewer: str) -> list[dict[str, Any]]:
        return views.event_dicts(events, viewer)

    def _view_core(self, seat: Seat, live: Live, viewer: str, yours: bool) -> dict[str, Any]:
        """The part of a seat's view that follows from the state, the viewer, whether the seat
        is to act and the seat's sides (not from the seat's undo or the log it asks for)."""
        game = live.game
        observation = game.observation(viewer)
        to_act = game.to_act
        actions: list[dict[str, Any]] = []
        if yours and to_act is not None:
            # the legal actions the ruleset gives the side to act, read with its own eyes
            seen = observation if to_act == viewer else game.observation(to_act)
            actions = views.action_entries(game, seen, to_act, game.legal_actions())
        ended = result(game)
        view: dict[str, Any] = {
            "game": {
                "id": live.row.id,
                "ruleset": live.row.ruleset,
                "title": game.ruleset.meta.title,
                "scenario": live.row.scenario,
                "players": live.row.players,
                "sides": list(game.ruleset.meta.players),
                "information": game.ruleset.meta.information,
                "side_colours": dict(game.ruleset.capabilities.side_colours),
            },
            "index": live.index,
            "to_act": to_act,
            "your_turn": yours,
            "ai_thinking": ended is None
            and to_act is not None
            and search_web.is_ai(live.row.players.get(to_act)),
            "outcome": {"winner": ended[0], "how": ended[1]} if ended else None,
            "board": views.board(game, observation, viewer),
            "actions": actions,
        }
        ids = views.card_ids(view["board"], actions)
        if ids:
            view["card_info"] = views.card_info(game, ids)
        # a deployment step, as the ruleset's ``deployment`` capability declares it: the page
        # draws the zone for every seat; the deploying seat also reads its pieces to place
        step = views.deploy_step(game)
        view["deploying"] = step is not None and yours and step.side == to_act
        if step is not None:
            view["deployment"] = views.deployment(step, step.side in seat.sides)
        if ended is not None:
            view["summary"] = game.ruleset.summary(game.state)
            view["report"] = battle_report(game)
        return view

    def _cached_core(self, seat: Seat, live: Live) -> str | None:
        """The kept JSON of the seat's view core at the current state, if built."""
        if live.views_at != live.index:
            return None
        viewer = self.viewer(seat, live)
        yours = self._controls(seat, live, live.game.to_act) and result(live.game) is None
        return live.views.get((viewer, yours, seat.sides))

    def _view_json(self, seat: Seat, live: Live, since: int) -> str:
        """The seat's view as JSON text: the core built once per state version and kept, the
        seat's undo and the log it asks for added around it (run under the game's lock)."""
        viewer = self.viewer(seat, live)
        yours = self._controls(seat, live, live.game.to_act) and result(live.game) is None
        if live.views_at != live.index:
            live.views.clear()
            live.views_at = live.index
        key = (viewer, yours, seat.sides)
        core = live.views.get(key)
        if core is None:
            core = live.views[key] = dumps(self._view_core(seat, live, viewer, yours))
        return self._assemble(seat, live, core, viewer, since)

    def _assemble(self, seat: Seat, live: Live, core: str, viewer: str, since: int) -> str:
        can_undo, undo_blocked = self._undo_allowed(seat, live)
        seat_part = {
            "sides": list(seat.sides),
            "viewer": viewer,
            "can_undo": can_undo,
            "undo_blocked": undo_blocked,
        }
        log_part = ",".join(self._log_json(live, viewer, since))
        return (
            f'{core[:-1]},"seat":{dumps(seat_part)},"ai_error":{dumps(live.ai_error)},'
            f'"since":{max(0, min(since, live.index))},"log":[{log_part}]}}'
        )

    async def view(self, game_id: str, token: str, since: int = 0) -> dict[str, Any]:
        view: dict[str, Any] = json.loads(await self.view_json(game_id, token, since))
        return view

    async def view_json(self, game_id: str, token: str, since: int = 0) -> str:
        """The seat's view as JSON text (what ``GET .../view`` sends)."""
        seat, live = await self.seat(game_id, token)
        async with live.lock:
            core = self._cached_core(seat, live)
            if core is not None:  # built already: no thread, no rules
                viewer = self.viewer(seat, live)
                if len(live.log_json.get(viewer, ())) > live.index:  # every entry kept
                    return self._assemble(seat, live, core, viewer, since)
            return await self._quick(live, "view", self._view_json, seat, live, since)

    async def wait(self, game_id: str, token: str, index: int, timeout: float) -> dict[str, Any]:
        """Return when the game's record differs from ``index`` actions (or after ``timeout``)."""
        seat, live = await self.seat(game_id, token)
        deadline = time.monotonic() + timeout
        while live.index == index and not live.dropped:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.changed.wait(), left)
        if live.dropped:
            live = await self.live(game_id)
        return {"index": live.index, "to_act": live.game.to_act}

    # -- acting ------------------------------------------------------------------------------
    async def act(self, game_id: str, token: str, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ApiError(400, 'give a JSON object {"index": N, "action": {...}}')
        index = body.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise ApiError(400, "index (the number of actions you have seen) must be an integer")
        action = parse_action(body.get("action"))
        seat, live = await self.seat(game_id, token)
        async with live.lock:
            if live.dropped:
                live = await self.live(game_id)
                return await self.act(game_id, token, body)
            game = live.game
            if game.is_over:
                raise ApiError(409, "the game is over")
            if live.index >= action_cap(game):
                raise ApiError(409, "the game stopped unfinished at its action cap")
            if index != live.index:
                raise ApiError(
                    409, f"stale: the game has {live.index} actions, you sent index {index}"
                )
            side = game.to_act
            if not self._controls(seat, live, side):
                raise ApiError(403, f"this link does not play {str(side).upper()}, to act now")
            assert side is not None
            events = await self._quick(live, "act", self._play, live, index, action, side, seat)
            viewer = self.viewer(seat, live)
            result = {
                "index": live.index,
                "to_act": live.game.to_act,
                "events": self._events(live, events, side if side in seat.sides else viewer),
            }
        live.notify()
        self._kick_ai(live)
        return result

    def _play(self, live: Live, index: int, action: Action, side: str, seat: Seat) -> list[Event]:
        try:
            events = self._record(live, action, side)
        except UmpireError as exc:  # IllegalActionError included: the state is unchanged
            raise ApiError(422, str(exc)) from exc
        except Exception as exc:
            # an action the ruleset did not expect (a bug, or input no check foresaw): the
            # ruleset validates before it changes anything, but rebuild to be sure nothing
            # half-applied survives
            log.warning("%s in game %s raised %r", action.kind, live.row.id, exc)
            self._drop(live)
            raise ApiError(422, f"{action.kind} is not a legal action here") from exc
        try:
            self.store.append(live.row.id, index, action.to_dict(), side)
        except StaleIndexError as exc:
            self._drop(live)
            raise ApiError(409, f"stale: {exc}") from exc
        except Exception:
            self._drop(live)
            raise
        return events

    async def deploy_for_me(self, game_id: str, token: str, body: Any) -> dict[str, Any]:
        """ "Deploy for me": the ruleset's scripted player places the seat's pieces, one
        placement after another, while the decision due is a placement of the seat's side
        (the ruleset's ``deployment`` capability); each placement is recorded like any action
        of the seat's."""
        if not isinstance(body, dict):
            raise ApiError(400, 'give a JSON object {"index": N}')
        index = body.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise ApiError(400, "index (the number of actions you have seen) must be an integer")
        seat, live = await self.seat(game_id, token)
        async with live.lock:
            if live.dropped:
                raise ApiError(409, "stale: the game was reloaded; try again")
            if index != live.index:
                raise ApiError(
                    409, f"stale: the game has {live.index} actions, you sent index {index}"
                )
            side = live.game.to_act
            if not self._controls(seat, live, side) or result(live.game) is not None:
                raise ApiError(403, "this link has nothing to deploy now")
            if live.game.ruleset.capabilities.scripted is None:
                raise ApiError(409, f"{live.row.ruleset} has no player to deploy for you")
            placed = await self._work(self._deploy_for_me, live, seat)
            if not placed:
                raise ApiError(409, "there is nothing to deploy now")
            # every piece of the side placed (one order may place many: Rhine's suggested
            # set-up), or only some
            after = views.deploy_step(live.game)
            done = after is None or after.side != side
            out = {"index": live.index, "to_act": live.game.to_act, "placed": placed, "done": done}
        live.notify()
        self._kick_ai(live)
        return out

    def _deploy_for_me(self, live: Live, seat: Seat) -> int:
        placed = 0
        first = live.game.to_act  # the side whose pieces are placed (not the next side's too)
        while placed < MAX_AUTODEPLOY:
            game = live.game
            side = game.to_act
            if side is None or side != first or not self._controls(seat, live, side):
                break
            if result(game) is not None:
                break
            step = views.deploy_step(game)
            if step is None or step.side != side:
                break
            agent = live.agents.get(side)
            if agent is None:
                agent = live.agents[side] = make_agent(
                    "scripted", live.row.ruleset, side, live.row.seed
                )
            action = agent.choose(game.view(side), LazyActions(game))
            if action.kind not in step.kinds:
                break
            self._play(live, live.index, action, side, seat)
            placed += 1
        return placed

    def _undo_allowed(self, seat: Seat, live: Live) -> tuple[bool, str | None]:
        """Whether the seat may undo now, and if not for a reason a player should read, why.

        Undo is for a seat that plays every human side (hot seat, or against the AI). Where
        every side is played from this seat (hot seat by choice) it is unlimited; against the
        AI it may not take back an action that rolled dice, drew a card or told a secret
        (playing it again would show the same dice: undo would be a peek)."""
        human = {s for s, k in live.row.players.items() if not search_web.is_ai(k)}
        if not seat.sides or not human <= set(seat.sides):
            return False, None
        mine = [i for i, s in enumerate(live.sides) if s in seat.sides]
        if not mine:
            return False, None
        if live.game.is_over:  # the battle report is final (the page hides undo: no reason)
            return False, None
        if all(k == "here" for k in live.row.players.values()):
            return True, None
        for i in range(mine[-1], live.index):
            reason = live.chance[i]
            if reason is not None:
                who = "your" if live.sides[i] in seat.sides else f"the AI's ({live.sides[i]})"
                return False, (
                    f"no undo past a roll, a card or a secret against the AI: {who} action "
                    f"{i + 1} ({reason})"
                )
        return True, None

    async def undo(self, game_id: str, token: str, body: Any) -> dict[str, Any]:
        """Take back the seat's last action and every AI action after it (hot seat, vs AI;
        against the AI only back to the last roll, card or secret: see ``_undo_allowed``)."""
        if (
            not isinstance(body, dict)
            or not isinstance(body.get("index"), int)
            or isinstance(body.get("index"), bool)
        ):
            raise ApiError(400, 'give a JSON object {"index": N}')
        seat, live = await self.seat(game_id, token)
        human = {s for s, k in live.row.players.items() if not search_web.is_ai(k)}
        if not seat.sides or not human <= set(seat.sides):
            raise ApiError(403, "undo is only for a hot-seat game or a game against the AI")
        async with live.lock:
            if body["index"] != live.index:
                raise ApiError(409, f"stale: the game has {live.index} actions")
            mine = [i for i, s in enumerate(live.sides) if s in seat.sides]
            if not mine:
                raise ApiError(409, "nothing of yours to take back")
            allowed, why = self._undo_allowed(seat, live)
            if not allowed and live.game.is_over:
                raise ApiError(409, "the game is over: its battle report stands")
            if not allowed:
                raise ApiError(409, why or "undo is not possible here")
            keep = mine[-1]
            await self._work(self._truncate, live, keep)
            index = live.index
        live.notify()
        return {"index": index}

    def _truncate(self, live: Live, keep: int) -> None:
        self.store.truncate(live.row.id, keep)
        steps = live.index - keep
        live.game.undo(steps)
        del live.log[keep:]
        del live.sides[keep:]
        del live.chance[keep:]
        search_web.forget_whys(live.reasons, keep)
        live.agents.clear()
        live.generation = next(_GENERATIONS)
        live.replay_game = None
        # the next actions may differ from those taken back: nothing kept from them may stay
        live.views.clear()
        live.views_at = -1
        for kept in live.log_json.values():
            del kept[keep + 1 :]

    # -- replay and sight ----------------------------------------------------------------------
    async def frame(self, game_id: str, token: str, at: int) -> dict[str, Any]:
        """The table as the seat's side saw it after ``at`` actions."""
        seat, live = await self.seat(game_id, token)
        async with live.lock:
            if not 0 <= at <= live.index:
                raise ApiError(400, f"at must be between 0 and {live.index}")
            return await self._work(self._frame, seat, live, at)

    def _frame(self, seat: Seat, live: Live, at: int) -> dict[str, Any]:
        actions = live.game.record.actions
        twin = live.replay_game
        if twin is None or len(twin.record.actions) > at:
            twin = live.game.branch(0)
        for action in actions[len(twin.record.actions) : at]:
            twin.apply(action)
        live.replay_game = twin
        if seat.sides:
            to_act = twin.to_act
            viewer = to_act if to_act in seat.sides else seat.sides[0]
        else:
            viewer = live.game.ruleset.meta.players[0]
        observation = twin.observation(viewer)
        log = [{"index": 0, "setup": True, "events": self._events(live, live.setup, viewer)}]
        log += [
            {
                "index": i + 1,
                "events": self._events(live, live.log[i], viewer),
                **self._why(live, i, viewer),
            }
            for i in range(at)
        ]
        ended = result(twin)
        return {
            "at": at,
            "index": live.index,
            "viewer": viewer,
            "to_act": twin.to_act,
            "outcome": {"winner": ended[0], "how": ended[1]} if ended else None,
            "board": views.board(twin, observation, viewer),
            "log": log,
        }

    async def sight(self, game_id: str, token: str, unit: str) -> dict[str, Any]:
        seat, live = await self.seat(game_id, token)
        if len(unit) > 200:
            raise ApiError(404, "no unit like that you can see")
        async with live.lock:
            viewer = self.viewer(seat, live)

            def compute() -> list[dict[str, Any]]:
                game = live.game
                try:
                    found = views.sight(game, game.observation(viewer), viewer, unit)
                except Exception as exc:  # an id the board capability did not expect
                    raise ApiError(404, f"no unit {unit!r} that you can see") from exc
                if not isinstance(found, dict) or "lines" not in found:
                    raise ApiError(404, f"no unit {unit!r} that you can see")
                lines: list[dict[str, Any]] = found["lines"]
                return lines

            return {"unit": unit, "lines": await self._work(compute)}

    # -- AI players ----------------------------------------------------------------------------
    def _kick_ai(self, live: Live) -> None:
        side = live.game.to_act
        if side is None or not search_web.is_ai(live.row.players.get(side)) or live.ai_error:
            return
        if live.ai_task is None or live.ai_task.done():
            live.ai_task = asyncio.get_running_loop().create_task(self._run_ai(live))

    async def _run_ai(self, live: Live) -> None:
        while not live.dropped:
            await asyncio.sleep(self.ai_delay)
            async with live.lock:
                side = live.game.to_act
                if live.dropped or side is None or not search_web.is_ai(live.row.players.get(side)):
                    return
                if live.index >= action_cap(live.game):  # stopped unfinished
                    live.notify()
                    return
                move = Move(
                    game_id=live.row.id,
                    generation=live.generation,
                    ruleset=live.row.ruleset,
                    scenario=live.row.scenario,
                    seed=live.row.seed,
                    options=live.row.options,
                    players=live.row.players,
                    actions=tuple(a.to_dict() for a in live.game.record.actions),
                    side=side,
                    target=runtime_target(live.row.ruleset),
                )
                try:  # the think in the game's AI process; the move played in a game thread
                    raw, why = await asyncio.wrap_future(self._ai.submit_choose(move))
                    await self._work(self._ai_step, live, side, raw, why)
                except BrokenProcessPool as exc:  # the worker died (killed, out of memory)
                    self._ai.broken(move)
                    log.error("the AI process of game %s died: %r", live.row.id, exc)
                    live.ai_error = f"the AI for {side.upper()} failed: its process stopped"
                    live.notify()
                    return
                except Exception as exc:  # never let a broken agent take the server down
                    log.exception("AI for %s in game %s failed", side, live.row.id)
                    live.ai_error = f"the AI for {side.upper()} failed: {exc}"
                    live.notify()
                    return
            live.notify()

    def _ai_step(self, live: Live, side: str, raw: dict[str, Any], why: Any) -> None:
        """Play and store the action the AI process chose (``why``: its agent's event)."""
        action = Action.from_dict(raw)
        index = live.index
        self._record(live, action, side)
        # the search's why, kept by the move and in the record (none: one legal action)
        note = search_web.keep_why(live.reasons, live.game.record, index, why)
        try:
            self.store.append(live.row.id, index, action.to_dict(), side)
            if note is not None:  # in the store too: a restarted server shows it again
                self.store.keep_note(live.row.id, index, note)
        except Exception:
            self._drop(live)
            raise

    async def close(self) -> None:
        for live in list(self._cache.values()):
            live.dropped = True
            if live.ai_task is not None:
                live.ai_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await live.ai_task
        self._game_pool.shutdown(wait=False, cancel_futures=True)
        self._ai.shutdown()
        # a fresh (threadless until used) pool: an app started again over this service works
        self._game_pool = ThreadPoolExecutor(GAME_THREADS, thread_name_prefix="umpire-game")


def _timed(costs: dict[str, float], kind: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, its CPU time (this thread's) kept as ``costs[kind]``."""
    start = time.thread_time()
    try:
        return fn(*args)
    finally:
        costs[kind] = time.thread_time() - start


def battle_report(game: Game) -> dict[str, Any]:
    """The terminal's battle report (``umpire battle``): who won and how, turns played,
    actions, each side's losses and the house rules that fired. The seed is left out (when the
    server drew it, it is the umpire's secret)."""
    data = json.loads(json.dumps(battle_summary(game), default=str))
    data.pop("seed", None)
    return dict(data)


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def parse_action(raw: Any) -> Action:
    """A client's action, every field checked for type and size before a ruleset sees it."""
    if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
        raise ApiError(400, "action must be an object with a kind")
    unknown = sorted(set(raw) - ACTION_FIELDS)
    if unknown:
        raise ApiError(400, f"malformed action: unknown field {short(unknown[0])}")
    for name in ("kind", "unit", "target", "option", "cell", "card"):
        value = raw.get(name)
        if value is not None and (not isinstance(value, str) or len(value) > 200):
            raise ApiError(400, f"malformed action: action.{name} must be a short string")
    point = raw.get("point")
    if point is not None:
        if not isinstance(point, list) or len(point) != 2:
            raise ApiError(400, "malformed action: action.point must be [x, y]")
        for axis, value in zip("xy", point, strict=True):
            finite_number(value, f"malformed action: action.point {axis}")
    units = raw.get("units")
    if units is not None and (
        not isinstance(units, list)
        or len(units) > MAX_UNITS
        or not all(isinstance(u, str) and len(u) <= 200 for u in units)
    ):
        raise ApiError(400, "malformed action: action.units must be a short list of unit ids")
    try:
        return Action.from_dict(raw)
    except (KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
        raise ApiError(400, f"malformed action: {exc}") from exc


def option_info(option: Option) -> dict[str, Any]:
    """A declared option as the lobby shows it (a ``path`` option is a file the visitor
    uploads from their own computer, never a name on the server)."""
    return {
        "name": option.name,
        "help": option.help,
        "type": option.type,
        "per_side": option.per_side,
        "choices": list(option.choices),
        "default": option.default,
        "upload": option.type == "path",
    }


@lru_cache(maxsize=8)
def _rule_summaries(ruleset_id: str) -> tuple[tuple[str, str], ...]:
    catalog = get_ruleset(ruleset_id).capabilities.catalog
    if catalog is None:
        return ()
    out = []
    for rule_id, entry in catalog().items():
        summary = getattr(entry, "summary", None)
        provenance = getattr(entry, "provenance", None)
        ref = getattr(entry, "ref", None)
        text = str(summary or "")
        if provenance:
            text += f" [{provenance}{', ' + str(ref) if ref else ''}]"
        out.append((str(rule_id), text))
    return tuple(out)


PREVIEW_KEYS = frozenset(
    {
        "layout",
        "unit",
        "width",
        "height",
        "terrain",
        "roads",
        "objectives",
        "objective_radius",
        "cells",
        "hexsides",
        "buildings",
        "figure_base",
        "offset",
    }
)
PREVIEW_CELL_KEYS = frozenset(
    {
        "x",
        "y",
        "id",
        "label",
        "terrain",
        "kind",
        "road",
        "ford",
        "trench",
        "objective",
        "city",
        "vp",
    }
)


@lru_cache(maxsize=32)
def _preview_cached(ruleset_id: str, scenario: str) -> str:
    ruleset = get_ruleset(ruleset_id)
    game = Game(ruleset, scenario, 0, {})
    viewer = ruleset.meta.players[0]
    drawn = views.board(game, game.observation(viewer), viewer)
    kept = {k: v for k, v in drawn.items() if k in PREVIEW_KEYS}
    if isinstance(kept.get("cells"), list):  # the map of each cell, not who holds it
        kept["cells"] = [
            {k: v for k, v in c.items() if k in PREVIEW_CELL_KEYS}
            for c in kept["cells"]
            if isinstance(c, dict)
        ]
    if isinstance(kept.get("buildings"), list):
        for building in kept["buildings"]:
            for room in building.get("rooms", []) if isinstance(building, dict) else []:
                if isinstance(room, dict):
                    room.pop("searched", None)
                    room.pop("cache_candidate", None)
    kept["units"] = []
    info = ruleset.scenario_info(scenario)
    kept["scenario"] = {"id": info.id, "title": info.title, "briefing": info.briefing}
    return json.dumps(kept, default=str)


def _preview(ruleset_id: str, scenario: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_preview_cached(ruleset_id, scenario))
    return data
