"""House-rule files are validated as a whole (issue 16: "House-rule overrides are validated as a
whole (tables cover every die face, fractions are positive and at most 1, turn limits are
bounded)"): every value a user can set ends, when wrong, in a one-line error naming the file
and the field, before any game starts.

The dice tables are read as the rules read them: Seven Days' damage table (rule
``sevendays.hit.damage``, house) and the published AA hit-effect table (p21: d6, +2 for a
vehicle SAM) give one result per score; the Portable Wargame's exhaustion point
(``portable.exhaustion.point``, published: a fraction of the strength points lost) is a
fraction in (0, 1]; its gas drift (``portable.gas.drift``, published) gives each d6 face one
result.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umpire.core.errors import DataFileError
from umpire.core.ruleset import capability, get_ruleset

ROWS_GAP = [
    {"max": 3, "result": "damaged", "markers": 1},
    {"max": 5, "result": "destroyed", "markers": 0},
]
ROWS_OVERLAP = [
    {"max": 3, "result": "damaged", "markers": 1},
    {"max": 3, "result": "destroyed", "markers": 0},
    {"max": 6, "result": "destroyed", "markers": 0},
]
EFFECT_GAP = [
    {"max": 2, "result": "evades"},
    {"max": 4, "result": "damaged"},
    {"max": 7, "result": "shot_down"},
]

# (ruleset, YAML text of the override, the field the error must name, words it must hold)
BAD: list[tuple[str, str, str, str]] = [
    # Seven Days: tables cover every face, once, in rising order
    ("sevendays", yaml.safe_dump({"damage_table": ROWS_GAP}), "damage_table", "gap"),
    ("sevendays", yaml.safe_dump({"damage_table": ROWS_OVERLAP}), "damage_table", "overlaps"),
    ("sevendays", "damage_table: []\n", "damage_table", "at least one row"),
    (
        "sevendays",
        yaml.safe_dump({"damage_table": [{"max": 7, "result": "destroyed", "markers": 0}]}),
        "damage_table.0.max",
        "less than or equal to 6",
    ),
    ("sevendays", yaml.safe_dump({"air": {"effect": EFFECT_GAP}}), "air.effect", "gap"),
    ("sevendays", "air: {sam_effect_bonus: 3}\n", "air.effect", "a score of 9 has no result"),
    # game length is bounded: no game runs to the action cap
    ("sevendays", "random_length: {max_turns: 1000000}\n", "random_length.max_turns", "beyond"),
    ("sevendays", "random_length: {max_turns: 51}\n", "random_length.max_turns", "equal to 50"),
    ("sevendays", "random_length: {max_turns: 0}\n", "random_length.max_turns", "greater"),
    ("sevendays", "random_length: {ends_on: 0}\n", "random_length.ends_on", "greater"),
    # negative numbers, non-finite numbers, absurd numbers
    ("sevendays", "proximity: -1\n", "proximity", "greater than or equal to 0"),
    ("sevendays", "proximity: .nan\n", "proximity", "not a finite number"),
    ("sevendays", "smoke_radius: .inf\n", "smoke_radius", "not a finite number"),
    ("sevendays", "movement: {road: {mbt: -20}}\n", "movement.road.mbt", "greater than"),
    ("sevendays", "footprint: {foot: 0}\n", "footprint.foot", "greater than 0"),
    ("sevendays", "bail_out_markers: -2\n", "bail_out_markers", "greater than or equal to 0"),
    ("sevendays", "objective_radius: " + "9" * 400 + "\n", "objective_radius", "beyond"),
    ("sevendays", "terrain_tests: {foot: {rough: 9}}\n", "terrain_tests.foot.rough", "7"),
    # wrong types (strict: true is not 1, "yes" is not true, "6" is not 6)
    ("sevendays", "obscured_rays: true\n", "obscured_rays", "valid integer"),
    ("sevendays", "reaction_tokens_and_markers: 'yes'\n", "reaction_tokens_and_markers", "bool"),
    ("sevendays", "platoon: {size: '6'}\n", "platoon.size", "valid integer"),
    ("sevendays", "movement: {normal: {infantry: fast}}\n", "movement.normal.infantry", "number"),
    ("sevendays", "damage_table: {max: 6}\n", "damage_table", "valid list"),
    ("sevendays", "random_length: 10\n", "random_length", "dictionary"),
    # unknown keys (a typo is not silently ignored)
    ("sevendays", "movement: {normal: {infntry: 3}}\n", "movement.normal.infntry", "infantry"),
    ("sevendays", "proximty: 2\n", "proximty", "Extra inputs"),
    ("sevendays", "battlegroup_check: {remove_two: 3}\n", "battlegroup_check.remove_two", "below"),
    # Portable: the exhaustion fraction lies in (0, 1]
    ("portable", "exhaustion_fraction: [1, 0]\n", "exhaustion_fraction", "(0, 1]"),
    ("portable", "exhaustion_fraction: [0, 3]\n", "exhaustion_fraction", "(0, 1]"),
    ("portable", "exhaustion_fraction: [4, 3]\n", "exhaustion_fraction", "(0, 1]"),
    ("portable", "exhaustion_fraction: [-1, -3]\n", "exhaustion_fraction", "(0, 1]"),
    ("portable", "exhaustion_fraction: [1, 3, 5]\n", "exhaustion_fraction", "at most 2"),
    ("portable", "exhaustion_fraction: one third\n", "exhaustion_fraction", "tuple"),
    ("portable", "exhaustion_fraction: [1.5, 3]\n", "exhaustion_fraction.0", "integer"),
    # d6 tables: every face once
    ("portable", "gas_drift: {stay: [5]}\n", "gas_drift", "face 6 has no result"),
    ("portable", "gas_drift: {stay: [5, 6, 1]}\n", "gas_drift", "more than once"),
    ("portable", "gas_drift: {stay: [5, 6, 7]}\n", "gas_drift", "not a face"),
    ("portable", "artillery_landing: {behind: [2]}\n", "artillery_landing", "both in_front"),
    ("portable", "artillery_landing: {on_target: 3}\n", "artillery_landing", "already hits"),
    ("portable", "hit_loses_sp: {elite: 7}\n", "hit_loses_sp.elite", "6"),
    # counts, turn spans and types
    ("portable", "max_stack: -1\n", "max_stack", "greater than or equal to 1"),
    ("portable", "lay_minefield_turns: 0\n", "lay_minefield_turns", "greater"),
    ("portable", "gas_cloud_turns: 500\n", "gas_cloud_turns", "less than or equal to 50"),
    ("portable", "fire_modifiers: {cover: 1.0e+9}\n", "fire_modifiers.cover", "beyond"),
    ("portable", "fire_and_close_combat: 'yes'\n", "fire_and_close_combat", "bool"),
    ("portable", "optional: {gas: 1}\n", "optional.gas", "bool"),
    ("portable", "activation_units_per_die: 2.5\n", "activation_units_per_die", "integer"),
    ("portable", "initiative_ties: coin\n", "initiative_ties", "reroll"),
    # 7 Days to the Rhine and The Book and The Gun: tables as a whole, and bounded numbers
    ("rhine", "air: {day_dice: 1000000000}\n", "air.day_dice", "beyond"),
    ("rhine", "tec: {road_cost: .nan}\n", "tec.road_cost", "not a finite number"),
    ("rhine", "tec: {road_cost: -1}\n", "tec.road_cost", "greater than 0"),
    ("rhine", "crt: {high: 12}\n", "crt.rows", "no row for modified roll 12"),
    ("rhine", "attrition: {heli_loss_on: 9}\n", "attrition.heli_loss_on", "6"),
    ("rhine", 'crt: {"\\n": 0}\n', "crt.'\\n'", "Extra inputs"),  # a key holding a newline
    ("bookgun", "search: {need: 0}\n", "search.need", "greater"),
    ("bookgun", "movement: {minimum_move: -.inf}\n", "movement.minimum_move", "finite"),
    ("bookgun", "building: {room_capacity: 100000}\n", "building.room_capacity", "beyond"),
    ("bookgun", "nonsense: {a: 1}\n", "nonsense", "not a section"),
]


def _load(ruleset: str, path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = capability(get_ruleset(ruleset), "house_rules").load(path)
    return loaded


@pytest.mark.parametrize(
    ("ruleset", "text", "field", "words"),
    BAD,
    ids=[f"{r}-{f}-{i}" for i, (r, _, f, _) in enumerate(BAD)],
)
def test_bad_house_rules_name_file_and_field(
    tmp_path: Path, ruleset: str, text: str, field: str, words: str
) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        _load(ruleset, path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: field {field}"), message
    assert words in message, message


GOOD = [
    (
        "sevendays",
        yaml.safe_dump({"damage_table": [{"max": 6, "result": "destroyed", "markers": 0}]}),
    ),
    ("sevendays", "random_length: {ends_on: 5, max_turns: 50}\n"),
    ("sevendays", "air: {sam_effect_bonus: 3, effect: [{max: 9, result: shot_down}]}\n"),
    ("sevendays", "movement: {normal: {infantry: 4.5}}\nproximity: 0\n"),
    ("portable", "exhaustion_fraction: [1, 1]\n"),
    ("portable", "exhaustion_fraction: [1, 2]\n"),
    ("portable", "gas_drift: {stay: [6], in_front: [1, 2, 3], behind: [4, 5]}\n"),
    ("portable", "artillery_landing: {on_target: 6, in_front: [1, 2, 3], behind: [4, 5]}\n"),
    ("rhine", "air: {day_dice: 4}\n"),
    ("bookgun", "search: {need: 5}\n"),
]


@pytest.mark.parametrize(
    ("ruleset", "text"), GOOD, ids=[f"{r}-{i}" for i, (r, _) in enumerate(GOOD)]
)
def test_sound_house_rules_are_accepted(tmp_path: Path, ruleset: str, text: str) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    assert _load(ruleset, path) == yaml.safe_load(text)


def test_the_portable_exhaustion_point_with_a_sound_fraction() -> None:
    """portable.exhaustion.point: a third of the strength points, rounded up; [1, 1] (every
    point) is the most a fraction may say."""
    from umpire.rulesets.portable.config import house_rules

    assert house_rules({"exhaustion_fraction": [1, 1]}).exhaustion_fraction == (1, 1)
    assert house_rules().exhaustion_fraction == (1, 3)


# --- every value a user can set, fuzzed --------------------------------------------------------

values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.lists(st.integers(min_value=-10, max_value=20), max_size=7),
    st.dictionaries(st.text(max_size=6), st.integers(min_value=-10, max_value=20), max_size=3),
)


def _paths(data: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every key path of a house-rules mapping (the values a user can set)."""
    out: list[tuple[str, ...]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            out.append((*prefix, str(key)))
            out += _paths(value, (*prefix, str(key)))
    return out


def _defaults(ruleset: str) -> dict[str, Any]:
    if ruleset == "sevendays":
        from umpire.rulesets.sevendays.config import _default_house_data

        return _default_house_data()
    if ruleset == "portable":
        from umpire.rulesets.portable.config import _default_house_data as portable_defaults

        return portable_defaults()
    if ruleset == "rhine":
        from umpire.rulesets.rhine.model import _raw_tables

        return _raw_tables()
    from umpire.rulesets.bookgun.tables import _base_raw

    return _base_raw()


def _nest(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out: Any = value
    for key in reversed(path):
        out = {key: out}
    assert isinstance(out, dict)
    return out


@pytest.mark.parametrize("ruleset", ["sevendays", "portable", "rhine", "bookgun"])
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_value_anywhere_is_accepted_or_one_line(
    tmp_path: Path, ruleset: str, data: st.DataObject
) -> None:
    """Set any key path of the defaults to any value: the file loads, or the error is one line
    naming the file and a field; never a traceback."""
    path_choices = _paths(_defaults(ruleset))
    key = data.draw(st.sampled_from(path_choices))
    value = data.draw(values)
    path = tmp_path / "house.yaml"
    path.write_text(yaml.safe_dump(_nest(key, value)), encoding="utf-8")
    try:
        _load(ruleset, path)
    except DataFileError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith(f"{path}: field "), message


def test_a_gap_in_the_damage_table_stops_simulate_before_any_game(tmp_path: Path) -> None:
    """The issue's case: a gap once raised StopIteration inside a simulate worker and lost every
    result. Now the file is refused up front: one line, exit 2."""
    house = tmp_path / "gap.yaml"
    house.write_text(yaml.safe_dump({"damage_table": ROWS_GAP}), encoding="utf-8")
    out = tmp_path / "out"
    for args in (
        ["simulate", "sevendays/meeting-engagement", "--games", "2", "--out", str(out)],
        ["battle", "sevendays/meeting-engagement"],
    ):
        run = subprocess.run(
            [sys.executable, "-m", "umpire", *args, "--house-rules", str(house)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 2, run.stderr
        assert "Traceback" not in run.stderr
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "field damage_table" in lines[0] and "gap" in lines[0]
    assert not out.exists()


def test_a_million_turn_game_is_refused_before_it_starts(tmp_path: Path) -> None:
    house = tmp_path / "long.yaml"
    house.write_text("random_length: {max_turns: 1000000}\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "umpire", "battle", "sevendays/meeting-engagement"]
        + ["--house-rules", str(house)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "field random_length.max_turns" in run.stderr


def test_the_longest_game_the_house_rules_allow_ends_far_below_the_action_cap() -> None:
    """sevendays.scenario.random_length: the operation ends on a d6 of ``ends_on`` or more, and
    always after ``max_turns``. With the longest allowed (50) and a die that never ends it (7),
    two sides that only pass still finish the game at turn 50: finished, not cut by the cap."""
    from umpire.core.game import new_game
    from umpire.rulesets.sevendays.config import MAX_TURNS

    house = {"random_length": {"ends_on": 7, "max_turns": MAX_TURNS}}
    game = new_game("sevendays/capture", seed=3, options={"house_rules": house})
    quiet = {"pass", "no_react", "no_response", "done", "hold"}
    while game.to_act is not None and len(game.record.actions) < 5_000:
        legal = game.legal_actions()
        waits = [a for a in legal if a.kind in quiet or (a.kind == "swap" and not a.option)]
        game.apply((waits or legal)[0])
    assert game.outcome is not None and game.outcome.details["turn"] == MAX_TURNS
    assert len(game.record.actions) < game.ruleset.meta.max_actions // 100
