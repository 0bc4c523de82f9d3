"""The README is executable: its doctests pass, its shell lines run, and CI runs its test command."""

from __future__ import annotations

import doctest
import os
import re
import shlex

import pytest

from skirmish.cli import main

from conftest import ROOT

README = (ROOT / "README.md").read_text()


def test_readme_doctests(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0


SHELL_LINES = re.findall(r"^\$ (skirmish .+)$", README, flags=re.M)


@pytest.mark.parametrize("line", SHELL_LINES)
def test_readme_shell_lines_run(line, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(line)[1:]
    argv = [a if not a.endswith(".png") else str(tmp_path / a) for a in argv]
    assert main(argv) == 0
    assert capsys.readouterr().out


def test_ci_runs_the_readme_test_command():
    blocks = re.findall(r"```console\n(pip install [^\n]+)\n```", README)
    assert len(blocks) == 2, "the README has exactly two set-up commands"
    test_command = next(b for b in blocks if "pytest" in b)
    ci = (ROOT / ".ci" / "run").read_text()
    assert test_command in ci.splitlines()
    assert os.access(ROOT / ".ci" / "run", os.X_OK)
