"""Monte Carlo: many AI-vs-AI games of a scenario, on local processes or a Ray cluster.

Game ``i`` of a run with seed ``s`` plays with the ``i``-th child of
``numpy.random.SeedSequence(s)``: the streams are independent, and the same seed gives the same
games whatever the number of workers or machines. Results come back in game order.

Locally the games are played by long-lived worker processes (forked from this one where the
platform allows, so the scenario is loaded once), each sent chunks of games and sending back one
small row a game; a worker that grows past its memory limit is replaced (see ``_Pool``).
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_ready
from multiprocessing.process import BaseProcess
from typing import Any

import numpy as np

from umpire.agents.base import Agent, make_agent
from umpire.core.errors import UmpireError
from umpire.core.game import Game, new_game
from umpire.core.ruleset import get_ruleset, split_game_id
from umpire.play import play_out, summary

Row = dict[str, Any]
Progress = Callable[[int], None]  # called with the number of games just finished


@dataclass(frozen=True)
class Job:
    """One scenario with one set of options and players, to be played ``n`` times."""

    game_id: str
    n: int
    seed: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    agents: Mapping[str, str] = field(default_factory=dict)  # side -> scripted | random
    label: str = ""

    def players(self) -> dict[str, str]:
        ruleset_id, _ = split_game_id(self.game_id)
        sides = get_ruleset(ruleset_id).meta.players
        out = {side: self.agents.get(side, "scripted") for side in sides}
        for side, kind in out.items():
            if kind == "ai":
                out[side] = "scripted"
            elif kind.startswith("search"):
                from umpire.agents.search import parse_spec

                parse_spec(kind)  # a bad preset or think time fails before any game
            elif kind not in ("scripted", "random"):
                raise UmpireError(
                    f"side {side}: a simulation needs scripted, random or search players"
                )
        return out


def check_master_seed(seed: int) -> None:
    """A master seed ``SeedSequence`` takes (0 or more), or a one-line error."""
    if seed < 0:
        raise UmpireError(f"--seed {seed}: must be 0 or more")


def game_seeds(seed: int, n: int) -> list[int]:
    """The seed of each game: the first word of each ``SeedSequence(seed).spawn(n)`` child."""
    check_master_seed(seed)
    children = np.random.SeedSequence(seed).spawn(n)
    return [int(c.generate_state(1, dtype=np.uint32)[0]) for c in children]


def play_noting_first(game: Game, agents: Mapping[str, Agent]) -> str | None:
    """Play ``game`` out (as :func:`~umpire.play.play_out`) and return the side that first
    acted in play: the side of the first decision the ruleset's ``in_play`` capability counts
    as play, so a card swap, a pre-game card, deployment or a declaration every side makes
    together before the order of play is known does not make a side the first player. A
    ruleset without that capability counts every decision. ``None``: no side acted in play."""
    in_play = game.ruleset.capabilities.in_play
    first: str | None = None
    while game.to_act is not None:
        if in_play is None or in_play(game.state):
            first = str(game.to_act)  # a plain name, not a ruleset's side enum
            break
        taken = len(game.record.actions)
        play_out(game, agents, max_actions=taken + 1)  # one decision, then look again
        if len(game.record.actions) == taken:  # the action cap stopped the game
            break
    play_out(game, agents)
    return first


def play_game(
    game_id: str, options: Mapping[str, Any], players: Mapping[str, str], index: int, seed: int
) -> Row:
    """Play one game to its end and flatten its summary into a row; ``first_player`` is the
    side that first acted in play (:func:`play_noting_first`)."""
    ruleset_id, _ = split_game_id(game_id)
    try:
        game = new_game(game_id, seed=seed, options=dict(options))
        game.record.players = dict(players)  # built-in agents: held to the book under advise
        agents = {side: make_agent(kind, ruleset_id, side, seed) for side, kind in players.items()}
        first = play_noting_first(game, agents)
    except UmpireError as exc:
        raise UmpireError(f"game {index} (seed {seed}): {exc}") from exc
    data = summary(game)
    row: Row = {
        "game": index,
        "seed": seed,
        "winner": data["winner"],
        "how": data["how"],
        "turns": data["turns"],
        "actions": data["actions"],
        "first_player": first,
    }
    for side, loss in data.get("losses", {}).items():
        for key, value in loss.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                row[f"{side}_{key}"] = value
    return row


def _play_chunk(
    game_id: str,
    options: Mapping[str, Any],
    players: Mapping[str, str],
    chunk: list[tuple[int, int]],
) -> list[Row]:
    return [play_game(game_id, options, players, index, seed) for index, seed in chunk]


def _chunks(items: list[tuple[int, int]], size: int) -> Iterator[list[tuple[int, int]]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def chunk_size(n: int, workers: int) -> int:
    """Games per task: small enough to balance the workers and move the progress bar, large
    enough that sending tasks costs little next to playing them."""
    return max(1, min(10, n // max(1, workers * 16)))


# -- the collector ----------------------------------------------------------------------------
# A game allocates millions of short-lived objects. At CPython's default thresholds the cyclic
# garbage collector ran about ten times a Seven Days game, its full passes walking everything
# loaded before (modules, scenario and unit data, the rulesets' caches): about 10 ms of an
# 80 ms game (process time, measured with gc.callbacks). While games are played for a
# simulation, what was loaded before play is frozen out of the collector's sight and the
# youngest generation is collected every GC_YOUNG allocations (about 2 ms a game; the bare
# loop's rate with each collector: bench/bench_simulate.py). When the collector runs changes no
# game: no rule or player reads object addresses or collection times (tests/analysis/
# test_simulate.py compares rows played with the default collector and with this one).
GC_YOUNG = 50_000
GC_OLDER = (20, 100)


@contextmanager
def quiet_collector() -> Iterator[None]:
    """Freeze what is loaded now out of the collector's sight and raise its thresholds; both
    put back afterwards (a worker process keeps them for its life)."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *GC_OLDER)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


# -- local worker processes -------------------------------------------------------------------
# Long-lived workers, each fed chunks of games through its own pipe (two chunks in flight, so a
# worker never waits for the parent) and sending back only the rows. The rulesets' caches grow
# with the games played (a Seven Days process: 63 MB -> 129 MB over 1000 Meeting Engagements),
# so a worker whose resident memory passes its limit is stopped once its chunks are done and a
# fresh one takes its place: the limit is RECYCLE_MB, or RECYCLE_GROWTH_MB above what the
# worker started with if that is more (a worker forked from a large parent starts large).
RECYCLE_MB = 120.0
RECYCLE_GROWTH_MB = 24.0
IN_FLIGHT = 2  # chunks sent to a worker and not yet returned
MAX_CHUNK = 8  # games per chunk at most; fewer near the end so the workers finish together


def resident_mb() -> float | None:
    """This process's resident memory in MB (its peak where the current size cannot be read;
    ``None`` where neither can)."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


class _RemoteTraceback(Exception):
    """A worker's traceback, shown as the cause of the error raised in the parent."""

    def __str__(self) -> str:
        return str(self.args[0])


def _picklable(exc: BaseException) -> BaseException:
    """``exc`` if it can be sent to the parent, else a plain error with its text."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return UmpireError(f"{type(exc).__name__}: {exc}")
    return exc


def _serve(
    conn: Connection,
    game_id: str,
    options: Mapping[str, Any],
    players: Mapping[str, str],
    others: list[Connection],
    spawned: bool,
) -> None:
    """A worker: play each chunk received, send its rows back with this process's resident
    memory at its start and now; stop at ``None``, at an error (sent first) or when the parent
    is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the parent stops the workers
    for other in others:  # a forked worker's copies of the other workers' pipes
        other.close()
    if spawned:  # a forked worker has the parent's loaded data and collector settings
        new_game(game_id, seed=0, options=dict(options))
        gc.freeze()
        gc.set_threshold(GC_YOUNG, *GC_OLDER)
    start = resident_mb()
    parent = multiprocessing.parent_process()
    watch: list[Any] = [conn] if parent is None else [conn, parent.sentinel]
    while True:
        if conn not in wait_ready(watch):
            return  # the parent died: nobody is waiting for the games
        chunk = conn.recv()
        if chunk is None:
            return
        try:
            rows = _play_chunk(game_id, options, players, chunk)
        except Exception as exc:
            conn.send(("error", _picklable(exc), traceback.format_exc()))
            return
        conn.send(("rows", rows, start, resident_mb()))


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    sent: deque[list[tuple[int, int]]] = field(default_factory=deque)
    retiring: bool = False


class _Pool:
    """``workers`` processes playing the chunks of one job; see :func:`run_local`."""

    def __init__(
        self, job: Job, players: Mapping[str, str], todo: list[tuple[int, int]], workers: int
    ) -> None:
        self.job = job
        self.players = dict(players)
        self.todo = deque(todo)
        self.size = workers
        self.context = (
            multiprocessing.get_context("fork")
            if os.name == "posix"
            else multiprocessing.get_context("spawn")
        )
        self.workers: list[_Worker] = []
        self.started = 0  # worker processes started, replacements included

    def _start(self) -> _Worker:
        mine, theirs = self.context.Pipe()
        spawned = self.context.get_start_method() != "fork"
        others = [] if spawned else [w.conn for w in self.workers]
        process = self.context.Process(
            target=_serve,
            args=(theirs, self.job.game_id, dict(self.job.options), self.players, others, spawned),
            name=f"umpire-simulate-{self.started}",
            daemon=True,
        )
        process.start()
        theirs.close()
        self.started += 1
        worker = _Worker(process, mine)
        self.workers.append(worker)
        self._feed(worker)
        return worker

    def _next_chunk(self) -> list[tuple[int, int]]:
        size = max(1, min(MAX_CHUNK, len(self.todo) // (4 * self.size)))
        return [self.todo.popleft() for _ in range(min(size, len(self.todo)))]

    def _feed(self, worker: _Worker) -> None:
        while not worker.retiring and self.todo and len(worker.sent) < IN_FLIGHT:
            chunk = self._next_chunk()
            worker.sent.append(chunk)
            try:
                worker.conn.send(chunk)
            except OSError:  # the worker has died
                raise self._died(worker) from None

    def _stop(self, worker: _Worker) -> None:
        with suppress(OSError):
            worker.conn.send(None)
        worker.process.join(5)
        if worker.process.is_alive():
            worker.process.terminate()
            worker.process.join()
        worker.conn.close()
        self.workers.remove(worker)

    def _died(self, worker: _Worker) -> UmpireError:
        worker.process.join(5)
        code = worker.process.exitcode
        how = f"was killed by signal {-code}" if code is not None and code < 0 else "stopped"
        playing = ""
        if worker.sent:  # chunks are played in the order sent: it died in the first
            games = [f"{index} (seed {seed})" for index, seed in worker.sent[0]]
            playing = f" while playing game {games[0]}" + (
                f" to {games[-1]}" if len(games) > 1 else ""
            )
        return UmpireError(
            f"a simulate worker {how} (exit code {code}){playing}"
            + (" (out of memory?)" if code == -9 else "")
        )

    def _receive(self, worker: _Worker) -> list[Row]:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            raise self._died(worker) from None
        if message[0] == "error":
            _, exc, text = message
            raise exc from _RemoteTraceback(text)
        _, rows, start, now = message
        worker.sent.popleft()
        if start is not None and now is not None:
            worker.retiring = now > max(RECYCLE_MB, start + RECYCLE_GROWTH_MB)
        return list(rows)

    def run(self, progress: Progress | None) -> list[Row]:
        rows: list[Row] = []
        try:
            # a worker is started only while games are left for it: the first ones may take
            # every chunk (IN_FLIGHT each), and a worker sent nothing would be waited on for ever
            while len(self.workers) < self.size and self.todo:
                self._start()
            while self.workers:
                by_conn = {w.conn: w for w in self.workers}
                by_sentinel = {w.process.sentinel: w for w in self.workers}
                for ready in wait_ready([*by_conn, *by_sentinel]):
                    worker = by_conn.get(ready)  # type: ignore[call-overload]
                    if worker is None:  # a process ended: fine only once its pipe is drained
                        worker = by_sentinel[ready]  # type: ignore[index]
                        if worker in self.workers and not worker.conn.poll():
                            raise self._died(worker)
                        continue
                    if worker not in self.workers:
                        continue
                    got = self._receive(worker)
                    rows += got
                    if progress:
                        progress(len(got))
                    self._feed(worker)
                    if not worker.sent:  # nothing more for it, or it is too large: let it go
                        self._stop(worker)
                        if self.todo:
                            self._start()
        finally:
            for worker in list(self.workers):
                worker.process.terminate()
                worker.process.join()
                worker.conn.close()
            self.workers.clear()
        return rows


def run_local(
    job: Job,
    workers: int = 1,
    progress: Progress | None = None,
    stats: dict[str, int] | None = None,
) -> list[Row]:
    """Play the job on this machine with ``workers`` processes (1: in this process);
    ``stats``, if given, receives ``workers_started`` (replacements included)."""
    if job.n < 1:
        raise UmpireError(f"-n {job.n}: play at least one game")
    if workers < 1:
        raise UmpireError(f"--workers {workers}: must be 1 or more")
    players = job.players()
    todo = list(enumerate(game_seeds(job.seed, job.n)))
    # set the game up once here: the scenario, table and unit data are then loaded before the
    # workers fork, and a bad option fails at once rather than in every worker
    new_game(job.game_id, seed=0, options=dict(job.options))
    with quiet_collector():
        if workers == 1:
            rows: list[Row] = []
            for chunk in _chunks(todo, chunk_size(job.n, 1)):
                rows += _play_chunk(job.game_id, job.options, players, chunk)
                if progress:
                    progress(len(chunk))
            return rows
        pool = _Pool(job, players, todo, workers)
        try:
            rows = pool.run(progress)
        finally:
            if stats is not None:
                stats["workers_started"] = pool.started
    rows.sort(key=lambda r: r["game"])
    return rows


def run_ray(job: Job, address: str, progress: Progress | None = None) -> list[Row]:
    """Play the job on a Ray cluster (``address`` "local" starts one on this machine)."""
    try:
        import ray
    except ImportError as exc:
        raise UmpireError("--ray needs Ray: pip install 'umpire[ray]'") from exc
    players = job.players()
    todo = list(enumerate(game_seeds(job.seed, job.n)))
    started = not ray.is_initialized()
    if started:
        ray.init(
            address=None if address == "local" else address,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    try:
        remote = ray.remote(_play_chunk)
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        refs = [
            remote.remote(job.game_id, dict(job.options), players, chunk)
            for chunk in _chunks(todo, chunk_size(job.n, workers))
        ]
        rows: list[Row] = []
        while refs:
            done, refs = ray.wait(refs, num_returns=1)
            got: list[Row] = ray.get(done[0])
            rows += got
            if progress:
                progress(len(got))
    finally:
        if started:
            ray.shutdown()
    rows.sort(key=lambda r: r["game"])
    return rows


def run(
    job: Job, workers: int = 1, ray_address: str | None = None, progress: Progress | None = None
) -> list[Row]:
    if ray_address:
        return run_ray(job, ray_address, progress)
    return run_local(job, workers, progress)


def sides_of(job: Job) -> Sequence[str]:
    ruleset_id, _ = split_game_id(job.game_id)
    return get_ruleset(ruleset_id).meta.players
