"""Whole games under rule switches (issue 21): every rule enforced explicitly plays exactly the
default game; a game with switches keeps them in its record, and its replay is identical."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from umpire.core.errors import IllegalActionError
from umpire.core.events import Event
from umpire.core.game import Game, load_record, new_game, replay
from umpire.core.ruleset import get_ruleset
from umpire.core.switches import OPTION_KEY, switchable

GAMES = ["portable/village-attack", "rhine/autobahn-gap", "sevendays/meeting-engagement"]
STEPS = 120
# the Rhine game opens with its set-up phase (ruleset 0.4): under advise a random placement
# may break rhine.setup.area, but its other set-up rules are fixed; the longer game also
# reaches the combat rules' switches
LONGER = {"rhine/autobahn-gap": 200}


def _play(game: Game, seed: int, steps: int = STEPS) -> list[str]:
    """Random legal actions from a seeded chooser; the log's texts as the umpire read them."""
    chooser = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions()))
    return [_line(e) for e in game.log(None)]


def _broke_a_rule(game_id: str, game: Game) -> bool:
    """Whether the actions played break a rule when replayed without switches."""
    plain = new_game(game_id, seed=game.record.seed)
    try:
        for action in game.record.actions:
            plain.apply(action)
    except IllegalActionError:
        return True
    return False


def _line(event: Event) -> str:
    return f"{event.kind}|{event.rule}|{event.text}"


def _all_enforced(ruleset: str) -> dict[str, str]:
    catalog = get_ruleset(ruleset).capabilities.catalog
    assert catalog is not None
    explicit = {rule: "enforce" for rule, entry in catalog().items() if switchable(entry)}
    assert len(explicit) >= 3, "each ruleset guards several rules"
    return {f"{ruleset}.*": "enforce", **explicit}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_enforced_is_the_default_game(game_id: str) -> None:
    ruleset = game_id.split("/")[0]
    plain = _play(new_game(game_id, seed=3), 7)
    enforced = _play(new_game(game_id, seed=3, options={OPTION_KEY: _all_enforced(ruleset)}), 7)
    assert plain == enforced
    assert not any(line.startswith("advice|") for line in plain)


@pytest.mark.parametrize("mode", ["advise", "off"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_with_switches_records_and_replays_them(
    game_id: str, mode: str, tmp_path: Path
) -> None:
    ruleset = game_id.split("/")[0]
    switches = {f"{ruleset}.*": mode}
    game = new_game(game_id, seed=5, options={OPTION_KEY: switches})
    lines = _play(game, 11)
    path = tmp_path / "game.json"
    game.record.save(path)
    assert json.loads(path.read_text())["options"][OPTION_KEY] == switches
    again = replay(load_record(path))
    assert [_line(e) for e in again.log(None)] == lines
    advised = any(line.startswith("advice|") for line in lines)
    broke = _broke_a_rule(game_id, game)
    if mode == "off":
        assert not advised  # off: not a word
    else:
        assert advised == broke  # advise: a rule is named exactly when one was broken


def test_the_random_games_above_do_break_rules() -> None:
    """The games the replay test plays do exercise the switches (not only rule-abiding
    moves): under advise each ruleset's game names a broken rule within its steps."""
    for game_id in GAMES:
        ruleset = game_id.split("/")[0]
        game = new_game(game_id, seed=5, options={OPTION_KEY: {f"{ruleset}.*": "advise"}})
        lines = _play(game, 11, LONGER.get(game_id, STEPS))
        assert any(line.startswith("advice|") for line in lines), game_id
