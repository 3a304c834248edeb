"""Companion mode defaults to advise (issue 21: "Companion mode defaults to advise (the players
are the final judges); digital play defaults to enforce"); ``--rules FILE`` sets rules over the
default; the AI's side keeps to the book."""

from __future__ import annotations

import json
from contextlib import suppress
from pathlib import Path

from tests.companion.test_cli import umpire
from umpire.companion.cli import companion_switches
from umpire.core.ruleset import get_ruleset
from umpire.core.switches import OPTION_KEY, Mode, RuleSwitches

ARGS = ["companion", "portable/armoured-meeting", "--side", "blue=me", "--side", "red=scripted"]


def test_every_switchable_rule_is_advised_by_default() -> None:
    switches = companion_switches(get_ruleset("portable"))
    assert switches.table == RuleSwitches.default_for(Mode.ADVISE).table
    assert switches.mode("portable.activation.once") is Mode.ADVISE
    assert switches.mode("portable.fire.arc") is Mode.ADVISE


def test_a_rules_file_sets_rules_over_the_default(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text("portable.fire.arc: enforce\nportable.activation.*: 'off'\n")
    switches = companion_switches(get_ruleset("portable"), rules)
    assert switches.mode("portable.fire.arc") is Mode.ENFORCE
    assert switches.mode("portable.activation.once") is Mode.OFF
    assert switches.mode("portable.artillery.arc") is Mode.ADVISE  # the default, kept
    strict = tmp_path / "strict.yaml"
    strict.write_text("'*': enforce\n")
    assert not companion_switches(get_ruleset("portable"), strict)  # every rule enforced


def test_the_terminal_companion_records_advise_and_digital_play_does_not(tmp_path: Path) -> None:
    record = tmp_path / "table.json"
    started = umpire(*ARGS, "--record", str(record), stdin="quit\n")
    assert started.returncode == 0, started.stderr
    saved = json.loads(record.read_text())
    assert saved["options"][OPTION_KEY] == {"*": "advise"}
    # the same game played digitally enforces every rule
    battle = tmp_path / "battle.json"
    digital = umpire(
        "battle",
        "portable/armoured-meeting",
        "--side",
        "blue=scripted",
        "--side",
        "red=scripted",
        "--record",
        str(battle),
        "--quiet",
    )
    assert digital.returncode == 0, digital.stderr
    assert OPTION_KEY not in json.loads(battle.read_text()).get("options", {})


def test_the_terminal_companion_takes_a_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text("portable.fire.arc: enforce\n")
    record = tmp_path / "table.json"
    started = umpire(*ARGS, "--rules", str(rules), "--record", str(record), stdin="quit\n")
    assert started.returncode == 0, started.stderr
    saved = json.loads(record.read_text())["options"][OPTION_KEY]
    assert saved == {"*": "advise", "portable.fire.arc": "enforce"}
    bad = tmp_path / "bad.yaml"
    bad.write_text("portable.fire.arc: sometimes\n")
    refused = umpire(*ARGS, "--rules", str(bad), "--record", str(record), cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "is not enforce, advise or off" in refused.stderr


def test_at_the_table_advised_actions_are_offered_to_you_and_the_ai_keeps_to_the_book(
    tmp_path: Path,
) -> None:
    """Under the companion's default a person's menu offers actions a rule forbids (the line
    names the rule); the AI's side plays only what the book allows: the game played (you
    choosing lines without advice) replays with every rule enforced, the same outcomes
    entered."""
    from umpire.companion.cli import companion_switches as default
    from umpire.companion.errors import QuitCompanion
    from umpire.companion.session import Companion
    from umpire.core.game import Game
    from umpire.core.switches import with_switches

    options = with_switches({}, default(get_ruleset("portable")))
    lines: list[str] = []
    menu: list[str] = []
    decisions = {"n": 0}

    def write(line: str) -> None:
        lines.append(line)
        if line.endswith(" to decide:"):
            menu.clear()
        elif line[:5].strip().rstrip(".").isdigit():
            menu.append(line)

    def read(prompt: str) -> str:
        if "d" in prompt and prompt[0].isdigit():  # a dice prompt: "2d6> "
            count, sides = (int(x) for x in prompt.rstrip("> ").split("d"))
            return " ".join(str(1 + (decisions["n"] + i) % sides) for i in range(count))
        if prompt == "card> " or decisions["n"] >= 40:
            raise EOFError
        decisions["n"] += 1
        plain = next(line for line in menu if "[advice:" not in line)
        return plain.split(".")[0].strip()

    path = tmp_path / "g.json"
    sides = {"blue": "me", "red": "scripted"}
    companion = Companion.start(
        "portable/armoured-meeting", 3, sides, path, read, write, options=options
    )
    with suppress(QuitCompanion):  # out of script after 40 decisions: saved, as on Ctrl-C
        companion.run()
    assert any("[advice: against portable." in line for line in lines), "no advised line"
    game = companion.game
    assert not [e for e in game.events if e.kind == "advice"]
    assert any(game.record.players.get(s) == "scripted" for s in sides)
    strict = Game(game.ruleset, game.record.scenario, game.record.seed)
    for action, entered in zip(game.record.actions, game.record.entered or [], strict=True):
        strict.apply_entered(action, entered)  # raises if a rule the book keeps is broken
    assert [e.text for e in strict.events] == [e.text for e in game.events]
