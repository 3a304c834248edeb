"""Every rule the code cites is in the catalogue, and docs/rules/sevendays.md is current."""

from __future__ import annotations

import re
from pathlib import Path

from umpire.rulesets.sevendays.config import rule_catalog, rules_markdown

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src" / "umpire"


def test_every_rule_id_in_code_is_catalogued() -> None:
    catalog = rule_catalog()
    cited: set[str] = set()
    for path in SRC.rglob("*.py"):
        cited |= set(re.findall(r'"(sevendays(?:\.[a-z0-9_]+){2,})"', path.read_text()))
    missing = sorted(cited - set(catalog))
    assert not missing, f"rule ids used in code but not in data/rules.yaml: {missing}"


def test_docs_rules_file_is_generated_from_catalogue() -> None:
    doc = (REPO / "docs" / "rules" / "sevendays.md").read_text(encoding="utf-8")
    assert doc == rules_markdown(), (
        "regenerate: umpire rules sevendays --markdown > docs/rules/sevendays.md"
    )


def test_every_house_rule_has_overridable_numbers_documented() -> None:
    house = [e for e in rule_catalog().values() if e.provenance == "house"]
    assert house, "the catalogue should list the house rules"
    text = (SRC / "rulesets" / "sevendays" / "data" / "house_rules.yaml").read_text()
    for rule in (
        "sevendays.hit.damage",
        "sevendays.hit.no_penetration",
        "sevendays.reaction.tokens_markers",
        "sevendays.morale.battlegroup_check",
        "sevendays.los.obscured",
    ):
        assert rule in text


def test_every_catalogued_rule_is_named_by_a_test() -> None:
    """Each rule id appears in at least one test (a ``# rules:`` line or the test's own code)."""
    from umpire.rulesets.sevendays.config import rule_catalog

    tests = Path(__file__).resolve().parents[1]
    text = "\n".join(p.read_text(encoding="utf-8") for p in tests.rglob("*.py"))
    untested = [rule for rule in rule_catalog() if rule not in text]
    assert not untested, f"rules without a test: {untested}"
