"""Issue 15, Seven Days shooting corrections, each checked against the rulebook's own words
(seed ``/work/shared/seeds/000_seven-days-to-the-river-rhine.txt``):

- p8 'Activating Units' / 'Overview of Actions': the owner declares the action before executing
  it or making any rolls; "Move and Shoot" and "Shoot and Move" are both combined actions.
- p15 'How to Fire': the "firer moved" penalty "applies whether the unit moves and fires or fires
  and moves in an activation"; the modifier list names "MBT, APC, Light vehicle moved this
  Activation"; the dice tables give "Moving Infantry" its own row, a "Vehicle Autocannon" row
  (2d10 against every target) and, for support teams, only a "Stationary Support" row; smoke is
  one of the things that obscure a target (-1, "Units with Thermal sights ignore"), not one of
  the things that block LOS (buildings, woods, hills, enemy vehicles and wrecks).
- p19 (transcription, cited by the issue): artillery converts hits on infantry with the
  artillery row (2d6); mortars count as anti-vehicle value 0 and halve the damage die when they
  penetrate.
- p30 (cards): Divisional Artillery: 8+ on a d10 gives a morale marker, and dismounted infantry
  and support "may take an additional morale marker as normal".
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import icepool
import pytest

from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game
from umpire.core.rng import RandomStream
from umpire.rulesets.sevendays import cards
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.damage import conversion, conversion_roll
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.kinds import known_plan
from umpire.rulesets.sevendays.los import sight
from umpire.rulesets.sevendays.odds import exact_odds, shot_chance, shot_odds
from umpire.rulesets.sevendays.shots import Refusal, ShotPlan

from ..conftest import MakeGame, unit

MOVED = "sevendays.fire.modifier.moved"
DECLARED = "sevendays.fire.declared_move"


def _w(game: Game):  # type: ignore[no-untyped-def]
    return game.ruleset.world(game.state)  # type: ignore[attr-defined]


def _plan(game: Game, firer: str, target: str, kind: str = "gun", **kw: object) -> ShotPlan:
    units = game.state.units
    plan = plan_shot(_w(game), game.state, units[firer], units[target], kind, **kw)  # type: ignore[arg-type]
    assert isinstance(plan, ShotPlan), plan
    return plan


def _shots(game: Game, kind: str = "fire") -> list[Action]:
    return [a for a in game.legal_actions() if a.kind == kind]


def _tank_duel(make_game: MakeGame) -> Game:
    """A Chieftain Mk5 (no thermal sight, base 5+) 24" from a T-72A in the open, with two
    Soviet rifle units far off (so one loss does not end the game); NATO has the initiative."""
    return make_game(
        nato=[unit("c", "chieftain-mk5", 36, 10)],
        pact=[
            unit("t", "t72a", 36, 34),
            unit("r1", "motor-rifles", 4, 46),
            unit("r2", "motor-rifles", 68, 46),
        ],
        seed=3,
    )


def _play(game: Game, action: Action) -> list[Any]:
    """Apply ``action``; the enemy lets any reaction window it opens go unanswered."""
    events = list(game.apply(action))
    while game.to_act == "pact" and Action("no_react") in game.legal_actions():
        events += game.apply(Action("no_react"))
    return events


# -- 1. p15: "whether the unit moves and fires or fires and moves" ---------------------------
# rules: sevendays.fire.modifier.moved, sevendays.fire.declared_move
def test_a_vehicle_declaring_a_move_after_its_shot_takes_the_minus_one(
    make_game: MakeGame,
) -> None:
    """p8: the action is declared before any roll; p15: the -1 applies to "fires and moves"."""
    game = _tank_duel(make_game)
    game.apply(Action("activate", unit="nato-c"))
    shots = _shots(game)
    plain = Action("fire", unit="nato-c", target="pact-t")
    then_move = Action("fire", unit="nato-c", target="pact-t", option="then_move")
    assert plain in shots and then_move in shots
    world, state = _w(game), game.state
    firer, target = state.units["nato-c"], state.units["pact-t"]
    still = known_plan(world, state, firer, target, "gun")
    moving = known_plan(world, state, firer, target, "gun", then_move=True)
    assert isinstance(still, ShotPlan) and isinstance(moving, ShotPlan)
    assert MOVED not in [m.rule for m in still.modifiers]
    assert [m.rule for m in moving.modifiers] == [MOVED]
    assert (still.need, moving.need) == (5, 6)  # Chieftain Mk5 base 5+, one worse
    # the menu line shows the declared shot's own figures
    line = game.describe(then_move)
    assert "then moves" in line and "need 6+" in line
    assert f"P hit {shot_odds(world, moving, firer, target).hit:.0%}" in line
    assert "need 5+" in game.describe(plain)
    events = _play(game, then_move)
    rolls = [e for e in events if e["kind"] == "roll" and e["rule"] == "sevendays.fire.base"]
    assert len(rolls) == 1 and rolls[0]["need"] == 6 and MOVED in rolls[0]["modifiers"]
    # the declared move is now owed: moves are open, ending without it is not
    act = state.flow.activation
    assert act is not None and act.unit == "nato-c" and act.then_move
    moves = [a for a in game.legal_actions() if a.kind == "move"]
    assert moves and not [a for a in game.legal_actions() if a.kind in ("end", "embark")]
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action("end", unit="nato-c"))
    assert refused.value.rule == DECLARED
    start = firer.pos
    moved = _play(game, moves[0])
    assert [e for e in moved if e["kind"] == "move"] and firer.pos != start


# rules: sevendays.fire.declared_move
def test_a_unit_that_fired_without_declaring_a_move_stays_put(make_game: MakeGame) -> None:
    """p8: what was declared before the roll holds: a shot declared alone is not followed by a
    move (that would be "fires and moves" without its -1)."""
    game = _tank_duel(make_game)
    game.apply(Action("activate", unit="nato-c"))
    _play(game, Action("fire", unit="nato-c", target="pact-t"))
    act = game.state.flow.activation
    assert act is not None and act.unit == "nato-c" and act.actions_left == 1
    legal = game.legal_actions()
    assert not [a for a in legal if a.kind in ("move", "turn")]
    assert Action("end", unit="nato-c") in legal
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action("move", unit="nato-c", point=(36.0, 14.0)))
    assert refused.value.rule == DECLARED


# rules: sevendays.fire.modifier.moved, sevendays.fire.declared_move
def test_moving_first_then_firing_still_takes_the_minus_one(make_game: MakeGame) -> None:
    """p15: "moves and fires" — and no second move may be declared after the shot."""
    game = _tank_duel(make_game)
    game.apply(Action("activate", unit="nato-c"))
    _play(game, Action("move", unit="nato-c", point=(36.0, 14.0)))
    shots = _shots(game)
    assert shots and all(a.option is None for a in shots)
    line = game.describe(Action("fire", unit="nato-c", target="pact-t"))
    assert "need 6+" in line
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action("fire", unit="nato-c", target="pact-t", option="then_move"))
    assert refused.value.rule == DECLARED


# rules: sevendays.fire.dice
def test_infantry_that_fires_then_moves_rolls_as_moving_infantry(make_game: MakeGame) -> None:
    """p15 dice table (unit firing at infantry, up to 12"): stationary infantry 2d10, moving
    infantry 1d10; the -1 itself is for vehicles only."""
    game = make_game(
        nato=[unit("i", "infantry", 36, 10)], pact=[unit("r", "motor-rifles", 36, 18)], seed=5
    )
    game.apply(Action("activate", unit="nato-i"))
    world, state = _w(game), game.state
    firer, target = state.units["nato-i"], state.units["pact-r"]
    still = known_plan(world, state, firer, target, "gun")
    moving = known_plan(world, state, firer, target, "gun", then_move=True)
    assert isinstance(still, ShotPlan) and isinstance(moving, ShotPlan)
    assert (still.dice, moving.dice) == (2, 1)
    assert still.need == moving.need and MOVED not in [m.rule for m in moving.modifiers]
    action = Action("fire", unit="nato-i", target="pact-r", option="then_move")
    assert "1d10" in game.describe(action)
    events = _play(game, action)
    roll = next(e for e in events if e["kind"] == "roll" and e["rule"] == "sevendays.fire.base")
    assert len(roll["dice"]) == 1
    assert [a for a in game.legal_actions() if a.kind == "move"]  # it may now move


# rules: sevendays.fire.atgm_actions
def test_no_move_can_be_declared_after_an_atgm_shot(make_game: MakeGame) -> None:
    """p8: firing an ATGM uses both actions, so "shoot and move" cannot include it."""
    game = make_game(nato=[unit("m", "milan", 36, 10)], pact=[unit("t", "t72a", 36, 34)])
    game.apply(Action("activate", unit="nato-m"))
    atgm = _shots(game, "atgm")
    assert atgm and all(a.option is None for a in atgm)


# -- 2. p15 modifier list: "MBT, APC, Light vehicle moved this Activation" --------------------
@pytest.mark.parametrize(
    ("side", "firer", "target", "penalised"),
    [
        ("nato", "chieftain-mk9", "motor-rifles", True),  # MBT
        ("nato", "warrior", "motor-rifles", True),  # APC
        ("nato", "scimitar", "motor-rifles", True),  # light vehicle
        ("pact", "mi24-hind", "infantry", False),  # helicopter: not in the book's list
        ("nato", "infantry", "motor-rifles", False),  # infantry: the moving dice row instead
    ],
)
# rules: sevendays.fire.modifier.moved
def test_the_moving_firer_minus_one_is_for_mbts_apcs_and_light_vehicles(
    make_game: MakeGame, side: str, firer: str, target: str, penalised: bool
) -> None:
    enemy = "pact" if side == "nato" else "nato"
    game = make_game(**{side: [unit("f", firer, 36, 10)], enemy: [unit("t", target, 36, 30)]})
    f, t = f"{side}-f", f"{enemy}-t"
    plan = _plan(game, f, t, moved=True)
    assert (MOVED in [m.rule for m in plan.modifiers]) is penalised
    assert plan.need == _plan(game, f, t).need + (1 if penalised else 0)


# -- 3. p15: Vehicle Autocannon 2d10, keep the highest, at every target -----------------------
# rules: sevendays.fire.autocannon
def test_autocannon_keeps_the_highest_die_against_infantry(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("s", "scimitar", 36, 10)], pact=[unit("r", "motor-rifles", 36, 40)])
    world, state = _w(game), game.state
    plan = _plan(game, "nato-s", "pact-r")
    assert plan.dice == 2 and plan.best_die and not plan.target_is_vehicle
    hits = dict(shot_chance(plan, world.profile(state.units["pact-r"]), world.house).outcomes())
    # one hit at most: the chance of a hit is the highest of 2d10 reaching the score
    p_hit = Fraction(icepool.highest(icepool.d10, icepool.d10).probability(">=", plan.need))
    assert p_hit == 1 - Fraction(plan.need - 1, 10) ** 2
    assert sum(p for (h, _n, _d, _m), p in hits.items() if h) == p_hit
    odds = exact_odds(plan, world.profile(state.units["pact-r"]), world.house)
    # a single hit gives 1 marker plus one light conversion d6 (weapon 4 < 7): 1 or 2 markers
    assert set(odds.markers) == {0, 1, 2}
    assert odds.markers[2] == p_hit / 2 and odds.markers[1] == p_hit / 2
    seen = Counter[int]()
    for seed in range(400):
        trial = state.clone()
        trial.rng = RandomStream(seed)
        roll = resolve_shot(world, trial, plan)[0]
        assert roll["hits"] == (1 if max(roll["dice"]) >= plan.need else 0)
        seen[roll["hits"]] += 1
    assert seen[1] > 0 and set(seen) <= {0, 1}


# rules: sevendays.fire.dice
def test_a_vehicle_gun_still_scores_a_hit_per_die_against_close_infantry(
    make_game: MakeGame,
) -> None:
    """p15: a vehicle gun rolls 2d10 at infantry up to 12"; only the autocannon keeps one."""
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 10)], pact=[unit("r", "motor-rifles", 36, 18)]
    )
    plan = _plan(game, "nato-c", "pact-r")
    assert plan.dice == 2 and not plan.best_die
    world = _w(game)
    outcomes = shot_chance(plan, world.profile(game.state.units["pact-r"]), world.house).outcomes()
    assert max(m for (_h, _n, _d, m) in outcomes) >= 3  # two hits, each converting


# -- 4. p15: support teams have only a "Stationary Support" row -------------------------------
# rules: sevendays.mortar.stationary
def test_a_mortar_team_fires_only_when_stationary(make_game: MakeGame) -> None:
    game = make_game(nato=[unit("m", "mortar", 36, 10)], pact=[unit("t", "t72a", 36, 40)])
    moved = plan_shot(
        _w(game),
        game.state,
        game.state.units["nato-m"],
        game.state.units["pact-t"],
        "gun",
        moved=True,
    )
    assert isinstance(moved, Refusal) and moved.rule == "sevendays.mortar.stationary"
    game.apply(Action("activate", unit="nato-m"))
    assert _shots(game) == [Action("fire", unit="nato-m", target="pact-t")]  # no fire-then-move
    assert [a for a in game.legal_actions() if a.kind == "smoke"]
    _play(game, Action("move", unit="nato-m", point=(36.0, 12.0)))
    legal = game.legal_actions()
    assert not [a for a in legal if a.kind in ("fire", "smoke")]
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action("fire", unit="nato-m", target="pact-t"))
    assert refused.value.rule == "sevendays.mortar.stationary"


# rules: sevendays.mortar.stationary
def test_a_vehicle_mortar_may_fire_after_moving_with_the_vehicle_minus_one(
    make_game: MakeGame,
) -> None:
    """The stationary row is the support teams'; an FV432M is a light vehicle (p15 list)."""
    game = make_game(nato=[unit("m", "fv432m", 36, 10)], pact=[unit("t", "t72a", 36, 40)])
    plan = _plan(game, "nato-m", "pact-t", moved=True)
    assert plan.need == _plan(game, "nato-m", "pact-t").need + 1


# -- 5. p15: smoke obscures (-1, thermal sights ignore), it does not block ------------------
# rules: sevendays.los.smoke, sevendays.smoke, sevendays.fire.modifier.cover
def test_smoke_obscures_the_target_and_thermal_sights_ignore_it(make_game: MakeGame) -> None:
    game = make_game(
        nato=[
            unit("m", "mortar", 36, 10),
            unit("c", "chieftain-mk5", 40, 10),  # no thermal sight
            unit("x", "chieftain-mk9", 44, 10),  # thermal
        ],
        pact=[unit("t", "t72a", 36, 40)],
    )
    world, state = _w(game), game.state
    before = _plan(game, "nato-c", "pact-t")
    assert not before.modifiers
    game.apply(Action("activate", unit="nato-m"))
    game.apply(Action("smoke", unit="nato-m", target="pact-t"))
    if state.flow.phase == "react":  # the enemy may react to the activation first
        game.apply(Action("no_react"))
    assert state.smoke
    plain, thermal, tank = (state.units[k] for k in ("nato-c", "nato-x", "pact-t"))
    seen = sight(world, state, plain, tank)
    assert seen.visible and seen.obscured  # in sight, more than half hidden
    smoked = _plan(game, "nato-c", "pact-t")
    assert [m.rule for m in smoked.modifiers] == ["sevendays.fire.modifier.cover"]
    assert smoked.need == before.need + 1
    assert not _plan(game, "nato-x", "pact-t").modifiers  # thermal sights ignore it
    assert sight(world, state, thermal, tank, obscured=True).visible


# rules: sevendays.smoke
def test_smoke_clears_at_the_end_of_the_turn(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("m", "mortar", 36, 10), unit("c", "chieftain-mk5", 40, 10)],
        pact=[unit("t", "t72a", 36, 40)],
    )
    state = game.state
    game.apply(Action("activate", unit="nato-m"))
    game.apply(Action("smoke", unit="nato-m", target="pact-t"))
    if state.flow.phase == "react":  # the enemy may react to the activation first
        game.apply(Action("no_react"))
    assert _plan(game, "nato-c", "pact-t").modifiers
    while state.flow.turn == 1 and game.to_act is not None:
        game.apply(Action("pass") if state.flow.phase == "activate" else game.legal_actions()[-1])
    assert not state.smoke and not _plan(game, "nato-c", "pact-t").modifiers


# -- 6. p19 artillery row (2d6) for artillery hits, the Divisional Artillery card included ----
# rules: sevendays.cards.divisional_artillery, sevendays.cards.off_table_artillery,
# rules: sevendays.hit.foot_conversion
@pytest.mark.parametrize("cover", ["open", "cover", "fortified"])
def test_divisional_artillery_converts_on_the_artillery_row(cover: str) -> None:
    deck = cards.load_deck().cards
    division, off_table = deck["divisional_artillery"], deck["off_table_artillery"]
    assert cards.BOMBARDMENTS["divisional_artillery"] == cards.BOMBARDMENTS["off_table_artillery"]
    per_hit, need = conversion(True, cover)
    assert per_hit == 2  # the artillery row: 2d6 per hit
    # by hand: 8+ on a d10 (3/10), then one marker and 2d6, each at the cover's score adds one
    q = Fraction(7 - need, 6)
    hit = Fraction(3, 10)
    expected = {
        0: 1 - hit,
        1: hit * (1 - q) ** 2,
        2: hit * 2 * q * (1 - q),
        3: hit * q**2,
    }
    got = cards.bombard_markers(division, False, cover).outcomes()
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in expected.items() if v}
    # the same conversion as the house off-table card's, past each card's own d10
    one_hit = conversion_roll(1, True, cover).outcomes()
    off = cards.bombard_markers(off_table, False, cover).outcomes()
    p_off = Fraction(11 - off_table.to_hit, 10)
    for extra, p in one_hit.items():
        assert off[1 + extra] == p_off * p
        assert got[1 + extra] == hit * p


# -- 7. p19: mortars are anti-vehicle value 0, halve the damage die after penetrating ------
# rules: sevendays.mortar.damage, sevendays.hit.penetration, sevendays.hit.no_penetration
def test_a_mortar_hit_on_a_light_vehicle_goes_through_penetration(make_game: MakeGame) -> None:
    # a SAM-8 Gecko (armour 8 front) faces the mortar 30" away: d10 + 0 must exceed 8
    game = make_game(nato=[unit("m", "mortar", 36, 10)], pact=[unit("g", "sam8-gecko", 36, 40)])
    world, state = _w(game), game.state
    plan = _plan(game, "nato-m", "pact-g")
    assert plan.weapon.value == 0 and plan.front
    odds = exact_odds(plan, world.profile(state.units["pact-g"]), world.house)
    hit, pen = Fraction(3, 10), Fraction(2, 10)
    assert odds.p_hit == hit and odds.p_penetrate == hit * pen
    # halved d6: 1,1,1,2,2,3 -> always a house-table "damaged" row (1-3), never destroyed
    assert odds.p_destroyed == 0
    pens = 0
    for seed in range(600):
        trial = state.clone()
        trial.rng = RandomStream(seed)
        events = resolve_shot(world, trial, plan)
        rules = [e["rule"] for e in events if e["kind"] == "roll"]
        if events[0]["success"]:
            assert rules[1] == "sevendays.hit.penetration"
            pen_roll = events[1]
            assert pen_roll["result"] == pen_roll["dice"][0]  # + anti-vehicle value 0
            if pen_roll["success"]:
                pens += 1
                damage = events[2]
                assert damage["rule"] == "sevendays.mortar.damage"
                assert damage["result"] == max(1, damage["dice"][0] // 2)
        else:
            assert rules == ["sevendays.fire.base"]
    assert pens > 0


# rules: sevendays.mortar.damage, sevendays.hit.damage
def test_a_house_table_where_every_penetration_destroys_cannot_let_a_mortar_kill_a_tank(
    make_game: MakeGame,
) -> None:
    house = {"damage_table": [{"max": 6, "result": "destroyed", "markers": 0}]}
    game = make_game(
        nato=[unit("m", "mortar", 36, 10)],
        pact=[unit("t", "t72a", 36, 40), unit("g", "sam8-gecko", 20, 40)],
        options={"house_rules": house},
    )
    world, state = _w(game), game.state
    tank = _plan(game, "nato-m", "pact-t")
    odds = exact_odds(tank, world.profile(state.units["pact-t"]), world.house)
    assert odds.p_destroyed == 0 and odds.p_penetrate == 0  # d10 + 0 never exceeds 15
    for seed in range(300):
        trial = state.clone()
        trial.rng = RandomStream(seed)
        resolve_shot(world, trial, tank)
        assert trial.units["pact-t"].alive
    # a thin-skinned vehicle it penetrates is destroyed under that table, as the odds say
    light = _plan(game, "nato-m", "pact-g")
    light_odds = exact_odds(light, world.profile(state.units["pact-g"]), world.house)
    assert light_odds.p_destroyed == light_odds.p_penetrate and light_odds.p_destroyed > 0


# rules: sevendays.fire.autocannon, sevendays.fire.modifier.moved
def test_umpire_odds_plans_the_corrected_shots_as_play_does(make_game: MakeGame) -> None:
    """``umpire odds`` answers from the same plan and chance as play: the autocannon keeps its
    best die against infantry; a moving helicopter takes no -1, a moving light vehicle does."""
    from umpire.rulesets.sevendays.shot_query import ShotQuery, answer_shot, shot_lines

    cannon = answer_shot(ShotQuery(firer="scimitar", target="motor-rifles", range=30))
    assert cannon.plan.best_die and cannon.plan.dice == 2
    assert "2d10 keep the highest need 4+" in shot_lines(cannon)[0]
    assert cannon.odds.p_hit == 1 - Fraction(cannon.plan.need - 1, 10) ** 2
    game = make_game(nato=[unit("s", "scimitar", 36, 10)], pact=[unit("r", "motor-rifles", 36, 40)])
    played = _plan(game, "nato-s", "pact-r")
    world = _w(game)
    assert exact_odds(played, world.profile(game.state.units["pact-r"]), world.house) == (
        cannon.odds
    )
    hind = answer_shot(ShotQuery(firer="mi24-hind", target="infantry", range=30, firer_moved=True))
    assert MOVED not in [m.rule for m in hind.plan.modifiers]
    scout = answer_shot(ShotQuery(firer="scimitar", target="t72a", range=30, firer_moved=True))
    assert [m.rule for m in scout.plan.modifiers] == [MOVED]


# rules: sevendays.los.hidden_markers, sevendays.los.blockers
def test_a_hidden_marker_does_not_block_sight_until_revealed(make_game: MakeGame) -> None:
    """Book p15: enemy vehicles block LOS; a hidden marker (house) does not, whatever it is,
    so who may see whom never tells a side what stands under the enemy's markers."""
    game = make_game(
        nato=[unit("c", "chieftain-mk9", 36, 22), unit("i", "infantry", 36, 8)],
        pact=[unit("t", "t72a", 36, 40)],
    )
    world, state = _w(game), game.state
    tank, chieftain, infantry = (state.units[k] for k in ("pact-t", "nato-c", "nato-i"))
    assert not sight(world, state, tank, infantry).visible  # the Chieftain is in the way
    chieftain.hidden, chieftain.marker = True, "marker-1"
    state.touch()
    assert sight(world, state, tank, infantry).visible
    chieftain.hidden = False
    state.touch()
    assert not sight(world, state, tank, infantry).visible
