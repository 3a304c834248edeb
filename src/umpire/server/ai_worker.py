"""The web table's AI players think in processes of their own.

A search player thinks for up to :data:`umpire.agents.search.web.MAX_THINK` seconds a move. In a
thread of the server it would hold Python's one interpreter lock the whole time, and every
player's request in every other game would wait for it in turn (measured with
``bench/bench_server.py --ai 4 --ai-kind search@1``: the players' p50 went from ~10 ms to
~190 ms). Here each game's AI runs in one worker process (a game always goes to the same one,
chosen from its id), which keeps the game and its agents between moves:

- the server sends what it takes to start the game, the actions recorded so far, the side to
  play and a *generation*, a number the server changes whenever the AI must start afresh (an
  undo, a game reloaded from the store);
- the worker brings its copy up to date (the actions it has not seen), or rebuilds it when the
  generation changed or its copy is not a prefix of the record, and the side's agent chooses;
- the worker plays the chosen action on its copy and returns it with the agent's "why" event;
  the server plays it on its own game and stores it like any action.

A worker runs at a lower OS priority than the server (:data:`AI_NICENESS`): where the cores
are few, the server's answers to players come before the AI's think.

Agents are made and kept exactly as the server did in a thread (one per side, seeded by
:func:`umpire.agents.search.web.agent_seed`, dropped on undo), so the AI plays the same moves.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import zlib
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from typing import Any

from umpire.agents.base import Agent, make_agent
from umpire.agents.search import web as search_web
from umpire.core import ruleset as ruleset_registry
from umpire.core.actions import Action
from umpire.core.collector import quiet_collector
from umpire.core.game import Game
from umpire.core.ruleset import get_ruleset
from umpire.play import LazyActions

KEPT_GAMES = 32  # games a worker keeps between moves (others are rebuilt from their record)
# how much lower the OS ranks an AI process than the server: a think is background work, and
# on a machine with few cores the players' requests must not wait for it (measured, issue 19)
AI_NICENESS = 10


@dataclass(frozen=True)
class Move:
    """What a worker needs to choose the AI's next action in one game."""

    game_id: str
    generation: int
    ruleset: str
    scenario: str
    seed: int
    options: dict[str, Any]
    players: dict[str, str]
    actions: tuple[dict[str, Any], ...]  # the record so far, as stored
    side: str
    # the import path of a ruleset registered at run time in the server's process (a plugin,
    # a test's), for the worker to register too; None: found by the worker itself
    target: str | None = None


def runtime_target(ruleset_id: str) -> str | None:
    """The import path ``ruleset_id`` was registered under at run time in this process, if
    it was (``umpire.core.ruleset.register``); installed rulesets are found by every process."""
    extra = getattr(ruleset_registry, "_EXTRA", {})
    target = extra.get(ruleset_id) if isinstance(extra, dict) else None
    return target if isinstance(target, str) else None


@dataclass
class _Kept:
    generation: int
    game: Game
    agents: dict[str, Agent] = field(default_factory=dict)


_KEPT: OrderedDict[str, _Kept] = OrderedDict()  # in a worker process: its games


def _start(move: Move) -> _Kept:
    if move.target is not None and runtime_target(move.ruleset) != move.target:
        ruleset_registry.register(move.ruleset, move.target)
    game = Game(get_ruleset(move.ruleset), move.scenario, move.seed, move.options)
    game.record.players = dict(move.players)
    return _Kept(move.generation, game)


def choose(move: Move) -> tuple[dict[str, Any], Any]:
    """The AI's action for ``move.side`` (as a dict) and its agent's why event (``None``: it
    gave none). Runs in a worker process; also callable in-process. The collector is kept
    quiet meanwhile, as ``play_out`` keeps it (``umpire.core.collector``; same moves)."""
    with quiet_collector():
        return _choose(move)


def _choose(move: Move) -> tuple[dict[str, Any], Any]:
    kept = _KEPT.get(move.game_id)
    if kept is not None:
        played = [a.to_dict() for a in kept.game.record.actions]
        if kept.generation != move.generation or played != list(move.actions[: len(played)]):
            kept = None
    if kept is None:
        kept = _start(move)
    _KEPT[move.game_id] = kept
    _KEPT.move_to_end(move.game_id)
    while len(_KEPT) > KEPT_GAMES:
        _KEPT.popitem(last=False)
    game = kept.game
    for raw in move.actions[len(game.record.actions) :]:
        game.apply(Action.from_dict(raw))
    agent = kept.agents.get(move.side)
    kind = move.players[move.side]
    if agent is None:
        agent = kept.agents[move.side] = make_agent(
            search_web.agent_spec(kind),
            move.ruleset,
            move.side,
            search_web.agent_seed(kind, move.seed),
        )
    action = agent.choose(game.view(move.side), LazyActions(game))
    try:
        game.apply(action)
    except Exception:  # the server's own apply will say why; start afresh next time
        _KEPT.pop(move.game_id, None)
        raise
    return action.to_dict(), getattr(agent, "last_event", None)


def _background() -> None:
    """A worker's start: below the server in the OS's eyes (where the OS allows it)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(AI_NICENESS)


class AiProcesses:
    """``processes`` single-process pools; a game always thinks in the same one."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pools: list[ProcessPoolExecutor | None] = [None] * processes

    def _pool(self, slot: int) -> ProcessPoolExecutor:
        pool = self._pools[slot]
        if pool is None:
            context: BaseContext
            if "forkserver" in multiprocessing.get_all_start_methods():
                server = multiprocessing.get_context("forkserver")
                # the fork server imports the rules once; each worker forked from it starts warm
                server.set_forkserver_preload([__name__])
                context = server
            else:  # Windows: a fresh interpreter for each worker
                context = multiprocessing.get_context("spawn")
            pool = self._pools[slot] = ProcessPoolExecutor(
                1, mp_context=context, initializer=_background
            )
        return pool

    def submit_choose(self, move: Move) -> Any:
        """A future of :func:`choose` in the game's worker (a worker that died is replaced
        for the next move; this one fails)."""
        slot = zlib.crc32(move.game_id.encode()) % self.processes
        try:
            return self._pool(slot).submit(choose, move)
        except BrokenProcessPool:
            self._pools[slot] = None
            return self._pool(slot).submit(choose, move)

    def broken(self, move: Move) -> None:
        """Forget the game's worker after it died (the next move starts a new one)."""
        slot = zlib.crc32(move.game_id.encode()) % self.processes
        pool = self._pools[slot]
        self._pools[slot] = None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        for slot, pool in enumerate(self._pools):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
            self._pools[slot] = None
