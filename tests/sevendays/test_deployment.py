"""Free deployment in Seven Days (game option ``deployment: free``; sevendays.scenario.
free_deployment, house), with hidden deployment (sevendays.scenario.hidden_deployment: the enemy
reads "where, whose, never what"; Capture, book p32: the British combat team deploys hidden "at
least 12 inches from the start line" of the Soviet attack on the north edge)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from umpire.analysis.simulate import play_game
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, UmpireError
from umpire.core.events import seen_by
from umpire.core.game import Game
from umpire.core.ruleset import DeployStep, get_ruleset
from umpire.rulesets.sevendays import deployment
from umpire.rulesets.sevendays.deployment import DeployingScripted
from umpire.rulesets.sevendays.ruleset import SevenDays
from umpire.rulesets.sevendays.state import SevenDaysState

FREE = {"deployment": "free"}


def ruleset() -> SevenDays:
    found = get_ruleset("sevendays")
    assert isinstance(found, SevenDays)
    return found


def free_capture(seed: int = 3) -> SevenDaysState:
    return ruleset().new_state("capture", seed, FREE)


def dumped(data: Any) -> Any:
    return json.loads(json.dumps(data, default=str))


def spec_positions(scenario: str) -> dict[str, tuple[float, float]]:
    spec = ruleset().world_for(scenario, None).scenario.spec
    return {
        f"{side}-{u.id}": (float(u.at[0]), float(u.at[1]))
        for side, side_spec in spec.sides.items()
        for u in side_spec.units
    }


# -- fixed is the default ---------------------------------------------------------------------
def test_fixed_positions_by_default_and_no_deployment_step() -> None:
    r = ruleset()
    default = r.new_state("capture", 5, {})
    fixed = r.new_state("capture", 5, {"deployment": "fixed"})
    one, two = dumped(r.state_to_dict(default)), dumped(r.state_to_dict(fixed))
    assert two.pop("options") == {"deployment": "fixed"} and one.pop("options") == {}
    assert one == two
    assert r.capabilities.deployment is not None
    assert r.capabilities.deployment(default) is None
    assert all(a.kind != "place" for a in r.legal_actions(default))
    at = spec_positions("capture")
    for uid, unit in default.units.items():
        assert (unit.x, unit.y) == at[uid]


def test_an_unknown_deployment_choice_is_refused_by_the_option() -> None:
    option = next(o for o in ruleset().capabilities.options if o.name == "deployment")
    assert option.choices == ("fixed", "free") and option.default == "fixed"
    with pytest.raises(UmpireError):
        ruleset().new_state("capture", 1, {"deploy": "free"})  # not an option of the game


# -- the step -----------------------------------------------------------------------------------
def test_capture_defender_places_first_behind_twelve_inches_of_the_start_line() -> None:
    """Capture (book p32): the defender deploys hidden at least 12" from the attackers' start
    line on the north edge. The start line runs through the foremost attacker (y = 44 in the
    scenario file), so every British placement is at y <= 32; the Soviets place between their
    start line and their edge."""
    r = ruleset()
    state = free_capture()
    assert r.to_act(state) == "nato"
    step = r.capabilities.deployment(state)
    assert isinstance(step, DeployStep)
    assert step.side == "nato" and step.kinds == ("place",) and step.hidden
    assert step.zone == {"rects": [[0.0, 0.0, 72.0, 32.0]]}
    legal = r.legal_actions(state)
    assert legal and all(a.kind == "place" and a.point is not None for a in legal)
    assert all(a.point is not None and a.point[1] <= 32.0 for a in legal)
    # every British unit on the table waits to be placed, none of the Soviets' yet
    assert {a.unit for a in legal} == set(step.pieces)
    assert all(u.startswith("nato-") for u in step.pieces) and len(step.pieces) == 7
    # nothing is on the table before it is placed (a unit waiting stands off the table)
    assert all(state.units[u].x < 0 for u in step.pieces)
    while r.to_act(state) == "nato" and r.capabilities.deployment(state) is not None:
        r.apply(state, r.legal_actions(state)[0])
    step = r.capabilities.deployment(state)
    assert step is not None and step.side == "pact" and not step.hidden
    assert step.zone == {"rects": [[0.0, 44.0, 72.0, 48.0]]}
    legal = r.legal_actions(state)
    assert all(a.point is not None and a.point[1] >= 44.0 for a in legal)
    # reserves are not placed (sevendays.scenario.reserves); a passenger rides with its APC
    reserve = {u.uid for u in state.units.values() if u.status == "reserve"}
    assert reserve and not reserve & set(step.pieces)
    assert "pact-infantry-1" not in step.pieces and "pact-bmp2-1" in step.pieces


def test_meeting_engagement_zones_are_the_twelve_inch_bands_of_each_home_edge() -> None:
    r = ruleset()
    state = r.new_state("meeting-engagement", 2, FREE)
    step = r.capabilities.deployment(state)
    assert step is not None and step.side == "nato"  # no attacker: NATO first
    assert step.zone == {"rects": [[0.0, 0.0, 72.0, 12.0]]}
    while (step := r.capabilities.deployment(state)) is not None and step.side == "nato":
        r.apply(state, r.legal_actions(state)[-1])
    assert step is not None and step.zone == {"rects": [[0.0, 36.0, 72.0, 48.0]]}


def test_a_placement_anywhere_legal_in_the_zone_and_refusals_leave_the_state() -> None:
    r = ruleset()
    state = free_capture()
    before = dumped(r.state_to_dict(state))
    refused = [
        Action("place", unit="nato-milan-1", point=(20.0, 40.0)),  # beyond the zone
        Action("place", unit="nato-milan-1", point=(0.5, 10.0)),  # over the table edge
        Action("place", unit="pact-t64b-1", point=(20.0, 20.0)),  # not NATO's
        Action("place", unit="nato-milan-1"),  # no point
        Action("activate", unit="nato-milan-1"),  # not a placement
    ]
    for action in refused:
        with pytest.raises(IllegalActionError):
            r.apply(state, action)
        assert dumped(r.state_to_dict(state)) == before
    # a point that no listed placement names is accepted if legal (the table is continuous)
    r.apply(state, Action("place", unit="nato-milan-1", point=(16.3, 24.7)))
    assert (state.units["nato-milan-1"].x, state.units["nato-milan-1"].y) == (16.3, 24.7)
    # no two units nearer than 2.5" to each other
    with pytest.raises(IllegalActionError, match="already placed"):
        r.apply(state, Action("place", unit="nato-fv432-1", point=(17.0, 26.0)))
    # not in terrain it cannot enter: a tank not in the village's buildings (rect 30-34 x
    # 26-30), where infantry may stand
    with pytest.raises(IllegalActionError, match="village-west"):
        r.apply(state, Action("place", unit="nato-chieftain-1", point=(32.0, 28.0)))
    r.apply(state, Action("place", unit="nato-infantry-1", point=(32.0, 28.0)))
    step = r.capabilities.deployment(state)
    assert step is not None
    assert {"nato-milan-1", "nato-infantry-1"}.isdisjoint(step.pieces) and len(step.pieces) == 5


def test_the_enemy_reads_where_and_whose_never_what() -> None:
    """sevendays.scenario.hidden_deployment: a hidden unit's placement shows the Soviets a
    marker at its place and nothing else, in the observation and in the events."""
    r = ruleset()
    game = Game(r, "capture", 4, FREE)
    names = {u.name for u in game.state.units.values() if u.side == "nato"}
    uids = {u.uid for u in game.state.units.values() if u.side == "nato"}
    events = []
    for _ in range(3):
        events += game.apply(r.legal_actions(game.state)[5])
    obs = r.observation(game.state, "pact")
    nato = [u for u in obs["units"] if u.get("side") == "nato"]
    assert len(nato) == 7 and all(set(u) == {"marker", "side", "x", "y", "hidden"} for u in nato)
    placed = [u for u in nato if u["x"] >= 0]
    assert len(placed) == 3
    read = seen_by(events, "pact")
    assert len(read) == 3 and all("marker" in e.text for e in read)
    text = json.dumps(dumped(obs)) + json.dumps([e.to_dict() for e in read])
    for secret in names | uids:
        assert secret not in text, secret
    # the owner reads what it placed
    own = seen_by(events, "nato")
    assert any(name in e.text for e in own for name in names)


def test_resampling_the_hidden_placements_keeps_the_enemys_view() -> None:
    """The determinisation (``resample``) deals the British units afresh under the markers the
    Soviets see, placed or still waiting: the Soviets' observation and legal actions are the
    same, and the truth does change for some draw (the check can fail)."""
    r = ruleset()
    state = free_capture(seed=6)
    for _ in range(4):  # some markers on the table, some still waiting
        r.apply(state, r.legal_actions(state)[3])
    seen = dumped(r.observation(state, "pact"))
    truth = {u.uid: (u.x, u.y) for u in state.units.values() if u.side == "nato"}
    changed = 0
    for draw in range(8):
        twin = r.resample(state, "pact", random.Random(draw))
        assert dumped(r.observation(twin, "pact")) == seen
        assert r.legal_actions(twin) and r.to_act(twin) == r.to_act(state)
        changed += {u.uid: (u.x, u.y) for u in twin.units.values() if u.side == "nato"} != truth
    assert changed > 0
    # once both sides have placed everything, the same holds in play
    while r.capabilities.deployment(state) is not None:
        r.apply(state, r.legal_actions(state)[0])
    seen = dumped(r.observation(state, "pact"))
    for draw in range(4):
        assert dumped(r.observation(r.resample(state, "pact", random.Random(draw)), "pact")) == seen


def test_deploy_for_me_places_where_the_scenario_does() -> None:
    """The scripted player (the page's "deploy for me") places each unit at its scenario
    position when that lies in its zone: Capture's fixed layout, reached by free placement."""
    r = ruleset()
    game = Game(r, "capture", 2, FREE)
    agents = {s: DeployingScripted(s, 2) for s in r.meta.players}
    while (step := r.capabilities.deployment(game.state)) is not None:
        side = step.side
        action = agents[side].choose(game.view(side), game.legal_actions())
        assert action.kind == "place" and action in game.legal_actions()
        game.apply(action)
    at = spec_positions("capture")
    for uid, unit in game.state.units.items():
        if unit.status == "active":
            assert (unit.x, unit.y) == at[uid], uid
    assert game.to_act is not None and r.capabilities.in_play is not None


@pytest.mark.parametrize("scenario", ["capture", "breakthrough", "meeting-engagement"])
@pytest.mark.parametrize("kind", ["random", "scripted"])
def test_games_from_free_deployment_play_to_their_end(scenario: str, kind: str) -> None:
    row = play_game(f"sevendays/{scenario}", FREE, {"nato": kind, "pact": kind}, 0, 7)
    assert row["winner"] in ("nato", "pact", "draw")
    # more actions than the placements alone: the battle was fought after deployment
    assert row["actions"] > 20


def test_a_game_with_free_deployment_replays_from_its_record() -> None:
    r = ruleset()
    game = Game(r, "capture", 8, FREE)
    chooser = random.Random(8)
    for _ in range(30):
        game.apply(chooser.choice(game.legal_actions()))
    twin = Game(r, "capture", 8, FREE)
    for action in game.record.actions:
        twin.apply(action)
    assert dumped(r.state_to_dict(twin.state)) == dumped(r.state_to_dict(game.state))
    again = r.state_from_dict(dumped(r.state_to_dict(game.state)))
    assert r.legal_actions(again) == r.legal_actions(game.state)


def test_zone_helpers_agree_with_the_capability() -> None:
    state = free_capture()
    world = ruleset().world(state)
    assert deployment.in_zone(world, "nato", 10.0, 30.0)
    assert not deployment.in_zone(world, "nato", 10.0, 33.0)
    assert deployment.order(world) == ["nato", "pact"]


# rules: sevendays.scenario.free_deployment (house numbers in house_rules.yaml)
def test_the_zone_depth_and_spacing_are_house_rule_numbers_a_user_can_change() -> None:
    r = ruleset()
    house = {"free_deployment": {"depth": 6.0, "spacing": 5.0}}
    state = r.new_state("meeting-engagement", 2, {**FREE, "house_rules": house})
    step = r.capabilities.deployment(state)
    assert step is not None and step.zone == {"rects": [[0.0, 0.0, 72.0, 6.0]]}
    r.apply(state, Action("place", unit=step.pieces[0], point=(20.0, 3.0)))
    # 4" apart: allowed by the book's 2.5", refused by this file's 5"
    with pytest.raises(IllegalActionError, match='within 5" of a unit already placed'):
        r.apply(state, Action("place", unit=step.pieces[1], point=(24.0, 3.0)))
    with pytest.raises(IllegalActionError, match="outside NATO's deployment zone"):
        r.apply(state, Action("place", unit=step.pieces[1], point=(40.0, 9.0)))


def test_a_bad_free_deployment_number_is_a_one_line_error_naming_the_field() -> None:
    with pytest.raises(UmpireError, match="free_deployment.depth"):
        ruleset().new_state(
            "meeting-engagement", 2, {**FREE, "house_rules": {"free_deployment": {"depth": -1}}}
        )
