"""The Book and The Gun: rules found playing differently from the specification
(/work/shared/rules/book-and-gun.md) in a rule-by-rule review, each test written from the spec's
wording (rule id and section cited) before the fix."""

from __future__ import annotations

import re

from umpire.core.events import Event
from umpire.core.game import Game
from umpire.core.rng import RandomStream
from umpire.rulesets.bookgun import RULESET, combat
from umpire.rulesets.bookgun.common import world
from umpire.rulesets.bookgun.movement import dice_for
from umpire.rulesets.bookgun.scenario import load_scenario
from umpire.rulesets.bookgun.state import BookGunState


def _state(scenario: str = "market-day", seed: int = 1) -> BookGunState:
    game = Game(RULESET, scenario, seed)
    while game.state.flow.phase == "setup":
        game.apply(game.legal_actions()[0])
    state = game.state
    assert isinstance(state, BookGunState)
    return state


def _place(s: BookGunState, unit: str, x: float, y: float, facing: float = 90.0) -> None:
    u = s.units[unit]
    if u.concealed and u.marker in s.markers:
        del s.markers[str(u.marker)]
    u.concealed, u.marker = False, None
    for i, f in enumerate(s.unit_figures(u)):
        f.x, f.y, f.room, f.facing, f.prone = x + 1.2 * i, y, None, facing, False


def _melee(seed: int) -> tuple[BookGunState, list[Event]]:
    s = _state()
    _place(s, "team-a", 10.0, 2.0)
    _place(s, "cell-1", 10.0, 3.5, facing=270.0)
    s.rng = RandomStream(seed)
    return s, combat.fight(s, s.units["team-a"], s.units["cell-1"])


# -- close combat (spec §4.3) ------------------------------------------------------------------
def test_a_tied_close_combat_goes_to_the_defender() -> None:
    """bookgun.cc.outcome (spec §4.3 step 7): "the side with more casualties loses the combat;
    a tie goes to the defender" - with equal casualties the charger is the loser and tests."""
    ties = 0
    for seed in range(1, 120):
        s, events = _melee(seed)
        ends = [e for e in events if e.get("rule") == "bookgun.cc.outcome"]
        if not ends:
            continue
        found = re.search(r"\((\d+) to (\d+) casualties\)", ends[0].text)
        assert found is not None
        if found.group(1) != found.group(2):
            continue
        ties += 1
        assert ends[0].text.startswith("Cell 1 wins"), ends[0].text
        assert s.units["team-a"].status in ("shaken", "routed", "out")
        assert s.units["cell-1"].status not in ("shaken", "routed", "out")
    assert ties > 0


def test_surplus_defenders_double_up_on_the_chargers() -> None:
    """bookgun.cc.pairs (spec §4.3 step 4): "each charger pairs with a defender; surplus figures
    double up (a figure contacted by two fights two pairs, one after the other)" - four chargers
    against seven defenders fight seven pairs: every defender fights, three chargers twice (a
    doubled-up figure already down in its first pair does not fight its second)."""
    most = 0
    for seed in range(1, 40):
        s, events = _melee(seed)
        dice = [e for e in events if e.get("rule") == "bookgun.cc.roll"]
        if not dice:
            continue
        pairs = [d.text.split(": d6")[0].split(" against ") for d in dice[::2]]
        assert 4 <= len(pairs) <= 7, pairs
        chargers = [a for a, _ in pairs]
        assert all(chargers.count(a) <= 2 for a in chargers)
        most = max(most, len({d for _, d in pairs}))
    assert most == 7


def test_a_unit_that_fails_to_stand_falls_back_one_normal_move() -> None:
    """bookgun.cc.stand (spec §4.3 step 3): "Fail -> it falls back one normal move and becomes
    shaken" - the unit's own cross-country dice (unformed insurgents 2D6), not a fixed 3D6."""
    seen = 0
    for seed in range(1, 80):
        s, events = _melee(seed)
        back = [e for e in events if e.get("kind") == "roll" and "Cell 1 falls back" in e.text]
        stand = [e for e in events if e.get("rule") == "bookgun.cc.stand"]
        if not stand or stand[0].get("success") or not back:
            continue
        cell = s.units["cell-1"]
        assert len(back[0]["dice"]) == dice_for(world(s), cell, "cross") == 2
        seen += 1
    assert seen > 0


def test_a_losing_unit_that_passes_morale_falls_back_one_normal_move() -> None:
    """bookgun.cc.outcome (spec §4.3 step 7; p.12): losers that pass "fall back one normal move
    and become shaken" - the loser's own cross-country dice."""
    seen = 0
    for seed in range(1, 120):
        s, events = _melee(seed)
        for name, uid in (("Cell 1", "cell-1"), ("Fire team A", "team-a")):
            back = [e for e in events if e.get("kind") == "roll" and f"{name} falls back" in e.text]
            if back and "bookgun.cc.outcome" in [e.get("rule") for e in back]:
                assert len(back[0]["dice"]) == dice_for(world(s), s.units[uid], "cross")
                seen += 1
    assert seen > 0


# -- blasts (spec §4.1) -------------------------------------------------------------------------
def test_a_burst_inside_a_room_treats_everyone_in_it_as_category_ii() -> None:
    """bookgun.fire.blast (spec §4.1): "a burst inside a room treats everyone in that room as
    Cat II" - the room's occupants roll at the Category II blast number (10), not as Category IV
    (3); figures elsewhere keep their own category."""
    s = _state()
    cell = s.units["cell-1"]
    _place(s, "cell-1", 30.0, 5.0)
    inside = s.unit_figures(cell)[:3]
    for f, y in zip(inside, (23.0, 25.0, 27.5), strict=True):
        f.x, f.y, f.room = 5.5, y, "A1"  # the teahouse's west room (x 4-7, y 22-28)
    events = combat.burst(s, (5.5, 24.0), "army", (14.0, 24.0))
    rolls = {e.text.split(" in the burst")[0]: e for e in events if e.get("kind") == "roll"}
    for f in inside:
        assert f.name in rolls, f.name  # everyone in that room
        assert rolls[f.name]["need"] == world(s).tables.blast.numbers["II"] == 10
        assert "(Cat II)" in rolls[f.name].text
    for f in s.unit_figures(cell)[3:]:
        assert f.name not in rolls  # far outside


# -- weapons (spec §4.1, §6) --------------------------------------------------------------------
def test_a_grenadier_has_six_grenade_launcher_rounds() -> None:
    """bookgun.fire.weapons (spec §4.1: 40 mm grenade launcher "6 rounds per grenadier"; §6:
    team leader "M4 + M203, 6 rounds"): each blast spends a round, with none left there is no
    grenade-launcher blast."""
    spec = load_scenario("market-day")
    for u in spec.units:
        for f in u.figures:
            if f.second == "grenade_launcher":
                assert f.rounds == 6, f.id
    s = _state()
    _place(s, "team-a", 10.0, 2.0)
    _place(s, "cell-1", 10.0, 14.0)
    s.units["cell-1"].moved = True
    unit, target, gl = s.units["team-a"], s.units["cell-1"], s.figures["a-tl"]
    assert gl.rounds == 6
    shots = combat.plan_shots(s, unit, [gl], target, True)
    assert [x.blast for x in shots] == ["grenade_launcher"]
    combat.blast_at(s, gl, unit, target, shots[0])
    assert gl.rounds == 5
    gl.rounds = 0
    shots = combat.plan_shots(s, unit, [gl], target, True)
    assert [x.blast for x in shots] == [None]  # his rifle instead
    assert combat.he_weapon(s, unit, gl) is None


def test_an_mmg_with_only_one_crew_rolls_two_dice() -> None:
    """bookgun.fire.weapons (spec §4.1 MMG: "4, 3 at long; 2 if only one crew", 2 crew): the
    M240 rolls 4 dice at short range with its assistant, 2 when the gunner is alone."""
    s = _state()
    _place(s, "gun-team", 10.0, 2.0)
    _place(s, "cell-1", 10.0, 8.0)
    s.units["cell-1"].moved = True
    unit, target, gunner = s.units["gun-team"], s.units["cell-1"], s.figures["mg"]
    shots = combat.plan_shots(s, unit, [gunner], target, False)
    assert [x.dice for x in shots] == [4]
    s.figures["mg-a"].status = "wounded"
    shots = combat.plan_shots(s, unit, [gunner], target, False)
    assert [x.dice for x in shots] == [2]
    s.figures["mg-a"].status = "killed"
    _place(s, "cell-1", 10.0, 40.0)  # long range: still 2 (not 3)
    shots = combat.plan_shots(s, unit, [gunner], target, False)
    assert [x.dice for x in shots] == [2]
