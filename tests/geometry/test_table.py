"""Table geometry: terrain line of sight, entering terrain, and the >50% obscured test."""

from __future__ import annotations

from shapely.geometry import Polygon

from umpire.geometry.table import Area, Table, TerrainKind, in_arc
from umpire.rulesets.sevendays.firing import ShotPlan, plan_shot
from umpire.rulesets.sevendays.los import sight

from ..conftest import MakeGame, unit

WOODS = TerrainKind(
    "woods", blocks_los=True, cover=True, obscures=True, see_into=2.0, going={"tracked": "rough"}
)
HILL = TerrainKind("hill", blocks_los=True, occupant_sees_over=True)


def _rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def test_woods_between_two_units_block_sight() -> None:
    table = Table(72, 48, [Area("w", WOODS, _rect(30, 20, 40, 28))])
    assert table.terrain_blocks((35, 10), (35, 40))
    assert not table.terrain_blocks((10, 10), (10, 40))


# rules: sevendays.los.area_edge
def test_unit_at_the_edge_of_woods_sees_out_but_not_from_deep_inside() -> None:
    table = Table(72, 48, [Area("w", WOODS, _rect(30, 20, 40, 40))])
    # 1.5" inside the southern edge: the line runs 1.5" through the wood -> sees out
    assert not table.terrain_blocks((35, 21.5), (35, 5))
    # 6" inside: beyond the 2" a unit can see through -> blocked
    assert table.terrain_blocks((35, 26), (35, 5))


def test_unit_on_a_hill_sees_over_it_but_the_hill_blocks_others() -> None:
    table = Table(72, 48, [Area("h", HILL, _rect(30, 20, 40, 30))])
    assert not table.terrain_blocks((35, 25), (35, 5))
    assert table.terrain_blocks((35, 35), (35, 5))


def test_entries_are_nearest_first() -> None:
    near = Area("near", WOODS, _rect(10, 10, 12, 30))
    far = Area("far", WOODS, _rect(20, 10, 22, 30))
    table = Table(72, 48, [far, near])
    entries = table.entries((5, 20), (30, 20))
    assert [e.area.id for e in entries] == ["near", "far"]
    assert abs(entries[0].distance - 5.0) < 1e-9


def test_arc_of_90_degrees() -> None:
    assert in_arc((0, 0), 90.0, 90.0, (0, 10))
    assert in_arc((0, 0), 90.0, 90.0, (4, 10))
    assert not in_arc((0, 0), 90.0, 90.0, (10, 1))


def test_more_than_half_obscured_is_obscured(make_game: MakeGame) -> None:
    """The documented >50% test (rule sevendays.los.obscured).

    Five sight lines run from the firer's centre to points spread across the target's 2"
    width. A wood clipping three of them (the centre and one side) obscures the target; one
    clipping only the outermost line does not. Neither case blocks sight, since the centre
    line decides that only when the wood covers it.
    """
    firer = unit("c", "scorpion", 36, 10)
    # wood 4"-6" north of the target, covering x <= 36.2: the centre line (x=36), the
    # left quarter (35.5) and the left edge (35) pass through it -> 3 of 5 -> obscured
    mostly = make_game(
        nato=[firer],
        pact=[unit("t", "t64b", 36, 30)],
        terrain=[{"id": "w", "kind": "rough", "rect": [30, 24, 36.2, 26]}],
    )
    world = mostly.ruleset.world(mostly.state)  # type: ignore[attr-defined]
    units = mostly.state.units
    seen = sight(world, mostly.state, units["nato-c"], units["pact-t"])
    assert seen.visible and seen.obscured

    # the same wood cut back to x <= 35.1: only the edge line crosses it -> 1 of 5 -> clear
    slightly = make_game(
        nato=[firer],
        pact=[unit("t", "t64b", 36, 30)],
        terrain=[{"id": "w", "kind": "rough", "rect": [30, 24, 35.1, 26]}],
    )
    world = slightly.ruleset.world(slightly.state)  # type: ignore[attr-defined]
    units = slightly.state.units
    seen = sight(world, slightly.state, units["nato-c"], units["pact-t"])
    assert seen.visible and not seen.obscured
    plan = plan_shot(world, slightly.state, units["nato-c"], units["pact-t"], "gun")
    assert isinstance(plan, ShotPlan)
    assert not any(m.rule == "sevendays.fire.modifier.cover" for m in plan.modifiers)


def test_vehicles_in_the_way_obscure_and_enemy_vehicles_block(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "scorpion", 36, 10), unit("f", "chieftain-mk9", 36, 20)],
        pact=[unit("t", "t64b", 36, 30)],
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    units = game.state.units
    # a friendly tank squarely in the way: sight, but obscured
    seen = sight(world, game.state, units["nato-c"], units["pact-t"])
    assert seen.visible and seen.obscured
    # from the T-64B's side that Chieftain is an enemy vehicle: it blocks
    assert not sight(world, game.state, units["pact-t"], units["nato-c"]).visible
