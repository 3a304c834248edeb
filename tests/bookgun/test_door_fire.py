"""bookgun.building.door_fire: an HE/HEAT hit opens a locked door (rulebook p.19, 4.3: "doors
of an enemy occupied building are locked ... a shaped charge or an HE/HEAT hit" opens them;
specification §3.9 bookgun.building.doors). The procedure is the specification's blast rule
(§4.1 bookgun.fire.blast: the aim point - here the door - is hit on a d20 of 10 or less at short
range, 6 or less beyond; a miss scatters 1D6 in.), house-labelled in the catalogue."""

from __future__ import annotations

from fractions import Fraction

from tests.bookgun.test_rule_ids_terrain_weather import _with
from tests.bookgun.test_rule_ids_vehicles import BLACK, _cell_seen_in_k1, _raid
from umpire.core.actions import Action
from umpire.core.rng import RandomStream
from umpire.rulesets.bookgun import RULESET, combat
from umpire.rulesets.bookgun.allowance import Allowance
from umpire.rulesets.bookgun.chances import door_opens, door_shot
from umpire.rulesets.bookgun.movement import entry_point, move_problem
from umpire.rulesets.bookgun.state import BookGunState

DOOR_K2 = Action("fire", unit="squad", target="door:K2")


def _facing_the_door(s: BookGunState) -> None:
    """The squad dismounted in a line on the road east of the compound house, facing west at
    its door (14, 27): team leader A's grenade launcher 6.9 in. off (short), B's 9.6 in.
    (medium); every man within 6 in. of the squad leader, so one card fires the squad."""
    squad = s.units["squad"]
    squad.aboard = None
    for i, f in enumerate(s.unit_figures(squad)):
        f.x, f.y, f.room, f.facing, f.prone = 20.0 + 0.9 * i, 27.0, None, 180.0, False
    s.flow.phase, s.card, s.acted = "fire", BLACK, []
    s.flow.stack.clear()


def _raid_at_the_door() -> BookGunState:
    s = _raid()
    _cell_seen_in_k1(s)
    _facing_the_door(s)
    return s


def test_a_locked_door_in_sight_and_range_of_he_weapons_is_a_fire_target() -> None:
    """p.19: the doors of a building the enemy occupies are locked and an HE hit opens them.
    The cell is seen in K1: the compound's one door (into K2) is offered to the squad's grenade
    launchers; hidden in the house (not seen), there is no locked door to fire at."""
    s = _raid_at_the_door()
    assert DOOR_K2 in RULESET.legal_actions(s)
    shots = combat.door_shots(s, s.units["squad"], s.unit_figures(s.units["squad"]), "K2")
    assert [(x.firer, x.weapon, x.band, x.need) for x in shots] == [
        ("sq-tl1", "grenade_launcher", "short", 10),
        ("sq-tl2", "grenade_launcher", "medium", 6),
    ]
    hidden = _raid()
    _facing_the_door(hidden)
    assert all(a.target != "door:K2" for a in RULESET.legal_actions(hidden))


def test_no_he_weapon_in_range_or_in_view_no_door_fire() -> None:
    """Rifles do not open doors (an HE/HEAT hit is needed); a launcher whose man faces away
    (180-degree view, p.15, bookgun.move.facing) or that is out of range does not fire."""
    s = _raid_at_the_door()
    for f in s.unit_figures(s.units["squad"]):
        f.second = None
    assert DOOR_K2 not in RULESET.legal_actions(s)
    s = _raid_at_the_door()
    for f in s.unit_figures(s.units["squad"]):
        f.facing = 0.0  # east, away from the door
    assert DOOR_K2 not in RULESET.legal_actions(s)
    s = _raid_at_the_door()
    for f in s.unit_figures(s.units["squad"]):
        f.x += 30.0  # 36+ in.: beyond a grenade launcher's 32 in.
    assert DOOR_K2 not in RULESET.legal_actions(s)


def test_exact_odds_of_opening_the_door_are_the_rolls_play_makes() -> None:
    """§4.1 blast on-target numbers: 10 of 20 at short range, 6 of 20 beyond; the rounds fire
    one after another until one lands, so two launchers open the door with probability
    1 - (10/20)(14/20) = 13/20. The menu line shows the same figure."""
    assert door_shot(10).outcomes()[True] == Fraction(1, 2)
    assert door_shot(6).outcomes()[True] == Fraction(3, 10)
    assert door_opens([10, 6]).probability(lambda ok: ok) == Fraction(13, 20)
    assert door_opens([]).probability(lambda ok: ok) == 0
    s = _raid_at_the_door()
    assert "P(door opens) 65%" in RULESET.describe(s, DOOR_K2)


def _play(seed: int) -> tuple[BookGunState, list[str]]:
    s = _raid_at_the_door()
    s.rng = RandomStream(seed)
    squad = s.units["squad"]
    events = combat.resolve_fire(s, squad, s.unit_figures(squad), "door:K2", False)
    rolls = [e.text for e in events if e.kind == "roll" and e.rule == combat.DOOR_RULE]
    return s, rolls


def test_a_round_on_target_blows_the_door_open_for_good() -> None:
    """On target the door is open (an entry that is never locked again, like a breach): the
    squad may now go into K2 though the cell still holds K1; the door is no longer a target;
    a round that misses scatters and bursts elsewhere, and the next launcher fires. Every
    roll is the one the odds count: 'need 10 or less' first, 'need 6 or less' second."""
    seen = set()
    for seed in range(1, 60):
        s, rolls = _play(seed)
        assert rolls and "need 10 or less" in rolls[0]
        assert all("need 6 or less" in r for r in rolls[1:]) and len(rolls) <= 2
        opened = any(r.endswith("passes") for r in rolls)
        assert opened == any(b.get("how") == "he" for b in s.breaches)
        if rolls[0].endswith("passes"):
            assert len(rolls) == 1  # the second round is not fired
        squad = s.units["squad"]
        assert squad.fired and squad.reload == 1  # one marker (unmoved, launchers +0)
        al = Allowance(clear=12.0, rough=12.0, road=12.0)
        problem = move_problem(s, squad, al, None, "K2")
        if opened:
            assert entry_point(s, "army", "K2") is not None
            assert problem is None or "locked" not in problem
            assert "K2" not in combat.locked_doors(s, "army")
        else:
            assert problem is not None and "locked" in problem
        seen.add((len(rolls), opened))
    assert {(1, True), (2, True), (2, False)} <= seen


def test_the_door_fire_action_is_played_through_the_fire_phase() -> None:
    """The action offered is played like any fire action: the log names the rule and the
    unit's card is spent."""
    s = _raid_at_the_door()
    events = RULESET.apply(s, DOOR_K2)
    assert any(e.kind == "fire" and e.rule == combat.DOOR_RULE for e in events)
    assert any(e.kind == "roll" and e.rule == combat.DOOR_RULE for e in events)


def test_under_roe_1_the_army_may_not_fire_at_a_door() -> None:
    """p.7 ROE 1 (Weapons Hold): fire only back at a spotted unit that fired on you - a door is
    not one; ROE 2 (Weapons Tight) only with a leader to authorise it."""
    s = _raid_at_the_door()
    _with(s, roe=1)
    assert DOOR_K2 not in RULESET.legal_actions(s)
    assert "bookgun.roe.1" in str(combat.roe_problem(s, s.units["squad"], [], "door:K2"))
    _with(s, roe=2)
    assert DOOR_K2 in RULESET.legal_actions(s)


def test_umpire_odds_door_mode_gives_the_same_exact_odds() -> None:
    """`umpire odds bookgun --mode door`: two grenade launchers at 10 in. (medium, 6 or less
    each) open the door with 1 - (14/20)^2 = 0.51; an RPG at 6 in. (short) with 1/2."""
    from umpire.rulesets.bookgun.odds_cli import ODDS

    data, lines = ODDS.answer({"mode": "door", "weapons": "grenade_launcher*2", "range": 10.0})
    assert data["rounds"] == ["1d20 <= 6", "1d20 <= 6"]
    assert abs(data["door_opens"] - 0.51) < 1e-12
    data, _ = ODDS.answer({"mode": "door", "weapons": "rpg", "range": 6.0})
    assert data["door_opens"] == 0.5


def test_the_web_table_shows_the_exact_odds_of_the_door_like_other_fire_targets() -> None:
    """The board (bookgun/board.py) gives the door-fire action its exact odds: the rounds the
    rules fire (10 or less at short range, 6 or less beyond, spec §4.1) and P(door opens) from
    chances.door_opens - 1 - (10/20)(14/20) = 13/20 for the squad at the door, the menu line's
    figure. The insurgents' board gives no odds for the army's unit (which doors are locked to
    the army is the army's knowledge)."""
    from types import SimpleNamespace

    from umpire.rulesets.bookgun.board import BOARD

    s = _raid_at_the_door()
    game = SimpleNamespace(state=s)
    odds = BOARD.action_details(game, RULESET.observation(s, "army"), "army", DOOR_K2)
    assert odds is not None and odds["kind"] == "door" and odds["room"] == "K2"
    assert [(d["figure"], d["need"], d["band"]) for d in odds["dice"]] == [
        ("sq-tl1", 10, "short"),
        ("sq-tl2", 6, "medium"),
    ]
    assert odds["exact"] == {"door opens": "13/20", "stays locked": "7/20"}
    assert odds["results"]["door opens"] == 0.65 and odds["order"][0] == "door opens"
    seen_by_insurgents = RULESET.observation(s, "insurgents")
    assert BOARD.action_details(game, seen_by_insurgents, "insurgents", DOOR_K2) is None
    hidden = _raid()
    _facing_the_door(hidden)  # the cell unseen: no locked door, no odds
    obs = RULESET.observation(hidden, "army")
    assert BOARD.action_details(SimpleNamespace(state=hidden), obs, "army", DOOR_K2) is None
