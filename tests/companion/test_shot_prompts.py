"""Companion mode (issue 21): every die the rules roll is asked for with "which dice to roll
and what score is needed". A Seven Days shot (sevendays.fire.base: d10s, each scoring the
shot's need or more hits) and its penetration roll (sevendays.hit.penetration: d10 + the
weapon's value must exceed the armour) name the dice, the units and the score; Portable's
initiative roll (portable.initiative.roll: one d6 a side, the higher moves first) says whose
die is whose. The rolls consume the game's stream as before (same faces, same games)."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Any

from tests.companion.script import Player
from tests.conftest import MakeGame, unit
from umpire.companion.dice import TableDice
from umpire.companion.errors import QuitCompanion
from umpire.companion.session import Companion
from umpire.companion.words import roll_request
from umpire.core.actions import Action
from umpire.core.chance import Chance
from umpire.core.game import Game, new_game
from umpire.rulesets.portable.activation import initiative_roll
from umpire.rulesets.sevendays.damage import Penetration

TABLE: dict[str, Any] = {
    "nato": [unit("c", "chieftain-mk9", 36, 10)],
    "pact": [unit("t", "t72a", 36, 30)],
}


def _menu_number(game: Game, pick: Any) -> str:
    legal = game.legal_actions()
    return str(legal.index(next(a for a in legal if pick(a))) + 1)


def test_a_shot_and_its_penetration_are_asked_with_the_score(
    make_game: MakeGame, tmp_path: Path
) -> None:
    twin = make_game(**TABLE)  # the same table, to find the menu lines the players type
    commands = [_menu_number(twin, lambda a: a.kind == "activate")]
    twin.apply(Action("activate", unit="nato-c"))
    fire = Action("fire", unit="nato-c", target="pact-t")
    commands.append(_menu_number(twin, lambda a: a == fire))
    need = int(twin.describe(fire).split("need ")[1].split("+")[0])  # the menu's to-hit score
    twin.apply(fire)
    commands.append(_menu_number(twin, lambda a: a.kind != "react"))  # PACT does not react
    player = Player(commands, [10, 10, 1])  # a hit, a penetration, the damage d6
    game = make_game(**TABLE)
    companion = Companion(
        game, {"nato": "me", "pact": "me"}, tmp_path / "g.json", player.read, player.write
    )
    with suppress(QuitCompanion):  # the script ran out after the shot: the game is saved
        companion.run()
    asked = [line.strip() for line in player.lines if line.strip().startswith("roll ")]
    shot = next(line for line in asked if "sevendays.fire.base" in line)
    assert shot.startswith("roll 1d10 for Chieftain Mk9 (c) at T-72A (t)")
    assert shot.endswith(f": {need}+ hits")
    pen = next(line for line in asked if "sevendays.hit.penetration" in line)
    assert pen.startswith("roll 1d10 for penetration on T-72A (t)'s front armour")
    armour = int(pen.split("front armour ")[1].split(" ")[0])
    value = int(pen.split("die + ")[1].split(" ")[0])
    assert f"the die needs {armour - value + 1}+ to penetrate" in pen
    # the faces typed decided the shot as the book says: 10 hits, 10 + value beats the armour
    texts = [e.text for e in companion.game.events]
    assert any("-> hits" in t for t in texts) and any("-> penetrates" in t for t in texts)


def test_the_penetration_words_for_special_armour_and_hopeless_shots() -> None:
    heat = Penetration(weapon_value=14, armour=20, heat_special=True, subject="a T-80's front")
    words = roll_request(2, 10, heat)
    assert words.startswith("roll 2d10 for penetration on a T-80's front")
    assert "sevendays.hit.heat_vs_special" in words
    assert "the lower die needs 7+ to penetrate" in words
    assert "no die can penetrate" in roll_request(1, 10, Penetration(2, 20, False))
    assert "any die penetrates" in roll_request(1, 10, Penetration(20, 15, False))


def test_portable_initiative_says_whose_die_is_whose() -> None:
    assert roll_request(2, 6, initiative_roll()) == (
        "roll 2d6 for portable.initiative.roll: the first die is BLUE's, the second RED's; "
        "the higher moves first"
    )


def test_a_portable_game_asks_for_the_initiative_by_its_rule() -> None:
    """The initiative roll reaches the table through its chance primitive (the prompt knows
    what it rolls for), and the faces typed decide who moves first."""
    game = new_game("portable/armoured-meeting", seed=1)
    asked: list[str] = []

    def faces(count: int, sides: int, chance: Chance[Any] | None) -> list[int]:
        asked.append(roll_request(count, sides, chance))
        return [1, 6] if "initiative" in asked[-1] else [3] * count

    for _ in range(40):
        if any("portable.initiative.roll" in a for a in asked):
            break
        action = game.legal_actions()[0]
        game.apply_with(action, TableDice(game.state.rng, faces, lambda items, chance: 0))
    assert any(a.startswith("roll 2d6 for portable.initiative.roll") for a in asked)
    assert any("RED moves first" in e.text for e in game.events)


def test_a_bare_roll_names_the_action_being_resolved_not_a_purpose(tmp_path: Path) -> None:
    """A roll whose chance carries no words (a ruleset's bare dice) cannot say what it is for;
    it may belong to a step the action led to (a retreat, a morale test), so the prompt names
    the action being resolved as such rather than as the roll's purpose."""
    lines: list[str] = []
    typed = iter(["3 4"])
    companion = Companion(
        new_game("portable/crossroads", seed=1),
        {"blue": "me", "red": "me"},
        tmp_path / "g.json",
        lambda prompt: next(typed),
        lines.append,
    )
    companion.rolling_for = "B-lt retreats"
    assert companion.ask_faces(2, 6, None) == [3, 4]
    asked = next(line.strip() for line in lines if line.strip().startswith("roll "))
    assert asked == "roll 2d6 (while resolving: B-lt retreats)"
