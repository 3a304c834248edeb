"""The Book and The Gun's web table (``bookgun/board.py``): what each side's board shows, that
the army's never holds a concealed insurgent or what a marker is, that it is the same whatever
the hidden truth is re-drawn to be, and that the fire odds are the book's procedure
(bookgun.fire.procedure: a d20 per die, a hit on the number or under, 20 always a miss; then a
casualty card per hit, bookgun.casualty.card)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest

from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.core.ruleset import capability, get_ruleset
from umpire.rulesets.bookgun.board import BOARD, card_tallies, casualty_distribution
from umpire.rulesets.bookgun.chances import (
    CASUALTY_DECK,
    HitsUnder,
    _tally,
    cards_effects,
    fire_casualties,
)

RULESET = get_ruleset("bookgun")


def _random_game(seed: int, steps: int, rs: int = 0) -> Game:
    game = Game(RULESET, "market-day", seed)
    r = random.Random(rs)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(r.choice(game.legal_actions()))
    return game


def _concealed(game: Game) -> set[str]:
    """Ids of the insurgent units the army cannot see, and of their figures."""
    units = {u.id for u in game.state.units.values() if u.concealed and u.side == "insurgents"}
    figs = {f.id for f in game.state.figures.values() if f.unit in units}
    return units | figs


def test_board_is_declared_and_draws_the_table() -> None:
    assert capability(RULESET, "board").resolve() is BOARD
    game = _random_game(3, 10)
    b = BOARD.board(game, game.observation("army"), "army")
    assert b["layout"] == "continuous" and b["unit"] == "inch"
    spec = game.state  # the figures drawn are the observation's, one by one
    obs = game.observation("army")
    shown = {k for k, f in obs["figures"].items() if f["status"] != "gone"}
    assert {f["id"] for f in b["figures"]} <= shown
    assert b["figures"] and all({"x", "y", "facing", "unit"} <= set(f) for f in b["figures"])
    # buildings with every room of the scenario, by floor
    from umpire.rulesets.bookgun.world import world_for

    w = world_for("market-day", None)
    rooms = {r["id"]: r for bd in b["buildings"] for r in bd["rooms"]}
    assert set(rooms) == set(w.rooms)
    assert all(rooms[r]["floor"] == w.rooms[r].floor for r in rooms)
    assert {bd["id"] for bd in b["buildings"]} == set(w.buildings)
    assert len(b["hidden_markers"]) == len(obs["markers"])
    assert b["drawn_card"] is None or b["drawn_card"]["card"] == obs["card"]
    assert spec.card == obs["card"]
    json.dumps(b)


@pytest.mark.parametrize("steps", [0, 15, 40])
def test_army_board_never_holds_a_concealed_insurgent_or_a_markers_nature(steps: int) -> None:
    game = _random_game(3, steps)
    hidden = _concealed(game)
    army = BOARD.board(game, game.observation("army"), "army")
    text = json.dumps(army)
    for name in hidden:
        assert f'"{name}"' not in text, name
    assert all("contents" not in m for m in army["hidden_markers"])
    assert "dummy" not in text
    insurgents = BOARD.board(game, game.observation("insurgents"), "insurgents")
    contents = {m["id"]: m.get("contents") for m in insurgents["hidden_markers"]}
    assert all(v is not None for v in contents.values())
    if game.state.markers:
        assert set(contents) == set(game.state.markers)
        for m in game.state.markers.values():
            assert contents[m.id] == (m.unit if m.unit is not None else "dummy")


@pytest.mark.parametrize("rs", [0, 1, 2])
def test_army_board_and_odds_are_the_same_under_resampling(rs: int) -> None:
    game = Game(RULESET, "market-day", 3)
    r = random.Random(rs)
    rng = random.Random(100 + rs)
    checked = 0
    for step in range(120):
        if game.is_over:
            break
        if step % 6 == 0:
            obs = game.observation("army")
            drawn = BOARD.board(game, obs, "army")
            legal = game.legal_actions() if game.to_act == "army" else []
            odds = [BOARD.action_details(game, obs, "army", a) for a in legal]
            units = [u for u in obs["units"] if obs["units"][u]["side"] == "army"]
            lines = [
                BOARD.action_details(game, obs, "army", Action("sight", unit=u)) for u in units
            ]
            for _ in range(3):
                twin = RULESET.resample(game.state, "army", rng)
                holder = SimpleNamespace(state=twin, ruleset=RULESET)
                tobs = RULESET.observation(twin, "army")
                assert BOARD.board(holder, tobs, "army") == drawn
                assert [BOARD.action_details(holder, tobs, "army", a) for a in legal] == odds
                assert [
                    BOARD.action_details(holder, tobs, "army", Action("sight", unit=u))
                    for u in units
                ] == lines
                checked += 1
        game.apply(r.choice(game.legal_actions()))
    assert checked >= 6


@pytest.mark.parametrize("hits", [0, 1, 2, 3])
@pytest.mark.parametrize("leader", [True, False])
def test_card_counting_equals_the_draw_by_draw_enumeration(hits: int, leader: bool) -> None:
    for pile in (CASUALTY_DECK, CASUALTY_DECK[5:30]):
        mine = dict(card_tallies(hits, leader, tuple(sorted(pile))))
        theirs = cards_effects(hits, leader, list(pile)).map(_tally).outcomes()
        assert mine == theirs


def test_casualty_distribution_equals_the_fire_chance() -> None:
    parts = [HitsUnder(2, 20, 7, "bookgun.fire.table", 20), HitsUnder(1, 20, 12, "t", 20)]
    for leader in (True, False):
        for visible in (1, 2, 4):
            mine = casualty_distribution(parts, leader, visible, list(CASUALTY_DECK))
            assert mine == fire_casualties(parts, leader, visible).outcomes()
    assert sum(mine.values()) == 1


def _army_fire_position(blast: bool = False) -> tuple[Game, list[Action]]:
    """A random game played up to the army's first fire at a unit it sees (a blast if
    ``blast``)."""
    for seed in range(3, 13):
        game = Game(RULESET, "market-day", seed)
        r = random.Random(0)
        for _ in range(400):
            if game.is_over:
                break
            if game.to_act == "army":
                obs = game.observation("army")
                fires = [
                    a
                    for a in game.legal_actions()
                    if a.kind == "fire"
                    and (a.option == "blast") == blast
                    and a.target in obs["units"]
                ]
                if fires:
                    return game, fires
            game.apply(r.choice(game.legal_actions()))
    raise AssertionError("no army fire came up")


def test_fire_odds_follow_the_d20_procedure() -> None:
    game, fires = _army_fire_position()
    obs = game.observation("army")
    for a in fires:
        odds: dict[str, Any] | None = BOARD.action_details(game, obs, "army", a)
        assert odds is not None and odds["kind"] == "casualties"
        # no casualty at all = every d20 of every firer misses: above the number, or a 20
        miss = Fraction(1)
        for d in odds["dice"]:
            p_hit = Fraction(min(d["need"], 19), 20)
            miss *= (1 - p_hit) ** d["dice"]
        assert odds["results"]["0 hits"] == pytest.approx(float(miss))
        assert sum(odds["results"].values()) == pytest.approx(1.0)
        # no more casualties than target figures in sight (bookgun.casualty.card)
        most = max(int(k.split()[0]) for k in odds["results"])
        assert most <= odds["visible"]


def test_fire_on_a_marker_has_no_odds() -> None:
    game, _ = _army_fire_position()
    obs = game.observation("army")
    for m in obs["markers"]:
        unit = next(iter(u for u in obs["units"] if obs["units"][u]["side"] == "army"))
        action = Action("fire", unit=unit, target=m)
        assert BOARD.action_details(game, obs, "army", action) is None


def test_blast_odds_give_the_on_target_roll() -> None:
    """bookgun.fire.blast: a d20 under the table's number lands on target (short range or
    beyond); the scatter and the burst are not in the odds, and the page says so."""
    from umpire.rulesets.bookgun.world import world_for

    game, _ = _army_fire_position(blast=True)
    obs = game.observation("army")
    table = world_for("market-day", None).tables.blast
    blasts = [
        a
        for a in game.legal_actions()
        if a.kind == "fire" and a.option == "blast" and a.target in obs["units"]
    ]
    assert blasts
    for a in blasts:
        odds = BOARD.action_details(game, obs, "army", a)
        assert odds is not None and odds["blast_not_counted"] and odds["blasts"]
        bands = {d["figure"]: d["band"] for d in odds["dice"] if d["blast"]}
        for b in odds["blasts"]:
            need = (
                table.on_target_short if bands[b["figure"]] == "short" else table.on_target_beyond
            )
            assert b["on_target"] == pytest.approx(need / 20)


def test_the_casualty_pile_read_from_the_observation_is_the_games() -> None:
    """The odds draw from the cards left (bookgun.casualty.card): the deck less the discards
    the observation shows is the pile the game will draw from."""
    from umpire.rulesets.bookgun.board import _pile

    drawn = 0
    for seed in range(5, 15):  # random games until one draws casualty cards on the way
        game = Game(RULESET, "market-day", seed)
        r = random.Random(seed)
        for _ in range(300):
            if game.is_over:
                break
            obs = game.observation("army")
            assert sorted(_pile(obs)) == sorted(game.state.casualties.pile or CASUALTY_DECK)
            drawn = max(drawn, len(obs["casualty_discard"]))
            game.apply(r.choice(game.legal_actions()))
        if drawn:
            break
    assert drawn > 0  # some casualty cards were drawn on the way


def test_the_board_draws_vehicles_with_their_passengers_counted() -> None:
    """bookgun.move.vehicles / bookgun.move.mount on the web table: Night Raid's Humvee is
    drawn as a hull at its model (both sides see it), the squad riding inside is not drawn
    figure by figure but counted on the vehicle - for the army; the Humvee is armoured, so the
    insurgents' board does not say who or how many ride inside; once dismounted its figures
    are drawn; the steep hillside is drawn as a hill and the tyre smoke as smoke."""
    game = Game(RULESET, "night-raid", 3)
    while game.state.flow.phase == "setup":
        game.apply(game.legal_actions()[0])
    for side in ("army", "insurgents"):
        board = BOARD.board(game, game.view(side).observation, side)
        hulls = [t for t in board["terrain"] if t["kind"] == "vehicle"]
        assert len(hulls) == 1 and hulls[0]["unit"] == "humvee"
        xs = [p[0] for p in hulls[0]["points"]]
        ys = [p[1] for p in hulls[0]["points"]]
        assert min(xs) < 18.0 < max(xs) and min(ys) < 2.0 < max(ys)
        assert not [f for f in board["figures"] if f["unit"] == "squad"]
        hv = next(u for u in board["units"] if u["id"] == "humvee")
        assert hv["stats"]["passengers"] == (7 if side == "army" else None)
        assert hv["stats"]["vehicle"] == "light_wheeled"
        assert ("squad" in {u["id"] for u in board["units"]}) == (side == "army")
        kinds = {t["id"]: t["kind"] for t in board["terrain"]}
        assert kinds["hillside"] == "hill" and kinds["tyre-smoke"] == "smoke"
    game.state.units["squad"].aboard = None
    board = BOARD.board(game, game.view("army").observation, "army")
    assert len([f for f in board["figures"] if f["unit"] == "squad"]) == 7
    hv = next(u for u in board["units"] if u["id"] == "humvee")
    assert hv["stats"]["passengers"] == 0
