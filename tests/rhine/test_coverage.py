"""Every rule id of the catalogue is named by at least one test of this folder: a test names
the ids it checks in its docstring (or, for a parametrised family, its own name). An id no
test names fails here, listing the ids."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from umpire.rulesets.rhine.model import rule_catalog

HERE = Path(__file__).parent
ID = re.compile(r"rhine(?:\.[a-z0-9_]+)+")


def named_by_tests() -> dict[str, list[str]]:
    """rule id -> the tests whose docstrings name it."""
    out: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                doc = ast.get_docstring(node) or ""
                for rid in ID.findall(doc):
                    out.setdefault(rid.rstrip("."), []).append(f"{path.name}::{node.name}")
    return out


def test_every_rule_id_has_a_test() -> None:
    catalog = set(rule_catalog())
    named = named_by_tests()
    missing = sorted(catalog - set(named))
    assert not missing, f"rule ids no test names: {missing}"


def test_tests_name_only_real_rule_ids() -> None:
    unknown = sorted(set(named_by_tests()) - set(rule_catalog()))
    assert not unknown, f"tests name ids the catalogue does not have: {unknown}"
