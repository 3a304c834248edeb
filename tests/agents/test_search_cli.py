"""The search player from the command line: ``battle --side SIDE=search:PRESET --think S``
shows its "why" in the event log, and ``simulate --vary SIDE.agent=search@S,scripted`` plays
it; a bad preset or think time is a one-line error."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from umpire.cli import app

runner = CliRunner()


def test_battle_with_a_search_side_prints_its_reasons() -> None:
    out = runner.invoke(
        app,
        [
            "battle",
            "tiny/skirmish",
            "--seed",
            "3",
            "--side",
            "red=search:aggressive",
            "--think",
            "0.02",
        ],
    )
    assert out.exit_code == 0, out.output
    assert "red search (aggressive," in out.output
    assert "estimated win" in out.output
    assert "blue search" not in out.output  # blue is the scripted player


def test_a_person_never_reads_the_search_players_reasons() -> None:
    out = runner.invoke(
        app,
        [
            "battle",
            "tiny/skirmish",
            "--seed",
            "3",
            "--side",
            "red=search@0.02",
            "--side",
            "blue=human",
        ],
        input="1\n" * 12 + "quit\n",
    )
    assert "red has committed" in out.output and "Lancers is hit" in out.output  # red decided
    assert "red search" not in out.output and "estimated win" not in out.output


def test_battle_json_with_search_on_both_sides() -> None:
    out = runner.invoke(
        app,
        [
            "battle",
            "tiny/skirmish",
            "--seed",
            "4",
            "--side",
            "red=search:cautious@0.02",
            "--side",
            "blue=search:objective@0.02",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["winner"] in ("red", "blue", "draw")


def test_bad_search_specs_are_one_line_errors() -> None:
    out = runner.invoke(app, ["battle", "tiny/skirmish", "--side", "red=search:reckless"])
    assert out.exit_code != 0 and "unknown search personality or mode 'reckless'" in out.output
    out = runner.invoke(app, ["battle", "tiny/skirmish", "--side", "red=search@-1"])
    assert out.exit_code != 0 and "think time" in out.output


def test_simulate_varies_the_search_against_the_scripted_player() -> None:
    out = runner.invoke(
        app,
        [
            "simulate",
            "tiny/skirmish",
            "-n",
            "2",
            "--workers",
            "1",
            "--vary",
            "red.agent=search@0.01,scripted",
            "--json",
            "--quiet",
        ],
    )
    assert out.exit_code == 0, out.output
    assert "search@0.01" in out.output and "scripted" in out.output
