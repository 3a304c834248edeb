"""The RL adapters' tests: the frameworks must be installed (``pip install ".[rl]"``); the
``slow`` ones (OpenSpiel's random simulation on the bigger rulesets) run only with
``pytest -m slow tests/rl`` or ``UMPIRE_SLOW=1``."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a check that takes more than ~30 s")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("UMPIRE_SLOW") or "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow or UMPIRE_SLOW=1")
    for item in items:
        if "slow" in item.keywords and item.path.is_relative_to(os.path.dirname(__file__)):
            item.add_marker(skip)
