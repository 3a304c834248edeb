"""Issue 19: the built-in data a cold ``umpire odds`` reads are plain frozen dataclasses built
from the packaged files without pydantic (:func:`umpire.core.plain.build`), and the same
dataclasses are the schema of a user's file: pydantic validates them
(``TypeAdapter(TheDataclass)``, :func:`umpire.core.plain.validate`) with the bounds their
fields carry. Here every packaged file validates that way, and the plain build of the raw file
equals, value and type, the validated one (so the hand-built data cannot differ from what a
user's file gives); a user's bad file is a one-line error naming the file and the field."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Annotated, Any

import pytest
import yaml

from umpire.core.datafiles import load_yaml
from umpire.core.plain import Check, Closed, build, checked, validate


def _typed(value: Any) -> Any:
    """``value`` with the type of every part spelled out (a set's members in sorted order: its
    iteration order is the string hash's, which changes from process to process)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return (type(value).__name__, {f.name: _typed(getattr(value, f.name)) for f in fields})
    if isinstance(value, dict):
        return ("dict", {k: _typed(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_typed(v) for v in value])
    if isinstance(value, frozenset | set):
        return (type(value).__name__, sorted(repr(_typed(v)) for v in value))
    return (type(value).__name__, repr(value))


def _same(a: Any, b: Any) -> None:
    assert a == b
    assert _typed(a) == _typed(b)  # ints stay ints, tuples stay tuples, enums stay enums


def _validates_and_builds_the_same(path: Path, cls: type) -> None:
    raw = load_yaml(path)
    validated: Any = checked(cls, raw)  # raises if the packaged file breaks the bounds
    assert type(validated) is cls
    _same(build(cls, raw), validated)


def _closed_frozen(cls: type, seen: set[type] | None = None) -> None:
    """``cls`` and every dataclass its fields hold are frozen and refuse unknown keys."""
    import typing

    seen = set() if seen is None else seen
    if cls in seen:
        return
    seen.add(cls)
    assert dataclasses.is_dataclass(cls), cls
    assert cls.__dataclass_params__.frozen, cls.__name__  # type: ignore[attr-defined]
    assert getattr(cls, "__pydantic_config__", {}).get("extra") == "forbid", cls.__name__
    for hint in typing.get_type_hints(cls).values():
        stack = [hint]
        while stack:
            kind = stack.pop()
            if isinstance(kind, type) and dataclasses.is_dataclass(kind):
                _closed_frozen(kind, seen)
            stack.extend(typing.get_args(kind))


# -- core.plain ----------------------------------------------------------------------------------
def _even(value: int, data: Any) -> int:
    if value % 2:
        raise ValueError(f"{value} is odd (low is {data.get('low')})")
    return value


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Sample(Closed):
    low: Annotated[int, Check(ge=1, strict=True)]
    high: Annotated[int, Check(before=lambda v: int(v) if isinstance(v, str) else v, after=_even)]
    names: Annotated[list[str], Check(min_length=1)] = dataclasses.field(default_factory=list)


def test_check_bounds_are_read_by_pydantic_only() -> None:
    from umpire.core.errors import DataFileError

    assert build(_Sample, {"low": 0, "high": 3}) == _Sample(low=0, high=3)  # the plain build
    assert checked(_Sample, {"low": 2, "high": "4", "names": ["a"]}) == _Sample(
        low=2, high=4, names=["a"]
    )
    for data, message in [
        ({"low": 0, "high": 2, "names": ["a"]}, "f: field low: Input should be greater than"),
        ({"low": True, "high": 2, "names": ["a"]}, "f: field low: Input should be a valid int"),
        ({"low": 1, "high": "3", "names": ["a"]}, "f: field high: 3 is odd (low is 1)"),
        ({"low": 1, "high": 2, "names": []}, "f: field names: List should have at least 1 item"),
        ({"low": 1, "high": 2, "names": ["a"], "x": 1}, "f: field x: Extra inputs are not"),
    ]:
        with pytest.raises(DataFileError, match=f"^{re.escape(message)}"):
            validate(_Sample, data, "f")


# -- rhine ---------------------------------------------------------------------------------------
def _rhine_files() -> list[tuple[Path, type]]:
    from umpire.rulesets.rhine.model import DATA, ScenarioSpec, Tables

    scenarios = sorted((DATA / "scenarios").glob("*.yaml"))
    return [(DATA / "tables.yaml", Tables), *((p, ScenarioSpec) for p in scenarios)]


@pytest.mark.parametrize(("path", "cls"), _rhine_files(), ids=[p.name for p, _ in _rhine_files()])
def test_rhine_packaged_file_validates_and_builds_the_same(path: Path, cls: type) -> None:
    _validates_and_builds_the_same(path, cls)


def test_rhine_loaders_give_the_validated_packaged_files() -> None:
    from umpire.rulesets.rhine import model

    assert len(_rhine_files()) >= 3  # the tables and at least two scenarios
    _same(model.load_tables(), checked(model.Tables, load_yaml(model.DATA / "tables.yaml")))
    path = model.scenario_path("autobahn-gap")
    _same(model.load_spec(path), checked(model.ScenarioSpec, load_yaml(path)))


def test_rhine_classes_are_closed_frozen_dataclasses() -> None:
    from umpire.rulesets.rhine import model

    _closed_frozen(model.Tables)
    _closed_frozen(model.ScenarioSpec)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (("map", "width", 0), "map.width", "greater than or equal to 1"),  # spec: ge=1
        (("map", "height", 100), "map.height", "less than or equal to 99"),
        (("victory", "per_nato_losses", 0), "victory.per_nato_losses", "greater than or equal"),
        (("map", "colour", "red"), "map.colour", "Extra inputs are not permitted"),
        (("map", "layout", "odd-r"), "map.layout", "'even-q' or 'odd-q'"),
    ],
)
def test_rhine_user_scenario_is_checked_by_the_dataclass_bounds(
    tmp_path: Path, change: tuple[str, str, Any], field: str, words: str
) -> None:
    from umpire.core.errors import DataFileError
    from umpire.rulesets.rhine import model

    raw = load_yaml(model.scenario_path("autobahn-gap"))
    section, key, value = change
    raw[section][key] = value
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(DataFileError, match=rf"^{re.escape(str(bad))}: field {field}: .*{words}"):
        model.load_spec(bad)


def test_rhine_user_scenario_turn_limit(tmp_path: Path) -> None:
    from umpire.core.errors import DataFileError
    from umpire.rulesets.rhine import model

    raw = load_yaml(model.scenario_path("autobahn-gap"))
    raw["turns"] = [{"label": f"t{i}", "night": False} for i in range(51)]  # max_length=50
    bad = tmp_path / "long.yaml"
    bad.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"long\.yaml: field turns: .*at most 50"):
        model.load_spec(bad)


# -- portable ------------------------------------------------------------------------------------
def test_portable_packaged_house_rules_validate_and_build_the_same() -> None:
    from umpire.rulesets.portable import config

    path = config.DATA / "house_rules.yaml"
    _validates_and_builds_the_same(path, config.HouseRules)
    _same(config.house_rules(), checked(config.HouseRules, load_yaml(path)))
    _closed_frozen(config.HouseRules)


def test_portable_packaged_units_validate_and_build_the_same() -> None:
    from umpire.rulesets.portable import config, units

    path = config.DATA / "units.yaml"
    _validates_and_builds_the_same(path, units.UnitTypes)
    _same(units.unit_types(), checked(units.UnitTypes, load_yaml(path)))
    _closed_frozen(units.UnitTypes)


def test_portable_override_is_checked_by_the_dataclass_and_read_as_plain_rules() -> None:
    from umpire.core.errors import DataFileError
    from umpire.rulesets.portable import config

    with pytest.raises(DataFileError, match=r"^mine: field fire_hit: .*valid integer"):
        config.house_rules({"fire_hit": True}, "mine")  # strict: true is not 1
    with pytest.raises(DataFileError, match=r"^mine: field fire_hit: .*less than or equal to 12"):
        config.house_rules({"fire_hit": 13}, "mine")
    with pytest.raises(DataFileError, match=r"^mine: field gas_drift: face 6 has no result"):
        config.house_rules({"gas_drift": {"stay": [5]}}, "mine")  # __post_init__, as a whole
    changed = config.house_rules({"fire_hit": 5, "artillery_landing": {"on_target": 6}})
    assert isinstance(changed, config.HouseRules)
    assert changed.fire_hit == 5 and changed.artillery_landing.on_target == 6
    assert changed.artillery_landing.in_front == config.house_rules().artillery_landing.in_front


# -- sevendays -----------------------------------------------------------------------------------
def test_sevendays_packaged_house_rules_validate_and_build_the_same() -> None:
    from umpire.rulesets.sevendays import config

    path = config.DATA / "house_rules.yaml"
    _validates_and_builds_the_same(path, config.HouseRules)
    _same(config.default_house_rules(), checked(config.HouseRules, load_yaml(path)))
    _same(config.house_rules(), config.default_house_rules())
    _closed_frozen(config.HouseRules)


def _orbat_files() -> list[Path]:
    from umpire.rulesets.sevendays.scenario import ORBATS

    return sorted(ORBATS.glob("*.yaml"))


@pytest.mark.parametrize("path", _orbat_files(), ids=lambda p: p.stem)
def test_sevendays_packaged_orbat_validates_and_builds_the_same(path: Path) -> None:
    from umpire.rulesets.sevendays import orbat
    from umpire.rulesets.sevendays.scenario import load_nation

    _validates_and_builds_the_same(path, orbat.Orbat)
    validated = checked(orbat.Orbat, load_yaml(path))
    plain = load_nation(path.stem)
    _same(plain, validated)
    for mine, line in zip(plain.units, load_yaml(path)["units"], strict=True):
        assert (mine.is_vehicle, mine.is_foot, mine.is_apc) == (
            line["type"] in ("light", "mbt", "helicopter"),
            line["type"] in ("infantry", "support"),
            bool(set(line.get("traits", ())) & {"apc", "apc_plus", "apc_minus"}),
        )
        if "weapon" in line:  # the book's notation reads back as it was written
            assert str(mine.weapon) == str(line["weapon"]).strip().removesuffix("+")


def test_sevendays_orbat_refuses_unknown_keys_where_the_file_did(tmp_path: Path) -> None:
    """A profile line or an ORBAT with a key it does not know is refused; a weapon, armour or
    ATGM written as a mapping passes other keys over (as the pydantic models did)."""
    from umpire.core.errors import DataFileError
    from umpire.rulesets.sevendays.orbat import Atgm, Weapon, load_orbat
    from umpire.rulesets.sevendays.scenario import ORBATS

    raw = load_yaml(ORBATS / "uk.yaml")
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump({**raw, "colour": "red"}), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"mine\.yaml: field colour: Extra inputs"):
        load_orbat(path)
    line = {**raw["units"][0], "atgm": {"to_hit": "4+", "weapon": "10h", "nickname": "x"}}
    path.write_text(yaml.safe_dump({**raw, "units": [line]}), encoding="utf-8")
    assert load_orbat(path).units[0].atgm == Atgm(to_hit=4, weapon=Weapon(value=10, heat=True))
    path.write_text(yaml.safe_dump({**raw, "units": [{**line, "crew": 4}]}), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"field units\.0\.crew: Extra inputs"):
        load_orbat(path)


def test_sevendays_plain_models_keep_the_readers_interface() -> None:
    """``model_validate`` checks with pydantic (its ValidationError as before, reading the
    book's notations), and ``model_copy``/``model_dump``/``model_dump_json`` give what the
    pydantic models gave."""
    from pydantic import ValidationError

    from umpire.rulesets.sevendays.config import default_house_rules
    from umpire.rulesets.sevendays.orbat import Armour, UnitProfile, UnitType, Weapon
    from umpire.rulesets.sevendays.scenario import load_nation

    line: dict[str, Any] = {"id": "x", "name": "X", "type": "mbt", "weapon": "7h"}
    line["armour"] = ["19s", "17"]
    line |= {"to_hit": "4+", "morale": 4, "points": 10, "bp": 2, "traits": ["thermal"]}
    profile = UnitProfile.model_validate(line)
    assert isinstance(profile, UnitProfile)
    assert profile == build(UnitProfile, line)
    assert (profile.armour, profile.weapon, profile.to_hit, profile.type) == (
        Armour(front=19, side=17, special=True),
        Weapon(value=7, heat=True),
        4,
        UnitType.MBT,
    )
    with pytest.raises(ValidationError, match="traits"):
        UnitProfile.model_validate({**line, "traits": ["flying"]})
    with pytest.raises(ValidationError, match="to_hit"):
        UnitProfile.model_validate({**line, "to_hit": "11+"})  # a d10 score: 2+ to 10+
    assert profile.model_copy(update={"bp": 5}).bp == 5 and profile.bp == 2
    dumped = profile.model_dump()
    assert dumped["armour"] == {"front": 19, "side": 17, "special": True}
    assert dumped["traits"] == frozenset({"thermal"}) and dumped["type"] is UnitType.MBT
    assert profile.model_dump(mode="json")["type"] == "mbt"
    assert UnitProfile.model_validate(dumped) == profile  # a dump reads back as the same line
    for unit in load_nation("uk").units:
        assert UnitProfile.model_validate(unit.model_dump()) == unit
        assert UnitProfile.model_validate(unit.model_dump(mode="json")) == unit
        assert UnitProfile.model_validate(json.loads(unit.model_dump_json())) == unit
    house = default_house_rules()
    assert type(house).model_validate(house.model_dump()) == house
    assert house.model_copy(update={"no_penetration_markers": 0}).no_penetration_markers == 0


def test_sevendays_override_is_checked_by_the_dataclass() -> None:
    from umpire.core.errors import DataFileError
    from umpire.rulesets.sevendays.config import HouseRules, house_rules

    with pytest.raises(DataFileError, match=r"^mine: field proximity: .*greater than or equal"):
        house_rules({"proximity": -1.0}, "mine")
    with pytest.raises(DataFileError, match=r"^mine: field air\.effect: .*a score of 9"):
        house_rules({"air": {"sam_effect_bonus": 3}}, "mine")  # the table must reach 6 + 3
    rows = [{"max": 6, "result": "gone", "markers": 1}]
    with pytest.raises(DataFileError, match=r"^mine: field damage_table\.0\.result: Input "):
        house_rules({"damage_table": rows}, "mine")
    with pytest.raises(DataFileError, match=r"should be 'evades', 'damaged' or 'shot_down'$"):
        house_rules({"air": {"effect": [{"max": 6, "result": 3}]}}, "mine")
    changed = house_rules({"proximity": 3.0}, "mine")
    assert isinstance(changed, HouseRules) and changed.proximity == 3.0


def test_no_second_definition_of_a_data_file_shape() -> None:
    """The pydantic mirrors of the dataclasses are gone: one definition per shape."""
    import importlib.util

    for name in ("rhine", "portable", "sevendays"):
        assert importlib.util.find_spec(f"umpire.rulesets.{name}.schema") is None
