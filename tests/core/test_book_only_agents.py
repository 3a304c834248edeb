"""Agents are held to the book (issue 21, rule switches): under ``advise`` a person's menu
offers the actions a rule forbids (with a warning), but a built-in agent is offered, and
chooses, only actions every rule allows; a game of agents under all-``advise`` is the game under
all-``enforce`` for the same seed, action for action.

docs/rule-switches.md: "advise — the action is offered and allowed, with a warning"; issue 21:
"off and advise change what legal actions are offered and what the log says, and nothing else".
"""

from __future__ import annotations

import pytest

from tests.conftest import MakeGame, unit
from umpire.agents.base import make_agent
from umpire.core.actions import Action
from umpire.core.game import Game, new_game
from umpire.core.ruleset import get_ruleset
from umpire.core.switches import OPTION_KEY, RuleSwitches, book_bound, switchable

ALL_ADVISE = {OPTION_KEY: RuleSwitches.default_for("advise").to_option()}


def _has_switches(ruleset: str) -> bool:
    catalog = get_ruleset(ruleset).capabilities.catalog
    return catalog is not None and any(switchable(e) for e in catalog().values())


GAMES = [
    ("portable/village-attack", 160),
    ("rhine/autobahn-gap", 160),
    ("sevendays/meeting-engagement", 160),
    # Book and Gun's switches are another engineer's work: tested once its catalogue has them
    pytest.param(
        "bookgun/market-day",
        120,
        marks=pytest.mark.skipif(
            not _has_switches("bookgun"), reason="Book and Gun has no rule switches yet"
        ),
    ),
]


def _lockstep(game_id: str, seed: int, steps: int, kind: str) -> tuple[Game, Game, int]:
    """The same agents play the game under all-enforce and under all-advise side by side; at
    every decision the advise game's agent is offered exactly the enforce game's legal actions
    and chooses the same one. Returns both games and how many decisions offered a person more
    (the advised actions)."""
    ruleset = game_id.split("/")[0]
    plain = new_game(game_id, seed=seed)
    advised = new_game(game_id, seed=seed, options=ALL_ADVISE)
    sides = [str(s) for s in plain.ruleset.meta.players]
    for game in (plain, advised):
        game.record.players = {s: kind for s in sides}
    agents = {s: make_agent(kind, ruleset, s, seed) for s in sides}
    twins = {s: make_agent(kind, ruleset, s, seed) for s in sides}
    wider = 0
    for _ in range(steps):
        if plain.is_over:
            break
        side = plain.to_act
        assert side is not None and advised.to_act == side
        book = plain.legal_actions()
        menu = advised.legal_actions()  # what a person at the table is shown
        offered = advised.view(side).legal_actions(book_only=True)
        assert offered == book
        assert set(book) <= set(menu)
        if len(menu) > len(book):
            wider += 1
        chosen = twins[side].choose(advised.view(side), menu)
        assert chosen in book, f"{side} chose {chosen}, which the book forbids"
        assert agents[side].choose(plain.view(side), book) == chosen
        plain.apply(chosen)
        advised.apply(chosen)
    return plain, advised, wider


@pytest.mark.parametrize(("game_id", "steps"), GAMES)
def test_scripted_agents_play_the_enforced_game_under_advise(game_id: str, steps: int) -> None:
    plain, advised, wider = _lockstep(game_id, 2, steps, "scripted")
    assert advised.record.actions == plain.record.actions
    assert [e.text for e in advised.events] == [e.text for e in plain.events]
    assert not [e for e in advised.events if e.kind == "advice"]


@pytest.mark.parametrize(("game_id", "steps"), GAMES)
def test_random_agents_never_take_an_advised_action(game_id: str, steps: int) -> None:
    """A random player is the likeliest to stumble on an advised action: it never does, and
    the menus a person would have been shown did hold some (the switches were in play)."""
    plain, advised, wider = _lockstep(game_id, 1, steps, "random")
    assert advised.record.actions == plain.record.actions
    assert not [e for e in advised.events if e.kind == "advice"]
    if not game_id.startswith("bookgun"):
        assert wider > 0, "the advise game's menus never offered an advised action"


def test_a_persons_menu_shows_the_advised_actions() -> None:
    """portable.activation.once under advise: a person may activate a unit again (the menu
    line names the rule); an agent is not offered it."""
    game = new_game("portable/village-attack", seed=1, options=ALL_ADVISE)
    for _ in range(200):
        side = game.to_act
        assert side is not None
        menu = game.legal_actions()
        extra = [a for a in menu if a not in game.view(side).legal_actions(book_only=True)]
        if extra:
            lines = [game.describe(a) for a in extra]
            assert all("[advice: against portable." in line for line in lines), lines
            assert game.view(side).legal_actions(book_only=False) == menu
            return
        game.apply(make_agent("scripted", "portable", side, 1).choose(game.view(side), menu))
    raise AssertionError("no advised action offered in 200 decisions")


def test_only_built_in_agents_are_held_to_the_book() -> None:
    assert book_bound("scripted") and book_bound("random") and book_bound("search:bold@0.5")
    assert not book_bound("human") and not book_bound("me") and not book_bound(None)


@pytest.mark.parametrize("player", ["human", "scripted"])
def test_an_agents_failed_activation_test_is_the_books_under_advise(
    make_game: MakeGame, player: str
) -> None:
    """sevendays.activation.test (a second activation needs more than tokens plus markers;
    failed, the activation is lost) under advise: a person's unit acts anyway with a warning;
    a unit of a side played by an agent (the record's ``players``) loses the activation, as
    the book says."""
    for seed in range(40):
        game = make_game(
            seed=seed,
            options=ALL_ADVISE,
            nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 10, 5)],
            pact=[unit("t", "t64b", 36, 44)],
        )
        game.record.players = {"nato": player, "pact": "scripted"}
        game.state.units["nato-c"].tokens = 5
        events = game.apply(Action("activate", unit="nato-c"))
        rolled = [e for e in events if e.rule == "sevendays.activation.test" and e.kind == "roll"]
        if not rolled or rolled[0]["result"] >= 6:
            continue
        advice = [e for e in events if e.kind == "advice"]
        if player == "human":
            assert [e.rule for e in advice] == ["sevendays.activation.test"]
            assert game.state.flow.activation is not None
        else:
            assert not advice and game.state.flow.activation is None
        return
    raise AssertionError("no failed activation test in 40 seeds")


def test_a_view_without_advice_lists_the_same_actions() -> None:
    game = new_game("portable/village-attack", seed=1)
    side = game.to_act
    assert side is not None
    view = game.view(side)
    assert not view.advised
    assert view.legal_actions() == view.legal_actions(book_only=False) == game.legal_actions()
    assert all(isinstance(a, Action) for a in view.legal_actions())


def test_the_search_player_chooses_only_book_actions_under_advise() -> None:
    """The search player (its playouts run inside the book-only listing too) chooses among
    the book's actions at every decision of an all-advise game."""
    from umpire.agents.base import held_to_the_book
    from umpire.agents.search import SearchAgent

    game = new_game("portable/village-attack", seed=4, options=ALL_ADVISE)
    sides = [str(s) for s in game.ruleset.meta.players]
    game.record.players = {s: "search" for s in sides}
    agents = {s: held_to_the_book(SearchAgent(s, 4, iterations=12)) for s in sides}
    wider = 0
    for _ in range(40):
        side = game.to_act
        assert side is not None
        menu = game.legal_actions()
        book = game.view(side).legal_actions(book_only=True)
        wider += len(menu) > len(book)
        chosen = agents[side].choose(game.view(side), menu)
        assert chosen in book
        game.apply(chosen)
    assert wider > 0
    assert not [e for e in game.events if e.kind == "advice"]


def test_a_listing_remembered_under_advise_is_not_the_books(make_game: MakeGame) -> None:
    """sevendays.reaction.window: with its pool empty PACT may react only under advise. The
    menu a person is shown lists the reactions; the book's listing for an agent, asked for
    right after on the same position, does not (no remembered answer leaks across)."""
    game = make_game(
        options=ALL_ADVISE,
        nato=[unit("c", "chieftain-mk9", 36, 10), unit("d", "chieftain-mk9", 10, 5)],
        pact=[unit("t", "t64b", 36, 40), unit("u", "t64b", 60, 44)],
    )
    game.state.flow.pools["pact"] = 0
    game.apply(Action("activate", unit="nato-c"))
    game.apply(Action("move", unit="nato-c", point=(36, 16)))
    assert game.to_act == "pact"
    menu = game.legal_actions()
    assert any(a.kind == "react" for a in menu)
    book = game.view("pact").legal_actions(book_only=True)
    assert book and not any(a.kind == "react" for a in book)
    assert any(a.kind == "react" for a in game.legal_actions())  # and back again
