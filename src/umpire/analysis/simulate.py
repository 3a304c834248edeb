"""Monte Carlo: many AI-vs-AI games of a scenario, on local processes or a Ray cluster.

Game ``i`` of a run with seed ``s`` plays with the ``i``-th child of
``numpy.random.SeedSequence(s)``: the streams are independent, and the same seed gives the same
games whatever the number of workers or machines. Results come back in game order.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
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


def game_seeds(seed: int, n: int) -> list[int]:
    """The seed of each game: the first word of each ``SeedSequence(seed).spawn(n)`` child."""
    if seed < 0:
        raise UmpireError(f"--seed {seed}: must be 0 or more")
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


def run_local(job: Job, workers: int = 1, progress: Progress | None = None) -> list[Row]:
    """Play the job on this machine with ``workers`` processes (1: in this process)."""
    if job.n < 1:
        raise UmpireError(f"-n {job.n}: play at least one game")
    if workers < 1:
        raise UmpireError(f"--workers {workers}: must be 1 or more")
    players = job.players()
    todo = list(enumerate(game_seeds(job.seed, job.n)))
    # set the game up once here: the scenario, table and unit data are then loaded before the
    # workers fork, and a bad option fails at once rather than in every worker
    new_game(job.game_id, seed=0, options=dict(job.options))
    rows: list[Row] = []
    if workers == 1:
        for chunk in _chunks(todo, chunk_size(job.n, 1)):
            rows += _play_chunk(job.game_id, job.options, players, chunk)
            if progress:
                progress(len(chunk))
        return rows
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: set[Future[list[Row]]] = set()
        chunks = _chunks(todo, chunk_size(job.n, workers))
        for chunk in itertools.islice(chunks, workers * 4):
            pending.add(pool.submit(_play_chunk, job.game_id, job.options, players, chunk))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                got = future.result()
                rows += got
                if progress:
                    progress(len(got))
                nxt = next(chunks, None)
                if nxt is not None:
                    pending.add(pool.submit(_play_chunk, job.game_id, job.options, players, nxt))
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
