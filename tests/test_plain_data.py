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
from typing import Any
from unittest.mock import ANY

import pytest
import yaml
from pydantic import BaseModel

from umpire.core.datafiles import load_yaml
from umpire.core.plain import build, checked


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


def _same_fields(plain: type, schema: type[BaseModel]) -> None:
    names = [f.name for f in dataclasses.fields(plain)]
    assert sorted(names) == sorted(schema.model_fields), plain.__name__


# -- rhine ---------------------------------------------------------------------------------------
def _rhine_files() -> list[tuple[Path, type]]:
    from umpire.rulesets.rhine.model import DATA, ScenarioSpec, Tables

    scenarios = sorted((DATA / "scenarios").glob("*.yaml"))
    return [(DATA / "tables.yaml", Tables), *((p, ScenarioSpec) for p in scenarios)]


@pytest.mark.parametrize(("path", "cls"), _rhine_files(), ids=lambda p: getattr(p, "name", ""))
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
def _sevendays_pairs() -> list[tuple[type, type[BaseModel]]]:
    from umpire.rulesets.sevendays import config, orbat, schema

    pairs = []
    for name, cls in vars(schema).items():
        if (
            isinstance(cls, type)
            and issubclass(cls, BaseModel)
            and cls.__module__ == schema.__name__
        ):
            plain = getattr(config, name, None) or getattr(orbat, name)
            pairs.append((plain, cls))
    return pairs


def test_sevendays_plain_classes_have_the_schema_fields() -> None:
    pairs = _sevendays_pairs()
    assert {p.__name__ for p, _ in pairs} >= {"HouseRules", "DamageRow", "UnitProfile", "Orbat"}
    for plain, model in pairs:
        assert dataclasses.is_dataclass(plain)
        _same_fields(plain, model)
        assert plain.plain_schema == f"{model.__module__}:{model.__name__}"  # type: ignore[attr-defined]


def test_sevendays_packaged_house_rules_validate_and_build_the_same() -> None:
    from umpire.rulesets.sevendays import config, schema

    raw = load_yaml(config.DATA / "house_rules.yaml")
    checked = schema.HouseRules.model_validate(raw)
    _same(config.default_house_rules(), build(config.HouseRules, checked.model_dump()))
    _same(config.house_rules(), build(config.HouseRules, raw))


def _orbat_files() -> list[Path]:
    from umpire.rulesets.sevendays.scenario import ORBATS

    return sorted(ORBATS.glob("*.yaml"))


@pytest.mark.parametrize("path", _orbat_files(), ids=lambda p: p.stem)
def test_sevendays_packaged_orbat_validates_and_builds_the_same(path: Path) -> None:
    from umpire.rulesets.sevendays import orbat, schema
    from umpire.rulesets.sevendays.scenario import load_nation

    checked = schema.Orbat.model_validate(load_yaml(path))
    plain = load_nation(path.stem)
    _same(plain, build(orbat.Orbat, checked.model_dump()))
    for mine, theirs in zip(plain.units, checked.units, strict=True):
        assert (mine.is_vehicle, mine.is_foot, mine.is_apc) == (
            theirs.type in ("light", "mbt", "helicopter"),
            theirs.type in ("infantry", "support"),
            bool(theirs.traits & {"apc", "apc_plus", "apc_minus"}),
        )
        assert str(mine.weapon) == str(theirs.weapon)


def test_sevendays_plain_models_keep_the_readers_interface() -> None:
    """``model_validate`` still checks with the schema (its errors as before), and
    ``model_copy``/``model_dump`` give what the pydantic models gave."""
    from pydantic import ValidationError

    from umpire.rulesets.sevendays import schema
    from umpire.rulesets.sevendays.config import default_house_rules
    from umpire.rulesets.sevendays.orbat import UnitProfile
    from umpire.rulesets.sevendays.scenario import load_nation

    line: dict[str, Any] = {"id": "x", "name": "X", "type": "mbt", "weapon": "7h"}
    line["armour"] = ["19s", "17"]
    line |= {"to_hit": "4+", "morale": 4, "points": 10, "bp": 2, "traits": ["thermal"]}
    profile = UnitProfile.model_validate(line)
    assert isinstance(profile, UnitProfile)
    assert (profile.armour and profile.armour.special, str(profile.weapon), profile.to_hit) == (
        True,
        "7h",
        4,
    )
    with pytest.raises(ValidationError, match="traits"):
        UnitProfile.model_validate({**line, "traits": ["flying"]})
    assert profile.model_copy(update={"bp": 5}).bp == 5 and profile.bp == 2
    theirs = schema.UnitProfile.model_validate(line)
    assert profile.model_dump() == theirs.model_dump()
    assert profile.model_dump(mode="json") == theirs.model_dump(mode="json")
    for unit in load_nation("uk").units:
        theirs = schema.UnitProfile.model_validate(unit.model_dump())
        mine_json, their_json = unit.model_dump(mode="json"), theirs.model_dump(mode="json")
        # a set's order is the string hash's (it changes from process to process)
        assert sorted(mine_json.pop("traits")) == sorted(their_json.pop("traits"))
        assert mine_json == their_json
        assert json.loads(unit.model_dump_json()) == {**mine_json, "traits": ANY}
    house = default_house_rules()
    assert house.model_dump() == schema.HouseRules.model_validate(house.model_dump()).model_dump()
    assert house.model_copy(update={"no_penetration_markers": 0}).no_penetration_markers == 0


def test_sevendays_override_is_checked_by_the_schema() -> None:
    from umpire.core.errors import DataFileError
    from umpire.rulesets.sevendays.config import HouseRules, house_rules

    with pytest.raises(DataFileError, match=r"^mine: field proximity: "):
        house_rules({"proximity": -1.0}, "mine")
    changed = house_rules({"proximity": 3.0}, "mine")
    assert isinstance(changed, HouseRules) and changed.proximity == 3.0
