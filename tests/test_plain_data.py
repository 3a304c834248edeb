"""Issue 19: the built-in data a cold ``umpire odds`` reads are plain frozen dataclasses built
from the packaged files without pydantic (:func:`umpire.core.plain.build`). Each ruleset keeps
its pydantic schema for a user's file; here every packaged file is validated by that schema,
and the plain build of the raw file must equal, value and type, the plain build of what the
schema validated (so the hand-built data cannot drift from the schema), and every plain class
has exactly its schema model's fields (so readers see the same attribute names)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from umpire.core.datafiles import load_yaml
from umpire.core.plain import build


def _same(a: Any, b: Any) -> None:
    assert a == b
    assert repr(a) == repr(b)  # ints stay ints, tuples stay tuples, enums stay enums


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

    plain = getattr(importlib.import_module(f"umpire.rulesets.portable.{module}"), name)
    assert dataclasses.is_dataclass(plain)
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
