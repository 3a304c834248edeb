"""The scripted player's counts taken in C (issue 13, speed) equal its plain loops.

* Refugees (rhine.admin.refugees: the Pact places refugee markers on empty NATO-controlled
  hexes): the scripted Pact prefers hexes near NATO units; how many NATO units stand within
  2 hexes of each hex is compared with a plain count at every refugee decision of whole
  games of both scenarios, and on made-up positions.
* Movement (rhine.move.*): the scripted NATO player weighs a hex by how far it is from the
  nearest enemy stack (in hexes, rhine.geometry); the distances worked out for every hex at
  once are compared with the plain least distance, hex by hex, at every time the player asks
  for them in whole games of both scenarios, and on made-up enemy hexes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from tests.rhine.helpers import play_scripted
from umpire.rulesets.rhine import agent as A
from umpire.rulesets.rhine.model import World, world_for


def plain_near(
    w: World, pos: Mapping[str, str | None], rings: Mapping[str, frozenset[str]]
) -> dict[str, int]:
    near: dict[str, int] = {}
    for u, p in pos.items():
        if p and w.units[u].side == "nato":
            for n in rings[p]:
                near[n] = near.get(n, 0) + 1
    return near


@pytest.mark.parametrize(
    ("scenario", "seeds"), [("autobahn-gap", (80, 81)), ("kinzig-valley", (82,))]
)
def test_nato_near_is_the_plain_count_over_whole_games(
    scenario: str, seeds: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    quick = A.nato_near
    asked: list[Any] = []

    def both(
        w: World, pos: Mapping[str, str | None], rings: Mapping[str, frozenset[str]]
    ) -> Mapping[str, int]:
        got = quick(w, pos, rings)
        assert dict(got) == plain_near(w, pos, rings)
        for h in w.ids:
            assert got.get(h, 0) == plain_near(w, pos, rings).get(h, 0)
        asked.append(pos)
        return got

    monkeypatch.setattr(A, "nato_near", both)
    for seed in seeds:
        play_scripted(scenario, seed)
    assert asked  # the refugee decisions were made


def test_nato_near_is_the_plain_count_on_made_up_positions() -> None:
    w = world_for("kinzig-valley")
    rings = {h: frozenset(n for n in w.ids if w.distance(h, n) <= 2) for h in w.ids}
    rng = random.Random(14)
    for _ in range(100):
        pos = {u: rng.choice([*w.ids, None]) for u in w.units}
        assert dict(A.nato_near(w, pos, rings)) == plain_near(w, pos, rings)


def plain_nearest(w: World, enemy: Iterable[str]) -> dict[str, int]:
    """Hex by hex: the least distance to an enemy hex, 6 when there is none."""
    hexes = list(enemy)
    return {h: min((w.distance(h, e) for e in hexes), default=6) for h in w.ids}


@pytest.mark.parametrize(("scenario", "seed"), [("autobahn-gap", 83), ("kinzig-valley", 84)])
def test_nearest_enemy_is_the_plain_least_distance_over_whole_games(
    scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick = A.nearest_enemy
    asked: list[Any] = []

    def both(w: World, enemy: Iterable[str]) -> dict[str, int]:
        hexes = list(enemy)
        got = quick(w, hexes)
        assert got == plain_nearest(w, hexes)
        asked.append(hexes)
        return got

    monkeypatch.setattr(A, "nearest_enemy", both)
    play_scripted(scenario, seed)
    assert len(asked) >= 5  # NATO weighed hexes in several movement phases


def test_nearest_enemy_is_the_plain_least_distance_on_made_up_hexes() -> None:
    w = world_for("kinzig-valley")
    rng = random.Random(15)
    for count in (0, 1, 2, 3, 7, 20, 40):
        for _ in range(5):
            enemy = rng.sample(w.ids, count)
            assert A.nearest_enemy(w, enemy) == plain_nearest(w, enemy)
