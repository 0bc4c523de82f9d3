"""Shared fixtures: paths of the bundled scenarios and a small table builder."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


@pytest.fixture
def scenarios_dir() -> Path:
    return SCENARIOS


def table_text(models: str = "", scenery: str = "", size: str = "[24, 24]", extra: str = "") -> str:
    """A scenario file's text with the given [[models]] and [[scenery]] blocks."""
    return f"format = 1\n{extra}\n[table]\nsize = {size}\n{scenery}\n{models}\n"
