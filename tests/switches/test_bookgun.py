"""Rule switches in The Book and The Gun (issue 21): each guarded rule under enforce, advise and
off, on positions the rulebook's wording forbids (seed 002: p.7 rules of engagement, p.10
spotting, p.15 facing and passengers, p.12 reload markers). ``off`` and ``advise`` change only
what is offered and what the log says; a game with every rule explicitly enforced is the default
game, event for event."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from tests.bookgun.test_rule_ids import _place
from tests.bookgun.test_rule_ids_terrain_weather import _with
from tests.switches.helpers import MODES, check_modes, switched
from umpire.core.actions import Action
from umpire.core.game import Game
from umpire.core.switches import OPTION_KEY
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.ruleset import rule_catalog
from umpire.rulesets.bookgun.state import KILLED, BookGunState

ARMY_CARD = "5-spades"  # black: the army's in all three scenarios


def _game(options: dict[str, Any], scenario: str = "market-day") -> Game:
    """A game after set-up (the first legal choice each time)."""
    game = Game(RULESET, scenario, 1, options)
    while game.state.flow.phase == "setup":
        game.apply(game.legal_actions()[0])
    return game


def _st(game: Game) -> BookGunState:
    s = game.state
    assert isinstance(s, BookGunState)
    return s


def _fire_card(s: BookGunState) -> None:
    s.flow.phase, s.card, s.acted = "fire", ARMY_CARD, []
    s.flow.stack.clear()


def _move_card(s: BookGunState) -> None:
    s.flow.phase, s.card, s.acted = "movement", ARMY_CARD, []
    s.flow.stack.clear()


def _face_off(s: BookGunState, army_facing: float = 90.0) -> None:
    """Team A on the open south-west ground (2, 2), cell 1 revealed 10 in. north of it (in the
    open, both having moved last turn so no spotting roll is needed), far from the civilians."""
    _place(s, "team-a", 2.0, 2.0, army_facing)
    _place(s, "cell-1", 2.0, 12.0, 270.0)
    for u in s.units.values():
        u.moved_last = True
    _fire_card(s)


def _offered(build: Callable[[dict[str, Any]], Game], rule: str, kind: str, **match: Any) -> Action:
    """The action under test, as offered when ``rule`` is off (it is the same in every mode)."""
    game = build(switched(rule, "off"))
    found = [
        a
        for a in game.legal_actions()
        if a.kind == kind and all(getattr(a, k) == v for k, v in match.items())
    ]
    assert found, f"no {kind} {match} offered with {rule} off"
    return found[0]


@pytest.mark.parametrize("mode", MODES)
def test_facing(mode: str) -> None:
    """bookgun.move.facing (p.15): figures see 180 degrees to their front (and fire in a cone
    within it). Team A faces south, away from cell 1 north of it: it may not fire at it."""

    def build(options: dict[str, Any]) -> Game:
        game = _game(options)
        _face_off(_st(game), army_facing=270.0)
        return game

    fire = _offered(build, "bookgun.move.facing", "fire", unit="team-a", target="cell-1")
    check_modes(build, fire, "bookgun.move.facing", mode, acting="army", other="insurgents")


@pytest.mark.parametrize("mode", MODES)
def test_static_unspotted_unit(mode: str) -> None:
    """bookgun.spot.static (p.10): a unit that neither moved nor fired last turn may be fired
    at only from within 6 in. or once spotted. Cell 1 kept still, unspotted, 10 in. away."""

    def build(options: dict[str, Any]) -> Game:
        game = _game(options)
        s = _st(game)
        _face_off(s)
        cell = s.units["cell-1"]
        cell.moved_last = cell.moved = cell.spotted = False
        cell.fired_last = False
        return game

    fire = _offered(build, "bookgun.spot.static", "fire", unit="team-a", target="cell-1")
    check_modes(build, fire, "bookgun.spot.static", mode, acting="army", other="insurgents")


@pytest.mark.parametrize("mode", MODES)
def test_roe_3_no_speculative_fire(mode: str) -> None:
    """bookgun.roe.3 (p.7, Weapons Ready): no speculative fire - the army may not shoot at a
    concealment marker (Market Day is played at ROE 3). Team A 8 in. from a marker."""

    def build(options: dict[str, Any]) -> Game:
        game = _game(options)
        s = _st(game)
        marker = sorted(s.markers.values(), key=lambda m: m.id)[0]
        _place(s, "team-a", marker.x + 8.0, marker.y, 180.0)
        _fire_card(s)
        return game

    marker = sorted(_st(_game({})).markers)[0]
    fire = _offered(build, "bookgun.roe.3", "fire", unit="team-a", target=marker)
    check_modes(build, fire, "bookgun.roe.3", mode, acting="army", other="insurgents")


@pytest.mark.parametrize("mode", MODES)
def test_roe_1_fire_only_back(mode: str) -> None:
    """bookgun.roe.1 (p.7, Weapons Hold): fire only when fired upon, only at that firer. Under
    ROE 1, cell 1 has not fired: team A may not shoot at it."""

    def build(options: dict[str, Any]) -> Game:
        game = _game(options)
        s = _st(game)
        _with(s, roe=1)
        _face_off(s)
        return game

    fire = _offered(build, "bookgun.roe.1", "fire", unit="team-a", target="cell-1")
    check_modes(build, fire, "bookgun.roe.1", mode, acting="army", other="insurgents")


@pytest.mark.parametrize("mode", MODES)
def test_roe_2_leader_authorises(mode: str) -> None:
    """bookgun.roe.2 (p.7, Weapons Tight): the leader on the spot authorises all fire. Under
    ROE 2 team A has lost its leader: its men may not fire."""

    def build(options: dict[str, Any]) -> Game:
        game = _game(options)
        s = _st(game)
        _with(s, roe=2)
        _face_off(s)
        s.figures["a-tl"].status = KILLED
        return game

    fire = _offered(build, "bookgun.roe.2", "fire", unit="team-a", target="cell-1")
    check_modes(build, fire, "bookgun.roe.2", mode, acting="army", other="insurgents")


@pytest.mark.parametrize("mode", MODES)
def test_reload_marker(mode: str) -> None:
    """bookgun.fire.reload (p.12: reload markers are placed in the fire phase and one removed
    in the morale phase): a unit with a reload marker does not fire."""

    def build(options: dict[str, Any]) -> Game:
        game = _game(options)
        s = _st(game)
        _face_off(s)
        s.units["team-a"].reload = 1
        return game

    fire = _offered(build, "bookgun.fire.reload", "fire", unit="team-a", target="cell-1")
    check_modes(build, fire, "bookgun.fire.reload", mode, acting="army", other="insurgents")


@pytest.mark.parametrize("mode", MODES)
def test_passengers(mode: str) -> None:
    """bookgun.move.vehicles (p.15: passengers - light wheeled 7): the Humvee takes seven; a
    squad of eight standing round it may not get in."""

    def build(options: dict[str, Any]) -> Game:
        game = _game(options, "night-raid")
        s = _st(game)
        squad = s.units["squad"]
        squad.aboard = None
        hv = s.unit_figures(s.units["humvee"])[0]
        _place(s, "squad", hv.x - 3.0, hv.y + 1.5)
        extra = dataclasses.replace(s.figures["sq-r2"], id="sq-r3", name="Rifleman C")
        s.figures[extra.id] = extra
        squad.figures.append(extra.id)
        _move_card(s)
        return game

    mount = Action("activate", unit="squad", option="mount:humvee")
    check_modes(build, mount, "bookgun.move.vehicles", mode, acting="army", other="insurgents")


def test_enforced_explicitly_is_the_default_game() -> None:
    """Only legality: every Book and Gun switch set to enforce plays the default game event for
    event (scripted players, Market Day and Night Raid)."""
    from umpire.rulesets.bookgun.agent import BookGunScripted

    rules = {rid: "enforce" for rid, e in rule_catalog().items() if e.switchable}
    assert len(rules) >= 5
    for scenario in ("market-day", "night-raid"):
        streams = []
        for options in ({}, {OPTION_KEY: rules}):
            game = Game(RULESET, scenario, 3, options)
            agents = {side: BookGunScripted(side, 3) for side in RULESET.meta.players}
            while not game.is_over and len(game.record.actions) < 3000:
                side = game.to_act
                assert side is not None
                game.apply(agents[side].choose(game.view(side), game.legal_actions()))
            streams.append([e.text for e in game.events])
        assert streams[0] == streams[1]


def test_simulated_games_under_advise_keep_the_agents_to_the_book() -> None:
    """`umpire simulate bookgun/... --rules` with rules under advise: the scripted players are
    held to the book (the game records them as its players), so a card the book gives them
    nothing to do with is never theirs to play and the game runs to its end (seed 1 of Market
    Day used to hand the army a fire card it could only use against an advised rule)."""
    from umpire.analysis.simulate import play_game

    row = play_game(
        "bookgun/market-day",
        {OPTION_KEY: {"bookgun.*": "advise"}},
        {"army": "scripted", "insurgents": "scripted"},
        0,
        1,
    )
    assert row["winner"] in ("army", "insurgents", "draw")
