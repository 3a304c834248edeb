"""Data files: catalogue, tables, map geometry and one-line errors for bad scenario files."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from umpire.core.errors import DataFileError
from umpire.rulesets.rhine.model import (
    DATA,
    load_tables,
    load_world,
    rule_catalog,
    rules_markdown,
    world_for,
)

SPEC = Path("/work/shared/rules/rhine-operational.md")
ROOT = Path(__file__).resolve().parents[2]


def test_catalogue_has_every_rule_id_of_the_spec() -> None:
    cat = rule_catalog()
    if SPEC.exists():
        import re

        ids = set(re.findall(r"\*\*(rhine\.[a-z0-9_.]+)\*\*", SPEC.read_text()))
        ids |= set(re.findall(r"^\| (rhine\.drm\.[a-z]+) \|", SPEC.read_text(), re.M))
        missing = sorted(ids - set(cat))
        assert not missing, missing
    assert all(e.provenance in ("published", "reconstructed", "house") for e in cat.values())
    assert len(cat) >= 85


def test_docs_are_generated_from_the_catalogue() -> None:
    assert (ROOT / "docs/rules/rhine.md").read_text() == rules_markdown()


def test_map_geometry_matches_the_spec_vectors() -> None:
    w = world_for("autobahn-gap")
    assert set(w.neighbours["0605"]) == {"0505", "0506", "0604", "0606", "0705", "0706"}
    assert set(w.neighbours["0204"]) == {"0104", "0105", "0203", "0205", "0304", "0305"}
    assert set(w.neighbours["0101"]) == {"0102", "0201"}
    assert w.distance("0101", "1210") == 15
    assert w.distance("0204", "0605") == 4
    assert w.distance("1105", "0205") == 9
    missing = set(w.ids) - w.in_range["0605"]
    assert missing == {"0101", "1101", "1201", "1209", "0110", "0210", "1010", "1110", "1210"}


def test_scenario_content() -> None:
    w = world_for("autobahn-gap")
    assert w.terrain["0204"] == "city" and w.terrain["0101"] == "rough"
    assert w.terrain["1210"] == "rough" and w.terrain["0605"] == "city"
    assert len([k for k, v in w.rivers.items() if v == "minor_river"]) == 19
    assert frozenset(("0605", "0705")) in w.autobahn_edges  # the bridge
    assert w.units["N-HS-W"].defence_only and w.units["N-HS-W"].ma == 0
    assert w.units["P-79-RB"].ma == 9 and w.units["P-79-TR1"].ma == 6


def _broken(tmp_path: Path, change: object) -> Path:
    raw = yaml.safe_load((DATA / "scenarios/autobahn-gap.yaml").read_text())
    change(raw)  # type: ignore[operator]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda r: r["units"][0].update(at="1311"), "units.0.at", "off the"),
        (
            lambda r: r["map"]["terrain"].__setitem__(0, "R R X . . F F . R R F F"),
            "map.terrain.0",
            "unknown terrain",
        ),
        (lambda r: r["units"][4].update(at="1105"), "units.4.at", "over-stacked"),
        (lambda r: r["units"][0].update(division="99 GTD"), "units.0.division", "unknown division"),
        (
            lambda r: r["map"]["minor_rivers"].append(["0101", "0505"]),
            "map.minor_rivers.19",
            "not adjacent",
        ),
        (
            lambda r: r["units"][8]["enter"]["hexes"].append("1299"),
            "units.8.enter.hexes.10",
            "off the 12x10 map",
        ),
        (lambda r: r["units"][0].update(side="nato"), "units.0.division", "79 GTD is pact"),
        (lambda r: r["cs"][0].update(nation="PL"), "cs.0.nation", "no pact unit is PL"),
        (
            lambda r: r["victory"]["city_vp"].update(Nowhere=3),
            "victory.city_vp.Nowhere",
            "unknown city",
        ),
    ],
)
def test_bad_scenario_is_one_line_naming_file_and_field(
    tmp_path: Path, change: object, field: str, words: str
) -> None:
    path = _broken(tmp_path, change)
    with pytest.raises(DataFileError) as err:
        load_world(path)
    msg = str(err.value)
    assert "\n" not in msg and str(path) in msg and f"field {field}" in msg and words in msg


def test_house_rules_replace_tables_without_code() -> None:
    row = ["DE"] * 8
    t = load_tables({"crt": {"rows": {0: row}}, "air": {"drm_cap": 2}})
    assert t.crt.rows[0] == row and t.air.drm_cap == 2
    with pytest.raises(DataFileError, match="crt.rows.3"):
        load_tables({"crt": {"rows": {3: ["DE"]}}}, where="mine.yaml")
