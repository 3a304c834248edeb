"""The Book and The Gun: the last movement clauses of pages 16-17 - over-snow vehicles (p.16),
horse holders and led horses (p.17, 5.3) and stampedes (p.17, 5.4). Each test follows the
rulebook's wording (seed 002, page and paragraph cited; spec /work/shared/rules/book-and-gun.md
§3.8, §4.6) and plays through the same action kinds as a game. Tables: the test-only scenarios
``tests/bookgun/scenarios/snow.yaml`` and ``transport.yaml`` (not shipped)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import umpire.rulesets.bookgun.scenario as scenario_mod
from tests.bookgun.test_rule_ids import _place
from umpire.core.actions import Action
from umpire.core.errors import DataFileError
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.rulesets.bookgun import RULESET, combat
from umpire.rulesets.bookgun.common import world
from umpire.rulesets.bookgun.mounts import change, holding, mount_options
from umpire.rulesets.bookgun.movement import dense_move, dice_for, roll_allowance, rough_drop
from umpire.rulesets.bookgun.ruleset import Activate
from umpire.rulesets.bookgun.scenario import load_scenario_file
from umpire.rulesets.bookgun.state import KILLED, WOUNDED, BookGunState

HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def _test_scenarios(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(scenario_mod, "SCENARIOS", HERE / "scenarios")
    scenario_mod.load_scenario.cache_clear()
    yield
    scenario_mod.load_scenario.cache_clear()


def _state(name: str, seed: int = 1) -> BookGunState:
    state = Game(RULESET, name, seed).state
    assert isinstance(state, BookGunState)
    return state


def _rolls(events: list[Event]) -> list[list[int]]:
    return [list(e.get("dice") or []) for e in events if e.kind == "roll"]


# -- bookgun.move.over_snow (p.16) ---------------------------------------------------------------
def test_over_snow_vehicles_roll_4d6_on_snow_and_lose_the_low_die_in_rough_doubled_in_dense() -> (
    None
):
    """bookgun.move.over_snow - p.16: all over-snow vehicles travel at 4D6 on snow (the chart's
    3 is open question 7; the text is followed); snow smooths rough and dense ground, so they
    lose their low die there and pay the double penalty on the low die in dense ground. Foot
    troops on the same snow still lose a die (p.19 2.1), the vehicles do not (house)."""
    for seed in range(1, 6):
        s = _state("snow", seed)
        w = world(s)
        assert w.spec.ground == "snow"
        for uid in ("skidoo", "bv"):
            unit = s.units[uid]
            assert (dice_for(w, unit, "cross"), dice_for(w, unit, "road")) == (4, 4)
            assert rough_drop(w, unit) == "lowest"
            events: list[Event] = []
            al = roll_allowance(s, unit, None, False, events)
            faces = _rolls(events)[0]
            assert len(faces) == 4
            assert al.clear == sum(faces)  # no snow-and-mud die lost
            assert al.rough == sum(faces) - min(faces)
            assert al.dense == dense_move(faces, "lowest", 1.0)
            assert al.dense == max(1.0, sum(faces) - 2 * min(faces))
        events = []
        al = roll_allowance(s, s.units["section"], None, False, events)
        faces = _rolls(events)[0]
        assert len(faces) == 3 and al.clear == sum(faces) - max(faces)  # p.19 2.1 for foot


def test_a_bv206_off_snow_is_light_tracked_and_a_ski_doo_needs_snow(tmp_path: Path) -> None:
    """bookgun.move.over_snow - p.16: a BV206 counts as a light tracked vehicle when not on snow
    (spec §4.6: 4D6 across country, 5D6 on a road, lowest die lost in rough); a Ski-Doo may not
    travel where there is no snow, so a scenario fielding one on bare ground is a one-line error
    naming the field."""
    text = (HERE / "scenarios" / "snow.yaml").read_text()
    dry = text.replace("ground: snow", "ground: dry")
    bad = tmp_path / "snow.yaml"
    bad.write_text(dry)
    with pytest.raises(DataFileError) as err:
        load_scenario_file(bad)
    assert str(err.value).startswith(f"{bad}: field units.0.vehicle: ski_doo travels only on snow")
    assert "\n" not in str(err.value)
    start = dry.index("  - id: skidoo")
    good = dry[:start] + dry[dry.index("  - id: bv\n") :]
    (tmp_path / "thaw.yaml").write_text(good.replace("id: snow", "id: thaw", 1))
    scenario_mod.SCENARIOS = tmp_path  # restored by the fixture's monkeypatch
    scenario_mod.load_scenario.cache_clear()
    s = _state("thaw")
    w = world(s)
    bv = s.units["bv"]
    assert (dice_for(w, bv, "cross"), dice_for(w, bv, "road")) == (4, 5)
    assert rough_drop(w, bv) == "lowest"
    events: list[Event] = []
    al = roll_allowance(s, bv, None, False, events)
    faces = _rolls(events)[0]
    assert len(faces) == 4  # off the road: the cross-country figure
    assert al.clear == sum(faces) and al.rough == sum(faces) - min(faces)


def test_over_snow_vehicles_play_through_legal_actions_and_apply() -> None:
    """Random legal play on the snow table reaches the end of the game, moving both vehicles."""
    moved: set[str] = set()
    for seed in range(6):
        game = Game(RULESET, "snow", seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.state.over is not None:
                break
            action = rng.choice(game.legal_actions())
            if action.kind == "move_to" and action.unit in ("skidoo", "bv"):
                moved.add(str(action.unit))
            game.apply(action)
        assert game.state.over is not None
    assert moved == {"skidoo", "bv"}


# -- bookgun.cavalry.holders (p.17 5.3) ----------------------------------------------------------
RED = "5-hearts"  # an insurgent card (insurgents red)


def _on_foot(seed: int = 1) -> BookGunState:
    """The transport table's cavalry troop (a sergeant and three troopers) got off its horses
    through the game's own activation, standing in the open south of the insurgent cell."""
    s = _state("transport", seed)
    s.flow.phase, s.card, s.acted = "movement", "5-spades", []
    s.flow.stack.clear()
    Activate().resolve(s, "army", Action("activate", unit="troop", option="get_off"))
    s.flow.stack.clear()
    _place(s, "troop", 6.0, 20.0, 90.0)
    _place(s, "cell", 6.0, 26.0, 270.0)
    return s


def test_a_quarter_of_a_dismounted_troop_holds_the_horses_and_they_are_key_figures() -> None:
    """p.17 (5.3): a cavalry unit fighting on foot details a quarter of its men (rounded in the
    mounted player's favour: 4 men -> 1) to hold the horses; holders and led horses count as key
    figures for fire when with the dismounted part of their unit. A holder's hands are full: he
    does not fire (house). Mounted again, nobody holds horses."""
    s = _on_foot()
    troop = s.units["troop"]
    assert troop.holders == ["cv-3"] and [f.id for f in holding(s, troop)] == ["cv-3"]
    assert "cv-3" not in {f.id for f in combat.firing_figures(s, troop)}
    assert {"cv-l", "cv-1", "cv-2"} <= {f.id for f in combat.firing_figures(s, troop)}
    visible = s.unit_figures(troop)
    # a face card: the firer's key figure - the holder (the troop has no gunner or radio man)
    assert combat.choose_victim(s, troop, "key_wounded", visible).id == "cv-3"  # type: ignore[union-attr]
    # a pip card: an ordinary figure, not the holder
    assert combat.choose_victim(s, troop, "wounded", visible).id == "cv-1"  # type: ignore[union-attr]
    events: list[Event] = []
    change(s, troop, world(s), events)  # gets on again
    assert troop.riding and troop.holders == [] and holding(s, troop) == []
    assert combat.choose_victim(s, troop, "key_wounded", visible).id == "cv-1"  # type: ignore[union-attr]


def test_horse_holders_stay_out_of_close_combat_until_the_rest_are_casualties() -> None:
    """p.17 (5.3): the horse holders of a unit in close combat need not take part until every
    other figure of the unit involved is a casualty. Charged by the cell, the troop fights with
    its sergeant and two troopers; trooper 3 holds the horses and is in no pair. With the others
    down, the holder fights."""
    paired = 0
    for seed in range(1, 30):
        s = _on_foot(seed)
        troop, cell = s.units["troop"], s.units["cell"]
        assert [f.id for f in combat.fighters(s, troop)] == ["cv-l", "cv-1", "cv-2"]
        events = combat.fight(s, cell, troop)
        pairs = [e.text for e in events if e.kind == "roll" and " against " in e.text]
        paired += bool(pairs)
        assert not [t for t in pairs if "Trooper 3" in t]
    assert paired  # some fights came to pairs
    s = _on_foot()
    troop = s.units["troop"]
    for fid in ("cv-l", "cv-1", "cv-2"):
        s.figures[fid].status = KILLED
    assert [f.id for f in combat.fighters(s, troop)] == ["cv-3"]


def test_a_face_card_with_no_gunner_in_view_hits_a_led_horse_and_starts_a_stampede_test() -> None:
    """p.17 (5.3): the led horses are key figures; (5.4) horses fired at with one hit make a
    morale check on the stand-and-fight chart (bookgun.cc.stand) for their holders' type: the
    'with leader' column (army 5) while an un-hit holder holds them, 'without leader' (army 4)
    once the holder is hit or there is none. Played through legal_actions and apply: the cell
    fires on the dismounted troop with a king drawn as the first casualty card."""
    checked = {5: 0, 4: 0}
    for seed in range(1, 40):
        s = _on_foot(seed)
        if seed % 2:
            s.figures["cv-3"].status = WOUNDED  # the holder is hit: no un-hit holder
        s.flow.phase, s.card, s.acted = "fire", RED, []
        s.flow.stack.clear()
        s.casualties.pile = ["K-spades"] * 52
        fire = Action("fire", unit="cell", target="troop")
        if fire not in RULESET.legal_actions(s):
            continue
        events = RULESET.apply(s, fire)
        hits = [e for e in events if e.kind == "casualty"]
        if not hits:
            continue
        assert all(e.rule == "bookgun.cavalry.holders" and "led horse" in e.text for e in hits)
        tests = [e for e in events if e.kind == "roll" and e.rule == "bookgun.cavalry.stampede"]
        face = list(tests[0].get("dice") or [])[0]
        need = 5 if seed % 2 == 0 else 4
        checked[need] += 1
        troop = s.units["troop"]
        if face <= need:
            assert not troop.horses_lost and any("horses stand" in e.text for e in events)
        else:
            # 5D6 directly away from the firers; house: the horses are lost to the troop
            assert len(list(tests[1].get("dice") or [])) == 5
            assert troop.horses_lost and troop.holders == []
            assert mount_options(s, troop, False) == []
            assert len(combat.fighters(s, troop)) == len(s.fit_figures(troop))
    assert checked[5] and checked[4]


def test_the_stampede_test_holds_exactly_on_the_stand_chart_number_or_less() -> None:
    """p.17 (5.4): one d6 on the stand-and-fight chart (bookgun.cc.stand, army line): the horses
    hold on 5 or less with an un-hit holder, on 4 or less without; every face of each column is
    seen and judged that way, and the 5D6 run follows only a failure."""
    for with_holder, need in ((True, 5), (False, 4)):
        seen: set[int] = set()
        for seed in range(80):
            s = _on_foot(1)
            s.rng = type(s.rng)(seed)
            if not with_holder:
                s.figures["cv-3"].status = KILLED
            events = combat.stampede_check(s, s.units["troop"], s.units["cell"])
            rolls = [list(e.get("dice") or []) for e in events if e.kind == "roll"]
            face = rolls[0][0]
            seen.add(face)
            lost = s.units["troop"].horses_lost
            assert lost == (face > need)
            assert len(rolls) == (2 if lost else 1) and (not lost or len(rolls[1]) == 5)
        assert seen == {1, 2, 3, 4, 5, 6}


def test_the_fire_odds_count_a_face_card_on_the_led_horses_as_no_figure_hit() -> None:
    """The web table's exact fire odds follow the same rule as play: at a dismounted troop with
    no key men in view, a face card (12 of 52) hits a horse, not a man; pips (36) and aces (4,
    the sergeant in view) hit figures - so one hit is a casualty with probability 40/52."""
    from fractions import Fraction

    from umpire.rulesets.bookgun.board import card_tallies
    from umpire.rulesets.bookgun.chances import CASUALTY_DECK

    deck = tuple(sorted(CASUALTY_DECK))
    with_horses = dict(card_tallies(1, True, deck, True))
    assert with_horses[(0, 0, 0)] == Fraction(12, 52)
    assert sum(p for (k, w, _), p in with_horses.items() if k + w == 1) == Fraction(40, 52)
    assert dict(card_tallies(1, True, deck)).get((0, 0, 0), 0) == 0


def test_over_snow_vehicles_on_a_snowy_road_move_together_keeping_every_die() -> None:
    """bookgun.move.over_snow with bookgun.move.road_column (p.14 2.4): the Ski-Doo and the BV206
    nose to tail on the road activate on one card at the slower rate (both 4D6 on snow); on snow
    they keep the die snow takes from others on roads (p.19 2.1 - house, as off the road)."""
    s = _state("snow")
    for uid, y in (("skidoo", 4.0), ("bv", 7.0)):
        m = s.figures[s.units[uid].figures[0]]
        m.x, m.y, m.facing = 17.0, y, 90.0
    s.flow.phase, s.card, s.acted = "movement", "5-spades", []
    s.flow.stack.clear()
    convoy = [a for a in Activate().options(s, "army") if a.option == "convoy"]
    lead = next(a for a in convoy if a.unit == "skidoo")
    assert lead.units == ("bv",)
    events = Activate().resolve(s, "army", lead)
    faces = _rolls(events)[0]
    assert len(faces) == 4 and s.flow.stack[-1].data["road"] == sum(faces)
