"""The set-up phase (review finding F7) and the owner's choice of the artillery marker lost to
attrition (F8), tested against the specification's wording
(/work/shared/rules/rhine-operational.md):

- spec 5.5 (order of battle, "set-up / entry" column): 11 ACR "any hex cols 08-10", 3 AD "any
  hex cols 04-07", the Pact "any hex cols 11-12", the Heimatschutz garrisons on 0204 and 0605;
- spec 5.6: "NATO sets up first (fixed garrisons, then 11 ACR, then 3 AD), then the Pact";
- spec 3.8: stacking (Pact 2 of one division at all times, NATO 3 of one division and nation,
  West German garrisons not counted);
- spec 3.13 (rhine.admin.artillery_attrition): "each time NATO's count reaches a multiple of 4
  (Pact: 3), that side permanently loses one artillery CS marker of its choice".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.rhine.helpers import board, take_suggested_setup
from tests.rhine.test_data import _broken
from umpire.agents.base import RandomAgent
from umpire.core.actions import Action
from umpire.core.errors import DataFileError, IllegalActionError
from umpire.core.game import Game
from umpire.core.ruleset import DeployStep
from umpire.rulesets.rhine import RULESET
from umpire.rulesets.rhine.admin import attrition_to_act, house_attrition_pick
from umpire.rulesets.rhine.agent import RhineScripted
from umpire.rulesets.rhine.model import load_world, world_for
from umpire.rulesets.rhine.rules import stack_ok
from umpire.rulesets.rhine.ruleset import ENGINE, FLOW
from umpire.rulesets.rhine.state import RhineState

ACR = ("N-11-SQ1", "N-11-SQ2")
AD3 = ("N-3-TB1", "N-3-TB2", "N-3-MI1", "N-3-MI2")
PACT = ("P-79-TR1", "P-79-TR2", "P-79-MRR", "P-79-RB", "P-27-MRR1", "P-27-MRR2", "P-27-TR")
PACT_ALL = (*PACT, "P-27-RB")
ORDER = "rhine.setup.order"


def _refused(game: Game, action: Action, words: str, rule: str = "rhine.setup.area") -> None:
    """``action`` is refused with ``words``, naming ``rule``: the area (rhine.setup.area), the
    order of set-up (rhine.setup.order) or the stacking limit (rhine.stack.*)."""
    before = game.state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        game.apply(action)
    assert words in str(err.value), str(err.value)
    assert err.value.rule == rule
    assert game.state.to_dict() == before  # a refusal changes nothing


def _col(h: str | None) -> int:
    return int(str(h)[:2])


# -- F7: the set-up phase (spec 5.5, 5.6) --------------------------------------------------------
def test_the_first_decision_of_a_new_game_is_natos_set_up() -> None:
    """rhine.setup.order (spec 5.6 "NATO sets up first (fixed garrisons, then 11 ACR ...)"):
    the first decision of a new Autobahn Gap game is NATO's, before any order choice; the
    garrisons already stand on their fixed hexes (spec 5.5: 0204, 0605), every other unit of
    the set-up is on no hex, and 11 ACR is the formation to place now."""
    game = Game(RULESET, "autobahn-gap", 1)
    assert game.to_act == "nato"
    assert game.state.flow.phase == "setup" and game.state.order == {}
    legal = game.legal_actions()
    assert {a.kind for a in legal} == {"place", "setup_suggested"}
    assert {a.unit for a in legal if a.kind == "place"} == set(ACR)
    assert game.state.pos["N-HS-W"] == "0204" and game.state.pos["N-HS-M"] == "0605"
    for u in (*ACR, *AD3, *PACT_ALL):
        assert game.state.pos[u] is None and game.state.status[u] == "setup"
    assert any(e.get("rule") == "rhine.setup.order" for e in game.events)
    # reinforcements are not set up: they still wait for their turn (spec 5.5 "T2", "T3")
    assert game.state.status["N-5-PzB"] == "waiting" and game.state.status["P-AAB"] == "waiting"


def test_each_unit_is_listed_in_every_hex_of_its_area_and_no_other() -> None:
    """rhine.setup.area (spec 5.5 "any hex cols 08-10"): the 11 ACR squadrons are offered
    exactly the 30 hexes of columns 08-10."""
    game = Game(RULESET, "autobahn-gap", 1)
    for u in ACR:
        hexes = {a.cell for a in game.legal_actions() if a.kind == "place" and a.unit == u}
        assert len(hexes) == 30 and {_col(h) for h in hexes} == {8, 9, 10}


def test_a_unit_placed_outside_its_area_or_out_of_order_is_refused() -> None:
    """rhine.setup.area / rhine.setup.order: 3 AD waits for 11 ACR (spec 5.6 "then 11 ACR,
    then 3 AD"); a squadron in 0704 (column 07, not 08-10) and N-3-TB1 in 0804 (column 08, not
    04-07, spec 5.5) are refused; in their areas they are placed."""
    game = Game(RULESET, "autobahn-gap", 1)
    _refused(game, Action("place", unit="N-3-TB1", cell="0704"), "later step", ORDER)
    _refused(game, Action("place", unit="N-11-SQ1", cell="0704"), "outside the set-up area")
    _refused(game, Action("place", unit="P-79-TR1", cell="1105"), "is not nato's", ORDER)
    game.apply(Action("place", unit="N-11-SQ1", cell="0804"))
    game.apply(Action("place", unit="N-11-SQ2", cell="1008"))
    assert game.state.pos["N-11-SQ1"] == "0804" and game.to_act == "nato"
    _refused(game, Action("place", unit="N-3-TB1", cell="0804"), "outside the set-up area")
    _refused(game, Action("place", unit="N-11-SQ1", cell="0905"), "not waiting to set up", ORDER)
    game.apply(Action("place", unit="N-3-TB1", cell="0704"))
    assert game.state.pos["N-3-TB1"] == "0704"


def test_over_stacking_at_set_up_is_refused() -> None:
    """rhine.setup.area with rhine.stack.nato / rhine.stack.pact (spec 3.8): NATO puts at most
    3 units of one division in a hex, the West German garrison not counted (three 3 AD units
    join N-HS-M in 0605); the Pact 2, of one division."""
    game = Game(RULESET, "autobahn-gap", 1)
    game.apply(Action("place", unit="N-11-SQ1", cell="0904"))
    game.apply(Action("place", unit="N-11-SQ2", cell="0904"))
    for u in AD3[:3]:
        game.apply(Action("place", unit=u, cell="0605"))
    assert sorted(game.state.units_at("0605")) == sorted(["N-HS-M", *AD3[:3]])
    _refused(game, Action("place", unit="N-3-MI2", cell="0605"), "over-stack", "rhine.stack.nato")
    assert not any(a.cell == "0605" for a in game.legal_actions() if a.kind == "place")
    game.apply(Action("place", unit="N-3-MI2", cell="0606"))
    assert game.to_act == "pact"
    game.apply(Action("place", unit="P-79-TR1", cell="1105"))
    game.apply(Action("place", unit="P-79-TR2", cell="1105"))
    _refused(game, Action("place", unit="P-79-MRR", cell="1105"), "over-stack", "rhine.stack.pact")
    game.apply(Action("place", unit="P-79-MRR", cell="1106"))
    _refused(game, Action("place", unit="P-27-TR", cell="1106"), "over-stack", "rhine.stack.pact")


def test_the_pact_sets_up_after_nato_seeing_natos_units() -> None:
    """rhine.setup.order (spec 5.6 "..., then the Pact"): the Pact sets up once NATO has set
    up all its units, in columns 11-12 (spec 5.5), with NATO's positions in its own view, as on
    a real map; NATO's view, while it set up, showed no Pact unit on the map; then the turn's
    order choice begins with the Pact (rhine.order.choose)."""
    game = Game(RULESET, "autobahn-gap", 1)
    seen = game.view("nato").observation["pos"]
    assert all(seen[u] is None for u in PACT_ALL)
    hand = dict(zip((*ACR, *AD3), ("0801", "1010", "0401", "0410", "0705", "0705"), strict=True))
    for u, h in hand.items():
        assert game.to_act == "nato"
        game.apply(Action("place", unit=u, cell=h))
    assert game.to_act == "pact" and game.state.flow.phase == "setup"
    obs = game.view("pact").observation
    assert all(obs["pos"][u] == h for u, h in hand.items())
    cells = {a.cell for a in game.legal_actions() if a.kind == "place"}
    assert {_col(h) for h in cells} == {11, 12}
    for k, u in enumerate(PACT_ALL):
        game.apply(Action("place", unit=u, cell=("1101", "1103", "1105", "1107")[k // 2]))
    assert game.state.flow.phase == "order" and game.to_act == "pact"
    assert all(game.state.pos[u] == h for u, h in hand.items())


@pytest.mark.parametrize("scenario", ["autobahn-gap", "kinzig-valley"])
def test_the_suggested_set_up_reproduces_the_scenario_positions(scenario: str) -> None:
    """rhine.setup.suggested: 'take the suggested set-up' by each side puts every unit on the
    scenario's suggested hex (its ``at``), the positions every game started from before the
    set-up phase; each suggested hex lies in its unit's area (rhine.setup.area)."""
    w = world_for(scenario)
    game = Game(RULESET, scenario, 1)
    take_suggested_setup(game)
    assert game.state.flow.phase == "order" and game.to_act == "pact"
    at = {u.id: u.at for u in w.spec.units if u.at is not None}
    assert {u: h for u, h in game.state.pos.items() if h is not None} == at
    assert all(game.state.status[u] == "on" for u in at)
    for side, fixed, area, units in w.setup_steps:
        assert fixed or all(at[u] in area for u in units), side


def test_the_suggested_set_up_replaces_units_placed_by_hand() -> None:
    """rhine.setup.suggested: taken after placing some units by hand, it puts those too on
    their suggested hexes (the side's whole suggested set-up)."""
    game = Game(RULESET, "autobahn-gap", 1)
    game.apply(Action("place", unit="N-11-SQ1", cell="0908"))  # N-11-SQ2's suggested hex
    game.apply(Action("setup_suggested"))
    assert game.state.pos["N-11-SQ1"] == "0904" and game.state.pos["N-11-SQ2"] == "0908"
    assert game.to_act == "pact"


def test_the_scripted_player_takes_the_suggested_set_up() -> None:
    """rhine.setup.suggested: the scripted player (whose balance is tuned on the suggested
    set-up) takes it in one step."""
    game = Game(RULESET, "kinzig-valley", 2)
    for side in ("nato", "pact"):
        action = RhineScripted(side, 2).choose(game.view(side), game.legal_actions())
        assert action == Action("setup_suggested")
        game.apply(action)
    assert game.state.flow.phase == "order"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_player_sets_up_unit_by_unit_within_the_rules(seed: int) -> None:
    """rhine.setup.area: a random player placing unit by unit (never the suggested set-up)
    ends with every unit in its area and every stack legal (spec 3.8)."""
    game = Game(RULESET, "kinzig-valley", seed)
    agent = RandomAgent(seed)
    w = world_for("kinzig-valley")
    while game.state.flow.phase == "setup":
        legal = [a for a in game.legal_actions() if a.kind == "place"]
        side = game.to_act
        assert side is not None
        game.apply(agent.choose(game.view(side), legal))
    for _side, fixed, area, units in w.setup_steps:
        assert all(game.state.pos[u] in area for u in units if not fixed)
    stacks: dict[str, list[str]] = {}
    for u, h in game.state.pos.items():
        if h is not None:
            stacks.setdefault(h, []).append(u)
    assert all(stack_ok(w, [w.units[u] for u in us]) for us in stacks.values())


def test_the_deployment_step_names_the_side_area_and_pieces() -> None:
    """The web table's deployment step (rhine.setup.area): the side now setting up, the hexes
    of its formation's area and the units still to place; none once play begins."""
    game = Game(RULESET, "autobahn-gap", 1)
    step = RULESET.capabilities.deployment(game.state)
    assert isinstance(step, DeployStep)
    assert step.side == "nato" and step.pieces == ACR and "place" in step.kinds
    assert {_col(h) for h in step.zone["cells"]} == {8, 9, 10}
    assert RULESET.capabilities.in_play(game.state) is False
    take_suggested_setup(game)
    assert RULESET.capabilities.deployment(game.state) is None
    assert RULESET.capabilities.in_play(game.state) is True


def test_the_set_up_phase_asks_nothing_after_turn_one() -> None:
    """rhine.setup.order: the set-up happens once; later turns begin with the order choice."""
    game = Game(RULESET, "autobahn-gap", 4)
    take_suggested_setup(game)
    agents = {s: RhineScripted(s, 4) for s in ("pact", "nato")}
    while not game.is_over and game.state.flow.turn < 3:
        side = game.to_act
        assert side is not None
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    assert game.state.flow.turn == 3 and game.state.flow.phase in ("order", "air")


def _setup(raw: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = raw["setup"]["steps"]
    return steps


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda r: _setup(r)[1].update(columns=[8, 13]), "setup.steps.1.columns", "not within"),
        (lambda r: _setup(r)[2].update(columns=[6, 7]), "units.16.at", "outside its set-up"),
        (
            lambda r: _setup(r)[1].update(divisions=["12 ACR"]),
            "setup.steps.1.divisions.0",
            "unknown",
        ),
        (lambda r: _setup(r)[3].update(divisions=["3 AD"]), "setup.steps.3.divisions.0", "is nato"),
        (lambda r: _setup(r).pop(1), "units.11.at", "in no set-up step"),
        (lambda r: _setup(r)[1].update(columns=None), "setup.steps.1", "needs columns or hexes"),
        (lambda r: _setup(r)[1].update(hexes=["0813"]), "setup.steps.1.hexes.0", "off the"),
        (lambda r: _setup(r)[1].update(columns=[8, 11]), "setup.steps.1", "overlaps"),
    ],
)
def test_a_bad_set_up_area_is_one_line_naming_file_and_field(
    tmp_path: Path, change: object, field: str, words: str
) -> None:
    """A bad set-up area in a scenario file is a one-line error naming the file and the field,
    like the other scenario checks."""
    path = _broken(tmp_path, change)
    with pytest.raises(DataFileError) as err:
        load_world(path)
    msg = str(err.value)
    assert "\n" not in msg and str(path) in msg and f"field {field}" in msg and words in msg


# -- F8: the owner chooses the artillery marker lost to attrition (spec 3.13) --------------------
def _at_admin_end(losses: dict[str, int], frg_ready: bool = False) -> RhineState:
    """A position at the end of turn 1's refugee placement, the flow moved on to the end of
    the administrative phase."""
    s = board({"N-3-TB1": "0605", "P-79-TR1": "1105"})
    s.order = {"pact": "move-fight", "nato": "move-fight"}
    for m in s.cs:
        if frg_ready and m.nation == "FRG":
            m.status, m.back = "ready", 0
    s.losses.update(losses)
    s.flow.phase = "admin"
    s.refugees_to_place = 0
    FLOW.advance(s)
    return s


def test_the_attrition_choice_is_offered_to_the_owner_and_honoured() -> None:
    """rhine.admin.artillery_attrition (spec 3.13 "loses one artillery CS marker of its
    choice"): NATO's 4th loss stops the administrative phase for NATO's choice among its kinds
    of artillery marker (US ready, FRG still to arrive on turn 3, Autobahn Gap spec 5.5); the
    FRG marker NATO chooses is the one lost, and play goes on to the next turn."""
    s = _at_admin_end({"nato": 4})
    assert s.flow.phase == "attrition" and RULESET.to_act(s) == "nato"
    legal = RULESET.legal_actions(s)
    assert {a.kind for a in legal} == {"attrition"}
    nations = {next(m.nation for m in s.cs if m.id == a.option) for a in legal}
    assert nations == {"US", "FRG"} and len(legal) == 2
    frg = next(a for a in legal if "FRG" in str(a.option))
    events = RULESET.apply(s, frg)
    lost = [m for m in s.cs if m.status == "lost"]
    assert [m.id for m in lost] == [frg.option] and lost[0].nation == "FRG"
    assert any(e.get("kind") == "attrition" and "nato's choice" in e["text"] for e in events)
    assert s.attrition_taken["nato"] == 1
    assert s.flow.turn == 2 and s.flow.phase == "order"


def test_no_question_when_the_markers_are_all_alike() -> None:
    """rhine.admin.artillery_attrition: the Pact's 3rd loss costs one of its six USSR artillery
    markers, all ready and alike (spec 5.5 pool): there is no real choice, no question, one is
    lost and the turn goes on."""
    s = _at_admin_end({"pact": 3})
    assert s.flow.turn == 2 and s.flow.phase == "order"
    lost = [m for m in s.cs if m.status == "lost"]
    assert len(lost) == 1 and lost[0].side == "pact" and lost[0].type == "artillery"


def test_a_choice_not_offered_is_refused() -> None:
    """rhine.admin.artillery_attrition: only the side's own artillery markers may be chosen (a
    helicopter marker, or the enemy's, is refused, and nothing changes)."""
    s = _at_admin_end({"nato": 4})
    heli = next(m.id for m in s.cs if m.side == "nato" and m.type == "helicopter")
    pact = next(m.id for m in s.cs if m.side == "pact" and m.type == "artillery")
    before = s.to_dict()
    for option in (heli, pact):
        with pytest.raises(IllegalActionError):
            ENGINE.apply(s, Action("attrition", option=option))
        assert s.to_dict() == before


def test_both_sides_choose_pact_first() -> None:
    """rhine.admin.artillery_attrition, spec 3.4 step 6: both sides' attrition in one
    administrative phase, the Pact's (its markers made unlike: one resting) before NATO's."""
    s = board({"N-3-TB1": "0605", "P-79-TR1": "1105"})
    resting = next(m for m in s.cs if m.side == "pact" and m.type == "artillery")
    resting.status, resting.back = "resting", 3
    s.losses.update({"pact": 3, "nato": 4})
    s.flow.phase, s.refugees_to_place = "admin", 0
    FLOW.advance(s)
    assert attrition_to_act(s) == "pact"
    RULESET.apply(s, Action("attrition", option=resting.id))
    assert resting.status == "lost" and attrition_to_act(s) == "nato"


def test_the_scripted_player_keeps_the_house_rule_of_thumb() -> None:
    """rhine.scenario.attrition_choice (house): the scripted player loses a marker of the
    nation with most artillery left (US: 4 against FRG 2), one in the pool first."""
    s = _at_admin_end({"nato": 4}, frg_ready=True)
    game = Game(RULESET, "autobahn-gap", 1)
    game.state = s
    choice = RhineScripted("nato", 1).choose(game.view("nato"), RULESET.legal_actions(s))
    assert choice.kind == "attrition"
    chosen = next(m for m in s.cs if m.id == choice.option)
    assert chosen.nation == "US" and chosen.status == "ready"
    markers = [m.to_dict() for m in s.cs]
    assert house_attrition_pick(markers, "nato", True) == choice.option


def test_the_set_up_through_the_web_table(tmp_path: Path) -> None:
    """rhine.setup.order / .area / .suggested at the browser table: NATO's seat is deploying
    with its formation's area as the zone (the Pact's seat sees the zone, not NATO's pieces); a
    placement outside the area is refused with the rules' reason; one placed in it is seen by
    both seats; "deploy for me" takes the suggested set-up for NATO only, then for the Pact."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from umpire.server.main import create_app

    with TestClient(create_app(tmp_path / "games.sqlite3", ai_delay=0.0)) as client:
        r = client.post(
            "/api/games",
            json={
                "ruleset": "rhine",
                "scenario": "autobahn-gap",
                "seed": 3,
                "players": {"pact": "here", "nato": "remote"},
            },
        )
        assert r.status_code == 200, r.text
        game = r.json()
        url = {
            s["sides"][0]: f"/api/games/{game['id']}/seats/{s['token']}"
            for s in game["seats"]
            if len(s["sides"]) == 1
        }
        nato = client.get(url["nato"] + "/view").json()
        pact = client.get(url["pact"] + "/view").json()
        assert nato["deploying"] and not pact["deploying"]
        assert nato["deployment"]["pieces"] == list(ACR) and "pieces" not in pact["deployment"]
        assert {_col(h) for h in pact["deployment"]["zone"]["cells"]} == {8, 9, 10}
        bad = {"kind": "place", "unit": "N-11-SQ1", "cell": "0704"}
        r = client.post(url["nato"] + "/actions", json={"index": 0, "action": bad})
        assert r.status_code == 422 and "outside the set-up area" in r.json()["detail"]
        good = {"kind": "place", "unit": "N-11-SQ1", "cell": "0905"}
        r = client.post(url["nato"] + "/actions", json={"index": 0, "action": good})
        assert r.status_code == 200, r.text
        units = {u["id"]: u for u in client.get(url["pact"] + "/view").json()["board"]["units"]}
        assert units["N-11-SQ1"]["hex"] == "0905"
        r = client.post(url["nato"] + "/deploy", json={"index": 1})
        assert r.status_code == 200 and r.json()["placed"] == 1 and r.json()["to_act"] == "pact"
        r = client.post(url["pact"] + "/deploy", json={"index": 2})
        assert r.status_code == 200, r.text
        after = client.get(url["pact"] + "/view").json()
        assert "deployment" not in after and after["board"]["status"]["phase"] == "order"
        units = {u["id"]: u for u in after["board"]["units"]}
        assert units["N-11-SQ1"]["hex"] == "0904"  # the suggested set-up, taken by the player


def test_the_listing_of_placements_agrees_with_their_check() -> None:
    """rhine.setup.area: the placements listed are exactly those the check allows, in a set-up
    with stacks already placed (3 AD beside a garrison, a full Pact stack)."""
    from umpire.rulesets.rhine.placement import place_refusal

    game = Game(RULESET, "autobahn-gap", 1)
    for u, h in (("N-11-SQ1", "0904"), ("N-11-SQ2", "0904"), ("N-3-TB1", "0605")):
        game.apply(Action("place", unit=u, cell=h))
    w = world_for("autobahn-gap")
    for _ in range(2):
        side = game.to_act
        assert side is not None
        listed = {(a.unit, a.cell) for a in game.legal_actions() if a.kind == "place"}
        allowed = {
            (u, h) for u in w.units for h in w.ids if place_refusal(game.state, side, u, h) is None
        }
        assert listed == allowed and listed
        if side == "nato":
            for u, h in (("N-3-TB2", "0605"), ("N-3-MI1", "0605"), ("N-3-MI2", "0606")):
                game.apply(Action("place", unit=u, cell=h))
            game.apply(Action("place", unit="P-79-TR1", cell="1105"))
            game.apply(Action("place", unit="P-79-TR2", cell="1105"))
