"""Bounded Hypothesis fuzz of every file kind a user hands Umpire (issue 16: "Keep bounded
Hypothesis fuzz tests for every file kind in the suite"): force TOML files and BattleScribe
rosters through ``umpire force check``'s entry point, BattleScribe game systems and catalogues,
and the scenario files of all four rulesets through their loaders.

Each generated file is a shipped, valid file with one thing changed (a value replaced by any
value, a key removed, a line rewritten), or raw bytes. The contract: the loader returns an
object, or raises a one-line :class:`UmpireError` that names the file; anything else (a
traceback) fails the test. Examples are bounded so the whole module runs in about a minute.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umpire.core.errors import UmpireError

SRC = Path(__file__).resolve().parents[2] / "src" / "umpire"
FORCES = sorted((SRC / "rulesets" / "sevendays" / "data" / "forces").glob("*.toml"))
FIXTURES = Path(__file__).resolve().parents[1] / "importers" / "fixtures"
ROSTER = FIXTURES / "ussr-motor-rifles.ros"
CATALOGUE = FIXTURES / "tiny.cat"
GAME_SYSTEM = FIXTURES / "tiny.gst"
SCENARIOS = {
    ruleset: sorted((SRC / "rulesets" / ruleset / "data" / "scenarios").glob("*.yaml"))
    for ruleset in ("sevendays", "portable", "rhine", "bookgun")
}
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
_names = itertools.count()

# values a hostile or careless user writes
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.sampled_from([10**400, -(10**400), 2**64, 0, -1, 99, 100]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["../../../etc/passwd", "x" * 5000, "\x00", "\u202e", "nan", "0605"]),
)
any_value = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)


def _fresh(tmp_path: Path, suffix: str) -> Path:
    """A new file name for each example (loaders cache by path)."""
    return tmp_path / f"fuzz-{next(_names)}{suffix}"


def _must_be_one_line(load: Callable[[Path], Any], path: Path) -> None:
    try:
        load(path)
    except UmpireError as exc:
        message = str(exc)
        assert "\n" not in message, message
        assert path.name in message, message
    except RecursionError:  # pragma: no cover - reported as the failure it is
        pytest.fail(f"{path.name}: RecursionError escaped")


# --- structured mutation of a document ---------------------------------------------------------


def _locations(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    if isinstance(data, dict):
        items: Any = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return out
    for key, value in items:
        out.append((*prefix, key))
        out += _locations(value, (*prefix, key))
    return out


def _mutated(document: Any, data: st.DataObject) -> Any:
    """A deep copy of ``document`` with one location replaced by any value, or removed."""
    copy = yaml.safe_load(yaml.safe_dump(document))
    places = _locations(copy)
    if not places:
        return data.draw(any_value)
    where = data.draw(st.sampled_from(places))
    parent = copy
    for key in where[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = data.draw(any_value)
    return copy


# --- force files and rosters (umpire force check) ------------------------------------------------

TOML_VALUES = [
    "nan",
    "inf",
    "-1",
    "0",
    "100",
    "1e400",
    "9" * 400,
    '"x"',
    '""',
    "true",
    "[1, 2]",
    "{ a = 1 }",
    '"../../etc/passwd"',
    '"' + "y" * 3000 + '"',
    "1979-05-27",
    "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]",
]


def _check_force(path: Path) -> None:
    from umpire.importers.roster import check_force_file

    check_force_file(path, 500)


@pytest.mark.parametrize("original", FORCES, ids=lambda p: p.stem)
@FUZZ
@given(data=st.data())
def test_force_files_fuzzed(tmp_path: Path, original: Path, data: st.DataObject) -> None:
    lines = original.read_text(encoding="utf-8").splitlines()
    assignments = [i for i, line in enumerate(lines) if "=" in line and not line.startswith("#")]
    index = data.draw(st.sampled_from(assignments))
    key = lines[index].split("=", 1)[0]
    value = data.draw(st.sampled_from(TOML_VALUES) | st.text(max_size=20))
    lines[index] = f"{key}= {value}"
    if data.draw(st.booleans()):  # and maybe drop another line
        del lines[data.draw(st.integers(min_value=0, max_value=len(lines) - 1))]
    path = _fresh(tmp_path, ".toml")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _must_be_one_line(_check_force, path)


@FUZZ
@given(content=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_force_files_of_any_bytes(tmp_path: Path, content: bytes) -> None:
    path = _fresh(tmp_path, ".toml")
    path.write_bytes(content)
    _must_be_one_line(_check_force, path)


def test_a_deeply_nested_force_file(tmp_path: Path) -> None:
    path = _fresh(tmp_path, ".toml")
    path.write_text("units = " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    _must_be_one_line(_check_force, path)


def _xml_mutated(original: Path, data: st.DataObject) -> bytes:
    """The XML with one attribute of one element set to any text, or one element removed."""
    root = ET.fromstring(original.read_bytes())
    elements = [e for e in root.iter() if e is not root]
    target = data.draw(st.sampled_from(elements))
    if target.attrib and data.draw(st.booleans()):
        name = data.draw(st.sampled_from(sorted(target.attrib)))
        value = data.draw(
            st.sampled_from(["nan", "inf", "-1", "0", "100", "1e400", "9" * 400, "", "x" * 2000])
            | st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]))
        )
        target.set(name, value)
    else:
        parent = next(p for p in root.iter() if target in list(p))
        parent.remove(target)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


@FUZZ
@given(data=st.data())
def test_rosters_fuzzed(tmp_path: Path, data: st.DataObject) -> None:
    path = _fresh(tmp_path, ".ros")
    path.write_bytes(_xml_mutated(ROSTER, data))
    _must_be_one_line(_check_force, path)


@FUZZ
@given(content=st.binary(max_size=300))
def test_rosters_of_any_bytes(tmp_path: Path, content: bytes) -> None:
    for suffix in (".ros", ".rosz"):
        path = _fresh(tmp_path, suffix)
        path.write_bytes(content)
        _must_be_one_line(_check_force, path)


# --- BattleScribe game systems and catalogues -----------------------------------------------


def _catalogue_lines(path: Path) -> None:
    from umpire.importers.battlescribe import catalogue_lines

    if path.suffix == ".gst":
        catalogue_lines(path)
    else:
        catalogue_lines(path, GAME_SYSTEM)


@pytest.mark.parametrize("original", [CATALOGUE, GAME_SYSTEM], ids=lambda p: p.suffix)
@FUZZ
@given(data=st.data())
def test_battlescribe_data_fuzzed(tmp_path: Path, original: Path, data: st.DataObject) -> None:
    path = _fresh(tmp_path, original.suffix)
    path.write_bytes(_xml_mutated(original, data))
    _must_be_one_line(_catalogue_lines, path)


# --- scenario files of the four rulesets ----------------------------------------------------


def _sevendays(path: Path) -> None:
    from umpire.core.ruleset import get_ruleset

    get_ruleset("sevendays").new_state(str(path), 1, {})


def _portable(path: Path) -> None:
    from umpire.core.ruleset import get_ruleset

    get_ruleset("portable").new_state(str(path), 1, {})


def _rhine(path: Path) -> None:
    from umpire.rulesets.rhine.model import load_world

    load_world(path)


def _bookgun(path: Path) -> None:
    from umpire.rulesets.bookgun.scenario import load_scenario_file
    from umpire.rulesets.bookgun.tables import base_tables
    from umpire.rulesets.bookgun.world import World

    World(load_scenario_file(path), base_tables())


LOADERS: dict[str, Callable[[Path], None]] = {
    "sevendays": _sevendays,
    "portable": _portable,
    "rhine": _rhine,
    "bookgun": _bookgun,
}


@pytest.mark.parametrize("ruleset", sorted(LOADERS))
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_scenario_files_fuzzed(tmp_path: Path, ruleset: str, data: st.DataObject) -> None:
    original = data.draw(st.sampled_from(SCENARIOS[ruleset]))
    document = yaml.safe_load(original.read_text(encoding="utf-8"))
    path = _fresh(tmp_path, ".yaml")
    path.write_text(yaml.safe_dump(_mutated(document, data)), encoding="utf-8")
    _must_be_one_line(LOADERS[ruleset], path)


@pytest.mark.parametrize("ruleset", sorted(LOADERS))
@FUZZ
@given(content=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_scenario_files_of_any_bytes(tmp_path: Path, ruleset: str, content: bytes) -> None:
    path = _fresh(tmp_path, ".yaml")
    path.write_bytes(content)
    _must_be_one_line(LOADERS[ruleset], path)


@pytest.mark.parametrize("ruleset", sorted(LOADERS))
def test_scenario_files_named_absurdly(tmp_path: Path, ruleset: str) -> None:
    for path in (tmp_path / ("s" * 5000 + ".yaml"), tmp_path / "missing.yaml"):
        with pytest.raises(UmpireError) as caught:
            LOADERS[ruleset](path)
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("ruleset", "turns", "field"),
    [
        ("sevendays", 1_000_000, "field turns"),
        ("sevendays", 51, "field turns"),
        ("portable", 51, "field turns"),
        ("bookgun", 31, "field turns"),
        ("rhine", 51, "field turns"),
    ],
)
def test_a_scenario_too_long_to_finish_is_refused(
    tmp_path: Path, ruleset: str, turns: int, field: str
) -> None:
    """Game length is bounded by validation (issue 16, "Games that never end"): a scenario
    file's turn limit (for 7 Days to the Rhine, its list of turns) cannot let a game run to the
    engine's action cap."""
    document = yaml.safe_load(SCENARIOS[ruleset][0].read_text(encoding="utf-8"))
    if ruleset == "rhine":
        document["turns"] = [document["turns"][0]] * turns
    else:
        document["turns"] = turns
    path = _fresh(tmp_path, ".yaml")
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    with pytest.raises(UmpireError) as caught:
        LOADERS[ruleset](path)
    assert str(caught.value).startswith(f"{path}: {field}"), str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("ruleset", "where", "value"),
    [
        # a list where a fraction goes: Fraction's TypeError escaped pydantic's check
        ("sevendays", ("break_point_fraction", "nato"), [1, 2]),
        # an unknown profile for a transport listed after its passenger: the passenger's
        # check looked the transport's profile up unguarded (KeyError)
        ("sevendays", ("sides", "pact", "units", 8, "profile"), "nope"),
        # a square far off the board: naming it for the error raised IndexError
        ("portable", ("sides", "red", "units", 0, "at"), [10**6, 10**6]),
    ],
    ids=str,
)
def test_values_the_fuzz_found(
    tmp_path: Path, ruleset: str, where: tuple[Any, ...], value: Any
) -> None:
    """Values that replaced one location of a shipped scenario file and gave a traceback
    (found by replacing every location of every shipped file with each hostile value)."""
    document = yaml.safe_load(SCENARIOS[ruleset][0].read_text(encoding="utf-8"))
    parent = document
    for key in where[:-1]:
        parent = parent[key]
    parent[where[-1]] = value
    path = _fresh(tmp_path, ".yaml")
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    with pytest.raises(UmpireError) as caught:
        LOADERS[ruleset](path)
    assert "\n" not in str(caught.value) and path.name in str(caught.value), str(caught.value)
