"""The Book and The Gun: rules found playing differently from the specification
(/work/shared/rules/book-and-gun.md) in a rule-by-rule review, each test written from the spec's
wording (rule id and section cited) before the fix."""

from __future__ import annotations

import re

from tests.bookgun.helpers import past_setup as _state
from tests.bookgun.helpers import place_in_open as _place
from umpire.core.events import Event
from umpire.core.rng import RandomStream
from umpire.rulesets.bookgun import combat
from umpire.rulesets.bookgun.common import world
from umpire.rulesets.bookgun.movement import dice_for
from umpire.rulesets.bookgun.ruleset import fire_group
from umpire.rulesets.bookgun.scenario import load_scenario
from umpire.rulesets.bookgun.state import BookGunState
from umpire.rulesets.bookgun.world import world_for


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


def test_mounted_figures_and_tank_riders_are_category_i() -> None:
    """bookgun.fire.category (spec §4.1 target categories): "I: standing in the open in close
    order, column or mass; mounted; tank riders" - a unit in open order (else Category II) is
    Category I while mounted on horses or riding on a tank; in a building it is still IV."""
    s = _state()
    w = world(s)
    unit = s.units["team-a"]
    f = s.figures["a-r"]
    f.x, f.y, f.room, f.prone = 30.0, 5.0, None, False
    unit.formation = "open"
    assert combat.category(w, s, f, unit, (30.0, 15.0)) == "II"
    unit.ride, unit.riding = "horse", True
    assert combat.category(w, s, f, unit, (30.0, 15.0)) == "I"
    unit.riding = False  # dismounted: open order again
    assert combat.category(w, s, f, unit, (30.0, 15.0)) == "II"
    unit.ride, unit.rides = None, "tank"
    assert combat.category(w, s, f, unit, (30.0, 15.0)) == "I"
    f.x, f.y, f.room = 5.0, 25.0, "A1"
    assert combat.category(w, s, f, unit, (20.0, 25.0)) == "IV"


def _stand_roll(facing: float, seed: int = 3) -> Event | None:
    s = _state()
    _place(s, "team-a", 10.0, 2.0)
    _place(s, "cell-1", 10.0, 3.5, facing=facing)
    s.rng = RandomStream(seed)
    events = combat.fight(s, s.units["team-a"], s.units["cell-1"])
    stand = [e for e in events if e.get("rule") == "bookgun.cc.stand" and e.get("kind") == "roll"]
    return stand[0] if stand else None


def test_a_unit_charged_in_flank_or_rear_stands_on_one_more() -> None:
    """bookgun.cc.stand (spec §4.3 step 3): "+1 if charged in flank or rear" - the charged cell
    facing the chargers has no such modifier; facing away (rear) or side-on (flank) it has +1
    (house: outside the 90-degree front of its leader's facing)."""
    for seed in range(1, 30):
        front = _stand_roll(270.0, seed)  # facing south, toward the chargers
        rear = _stand_roll(90.0, seed)
        flank = _stand_roll(0.0, seed)
        if front is None or rear is None or flank is None:
            continue  # the charge did not close
        assert "flank or rear" not in front.text
        assert "+1 (charged in flank or rear)" in rear.text
        assert "+1 (charged in flank or rear)" in flank.text
        assert rear["result"] == front["result"] + 1
        return
    raise AssertionError("no charge closed")


def test_a_sniper_names_his_target_figure_the_card_says_only_killed_or_wounded() -> None:
    """bookgun.fire.weapons (spec §4.1 sniper rifle: "+2; names the target figure (leader
    included, p.7); the card then decides only killed/wounded"): every sniper hit falls on the
    figure he named - here the cell's leader, though others are in view - killed on a heart,
    wounded otherwise, whatever the card's rank."""
    hits = 0
    for seed in range(1, 60):
        s = _state()
        _place(s, "team-a", 10.0, 2.0)
        _place(s, "cell-1", 8.0, 20.0, facing=270.0)
        s.units["cell-1"].moved = True
        sniper = s.figures["a-r"]
        sniper.weapon = "sniper_rifle"
        s.rng = RandomStream(seed)
        events = combat.resolve_fire(s, s.units["team-a"], [sniper], "cell-1", False)
        cards = [e for e in events if "casualty card" in e.text]
        cell = s.unit_figures(s.units["cell-1"], present_only=False)
        hurt = [f for f in cell if f.status != "fit"]
        if not cards:
            assert not hurt
            continue
        hits += 1
        assert [f.id for f in hurt] == ["c1-l"]
        card = cards[0].text.rsplit(" ", 1)[-1]  # e.g. "Q-hearts"
        assert hurt[0].status == ("killed" if card.endswith("-hearts") else "wounded"), card
    assert hits > 0


def test_an_rpg_reload_does_not_silence_the_rifles() -> None:
    """bookgun.fire.reload (spec §4.1 procedure step 5: "+1 for an RPG or recoilless rifle ...
    Track markers per weapon group so one RPG does not silence the rifles"): a cell that fired
    its RPG with its rifles may fire its rifles again next turn while the RPG reloads."""
    s = _state()
    _place(s, "cell-1", 10.0, 20.0, facing=270.0)
    _place(s, "team-a", 10.0, 10.0)
    s.units["team-a"].moved = True
    cell = s.units["cell-1"]
    combat.resolve_fire(s, cell, combat.firing_figures(s, cell), "team-a", True)
    s.units["team-a"].lost = cell.lost = 0
    combat.morale_phase(s)  # one marker comes off
    s.acted.clear()
    s.units["team-a"].moved = True
    assert cell.reload == 0 and cell.reload_heavy == 1  # the rifles' marker is off
    firers = [f for g in fire_group(s, cell) for f in g]
    assert any(f.id == "c1-r2" for f in firers)
    rpg = s.figures["c1-rpg"]
    shots = combat.plan_shots(s, cell, [rpg], s.units["team-a"], True)
    assert [x.blast for x in shots] == [None]  # the RPG still reloads: he fires his rifle


def test_roe_2_the_leader_on_the_spot_authorises_all_fire() -> None:
    """bookgun.roe.2 (spec §3.3, p.7: "the leader on the spot authorises all fire"): a rifleman
    beyond his leader's 6-inch command radius has no authorised fire; within it he may fire."""
    s = _state()
    s.world_memo = world_for(load_scenario("market-day").model_copy(update={"roe": 2}), None)
    _place(s, "team-a", 2.0, 3.0)
    _place(s, "cell-1", 2.0, 12.0)
    unit, rifleman = s.units["team-a"], s.figures["a-r"]
    assert combat.roe_problem(s, unit, [rifleman], "cell-1") is None
    rifleman.x = 2.0 + 8.0  # 8 in. from the team leader at (2, 3)
    assert "bookgun.roe.2" in str(combat.roe_problem(s, unit, [rifleman], "cell-1"))


def test_a_room_is_searched_once_a_turn() -> None:
    """bookgun.search (spec §4.7: "1d6, 4-6 = the room is searched (one roll per room per
    turn)"): once one unit has rolled for a room, no other unit may roll for it that turn; the
    next turn it may (if the roll failed)."""
    from umpire.rulesets.bookgun.ruleset import Search

    for seed in range(1, 40):
        s = _state()
        s.card, s.flow.stack = "2-clubs", []  # a black card: the army's
        for i, cell in enumerate(("cell-1", "cell-2", "group-hq")):
            _place(s, cell, 20.0, 30.0 + 2 * i)  # nobody of theirs in the teahouse
        for fid, unit in (("a-r", "team-a"), ("b-r", "team-b")):
            f = s.figures[fid]
            f.x, f.y, f.room = 5.5, 24.0 if unit == "team-a" else 26.0, "A1"
        kind = Search()
        options = list(kind.options(s, "army"))
        assert {(a.unit, a.option) for a in options} == {("team-a", "A1"), ("team-b", "A1")}
        s.rng = RandomStream(seed)
        kind.resolve(s, "army", next(a for a in options if a.unit == "team-a"))
        s.card, s.flow.stack = "3-clubs", []
        assert not any(a.option == "A1" for a in kind.options(s, "army"))
        if "A1" not in s.searched:
            s.flow.turn += 1
            s.acted.clear()
            assert any(a.option == "A1" for a in kind.options(s, "army"))
            return
    raise AssertionError("every search succeeded")


def test_a_thrown_grenade_takes_no_extra_reload_marker() -> None:
    """bookgun.fire.reload (spec §4.1 procedure step 5: 1 marker on the unit, +1 if it moved, +1
    prone, "+1 for an RPG or recoilless rifle"): a hand grenade is neither, so a still,
    standing unit that threw one takes the single marker (an RPG round takes two)."""
    s = _state()
    _place(s, "team-a", 10.0, 2.0)
    _place(s, "cell-1", 10.0, 6.5)
    s.units["cell-1"].moved = True
    unit, thrower = s.units["team-a"], s.figures["a-r"]
    shots = combat.plan_shots(s, unit, [thrower], s.units["cell-1"], True)
    assert [x.blast for x in shots] == ["grenade"]
    combat.resolve_fire(s, unit, [thrower], "cell-1", True)
    assert thrower.grenades == 1
    assert unit.reload == world(s).tables.fire_mods.reload_base == 1


def test_a_column_charging_along_a_road_rolls_the_charge_on_road_dice() -> None:
    """bookgun.move.chart (spec §3.8, p.14: column "charge 3/5, charge on road 4/6"): an army
    column on the main street charging an enemy up the street rolls 4D6; off the road, or in
    open order, 3D6 (column) or 4D6 (open order)."""
    from umpire.rulesets.bookgun.ruleset import charge

    def charge_dice(x: float, formation: str) -> int:
        s = _state()
        _place(s, "team-a", 16.0, 4.0)
        for i, f in enumerate(s.unit_figures(s.units["team-a"])):
            f.x, f.y = x + (i % 2), 4.0 + (i // 2)
        _place(s, "cell-1", 16.0, 14.0, facing=270.0)
        for i, f in enumerate(s.unit_figures(s.units["cell-1"])):
            f.x, f.y = x + (i % 2), 14.0 + (i // 2)
        s.units["team-a"].formation = formation
        events = charge(s, s.units["team-a"], s.units["cell-1"])
        rolls = [e for e in events if e.get("kind") == "roll"]
        return len(rolls[0]["dice"])

    assert charge_dice(16.5, "column") == 4  # on the main street (x 15-19): charge on road
    assert charge_dice(30.0, "column") == 3  # across country
    assert charge_dice(16.5, "open") == 4  # open order has no road column: its charge dice


def test_the_rooms_searched_this_turn_survive_a_save() -> None:
    """bookgun.search: the one-roll-a-room-a-turn record round-trips with the state."""
    s = _state()
    s.search_rolls.append(f"{s.flow.turn}:A1")
    back = BookGunState.from_dict(s.to_dict())
    assert back.search_rolls == [f"{s.flow.turn}:A1"]


def test_with_markers_on_the_rifles_only_the_loaded_rpg_fires() -> None:
    """bookgun.fire.reload (spec §4.1 step 5, markers per weapon group): a cell whose rifles
    still carry a marker but whose RPG has none may fire the RPG alone, as a blast."""
    s = _state()
    _place(s, "cell-1", 10.0, 20.0, facing=270.0)
    _place(s, "team-a", 10.0, 10.0)
    s.units["team-a"].moved = True
    cell = s.units["cell-1"]
    cell.reload, cell.reload_heavy = 1, 0
    firers = [f.id for g in fire_group(s, cell) for f in g]
    assert firers == ["c1-rpg"]
    rpg = s.figures["c1-rpg"]
    assert [x.blast for x in combat.plan_shots(s, cell, [rpg], s.units["team-a"], True)] == ["rpg"]
    assert combat.plan_shots(s, cell, [rpg], s.units["team-a"], False) == []  # not his rifle
    cell.reload_heavy = 1  # both groups reloading: nobody fires
    assert fire_group(s, cell) == []


def test_roe_1_fire_only_when_fired_upon_and_only_at_that_firer() -> None:
    """bookgun.roe.1 (spec §3.3, p.7: Weapons Hold - "fire only when fired upon, only at that
    firer, only if spotted"): the fire team the cell shot at may fire back; the other fire team,
    not fired upon, may not."""
    s = _state()
    s.world_memo = world_for(load_scenario("market-day").model_copy(update={"roe": 1}), None)
    _place(s, "team-a", 10.0, 3.0)
    _place(s, "team-b", 20.0, 3.0)
    _place(s, "cell-1", 14.0, 12.0, facing=270.0)
    cell = s.units["cell-1"]
    cell.spotted, cell.fired_at = True, ["team-a"]
    a, b = s.units["team-a"], s.units["team-b"]
    assert combat.roe_problem(s, a, s.fit_figures(a), "cell-1") is None
    assert "bookgun.roe.1" in str(combat.roe_problem(s, b, s.fit_figures(b), "cell-1"))
