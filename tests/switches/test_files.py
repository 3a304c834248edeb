"""``--rules FILE``: the YAML of ``rule-id: mode`` (wildcards allowed), its one-line errors, the
mode column of ``umpire rules``, battles and simulations that keep and honour the switches, and
the default companion mode asks for (issue 21)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from umpire.core.errors import DataFileError
from umpire.core.ruleset import get_ruleset
from umpire.core.switches import (
    ENFORCE_ALL,
    Mode,
    RuleSwitches,
    effective_mode,
    load_for,
    switches_in,
)


def umpire(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "umpire", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
    )


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# -- the table --------------------------------------------------------------------------------
def test_exact_ids_beat_wildcards_and_the_longest_wildcard_wins() -> None:
    switches = RuleSwitches(
        {"portable.*": "advise", "portable.fire.*": "off", "portable.fire.arc": "enforce"}
    )
    assert switches.mode("portable.fire.arc") is Mode.ENFORCE
    assert switches.mode("portable.fire.line_of_sight") is Mode.OFF
    assert switches.mode("portable.move.stacking") is Mode.ADVISE
    assert switches.mode("rhine.combat.once") is Mode.ENFORCE  # nothing matches: enforced


def test_check_and_allows_under_each_mode() -> None:
    rule = "portable.fire.arc"
    for mode, allowed, advised in (
        ("enforce", False, False),
        ("advise", True, True),
        ("off", True, False),
    ):
        verdict = RuleSwitches({rule: mode}).check(rule, False, "out of arc")
        assert (verdict.allowed, verdict.advice is not None) == (allowed, advised)
        assert RuleSwitches({rule: mode}).check(rule, True).allowed  # a kept rule is kept
    assert not ENFORCE_ALL.allows(rule, False) and ENFORCE_ALL.allows(rule, True)


def test_companion_default_advises_every_switchable_rule() -> None:
    """What companion mode calls: ``RuleSwitches.default_for(mode="advise")``; digital play's
    default enforces everything."""
    advise = RuleSwitches.default_for(mode="advise")
    assert advise.mode("sevendays.close_combat") is Mode.ADVISE
    assert advise.to_option() == {"*": "advise"}
    assert not RuleSwitches.default_for()  # enforce: no table at all
    assert (
        switches_in({"rule_switches": advise.to_option()}).mode("rhine.combat.once") is Mode.ADVISE
    )
    catalog = get_ruleset("portable").capabilities.catalog
    assert catalog is not None
    entries = catalog()
    assert effective_mode(advise, entries["portable.fire.arc"]) == "advise"
    assert effective_mode(advise, entries["portable.turn.sequence"]) == "enforce (fixed)"
    assert effective_mode(advise, entries["portable.fire.range"]) == "enforce (no switch)"


# -- the file ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "portable.fire.arc: sometimes\n",
            "key portable.fire.arc: mode 'sometimes' is not enforce, advise or off",
        ),
        (
            "portable.fire.nothing: off\n",
            "key portable.fire.nothing: no rule portable.fire.nothing in portable's catalogue",
        ),
        (
            "portable.turn.sequence: off\n",
            "key portable.turn.sequence: cannot be set to off: the turn's structure",
        ),
        (
            "portable.fire.range: advise\n",
            "key portable.fire.range: cannot be set to advise: it has no switch yet",
        ),
        ("rhine.*: off\n", "key rhine.*: the pattern matches no rule of portable"),
        (
            "portable.victory.*: off\n",
            "key portable.victory.*: the pattern matches no switchable rule",
        ),
        ("- portable.fire.arc\n", "(a mapping of rule-id: mode)"),
    ],
)
def test_a_bad_file_is_one_line_naming_file_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DataFileError) as err:
        load_for(get_ruleset("portable"), path)
    line = str(err.value)
    assert "\n" not in line and line.startswith(str(path)) and message in line


def test_wildcards_and_fixed_rules(tmp_path: Path) -> None:
    path = write(
        tmp_path, "portable.*: off\nportable.fire.arc: advise\nportable.victory.result: enforce\n"
    )
    switches = load_for(get_ruleset("portable"), path)
    assert switches.mode("portable.fire.arc") is Mode.ADVISE
    assert switches.mode("portable.move.stacking") is Mode.OFF


# -- the command line --------------------------------------------------------------------------
def test_rules_command_shows_the_mode_column(tmp_path: Path) -> None:
    path = write(tmp_path, "portable.fire.*: off\nportable.activation.once: advise\n")
    out = umpire("rules", "portable", "--rules", str(path))
    assert out.returncode == 0, out.stderr
    rows = {line.split("│")[1].strip(): line for line in out.stdout.splitlines() if "│" in line}
    assert "mode" in out.stdout.splitlines()[2] or any("mode" in r for r in rows.values())
    assert rows["portable.fire.arc"].rstrip(" │").endswith("off")
    assert rows["portable.activation.once"].rstrip(" │").endswith("advise")
    assert "enforce (fixed)" in rows["portable.turn.sequence"]
    assert "enforce (no switch)" in rows["portable.fire.range"]
    plain = umpire("rules", "portable")
    assert plain.returncode == 0 and "advise" not in plain.stdout


def test_rules_command_bad_file_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "portable.fire.arc: maybe\n")
    out = umpire("rules", "portable", "--rules", str(path))
    assert out.returncode != 0
    assert "Traceback" not in out.stderr
    assert f"{path}: key portable.fire.arc: mode 'maybe'" in out.stderr


def test_battle_keeps_the_switches_in_its_record_and_replays(tmp_path: Path) -> None:
    path = write(tmp_path, "portable.*: advise\n")
    record = tmp_path / "game.json"
    out = umpire(
        "battle",
        "portable/village-attack",
        "--seed",
        "2",
        "--json",
        "--side",
        "blue=random",
        "--side",
        "red=random",
        "--rules",
        str(path),
        "--record",
        str(record),
    )
    assert out.returncode == 0, out.stderr
    saved = json.loads(record.read_text())
    assert saved["options"]["rule_switches"] == {"portable.*": "advise"}
    again = umpire("replay", str(record))
    assert again.returncode == 0, again.stderr


def test_simulate_honours_the_switches(tmp_path: Path) -> None:
    """Random players under ``portable.*: off`` choose among more actions than under the
    default rules, so the same seeds give other games."""
    path = write(tmp_path, "portable.*: off\n")
    args = [
        "simulate",
        "portable/village-attack",
        "-n",
        "6",
        "--workers",
        "1",
        "--json",
        "--side",
        "blue=random",
        "--side",
        "red=random",
    ]
    plain = umpire(*args)
    switched = umpire(*args, "--rules", str(path))
    assert plain.returncode == 0 and switched.returncode == 0, switched.stderr
    assert json.loads(plain.stdout) != json.loads(switched.stdout)


def test_a_record_with_a_bad_mode_is_one_line(tmp_path: Path) -> None:
    """A record edited by hand with a mode that does not exist is refused in one line when
    replayed, naming the field."""
    record = tmp_path / "game.json"
    out = umpire(
        "battle",
        "portable/village-attack",
        "--seed",
        "1",
        "--json",
        "--quiet",
        "--side",
        "blue=random",
        "--side",
        "red=random",
        "--record",
        str(record),
        "--rules",
        str(write(tmp_path, "portable.fire.arc: off\n")),
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(record.read_text())
    data["options"]["rule_switches"]["portable.fire.arc"] = "sometimes"
    record.write_text(json.dumps(data))
    again = umpire("replay", str(record))
    assert again.returncode != 0 and "Traceback" not in again.stderr
    assert "options field rule_switches.portable.fire.arc: mode 'sometimes'" in again.stderr
