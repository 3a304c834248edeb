"""Rule switches in Seven Days to the River Rhine (issue 21): activation tests, who may
assault, and reacting without tokens, each under enforce, advise and off. Under advise the
rule is named in the menu line and in the log."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import MakeGame, unit
from tests.switches.helpers import MODES, check_modes, switched
from umpire.core.actions import Action
from umpire.core.game import Game


@pytest.mark.parametrize("mode", MODES)
def test_only_infantry_and_support_assault(make_game: MakeGame, mode: str) -> None:
    """sevendays.close_combat: an infantry or support unit that has not acted may assault; a
    Chieftain may not (enforced), may with a warning (advise) or may (off)."""

    def build(options: dict[str, Any]) -> Game:
        game = make_game(
            options=options,
            nato=[unit("a", "infantry", 36, 20), unit("c", "chieftain-mk9", 40, 20)],
            pact=[unit("r", "motor-rifles", 40, 25), unit("t", "t72a", 66, 44)],
        )
        # no PACT token: no reaction window before the assault (sevendays.reaction.window),
        # so the assault resolves as it is applied
        game.state.flow.pools["pact"] = 0
        game.apply(Action("activate", unit="nato-c"))
        return game

    assault = Action("assault", unit="nato-c", target="pact-r")
    check_modes(build, assault, "sevendays.close_combat", mode, acting="nato", other="pact")


@pytest.mark.parametrize("mode", MODES)
def test_a_reaction_spends_a_token(make_game: MakeGame, mode: str) -> None:
    """sevendays.reaction.window: the other side may react by spending a token; with its
    pool empty, PACT has no reaction window (enforced), or reacts with a warning (advise) or
    without one (off), its pool staying at none."""

    def build(options: dict[str, Any]) -> Game:
        game = make_game(
            options=options,
            nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 10, 5)],
            pact=[unit("t", "t64b", 36, 40), unit("u", "t64b", 60, 44)],
        )
        game.state.flow.pools["pact"] = 0
        game.apply(Action("activate", unit="nato-c"))
        game.apply(Action("move", unit="nato-c", point=(36, 16)))
        return game

    react = Action("react", unit="pact-t")
    check_modes(
        build,
        react,
        "sevendays.reaction.window",
        mode,
        acting="pact",
        other="nato",
        refused_by=None,  # no reaction window opens at all: the flow refuses the kind
    )
    if mode != "enforce":
        game = build(switched("sevendays.reaction.window", mode))
        game.apply(react)
        assert game.state.flow.pools["pact"] == 0


def _second_activation(make_game: MakeGame, mode: str) -> tuple[Game, list[Any]]:
    """A second activation of a Chieftain with 5 tokens: only a natural 6 passes; the first
    seed whose die fails (or any seed, with the test off)."""
    for seed in range(40):
        game = make_game(
            seed=seed,
            options=switched("sevendays.activation.test", mode),
            nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 10, 5)],
            pact=[unit("t", "t64b", 36, 44)],
        )
        game.state.units["nato-c"].tokens = 5
        events = list(game.apply(Action("activate", unit="nato-c")))
        tests = [e for e in events if e.get("rule") == "sevendays.activation.test"]
        if mode == "off" or (tests and tests[0]["result"] < 6):
            return game, events
    raise AssertionError("no failing activation test in 40 seeds")


@pytest.mark.parametrize("mode", MODES)
def test_activation_test_from_the_second_activation(make_game: MakeGame, mode: str) -> None:
    """sevendays.activation.test: from its second activation a unit must roll higher than
    its tokens plus markers (a natural 6 passes). Failed: the activation is lost (enforce);
    the unit acts anyway with a warning (advise); off: no test is rolled and it acts."""
    game, events = _second_activation(make_game, mode)
    rolled = [e for e in events if e.get("rule") == "sevendays.activation.test"]
    advice = [e for e in events if e.kind == "advice"]
    acts = [a for a in game.legal_actions() if a.unit == "nato-c" and a.kind == "move"]
    if mode == "enforce":
        assert rolled and not acts and not advice
        assert game.state.flow.activation is None
    elif mode == "advise":
        assert rolled and acts
        assert [e.rule for e in advice] == ["sevendays.activation.test"]
        assert "activates anyway" in advice[0].text
    else:
        assert not rolled and acts and not advice
