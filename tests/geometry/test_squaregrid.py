"""Square grid geometry: orthogonal distance, facing edges, 90-degree arcs, lines between
centres (portable.grid.orthogonal, portable.grid.arc, portable.grid.line_of_sight)."""

from __future__ import annotations

import pytest

from umpire.geometry.squaregrid import (
    Grid,
    adjacent,
    aspect,
    distance,
    facing_towards,
    in_arc,
    label,
    parse_label,
    squares_between,
    step,
    toward,
)


def test_distance_counts_edges_not_corners() -> None:
    assert distance((0, 0), (3, 4)) == 7
    assert distance((2, 2), (3, 3)) == 2  # a diagonal neighbour is two squares away
    assert adjacent((1, 1), (1, 2)) and not adjacent((1, 1), (2, 2))


def test_front_arc_runs_diagonal_to_diagonal() -> None:
    assert in_arc((5, 5), "N", (5, 8))
    assert in_arc((5, 5), "N", (8, 8)) and in_arc((5, 5), "N", (2, 8))  # diagonals included
    assert not in_arc((5, 5), "N", (8, 7))  # beyond the diagonal
    assert not in_arc((5, 5), "N", (5, 5))
    assert in_arc((5, 5), "N", (5, 2), "rear") and not in_arc((5, 5), "N", (5, 2))
    assert in_arc((5, 5), "E", (9, 6))


def test_aspect_front_flank_rear() -> None:
    assert aspect((5, 5), "N", (5, 6)) == "front"
    assert aspect((5, 5), "N", (6, 5)) == "flank"
    assert aspect((5, 5), "N", (5, 4)) == "rear"


def test_facing_and_steps() -> None:
    assert step((2, 2), "E") == (3, 2)
    assert facing_towards((2, 2), (2, 0)) == "S"
    assert facing_towards((2, 2), (5, 3)) == "E"
    assert toward((4, 4), (4, 0)) == (0, -1)
    assert toward((4, 4), (9, 5)) == (1, 0)


def test_line_between_centres() -> None:
    assert squares_between((0, 0), (3, 0)) == ((1, 0), (2, 0))
    # an exact diagonal passes through corners only: no square is crossed
    assert squares_between((0, 0), (2, 2)) == ((1, 1),)
    assert squares_between((0, 0), (1, 1)) == ()
    line = squares_between((0, 0), (4, 2))
    assert (1, 0) in line and (3, 2) in line and (2, 1) in line


def test_labels_round_trip() -> None:
    assert label((2, 3)) == "C4"
    assert parse_label("c4") == (2, 3)
    with pytest.raises(ValueError):
        parse_label("4C")


def test_grid_within_and_neighbours() -> None:
    grid = Grid(4, 3)
    assert sorted(grid.neighbours((0, 0))) == [(0, 1), (1, 0)]
    assert len(grid.within((1, 1), 1)) == 5
    assert not grid.inside((4, 0))
