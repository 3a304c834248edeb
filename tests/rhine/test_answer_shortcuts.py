"""A ground unit's move listing (issue 13, speed): the destinations taken from a movement
search over all its cells at once equal those of the plain loop over its cells.

rhine.move.costs / rhine.stack.nato / rhine.scenario.exit: a unit may move to each hex it can
reach within its movement allowance, at the cheapest cost of reaching it, but not to the hex
it stands in nor (NATO) to one it could not end the phase in; a Pact unit may leave the map
westward from the exit column for 1 MP more. Compared at every listing the scripted players
and the engine's checks ask for, over whole games of both scenarios, and on the same searches
with made-up hexes left out and made-up exit columns. The options of a listing are made once
for each destination, mode and cost and shared by every listing that has them: each is the
same value as one made afresh, and the option and route a move's check reads from the listing
without making them are those of the listing's options.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tests.rhine.helpers import play_scripted
from umpire.core.game import Game
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.model import World
from umpire.rulesets.rhine.reach import hex_numbers


def plain_destinations(
    world: World,
    firsts: Sequence[int],
    settled: Mapping[int, float],
    left_out: frozenset[str],
    exit_hexes: frozenset[str] | None,
    budget: float,
    zone: frozenset[str] = frozenset(),
    zone_exit: float | None = None,
) -> tuple[list[str], list[int], list[float]]:
    """Cell by cell, in the order settled (the loop ``rules.destinations`` replaces): the
    exit not from a cell where the unit must stop, nor from a zone hex unless it may leave
    one (for ``zone_exit`` MP more)."""
    ids = hex_numbers(world)[1]
    dests: list[str] = []
    cells: list[int] = []
    costs: list[float] = []
    exit_open = exit_hexes is not None
    for cell in firsts:
        h = ids[cell >> 1]
        if h in left_out:
            continue
        spent = settled[cell]
        dests.append(h)
        cells.append(cell)
        costs.append(spent)
        if exit_open and exit_hexes is not None and h in exit_hexes and not cell & 1:
            cost = spent + 1
            if h in zone:
                cost = budget + 1 if zone_exit is None else cost + zone_exit
            if cost <= budget:
                dests.append("exit")
                cells.append(cell)
                costs.append(cost)
                exit_open = False
    return dests, cells, costs


@pytest.mark.parametrize(
    ("scenario", "seeds"), [("autobahn-gap", (60, 61)), ("kinzig-valley", (62,))]
)
def test_destinations_are_the_plain_loops_over_whole_games(
    scenario: str, seeds: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    quick = R.destinations
    asked: list[Any] = []
    exits = 0
    rng = random.Random(scenario)

    def both(*args: Any) -> tuple[list[str], list[int], list[float]]:
        nonlocal exits
        got = quick(*args)
        assert got == plain_destinations(*args)
        exits += "exit" in got[0]
        world, firsts, settled, left_out, exit_hexes, budget, zone, zone_exit = args
        # the same search with other hexes left out and another exit column
        ids = world.ids
        other_out = frozenset(rng.sample(ids, rng.randint(0, 12))) | left_out
        col = world.column(rng.choice(ids))
        column = frozenset(h for h in ids if world.column(h) == col)
        assert column
        for variant in ((other_out, exit_hexes), (left_out, column), (other_out, column)):
            again = (world, firsts, settled, variant[0], variant[1], budget, zone, zone_exit)
            assert quick(*again) == plain_destinations(*again)
        # and with other zone hexes, which may or may not be left
        other_zone = frozenset(rng.sample(ids, rng.randint(0, 40)))
        for leave in (None, 1.0):
            again = (world, firsts, settled, left_out, column, budget, other_zone, leave)
            assert quick(*again) == plain_destinations(*again)
        asked.append(args)
        return got

    monkeypatch.setattr(R, "destinations", both)
    R._ANSWERS.clear()  # every listing worked out, none remembered from an earlier test
    R._WINNERS.clear()
    for seed in seeds:
        play_scripted(scenario, seed)
    assert len(asked) > 30 * len(seeds)  # the listings were made here
    if scenario == "autobahn-gap":
        assert exits > 0  # and the exit was among them (its scenario has an exit column)


@pytest.mark.parametrize(("scenario", "seed"), [("autobahn-gap", 63), ("kinzig-valley", 64)])
def test_shared_options_equal_ones_made_afresh_over_whole_games(
    scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = R._ground_answer
    checked = 0

    def both(*args: Any) -> tuple[R.MoveOption, ...]:
        nonlocal checked
        answer = real(*args)
        found = R._ground_found(*args)  # the listing it was made from (remembered)
        mode, paths = args[5], args[7]
        if found is None:
            assert answer == ()
        elif not paths:
            dests, costs = found.dests, found.costs
            fresh = [R.MoveOption(d, mode, c, ()) for d, c in zip(dests, costs, strict=True)]
            assert list(answer) == fresh
            assert all(type(o) is R.MoveOption for o in answer)
            # one object for each destination, mode and cost, shared between answers
            assert all(R._OPTIONS[(o.dest, o.mode, o.cost)] is o for o in answer)
            assert real(*args) is answer  # made once per listing
            # the move checked from the listing without making the options is the same
            for o in answer:
                assert found.option(o.dest, mode) is o
                assert found.route(o.dest) == R.answer_route(answer, o.dest)
            assert found.option("nowhere", mode) is None and found.route("nowhere") is None
            checked += 1
        return answer

    monkeypatch.setattr(R, "_ground_answer", both)
    R._ANSWERS.clear()
    R._WINNERS.clear()
    R._OPTIONS.clear()
    game = Game(RULESET, scenario, seed)
    agents = {s: RhineScripted(s, seed) for s in RULESET.meta.players}
    while not game.is_over:
        side = game.to_act
        assert side is not None
        legal = game.legal_actions()  # (every unit's moves listed, their options made)
        game.apply(agents[side].choose(game.view(side), legal))
    assert checked > 30
    made = sum(len(f.answer) for f in R._ANSWERS.values() if getattr(f, "answer", None))
    assert len(R._OPTIONS) < made  # options were shared
