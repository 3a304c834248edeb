"""The terminal's map and place names: drawn only from what the viewing side may see."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from umpire.core.game import Game, new_game
from umpire.terminal.drawing import board_for, drawing
from umpire.terminal.places import Places, compass
from umpire.terminal.session import Session, TerminalPlayer
from umpire.terminal.tablemap import TableMap


def _with_state(game: Game, state: Any) -> Game:
    """A copy of ``game`` whose true position is ``state`` (same ruleset, scenario, seed)."""
    twin = game.branch()
    twin.state = state
    return twin


def _hidden_enemies(game: Game, side: str) -> list[tuple[str, float, float]]:
    return sorted(
        (u.uid, u.x, u.y) for u in game.state.units.values() if u.hidden and u.side != side
    )


def test_capture_map_for_pact_is_the_same_whatever_the_hidden_british_truth() -> None:
    """Capture: the British deploy as hidden markers (scenario data, sevendays/capture). PACT's
    map must not change when the hidden units are dealt elsewhere or are other units."""
    game = new_game("sevendays/capture", seed=4)
    hidden = _hidden_enemies(game, "pact")
    assert len(hidden) >= 2
    seen = str(drawing(game, "pact"))
    assert "hidden markers:" in seen and "?" in seen
    rng = random.Random(3)
    truths = set()
    for _ in range(5):
        twin = _with_state(game, game.ruleset.resample(game.state, "pact", rng))
        truths.add(tuple(_hidden_enemies(twin, "pact")))
        assert str(drawing(twin, "pact")) == seen
    assert len(truths) > 1, "the re-sampling never moved a hidden unit: the test proves nothing"
    # the hidden truth changed by hand: one hidden unit becomes another kind, renamed
    changed = game.ruleset.clone(game.state)
    first, second = (changed.units[h[0]] for h in hidden[:2])
    first.profile = second.profile
    first.name = "Secret Squirrel"
    assert str(drawing(_with_state(game, changed), "pact")) == seen
    uid = hidden[0][0]
    # NATO sees its own units by name; PACT's map names none of them
    own = str(drawing(game, "nato"))
    name = game.state.units[uid].name
    assert name in own and name not in seen


def test_table_map_labels_every_unit_the_viewer_sees_and_fits_80_columns() -> None:
    game = new_game("sevendays/meeting-engagement", seed=1)
    board = board_for(game, "nato")
    assert board is not None
    table = TableMap(board, game.ruleset.meta.players, viewer="nato")
    text = table.text().plain
    map_lines = [line for line in text.splitlines() if re.match(r"^ *\d+ [^ ]", line)]
    assert len(map_lines) == table.rows
    assert max(len(line) for line in map_lines) <= 80
    units = board["units"]
    labels = table.labels
    assert len(set(labels.values())) == len(units)  # one label each, none shared
    grid = "".join("".join(c for c, _ in row) for row in table.grid())
    for unit in units:
        assert labels[unit["id"]] in grid
        assert unit["name"] in text  # the roster names it
    # the objectives and a wood are drawn, and the key says what the marks are
    assert "*" in grid and "♣" in grid and "key:" in text


def test_places_name_the_nearest_landmark_with_distance_and_bearing() -> None:
    board = {
        "unit": "inch",
        "width": 48.0,
        "height": 48.0,
        "objectives": [{"id": "church", "x": 10.0, "y": 10.0}],
        "terrain": [
            {"id": "big-wood", "kind": "woods", "points": [[30, 30], [40, 30], [40, 40], [30, 40]]}
        ],
    }
    places = Places(board)
    assert places.name(10.0, 22.0) == '12" N of church'
    assert places.name(35.0, 35.0) == "in big-wood"
    assert places.name(10.4, 10.0) == "at church"
    assert places.name(45.0, 35.0) == '5" E of big-wood'  # from the wood's edge, not its middle
    assert compass(-1, -1) == "SW" and compass(0, 1) == "N"
    text = "moves to (10.0, 22.0) and stops"
    assert places.rewrite(text, [(10.0, 22.0)]) == 'moves to 12" N of church (10, 22) and stops'
    assert places.rewrite("moves to (35.0, 35.0)") == "moves into big-wood (35, 35)"


def test_seven_days_menu_names_a_place_for_every_point(capsys: pytest.CaptureFixture[str]) -> None:
    from rich.console import Console

    game = new_game("sevendays/meeting-engagement", seed=1)
    session = Session(game, Console(), {"nato": "human", "pact": "human"})
    player = TerminalPlayer(game.to_act or "", Console(), session)
    # play on until a menu offers moves to points
    from umpire.agents.base import RandomAgent

    agent = RandomAgent(2)
    for _ in range(40):
        legal = game.legal_actions()
        if any(a.point is not None for a in legal):
            break
        side = game.to_act
        assert side is not None
        game.apply(agent.choose(game.view(side), legal))
    side = game.to_act
    assert side is not None
    player.side = side
    legal = game.legal_actions()
    pointed = [i for i, a in enumerate(legal) if a.point is not None]
    assert pointed, "no move offered in 40 actions"
    lines = player.lines(legal)
    for index in pointed:
        line = lines[index]
        match = re.search(r" \((-?[\d.]+), (-?[\d.]+)\)", line)
        assert match, line
        before = line[: match.start()]
        assert re.search(r'(\d+" [NESW]{1,2} of \S+|into \S+|up to \S+|at \S+)$', before), line


def test_portable_grid_fits_80_columns_on_every_scenario() -> None:
    from umpire.core.ruleset import get_ruleset

    ruleset = get_ruleset("portable")
    for scenario in ruleset.scenario_ids():
        game = new_game(f"portable/{scenario}", seed=1)
        picture = drawing(game, "blue")
        assert isinstance(picture, str)
        assert max(len(line) for line in picture.splitlines()) <= 80, scenario
        # every unit on the board still shows its tag (side, type, SP, facing)
        from umpire.rulesets.portable.render import unit_tag

        for unit in game.state.units.values():
            if unit.alive and unit.carried_by is None and not unit.air:
                assert unit_tag(unit) in picture, (scenario, unit.uid)


@pytest.mark.parametrize("scenario", ["autobahn-gap", "kinzig-valley"])
def test_rhine_hex_map_fits_80_columns_and_shows_every_stack(scenario: str) -> None:
    from umpire.terminal.hexmap import _column_x

    game = new_game(f"rhine/{scenario}", seed=1)
    board = board_for(game, "nato")
    assert board is not None and board["layout"] == "hex"
    picture = drawing(game, "nato")
    assert isinstance(picture, str)
    lines = picture.splitlines()
    rows = lines[1 : 1 + 2 * int(board["height"])]
    assert max(len(line) for line in lines if not line.startswith("river")) <= 80
    for hex_id, stack in board["stacks"].items():
        column, row = int(hex_id[:2]), int(hex_id[2:])
        line = rows[2 * (row - 1) + (0 if column % 2 == 1 else 1)]
        x = 3 + _column_x(column)
        side = board["units"][[u["id"] for u in board["units"]].index(stack[0])]["side"]
        assert line[x + 1 : x + 3] == f"{side[0].upper()}{len(stack)}", hex_id
        listed = next(item for item in lines if item.startswith(f"  {hex_id}: "))
        assert all(uid in listed for uid in stack)
