"""The static side of a game: the board and its terrain, the unit tables, the house rules and
the optional-rule switches in force. Built once per (scenario, house rules) and shared."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from umpire.geometry.squaregrid import Grid, Square, squares_between
from umpire.rulesets.portable.config import HouseRules, house_rules
from umpire.rulesets.portable.units import UnitTypes, unit_types

if TYPE_CHECKING:  # scenarios (pydantic) are read to build a world, not for a shot's odds
    from umpire.rulesets.portable.scenario import ScenarioSpec
    from umpire.rulesets.portable.state import PortableState

SIGHT_BLOCKERS = frozenset({"woods", "town"})  # portable.grid.line_of_sight
COVER = frozenset({"woods", "town"})  # portable.fire.modifier.cover


@dataclass(eq=False)
class World:
    """Board, tables and rules of one scenario."""

    spec: ScenarioSpec
    house: HouseRules
    switches: dict[str, bool]
    types: UnitTypes
    grid: Grid
    terrain: dict[Square, str]
    roads: frozenset[Square]
    fords: frozenset[Square]
    trenches: frozenset[Square]
    objectives: tuple[Square, ...]
    woods: frozenset[Square] = frozenset()
    wood_of: dict[Square, int] = field(default_factory=dict)  # which wood a woods square is in
    _sight: dict[tuple[Square, Square], bool] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, scenario: str, override: dict[str, Any] | None) -> World:
        from umpire.rulesets.portable.scenario import load_scenario

        house = house_rules(override)
        user = dict((override or {}).get("optional") or {})
        defaults = dataclasses.asdict(house_rules().optional)
        spec, switches, _ = load_scenario(scenario, defaults, user)
        terrain: dict[Square, str] = {}
        for t in spec.terrain:
            for sq in t.all_squares():
                terrain[sq] = t.kind
        return cls(
            spec=spec,
            house=house,
            switches=switches,
            types=unit_types(),
            grid=Grid(spec.grid.width, spec.grid.height),
            terrain=terrain,
            roads=frozenset(spec.roads),
            fords=frozenset(spec.fords),
            trenches=frozenset(spec.trenches),
            objectives=tuple(spec.objectives),
            woods=frozenset(sq for sq, k in terrain.items() if k == "woods"),
            wood_of=_woods(terrain),
        )

    # -- terrain ---------------------------------------------------------------------------
    def kind(self, square: Square) -> str:
        """open, woods, town, hill or river."""
        return self.terrain.get(square, "open")

    def same_wood(self, a: Square, b: Square) -> bool:
        """portable.terrain.woods.range: both squares lie in one wood (woods squares joined
        edge to edge), so fire between them is fire within a wood."""
        wood = self.wood_of.get(a)
        return wood is not None and wood == self.wood_of.get(b)

    def in_river(self, square: Square) -> bool:
        return self.terrain.get(square) == "river"

    def passable(self, square: Square) -> bool:
        """portable.terrain.river.impassable: a river is crossed only at a ford."""
        return self.grid.inside(square) and (
            self.terrain.get(square) != "river" or square in self.fords
        )

    def blocks_fire(self, square: Square) -> bool:
        """Woods, built-up areas and fortifications: fire leaves them only from their edge."""
        return self.terrain.get(square) in SIGHT_BLOCKERS or square in self.trenches

    def terrain_line_clear(self, a: Square, b: Square) -> bool:
        """portable.grid.line_of_sight: no woods or built-up square between the two centres;
        portable.grid.hill_sight: a hill between them blocks unless either end is on a hill."""
        key = (a, b) if a <= b else (b, a)
        found = self._sight.get(key)
        if found is None:
            terrain = self.terrain
            on_hill = terrain.get(a) == "hill" or terrain.get(b) == "hill"
            found = True
            for sq in squares_between(a, b):
                kind = terrain.get(sq)
                if kind in SIGHT_BLOCKERS or (kind == "hill" and not on_hill):
                    found = False
                    break
            self._sight[key] = found
        return found


def _woods(terrain: dict[Square, str]) -> dict[Square, int]:
    """Number each wood: woods squares that touch along an edge belong to the same wood."""
    found: dict[Square, int] = {}
    for start in sorted(sq for sq, k in terrain.items() if k == "woods"):
        if start in found:
            continue
        wood = len(set(found.values()))
        todo = [start]
        found[start] = wood
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if terrain.get(n) == "woods" and n not in found:
                    found[n] = wood
                    todo.append(n)
    return found


def load_world(scenario: str, override: Mapping[str, Any] | None) -> World:
    """The world of ``scenario`` under the house-rules ``override``, built once and shared."""
    return _load_world(scenario, json.dumps(override or {}, sort_keys=True))


@lru_cache(maxsize=64)
def _load_world(scenario: str, override_json: str) -> World:
    override = json.loads(override_json)
    return World.load(scenario, override or None)


def world_of(state: PortableState) -> World:
    """The static side of this game (kept on the state after the first look-up)."""
    found = state.world_memo
    if found is None:
        found = state.world_memo = load_world(state.scenario, state.options.get("house_rules"))
    assert isinstance(found, World)
    return found
