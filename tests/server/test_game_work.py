"""Where the web table runs a game's views and actions (issue 19): the first time in a game
thread, then in the event loop itself when the same kind of work on that game last took less
CPU than the interpreter's switch interval, and in a thread when it took longer (the costs are
set by the test: nothing here depends on how fast the machine is). Wherever it
runs, the seat is sent the same view and the action is stored once."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from umpire.server.service import Live, Service
from umpire.server.store import Store

ME = {"ruleset": "sevendays", "scenario": "meeting-engagement", "seed": 4}


def run(coro: Any) -> Any:
    """``asyncio.run(coro)`` in a thread of its own (an earlier test may have left an event
    loop set in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def made_game(service: Service) -> tuple[str, dict[str, str]]:
    made = await service.create({**ME, "players": {"nato": "remote", "pact": "remote"}})
    return made["id"], {s["sides"][0]: s["token"] for s in made["seats"]}


def test_short_views_and_actions_move_into_the_loop_and_long_ones_back(tmp_path: Path) -> None:
    async def scenario() -> None:
        service = Service(Store(tmp_path / "games.sqlite3"), ai_delay=0)
        where: list[tuple[str, bool]] = []
        loop_thread = threading.current_thread()
        view_json, play = service._view_json, service._play

        def traced_view(*args: Any) -> str:
            where.append(("view", threading.current_thread() is loop_thread))
            return view_json(*args)

        def traced_play(*args: Any) -> Any:
            where.append(("act", threading.current_thread() is loop_thread))
            return play(*args)

        service._view_json = traced_view  # type: ignore[method-assign]
        service._play = traced_play  # type: ignore[method-assign]
        game_id, seats = await made_game(service)
        live: Live = service._cache[game_id]

        async def step() -> None:
            side = live.game.to_act
            assert side is not None
            view = json.loads(await service.view_json(game_id, seats[side], live.index))
            action = view["actions"][0]["action"]
            await service.act(game_id, seats[side], {"index": live.index, "action": action})

        await step()  # nothing measured yet: both in a thread, and measured there
        assert where == [("view", False), ("act", False)]
        assert set(live.costs) == {"view", "act"}
        switch = sys.getswitchinterval()
        for view_cost, act_cost in ((0.0, 0.0), (2 * switch, 0.0), (0.0, 2 * switch)):
            where.clear()
            live.costs.update(view=view_cost, act=act_cost)
            await step()
            assert where == [("view", view_cost < switch), ("act", act_cost < switch)]
            assert live.costs["view"] != view_cost or live.costs["act"] != act_cost
        await service.close()

    run(scenario())


def test_the_same_view_and_record_wherever_the_work_ran(tmp_path: Path) -> None:
    """Two services play the same game; one runs every view and action in a thread (its
    recorded costs kept above the switch interval), the other as it chooses: each seat is
    sent the same views and the two stores hold the same actions."""

    async def play(db: Path, threads_only: bool) -> tuple[list[str], list[Any]]:
        store = Store(db)
        service = Service(store, ai_delay=0)
        game_id, seats = await made_game(service)
        live = service._cache[game_id]
        sent: list[str] = []
        for step in range(12):
            if threads_only:
                live.costs["view"] = live.costs["act"] = 1.0
            side = live.game.to_act
            if side is None:
                break
            views = {}
            for seat_side, token in seats.items():  # both seats' views: to act and not
                views[seat_side] = await service.view_json(game_id, token, max(0, step - 1))
                sent.append(views[seat_side])
            choice = json.loads(views[side])["actions"]
            action = choice[step % len(choice)]["action"]
            await service.act(game_id, seats[side], {"index": step, "action": action})
        await service.close()
        stored = [row for row in store.actions(game_id)]
        store.close()
        for token in seats.values():  # seat tokens differ between the two services
            sent = [text.replace(token, "SEAT") for text in sent]
        return [text.replace(game_id, "GAME") for text in sent], stored

    threaded = run(play(tmp_path / "a.sqlite3", threads_only=True))
    chosen = run(play(tmp_path / "b.sqlite3", threads_only=False))
    assert threaded == chosen
    assert len(threaded[1]) == 12
