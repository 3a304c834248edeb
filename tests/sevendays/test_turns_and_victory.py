"""Initiative, turning to face, and the Meeting Engagement's end-of-game victory."""

from __future__ import annotations

from umpire.core.actions import Action
from umpire.rulesets.sevendays.turns import settle_initiative, start_turn
from umpire.rulesets.sevendays.victory import end_of_game

from ..conftest import MakeGame, unit


class FixedDice:
    """Dice that come up as the test says."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)

    def d(self, sides: int) -> int:
        return self.faces.pop(0)

    def dice(self, count: int, sides: int) -> list[int]:
        return [self.faces.pop(0) for _ in range(count)]


# rules: sevendays.initiative.roll
def test_initiative_dice_off_ties_roll_again(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)],
        pact=[unit("t", "t72a", 36, 40)],
        first_initiative="roll",
    )
    world, state = game.ruleset.world(game.state), game.state  # type: ignore[attr-defined]
    state.flow.turn = 2
    state.rng = FixedDice([3, 3, 2, 5])  # type: ignore[assignment]
    events = start_turn(world, state)
    rolls = [e for e in events if e.get("rule") == "sevendays.initiative.roll"]
    assert [r["dice"] for r in rolls] == [[3, 3], [2, 5]]
    assert not rolls[0]["success"] and state.flow.initiative == "pact"


# rules: sevendays.initiative.exhausted
def test_a_side_without_tokens_hands_over_the_initiative(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("t", "t72a", 36, 40)])
    world, state = game.ruleset.world(game.state), game.state  # type: ignore[attr-defined]
    state.flow.initiative = "nato"
    state.flow.pools = {"nato": 0, "pact": 2}
    events = settle_initiative(world, state)
    assert state.flow.initiative == "pact" and game.ruleset.to_act(state) == "pact"
    assert events[0]["rule"] == "sevendays.initiative.exhausted"


# rules: sevendays.move.turret
def test_a_support_team_turns_to_face_a_target_outside_its_arc(make_game: MakeGame) -> None:
    # a Milan team faces north (90); the enemy is due east, outside its 90-degree arc
    game = make_game(
        nato=[unit("m", "milan", 20, 20), unit("c", "chieftain-mk9", 5, 5)],
        pact=[unit("t", "t72a", 50, 20)],
    )
    game.apply(Action("activate", unit="nato-m"))
    turn = Action("turn", unit="nato-m", target="pact-t")
    assert turn in game.legal_actions()
    assert Action("atgm", unit="nato-m", target="pact-t") not in game.legal_actions()
    game.apply(turn)
    assert round(game.state.units["nato-m"].facing) == 0  # now facing east


# rules: sevendays.victory.meeting_engagement
def test_meeting_engagement_ends_on_objectives_then_bp_then_a_draw(make_game: MakeGame) -> None:
    objectives = [
        {"id": "a", "at": [10, 24]},
        {"id": "b", "at": [36, 24]},
        {"id": "c", "at": [60, 24]},
    ]
    game = make_game(
        nato=[
            unit("c", "chieftain-mk9", 10, 24),
            unit("d", "chieftain-mk9", 36, 24),
            unit("e", "chieftain-mk9", 40, 5),
        ],
        pact=[unit("t", "t72a", 60, 24), unit("u", "t72a", 60, 40)],
        objectives=objectives,
    )
    world, state = game.ruleset.world(game.state), game.state  # type: ignore[attr-defined]
    end_of_game(world, state)
    assert state.flow.outcome is not None
    assert (state.flow.outcome["winner"], state.flow.outcome["how"]) == ("nato", "objectives")
    # one objective each (b contested): the side that destroyed more BP wins
    state.flow.outcome = None
    state.units["pact-u"].x, state.units["pact-u"].y = 36, 25
    state.units["nato-e"].status = "destroyed"
    state.touch()
    end_of_game(world, state)
    assert state.flow.outcome is not None
    assert (state.flow.outcome["winner"], state.flow.outcome["how"]) == ("pact", "turn limit")
    state.flow.outcome = None
    state.units["nato-e"].status = "active"
    end_of_game(world, state)
    assert state.flow.outcome is not None and state.flow.outcome["winner"] == "draw"
