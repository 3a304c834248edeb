"""Every rule the code cites is catalogued, docs/rules/portable.md is current, and every
catalogued rule is exercised by a test (its id appears in tests/portable or tests/geometry)."""

from __future__ import annotations

import re
from pathlib import Path

from umpire.rulesets.portable.config import rule_catalog, rules_markdown

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src" / "umpire"


def test_every_rule_id_in_code_is_catalogued() -> None:
    cited: set[str] = set()
    for path in SRC.rglob("*.py"):
        cited |= set(re.findall(r'"(portable(?:\.[a-z0-9_]+){2,})"', path.read_text()))
    missing = sorted(cited - set(rule_catalog()))
    assert not missing, f"rule ids used in code but not in data/rules.yaml: {missing}"


def test_docs_rules_file_is_generated_from_catalogue() -> None:
    doc = (REPO / "docs" / "rules" / "portable.md").read_text(encoding="utf-8")
    assert doc == rules_markdown(), (
        "regenerate: umpire rules portable --markdown > docs/rules/portable.md"
    )


def test_every_rule_has_a_test() -> None:
    text = ""
    for folder in (REPO / "tests" / "portable", REPO / "tests" / "geometry"):
        for path in folder.glob("test_*.py"):
            text += path.read_text(encoding="utf-8")
    untested = sorted(rule for rule in rule_catalog() if rule not in text)
    assert not untested, f"rules without a test naming them: {untested}"


def test_house_rule_numbers_live_in_house_rules_yaml() -> None:
    text = (SRC / "rulesets" / "portable" / "data" / "house_rules.yaml").read_text()
    for entry in rule_catalog().values():
        if entry.provenance == "house" and entry.id.startswith(
            ("portable.initiative", "portable.move.stack", "portable.fire.or_")
        ):
            assert entry.id in text
