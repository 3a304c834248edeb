"""The masked-PPO example runs end to end with tiny settings and prints its evaluation.

Whether the trained agent beats the random player is measured by running the example itself
for minutes (docs/rl.md gives the command and numbers); this only checks the script works."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_ppo_portable.py"


def _load_example() -> object:
    spec = importlib.util.spec_from_file_location("train_ppo_portable", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_example_trains_briefly_and_prints_wilson_intervals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    example = _load_example()
    example.main(  # type: ignore[attr-defined]
        ["--minutes", "0.5", "--max-steps", "64", "--n-steps", "32", "--pairs", "2"]
    )
    out = capsys.readouterr()
    assert "MaskablePPO trained 64 steps" in out.out
    assert "evaluation: 2 seeds x 2 sides = 4 games against the random player" in out.out
    rows = re.findall(
        r"^  (masked PPO \(trained\)|random player \(same seat\)) +won +(\d+)/4 .*"
        r"95% Wilson \[(\d+\.\d)%, (\d+\.\d)%\]$",
        out.out,
        flags=re.M,
    )
    assert [name for name, *_ in rows] == ["masked PPO (trained)", "random player (same seat)"]
    for _, wins, low, high in rows:
        assert 0 <= int(wins) <= 4 and float(low) <= float(high)
    assert "training [" in out.err  # the progress bar


def test_wilson_interval_matches_the_formula() -> None:
    example = _load_example()
    # Wilson (1927) score interval, z = 1.96: 5 of 10 -> [0.237, 0.763]; 0 of 10 -> upper
    # bound z^2 / (n + z^2) = 0.2775
    low, high = example.wilson(5, 10)  # type: ignore[attr-defined]
    assert abs(low - 0.2366) < 5e-4 and abs(high - 0.7634) < 5e-4
    low, high = example.wilson(0, 10)  # type: ignore[attr-defined]
    assert low == 0.0 and abs(high - 0.2775) < 5e-4
