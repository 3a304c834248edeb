"""A stranger's file is refused in bounded memory and time (issue 16, "a hostile file must give
a one-line error, not take the machine"): the hostile inputs that made a loader allocate
without bound, each loaded in a child process held to 2 GB of address space and a minute, so a
regression fails here instead of being killed by the kernel.

Found by replacing one value of each shipped scenario file at a time (the shape of
``test_fuzz_files``' mutations): a terrain corner of 2**64 or 1e300 made the table bucket its
terrain into about 10**35 grid cells; a Portable terrain rectangle as far as row 99999999 was
listed square by square; and a YAML alias that holds itself (``a: &a [*a, *a]``) or nine
levels of nine aliases ("billion laughs") sent the house-rules number check round without
end.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src" / "umpire" / "rulesets"
LIMIT_BYTES = 2 * 1024**3  # address space of the child: far above any shipped file's needs
TIMEOUT_S = 60


def _run(tmp_path: Path, body: str) -> str:
    """Run ``body`` (Python, with ``PATH`` the file under test) in a child held to
    :data:`LIMIT_BYTES` and :data:`TIMEOUT_S`; its printed last line."""
    script = tmp_path / "child.py"
    script.write_text(
        "import resource\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({LIMIT_BYTES}, {LIMIT_BYTES}))\n"
        + textwrap.dedent(body),
        encoding="utf-8",
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)]),
        "OPENBLAS_NUM_THREADS": "1",
    }
    try:
        done = subprocess.run(
            [sys.executable, str(script)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            env=env,
            cwd=tmp_path,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {TIMEOUT_S} s")
    tail = (done.stdout.strip().splitlines() or [""])[-1]
    assert done.returncode == 0, f"exit {done.returncode}: {tail} {done.stderr[-600:]}"
    return tail


_REFUSED = """
    import sys
    from pathlib import Path
    from umpire.core.errors import UmpireError
    PATH = Path(sys.argv[0]).parent / "hostile.yaml"
    try:
        LOAD(PATH)
    except UmpireError as exc:
        print("refused:", exc)
    except MemoryError:
        print("MemoryError")
        raise SystemExit(3)
    else:
        print("loaded")
"""


def _refusal(tmp_path: Path, load: str, text: str) -> str:
    """The one-line refusal of the file ``text`` by the loader ``load`` (Python defining
    ``LOAD(path)``), read in the bounded child."""
    (tmp_path / "hostile.yaml").write_text(text, encoding="utf-8")
    tail = _run(tmp_path, textwrap.dedent(load) + textwrap.dedent(_REFUSED))
    assert tail.startswith("refused: "), tail
    message = tail.removeprefix("refused: ")
    assert "hostile.yaml" in message, message
    return message


SCENARIO_LOADERS = {
    "sevendays": """
        def LOAD(path):
            from umpire.core.ruleset import get_ruleset
            get_ruleset("sevendays").new_state(str(path), 1, {})
    """,
    "portable": """
        def LOAD(path):
            from umpire.core.ruleset import get_ruleset
            get_ruleset("portable").new_state(str(path), 1, {})
    """,
    "rhine": """
        def LOAD(path):
            from umpire.rulesets.rhine.model import load_world
            load_world(path)
    """,
    "bookgun": """
        def LOAD(path):
            from umpire.rulesets.bookgun.scenario import load_scenario_file
            from umpire.rulesets.bookgun.tables import base_tables
            from umpire.rulesets.bookgun.world import World
            World(load_scenario_file(path), base_tables())
    """,
}


def _with(ruleset: str, scenario: str, where: str, value: Any) -> str:
    """The shipped ``scenario`` with the value at the dotted path ``where`` replaced."""
    document = yaml.safe_load(
        (SRC / ruleset / "data" / "scenarios" / f"{scenario}.yaml").read_text()
    )
    parent = document
    keys: list[Any] = [int(k) if k.isdigit() else k for k in where.split(".")]
    for key in keys[:-1]:
        parent = parent[key]
    parent[keys[-1]] = value
    return yaml.safe_dump(document)


@pytest.mark.parametrize(
    ("ruleset", "scenario", "where", "value", "field"),
    [
        # a corner of the village's rectangle 2**64 inches east: ~10**35 buckets of 6 inches
        ("sevendays", "meeting-engagement", "terrain.4.rect.2", 2**64, "field terrain.4.rect"),
        ("sevendays", "meeting-engagement", "terrain.4.rect.3", 1e300, "field terrain.4.rect"),
        (
            "sevendays",
            "breakthrough",
            "terrain.0.polygon.0",
            [10**6, 10**6],
            "field terrain.0.polygon",
        ),
        ("sevendays", "breakthrough", "terrain.6.circle.1", 1e300, "field terrain.6.circle"),
        ("sevendays", "meeting-engagement", "table.width", 1e300, "field table.width"),
        ("bookgun", "market-day", "terrain.0.rect.3", 1e300, "field terrain.0.rect"),
        ("bookgun", "market-day", "buildings.0.rect.2", 2**64, "field buildings.0.rect"),
        ("bookgun", "market-day", "width", 1e300, "field width"),
    ],
    ids=lambda v: str(v)[:24],
)
def test_a_far_off_shape_or_huge_table_is_refused(
    tmp_path: Path, ruleset: str, scenario: str, where: str, value: Any, field: str
) -> None:
    """A shape far off the table, or a table miles wide, is a mistake in the file: refused in
    one line naming the file and the field, not bucketed into billions of grid cells."""
    message = _refusal(tmp_path, SCENARIO_LOADERS[ruleset], _with(ruleset, scenario, where, value))
    assert f": {field}" in message, message


@pytest.mark.parametrize(
    ("ruleset", "scenario", "where", "field"),
    [
        ("rhine", "autobahn-gap", "cs.0.count", "field cs.0.count"),
        ("bookgun", "market-day", "dummies", "field dummies"),
    ],
)
def test_a_count_of_pieces_is_bounded(
    tmp_path: Path, ruleset: str, scenario: str, where: str, field: str
) -> None:
    """A count the game turns into that many pieces when it sets up (combat support markers,
    dummy concealment markers) is refused at 2**64 when the file is read, not when the game
    starts listing them."""
    text = _with(ruleset, scenario, where, 2**64)
    message = _refusal(tmp_path, SCENARIO_LOADERS[ruleset], text)
    assert f": {field}" in message, message


def test_a_portable_terrain_rectangle_off_the_board_is_refused(tmp_path: Path) -> None:
    """A terrain rectangle reaching row 99999999 of a 12x9 board is refused before its squares
    are listed (26 x 10**8 of them)."""
    text = _with(
        "portable", "armoured-meeting", "terrain", [{"kind": "woods", "rect": ["A1", "Z99999999"]}]
    )
    message = _refusal(tmp_path, SCENARIO_LOADERS["portable"], text)
    assert ": field terrain.0" in message and "off the" in message, message


_HOUSE_RULES = """
    def LOAD(path):
        from umpire.core.ruleset import get_ruleset, load_house_rules
        load_house_rules(get_ruleset("RULESET"), path)
"""


def _laughs(depth: int) -> str:
    """``depth`` levels of nine aliases each: nine to the ``depth`` numbers once expanded."""
    lines = ["a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, depth)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("ruleset", ["sevendays", "portable", "rhine", "bookgun"])
@pytest.mark.parametrize(
    "text",
    ["a: &a [*a, *a]\n", _laughs(10)],
    ids=["alias-holding-itself", "billion-laughs"],
)
def test_house_rules_with_runaway_aliases_are_refused(
    tmp_path: Path, ruleset: str, text: str
) -> None:
    """A house-rules file whose aliases hold themselves, or expand to billions of values, is
    refused in one line (every number in the file is checked, so it used to be walked)."""
    message = _refusal(tmp_path, _HOUSE_RULES.replace("RULESET", ruleset), text)
    assert "alias" in message, message


def test_a_table_with_a_far_reaching_area_stays_small(tmp_path: Path) -> None:
    """The table itself (whoever builds it) buckets an area only over the table's own cells:
    a wood from -1e300 to 1e300 inches on a 72 x 48 table is found where it is, at once."""
    tail = _run(
        tmp_path,
        """
        from shapely.geometry import Polygon
        from umpire.geometry.table import Area, Table, TerrainKind
        huge = Polygon([(-1e300, -1e300), (1e300, -1e300), (1e300, 1e300), (-1e300, 1e300)])
        small = Polygon([(10, 10), (20, 10), (20, 20), (10, 20)])
        wood = TerrainKind("woods", blocks_los=True)
        table = Table(72, 48, [Area("small", wood, small), Area("everywhere", wood, huge)])
        inside = [a.id for a in table.areas_at(15, 15)]
        outside = [a.id for a in table.areas_at(-5e299, 3e299)]
        print(inside, outside)
        """,
    )
    assert tail == "['small', 'everywhere'] ['everywhere']", tail


def test_the_alias_budget_counts_only_what_aliases_add(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is on the values aliases add, not on the file's own: a long file with an
    ampersand in its text and no alias loads whatever its length (here with a budget of 100)."""
    from umpire.core import datafiles
    from umpire.core.errors import DataFileError

    monkeypatch.setattr(datafiles, "MAX_EXPANDED_VALUES", 100)
    plain = "note: R&D\nxs: [" + ", ".join(["1"] * 1000) + "]\n"
    assert len(datafiles.parse_yaml(plain, "plain.yaml")["xs"]) == 1000
    small = "a: &a [1, 2, 3]\nb: [*a, *a]\n" + plain.removeprefix("note: R&D\n")
    assert datafiles.parse_yaml(small, "small.yaml")["b"] == [[1, 2, 3], [1, 2, 3]]
    big = "a: &a [" + ", ".join(["1"] * 60) + "]\nb: [*a, *a]\n"  # adds 2 x 61 values
    with pytest.raises(DataFileError, match=r"^big.yaml: YAML aliases add more than 100 values$"):
        datafiles.parse_yaml(big, "big.yaml")
