"""Rule switches in the Portable Wargame: each guarded rule under enforce, advise and off
(issue 21). The positions are the ones the rulebook's wording forbids (seed 'Firing' e),
'Movement' b) and f), 'Artillery Fire' e))."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.portable.helpers import act_as, make, move, st, unit
from tests.switches.helpers import MODES, check_modes
from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.rulesets.portable.turns import end_activation


@pytest.mark.parametrize("mode", MODES)
def test_fire_arc(tmp_path: Path, mode: str) -> None:
    """portable.fire.arc (seed 'Firing' e): a unit fires only within its 90-degree arc; C2 is
    beside an infantry unit in E2 facing north."""

    def build(options: dict[str, Any]) -> Game:
        game = make(
            tmp_path, [unit("i", "infantry", "E2")], [unit("r", "infantry", "C2")], options=options
        )
        act_as(game, "blue-i")
        return game

    fire = Action("fire", unit="blue-i", target="red-r")
    check_modes(build, fire, "portable.fire.arc", mode, acting="blue", other="red")


@pytest.mark.parametrize("mode", MODES)
def test_fire_line_of_sight(tmp_path: Path, mode: str) -> None:
    """portable.fire.line_of_sight (seed 'Definitions', direct line of sight): a woods square
    between the firer and its target blocks the shot."""

    def build(options: dict[str, Any]) -> Game:
        game = make(
            tmp_path,
            [unit("i", "infantry", "E2")],
            [unit("r", "infantry", "E4")],
            terrain=[{"kind": "woods", "squares": ["E3"]}],
            options=options,
        )
        act_as(game, "blue-i")
        return game

    fire = Action("fire", unit="blue-i", target="red-r")
    check_modes(build, fire, "portable.fire.line_of_sight", mode, acting="blue", other="red")


@pytest.mark.parametrize("mode", MODES)
def test_move_stacking(tmp_path: Path, mode: str) -> None:
    """portable.move.stacking (seed 'Movement' f): an infantry unit may not end its move in a
    square with another friendly infantry unit."""

    def build(options: dict[str, Any]) -> Game:
        game = make(
            tmp_path,
            [unit("a", "infantry", "D2"), unit("b", "infantry", "D3")],
            [unit("r", "infantry", "J10")],
            options=options,
        )
        act_as(game, "blue-a")
        return game

    check_modes(
        build, move("blue-a", "D3"), "portable.move.stacking", mode, acting="blue", other="red"
    )


@pytest.mark.parametrize("mode", MODES)
def test_activation_once(tmp_path: Path, mode: str) -> None:
    """portable.activation.once (seed 'Movement' b), 'Firing' b)): a unit is activated at
    most once a turn; after its activation ends, activating it again breaks the rule."""

    def build(options: dict[str, Any]) -> Game:
        game = make(
            tmp_path,
            [unit("a", "infantry", "D2"), unit("b", "infantry", "F2")],
            [unit("r", "infantry", "J10")],
            options=options,
        )
        act_as(game, "blue-a")
        end_activation(st(game))
        return game

    again = Action("activate", unit="blue-a")
    check_modes(build, again, "portable.activation.once", mode, acting="blue", other="red")


@pytest.mark.parametrize("mode", MODES)
def test_artillery_arc(tmp_path: Path, mode: str) -> None:
    """portable.artillery.arc (seed 'Artillery Fire' e): a gun fires within its 90-degree
    arc; a field gun facing east may not declare fire at a target straight north of it."""

    def build(options: dict[str, Any]) -> Game:
        game = make(
            tmp_path,
            [
                unit("g", "artillery", "E1", artillery="field", facing="E"),
                unit("h", "artillery", "H1", artillery="field"),  # keeps the phase open
            ],
            [unit("r", "infantry", "E6")],
            options=options,
        )
        return game

    bombard = Action("bombard", unit="blue-g", target="red-r")
    check_modes(build, bombard, "portable.artillery.arc", mode, acting="blue", other="red")


@pytest.mark.parametrize("mode", MODES)
def test_the_odds_of_a_shot_follow_the_switch(tmp_path: Path, mode: str) -> None:
    """The menu line's odds come from the same plan the switch lets through: a shot out of
    arc has no odds while the arc is enforced, and the usual ones (1d6 needing 5, +1 for not
    having moved: 50%) under advise or off."""
    game = make(
        tmp_path,
        [unit("i", "infantry", "E2")],
        [unit("r", "infantry", "C2")],
        options={"rule_switches": {"portable.fire.arc": mode}},
    )
    act_as(game, "blue-i")
    line = game.describe(Action("fire", unit="blue-i", target="red-r"))
    if mode == "enforce":
        assert "P(hit)" not in line
    else:
        assert line.endswith(
            "in C2: 1d6 need 5 [+1 not moved], P(hit) 50%"
            + (" [advice: against portable.fire.arc]" if mode == "advise" else "")
        )
