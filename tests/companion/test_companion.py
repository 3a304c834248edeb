"""Companion mode (issue 21): whole games played from a script of entered positions and dice.

The issue's "done when": a whole Seven Days Capture game and a whole Portable game are played
end to end from a script of entered positions and dice, replay identically from the record, and
agree with the digital game given the same outcomes; an impossible roll, an off-table position
or an unknown unit is a one-line refusal and nothing entered is lost (Ctrl-C and resume).
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest

from tests.companion.script import (
    Player,
    digital_game,
    entered_command,
    script_for,
    script_with_cards,
)
from umpire.companion.errors import QuitCompanion
from umpire.companion.session import Companion
from umpire.core.errors import DataFileError, RecordMismatchError
from umpire.core.game import load_record, new_game, replay
from umpire.core.record import Record
from umpire.core.ruleset import get_ruleset, ruleset_ids

GAMES = [("sevendays/capture", "nato"), ("portable/armoured-meeting", "blue")]


def _texts(game: object) -> list[str]:
    return [e.text for e in game.events]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game_id", "me"), GAMES)
def test_whole_game_from_a_script_agrees_with_the_digital_game_and_replays(
    tmp_path: Path, game_id: str, me: str
) -> None:
    digital, commands, faces, sides = script_for(game_id, 1, me)
    assert digital.is_over
    positions = [c for c in commands if not c.isdigit()]
    assert positions, "the script enters positions measured on the table"
    player = Player(commands, faces)
    path = tmp_path / "game.json"
    companion = Companion.start(game_id, 1, sides(path), path, player.read, player.write)
    data = companion.run()
    # every command and every face typed was used, and the games are the same
    assert not player.commands and not player.faces
    assert _texts(companion.game) == _texts(digital)
    assert companion.game.to_dict() == digital.to_dict()
    assert data["winner"] == str(digital.outcome.winner)  # type: ignore[union-attr]
    # the record holds the entered faces and replays identically through core.game.replay
    record = load_record(path)
    assert record.entered is not None and len(record.entered) == len(record.actions)
    entered = [f for step in record.entered for e in step for f in e.get("faces", [])]
    assert entered == faces
    again = replay(record)
    assert _texts(again) == _texts(digital)
    assert again.to_dict() == digital.to_dict()
    # the player was told which dice to roll and for which rule
    assert any(line.strip().startswith("roll ") and " for " in line for line in player.lines)


def test_ai_steps_name_the_move_on_the_table(tmp_path: Path) -> None:
    digital, commands, faces, sides = script_for("sevendays/capture", 1, "nato")
    player = Player(commands, faces)
    path = tmp_path / "g.json"
    Companion.start("sevendays/capture", 1, sides(path), path, player.read, player.write).run()
    steps = [line for line in player.lines if line.startswith("PACT: move ")]
    assert steps and all(" - move it from (" in s and " on the table" in s for s in steps)
    # the card exchange of the AI is a secret: its cards are never named to NATO
    assert "PACT decides:" in player.lines
    assert not any(line.startswith("PACT: exchange") for line in player.lines)


def _refusals(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("refused:")]


def test_impossible_rolls_off_table_positions_and_unknown_units_are_one_line_refusals(
    tmp_path: Path,
) -> None:
    game_id = "portable/armoured-meeting"
    digital, commands, faces, sides = script_for(game_id, 1, "blue")
    first_move = next(i for i, c in enumerate(commands) if c.startswith("move "))
    bad_commands = ["move B-ac Z99", "move B-ac M1", "move B-nobody C4", "los B-ac Q40"]
    player = Player(commands, faces)
    player.before_command[first_move] = list(bad_commands)
    player.extra["1d6> "] = deque(["7", "0", "3 4", "six"])  # at the first 1d6 asked
    path = tmp_path / "g.json"
    companion = Companion.start(game_id, 1, sides(path), path, player.read, player.write)
    companion.run()
    refusals = _refusals(player.lines)
    assert len(refusals) == len(bad_commands) + 4  # exactly one line each
    assert any(r.startswith("refused: Z99 is off the board") for r in refusals)
    assert any("M1 is off the board" in r for r in refusals)  # the board is 12 x 9 (A1-L9)
    assert any("no unit of yours called 'B-nobody'" in r for r in refusals)
    assert any("7 is not a face of a d6" in r for r in refusals)
    assert any("0 is not a face of a d6" in r for r in refusals)
    assert any("2 face(s) entered for 1d6" in r for r in refusals)
    assert any("'six' is not a die face" in r for r in refusals)
    # nothing entered was lost: the game is the digital game
    assert companion.game.to_dict() == digital.to_dict()


def test_an_off_table_position_on_a_continuous_table(tmp_path: Path) -> None:
    game_id = "sevendays/capture"
    digital, commands, faces, sides = script_for(game_id, 1, "nato")
    player = Player(commands, faces)
    player.before_command[0] = ["los chieftain-1 80,10", "range chieftain-1 10,-1", "sees nobody"]
    path = tmp_path / "g.json"
    companion = Companion.start(game_id, 1, sides(path), path, player.read, player.write)
    companion.run()
    refusals = _refusals(player.lines)
    assert refusals == [
        "refused: (80, 10) is off the table (table: 72 x 48 inches; positions are x,y inches "
        "from the bottom-left corner)",
        "refused: (10, -1) is off the table (table: 72 x 48 inches; positions are x,y inches "
        "from the bottom-left corner)",
        "refused: no unit called 'nobody' on the table (see 'units')",
    ]
    assert companion.game.to_dict() == digital.to_dict()


@pytest.mark.parametrize(("game_id", "me"), GAMES)
def test_ctrl_c_in_the_middle_of_the_dice_and_resume_lose_nothing(
    tmp_path: Path, game_id: str, me: str
) -> None:
    digital, commands, faces, sides = script_for(game_id, 1, me)
    player = Player(commands, faces)
    path = tmp_path / "g.json"
    companion = Companion.start(game_id, 1, sides(path), path, player.read, player.write)
    # Ctrl-C at the 40th prompt that asks for dice, after some faces of the action were typed
    dice_prompts = 0
    read = player.read

    def interrupting(prompt: str) -> str:
        nonlocal dice_prompts
        if prompt[0].isdigit():
            dice_prompts += 1
            if dice_prompts == 40:
                raise KeyboardInterrupt
        return read(prompt)

    companion.read = interrupting
    with pytest.raises(QuitCompanion):
        companion.run()
    saved = json.loads(path.read_text())
    assert saved["companion"]["pending"] is not None  # the action being rolled for is kept
    resumed = Companion.resume(path, player.read, player.write)
    resumed.run()
    assert not player.commands and not player.faces
    assert resumed.game.to_dict() == digital.to_dict()
    assert _texts(replay(load_record(path))) == _texts(digital)


def test_undo_lists_what_to_put_back_on_the_table(tmp_path: Path) -> None:
    game_id = "portable/armoured-meeting"
    digital, commands, faces, sides = script_for(game_id, 1, "blue")
    first_move = next(i for i, c in enumerate(commands) if c.startswith("move "))
    player = Player(commands, faces)
    # after the first move, undo (back to before it) and enter it again
    player.before_command[first_move + 1] = ["undo", commands[first_move]]
    path = tmp_path / "g.json"
    companion = Companion.start(game_id, 1, sides(path), path, player.read, player.write)
    companion.run()
    at = player.lines.index("undone 1 action(s); on the table:")
    assert player.lines[at + 1] == "  - move B-ac (Armoured Cars) back from C4 to E2"
    assert companion.game.to_dict() == digital.to_dict()


def test_a_tampered_record_is_refused_on_replay(tmp_path: Path) -> None:
    digital, commands, faces, sides = script_for("portable/armoured-meeting", 1, "blue")
    player = Player(commands, faces)
    path = tmp_path / "g.json"
    Companion.start(
        "portable/armoured-meeting", 1, sides(path), path, player.read, player.write
    ).run()
    raw = json.loads(path.read_text())
    step = next(s for s in raw["entered"] if s and "faces" in s[0])
    step[0]["faces"] = [7] * len(step[0]["faces"])  # not a face of a d6
    with pytest.raises(RecordMismatchError):
        replay(Record.from_dict(raw))
    step.append({"faces": [1], "sides": 6})  # a die the rules never asked for
    step[0]["faces"] = [1] * len(step[0]["faces"])
    with pytest.raises(RecordMismatchError):
        replay(Record.from_dict(raw))


def test_the_ai_hidden_units_stay_with_umpire(tmp_path: Path) -> None:
    """Seven Days Capture from PACT's chair: NATO's units start hidden (capture.yaml) and the
    AI's orders for them are not shown; Umpire rolls their dice; the table is told only what
    PACT may read (its log), and the game still agrees with the digital one."""
    digital, commands, faces, sides = script_for("sevendays/capture", 1, "pact")
    player = Player(commands, faces)
    path = tmp_path / "g.json"
    companion = Companion.start(
        "sevendays/capture", 1, sides(path), path, player.read, player.write
    )
    companion.run()
    assert not player.faces and companion.game.to_dict() == digital.to_dict()
    assert "NATO acts with a unit you cannot see (Umpire keeps it)" in player.lines
    told = [line[4:] for line in player.lines if line.startswith("  - ")]
    assert told == [e.text for e in digital.log("pact") if e.text]
    hidden_only = {e.text for e in digital.events} - {e.text for e in digital.log("pact")}
    assert hidden_only and not hidden_only & set(player.lines)


def test_a_position_measured_on_the_table_need_not_be_one_umpire_proposed(
    tmp_path: Path,
) -> None:
    """Seven Days moves are measured (sevendays.move.normal: up to the normal move): any point
    within it is taken as typed; one beyond it is refused in one line naming the rule."""
    digital, commands, faces, sides = script_for("sevendays/capture", 1, "nato")
    first_move = next(i for i, c in enumerate(commands) if c.startswith("move "))
    kind, unit, where = commands[first_move].split()
    x, y = (float(v) for v in where.split(","))
    player = Player(commands[:first_move], faces)
    start = next(
        (float(u["x"]), float(u["y"]))
        for u in digital.branch(0).observation("nato")["units"]
        if u.get("uid") == unit
    )
    # half way along the proposed move, and 30" away: too far for any move
    halfway = f"{(start[0] + x) / 2:.2f},{(start[1] + y) / 2:.2f}"
    too_far = f"{min(start[0] + 30, 71):.1f},{start[1]:.1f}"
    player.before_command[first_move] = [f"move {unit} {too_far}", f"move {unit} {halfway}"]
    path = tmp_path / "g.json"
    companion = Companion.start(
        "sevendays/capture", 1, sides(path), path, player.read, player.write
    )
    with pytest.raises(QuitCompanion):
        companion.run()
    refusals = _refusals(player.lines)
    assert len(refusals) == 1 and "[rule sevendays.move.normal]" in refusals[0]
    moved = [a for a in load_record(path).actions if a.kind == "move" and a.unit == unit]
    assert moved and moved[-1].point == tuple(float(v) for v in halfway.split(","))


def test_umpire_may_roll_the_ai_dice(tmp_path: Path) -> None:
    """--ai-dice umpire: the AI's rolls come from the game's own stream (still recorded); as
    the stream is kept in step with the entered dice, the game is still the digital game."""
    game_id = "portable/armoured-meeting"
    digital, commands, _, sides = script_for(game_id, 1, "blue")
    _, _, actors, rolled, _ = digital_game(game_id, 1)
    mine = [f for side, faces in zip(actors, rolled, strict=True) if side == "blue" for f in faces]
    player = Player(commands, mine)
    path = tmp_path / "g.json"
    companion = Companion.start(
        game_id, 1, sides(path), path, player.read, player.write, ai_dice="umpire"
    )
    companion.run()
    assert not player.faces and not player.commands
    assert companion.game.to_dict() == digital.to_dict()
    record = load_record(path)
    assert record.entered is not None
    assert [f for s in record.entered for e in s for f in e.get("faces", [])] == [
        f for faces in rolled for f in faces
    ]
    assert _texts(replay(record)) == _texts(digital)


def test_cards_drawn_from_a_physical_deck_book_and_gun(tmp_path: Path) -> None:
    """The Book and The Gun draws casualty cards (core.chance.Draw) and activation cards
    (core.deck.Deck): at the table the players draw them and type them in; the game is the
    digital game and replays from the record."""
    game_id = "bookgun/convoy-ambush"
    digital, commands, faces, cards, sides = script_with_cards(game_id, 1, "army")
    assert cards
    player = Player(commands, faces, cards)
    path = tmp_path / "g.json"
    companion = Companion.start(game_id, 1, sides(path), path, player.read, player.write)
    companion.run()
    assert not player.commands and not player.faces and not player.cards
    assert any(line.strip().startswith("draw one card") for line in player.lines)
    assert _texts(companion.game) == _texts(digital)
    assert companion.game.to_dict() == digital.to_dict()
    record = load_record(path)
    drawn = [e["item"] for step in record.entered or [] for e in step if "index" in e]
    # every card of the game: those typed at the table and those Umpire drew for hidden units
    assert drawn == [c for step in digital_game(game_id, 1)[4] for c in step]
    assert len(drawn) > len(cards)
    assert _texts(replay(record)) == _texts(digital)


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_two_ai_sides_with_umpire_dice_play_the_digital_game(
    tmp_path: Path, ruleset_id: str
) -> None:
    """Every ruleset: with both sides played by the AI and --ai-dice umpire every roll is
    Umpire's, recorded as entered, and the game is the digital game (and replays)."""
    scenario = get_ruleset(ruleset_id).scenario_ids()[0]
    game_id = f"{ruleset_id}/{scenario}"
    digital = digital_game(game_id, 1)[0]
    sides = {str(s): "scripted" for s in digital.ruleset.meta.players}
    path = tmp_path / "g.json"
    companion = Companion.start(
        game_id, 1, sides, path, _no_input, lambda line: None, ai_dice="umpire"
    )
    companion.run()
    assert companion.game.to_dict() == digital.to_dict()
    assert _texts(replay(load_record(path))) == _texts(digital)


def _no_input(prompt: str) -> str:
    raise AssertionError(f"nothing should be asked: {prompt}")


def test_a_re_roll_keeps_the_earlier_faces(tmp_path: Path) -> None:
    """Portable: a tied initiative roll is rolled again (portable.initiative.tie, the default
    house choice 'reroll'): the tie typed at the table stays in the log and the record, before
    the roll that decides, and the game replays with both."""
    game_id = "portable/armoured-meeting"
    digital, commands, faces, sides = script_for(game_id, 1, "blue")
    player = Player(commands, faces)
    player.extra["2d6> "] = deque(["3 3"])  # the first initiative roll is a tie
    path = tmp_path / "g.json"
    companion = Companion.start(game_id, 1, sides(path), path, player.read, player.write)
    companion.run()
    assert "  - Initiative tied 3-3: roll again" in player.lines
    record = load_record(path)
    rolls = [e["faces"] for step in record.entered or [] for e in step if e.get("sides") == 6]
    first_tie = rolls.index([3, 3])
    assert len(rolls[first_tie + 1]) == 2  # the roll again, typed next
    # apart from the tie, the game is the digital game (the roll again gave its faces)
    without_tie = [t for t in _texts(companion.game) if t != "Initiative tied 3-3: roll again"]
    assert without_tie == _texts(digital)
    again = replay(record)
    assert _texts(again) == _texts(companion.game)
    tie = _texts(again).index("Initiative tied 3-3: roll again")
    assert _texts(again)[tie + 1].startswith("Initiative: ")


def test_undo_branch_and_a_digital_continuation_keep_the_entered_dice(tmp_path: Path) -> None:
    """A companion record in the rest of Umpire: Game.undo/branch replay the typed faces, and
    a game continued digitally (umpire battle --resume) rolls on from the game's stream and
    still replays identically."""
    game_id = "portable/armoured-meeting"
    digital, commands, faces, sides = script_for(game_id, 1, "blue")
    player = Player(commands[:40], faces)
    path = tmp_path / "g.json"
    companion = Companion.start(game_id, 1, sides(path), path, player.read, player.write)
    with pytest.raises(QuitCompanion):
        companion.run()
    game = replay(load_record(path))
    played = len(game.record.actions)
    assert _texts(game.branch()) == _texts(game)
    game.undo(3)
    assert _texts(game) == _texts(companion.game.branch(played - 3))
    # continue digitally: the scripted players and the game's own dice
    from umpire.agents.base import make_agent

    agents = {s: make_agent("scripted", "portable", s, 1) for s in ("blue", "red")}
    for _ in range(30):
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    assert game.record.entered is not None and len(game.record.entered) < len(game.record.actions)
    again = replay(Record.from_dict(game.record.to_dict()))
    assert _texts(again) == _texts(game) and again.to_dict() == game.to_dict()
    # such a record is no longer a companion game: resuming it is refused in one line
    raw = game.record.to_dict()
    raw["companion"] = json.loads(path.read_text())["companion"]
    path.write_text(json.dumps(raw))
    with pytest.raises(DataFileError, match="not every action of this game was played"):
        Companion.resume(path, player.read, player.write)


def test_shots_typed_by_unit_and_target_names(tmp_path: Path) -> None:
    """Every NATO shot of a Capture game typed as `KIND UNIT TARGET` with the short ids the
    players read on the table (chieftain-1, t64b-2) instead of a menu number."""
    game_id = "sevendays/capture"
    digital, actions, actors, rolled, _ = digital_game(game_id, 1)
    replayed = new_game(game_id, 1)
    commands: list[str] = []
    typed = 0
    for side, action in zip(actors, actions, strict=True):
        if side == "nato":
            if action.target is not None and action.point is None and action.unit is not None:
                short = (action.unit.split("-", 1)[1], action.target.split("-", 1)[1])
                commands.append(f"{action.kind} {short[0]} {short[1]}")
                typed += 1
            else:
                commands.append(entered_command(replayed, action, False))
        replayed.apply(action)
    assert typed
    faces = [f for step in rolled for f in step]
    player = Player(commands, faces)
    path = tmp_path / "g.json"
    companion = Companion.start(
        game_id, 1, {"nato": "me", "pact": "scripted"}, path, player.read, player.write
    )
    companion.run()
    assert not _refusals(player.lines)
    assert companion.game.to_dict() == digital.to_dict()
