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
from umpire.core.errors import DataFileError
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.common import world
from umpire.rulesets.bookgun.movement import dense_move, dice_for, roll_allowance, rough_drop
from umpire.rulesets.bookgun.scenario import load_scenario_file
from umpire.rulesets.bookgun.state import BookGunState

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
