"""Force files: schema, TOML round trip, legality errors, deployment, the interactive builder."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

import umpire
from umpire.core.errors import DataFileError
from umpire.core.game import new_game
from umpire.geometry.table import Table
from umpire.importers.roster import check_force_file
from umpire.rulesets.sevendays import forces as forces_module
from umpire.rulesets.sevendays.config import house_rules
from umpire.rulesets.sevendays.force_builder import build_force, new_force, orbat_table
from umpire.rulesets.sevendays.forces import (
    Force,
    ForceEntry,
    can_carry,
    capacity,
    check_force,
    deploy_force,
    deploy_side,
    force_points,
    force_problems,
    force_to_toml,
    home_edge,
    load_force,
    pair_passengers,
    parse_force,
    write_force,
)
from umpire.rulesets.sevendays.orbat import UnitProfile
from umpire.rulesets.sevendays.scenario import (
    Scenario,
    ScenarioSpec,
    SideSpec,
    load_scenario,
    scenario_path,
)

FORCES = Path(forces_module.__file__).resolve().parent / "data" / "forces"
EXAMPLES = sorted(FORCES.glob("*.toml"))


def _force(nation: str = "uk", points: int | None = 500, **entries: int) -> Force:
    return Force(
        nation=nation,
        name="test",
        points=points,
        units=[ForceEntry(profile=p.replace("_", "-"), count=n) for p, n in entries.items()],
    )


def _error(force: Force, points: int | None = None) -> str:
    with pytest.raises(DataFileError) as info:
        check_force(force, points)
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.fixture(scope="module")
def meeting() -> Scenario:
    return load_scenario("meeting-engagement", house_rules(None))


# --- the example files ----------------------------------------------------------------------


def test_there_is_an_example_force_for_each_nation() -> None:
    nations = {load_force(path).nation for path in EXAMPLES}
    assert nations == {"uk", "ussr", "us", "wg"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_forces_are_legal_and_round_trip(path: Path) -> None:
    force = load_force(path)
    summary = check_force(force, source=path)
    assert force.points is not None and summary.points <= force.points
    assert sum(u.commander for u in summary.units) == 1
    assert parse_force(force_to_toml(force)) == force
    assert force_points(force) == summary.points
    lines = check_force_file(path)
    assert lines[-1].startswith(f"{len(summary.units)} units, {summary.points} of 500 points")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_forces_deploy_into_the_meeting_engagement(path: Path, meeting: Scenario) -> None:
    force = load_force(path)
    side = "pact" if force.nation == "ussr" else "nato"
    spec = deploy_side(force, side, meeting.spec.sides[side], meeting.table)
    units = spec["units"]
    _assert_good_deployment(units, meeting.table, side)
    # the scenario accepts the deployed side as its own
    data = meeting.spec.model_dump()
    data["sides"][side] = spec
    Scenario(ScenarioSpec.model_validate(data), meeting.house, meeting.source)


def _assert_good_deployment(units: list[dict[str, object]], table: Table, side: str) -> None:
    carriers = {u["id"]: u for u in units}
    for rider in [u for u in units if u.get("embarked_in")]:  # passengers start in their APC
        assert rider["at"] == carriers[rider["embarked_in"]]["at"]
    units = [u for u in units if not u.get("embarked_in")]
    points = [tuple(u["at"]) for u in units]  # type: ignore[call-overload]
    for i, (x, y) in enumerate(points):
        assert table.inside(x, y, 1.0)
        depth = y if side == "nato" else table.height - y
        assert 0 < depth <= 12, (units[i], depth)
        for other in points[i + 1 :]:
            assert math.dist((x, y), other) >= 2.5 - 1e-9
    assert sum(bool(u["commander"]) for u in units) <= 1
    assert len({u["id"] for u in units}) == len(units)


def test_a_game_plays_with_both_sides_fielding_force_files(
    meeting: Scenario, tmp_path: Path
) -> None:
    data = yaml.safe_load(scenario_path("meeting-engagement").read_text(encoding="utf-8"))
    for side, name in (("nato", "us-armored-team"), ("pact", "ussr-tank-company")):
        force = load_force(FORCES / f"{name}.toml")
        data["sides"][side] = deploy_side(force, side, meeting.spec.sides[side], meeting.table)
    path = tmp_path / "forces-meeting.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    game = umpire.new_game(f"sevendays/{path}", seed=3)
    assert {u.split("-", 1)[1] for u in game.state.units if u.startswith("nato-")} >= {"m1ip-1"}
    for _ in range(40):
        if game.is_over:
            break
        game.apply(game.legal_actions()[0])


# --- reading and writing ---------------------------------------------------------------------


def test_toml_writer_escapes_what_toml_needs() -> None:
    force = Force(
        nation="uk",
        name='Quote " back\\slash\nnew line\ttab \x01 and Ünïcode',
        source="x",
        units=[ForceEntry(profile="chieftain-mk9", ids=["alpha", "bravo"], commander=True)],
    )
    assert parse_force(force_to_toml(force)) == force


def test_embarked_in_lists_round_trip() -> None:
    force = Force(
        nation="uk",
        units=[
            ForceEntry(profile="fv432", ids=["apc-a", "apc-b"]),
            ForceEntry(profile="infantry", count=2, embarked_in=["apc-b", "apc-a"]),
        ],
    )
    text = force_to_toml(force)
    assert 'embarked_in = ["apc-b", "apc-a"]' in text
    assert parse_force(text) == force
    summary = check_force(force)
    assert summary.unit("infantry-1").embarked_in == "apc-b"


def test_write_and_load(tmp_path: Path) -> None:
    force = _force(chieftain_mk9=2)
    path = write_force(force, tmp_path / "f.toml")
    assert load_force(path) == force


def test_bad_toml_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('nation = "uk"\n[[units]\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"broken\.toml: not valid TOML") as info:
        load_force(path)
    assert "\n" not in str(info.value)


def test_schema_errors_name_the_field(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    path.write_text(
        'nation = "uk"\n[[units]]\nprofile = "fv432"\ncount = 2\nids = ["a"]\n', encoding="utf-8"
    )
    with pytest.raises(DataFileError, match=r"f\.toml: field units\.0: .*count is 2 but 1 ids"):
        load_force(path)
    path.write_text('nation = "uk"\ncolour = "red"\n[[units]]\nprofile = "fv432"\n')
    with pytest.raises(DataFileError, match=r"field colour"):
        load_force(path)


def test_missing_and_unknown_files(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="file not found"):
        load_force(tmp_path / "nope.toml")
    with pytest.raises(DataFileError, match=r"unknown force file type '\.json'"):
        load_force(tmp_path / "force.json")


# --- legality -----------------------------------------------------------------------------------


def test_unknown_profile_names_the_field_and_suggests() -> None:
    force = Force(nation="uk", units=[ForceEntry(profile="fox"), ForceEntry(profile="chieftan")])
    message = _error(force)
    assert "field units.1.profile" in message
    assert "'chieftain-mk9'" in message


def test_unknown_nation_names_the_field() -> None:
    message = _error(_force(nation="france", fox=1))
    assert "field nation" in message and "known:" in message


def test_apc_without_a_passenger_is_refused() -> None:
    message = _error(_force(fv432=1, fox=1))
    assert "field units.0" in message and "FV432" in message and "passenger" in message


def test_over_points_says_by_how_much() -> None:
    message = _error(_force(points=100, chieftain_mk9=2))
    assert "field points" in message and "126 points" in message and "26 over" in message
    # an explicit limit overrides the file's
    assert _error(_force(points=None, chieftain_mk9=2), 120).endswith("over the limit of 120")
    check_force(_force(points=100, chieftain_mk9=2), 200)


def test_all_problems_are_listed_and_the_first_raised_with_a_count() -> None:
    force = _force(points=10, fv432=1, chieftain_mk9=1)
    problems = force_problems(force)
    assert len(problems) == 2
    assert _error(force).endswith("(+1 more)")


def test_one_commander_only() -> None:
    force = Force(
        nation="uk",
        units=[
            ForceEntry(profile="fox", commander=True),
            ForceEntry(profile="scimitar", commander=True),
        ],
    )
    assert "units.1.commander" in _error(force)


def test_passengers_must_be_foot_units_in_an_apc_with_room() -> None:
    base = [ForceEntry(profile="fv432")]
    vehicle = Force(nation="uk", units=[*base, ForceEntry(profile="fox", embarked_in="fv432")])
    assert "cannot ride" in _error(vehicle)
    not_apc = Force(
        nation="uk",
        units=[ForceEntry(profile="fox"), ForceEntry(profile="infantry", embarked_in="fox")],
    )
    assert "is not an APC" in _error(not_apc)
    full = Force(
        nation="uk", units=[*base, ForceEntry(profile="infantry", count=2, embarked_in="fv432")]
    )
    assert "is full" in _error(full)
    nowhere = Force(nation="uk", units=[*base, ForceEntry(profile="infantry", embarked_in="fv433")])
    message = _error(nowhere)
    assert "units.1.embarked_in" in message and "'fv432'" in message


def test_duplicate_unit_ids_are_refused() -> None:
    force = Force(
        nation="uk",
        units=[ForceEntry(profile="fox", ids=["a"]), ForceEntry(profile="scimitar", ids=["a"])],
    )
    assert "used twice" in _error(force)


def test_generated_ids_skip_explicit_ones() -> None:
    force = Force(
        nation="uk",
        units=[ForceEntry(profile="fox", ids=["fox-1"]), ForceEntry(profile="fox", count=2)],
    )
    assert [u.id for u in check_force(force).units] == ["fox-1", "fox-2", "fox-3"]


def test_transport_capacity_by_trait() -> None:
    def line(uid: str, kind: str, traits: list[str]) -> UnitProfile:
        return UnitProfile.model_validate(
            {"id": uid, "name": uid, "type": kind, "traits": traits, "points": 1, "bp": 0}
        )

    infantry, team = line("i", "infantry", []), line("t", "support", [])
    plus, minus = line("p", "light", ["apc_plus"]), line("m", "light", ["apc_minus"])
    assert (capacity(plus), capacity(minus), capacity(infantry)) == (2, 1, 0)
    assert can_carry(plus, infantry) and can_carry(minus, team)
    assert not can_carry(minus, infantry) and not can_carry(infantry, team)


def test_pairing_fills_empty_apcs_and_splits_entries() -> None:
    force = Force(
        nation="ussr",
        units=[
            ForceEntry(profile="bmp2", count=2),
            ForceEntry(profile="btr60"),
            ForceEntry(profile="motor-rifles", count=4, commander=True),
        ],
    )
    paired, notes = pair_passengers(force)
    summary = check_force(paired)
    riders = {u.id: u.embarked_in for u in summary.units if u.profile.is_foot}
    assert riders == {
        "motor-rifles-1": "bmp2-1",
        "motor-rifles-2": "bmp2-2",
        "motor-rifles-3": "btr60-1",
        "motor-rifles-4": None,
    }
    assert summary.unit("motor-rifles-1").commander
    assert len(notes) == 2
    assert pair_passengers(paired) == (paired, [])


# --- deployment ---------------------------------------------------------------------------------


def test_deployment_avoids_terrain_and_keeps_passengers_by_their_apc(meeting: Scenario) -> None:
    force = load_force(FORCES / "uk-armoured-squadron.toml")
    units = deploy_force(force, meeting.spec.sides["nato"], meeting.table)
    at = {u["id"]: tuple(u["at"]) for u in units}
    assert math.dist(at["infantry-1"], at["fv432-1"]) <= 4.0
    for unit in units:
        assert not meeting.table.areas_at(*unit["at"]), unit


def test_deployment_edge_follows_the_scenario_side(meeting: Scenario) -> None:
    assert home_edge(meeting.spec.sides["nato"], meeting.table) == "south"
    assert home_edge(meeting.spec.sides["pact"], meeting.table) == "north"
    west = SideSpec(nation="uk", units=[{"id": "a", "profile": "fox", "at": (3, 20)}])  # type: ignore[list-item]
    table = Table(60, 40)
    assert home_edge(west, table) == "west"
    units = deploy_force(_force(fox=3, scimitar=2), west, table)
    assert all(u["at"][0] <= 12 for u in units)
    assert len({u["at"][1] for u in units}) == 5


def test_a_force_without_commander_gets_its_dearest_non_apc(meeting: Scenario) -> None:
    force = Force(
        nation="uk",
        units=[
            ForceEntry(profile="fv432"),
            ForceEntry(profile="infantry", embarked_in="fv432"),
            ForceEntry(profile="fox"),
        ],
    )
    units = deploy_force(force, meeting.spec.sides["nato"], meeting.table)
    assert [u["id"] for u in units if u["commander"]] == ["infantry-1"]


# rules: sevendays.air.helicopter
def test_a_force_with_a_helicopter_deploys_and_plays(meeting: Scenario) -> None:
    specs = deploy_force(_force(lynx=1, chieftain_mk9=2), meeting.spec.sides["nato"], meeting.table)
    assert [s["profile"] for s in specs].count("lynx") == 1
    game = new_game(
        "sevendays/meeting-engagement",
        seed=1,
        options={
            "forces": {
                "nato": {
                    "nation": "uk",
                    "facing": meeting.spec.sides["nato"].facing,
                    "units": specs,
                }
            }
        },
    )
    assert any(u.profile == "uk/lynx" and u.alive for u in game.state.units.values())


def test_deploy_side_checks_the_nation_fights_for_that_side(meeting: Scenario) -> None:
    with pytest.raises(DataFileError, match="fights for pact, not nato"):
        deploy_side(_force("ussr", t64b=1), "nato", meeting.spec.sides["nato"], meeting.table)


def test_deployment_reports_a_full_zone() -> None:
    side = SideSpec(nation="uk", units=[{"id": "a", "profile": "fox", "at": (5, 2)}])  # type: ignore[list-item]
    with pytest.raises(DataFileError, match="no room to deploy"):
        deploy_force(_force(points=None, fox=30), side, Table(10, 10))


# --- the interactive builder ----------------------------------------------------------------


class Dialogue:
    """Scripted answers for the builder, and everything it said."""

    def __init__(self, *answers: str) -> None:
        self.answers: Iterator[str] = iter(answers)
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        try:
            return next(self.answers)
        except StopIteration:
            raise EOFError from None

    def say(self, line: str) -> None:
        self.said.append(line)

    def text(self) -> str:
        return "\n".join(self.said)


def test_builder_buys_an_apc_with_its_passenger_and_finishes() -> None:
    talk = Dialogue("add chieftain-mk9 3", "add fv432 2", "infantry", "commander 1", "done")
    force = build_force("uk", 500, talk.ask, talk.say)
    assert force is not None
    summary = check_force(force)
    assert summary.points == 3 * 63 + 2 * 7 + 2 * 33
    assert {u.embarked_in for u in summary.units if u.profile.is_foot} == {"fv432-1", "fv432-2"}
    assert summary.units[0].commander
    assert "is an APC" in talk.text()
    assert "force complete" in talk.text()


def test_builder_refuses_what_breaks_the_points_or_the_rules() -> None:
    talk = Dialogue(
        "add challenger-1 2",  # 180 > 150
        "add fv432",
        "fox",  # a vehicle cannot ride
        "add infantry in fv432",  # no FV432 bought yet
        "add chieftan",
        "add 2",  # by number: Challenger 1
        "frobnicate",
        "quit",
    )
    assert build_force("uk", 150, talk.ask, talk.say) is None
    text = talk.text()
    assert "only 150 are left" in text
    assert "Fox cannot ride in FV432" in text
    assert "buy the APC first" in text
    assert "did you mean 'chieftain-mk9'" in text
    assert "added 1 x Challenger 1" in text
    assert "unknown command 'frobnicate'" in text


def test_builder_done_lists_problems_and_remove_frees_the_riders() -> None:
    talk = Dialogue(
        "add fv432", "infantry", "show", "remove 2", "done", "remove 1", "add fox", "done"
    )
    force = build_force("uk", 100, talk.ask, talk.say)
    assert force is not None
    assert [e.profile for e in force.units] == ["fox"]
    text = talk.text()
    assert "not finished yet" in text and "has no passenger" in text


def test_builder_riders_join_apcs_already_bought() -> None:
    talk = Dialogue("add bmp2 2", "motor-rifles", "add saxhorn 1 in bmp2", "done")
    force = build_force("ussr", 500, talk.ask, talk.say)
    assert force is not None
    assert [e.profile for e in force.units] == ["bmp2", "motor-rifles"]
    assert "have room for 0 more" in talk.text()


def test_builder_end_of_input_is_quit() -> None:
    talk = Dialogue()
    assert build_force("wg", 300, talk.ask, talk.say) is None
    assert any("Leopard 2A4" in line for line in talk.said)


def test_new_force_writes_the_file(tmp_path: Path) -> None:
    talk = Dialogue("name Test group", "add leopard-2a4", "add luchs 2", "done")
    out = new_force("wg", 200, tmp_path / "wg.toml", talk.ask, talk.say)
    assert out == tmp_path / "wg.toml"
    force = load_force(out)
    assert force.name == "Test group" and force.points == 200
    assert force_points(force) == 90 + 2 * 18
    talk = Dialogue("quit")
    assert new_force("wg", 200, tmp_path / "none.toml", talk.ask, talk.say) is None
    assert not (tmp_path / "none.toml").exists()


def test_orbat_table_marks_apcs_and_shows_helicopters() -> None:
    from umpire.rulesets.sevendays.scenario import load_nation

    rows = orbat_table(load_nation("us"))
    assert any("m113 " in r and "APC, carries 1" in r for r in rows)
    assert any("ah64-apache" in r and "helicopter" in r for r in rows)


def test_builder_removing_apcs_unseats_only_the_excess_riders_last_bought_first() -> None:
    talk = Dialogue("add fv432 2", "infantry", "add fv432", "milan", "remove 1", "done")
    force = build_force("uk", 500, talk.ask, talk.say)
    assert force is not None
    summary = check_force(force)
    walking = [u.profile.id for u in summary.units if u.profile.is_foot and not u.embarked_in]
    riding = [u.profile.id for u in summary.units if u.embarked_in]
    assert sorted(walking) == ["infantry", "milan"] and riding == ["infantry"]
    assert "1 x Milan now walk" in talk.text() and "1 x Infantry now walk" in talk.text()
