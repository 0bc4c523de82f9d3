"""Shared fixtures: paths of the bundled scenarios and a small table builder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI replays the same examples on every run (a red CI is then a real regression, not a
# new random draw); locally, hypothesis keeps exploring. HYPOTHESIS_PROFILE overrides.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Each xdist worker loads the compiled kernels first, odd workers in the opposite
    order: on a fresh clone (a cold numba cache) two workers compile about half each, not
    all of them both (about 30 s of a CI run); warm, it costs a second."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw"):
        from skirmish.geometry import kernels

        kernels.load(reverse=int(worker[2:]) % 2 == 1)


@pytest.fixture
def scenarios_dir() -> Path:
    return SCENARIOS


def table_text(models: str = "", scenery: str = "", size: str = "[24, 24]", extra: str = "") -> str:
    """A scenario file's text with the given [[models]] and [[scenery]] blocks."""
    return f"format = 1\n{extra}\n[table]\nsize = {size}\n{scenery}\n{models}\n"


def cli_run(capsys, *argv: str) -> tuple[int, str, str]:
    """``skirmish ARGV``: the exit code, stdout and stderr."""
    from skirmish.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli_refused(capsys, *argv: str) -> str:
    """``skirmish ARGV`` refused: exit 2, nothing on stdout, no traceback; the error text."""
    code, out, err = cli_run(capsys, *argv)
    assert code == 2 and out == "" and "Traceback" not in err
    return err


def doc_paths(obj, prefix=()):
    """Every key path into a parsed TOML document (tables and arrays), the root first."""
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from doc_paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from doc_paths(v, prefix + (i,))


def mutated(data, path, value, delete: bool):
    """A deep copy of ``data`` with the entry at ``path`` replaced by ``value`` (or deleted)."""
    import copy

    data = copy.deepcopy(data)
    node = data
    for k in path[:-1]:
        node = node[k]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


class LastOption:
    """A policy that always answers with the last option."""

    def choose(self, game, decision, rng):
        return decision.options[-1]


class LastOptionPeeking(LastOption):
    """The same choices, drawing a number first (as a Monte Carlo policy would): a game
    that hands its policies the dice would roll differently for it."""

    def choose(self, game, decision, rng):
        rng.random()
        return decision.options[-1]
