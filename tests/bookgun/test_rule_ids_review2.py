"""The Book and The Gun: the rules a second review still found playing differently from the
specification (/work/shared/rules/book-and-gun.md), each test written from the spec's wording
(rule id and section cited) before the fix, or pinning the reading where the spec leaves the
rule open."""

from __future__ import annotations

from tests.bookgun.helpers import past_setup as _state
from tests.bookgun.helpers import place_in_open as _place
from umpire.core.actions import Action
from umpire.core.events import Event
from umpire.core.flow import Pending
from umpire.core.game import Game
from umpire.core.rng import RandomStream
from umpire.core.switches import OPTION_KEY, book_only
from umpire.rulesets.bookgun import RULESET, combat
from umpire.rulesets.bookgun.allowance import Allowance
from umpire.rulesets.bookgun.common import centre, world
from umpire.rulesets.bookgun.movement import unit_room
from umpire.rulesets.bookgun.ruleset import fire_cards, fire_group
from umpire.rulesets.bookgun.state import BookGunState


# -- 1. reload markers per weapon group (spec §4.1 step 5, open question 9) ------------------------
def _insurgent_fire_card(s: BookGunState) -> None:
    s.flow.phase = "fire"
    s.card = "7-hearts"  # red: the insurgents' (Market Day colours)
    s.acted.clear()


def _menus(s: BookGunState) -> tuple[list[Action], list[Action]]:
    """(the book's fire-phase actions, the menu a person is shown with every rule advised)."""
    saved = dict(s.options)
    try:
        book = RULESET.legal_actions(s)
        s.options[OPTION_KEY] = {"bookgun.*": "advise"}
        menu = RULESET.legal_actions(s)
        with book_only():
            again = RULESET.legal_actions(s)
        assert again == book  # held to the book, the advised game lists exactly the book's
    finally:
        s.options.clear()
        s.options.update(saved)
    return book, menu


def test_markers_on_the_rifles_leave_the_loaded_rpg_on_its_own_card_in_every_menu() -> None:
    """bookgun.fire.reload (spec §4.1 step 5: "Track markers per weapon group so one RPG does
    not silence the rifles") with bookgun.lead.fire_cards (p.8: a figure out of its leader's
    command range needs its own card): a cell spread beyond 6 in. fires figure by figure; with
    markers on its rifles only, the book offers its RPG gunner alone, by name, as a blast (or
    holding); under rule switches set to advise a person's menu holds every one of those
    actions too (docs/rule-switches.md: advise offers more, never less)."""
    s = _state()
    _place(s, "cell-1", 4.0, 20.0, facing=270.0, gap=2.5)  # 15 in. wide: beyond the leader's 6
    _place(s, "team-a", 10.0, 10.0)
    s.units["team-a"].moved = True
    cell = s.units["cell-1"]
    cell.reload, cell.reload_heavy = 1, 0
    _insurgent_fire_card(s)
    assert len(fire_cards(s, cell)) == 7  # one card a figure
    assert [[f.id for f in g] for g in fire_group(s, cell)] == [["c1-rpg"]]
    book, menu = _menus(s)
    mine = [a for a in book if a.unit == "cell-1"]
    assert Action("fire", unit="cell-1", target="team-a", option="blast", units=("c1-rpg",)) in mine
    assert Action("hold", unit="cell-1", units=("c1-rpg",)) in mine
    assert all(a.units == ("c1-rpg",) for a in mine)
    assert not [a for a in mine if a.kind == "fire" and a.option != "blast"]  # not his rifle
    assert set(book) <= set(menu)
    assert len(menu) > len(book)  # the rifles are offered under advise (with the warning)
    advised = [a for a in menu if a not in book and a.unit == "cell-1"]
    s.options[OPTION_KEY] = {"bookgun.*": "advise"}
    assert "bookgun.fire.reload" in RULESET.describe(s, advised[0])


def test_markers_on_the_rifles_of_a_unit_firing_on_one_card_leave_only_the_rpg() -> None:
    """bookgun.fire.reload (spec §4.1 step 5) for a unit its leader controls on one card: the
    book's one card fires the RPG alone as a blast; the advised menu holds it too."""
    s = _state()
    _place(s, "cell-1", 10.0, 20.0, facing=270.0, gap=0.9)
    _place(s, "team-a", 10.0, 10.0)
    s.units["team-a"].moved = True
    cell = s.units["cell-1"]
    cell.reload, cell.reload_heavy = 1, 0
    _insurgent_fire_card(s)
    assert len(fire_cards(s, cell)) == 1  # within the leader's 6 in.: one card
    book, menu = _menus(s)
    mine = [a for a in book if a.unit == "cell-1"]
    assert Action("fire", unit="cell-1", target="team-a", option="blast") in mine
    assert Action("fire", unit="cell-1", target="team-a") not in mine
    assert set(book) <= set(menu)
    cell.reload_heavy = 1  # both groups reloading: the cell has nothing to fire
    book, menu = _menus(s)
    assert not [a for a in book if a.unit == "cell-1"]
    assert [a for a in menu if a.unit == "cell-1"]  # a person may, with the warning


# -- 6. Market Day's concealment sites (spec §6) --------------------------------------------------
def test_every_room_of_the_market_day_buildings_is_a_concealment_site() -> None:
    """bookgun.conceal.where / bookgun.setup.deploy (spec §6: markers "only in A, B, C, D, the
    grove, the gully or the north-east brush, all with y >= 8"): every ground and upper room of
    the four buildings may hold a marker - B2 (the ground room with the stair) included - and
    the open ground outside them may not. (The lone group leader is asked: a 7-figure cell may
    not go to C1, a one-room house - bookgun.building.capacity, test_rule_ids_review3.)"""
    s = _state_at_setup()
    for unit, site in (("cell-1", "grove"), ("cell-2", "gully")):
        assert s.to_deploy[0] == unit
        RULESET.apply(s, Action("deploy", unit=unit, option=site))
    assert s.to_deploy[0] == "group-hq"
    offered = {str(a.option) for a in RULESET.legal_actions(s) if a.kind == "deploy"}
    rooms = {"A1", "A2", "B1", "B2", "B3", "B4", "C1", "D1", "D2"}
    assert rooms <= offered
    assert offered == rooms | {"brush-ne"}


def _state_at_setup(scenario: str = "market-day", seed: int = 1) -> BookGunState:
    state = Game(RULESET, scenario, seed).state
    assert isinstance(state, BookGunState) and state.flow.phase == "setup"
    return state


# -- 3. concealed markers move within their terrain (p.11, spec §3.6) ----------------------------
def _deployed(cell_1_at: str) -> Game:
    """Market Day after the set-up with cell-1 under a marker at ``cell_1_at``."""
    game = Game(RULESET, "market-day", 1)
    sites = {"cell-1": cell_1_at, "cell-2": "B1", "group-hq": "C1"}
    spare = iter(["gully", "brush-ne"])
    while game.to_act == "insurgents" and game.legal_actions()[0].kind == "deploy":
        what = str(game.legal_actions()[0].unit)
        game.apply(Action("deploy", unit=what, option=sites.get(what) or next(spare)))
    game.apply(Action("cache", option="C1"))
    game.apply(Action("commander", unit="lt"))
    return game


def _moving(game: Game, unit: str, reach: float) -> BookGunState:
    s = game.state
    assert isinstance(s, BookGunState)
    s.card = "7-hearts"
    al = Allowance(reach, reach, reach)
    s.flow.stack.append(
        Pending("insurgents", ("move_to", "stay"), "move", {"unit": unit, **al.to_dict()})
    )
    return s


def test_a_concealed_cell_in_the_grove_moves_under_its_marker_within_the_grove() -> None:
    """bookgun.conceal.reveal (p.11, spec §3.6: concealed troops "may move concealed but not
    out of the concealing terrain"; "markers may move but may not leave the concealing
    terrain"): a cell under a marker in the grove (x 0-7, y 30-36, spec §6) is offered moves
    that keep it in the grove; taken, its marker moves with it and the army reads only that
    the marker moved; it is offered no move out of the grove (into the open or a building)."""
    game = _deployed("grove")
    s = _moving(game, "cell-1", 6.0)
    cell = s.units["cell-1"]
    assert cell.concealed and unit_room(s, cell) is None
    moves = [a for a in RULESET.legal_actions(s) if a.kind == "move_to"]
    assert moves, "a concealed cell in the grove may move within it"
    assert all(a.option is None and a.point is not None for a in moves)
    assert all(0 <= a.point[0] <= 7 and 30 <= a.point[1] <= 36 for a in moves if a.point)
    start = centre(s, cell)
    far = max(moves, key=lambda a: (a.point[0] - start[0]) ** 2 + (a.point[1] - start[1]) ** 2)
    events = game.apply(far)
    assert cell.concealed
    m = s.markers[str(cell.marker)]
    assert (m.x, m.y) == far.point and (m.x, m.y) != start
    assert 0 <= m.x <= 7 and 30 <= m.y <= 36
    army_reads = " ".join(e.seen_by("army").text for e in events if e.seen_by("army") is not None)
    assert "Cell 1" not in army_reads and f"marker {m.id}" in army_reads


def test_a_concealed_cell_leaving_the_grove_breaks_cover() -> None:
    """bookgun.conceal.reveal (p.11): a marker may not leave the concealing terrain - a person
    who walks the cell out of the grove into the open (no agent is offered it) places it on
    the table."""
    game = _deployed("grove")
    s = _moving(game, "cell-1", 6.0)
    cell = s.units["cell-1"]
    start = centre(s, cell)
    out = (start[0] + 1.0, 29.0)  # just south of the grove
    events = game.apply(Action("move_to", unit="cell-1", point=out))
    assert not cell.concealed
    assert any("breaks cover" in e.text for e in events)


def test_a_concealed_cell_in_a_building_moves_only_to_its_other_rooms() -> None:
    """bookgun.conceal.reveal (p.11) indoors: from A1 the concealed cell may go next door to
    A2 (the same building, spec §6), and nowhere out of doors."""
    game = _deployed("A1")
    s = _moving(game, "cell-1", 6.0)
    moves = [a for a in RULESET.legal_actions(s) if a.kind == "move_to"]
    assert {a.option for a in moves} == {"A2"}


# -- 5. a leader is hit only if targeted (p.7, spec §3.4) ---------------------------------------
def test_a_card_but_an_ace_hits_the_leader_only_if_he_is_specifically_targeted() -> None:
    """bookgun.lead.ace (p.7, spec §3.4: "an ace kills its leader; other cards hit the leader
    only if he was specifically targeted"; §5.2: 2-10 hit an ordinary figure, J/Q/K a key
    figure): with his unit's other men in view - even only wounded ones - a number or face card
    never falls on the leader or an attached officer; the wounded man is hit again. An ace
    does fall on him (the officer first, p.8)."""
    s = _state()
    cell, team = s.units["cell-1"], s.units["team-a"]
    leader, rifleman = s.figures["c1-l"], s.figures["c1-r1"]
    rifleman.status = "wounded"
    for effect in ("wounded", "killed", "key_wounded", "key_killed"):
        assert combat.choose_victim(s, cell, effect, [leader, rifleman]) is rifleman, effect
    assert combat.choose_victim(s, cell, "leader", [leader, rifleman]) is leader
    lt, a_r = s.figures["lt"], s.figures["a-r"]
    a_r.status = "wounded"
    for effect in ("wounded", "key_killed"):
        assert combat.choose_victim(s, team, effect, [s.figures["a-tl"], lt, a_r]) is a_r
    assert combat.choose_victim(s, team, "leader", [s.figures["a-tl"], lt, a_r]) is lt


def test_a_leader_alone_in_view_is_the_man_aimed_at() -> None:
    """bookgun.lead.ace (p.7), the reading pinned (house): fire at a unit of which the firer
    sees only its leader (Market Day's group leader, a unit of one) is aimed at him - he is
    specifically targeted, so any card hits him; a sniper's named man likewise (spec §4.1)."""
    s = _state()
    hq, gl = s.units["group-hq"], s.figures["gl"]
    for effect in ("wounded", "killed", "key_wounded", "leader"):
        assert combat.choose_victim(s, hq, effect, [gl]) is gl, effect


# -- 4. the Commander-in-Chief (p.8, spec §3.4, §6) --------------------------------------------
def test_only_a_side_with_three_basic_units_names_a_commander_in_chief() -> None:
    """bookgun.lead.cinc (p.8, spec §3.4: "a side with >= 3 basic units secretly designates one
    leader as Commander-in-Chief"; §6: the army's three units -> the Lt or the SSG; the
    insurgents' two cells of 7 and a group leader). In every shipped scenario the insurgents
    field two basic units (a lone higher leader or a scout is not one), so they name none and
    the set-up asks only the army; a scenario giving them a third makes them name one too
    (tests/bookgun/test_cinc_both_sides.py plays such a game)."""
    from umpire.rulesets.bookgun.scenario import ScenarioSpec, load_scenario

    for name in ("market-day", "convoy-ambush", "night-raid"):
        spec = load_scenario(name)
        assert len(spec.basic_units("insurgents")) == 2, name
        assert bool(spec.commander_choices) == (len(spec.basic_units("army")) >= 3), name
        assert spec.cinc_candidates("insurgents") == [], name
    asked: set[str] = set()
    game = Game(RULESET, "market-day", 1)
    while game.state.flow.phase == "setup":
        a = game.legal_actions()[0]
        if a.kind == "commander":
            asked.add(str(game.to_act))
        game.apply(a)
    assert asked == {"army"} and game.state.commanders == {"army": "lt"}
    data = load_scenario("market-day").model_dump()
    third = dict(next(u for u in data["units"] if u["id"] == "cell-2"))
    third["id"] = "cell-3"
    third["figures"] = [dict(f, id=f"3{f['id']}") for f in third["figures"]]
    data["units"].append(third)
    spec = ScenarioSpec.model_validate(data)
    assert spec.cinc_candidates("insurgents") == ["c1-l", "c2-l", "gl", "3c2-l"]


# -- 2. the defensive circle and the fort (spec §4.3 step 3, §4.4) -------------------------------
def _with_fort(s: BookGunState) -> None:
    """Market Day with a fort (terrain kind fort) on open ground at x 8-16, y 18-22."""
    from umpire.rulesets.bookgun.scenario import TerrainSpec, load_scenario
    from umpire.rulesets.bookgun.world import world_for

    spec = load_scenario("market-day")
    fort = TerrainSpec(id="fort", kind="fort", rect=(8.0, 18.0, 16.0, 22.0))
    s.world_memo = world_for(spec.model_copy(update={"terrain": [*spec.terrain, fort]}), None)


def _modifier(roll: Event) -> int:
    """What the modifiers added to a d6 test's roll (its result less its die)."""
    return int(roll["result"]) - sum(roll["dice"])


def _morale_need(s: BookGunState, unit: str) -> tuple[int, list[str]]:
    """The modifier to the unit's morale roll (and the log)."""
    events: list[Event] = []
    combat.morale_test(s, s.units[unit], events)
    roll = next(e for e in events if e.rule == "bookgun.morale.table" and "need" in e.data)
    return _modifier(roll), [e.text for e in events]


def test_a_unit_in_a_fort_tests_morale_at_minus_one_and_is_category_iv() -> None:
    """bookgun.morale.table (spec §4.4: "-1 in a building or fort", to a d6 that passes on
    the listed numbers) and bookgun.fire.category (spec
    §4.1: Category IV "in a fort or foxhole"): the same cell tests morale needing one more in
    a fort than in the open, and its figures are Category IV targets there."""
    s = _state()
    _with_fort(s)
    _place(s, "cell-1", 30.0, 2.0)  # in the open
    s.rng = RandomStream(3)
    outside, _ = _morale_need(s, "cell-1")
    _place(s, "cell-1", 9.0, 20.0)  # in the fort (seven figures 1.2 in. apart: x 9-16.2)
    s.units["cell-1"].formation = "close"
    for f in s.unit_figures(s.units["cell-1"]):
        f.x = 9.0 + (f.x - 9.0) * 0.9
    s.rng = RandomStream(3)
    inside, texts = _morale_need(s, "cell-1")
    assert (outside, inside) == (0, -1), texts
    assert "in a fort" in texts[0]
    w = world(s)
    assert {
        combat.category(w, s, f, s.units["cell-1"], (9.0, 5.0))
        for f in s.unit_figures(s.units["cell-1"])
    } == {"IV"}


def test_a_unit_in_defensive_circle_stands_at_minus_one() -> None:
    """bookgun.cc.stand (spec §4.3 step 3: "-1 if in a building, behind a wall or in defensive
    circle"): charged in the open, a unit in defensive circle rolls to stand at -1, the same
    unit in open order unmodified (bookgun.form.kinds: the circle replaces TSATF's square)."""
    needs = {}
    for formation in ("open", "circle"):
        s = _state()
        _place(s, "team-a", 10.0, 2.0)
        _place(s, "cell-1", 10.0, 3.5, facing=270.0)
        s.units["team-a"].formation = formation
        s.units["team-a"].lost = 0
        s.rng = RandomStream(1)
        events = combat.fight(s, s.units["cell-1"], s.units["team-a"])
        stand = [e for e in events if e.rule == "bookgun.cc.stand" and "need" in e.data]
        assert stand, [e.text for e in events]
        needs[formation] = _modifier(stand[0])
    assert needs == {"open": 0, "circle": -1}, needs


def test_a_unit_forms_a_defensive_circle_where_it_stands_and_stays_put() -> None:
    """bookgun.form.kinds (spec §3.5: "defensive circle (replaces TSATF's square; stationary
    for close combat)"): the army's movement card offers a fire team the circle; formed, the
    team has not moved (its leader where the team's centre was, the others round him facing
    out). Next turn it may re-form or move as a circle (p.10: it 'may move', stationary for
    close combat only - see test_rule_ids_review3), but not go prone (house)."""
    from umpire.rulesets.bookgun.ruleset import Activate

    s = _state()
    _place(s, "team-a", 10.0, 6.0)
    s.flow.phase, s.card = "movement", "7-spades"  # black: the army's
    s.acted.clear()
    team = s.units["team-a"]
    offered = [a for a in RULESET.legal_actions(s) if a.unit == "team-a"]
    assert Action("activate", unit="team-a", option="circle") in offered
    at = centre(s, team)
    Activate().resolve(s, "army", Action("activate", unit="team-a", option="circle"))
    assert team.formation == "circle" and not s.flow.stack and not team.moved
    leader = s.figures["a-tl"]
    assert (leader.x, leader.y) == at
    ring = [f for f in s.unit_figures(team) if f is not leader]
    assert all(abs(((f.facing - _bearing(at, f.pos)) + 180) % 360 - 180) < 1e-6 for f in ring)
    s.acted.clear()
    s.flow.phase, s.card = "movement", "7-spades"
    again = {
        a.option for a in RULESET.legal_actions(s) if a.unit == "team-a" and a.kind == "activate"
    }
    assert None in again and "prone" not in again
    assert {"open", "close", "column"} <= again


def _bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    import math

    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360
