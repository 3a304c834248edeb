"""Attack helicopters and air defence (book p20-21: AA reaction scores, the AA hit-effect table,
rockets; house: how helicopters move, see and are seen)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from umpire.core.actions import Action
from umpire.core.errors import DataFileError, IllegalActionError
from umpire.core.game import Game
from umpire.core.rng import RandomStream
from umpire.rulesets.sevendays.air import effect_row
from umpire.rulesets.sevendays.combat import resolve_shot
from umpire.rulesets.sevendays.config import default_house_rules
from umpire.rulesets.sevendays.firing import plan_shot
from umpire.rulesets.sevendays.odds import outcome_die
from umpire.rulesets.sevendays.shots import Refusal, ShotPlan
from umpire.rulesets.sevendays.turns import pool_size

from ..conftest import MakeGame, unit

WOOD = [{"id": "w", "kind": "woods", "rect": [30, 20, 42, 28]}]
LAKE = [{"id": "lake", "kind": "water", "rect": [20, 10, 52, 16]}]


def _air_game(make_game: MakeGame, seed: int = 0, **kwargs: Any) -> Game:
    """A Lynx facing a T-64B with three kinds of Soviet air defence behind it."""
    return make_game(
        seed=seed,
        nato=[unit("l", "lynx", 36, 4), unit("c", "chieftain-mk9", 10, 4)],
        pact=[
            unit("t", "t64b", 36, 40),
            unit("s", "sam9-gaskin", 44, 44),
            unit("z", "zsu23-shilka", 28, 44),
            unit("i", "motor-rifles", 20, 44),
        ],
        **kwargs,
    )


def _plan(game: Game, firer: str, target: str, kind: str = "gun") -> ShotPlan | Refusal:
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    units = game.state.units
    return plan_shot(world, game.state, units[firer], units[target], kind)


# rules: sevendays.air.aa_reaction
def test_aa_scores_by_system_against_a_helicopter(make_game: MakeGame) -> None:
    game = _air_game(make_game)
    shilka, sam, manpad = (_plan(game, u, "nato-l") for u in ("pact-z", "pact-s", "pact-i"))
    assert isinstance(shilka, ShotPlan) and isinstance(sam, ShotPlan)
    assert isinstance(manpad, ShotPlan)
    # rapid-fire autocannon 6+ on two dice, vehicle SAM 5+ (and +2 to the effect), MANPAD 8+
    assert (shilka.weapon_kind, shilka.need, shilka.dice, shilka.aa_bonus) == ("aa", 6, 2, 0)
    assert (sam.need, sam.dice, sam.aa_bonus) == (5, 1, 2)
    assert (manpad.need, manpad.dice, manpad.aa_bonus) == (8, 1, 0)
    # a morale marker on the firer makes it one worse
    game.state.units["pact-z"].markers = 1
    worse = _plan(game, "pact-z", "nato-l")
    assert isinstance(worse, ShotPlan) and worse.need == 7


# rules: sevendays.air.helicopter
def test_only_air_defence_may_shoot_at_a_helicopter(make_game: MakeGame) -> None:
    game = _air_game(make_game, first_initiative="pact")
    refused = _plan(game, "pact-t", "nato-l")
    assert isinstance(refused, Refusal) and refused.rule == "sevendays.air.helicopter"
    game.apply(Action("activate", unit="pact-t"))
    assert Action("fire", unit="pact-t", target="nato-l") not in game.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action("fire", unit="pact-t", target="nato-l"))
    assert info.value.rule == "sevendays.air.helicopter"


# rules: sevendays.air.helicopter
def test_helicopters_see_and_are_seen_over_terrain_and_do_not_block(make_game: MakeGame) -> None:
    # the wood stands between everyone; only the helicopter's lines are clear
    game = make_game(
        nato=[unit("l", "lynx", 36, 10), unit("c", "chieftain-mk9", 40, 10)],
        pact=[unit("z", "zsu23-shilka", 36, 40), unit("t", "t64b", 40, 40)],
        terrain=WOOD,
    )
    assert isinstance(_plan(game, "pact-z", "nato-l"), ShotPlan)
    assert isinstance(_plan(game, "nato-l", "pact-t", "atgm"), ShotPlan)
    blocked = _plan(game, "nato-c", "pact-t")
    assert isinstance(blocked, Refusal) and blocked.rule == "sevendays.los.blockers"
    # a helicopter over a wood is not in cover, and a helicopter in the line hides nothing
    game.state.units["nato-l"].y = 24
    game.state.touch()
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    assert not world.in_cover(game.state.units["nato-l"])


# rules: sevendays.air.helicopter, sevendays.move.normal
def test_helicopters_fly_over_impassable_ground_without_tests(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("l", "lynx", 36, 4), unit("c", "chieftain-mk9", 10, 4)],
        pact=[unit("t", "t64b", 36, 44)],
        terrain=LAKE,
        roads=[{"id": "r", "path": [[0, 4], [72, 4]]}],
    )
    game.apply(Action("activate", unit="nato-l"))
    events = game.apply(Action("move", unit="nato-l", point=(36.0, 28.0)))  # 24" across water
    assert game.state.units["nato-l"].pos == (36.0, 28.0)
    assert not [e for e in events if e.get("rule") == "sevendays.move.terrain_test"]
    # the tank cannot cross the lake, and a helicopter gains nothing from a road
    game2 = make_game(
        nato=[unit("l", "lynx", 36, 4), unit("c", "chieftain-mk9", 36, 8)],
        pact=[unit("t", "t64b", 36, 44)],
        terrain=LAKE,
        roads=[{"id": "r", "path": [[0, 4], [72, 4]]}],
    )
    game2.apply(Action("activate", unit="nato-l"))
    assert not [a for a in game2.legal_actions() if a.kind == "road"]
    with pytest.raises(IllegalActionError):
        game2.apply(Action("road", unit="nato-l", point=(60.0, 4.0)))


# rules: sevendays.tokens.helicopter
def test_a_helicopter_adds_no_command_token(make_game: MakeGame) -> None:
    game = _air_game(make_game)
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    # the Chieftain alone: one token (neither unit is the commander)
    assert pool_size(world, game.state, "nato") == 1


# rules: sevendays.air.aa_effect
def test_the_aa_hit_effect_table_with_the_vehicle_sam_bonus() -> None:
    table = default_house_rules().air.effect
    assert [effect_row(table, d).result for d in range(1, 7)] == [
        "evades",
        "evades",
        "damaged",
        "damaged",
        "shot_down",
        "shot_down",
    ]
    # +2 for a vehicle SAM: it never merely evades
    assert [effect_row(table, d + 2).result for d in range(1, 7)] == [
        "damaged",
        "damaged",
        "shot_down",
        "shot_down",
        "shot_down",
        "shot_down",
    ]


def _react_with(game: Game, reactor: str) -> list[dict[str, Any]]:
    """The Lynx declares an ATGM shot at the T-64B; ``reactor`` reacts against it."""
    events = list(game.apply(Action("activate", unit="nato-l")))
    events += game.apply(Action("atgm", unit="nato-l", target="pact-t"))
    assert game.state.flow.phase == "react"
    events += game.apply(Action("react", unit=reactor))
    while game.state.flow.phase == "act" and game.state.flow.activation is not None:
        events += game.apply(Action("end", unit="nato-l"))
    return events


# rules: sevendays.air.aa_effect, sevendays.air.aa_reaction
def test_aa_reaction_effects_on_the_helicopters_attack(make_game: MakeGame) -> None:
    seen: set[str] = set()
    for seed in range(80):
        game = _air_game(make_game, seed=seed)
        events = _react_with(game, "pact-z")
        effect = [e for e in events if e.get("rule") == "sevendays.air.aa_effect"]
        attack = [
            e
            for e in events
            if e.get("kind") == "roll"
            and e.get("rule") == "sevendays.fire.base"
            and e.get("firer") == "nato-l"
        ]
        lynx = game.state.units["nato-l"]
        if not effect:  # the reaction failed or missed: the attack goes in
            assert attack and lynx.alive
            continue
        result = effect[0]["text"].rsplit("-> ", 1)[1]
        seen.add(result)
        if result == "evades":
            assert not attack and lynx.alive
        elif result == "damaged":
            assert attack and lynx.status == "destroyed"
        else:
            assert result == "shot down"
            assert not attack and lynx.status == "destroyed" and not lynx.wreck
    assert seen == {"evades", "damaged", "shot down"}


# rules: sevendays.air.aa_fire
def test_air_defence_may_engage_a_helicopter_in_its_own_activation(make_game: MakeGame) -> None:
    results = set()
    for seed in range(60):
        game = _air_game(make_game, seed=seed, first_initiative="pact")
        game.apply(Action("activate", unit="pact-s"))
        shot = Action("fire", unit="pact-s", target="nato-l")
        assert shot in game.legal_actions()
        events = list(game.apply(shot))
        if game.state.flow.phase == "react":  # NATO may react to the declared shot first
            events += game.apply(Action("no_react"))
        effect = [e for e in events if e.get("rule") == "sevendays.air.aa_effect"]
        lynx = game.state.units["nato-l"]
        if effect:  # a vehicle SAM adds 2: every hit removes the helicopter at once
            results.add(effect[0]["text"].rsplit("-> ", 1)[1])
            assert lynx.status == "destroyed"
        else:
            assert lynx.alive
    assert results == {"damaged", "shot down"}


# rules: sevendays.air.aa_reaction, sevendays.air.aa_effect
def test_exact_aa_odds_match_the_table_and_the_game(make_game: MakeGame) -> None:
    game = _air_game(make_game)
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    lynx = world.profile(game.state.units["nato-l"])
    expected = {"pact-z": Fraction(1, 2), "pact-s": Fraction(3, 5), "pact-i": Fraction(1, 5)}
    for firer, p_out in expected.items():
        plan = _plan(game, firer, "nato-l")
        assert isinstance(plan, ShotPlan)
        die = outcome_die(plan, lynx, world.house)
        lost = Fraction(sum(n for o, n in die.items() if o[2]), die.denominator())
        assert lost == p_out
    # the Shilka's 1/2 against the game's own resolution
    plan = _plan(game, "pact-z", "nato-l")
    assert isinstance(plan, ShotPlan)
    n, down = 3000, 0
    for i in range(n):
        state = game.state.clone()
        state.rng = RandomStream(i)
        resolve_shot(world, state, plan)
        down += state.units["nato-l"].status == "destroyed"
    sigma = math.sqrt(n * 0.25)
    assert abs(down - n / 2) < 4 * sigma


# rules: sevendays.air.helicopter
def test_helicopters_are_not_assaulted_struck_by_cards_or_holding_ground(
    make_game: MakeGame,
) -> None:
    from umpire.rulesets.sevendays.close_combat import assault_targets
    from umpire.rulesets.sevendays.victory import objectives_held

    game = make_game(
        nato=[unit("l", "lynx", 36, 22), unit("c", "chieftain-mk9", 10, 4)],
        pact=[unit("i", "motor-rifles", 36, 26), unit("t", "t64b", 60, 44)],
        objectives=[{"id": "o", "at": [36, 22]}],
    )
    world = game.ruleset.world(game.state)  # type: ignore[attr-defined]
    state = game.state
    assert state.units["nato-l"] not in assault_targets(world, state, state.units["pact-i"])
    # the helicopter sits on the objective; the Soviet infantry 4" away holds it alone
    assert objectives_held(world, state) == {"o": None}
    state.units["pact-i"].y = 24
    state.touch()
    assert objectives_held(world, state) == {"o": "pact"}
    # morale markers never stick to a helicopter
    from umpire.rulesets.sevendays.morale import add_markers

    assert add_markers(world, state, state.units["nato-l"], 2, "sevendays.fire.base", "x") == []
    assert state.units["nato-l"].markers == 0


# rules: sevendays.air.helicopter
def test_a_helicopter_may_not_deploy_hidden(make_game: MakeGame) -> None:
    with pytest.raises(DataFileError, match="helicopter"):
        make_game(
            nato=[unit("l", "lynx", 36, 4, hidden=True), unit("c", "chieftain-mk9", 10, 4)],
            pact=[unit("t", "t64b", 36, 44)],
        )


# rules: sevendays.air.rockets, sevendays.air.rockets_penetration
def test_helicopter_rockets(make_game: MakeGame) -> None:
    game = make_game(
        nato=[unit("i", "infantry", 36, 10), unit("c", "chieftain-mk9", 20, 10)],
        pact=[unit("h", "mi24-hind", 36, 20)],
    )
    at_foot = _plan(game, "pact-h", "nato-i", "rockets")
    at_tank = _plan(game, "pact-h", "nato-c", "rockets")
    assert isinstance(at_foot, ShotPlan) and isinstance(at_tank, ShotPlan)
    # 5+ to hit; heavy conversion against infantry (2d6 per hit); weapon 7 against armour
    assert (at_foot.base, at_foot.heavy, at_foot.dice) == (5, True, 2)
    assert (at_tank.base, at_tank.weapon.value, at_tank.dice) == (5, 7, 1)
    # a line without rockets has none
    no_rockets = _plan(game, "nato-c", "nato-i", "rockets")
    assert isinstance(no_rockets, Refusal)


# rules: sevendays.air.aa_reaction, sevendays.air.aa_effect, sevendays.air.rockets
def test_umpire_odds_answers_aa_and_rocket_shots() -> None:
    from umpire.core.errors import UmpireError
    from umpire.rulesets.sevendays.shot_query import ShotQuery, answer_shot

    sam = answer_shot(ShotQuery(firer="SAM-9 Gaskin", target="Mi-24 Hind", range=20))
    # 5+ on a d10 hits 3/5; with +2 every hit removes the helicopter
    assert (sam.plan.need, sam.odds.p_hit, sam.odds.p_out) == (5, Fraction(3, 5), Fraction(3, 5))
    assert sam.odds.p_penetrate is None
    rockets = answer_shot(
        ShotQuery(firer="Mi-24 Hind", target="Motor Rifles", range=10, weapon="rockets")
    )
    assert (rockets.plan.need, rockets.plan.dice, rockets.plan.heavy) == (5, 2, True)
    with pytest.raises(UmpireError, match="sevendays.air.helicopter"):
        answer_shot(ShotQuery(firer="T-64B", target="Lynx", range=20))


# rules: sevendays.air.helicopter, sevendays.air.aa_reaction, sevendays.activation.platoon
@pytest.mark.parametrize("players", ["scripted", "random"])
def test_battles_with_helicopters_play_to_a_result(players: str) -> None:
    from pathlib import Path

    from umpire.analysis.simulate import Job, run_local

    forces = Path(__file__).resolve().parents[2] / "src/umpire/rulesets/sevendays/data/forces"
    options = {
        "forces": {
            "pact": str(forces / "ussr-hind-company.toml"),
            "nato": str(forces / "us-armored-team.toml"),
        }
    }
    job = Job(
        "sevendays/meeting-engagement",
        n=20,
        seed=7,
        options=options,
        agents={"nato": players, "pact": players},
    )
    rows = run_local(job, workers=1)
    assert len(rows) == 20
    assert all(r["winner"] in ("nato", "pact", "draw") and r["how"] for r in rows)
