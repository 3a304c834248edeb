"""Live games: the store, a small cache of rebuilt games, seats, AI players and per-seat views.

Every change to a game happens under the game's lock: the action is checked against the index
the client expects (optimistic concurrency), played on the cached game (the ruleset refuses an
illegal one with the state unchanged) and committed to SQLite before anyone is told. If the
commit fails the cached game is dropped, so memory never runs ahead of the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from umpire.agents.base import Agent, make_agent
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, UmpireError
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.core.ruleset import get_ruleset, ruleset_ids
from umpire.play import LazyActions
from umpire.server import views
from umpire.server.store import GameRow, Seat, StaleIndexError, Store

log = logging.getLogger("umpire.server")

PLAYER_KINDS = ("here", "remote", "ai")


class ApiError(Exception):
    """A request the server refuses: an HTTP status and a one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass(eq=False)
class Live:
    """A game rebuilt from its record, with the events of each action kept apart."""

    row: GameRow
    game: Game
    setup: list[Event]
    log: list[list[Event]]  # log[i]: the events of action i
    sides: list[str | None]  # sides[i]: the side that played action i
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    agents: dict[str, Agent] = field(default_factory=dict)
    ai_task: asyncio.Task[None] | None = None
    ai_error: str | None = None
    replay_game: Game | None = None
    dropped: bool = False

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
                }
            )
        return out

    # -- creating and loading ----------------------------------------------------------------
    async def create(self, body: Mapping[str, Any]) -> dict[str, Any]:
        ruleset_id = body.get("ruleset")
        scenario = body.get("scenario")
        if not isinstance(ruleset_id, str) or not isinstance(scenario, str):
            raise ApiError(400, "give ruleset and scenario as strings")
        try:
            ruleset = get_ruleset(ruleset_id)
        except UmpireError as exc:
            raise ApiError(400, str(exc)) from exc
        if scenario not in ruleset.scenario_ids():
            known = ", ".join(ruleset.scenario_ids())
            raise ApiError(400, f"unknown scenario {scenario!r} for {ruleset_id}; known: {known}")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ApiError(400, "seed must be a non-negative integer")
        raw_players = body.get("players") or {}
        if not isinstance(raw_players, dict):
            raise ApiError(400, "players must map each side to here, remote or ai")
        players: dict[str, str] = {}
        for side in ruleset.meta.players:
            kind = raw_players.get(side, "here")
            if kind not in PLAYER_KINDS:
                raise ApiError(400, f"players.{side}: {kind!r} is not one of here, remote, ai")
            if kind == "ai" and ruleset.capabilities.scripted is None:
                raise ApiError(400, f"players.{side}: {ruleset_id} has no AI player")
            players[side] = kind
        extra = sorted(set(raw_players) - set(players))
        if extra:
            raise ApiError(400, f"players: no side {extra[0]!r} in {ruleset_id}")
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
            game = await asyncio.to_thread(Game, ruleset, scenario, seed, {})
        except UmpireError as exc:
            raise ApiError(400, str(exc)) from exc
        except Exception as exc:  # a ruleset bug: say so in one line, store nothing
            log.exception("starting %s/%s failed", ruleset_id, scenario)
            raise ApiError(500, f"{ruleset_id}/{scenario} failed to start: {exc!r}") from exc
        game.record.players = dict(players)
        now = time.time()
        row = GameRow(
            id=game_id,
            ruleset=ruleset_id,
            version=ruleset.meta.version,
            scenario=scenario,
            seed=seed,
            options={},
            players=players,
            created=now,
            updated=now,
        )
        await asyncio.to_thread(self.store.create_game, row, seats)
        live = Live(row=row, game=game, setup=list(game.events), log=[], sides=[])
        self._remember(live)
        self._kick_ai(live)
        return {
            "id": game_id,
            "seed": seed,
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
                found = await asyncio.to_thread(self._load, game_id)
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
        live = Live(row=row, game=game, setup=list(game.events), log=[], sides=[])
        for index, raw in enumerate(self.store.actions(game_id)):
            side = game.to_act
            try:
                live.log.append(game.apply(Action.from_dict(raw)))
            except IllegalActionError as exc:
                raise ApiError(
                    409, f"game {game_id}: stored action {index} is illegal: {exc}"
                ) from exc
            live.sides.append(side)
        return live

    # -- seats and views -----------------------------------------------------------------------
    async def seat(self, game_id: str, token: str) -> tuple[Seat, Live]:
        seat = await asyncio.to_thread(self.store.seat, token)
        live = await self.live(game_id)
        if seat is None or seat.game_id != game_id:
            raise ApiError(403, "this link does not belong to that game")
        return seat, live

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
        return side is not None and side in seat.sides and live.row.players.get(side) != "ai"

    def _log(self, live: Live, viewer: str, since: int) -> list[dict[str, Any]]:
        out = []
        if since <= 0:
            out.append(
                {"index": 0, "setup": True, "events": self._events(live, live.setup, viewer)}
            )
        for i in range(max(0, since), live.index):
            events = views.event_dicts(live.log[i], viewer)
            out.append({"index": i + 1, "events": events})
        return out

    @staticmethod
    def _events(live: Live, events: list[Event], viewer: str) -> list[dict[str, Any]]:
        return views.event_dicts(events, viewer)

    def _view(self, seat: Seat, live: Live, since: int) -> dict[str, Any]:
        game = live.game
        viewer = self.viewer(seat, live)
        observation = game.observation(viewer)
        to_act = game.to_act
        yours = self._controls(seat, live, to_act) and not game.is_over
        actions: list[dict[str, Any]] = []
        if yours and to_act is not None:
            # the legal actions the ruleset gives the side to act, read with its own eyes
            seen = observation if to_act == viewer else game.observation(to_act)
            actions = views.action_entries(game, seen, to_act, game.legal_actions())
        outcome = game.outcome
        human = [s for s, k in live.row.players.items() if k != "ai"]
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
            "seat": {
                "sides": list(seat.sides),
                "viewer": viewer,
                "can_undo": bool(seat.sides) and set(human) <= set(seat.sides),
            },
            "index": live.index,
            "to_act": to_act,
            "your_turn": yours,
            "ai_thinking": to_act is not None and live.row.players.get(to_act) == "ai",
            "ai_error": live.ai_error,
            "outcome": {"winner": outcome.winner, "how": outcome.how} if outcome else None,
            "board": views.board(game, observation, viewer),
            "actions": actions,
            "since": max(0, min(since, live.index)),
            "log": self._log(live, viewer, since),
        }
        if outcome is not None:
            view["summary"] = game.ruleset.summary(game.state)
        return view

    async def view(self, game_id: str, token: str, since: int = 0) -> dict[str, Any]:
        seat, live = await self.seat(game_id, token)
        async with live.lock:
            return await asyncio.to_thread(self._view, seat, live, since)

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
        raw = body.get("action")
        if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
            raise ApiError(400, "action must be an object with a kind")
        try:
            action = Action.from_dict(raw)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ApiError(400, f"malformed action: {exc}") from exc
        for name in ("unit", "target", "option"):
            value = getattr(action, name)
            if value is not None and not isinstance(value, str):
                raise ApiError(400, f"action.{name} must be a string")
        seat, live = await self.seat(game_id, token)
        async with live.lock:
            if live.dropped:
                live = await self.live(game_id)
                return await self.act(game_id, token, body)
            game = live.game
            if game.is_over:
                raise ApiError(409, "the game is over")
            if index != live.index:
                raise ApiError(
                    409, f"stale: the game has {live.index} actions, you sent index {index}"
                )
            side = game.to_act
            if not self._controls(seat, live, side):
                raise ApiError(403, f"this link does not play {str(side).upper()}, to act now")
            assert side is not None
            events = await asyncio.to_thread(self._play, live, index, action, side, seat)
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
        game = live.game
        try:
            events = game.apply(action)
        except IllegalActionError as exc:
            raise ApiError(422, str(exc)) from exc
        except UmpireError as exc:
            raise ApiError(422, str(exc)) from exc
        except (KeyError, ValueError, TypeError, AttributeError, AssertionError) as exc:
            # a malformed action a ruleset did not expect: the ruleset validates before it
            # changes anything, but rebuild to be sure nothing half-applied survives
            self._drop(live)
            raise ApiError(422, f"{action.kind} is not a legal action here ({exc!r})") from exc
        try:
            self.store.append(live.row.id, index, action.to_dict(), side)
        except StaleIndexError as exc:
            self._drop(live)
            raise ApiError(409, f"stale: {exc}") from exc
        except Exception:
            self._drop(live)
            raise
        live.log.append(events)
        live.sides.append(side)
        return events

    async def undo(self, game_id: str, token: str, body: Any) -> dict[str, Any]:
        """Take back the seat's last action and every AI action after it (hot seat, vs AI)."""
        if not isinstance(body, dict) or not isinstance(body.get("index"), int):
            raise ApiError(400, 'give a JSON object {"index": N}')
        seat, live = await self.seat(game_id, token)
        human = {s for s, k in live.row.players.items() if k != "ai"}
        if not seat.sides or not human <= set(seat.sides):
            raise ApiError(403, "undo is only for a hot-seat game or a game against the AI")
        async with live.lock:
            if body["index"] != live.index:
                raise ApiError(409, f"stale: the game has {live.index} actions")
            mine = [i for i, s in enumerate(live.sides) if s in seat.sides]
            if not mine:
                raise ApiError(409, "nothing of yours to take back")
            keep = mine[-1]
            await asyncio.to_thread(self._truncate, live, keep)
            index = live.index
        live.notify()
        return {"index": index}

    def _truncate(self, live: Live, keep: int) -> None:
        self.store.truncate(live.row.id, keep)
        steps = live.index - keep
        live.game.undo(steps)
        del live.log[keep:]
        del live.sides[keep:]
        live.agents.clear()
        live.replay_game = None

    # -- replay and sight ----------------------------------------------------------------------
    async def frame(self, game_id: str, token: str, at: int) -> dict[str, Any]:
        """The table as the seat's side saw it after ``at`` actions."""
        seat, live = await self.seat(game_id, token)
        async with live.lock:
            if not 0 <= at <= live.index:
                raise ApiError(400, f"at must be between 0 and {live.index}")
            return await asyncio.to_thread(self._frame, seat, live, at)

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
            {"index": i + 1, "events": self._events(live, live.log[i], viewer)} for i in range(at)
        ]
        outcome = twin.outcome
        return {
            "at": at,
            "index": live.index,
            "viewer": viewer,
            "to_act": twin.to_act,
            "outcome": {"winner": outcome.winner, "how": outcome.how} if outcome else None,
            "board": views.board(twin, observation, viewer),
            "log": log,
        }

    async def sight(self, game_id: str, token: str, unit: str) -> dict[str, Any]:
        seat, live = await self.seat(game_id, token)
        async with live.lock:
            viewer = self.viewer(seat, live)

            def compute() -> list[dict[str, Any]]:
                game = live.game
                found = views.sight(game, game.observation(viewer), viewer, unit)
                if not isinstance(found, dict) or "lines" not in found:
                    raise ApiError(404, f"no unit {unit!r} that you can see")
                lines: list[dict[str, Any]] = found["lines"]
                return lines

            return {"unit": unit, "lines": await asyncio.to_thread(compute)}

    # -- AI players ----------------------------------------------------------------------------
    def _kick_ai(self, live: Live) -> None:
        side = live.game.to_act
        if side is None or live.row.players.get(side) != "ai" or live.ai_error:
            return
        if live.ai_task is None or live.ai_task.done():
            live.ai_task = asyncio.get_running_loop().create_task(self._run_ai(live))

    async def _run_ai(self, live: Live) -> None:
        while not live.dropped:
            await asyncio.sleep(self.ai_delay)
            async with live.lock:
                side = live.game.to_act
                if live.dropped or side is None or live.row.players.get(side) != "ai":
                    return
                try:
                    await asyncio.to_thread(self._ai_step, live, side)
                except Exception as exc:  # never let a broken agent take the server down
                    log.exception("AI for %s in game %s failed", side, live.row.id)
                    live.ai_error = f"the AI for {side.upper()} failed: {exc}"
                    live.notify()
                    return
            live.notify()

    def _ai_step(self, live: Live, side: str) -> None:
        agent = live.agents.get(side)
        if agent is None:
            agent = live.agents[side] = make_agent(
                "scripted", live.row.ruleset, side, live.row.seed
            )
        action = agent.choose(live.game.view(side), LazyActions(live.game))
        index = live.index
        events = live.game.apply(action)
        try:
            self.store.append(live.row.id, index, action.to_dict(), side)
        except Exception:
            self._drop(live)
            raise
        live.log.append(events)
        live.sides.append(side)

    async def close(self) -> None:
        for live in list(self._cache.values()):
            live.dropped = True
            if live.ai_task is not None:
                live.ai_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await live.ai_task


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))
