"""docs/movement.md is executable: its Python examples pass and its console examples print
what the page shows."""

from __future__ import annotations

import doctest
import re
import shlex

import pytest

from skirmish.cli import main

from conftest import ROOT

PAGE = ROOT / "docs" / "movement.md"
TEXT = PAGE.read_text()


def console_examples() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for every `$ skirmish ...` line in console blocks."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", TEXT, flags=re.S):
        lines = block.rstrip("\n").split("\n")
        i = 0
        while i < len(lines):
            if lines[i].startswith("$ "):
                cmd, expected = lines[i][2:], []
                i += 1
                while i < len(lines) and not lines[i].startswith("$ "):
                    expected.append(lines[i])
                    i += 1
                out.append((cmd, expected))
            else:
                i += 1
    return out


def test_movement_page_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


@pytest.mark.parametrize("cmd, expected", console_examples(), ids=lambda v: v if isinstance(v, str) else "")
def test_movement_page_console_examples(cmd, expected, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(cmd)
    assert argv[0] == "skirmish"
    assert main(argv[1:]) == 0
    out = capsys.readouterr().out
    if expected:
        assert out.rstrip("\n").split("\n") == expected
