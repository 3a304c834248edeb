"""Issue 19: a cold ``umpire odds`` must not pay for the game machinery. These tests check
*what* is imported (``sys.modules`` in a fresh interpreter), never how long it takes; the time
is measured in ``bench/bench_cold.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import umpire

# pydantic's own parts too: the plain dataclasses' bounds (core.plain.Check) are read by
# pydantic only when a user's file is checked, and annotated_types is not needed for them
HEAVY: tuple[str, ...] = ("shapely", "numpy", "typer", "rich", "fastapi", "pydantic")
HEAVY += ("pydantic_core", "annotated_types", "typing_extensions")


def _modules_after(code: str) -> set[str]:
    """Top-level package names in ``sys.modules`` after running ``code`` in a fresh process."""
    names = "sorted({m.split('.')[0] for m in sys.modules})"
    probe = f"{code}\nimport json, sys\nprint(json.dumps({names}))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


@pytest.mark.parametrize("name", umpire.__all__)
def test_every_public_name_still_imports(name: str) -> None:
    loaded = _modules_after(f"from umpire import {name}")
    assert "umpire" in loaded
    value = getattr(umpire, name)
    assert value is not None
    assert getattr(value, "__name__", name) == name


def test_public_names_are_the_core_objects() -> None:
    from umpire.core import errors, game

    assert umpire.Game is game.Game
    assert umpire.new_game is game.new_game
    assert umpire.UmpireError is errors.UmpireError


def test_an_unknown_attribute_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        umpire.no_such_name  # noqa: B018


def test_import_umpire_loads_no_game_machinery() -> None:
    code = (
        "import umpire\nimport sys\nprint(sorted(m for m in sys.modules if m.startswith('umpire')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['umpire']"


@pytest.mark.parametrize(
    "module",
    [
        # what each ruleset's ``umpire odds`` answer imports (its OddsCapability module)
        "umpire.rulesets.portable.odds_cli",
        "umpire.rulesets.sevendays.shot_query",
        "umpire.rulesets.rhine.odds_cli",
        "umpire.rulesets.bookgun.odds_cli",
        # the modules whose odds read plain data, not pydantic models (issue 19)
        "umpire.rulesets.sevendays.odds_cli",
        "umpire.rulesets.portable.odds",
        "umpire.rulesets.rhine.model",
        "umpire.rulesets.portable.config",
        "umpire.rulesets.portable.units",
        "umpire.rulesets.sevendays.config",
        "umpire.rulesets.sevendays.orbat",
    ],
)
def test_a_shot_query_imports_nothing_heavy(module: str) -> None:
    loaded = _modules_after(f"import {module}")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_the_table_helpers_load_no_geometry_library() -> None:
    """``umpire.geometry.table``'s plain helpers and ``TerrainKind`` need neither numpy nor
    shapely; the first table, area, road or shape built loads them."""
    code = (
        "from umpire.geometry.table import TerrainKind, in_arc, segment_point_distance\n"
        "assert in_arc((0, 0), 0, 90, (1, 0.1))\n"
        "import sys\n"
        "print(sorted({'numpy', 'shapely'} & set(sys.modules)))\n"
        "from umpire.geometry.table import polygon_from_spec, Area, Table\n"
        "kind = TerrainKind('wood', obscures=True)\n"
        "area = Area('a', kind, polygon_from_spec({'circle': [[5, 5], 2]}))\n"
        "print(area.contains(5, 5), Table(10, 10, [area]).terrain_blocks((0, 5), (10, 5)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == ["[]", "True False"]


# -- the ``odds`` fast path (``python -m umpire odds ...``) -------------------------------------
ODDS_ARGS = {
    "sevendays": ["--firer", "Challenger 1", "--target", "T-72A", "--range", "18"],
    "portable": [
        "--firer",
        "infantry",
        "--target",
        "infantry",
        "--range",
        "2",
        "--quality",
        "average",
    ],
    "rhine": ["--attack", "12", "--defence", "4", "--drm", "1"],
    "bookgun": [],
}
# what a shot needs beyond the ruleset's own data: no command-line framework, no geometry
# library, no data-model library (typer brings click and rich)
NOT_FOR_ODDS = ("shapely", "numpy", "pydantic", "typer", "click", "rich", "annotated_types")
STILL_LOADED: dict[tuple[str, str], str] = {
    # (ruleset, package) still imported by an ``odds`` answer, and why (none left: the
    # built-in data the odds read are plain dataclasses, pydantic checks only a user's file)
}


def _odds_modules(argv: list[str]) -> set[str]:
    """Top-level packages loaded by ``python -m umpire ARGV`` (run the same way in a fresh
    interpreter, so its ``sys.modules`` can be read after it answers)."""
    code = (
        "import json, runpy, sys\n"
        f"sys.argv = ['umpire', *{argv!r}]\n"
        "try:\n"
        "    runpy.run_module('umpire', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


@pytest.mark.parametrize(
    ("ruleset", "package"),
    [
        pytest.param(
            r,
            p,
            marks=[pytest.mark.xfail(reason=STILL_LOADED[r, p], strict=True)]
            if (r, p) in STILL_LOADED
            else [],
        )
        for r in ODDS_ARGS
        for p in NOT_FOR_ODDS
    ],
)
def test_a_cold_odds_command_imports_nothing_heavy(ruleset: str, package: str) -> None:
    loaded = _odds_modules(["odds", ruleset, *ODDS_ARGS[ruleset]])
    assert "umpire" in loaded  # it ran
    assert package not in loaded


def test_the_fast_path_knows_each_built_in_rulesets_own_odds() -> None:
    """``BUILT_IN_ODDS`` names the very object each ruleset declares as its odds capability."""
    from umpire.analysis.odds_command import built_in_odds
    from umpire.core.lazy import Lazy
    from umpire.core.ruleset import get_ruleset, ruleset_ids
    from umpire.rulesets import BUILT_IN_ODDS

    assert set(BUILT_IN_ODDS) <= set(ruleset_ids())
    shipped = {
        r
        for r in ruleset_ids()
        if type(get_ruleset(r)).__module__.startswith("umpire.rulesets.")
        and get_ruleset(r).capabilities.odds is not None
    }
    assert shipped == set(BUILT_IN_ODDS)  # a new built-in ruleset's odds take the fast path too
    for ruleset_id in BUILT_IN_ODDS:
        declared = get_ruleset(ruleset_id).capabilities.odds
        if isinstance(declared, Lazy):
            declared = declared.resolve()
        assert built_in_odds(ruleset_id) is declared, ruleset_id


FLAG_CASES = [
    ["--firer", "T-72A", "--range", "3"],
    ["--firer=T-72A", "--range=3.5", "--facing", "side", "--firer-moved"],
    ["--no-firer-moved", "--reaction=yes", "--markers", "2"],
    ["--reaction=maybe"],
    ["--range", "ten"],
    ["--facing", "top"],
    ["--markers"],
    ["--bogus", "1"],
    ["--no-range", "3"],
    ["stray"],
    ["-x"],
    ["--house-rules", "~/h.yaml"],
    [],
]


@pytest.mark.parametrize("args", FLAG_CASES)
def test_the_fast_path_reads_flags_as_the_command_line_does(args: list[str]) -> None:
    """Same values, or the same one-line error, as the typer commands' reader (one function,
    ``umpire.flags.parse_declared``, reached through ``umpire.cli``)."""
    from umpire.analysis.odds_command import built_in_odds, read_flags
    from umpire.cli import parse_declared  # type: ignore[attr-defined]  # as the CLI reads it
    from umpire.core.errors import UmpireError

    options = built_in_odds("sevendays").options
    try:
        expected: object = parse_declared(args, options, "sevendays", defaults=True)[0]
    except UmpireError as exc:
        expected = ("error", str(exc))
    try:
        got: object = read_flags(args, options, "sevendays")
    except UmpireError as exc:
        got = ("error", str(exc))
    assert got == expected


ANSWER_CASES = [
    ["odds", "sevendays", *ODDS_ARGS["sevendays"]],
    ["odds", "--json", "sevendays", "--firer=T-72A", "--target", "Challenger 1", "--range", "30"],
    ["odds", "sevendays", "--activation", "--tokens", "1", "--markers", "2"],  # rich wraps it
    ["odds", "sevendays", "--firer", "Challenger 9", "--target", "T-72A", "--range", "18"],
    ["odds", "sevendays", "--bogus", "3"],
    ["odds", "portable", *ODDS_ARGS["portable"], "--json"],
    ["odds", "portable", "--firer", "nobody", "--target", "infantry", "--range", "2"],
    ["odds", "rhine", *ODDS_ARGS["rhine"]],
    ["odds", "rhine", "--contest", "sea"],
    ["odds", "bookgun", "--mode", "door", "--weapons", "rpg*2", "--range", "8"],
    ["odds", "bookgun", "--weapons", "laser"],
]


def _umpire(how: str, argv: list[str], columns: str | None) -> tuple[int, str, str]:
    """``argv`` run by ``python -m umpire`` (the fast path) or by the typer command line."""
    entry = (
        "import runpy; runpy.run_module('umpire', run_name='__main__', alter_sys=True)"
        if how == "fast"
        else "from umpire.cli import main; main()"
    )
    code = f"import sys; sys.argv = ['umpire', *{argv!r}]\n{entry}"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TERM")}
    if columns is not None:
        env["COLUMNS"] = columns
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("argv", ANSWER_CASES, ids=lambda a: " ".join(a[1:4]))
def test_the_fast_path_prints_what_the_typer_command_prints(argv: list[str]) -> None:
    """Byte for byte: the same answer lines (wrapped where rich wraps them), the same JSON,
    the same one-line error on stderr and the same exit code."""
    assert _umpire("fast", argv, None) == _umpire("typer", argv, None)


def test_the_fast_path_follows_the_terminal_width() -> None:
    argv = ["odds", "sevendays", *ODDS_ARGS["sevendays"]]
    narrow = _umpire("fast", argv, "40")
    assert narrow == _umpire("typer", argv, "40")
    assert max(len(line) for line in narrow[1].splitlines()) <= 40  # rich wrapped it


def test_the_command_line_module_loads_no_geometry_or_server() -> None:
    loaded = _modules_after("import umpire.cli")
    assert not loaded & {"shapely", "numpy", "fastapi", "pydantic", "icepool"}, sorted(
        loaded & {"shapely", "numpy", "fastapi", "pydantic", "icepool"}
    )


# -- odd input is a one-line error (exit 2), never a traceback ----------------------------------
ODD_INPUT = [
    # rhine.combat.odds: an attack below the CRT's first column may not be made
    (["odds", "rhine", "--attack", "2", "--defence", "9"], "--attack 2 against --defence 9"),
    (["odds", "rhine", "--attack", "5"], "give --attack and --defence"),
    (["odds", "rhine", "--attack", "5", "--defence", "-1"], "--defence -1"),
    (["odds", "sevendays", "--firer", "T-72A", "--target", "T-72A", "--range", "nan"], "--range"),
    (["odds", "sevendays", "--firer", "T-72A", "--target", "T-72A", "--range", "inf"], "--range"),
    (
        ["odds", "sevendays", "--firer", "T-72A", "--target", "T-72A", "--range", "9"]
        + ["--shots", "1000000"],
        "--shots 1000000",
    ),
    (
        ["odds", "portable", "--firer", "infantry", "--target", "infantry", "--range", "0"],
        "--range 0",
    ),
    (
        ["odds", "portable", "--firer", "infantry", "--target", "infantry", "--range", "-2"],
        "--range",
    ),
    (["odds", "bookgun", "--mode", "close-combat", "--pairs", "x:1"], "--pairs 'x:1'"),
    (["odds", "bookgun", "--visible", "-1"], "--visible -1"),
    (["odds", "bookgun", "--visible", "0"], "--visible 0"),
    (["odds", "bookgun", "--weapons", "assault_rifle*x"], "--weapons 'assault_rifle*x'"),
    (["odds", "bookgun", "--weapons", "assault_rifle*100000"], "at most 12 figures"),
    (["odds", "bookgun", "--weapons", "rpg*0", "--mode", "door"], "--weapons 'rpg*0'"),
    (["odds", "bookgun", "--range", "-5"], "--range -5"),
    (["odds", "bookgun", "--quality", "nobody"], "--quality 'nobody'"),
]


@pytest.mark.parametrize(("argv", "names"), ODD_INPUT, ids=lambda a: " ".join(a[1:]))
@pytest.mark.parametrize("how", ["fast", "typer"])
def test_odd_input_is_a_one_line_error(how: str, argv: list[str], names: str) -> None:
    """Zero, negative, huge or unreadable values: ``error: ...`` naming the flag, exit 2."""
    code, out, err = _umpire(how, argv, "200")
    assert (code, out) == (2, ""), (code, out, err)
    assert "Traceback" not in err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert names in err, err


def test_rhine_odds_still_raises_a_value_error_below_the_table() -> None:
    """The capability itself keeps raising ValueError (tests/rhine/test_capabilities.py);
    the command turns it into the one-line error."""
    from umpire.analysis.odds_command import answer_of, built_in_odds
    from umpire.core.errors import UmpireError

    cap = built_in_odds("rhine")
    values = {o.option_key: o.default for o in cap.options} | {"attack": 1, "defence": 9}
    with pytest.raises(ValueError, match="lowest column"):
        cap.answer(values)
    with pytest.raises(UmpireError, match="--attack 1 against --defence 9"):
        answer_of(cap, values)


# -- the odds path's plain numbers equal the validated models' ---------------------------------
def test_bookgun_odds_read_the_numbers_the_validated_tables_hold() -> None:
    """``umpire odds bookgun`` reads the shipped ``tables.yaml`` without the pydantic models
    (``odds_cli.shipped_fire_numbers``); every number it reads equals, value and type, what
    the validated :class:`~umpire.rulesets.bookgun.tables.Tables` holds (so they cannot drift)."""
    from umpire.rulesets.bookgun import odds_cli
    from umpire.rulesets.bookgun.tables import TROOPS, base_tables

    tables = base_tables()
    shipped = odds_cli.shipped_fire_numbers()
    assert shipped == odds_cli.fire_numbers(tables.model_dump())
    assert repr(shipped) == repr(odds_cli.fire_numbers(tables.model_dump()))  # ints stay ints
    # read field by field from the model, not through model_dump
    assert list(shipped.weapons) == list(tables.weapons.types)
    for name, weapon in tables.weapons.types.items():
        mine = shipped.weapons[name]
        assert (mine.dice, mine.bands, mine.hit_mod, mine.blast, mine.min_range) == (
            weapon.dice,
            weapon.bands,
            weapon.hit_mod,
            weapon.blast,
            weapon.min_range,
        ), name
        assert [type(b) for b in mine.bands] == [type(b) for b in weapon.bands], name
    for band in ("short", "medium", "long"):
        for category in ("I", "II", "III", "IV"):
            assert shipped.number(band, category) == tables.fire_table.number(band, category)
    mods = tables.fire_mods
    assert (shipped.always_miss, shipped.minimum) == (
        tables.fire_table.always_miss,
        tables.fire_table.minimum,
    )
    assert shipped.quality == mods.quality
    assert (shipped.moved, shipped.night, shipped.moving_vehicle) == (
        mods.moved,
        mods.night,
        mods.moving_vehicle,
    )
    assert (shipped.on_target_short, shipped.on_target_beyond) == (
        tables.blast.on_target_short,
        tables.blast.on_target_beyond,
    )
    assert TROOPS  # the module under test is the one the rules read
    assert (
        odds_cli.TABLES_FILE
        == __import__("umpire.rulesets.bookgun.tables", fromlist=["DATA"]).DATA / "tables.yaml"
    )


def test_bookgun_fire_parts_agree_on_the_model_and_the_plain_numbers() -> None:
    from umpire.rulesets.bookgun import odds_cli
    from umpire.rulesets.bookgun.tables import base_tables

    for weapons, rng in [("assault_rifle*3,lmg", 14.0), ("sniper_rifle", 40.0), ("hmg", 2.0)]:
        for quality in ("regular", "militia"):
            args = (weapons, rng, "III", quality, True)
            # HitsUnder compares by identity: its fields, as printed, must agree
            assert repr(odds_cli.fire_parts(base_tables(), *args)) == repr(
                odds_cli.fire_parts(odds_cli.shipped_fire_numbers(), *args)
            )
    assert odds_cli.door_needs(base_tables(), "rpg*2,light_gun", 20.0) == odds_cli.door_needs(
        odds_cli.shipped_fire_numbers(), "rpg*2,light_gun", 20.0
    )


def test_a_bookgun_house_rules_file_is_still_validated_by_pydantic(tmp_path: object) -> None:
    """A user's ``--house-rules`` file still gets pydantic's one-line error naming the file and
    the field, and its numbers are the ones the answer uses."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    bad = tmp_path / "bad.yaml"
    bad.write_text("fire_table:\n  minimum: x\n", encoding="utf-8")
    code, out, err = _umpire("fast", ["odds", "bookgun", "--house-rules", str(bad)], "200")
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {bad}: field fire_table.minimum: ") and err.count("\n") == 1
    good = tmp_path / "good.yaml"
    good.write_text("fire_table:\n  short: {I: 10, II: 1, III: 5, IV: 3}\n", encoding="utf-8")
    argv = ["odds", "bookgun", "--json", "--range", "2", "--house-rules", str(good)]
    code, out, err = _umpire("fast", argv, "200")
    assert code == 0, err
    assert json.loads(out)["dice"] == ["1d20 <= 1"]  # the file's short-range Cat II number
