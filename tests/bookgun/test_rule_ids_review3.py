"""The Book and The Gun: a third review against the specification
(/work/shared/rules/book-and-gun.md) and the rulebook's pages it restates; each test is written
from the wording (rule id, spec section and page cited) before the fix."""

from __future__ import annotations

from tests.bookgun.helpers import past_setup as _state
from tests.bookgun.helpers import place_in_open as _place
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.movement import roll_allowance
from umpire.rulesets.bookgun.state import BookGunState


# -- 1. prone figures move 1D6 regardless of terrain (bookgun.move.prone / move.chart) -----------
def test_prone_figures_move_one_d6_in_rough_ground_as_in_the_open() -> None:
    """Spec §3.8 bookgun.move.chart ("Prone figures - 1D6 anywhere") and p.14/p.16 (4.3):
    prone figures move 1D6 whatever the terrain, so rough ground takes no die from a prone
    unit's single d6 (it used to drop it, leaving the 1 in. minimum) - army (high die) and
    insurgents (low die) alike; dense ground likewise."""
    seen = set()
    for seed in range(1, 9):
        for unit, x, y in (("team-a", 2.0, 2.0), ("cell-1", 1.0, 31.0)):
            s = _state(seed=seed)
            _place(s, unit, x, y, gap=0.8)
            events: list[Event] = []
            al = roll_allowance(s, s.units[unit], None, True, events)
            rolls = [e for e in events if e.get("kind") == "roll"]
            assert len(rolls[0]["dice"]) == 1
            die = float(rolls[0]["dice"][0])
            assert al.clear == die
            assert al.rough == die, (unit, al)
            assert al.in_dense == die
            seen.add(die)
    assert max(seen) > 1.0  # a die above the 1 in. minimum was rolled


# -- 2. rally: a leader figure within 6 in., one attempt per leader a turn (bookgun.rally.chart) --
def _rally_need(s: BookGunState, unit: str) -> int:
    from umpire.rulesets.bookgun import combat

    events: list[Event] = []
    combat.rally_test(s, s.units[unit], events)
    rolls = [e for e in events if e.get("kind") == "roll"]
    assert len(rolls) == 1
    return int(rolls[0]["need"])


def test_a_leaderless_unit_rallies_on_the_leader_column_with_another_leader_near() -> None:
    """Spec §4.4 bookgun.rally.chart ("leader within 6 in. needed to use the left column") and
    p.17 6.1 ("there must be a leader figure within 6 inches of the unit"): a shaken fire team
    whose own leader is down rallies on the left column (army 1-4) when another unit's leader
    stands within 6 in.; with none near it uses the right column (1-2)."""
    s = _state()
    _place(s, "team-a", 10.0, 5.0)
    _place(s, "team-b", 30.0, 5.0)
    _place(s, "gun-team", 30.0, 2.0)
    s.units["team-a"].status = "shaken"
    s.figures["a-tl"].status = "killed"  # the team's own leader
    s.figures["lt"].status = "killed"  # and the officer with it
    assert _rally_need(s, "team-a") == 2  # nobody near: no-leader column
    s.rallies.clear()
    _place(s, "team-b", 12.0, 9.0)  # team B's leader (b-tl) now within 6 in. of team A
    assert _rally_need(s, "team-a") == 4


def test_each_leader_may_attempt_only_one_rally_a_turn() -> None:
    """Spec §4.4 ("each leader may try one rally per turn", published p.17 6.1 "That leader may
    only attempt 1 rally per turn"): a second rally the same leader would lead in one turn is
    taken on the no-leader column; the next turn he may lead one again."""
    s = _state()
    _place(s, "team-a", 10.0, 5.0)
    _place(s, "team-b", 30.0, 5.0)
    _place(s, "gun-team", 30.0, 2.0)
    s.units["team-a"].status = "shaken"
    s.figures["lt"].status = "killed"  # only the team leader a-tl is near
    assert _rally_need(s, "team-a") == 4  # a-tl leads the first attempt
    assert _rally_need(s, "team-a") == 2  # he has tried once this turn
    s.rallies.clear()  # what the turn's start does
    assert _rally_need(s, "team-a") == 4


def test_the_rally_attempts_are_forgotten_at_the_start_of_a_turn_and_survive_a_save() -> None:
    """The leaders who tried a rally this turn are kept in state (saved and restored) and
    cleared when a new turn begins (p.17: one attempt per turn)."""
    from umpire.rulesets.bookgun.ruleset import _turn_begin
    from umpire.rulesets.bookgun.state import BookGunState as State

    s = _state()
    s.rallies.append("a-tl")
    again = State.from_dict(s.to_dict())
    assert again.rallies == ["a-tl"]
    _turn_begin(s)
    assert s.rallies == []


# -- 3. leaders outside a basic unit move after every basic unit (bookgun.lead.independent) -----
def test_a_lone_group_leader_moves_only_after_every_basic_unit_of_both_sides() -> None:
    """Spec §3.4 bookgun.lead.independent (p.13): a leader not in a basic unit moves with a
    unit he accompanies or on his own after all basic units of both sides have moved. Market
    Day's group leader (a unit of his own, spec §6) is therefore not offered a move while a
    cell or an army team may still move; when they all have, he is."""
    from umpire.rulesets.bookgun.ruleset import may_move

    s = _state()
    assert s.flow.phase == "movement"
    s.flow.stack.clear()
    s.acted.clear()
    s.card = "7-hearts"  # red: the insurgents'
    hq = s.units["group-hq"]
    assert not may_move(s, hq)
    acts = {a.unit for a in RULESET.legal_actions(s) if a.kind == "activate"}
    assert "group-hq" not in acts and {"cell-1", "cell-2"} <= acts
    s.acted += ["cell-1", "cell-2"]  # the cells have moved, the army has not
    assert not may_move(s, hq)
    s.acted += ["team-a", "team-b", "gun-team"]
    assert may_move(s, hq)
    acts = {a.unit for a in RULESET.legal_actions(s) if a.kind == "activate"}
    assert acts == {"group-hq"}


# -- 4. Market Day's house B: two windows per wall per floor (spec §6 terrain table) -------------
def test_market_day_house_b_has_two_windows_in_every_wall_on_both_floors() -> None:
    """Spec §6 (B House: 'two storeys ... two windows per wall per floor'): each of the four
    walls of house B has two windows on the ground floor (B1/B2) and two on the first floor
    (B3/B4), each window belonging to the room behind it."""
    from umpire.rulesets.bookgun.common import world

    s = _state()
    w = world(s)
    b = w.buildings["B"]
    walls = {
        "south": lambda p: p[1] == 24.0,
        "north": lambda p: p[1] == 30.0,
        "west": lambda p: p[0] == 21.0,
        "east": lambda p: p[0] == 27.0,
    }
    for floor in (0, 1):
        on_floor = [(at, room) for at, room in b.windows if w.rooms[room].floor == floor]
        for wall, on_wall in walls.items():
            here = [(at, room) for at, room in on_floor if on_wall(at)]
            assert len(here) == 2, (floor, wall, here)
            for at, room in here:  # the window opens into the room it is in
                r = w.rooms[room].polygon.bounds
                assert r[0] <= at[0] <= r[2] and r[1] <= at[1] <= r[3], (at, room)


# -- 5. a shaken unit must try to move every movement phase (bookgun.rally.chart, p.18 7.1-7.2) ---
def test_a_shaken_unit_may_not_decline_to_move_or_search_without_its_rally_roll() -> None:
    """p.18 7.1: 'An attempt to move the Shaken figures of each Basic unit must be made every
    Movement Phase', and 7.2: announcing the move, a die is rolled on the rally chart (spec
    §4.4: shaken units when their card comes - rallied, move normally; failed, retreat 4D6).
    On its card a shaken unit is therefore offered no 'hold' (declaring it will not move) and
    no search (spending its move) - only its activation, which rolls the rally first; a
    pinned unit (spec §4.4: rallies when its card comes, house) may not search either."""
    s = _state()
    s.flow.stack.clear()
    s.acted.clear()
    s.card = "7-clubs"  # black: the army's
    _place(s, "team-a", 10.0, 5.0)
    for f in s.unit_figures("team-a"):  # inside the warehouse's room D2, unsearched
        f.x, f.y, f.room = 7.5, 11.0, "D2"
    kinds = {(a.kind, a.unit) for a in RULESET.legal_actions(s)}
    assert ("hold", "team-a") in kinds and ("search", "team-a") in kinds
    s.units["team-a"].status = "shaken"
    kinds = {(a.kind, a.unit) for a in RULESET.legal_actions(s)}
    assert ("hold", "team-a") not in kinds and ("search", "team-a") not in kinds
    assert ("activate", "team-a") in kinds
    s.units["team-a"].status = "pinned"
    kinds = {(a.kind, a.unit) for a in RULESET.legal_actions(s)}
    assert ("search", "team-a") not in kinds and ("activate", "team-a") in kinds


# -- 6. routed units do not fight: the figures the chargers contact are captured ------------------
def test_a_routed_unit_charged_home_does_not_fight_and_its_contacted_figures_are_captured() -> None:
    """Spec §4.4 bookgun.morale.table ('routed units do not fire or fight') and §4.7
    bookgun.capture ('a routed figure unable to move away from a contacting enemy is also
    captured'; a routed unit does not move until it rallies, spec §4.4): a charge that closes
    on a routed unit meets no stand test and no fight - no d6 pairs, no casualty cards - and
    every figure the chargers contact (each charger one, the surplus doubling up as in
    bookgun.cc.pairs) is captured. The charger still tests to close (bookgun.cc.close)."""
    from umpire.core.rng import RandomStream
    from umpire.rulesets.bookgun import combat

    closed = 0
    for seed in range(1, 13):
        s = _state()
        _place(s, "team-a", 10.0, 2.0)
        _place(s, "cell-1", 10.0, 3.5, facing=270.0)
        s.units["cell-1"].status = "routed"
        s.units["cell-1"].routed_turn = s.flow.turn
        s.rng = RandomStream(seed)
        events = combat.fight(s, s.units["team-a"], s.units["cell-1"])
        rolls = [e for e in events if e.get("kind") == "roll"]
        assert rolls[0].get("rule") == "bookgun.cc.close"
        if not rolls[0].get("success"):
            continue
        closed += 1
        rules = {e.get("rule") for e in events}
        assert "bookgun.cc.stand" not in rules and "bookgun.cc.roll" not in rules
        assert not [e for e in events if e.get("kind") == "casualty"]
        cell = s.unit_figures("cell-1", present_only=False)
        captured = [f for f in cell if f.status == "captured"]
        # four chargers contact seven routed men: four, and the three surplus double up
        assert len(captured) == 7, [f.status for f in cell]
        assert all(f.hit_by == "army" for f in captured)
        assert s.units["team-a"].status == "ok"
    assert closed > 0


# -- 7. a shaken unit charged before its move flees at once; after it, it stands or not ----------
def _charge_shaken(acted: bool) -> tuple[BookGunState, list[Event]]:
    from umpire.rulesets.bookgun.ruleset import charge

    s = _state()
    s.flow.stack.clear()
    s.acted.clear()
    _place(s, "team-a", 10.0, 2.0)
    _place(s, "cell-1", 10.0, 6.0, facing=270.0)
    s.units["cell-1"].status = "shaken"
    if acted:
        s.acted.append("cell-1")
    return s, charge(s, s.units["team-a"], s.units["cell-1"])


def test_a_shaken_unit_charged_before_its_move_flees_at_once() -> None:
    """p.18 7.4 ('If Shaken figures are charged before the time comes for them to make their
    move, they will have no chance to rally, but must immediately be moved their 4D6 distance
    towards the nearest battlefield edge. The charging figures must be able to reach the
    Shaken figures'); spec §4.4 ('a shaken unit charged before its card comes flees its 4D6
    at once with no roll'): the charge that reaches it makes it run 4D6 there and then, in the
    movement phase - its move spent, no rally roll - and no close combat follows."""
    s, events = _charge_shaken(acted=False)
    assert s.units["team-a"].charging is None
    flee = [e for e in events if e.get("kind") == "flee"]
    assert flee and "cell-1" in s.acted
    runs = [e for e in events if e.get("kind") == "roll" and e.get("rule") == "bookgun.morale.rout"]
    assert len(runs) == 1 and len(runs[0]["dice"]) == 4
    assert not [
        e for e in events if e.get("rule") == "bookgun.rally.chart" and e.get("kind") == "roll"
    ]


def test_a_shaken_unit_charged_after_its_move_takes_the_charge_as_usual() -> None:
    """p.18 7.4 applies only before the shaken unit's move: charged after it has had its card,
    the unit does not flee at once; the charge is completed in the close-combat phase, where it
    tests to stand (bookgun.cc.stand) like any charged unit."""
    from umpire.rulesets.bookgun import combat

    s, events = _charge_shaken(acted=True)
    assert not [e for e in events if e.get("kind") == "flee"]
    assert s.units["team-a"].charging == "cell-1"
    for seed in range(1, 9):
        s, events = _charge_shaken(acted=True)
        from umpire.core.rng import RandomStream

        s.rng = RandomStream(seed)
        s.flow.phase = "close_combat"
        out = combat.close_combats(s)
        rolls = [e for e in out if e.get("kind") == "roll"]
        if rolls[0].get("success"):  # it closed: the shaken unit tests to stand
            assert rolls[1].get("rule") == "bookgun.cc.stand"
            return
    raise AssertionError("no seed closed")


# -- 8. the civilian mob runs directly away from the nearest figure that fired (spec §5.3) --------
def test_the_mob_runs_directly_away_from_the_nearest_figure_that_fired() -> None:
    """Spec §5.3 bookgun.civ.automaton: a mob that heard firing within 12 in. 'moves its
    open-order dice directly away from the nearest figure that fired' - straight along the line
    from that figure through the mob, not to the nearest table edge (shots from the south sent
    Market Day's crowd east, toward the nearer edge). The nearest of several firing figures
    counts, so every figure that fires leaves its place (bookgun.fire.procedure)."""
    import math

    from umpire.rulesets.bookgun import combat
    from umpire.rulesets.bookgun.common import centre

    for shot in ((24.0, 9.0), (20.0, 11.0), (29.0, 10.5)):
        s = _state()
        crowd = s.units["crowd"]
        before = centre(s, crowd)
        far = (before[0] + 10.0, before[1] - 11.0)  # a second, farther firer
        s.fire_points = [[float(s.flow.turn), *shot], [float(s.flow.turn), *far]]
        events = combat.civilians_move(s)
        runs = [e for e in events if e.get("kind") == "roll"]
        assert runs and len(runs[0]["dice"]) == 3  # open-order dice (3D6)
        fled = [e for e in events if e.get("kind") == "flee"]
        assert fled and s.on_table(crowd)
        after = (fled[0]["x"], fled[0]["y"])  # where the mob is re-formed round
        moved = math.hypot(after[0] - before[0], after[1] - before[1])
        assert moved > 1.0
        way = math.degrees(math.atan2(after[1] - before[1], after[0] - before[0]))
        away = math.degrees(math.atan2(before[1] - shot[1], before[0] - shot[0]))
        assert abs((way - away + 180.0) % 360.0 - 180.0) < 5.0, (shot, way, away)


def test_every_figure_that_fires_is_a_source_the_mob_runs_from() -> None:
    """Spec §5.3 ('the nearest figure that fired'): a unit's fire records where each of its
    firing figures stood, not its first figure's place only."""
    from umpire.rulesets.bookgun import combat

    s = _state()
    _place(s, "team-a", 10.0, 2.0, gap=2.0)
    _place(s, "cell-1", 10.0, 14.0, facing=270.0)
    s.units["cell-1"].spotted = True
    s.fire_points = []
    figs = combat.firing_figures(s, s.units["team-a"])
    combat.resolve_fire(s, s.units["team-a"], figs, "cell-1", False)
    shots = {(p[1], p[2]) for p in s.fire_points}
    assert len(figs) >= 2 and shots == {(f.x, f.y) for f in figs}


# -- 9. a defensive circle may move; it is stationary only for close combat (bookgun.form.kinds) --
def test_a_defensive_circle_may_move_and_stays_a_circle_facing_out() -> None:
    """p.9-10 (a defensive circle 'may move but should act as a stationary formation assumed
    for close combat purpose (not movement)'); spec §3.5 bookgun.form.kinds ('stationary for
    close combat'): a fire team in defensive circle is offered its plain move on its card; it
    rolls the close-order dice (2D6 for the army - the circle is formed in close order, house)
    and, moved, is still a circle with its ring facing out round the leader."""
    import math

    from umpire.core.actions import Action
    from umpire.rulesets.bookgun.common import centre
    from umpire.rulesets.bookgun.ruleset import Activate, form_circle

    s = _state()
    _place(s, "team-a", 10.0, 6.0)
    team = s.units["team-a"]
    form_circle(s, team)
    s.flow.stack.clear()
    s.flow.phase, s.card = "movement", "7-spades"  # black: the army's
    s.acted.clear()
    offered = [a for a in RULESET.legal_actions(s) if a.unit == "team-a" and a.kind == "activate"]
    assert Action("activate", unit="team-a") in offered
    events = Activate().resolve(s, "army", Action("activate", unit="team-a"))
    rolls = [e for e in events if e.get("kind") == "roll"]
    assert len(rolls[0]["dice"]) == 2
    moves = [a for a in RULESET.legal_actions(s) if a.kind == "move_to" and a.point is not None]
    before = centre(s, team)
    far = max(moves, key=lambda a: math.dist(before, a.point or before))
    RULESET.apply(s, far)
    assert team.formation == "circle" and team.moved
    leader = s.figures["a-tl"]
    assert math.dist(centre(s, team), before) > 0.5
    for f in s.unit_figures(team):
        if f is leader:
            continue
        out = math.degrees(math.atan2(f.y - leader.y, f.x - leader.x)) % 360
        assert abs(((f.facing - out) + 180) % 360 - 180) < 1e-6


# -- 10. a unit that fired last turn, at anything, may be fired at (bookgun.spot.static, p.10) -----
def test_a_still_unit_that_fired_last_turn_at_anything_may_be_fired_at_from_afar() -> None:
    """p.10 VI.1 b ('Any unit ... that did not move or fire ... on the previous turn ... cannot
    be fired at, unless your firing unit is within 6 inches, or unless it is spotted'); spec
    §3.6 bookgun.spot.static ('a unit that neither moved nor fired last turn'): a still army
    team that fired last turn - at a locked door, not at the insurgents, so not spotted by
    them under bookgun.spot.auto - may be fired at from beyond 6 in. without a spotting roll;
    one that neither moved nor fired may not."""
    from umpire.rulesets.bookgun import combat

    s = _state()
    _place(s, "team-a", 10.0, 2.0)
    _place(s, "cell-1", 10.0, 14.0, facing=270.0)
    team = s.units["team-a"]
    team.moved = team.moved_last = team.fired = False
    team.spotted = False
    shots = combat.plan_shots(
        s, s.units["cell-1"], combat.firing_figures(s, s.units["cell-1"]), team, False
    )
    assert shots and min(x.distance for x in shots) > 6.0
    team.fired_last = False
    assert not combat.fireable(s, team, shots)
    team.fired_last = True
    assert combat.fireable(s, team, shots)


# -- 11. an ace kills the target unit's leader even when he is out of the firer's view ------------
def test_an_ace_kills_the_leader_of_the_unit_fired_on_wherever_he_stands() -> None:
    """p.7 IV.1 ('A leader in a targeted unit is killed anytime an Ace is drawn'); spec §5.2
    ('Ace -> the target unit's leader is killed; with no leader present, treat as a face
    card; against a unit with an attached higher leader, that officer is hit') and §3.4
    bookgun.lead.ace: the ace is not limited to the figures the firer sees, as number and face
    cards are. With Fire team A's leader and its lieutenant inside the warehouse, out of the
    cell's view, an ace drawn for a hit on the team's men in the open kills the lieutenant
    (the attached officer first) - it used to fall on a key man in view as a face card."""
    from umpire.core.rng import RandomStream
    from umpire.rulesets.bookgun import combat

    for seed in range(1, 30):
        s = _state()
        _place(s, "team-a", 14.0, 21.0, gap=1.5)
        _place(s, "cell-1", 13.0, 31.0, facing=270.0)
        for fid in ("a-tl", "lt"):
            f = s.figures[fid]
            f.x, f.y, f.room = 4.5, 11.0, "D1"
        team = s.units["team-a"]
        team.spotted = True
        s.casualties.pile = ["A-spades", "A-clubs", "A-diamonds"]
        s.casualties.discard = []
        s.rng = RandomStream(seed)
        firers = combat.firing_figures(s, s.units["cell-1"])
        seen = {
            t.id for f in firers for t in combat.visible_targets(s, combat.world(s), f, team, True)
        }
        assert seen and not seen & {"a-tl", "lt"}
        events = combat.resolve_fire(s, s.units["cell-1"], firers, "team-a", False)
        if not [e for e in events if e.get("kind") == "casualty"]:
            continue  # no hit this seed
        assert s.figures["lt"].status == "killed"
        assert s.figures["a-r"].status == "fit" and s.figures["a-ar"].status == "fit"
        return
    raise AssertionError("no seed hit")


def test_the_web_table_fire_odds_count_the_ace_on_a_leader_out_of_view() -> None:
    """The fire odds the web table shows follow play (bookgun.lead.ace, p.7 IV.1): with the
    cell's leader out of the team's view the chance of hitting him is still that of an ace
    among the hits; before, it read as none."""
    from umpire.core.actions import Action
    from umpire.rulesets.bookgun.board import BOARD

    game = Game(RULESET, "market-day", 1)
    while game.state.flow.phase == "setup":
        game.apply(game.legal_actions()[0])
    s = game.state
    assert isinstance(s, BookGunState)
    _place(s, "team-a", 13.0, 31.0, facing=270.0)
    _place(s, "cell-1", 14.0, 21.0, gap=1.5)
    lead = s.figures["c1-l"]
    lead.x, lead.y, lead.room = 4.5, 11.0, "D1"
    s.units["cell-1"].spotted = True
    obs = game.observation("army")
    odds = BOARD.action_details(game, obs, "army", Action("fire", unit="team-a", target="cell-1"))
    assert odds is not None and odds["kind"] == "casualties"
    assert odds["p_any"] > 0 and odds["leader_hit"] > 0


# -- 12. set-up markers respect the room capacity (bookgun.building.capacity, p.19) --------------
def test_a_unit_is_set_up_under_a_marker_only_in_rooms_it_fits() -> None:
    """p.19 4.2 ('a maximum of 4 figures per room per floor'); spec §3.9
    bookgun.building.capacity and §6 (markers in A, B, C, D ...): a 7-figure cell may go under
    a marker in a room only if it fits there with the room's same-floor neighbours - the
    compound house C (one room) cannot take it, the teahouse A (two rooms) can, and once a
    cell fills most of A the other cell may not be put in A2 while the lone group leader may;
    no figure is left inside a building outside its rooms."""
    from umpire.core.actions import Action
    from umpire.rulesets.bookgun.common import world

    game = Game(RULESET, "market-day", 1)
    s = game.state
    assert isinstance(s, BookGunState)
    while s.flow.phase == "setup" and not s.to_deploy:
        game.apply(game.legal_actions()[0])
    assert s.to_deploy[0] == "cell-1"
    sites = {a.option for a in game.legal_actions() if a.kind == "deploy"}
    assert "C1" not in sites and {"A1", "A2", "D1", "B1", "B3"} <= sites
    from umpire.rulesets.bookgun.deployment import step

    zone = step(s)
    assert zone is not None and set(zone.zone["sites"]) == sites  # the web table's zone too
    game.apply(Action("deploy", unit="cell-1", option="A1"))
    assert s.to_deploy[0] == "cell-2"
    sites = {a.option for a in game.legal_actions() if a.kind == "deploy"}
    assert "A2" not in sites and "C1" not in sites and "D1" in sites
    game.apply(Action("deploy", unit="cell-2", option="D1"))
    assert s.to_deploy[0] == "group-hq"
    sites = {a.option for a in game.legal_actions() if a.kind == "deploy"}
    assert {"A2", "C1"} <= sites
    w = world(s)
    for f in s.figures.values():
        if f.room is None:
            assert w.building_at(f.pos) is None, f.id


# -- 13. a prone figure behind a short wall or an elevation change is unseen (p.16 4.3) -----------
def test_a_prone_figure_behind_a_low_wall_a_stall_or_down_in_the_gully_is_unseen() -> None:
    """p.16 4.3 ('A prone figure behind an elevation change or short wall is unseen to a same
    level observer'); spec §3.8 bookgun.move.prone and §6 (Market Day: the stalls 'block sight
    to prone figures', the gully 'prone figures unseen from the same level'): behind the low
    wall, behind a stall or lying in the gully, a prone figure cannot be seen (so neither
    spotted nor fired at) by a figure on the ground outside; standing, he can; a figure down in
    the gully with him sees him."""
    from umpire.rulesets.bookgun import combat
    from umpire.rulesets.bookgun.common import world

    s = _state()
    w = world(s)
    eye = s.figures["a-r"]
    man = s.figures["c2-r5"]
    man.room = None
    eye.room = None
    for at, look in (
        ((14.0, 25.0), (11.0, 25.0)),  # behind the low wall (x = 13)
        ((22.0, 16.0), (22.0, 10.0)),  # behind stall-1 (21-23, 13-14)
        ((33.5, 16.5), (28.0, 16.5)),  # down in the gully
    ):
        man.x, man.y = at
        eye.x, eye.y = look
        man.prone = False
        assert combat.sees(w, eye, man), at
        man.prone = True
        assert not combat.sees(w, eye, man), at
    eye.x, eye.y = 34.0, 18.0  # in the gully too: the same level as the prone man
    assert combat.sees(w, eye, man)


def test_a_prone_figure_behind_the_wall_who_fired_can_be_seen() -> None:
    """p.10-11 VI.2.2 ('If less than half of the enemy figure is visible, you can still see it
    if that figure has fired a weapon that is in your line of sight'; spec §3.6
    bookgun.los.figure 'a less visible figure that fired is visible'): the low wall hides a
    prone man only while he has not fired this turn or last - once he has, the army may fire
    back at him (and at him alone: the figure that fired, not his unit)."""
    from umpire.rulesets.bookgun import combat
    from umpire.rulesets.bookgun.common import world

    s = _state()
    _place(s, "team-a", 9.0, 21.0, facing=0.0, gap=0.5)
    _place(s, "cell-2", 14.0, 21.0, facing=180.0, gap=1.0)
    for f in s.unit_figures("cell-2"):
        f.prone = True
    cell = s.units["cell-2"]
    eye = s.figures["a-r"]
    assert not combat.visible_targets(s, world(s), eye, cell, True)
    for f in s.unit_figures("cell-2"):
        f.prone = False
    assert combat.visible_targets(s, world(s), eye, cell, True)  # standing: seen
    for f in s.unit_figures("cell-2"):
        f.prone = True
    s.figures["c2-r1"].fired_last = True  # he fired last turn (see the per-figure test below)
    assert [t.id for t in combat.visible_targets(s, world(s), eye, cell, True)] == ["c2-r1"]


def _prone_cell_behind_the_wall() -> BookGunState:
    s = _state()
    _place(s, "team-a", 9.0, 21.0, facing=0.0, gap=0.5)
    _place(s, "cell-2", 14.0, 21.0, facing=180.0, gap=1.0)
    for f in s.unit_figures("cell-2"):
        f.prone = True
    return s


def test_only_the_prone_man_who_fired_is_seen_behind_the_wall_for_this_turn_and_the_next() -> None:
    """p.11 VI.2.2 (a figure less than half visible can still be seen 'if that figure has
    fired a weapon that is in your line of sight'; spec §3.6 bookgun.los.figure 'a less
    visible figure that fired is visible'): it is the figure that fired who gives himself
    away, not his whole unit. Cell 2 lies prone behind the low wall; only its RPG man fires
    (through the real fire resolution) - the army sees him alone, this turn and the next
    (the window the unit-level rule uses: this turn or last), and after a second turn without
    firing he is hidden again. The enemy's observation and its board sight lines agree."""
    from umpire.rulesets.bookgun import combat, ruleset
    from umpire.rulesets.bookgun.board import spotting_lines
    from umpire.rulesets.bookgun.common import world

    s = _prone_cell_behind_the_wall()
    cell = s.units["cell-2"]
    eye = s.figures["a-r"]
    assert combat.visible_targets(s, world(s), eye, cell, True) == []
    gunner = s.figures["c2-rpg"]
    combat.resolve_fire(s, cell, [gunner], "team-a", False)
    assert cell.fired
    assert gunner.fired and not any(f.fired for f in s.unit_figures(cell) if f is not gunner)

    def seen() -> list[str]:
        return [t.id for t in combat.visible_targets(s, world(s), eye, cell, True)]

    def board_seen() -> list[str]:
        obs = RULESET.observation(s, "army")
        return sorted(
            line["figure"]
            for line in spotting_lines(obs, "team-a", "a-r")
            if line["target"] == "cell-2" and line["visible"]
        )

    assert seen() == ["c2-rpg"] == board_seen()  # this turn
    ruleset._turn_begin(s)
    assert seen() == ["c2-rpg"] == board_seen()  # the next turn: fired last turn
    ruleset._turn_begin(s)
    assert seen() == [] == board_seen()  # two turns without firing: hidden again


def test_a_figures_fire_is_kept_in_a_save_and_a_clone_and_old_saves_load() -> None:
    """The per-figure fire record (p.11 VI.2.2) survives to_dict/from_dict and clone; a save
    from before it was kept loads with the figure not having fired."""
    s = _prone_cell_behind_the_wall()
    s.figures["c2-rpg"].fired = True
    s.figures["c2-r1"].fired_last = True
    for copy in (BookGunState.from_dict(s.to_dict()), s.clone()):
        assert copy.figures["c2-rpg"].fired and not copy.figures["c2-rpg"].fired_last
        assert copy.figures["c2-r1"].fired_last and not copy.figures["c2-r1"].fired
    twin = s.clone()
    twin.figures["c2-r2"].fired = True
    assert not s.figures["c2-r2"].fired
    old = s.to_dict()
    for f in old["figures"].values():
        del f["fired"], f["fired_last"]
    back = BookGunState.from_dict(old)
    assert not any(f.fired or f.fired_last for f in back.figures.values())


def test_the_armys_resample_deals_units_only_where_they_fit() -> None:
    """bookgun.building.capacity in the army's determinisation (spec §7 hidden information):
    re-dealing the insurgents among the markers never puts a 7-figure cell under the one-room
    house C's marker with men left standing in the walls - a deal the set-up rules forbid."""
    import random

    from umpire.core.actions import Action
    from umpire.rulesets.bookgun.common import world

    game = Game(RULESET, "market-day", 1)
    s = game.state
    assert isinstance(s, BookGunState)
    while s.flow.phase == "setup" and not s.to_deploy:
        game.apply(game.legal_actions()[0])
    for unit, site in (
        ("cell-1", "A1"),
        ("cell-2", "D1"),
        ("group-hq", "C1"),
        ("dummy-1", "grove"),
        ("dummy-2", "gully"),
    ):
        game.apply(Action("deploy", unit=unit, option=site))
    while s.flow.phase == "setup":
        game.apply(game.legal_actions()[0])
    w = world(s)
    rng = random.Random(5)
    for _ in range(40):
        twin = RULESET.resample(s, "army", rng)
        assert isinstance(twin, BookGunState)
        for f in twin.figures.values():
            if f.side == "insurgents" and f.present and f.room is None:
                assert w.building_at(f.pos) is None, (f.id, f.pos)


def test_a_shaken_unit_with_no_move_to_try_may_still_hold() -> None:
    """p.18 7.1 binds a shaken unit that has a move to try; one riding inside a vehicle, whose
    only activation is to dismount (and that only where it may), keeps its 'hold' - else a
    card of its colour could find nothing to do for a unit still counted as able to move
    (found by a 400-game Night Raid run)."""
    s = _state("night-raid")
    rider = next(u for u in s.units.values() if u.aboard is not None)
    rider.status = "shaken"
    s.flow.stack.clear()
    s.acted.clear()
    s.flow.phase, s.card = "movement", "7-spades"
    from umpire.rulesets.bookgun.ruleset import card_owner

    s.card = next(c for c in ("7-spades", "7-hearts") if card_owner(world_of(s), c) == rider.side)
    acts = [a for a in RULESET.legal_actions(s) if a.unit == rider.id]
    assert any(a.kind == "hold" for a in acts)


def world_of(s: BookGunState) -> object:
    from umpire.rulesets.bookgun.common import world

    return world(s)
