"""The Book and The Gun: procedures and exact probabilities, named by rule id."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from umpire.core.actions import Action
from umpire.core.chance import TableLookup
from umpire.core.errors import DataFileError, IllegalActionError
from umpire.core.events import seen_by
from umpire.core.game import Game
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.allowance import Allowance
from umpire.rulesets.bookgun.chances import (
    HitsUnder,
    RollUnder,
    casualty_effect,
    close_combat_casualties,
    fire_casualties,
)
from umpire.rulesets.bookgun.combat import spot_number
from umpire.rulesets.bookgun.common import world
from umpire.rulesets.bookgun.movement import keep_dice, move_problem
from umpire.rulesets.bookgun.ruleset import rule_catalog, rules_markdown
from umpire.rulesets.bookgun.scenario import load_scenario_file
from umpire.rulesets.bookgun.tables import HOUSE_RULES, base_tables, tables_with

REPO = Path(__file__).resolve().parents[2]


def _deployed(seed: int = 1) -> Game:
    """Market Day after the set-up: cell-1 in A1, cell-2 in B1, the leader in C1, dummies out."""
    game = Game(RULESET, "market-day", seed)
    sites = {
        "cell-1": "A1",
        "cell-2": "B1",
        "group-hq": "C1",
        "dummy-1": "grove",
        "dummy-2": "gully",
    }
    while game.to_act == "insurgents" and game.legal_actions()[0].kind == "deploy":
        what = str(game.legal_actions()[0].unit)
        game.apply(Action("deploy", unit=what, option=sites[what]))
    game.apply(Action("cache", option="C1"))
    game.apply(Action("commander", unit="lt"))
    return game


# -- exact probabilities ------------------------------------------------------------------------
def test_spot_roll_is_a_d20_at_or_under_the_chart_number() -> None:
    """bookgun.spot.roll / bookgun.spot.chart: army spotter at 10 in. with a leader needs 12."""
    w = world(RULESET.new_state("market-day", 1, {}))
    army = RULESET.new_state("market-day", 1, {}).units["team-a"]
    assert spot_number(w, army, 3.0, True) is None  # within 4 in.: automatic
    assert spot_number(w, army, 10.0, True) == 12
    assert spot_number(w, army, 10.0, False) == 10
    assert RollUnder(20, 12, "bookgun.spot.roll").outcomes()[True] == Fraction(12, 20)


def test_fire_dice_hit_at_or_under_and_a_natural_20_misses() -> None:
    """bookgun.fire.procedure / bookgun.fire.table: binomial hits, a 20 never hits."""
    three = HitsUnder(3, 20, 5, "bookgun.fire.table").outcomes()
    p = Fraction(5, 20)
    assert three == {k: Fraction([1, 3, 3, 1][k]) * p**k * (1 - p) ** (3 - k) for k in range(4)}
    assert HitsUnder(1, 20, 25, "bookgun.fire.table").outcomes()[1] == Fraction(19, 20)
    t = base_tables().fire_table
    assert (t.number("short", "I"), t.number("medium", "IV"), t.number("long", "IV")) == (10, 2, 1)


def test_casualty_card_decides_killed_wounded_and_leader() -> None:
    """bookgun.casualty.card / bookgun.lead.ace: ace = leader, hearts kill, others wound."""
    assert casualty_effect("A-spades") == "leader"
    assert casualty_effect("A-spades", leader_present=False) == "key_wounded"
    assert casualty_effect("K-hearts") == "key_killed"
    assert casualty_effect("7-hearts") == "killed"
    assert casualty_effect("7-clubs") == "wounded"
    one_die = HitsUnder(1, 20, 20, "bookgun.fire.table")  # hits on 1-19
    dist = fire_casualties([one_die], True, 7).outcomes()
    assert dist[(0, 0, 0)] == Fraction(1, 20)
    assert dist[(1, 0, 1)] == Fraction(19, 20) * Fraction(4, 52)  # an ace: the leader
    assert dist[(1, 0, 0)] == Fraction(19, 20) * Fraction(12, 52)  # a heart below the ace
    assert dist[(0, 1, 0)] == Fraction(19, 20) * Fraction(36, 52)
    assert sum(dist.values()) == 1


def test_joker_table_each_result_one_in_six() -> None:
    """bookgun.turn.joker: the published d6 table."""
    results = base_tables().joker.results
    dist = TableLookup(6, dict(results), "bookgun.turn.joker").outcomes()
    assert set(dist) == {"extra_die", "no_move", "fall_back", "minus_d6", "heal", "charge"}
    assert all(p == Fraction(1, 6) for p in dist.values())
    assert results[3] == "fall_back" and results[6] == "charge"


def test_close_combat_pair_is_d6_against_d6() -> None:
    """bookgun.cc.roll: +1 for the charger: it wins 21/36, ties 5/36."""
    dist = close_combat_casualties([(1, 0)]).outcomes()
    assert dist[(0, 1)] == Fraction(21, 36)
    assert dist[(0, 0)] == Fraction(5, 36)
    assert dist[(1, 0)] == Fraction(10, 36)


def test_morale_natural_one_passes_and_six_fails() -> None:
    """bookgun.morale.table: a 1 always passes, a 6 always fails."""
    from umpire.core.chance import Modifier

    hard = RollUnder(
        6,
        1,
        "bookgun.morale.table",
        (Modifier("bookgun.morale.table", 3, "x"),),
        frozenset({1}),
        frozenset({6}),
    )
    assert hard.outcomes()[True] == Fraction(1, 6)
    easy = RollUnder(6, 9, "bookgun.morale.table", (), frozenset({1}), frozenset({6}))
    assert easy.outcomes()[False] == Fraction(1, 6)


# -- procedures ---------------------------------------------------------------------------------
def test_rough_ground_drops_the_highest_die_for_the_army_lowest_for_insurgents() -> None:
    """bookgun.move.rough / bookgun.move.chart / bookgun.move.dice."""
    drop = base_tables().movement.rough_drop
    assert keep_dice([2, 6, 4], drop["army"]) == [2, 4]
    assert keep_dice([2, 6, 4], drop["insurgents"]) == [4, 6]
    assert keep_dice([2, 6, 4], drop["civilians"]) == [2, 6, 4]
    assert base_tables().movement.dice["army"]["column"].road == 4


def test_deployment_is_secret_and_markers_public() -> None:
    """bookgun.setup.deploy / bookgun.conceal.markers / bookgun.conceal.cache /
    bookgun.lead.cinc."""
    game = _deployed()
    obs = game.observation("army")
    assert not any(u in obs["units"] for u in ("cell-1", "cell-2", "group-hq"))
    assert not any(f["side"] == "insurgents" for f in obs["figures"].values())
    assert all("unit" not in m for m in obs["markers"].values()) and len(obs["markers"]) == 5
    assert "cache_room" not in obs
    words = " ".join(e.text for e in game.log("army"))
    assert not re.search(r"cell-1|Cell 1|C1 holds|dummy", words)
    assert "C1" in " ".join(e.text for e in game.log("insurgents"))
    assert game.observation("insurgents")["cache_room"] == "C1"
    assert "commander" not in game.observation("insurgents")
    assert game.observation("army")["commander"] == "lt"


def test_markers_only_at_concealing_sites() -> None:
    """bookgun.conceal.where / bookgun.conceal.who: only the scenario's sites are offered (to a
    7-figure cell all but C1, a one-room house it does not fit - bookgun.building.capacity)."""
    game = Game(RULESET, "market-day", 1)
    sites = {str(a.option) for a in game.legal_actions()}
    assert sites == set(world(game.state).sites) - {"C1"}
    with pytest.raises(IllegalActionError):
        game.apply(Action("deploy", unit="cell-1", option="main-street"))


def test_closing_on_a_marker_reveals_it() -> None:
    """bookgun.conceal.reveal: an army figure within 4 in. turns the marker over."""
    from umpire.rulesets.bookgun.combat import check_reveals

    game = _deployed()
    state = game.state
    marker = next(m for m in state.markers.values() if m.unit is None)
    state.figures["a-r"].x, state.figures["a-r"].y = marker.x + 2.0, marker.y
    events = check_reveals(state)
    assert any("dummy" in e.text for e in events) and marker.id not in state.markers


def test_roe3_forbids_fire_at_markers_and_civilians() -> None:
    """bookgun.roe.3 / bookgun.roe.4: no speculative fire; civilians never targets under 3."""
    from umpire.rulesets.bookgun.combat import roe_problem

    game = _deployed()
    s = game.state
    unit = s.units["team-a"]
    figs = s.fit_figures(unit)
    marker = next(iter(s.markers))
    assert "bookgun.roe.3" in str(roe_problem(s, unit, figs, marker))
    assert "bookgun.roe.3" in str(roe_problem(s, unit, figs, "crowd"))


def test_buildings_take_four_figures_a_room_and_need_a_door() -> None:
    """bookgun.building.capacity / bookgun.building.doors / bookgun.building.move."""
    from umpire.rulesets.bookgun.movement import place_in_rooms

    game = _deployed()
    s = game.state
    unit = s.units["team-a"]
    al = Allowance(30.0, 30.0, 30.0)
    assert move_problem(s, unit, al, (7.0, 12.0), None) is not None  # through the warehouse wall
    assert move_problem(s, unit, al, None, "D2") is None  # by its door
    used = place_in_rooms(s, unit, "D2", (10.0, 11.0))
    per_room = {r: sum(1 for f in s.fit_figures(unit) if f.room == r) for r in used}
    assert all(n <= 4 for n in per_room.values())
    assert move_problem(s, unit, al, None, "B3") is not None  # upstairs: ground floor first


def test_search_finds_the_cache_only_in_its_room() -> None:
    """bookgun.search / bookgun.victory.points: +5 for the cache."""
    from umpire.rulesets.bookgun.ruleset import army_points

    game = _deployed()
    s = game.state
    s.cache_found = True
    assert army_points(s)["cache"] == 5


def test_bad_scenario_file_is_one_line_naming_file_and_field(tmp_path: Path) -> None:
    text = (REPO / "src/umpire/rulesets/bookgun/data/scenarios/market-day.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("turns: 10", "turns: many"))
    with pytest.raises(DataFileError) as err:
        load_scenario_file(bad)
    message = str(err.value)
    assert "bad.yaml" in message and "turns" in message and "\n" not in message


def test_house_rules_override_a_table(tmp_path: Path) -> None:
    """Tables are data: a user file replaces the fire table; a bad key is one line."""
    good = tmp_path / "house.yaml"
    good.write_text("fire_table:\n  short: {I: 12, II: 9, III: 6, IV: 4}\n")
    assert tables_with(HOUSE_RULES.load(good)).fire_table.number("short", "IV") == 4
    bad = tmp_path / "bad.yaml"
    bad.write_text("fire_tabel: {}\n")
    with pytest.raises(DataFileError, match="fire_tabel"):
        HOUSE_RULES.load(bad)


def test_scripted_game_ends_and_army_never_reads_hidden_units() -> None:
    from umpire.rulesets.bookgun.agent import BookGunScripted

    game = Game(RULESET, "market-day", 3)
    agents = {s: BookGunScripted(s, 3) for s in RULESET.meta.players}
    for _ in range(3000):
        if game.is_over:
            break
        side = game.to_act
        assert side is not None
        view = game.view(side)
        if side == "army":
            hidden = {u.id for u in game.state.units.values() if u.concealed}
            assert not hidden & set(view.observation["units"])
        game.apply(agents[side].choose(view, game.legal_actions()))
    assert game.is_over


def test_resample_moves_hidden_things_only() -> None:
    game = _deployed()
    twin = RULESET.resample(game.state, "army", random.Random(4))
    assert RULESET.observation(twin, "army") == RULESET.observation(game.state, "army")
    assert seen_by(RULESET.setup_events(twin), "army") == seen_by(
        RULESET.setup_events(game.state), "army"
    )


# -- catalogue ----------------------------------------------------------------------------------
def test_every_rule_id_in_code_is_catalogued() -> None:
    cited: set[str] = set()
    for path in (REPO / "src/umpire/rulesets/bookgun").rglob("*.py"):
        cited |= set(re.findall(r'"(bookgun(?:\.[a-z0-9_]+)+)"', path.read_text()))
    assert not sorted(cited - set(rule_catalog()))


def test_every_spec_rule_id_is_catalogued() -> None:
    spec = Path("/work/shared/rules/book-and-gun.md")
    if not spec.exists():
        pytest.skip("specification not on this machine")
    ids = set(re.findall(r"\*\*(bookgun\.[a-z0-9_.]+)\*\*", spec.read_text()))
    assert not sorted(ids - set(rule_catalog()))


def test_docs_are_generated_from_the_catalogue() -> None:
    assert (REPO / "docs/rules/bookgun.md").read_text() == rules_markdown()
