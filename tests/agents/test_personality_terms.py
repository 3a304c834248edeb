"""What the personality sliders make the search want (issue 17: "aggression, caution,
objective focus, cohesion ... presets move distance-to-enemy, losses, exposure and objective
time in the stated direction").

These check the evaluation the search optimises on hand-made Portable Crossroads positions,
against the rules the terms stand for: weapon ranges (portable.fire.range: small arms 3, tank
guns 4, counted orthogonally through square edges), the exhaustion point (a third of the
initial SP, rounded up: 5 of Crossroads' 15, portable.exhaustion.point) and the scenario's
objectives (D1 and E6). The measured effect on play over hundreds of games is
``bench/bench_personality.py`` (docs/search-ai.md), not a unit test.
"""

from __future__ import annotations

from typing import Any

import umpire
from umpire.agents import make_agent
from umpire.agents.search.evaluate import (
    Evaluation,
    _placed,
    _positions,
    evaluate,
    generic,
    loss_fraction,
)
from umpire.agents.search.personality import PRESETS
from umpire.play import LazyActions

GAME = "portable/crossroads"


def _game(seed: int = 1) -> Any:
    return umpire.new_game(GAME, seed=seed)


def _put(state: Any, where: dict[str, tuple[int, int]]) -> None:
    for uid, (x, y) in where.items():
        unit = state.units[uid]
        unit.x, unit.y = x, y


def _value(state: Any, ruleset: Any, preset: str, side: str = "blue") -> Evaluation:
    return generic(ruleset, state, side, PRESETS[preset])


def _term(evaluation: Evaluation, name: str) -> float:
    return next(t.value for t in evaluation.terms if t.name == name)


# every unit of both sides parked in two rows far apart: blue on row 1 (y = 0), red on row 6
_APART = {
    "blue-hq": (3, 0),
    "blue-inf-1": (0, 0),
    "blue-inf-2": (1, 0),
    "blue-mg": (2, 0),
    "blue-tank": (7, 0),
    "red-hq": (4, 5),
    "red-inf-1": (5, 5),
    "red-inf-2": (6, 5),
    "red-mg": (0, 5),
    "red-tank": (7, 5),
}


def test_losses_past_the_exhaustion_point_still_count() -> None:
    # Crossroads: 15 SP a side, exhaustion point 5 (portable.exhaustion.point)
    assert loss_fraction({"sp_lost": 5, "exhaustion_point": 5})[0] == 1.0
    assert loss_fraction({"sp_lost": 7, "exhaustion_point": 5})[0] == 7 / 5
    game = _game()
    state = game.state
    _put(state, _APART)
    before = _value(state, game.ruleset, "cautious")
    state.units["blue-inf-1"].sp = 0  # 4 SP lost ...
    state.units["blue-inf-1"].status = type(state.units["blue-inf-1"].status)("destroyed")
    state.units["blue-inf-2"].sp = 1  # ... and 3 more: 7 lost, past the point
    at_seven = _value(state, game.ruleset, "cautious")
    state.units["blue-inf-2"].sp = 0
    state.units["blue-inf-2"].status = state.units["blue-inf-1"].status
    at_eight = _value(state, game.ruleset, "cautious")
    assert game.ruleset.summary(state)["losses"]["blue"]["sp_lost"] == 8
    assert _term(at_eight, "own losses") < _term(at_seven, "own losses") < 0.0
    assert at_eight.value < at_seven.value < before.value


def test_caution_dislikes_standing_in_reach_and_aggression_likes_it() -> None:
    game = _game()
    state = game.state
    _put(state, _APART)
    # every red unit 5 squares from every blue one it faces: beyond the tank gun's 4
    out_of_reach = {p: _value(state, game.ruleset, p) for p in PRESETS}
    assert "0 of 5 own units in reach" in next(
        t.words for t in out_of_reach["cautious"].terms if t.name == "exposure"
    )
    # red infantry steps to D3 (3, 2): its small arms (range 3) reach blue's HQ on D1 (2
    # squares) and MG on C1 (1 + 2 = 3), not the infantry on B1 (2 + 2 = 4) nor A1 or H1
    _put(state, {"red-inf-1": (3, 2)})
    in_reach = {p: _value(state, game.ruleset, p) for p in PRESETS}
    words = next(t.words for t in in_reach["cautious"].terms if t.name == "exposure")
    assert words.startswith("2 of 5 own units in reach")
    assert _term(in_reach["cautious"], "exposure") < _term(out_of_reach["cautious"], "exposure")
    assert in_reach["cautious"].value < out_of_reach["cautious"].value
    assert in_reach["aggressive"].value > out_of_reach["aggressive"].value


def test_objective_focus_wants_to_stand_on_the_objectives() -> None:
    game = _game()
    state = game.state
    _put(state, _APART)  # blue's HQ on D1, red's on E6: each side on its own objective
    on = {p: _value(state, game.ruleset, p) for p in PRESETS}
    assert "own units on 1 of 2 objectives" in next(
        t.words for t in on["objective"].terms if t.name == "objective ground"
    )
    _put(state, {"blue-hq": (3, 1)})  # the HQ steps off D1 to D2
    off = {p: _value(state, game.ruleset, p) for p in PRESETS}
    drop = {p: on[p].value - off[p].value for p in PRESETS}
    assert drop["objective"] > drop["balanced"] > 0.0
    assert drop["objective"] > drop["cautious"]
    # nearer to the enemy's objective E6 (4, 5) is better, by more for the objective preset
    _put(state, {"blue-tank": (6, 0)})
    far = {p: _value(state, game.ruleset, p) for p in ("objective", "balanced")}
    _put(state, {"blue-tank": (5, 3)})
    near = {p: _value(state, game.ruleset, p) for p in ("objective", "balanced")}
    gain = {p: _term(near[p], "objective ground") - _term(far[p], "objective ground") for p in near}
    assert gain["objective"] > gain["balanced"] > 0.0


def test_a_taken_objective_leaves_the_objective_preset_able_to_tell_its_moves_apart() -> None:
    # Portable: an objective belongs to the last side to stand on it, and objectives held
    # decide the battle first (portable.victory.result). Blue has taken red's E6 as well as
    # its own D1; standing on E6 must still be worth something to the objective preset (the
    # objective 8 preset scored every such position about 100 % and stood on objectives no
    # longer than balanced)
    game = _game()
    state = game.state
    _put(state, _APART)
    _put(state, {"red-hq": (5, 4), "blue-tank": (4, 5)})  # blue's tank on E6, red's HQ beside
    state.holders = {"D1": "blue", "E6": "blue"}
    held = {p: _value(state, game.ruleset, p) for p in ("objective", "balanced")}
    assert "objectives held 2 against 0" in next(
        t.words for t in held["objective"].terms if t.name == "objectives"
    )
    # objective focus past balanced weighs the ground, not the holding: the same held term
    assert _term(held["objective"], "objectives") == _term(held["balanced"], "objectives")
    _put(state, {"blue-tank": (4, 4)})  # the tank steps off E6 to E5
    off = {p: _value(state, game.ruleset, p) for p in ("objective", "balanced")}
    drop = {p: held[p].value - off[p].value for p in held}
    assert drop["objective"] > 0.02  # well above what one playout's value is rounded to
    assert drop["objective"] > drop["balanced"] > 0.0


def _ended(state: Any, winner: str) -> None:
    state.turn_info.outcome = {"winner": winner, "how": "turn limit", "objectives": {}}


def test_a_decided_game_still_prefers_the_better_position() -> None:
    # the search scores a finished game by its result; among moves that all end in the same
    # result it should still keep the better position (here: the HQ on its own objective D1)
    game = _game()
    state = game.state
    _put(state, _APART)
    for winner, low, high in (("red", 0.0, 0.05), ("blue", 0.95, 1.0), ("draw", 0.45, 0.55)):
        _ended(state, winner)
        _put(state, {"blue-hq": (3, 0)})
        on = evaluate(game.ruleset, state, "blue", PRESETS["objective"])
        _put(state, {"blue-hq": (3, 1)})
        off = evaluate(game.ruleset, state, "blue", PRESETS["objective"])
        assert low <= off.value < on.value <= high, winner
        assert on.terms[0].name == "result"
    # every win still beats every loss: the best lost position against the worst won one
    _ended(state, "red")
    _put(state, {"blue-hq": (3, 0)})
    best_lost = evaluate(game.ruleset, state, "blue", PRESETS["objective"]).value
    _ended(state, "blue")
    _put(state, {"blue-hq": (6, 2)})
    worst_won = evaluate(game.ruleset, state, "blue", PRESETS["objective"]).value
    assert best_lost < 0.5 < worst_won


def test_positions_read_from_the_state_are_the_observations() -> None:
    # Portable has perfect information: the fast path must give exactly what the side's
    # observation shows, at every position of a played game, for both sides
    game = _game(7)
    players = {s: make_agent("scripted", "portable", s, 7) for s in game.ruleset.meta.players}
    checked = 0
    while game.to_act is not None:
        for side in ("blue", "red"):
            rows = game.ruleset.observation(game.state, side)["units"]
            assert _placed(game.ruleset, game.state, side) == _positions(rows, side)
            checked += 1
        mover = game.to_act
        game.apply(players[mover].choose(game.view(mover), LazyActions(game)))
    assert checked > 100
    final = _placed(game.ruleset, game.state, "blue")
    assert final[0] and final[1]
