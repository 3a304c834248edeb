"""Issue 19: the built-in data a cold ``umpire odds`` reads are plain frozen dataclasses built
from the packaged files without pydantic (:func:`umpire.core.plain.build`). Each ruleset keeps
its pydantic schema for a user's file; here every packaged file is validated by that schema,
and the plain build of the raw file must equal, value and type, the plain build of what the
schema validated (so the hand-built data cannot drift from the schema), and every plain class
has exactly its schema model's fields (so readers see the same attribute names)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest
from pydantic import BaseModel

from umpire.core.datafiles import load_yaml
from umpire.core.plain import build


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


def _same_fields(plain: type, schema: type[BaseModel]) -> None:
    names = [f.name for f in dataclasses.fields(plain)]
    assert sorted(names) == sorted(schema.model_fields), plain.__name__


# -- rhine ---------------------------------------------------------------------------------------
def _rhine_pairs() -> list[tuple[type, type[BaseModel]]]:
    from umpire.rulesets.rhine import model, schema

    return [
        (getattr(model, name), cls)
        for name, cls in vars(schema).items()
        if isinstance(cls, type)
        and issubclass(cls, BaseModel)
        and cls.__module__ == schema.__name__
        and not name.startswith("_")
    ]


def test_rhine_plain_classes_have_the_schema_fields() -> None:
    pairs = _rhine_pairs()
    assert {p.__name__ for p, _ in pairs} >= {"Tables", "ScenarioSpec", "CRT", "UnitSpec"}
    for plain, model in pairs:
        assert dataclasses.is_dataclass(plain)
        _same_fields(plain, model)


def _rhine_files() -> list[Path]:
    from umpire.rulesets.rhine.model import DATA

    return [DATA / "tables.yaml", *sorted((DATA / "scenarios").glob("*.yaml"))]


@pytest.mark.parametrize("path", _rhine_files(), ids=lambda p: p.name)
def test_rhine_packaged_file_validates_and_builds_the_same(path: Path) -> None:
    from umpire.rulesets.rhine import model, schema

    raw = load_yaml(path)
    plain_cls, schema_cls = (
        (model.Tables, schema.Tables)
        if path.name == "tables.yaml"
        else (model.ScenarioSpec, schema.ScenarioSpec)
    )
    checked = schema_cls.model_validate(raw)  # raises if the packaged file breaks the schema
    _same(build(plain_cls, raw), build(plain_cls, checked.model_dump()))


def test_rhine_loaders_give_the_plain_build_of_the_packaged_files() -> None:
    from umpire.rulesets.rhine import model, schema

    assert model.load_tables() == build(
        model.Tables,
        schema.Tables.model_validate(load_yaml(model.DATA / "tables.yaml")).model_dump(),
    )
    path = model.scenario_path("autobahn-gap")
    assert model.load_spec(path) == build(
        model.ScenarioSpec, schema.ScenarioSpec.model_validate(load_yaml(path)).model_dump()
    )


def test_rhine_user_scenario_is_still_checked_by_the_schema(tmp_path: Path) -> None:
    from umpire.core.errors import DataFileError
    from umpire.rulesets.rhine import model

    raw = load_yaml(model.scenario_path("autobahn-gap"))
    raw["map"]["width"] = 0  # schema: ge=1; the plain build would take it
    bad = tmp_path / "bad.yaml"
    import yaml

    bad.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"bad\.yaml: field map\.width: "):
        model.load_spec(bad)


# -- portable ------------------------------------------------------------------------------------
PORTABLE_PAIRS = [
    ("config", "Landing"),
    ("config", "Drift"),
    ("config", "Optional_"),
    ("config", "HouseRules"),
    ("units", "GroundType"),
    ("units", "WeaponType"),
    ("units", "ArtilleryType"),
    ("units", "AircraftType"),
    ("units", "UnitTypes"),
]


@pytest.mark.parametrize(("module", "name"), PORTABLE_PAIRS)
def test_portable_plain_classes_have_the_schema_fields(module: str, name: str) -> None:
    import importlib

    from umpire.rulesets.portable import schema

    plain: type = getattr(importlib.import_module(f"umpire.rulesets.portable.{module}"), name)
    assert dataclasses.is_dataclass(plain) and isinstance(plain, type)
    _same_fields(plain, getattr(schema, name))


def test_every_portable_schema_model_has_a_plain_class() -> None:
    from umpire.rulesets.portable import schema

    models = {
        n
        for n, c in vars(schema).items()
        if isinstance(c, type) and issubclass(c, BaseModel) and c.__module__ == schema.__name__
    }
    assert models == {name for _, name in PORTABLE_PAIRS}


def test_portable_packaged_house_rules_validate_and_build_the_same() -> None:
    from umpire.rulesets.portable import config, schema

    raw = load_yaml(config.DATA / "house_rules.yaml")
    checked = schema.HouseRules.model_validate(raw)
    _same(build(config.HouseRules, raw), build(config.HouseRules, checked.model_dump()))
    _same(config.house_rules(), build(config.HouseRules, checked.model_dump()))


def test_portable_packaged_units_validate_and_build_the_same() -> None:
    from umpire.rulesets.portable import config, schema, units

    raw = load_yaml(config.DATA / "units.yaml")
    checked = schema.UnitTypes.model_validate(raw)
    _same(units.unit_types(), build(units.UnitTypes, checked.model_dump()))


def test_portable_override_is_checked_by_the_schema_and_read_as_plain_rules() -> None:
    from umpire.core.errors import DataFileError
    from umpire.rulesets.portable import config

    with pytest.raises(DataFileError, match=r"^mine: field fire_hit: "):
        config.house_rules({"fire_hit": True}, "mine")  # strict: true is not 1
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
