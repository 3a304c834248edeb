"""The Rhine set-up under rule switches (docs/rule-switches.md): where a unit is set up
(rhine.setup.area) may be advised or switched off for a game at a physical table; which side
sets up when (rhine.setup.order), the stacking limits (rhine.stack.*) and the ban on a hex
holding enemy units (rhine.move.enemy) stay enforced.

From the specification (/work/shared/rules/rhine-operational.md):

- spec 5.5 (order of battle, "set-up / entry" column): 11 ACR "any hex cols 08-10", 3 AD "any
  hex cols 04-07", the Pact "any hex cols 11-12";
- spec 5.6: "NATO sets up first (fixed garrisons, then 11 ACR, then 3 AD), then the Pact";
- spec 3.8: stacking (Pact 2 of one division at all times, NATO 3 of one division and nation).
"""

from __future__ import annotations

from typing import Any

import pytest

from umpire.agents.base import make_agent
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game, new_game
from umpire.core.switches import OPTION_KEY, book_only
from umpire.play import play_out
from umpire.rulesets.rhine.model import world_for

AREA = "rhine.setup.area"
ACR = ("N-11-SQ1", "N-11-SQ2")
AD3 = ("N-3-TB1", "N-3-TB2", "N-3-MI1", "N-3-MI2")
PACT_ALL = (
    "P-79-TR1",
    "P-79-TR2",
    "P-79-MRR",
    "P-79-RB",
    "P-27-MRR1",
    "P-27-MRR2",
    "P-27-TR",
    "P-27-RB",
)


def _game(mode: str | None, seed: int = 1, scenario: str = "autobahn-gap") -> Game:
    options = {} if mode is None else {OPTION_KEY: {AREA: mode}}
    return new_game(f"rhine/{scenario}", seed=seed, options=options)


def _placements(game: Game, unit: str) -> set[str]:
    return {str(a.cell) for a in game.legal_actions() if a.kind == "place" and a.unit == unit}


def _col(h: str | None) -> int:
    return int(str(h)[:2])


def _pact_area() -> tuple[str, ...]:
    """The Pact's set-up area in Autobahn Gap (spec 5.5: columns 11-12)."""
    found = next(area for s, _f, area, _u in world_for("autobahn-gap").setup_steps if s == "pact")
    assert {_col(h) for h in found} == {11, 12} and len(found) == 20
    return found


def _refused(game: Game, action: Action, rule: str, words: str) -> None:
    before = game.state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        game.apply(action)
    assert err.value.rule == rule, err.value
    assert words in str(err.value), str(err.value)
    assert game.state.to_dict() == before  # a refusal changes nothing


# -- the three modes (spec 5.5: 11 ACR "any hex cols 08-10") ----------------------------------
def test_enforce_refuses_a_hex_outside_the_area() -> None:
    """Enforced (the default and an explicit ``enforce``): a squadron of 11 ACR in 0704
    (column 07) is neither offered nor accepted, and the refusal names rhine.setup.area."""
    for mode in (None, "enforce"):
        game = _game(mode)
        assert "0704" not in _placements(game, "N-11-SQ1")
        _refused(game, Action("place", unit="N-11-SQ1", cell="0704"), AREA, "outside the set-up")


def test_advise_accepts_a_hex_outside_the_area_with_a_warning() -> None:
    """Advised: 0704 is offered with the rule named in its menu line; played, the unit stands
    there and the log warns: NATO reads what it did, the Pact that NATO acted against the
    rule and what the book says (never where the unit went: the log's public side)."""
    game = _game("advise")
    move = Action("place", unit="N-11-SQ1", cell="0704")
    assert "0704" in _placements(game, "N-11-SQ1")
    assert f"[advice: against {AREA}]" in game.describe(move)
    assert "advice" not in game.describe(Action("place", unit="N-11-SQ1", cell="0904"))
    events = game.apply(move)
    assert game.state.pos["N-11-SQ1"] == "0704"
    advice = [e for e in events if e.kind == "advice"]
    assert [e.rule for e in advice] == [AREA]
    mine = [e for e in game.log("nato") if e.kind == "advice"]
    theirs = [e for e in game.log("pact") if e.kind == "advice"]
    assert "N-11-SQ1" in mine[-1].text and "0704" in mine[-1].text and AREA in mine[-1].text
    assert "NATO acted against rhine.setup.area" in theirs[-1].text
    # a placement inside the area is played without a word
    events = game.apply(Action("place", unit="N-11-SQ2", cell="0905"))
    assert not [e for e in events if e.kind == "advice"]


def test_off_accepts_a_hex_outside_the_area_silently() -> None:
    """Switched off: 0704 is offered and played without a word in the menu or the log. A unit
    set up in a hex of the other side's control (1105: columns 11-12 start the Pact's, spec
    5.6) takes it, as a unit entering it would (rhine.control.change)."""
    game = _game("off")
    assert game.state.control["1105"] == "pact"
    game.apply(Action("place", unit="N-11-SQ2", cell="1105"))
    assert game.state.control["1105"] == "nato" and game.state.pos["N-11-SQ2"] == "1105"
    move = Action("place", unit="N-11-SQ1", cell="0704")
    assert "advice" not in game.describe(move)
    events = game.apply(move)
    assert game.state.pos["N-11-SQ1"] == "0704"
    assert not [e for e in events if e.kind == "advice"]
    assert not [e for e in game.log(None) if e.kind == "advice"]


@pytest.mark.parametrize("mode", ["advise", "off"])
def test_every_hex_of_the_map_is_offered_and_agents_keep_to_the_area(mode: str) -> None:
    """Under advise or off a unit may be set up in any hex of the map (120 in Autobahn Gap,
    spec 5.1: 12x10), its area's hexes listed first; an agent held to the book is offered the
    area only under advise (the 30 hexes of columns 08-10), every hex under off."""
    game = _game(mode)
    w = world_for("autobahn-gap")
    listed = [str(a.cell) for a in game.legal_actions() if a.unit == "N-11-SQ1"]
    assert sorted(listed) == sorted(w.ids) and len(listed) == 120
    assert {_col(h) for h in listed[:30]} == {8, 9, 10}
    with book_only():
        book = {str(a.cell) for a in game.legal_actions() if a.unit == "N-11-SQ1"}
    assert len(book) == (30 if mode == "advise" else 120)


# -- what stays enforced ----------------------------------------------------------------------
def test_the_order_of_set_up_stays_enforced() -> None:
    """rhine.setup.order (spec 5.6 "then 11 ACR, then 3 AD"; fixed): with every Rhine rule
    switched off, 3 AD still waits for 11 ACR and the Pact for NATO."""
    game = new_game("rhine/autobahn-gap", seed=1, options={OPTION_KEY: {"rhine.*": "off"}})
    _refused(game, Action("place", unit="N-3-TB1", cell="0704"), "rhine.setup.order", "later")
    _refused(game, Action("place", unit="P-79-TR1", cell="1105"), "rhine.setup.order", "nato's")
    assert {a.unit for a in game.legal_actions() if a.kind == "place"} == set(ACR)


def test_stacking_and_enemy_hexes_stay_enforced_outside_the_area() -> None:
    """rhine.stack.nato / rhine.stack.pact (spec 3.8) and rhine.move.enemy: with the area
    switched off, a fourth 3 AD unit in a hex (the limit is 3) and a Pact regiment in a hex
    NATO holds are refused, naming those rules, and not offered."""
    game = _game("off")
    game.apply(Action("place", unit="N-11-SQ1", cell="1105"))  # in the Pact's area: off
    game.apply(Action("place", unit="N-11-SQ2", cell="0905"))
    for u in AD3[:3]:
        game.apply(Action("place", unit=u, cell="0303"))
    _refused(game, Action("place", unit="N-3-MI2", cell="0303"), "rhine.stack.nato", "over-stack")
    assert "0303" not in _placements(game, "N-3-MI2")
    game.apply(Action("place", unit="N-3-MI2", cell="0906"))
    assert game.to_act == "pact"
    _refused(game, Action("place", unit="P-79-TR1", cell="1105"), "rhine.move.enemy", "enemy")
    assert "1105" not in _placements(game, "P-79-TR1")
    game.apply(Action("place", unit="P-79-TR1", cell="0101"))
    game.apply(Action("place", unit="P-79-TR2", cell="0101"))
    _refused(game, Action("place", unit="P-79-MRR", cell="0101"), "rhine.stack.pact", "over-stack")


def test_a_hex_off_the_map_is_refused_under_every_mode() -> None:
    for mode in ("enforce", "advise", "off"):
        _refused(_game(mode), Action("place", unit="N-11-SQ1", cell="1311"), AREA, "no hex 1311")


# -- the suggested set-up (rhine.setup.suggested) -----------------------------------------------
def test_the_suggested_set_up_is_kept_and_closed_by_an_enemy_on_its_hexes() -> None:
    """The suggested set-up is offered under every mode; once NATO (area off) has set up a unit
    in 1105, a hex of the Pact's suggested set-up (P-79-TR2, P-79-MRR), the Pact cannot take
    it (it would share the hex with the enemy) and is refused naming the rule; the scripted
    Pact player then sets up unit by unit (its first listed placement: a hex of its area, the
    area's hexes being listed first), never in 1105."""
    game = _game("off")
    assert Action("setup_suggested") in game.legal_actions()
    game.apply(Action("place", unit="N-11-SQ1", cell="1105"))  # area off
    game.apply(Action("place", unit="N-11-SQ2", cell="0905"))
    for u, h in zip(AD3, ("0704", "0704", "0704", "0606"), strict=True):
        game.apply(Action("place", unit=u, cell=h))
    assert game.to_act == "pact"
    assert Action("setup_suggested") not in game.legal_actions()
    _refused(game, Action("setup_suggested"), "rhine.setup.suggested", "1105 holds enemy units")
    scripted = make_agent("scripted", "rhine", "pact", 1)
    while game.state.flow.phase == "setup":
        game.apply(scripted.choose(game.view("pact"), game.legal_actions()))
    pact_area = _pact_area()
    assert all(game.state.pos[u] in pact_area and game.state.pos[u] != "1105" for u in PACT_ALL)
    assert game.state.pos["N-11-SQ1"] == "1105"


# -- whole games ------------------------------------------------------------------------------
def _outcome(game: Game) -> Any:
    return (game.outcome.winner, game.outcome.how) if game.outcome else None


def test_a_game_of_agents_under_advise_is_the_enforced_game() -> None:
    """Agents are held to the book: scripted players under ``rhine.*: advise`` play the
    enforced game, action for action, to its end (the suggested set-up, then six turns)."""
    games = []
    for options in ({}, {OPTION_KEY: {"rhine.*": "advise"}}):
        game = new_game("rhine/autobahn-gap", seed=4, options=options)
        players = {s: make_agent("scripted", "rhine", s, 4) for s in ("nato", "pact")}
        games.append(play_out(game, players))
    plain, advised = games
    assert plain.outcome is not None and _outcome(advised) == _outcome(plain)
    assert advised.record.actions == plain.record.actions
    assert not [e for e in advised.log(None) if e.kind == "advice"]


@pytest.mark.parametrize("mode", ["advise", "off"])
def test_a_free_set_up_then_a_whole_game(mode: str) -> None:
    """A person sets NATO up anywhere (advise: with a warning for each unit outside its area;
    off: silently), the Pact's random player (held to the book) sets up, and scripted players
    play the game to its end."""
    game = _game(mode, seed=2)
    hand = dict(zip((*ACR, *AD3), ("0202", "0303", "0808", "1010", "1202", "0110"), strict=True))
    for u, h in hand.items():
        game.apply(Action("place", unit=u, cell=h))
    advised = [e.rule for e in game.log(None) if e.kind == "advice"]
    # outside the areas: 0202, 0303 (11 ACR); 0808, 1010, 1202 (3 AD); 0110 is column 01
    assert advised == ([AREA] * 6 if mode == "advise" else [])
    pact = make_agent("random", "rhine", "pact", 2)
    while game.state.flow.phase == "setup":
        game.apply(pact.choose(game.view("pact"), game.legal_actions()))
    pact_area = _pact_area()
    if mode == "advise":  # the random player was held to the book
        assert all(game.state.pos[u] in pact_area for u in PACT_ALL)
    players = {s: make_agent("scripted", "rhine", s, 2) for s in ("nato", "pact")}
    play_out(game, players)
    assert game.outcome is not None


def test_suggested_set_up_gives_back_a_hex_taken_by_hand() -> None:
    """rhine.control.change (a hex comes under the side of the unit that entered it) and
    rhine.control.initial (spec 5.5: control by the scenario's columns): a Pact unit set up
    by hand in NATO's empty city 0205 takes it, but when the Pact then takes its suggested
    set-up the unit leaves for its own hex, and nothing of the Pact's holds 0205: it is NATO's
    again, as at the start. The suggested hex itself is entered (its side's from then on)."""
    game = _game("off")
    game.apply(Action("setup_suggested"))  # NATO
    state: Any = game.state
    assert state.control["0205"] == "nato"
    assert not [u for u, h in state.pos.items() if h == "0205"]
    game.apply(Action("place", unit="P-79-TR1", cell="0205"))
    assert state.control["0205"] == "pact"
    game.apply(Action("setup_suggested"))  # Pact
    suggested = world_for("autobahn-gap").suggested["P-79-TR1"]
    assert state.pos["P-79-TR1"] == suggested != "0205"
    assert state.control["0205"] == "nato"
    assert state.control[suggested] == "pact"


def test_suggested_set_up_enters_its_hexes() -> None:
    """A NATO unit placed by hand in the Pact's area (on 1104, then NATO's) and moved by
    NATO's suggested set-up leaves 1104 to the Pact's columns again."""
    game = _game("off")
    state: Any = game.state
    first = next(a for a in game.legal_actions() if a.kind == "place")
    unit = str(first.unit)
    game.apply(Action("place", unit=unit, cell="1104"))
    assert state.control["1104"] == "nato"
    game.apply(Action("setup_suggested"))
    assert state.pos[unit] != "1104"
    assert state.control["1104"] == "pact"
