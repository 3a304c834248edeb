"""Bad game records and data files end in one-line errors naming the file and field, never a
traceback (issue: "Nothing a user or a stranger sends breaks it")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umpire.core.datafiles import load_yaml
from umpire.core.errors import DataFileError
from umpire.core.record import RECORD_FORMAT, Record

GOOD: dict[str, Any] = {
    "format": RECORD_FORMAT,
    "ruleset": "sevendays",
    "version": "0.3",
    "scenario": "meeting-engagement",
    "seed": 1,
    "options": {},
    "players": {},
    "actions": [{"kind": "pass"}],
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(sorted(GOOD)), value=json_values)
def test_any_wrong_field_is_a_data_file_error(field: str, value: Any) -> None:
    data = {**GOOD, field: value}
    try:
        record = Record.from_dict(data, "game.json")
    except DataFileError as exc:
        assert str(exc).startswith("game.json: field ")
        assert "\n" not in str(exc)
    else:  # accepted: every field has the type the rest of Umpire relies on
        assert isinstance(record.seed, int) and isinstance(record.options, dict)
        assert all(isinstance(v, str) for v in record.players.values())


@settings(max_examples=200, deadline=None)
@given(actions=st.lists(json_values, max_size=5))
def test_any_action_list_is_checked(actions: list[Any]) -> None:
    try:
        Record.from_dict({**GOOD, "actions": actions}, "r.json")
    except DataFileError as exc:
        assert "field actions" in str(exc)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b"\xff\xfe not utf-8", "not UTF-8"),
        ('{"seed": ' + "9" * 5000 + "}", "digits"),
        (json.dumps({**GOOD, "seed": 2**80}), "field seed"),
        (json.dumps({**GOOD, "seed": True}), "field seed"),
        (json.dumps({**GOOD, "actions": {"kind": "pass"}}), "field actions"),
        (json.dumps({**GOOD, "options": [1, 2]}), "field options"),
        (json.dumps({**GOOD, "players": {"nato": 3}}), "field players"),
        (json.dumps({**GOOD, "result": "won"}), "field result"),
        (json.dumps({**GOOD, "actions": [{"kind": "move", "point": ["nan", 1]}]}), "actions.0"),
        # names that become paths: a record's forces are deployed units, never a file name
        (
            json.dumps({**GOOD, "options": {"forces": {"nato": "../../../etc/passwd"}}}),
            "field options.forces.nato: a record names no force file",
        ),
        (
            json.dumps({**GOOD, "options": {"forces": {"pact": "/home/someone/force.toml"}}}),
            "field options.forces.pact",
        ),
    ],
)
def test_bad_record_files(tmp_path: Path, content: str | bytes, needle: str) -> None:
    path = tmp_path / "game.json"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    with pytest.raises(DataFileError) as caught:
        Record.load(path)
    assert str(path) in str(caught.value) and needle in str(caught.value)


def test_unreadable_paths(tmp_path: Path) -> None:
    for path in (tmp_path, tmp_path / ("x" * 5000), tmp_path / "missing.json"):
        with pytest.raises(DataFileError):
            Record.load(path)
        with pytest.raises(DataFileError):
            load_yaml(path)


def test_bad_yaml_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1, 2\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="bad.yaml: line 2 is not valid YAML"):
        load_yaml(bad)
    deep = tmp_path / "deep.yaml"  # libyaml reads deep nesting without recursion: data or error
    deep.write_text("[" * 20_000 + "]" * 20_000, encoding="utf-8")
    try:
        data = load_yaml(deep)
    except DataFileError as exc:
        assert "deep.yaml" in str(exc)
    else:
        assert isinstance(data, list)
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("nom: caf\xe9".encode("latin-1"))
    with pytest.raises(DataFileError, match="not UTF-8"):
        load_yaml(latin)


def test_replay_of_a_bad_record_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**GOOD, "seed": "seven"}), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "umpire", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "field seed" in lines[0]
