"""State in words, target numbers explained, and the odds the terminal adds to an attack."""

from __future__ import annotations

import re
from fractions import Fraction

from umpire.agents.base import make_agent
from umpire.core.actions import Action
from umpire.core.game import Game, new_game
from umpire.core.ruleset import get_ruleset
from umpire.terminal.why import attack_note, certain_losses, explain
from umpire.terminal.words import first_sentence, in_words, need_words, plain


def test_python_literals_in_texts_become_words() -> None:
    sides = ("nato", "pact")
    assert (
        plain("turn 1, tokens {'nato': 14, 'pact': 10}", sides) == "turn 1, tokens NATO 14, PACT 10"
    )
    assert plain("hand ['smoke', 'ambush']") == "hand smoke, ambush"
    assert plain("a [bracketed] note and [1, 2]") == "a [bracketed] note and [1, 2]"
    assert in_words({"nato": True, "pact": None}, sides) == "NATO yes, PACT none"
    assert in_words([]) == "none"


def test_a_target_beyond_the_die_names_the_natural_six() -> None:
    # Seven Days: the reaction roll needs one more per token and marker, and a natural 6
    # always succeeds (catalogue sevendays.reaction.tokens_markers) -- so a 7+ is offered
    summary = get_ruleset("sevendays").capabilities.catalog()["sevendays.reaction.tokens_markers"]
    assert "natural 6 always succeeds" in summary.summary
    text = "react with Milan (milan-1): needs 7+ on d6, then atgm needs 5+"
    assert need_words(text) == (
        "react with Milan (milan-1): needs 7+ on d6 (only a natural 6 passes), then atgm needs 5+"
    )
    assert need_words("needs 6+ on d6") == "needs 6+ on d6"


def test_first_sentence_of_a_briefing() -> None:
    assert first_sentence("Two forces meet. They fight.") == "Two forces meet. They fight."
    long = "Two battlegroups of about 500 points meet on a table. The rest follows."
    assert first_sentence(long) == "Two battlegroups of about 500 points meet on a table."
    inches = 'Two groups meet on a 72" x 48" table of woods.\nThen more.'
    assert first_sentence(inches) == 'Two groups meet on a 72" x 48" table of woods.'
    assert first_sentence("Night. A squad raids a compound at the edge of town. More.") == (
        "Night. A squad raids a compound at the edge of town."
    )


def _portable_until(game: Game, wanted: object, seed: int) -> tuple[str, list[Action]]:
    agents = {s: make_agent("scripted", "portable", s, seed) for s in game.ruleset.meta.players}
    while game.to_act is not None:
        side = game.to_act
        legal = game.legal_actions()
        if callable(wanted) and wanted(game, legal):
            return side, legal
        game.apply(agents[side].choose(game.view(side), legal))
    raise AssertionError("never reached")


def test_fighter_attack_shows_the_score_needed_and_its_exact_chance() -> None:
    """Portable air rules (portable.air.air_to_ground / air_to_air): an aircraft's die hits on
    the air score or more, after modifiers; one die per gun bearing."""
    game = new_game("portable/trench-raid", seed=3)

    def fighter_fires(g: Game, legal: list[Action]) -> bool:
        return any(a.kind == "fire" and g.state.units[a.unit].air for a in legal)

    side, legal = _portable_until(game, fighter_fires, 3)
    attack = next(a for a in legal if a.kind == "fire" and game.state.units[a.unit].air)
    note = attack_note(game, side, attack)
    found = re.fullmatch(
        r" \[(?:(\d+) dice, each|1 die,) needs (\d)\+ on d6; P\(hit\) (\d+)%\]", note
    )
    assert found, note
    dice = int(found.group(1) or 1)
    need, shown = int(found.group(2)), int(found.group(3))
    p = 1 - (1 - Fraction(7 - need, 6)) ** dice
    assert shown == round(float(p) * 100)
    # 'why' names the air rule behind it, from the catalogue
    lines = explain(game, side, attack, count=200)
    assert any(line.strip().startswith("portable.air.") for line in lines)


def test_stopping_with_an_unactivated_aircraft_is_a_certain_loss() -> None:
    """portable.air.forced_activation: an aircraft not activated in its turn crashes."""
    game = new_game("portable/trench-raid", seed=1)

    def can_stop(g: Game, legal: list[Action]) -> bool:
        return g.to_act == "blue" and any(a.kind == "done" for a in legal)

    side, legal = _portable_until(game, can_stop, 1)
    done = next(a for a in legal if a.kind == "done")
    assert certain_losses(game, side, done) == [
        "B-fighter (Single-seater Fighter Aircraft) is destroyed"
    ]
    activate = next(a for a in legal if a.kind == "activate")
    assert certain_losses(game, side, activate) == []


def test_bookgun_table_is_drawn_with_its_buildings() -> None:
    from umpire.terminal.drawing import drawing

    game = new_game("bookgun/market-day", seed=1)
    picture = str(drawing(game, "army"))
    assert "▦ building" in picture and "ARMY:" in picture
    assert "INSURGENTS:" not in picture  # concealed cells show as nothing but markers
