"""Every example a command's ``--help`` shows runs as shown (exit 0), from the checkout.

Examples with placeholders (``FILE``, ``[--z 3]``) are templates, not commands, and are
left out; a trailing ``# comment`` or a description after two spaces is not part of it."""

from __future__ import annotations

import argparse
import re
import shlex

import pytest

from skirmish.cli import build_parser, main

from conftest import ROOT


def _examples() -> list[str]:
    found: list[str] = []

    def walk(parser: argparse.ArgumentParser) -> None:
        for line in f"{parser.description or ''}\n{parser.epilog or ''}".splitlines():
            text = line.strip()
            if text.startswith("skirmish "):
                text = re.split(r"\s+#|\s{2,}", text)[0]
                if "FILE" not in text and "[" not in text:
                    found.append(text)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)
    walk(build_parser())
    return found


EXAMPLES = _examples()


def test_the_help_texts_hold_examples():
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_help_example_runs_as_shown(example, capsys, monkeypatch):
    # (`attack … first-steps akane brute --modifier -2` was refused: a wall stands between)
    monkeypatch.chdir(ROOT)
    code = main(shlex.split(example)[1:])
    out, err = capsys.readouterr()
    assert code == 0, err
