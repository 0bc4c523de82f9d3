"""Every example a command's ``--help`` shows runs as shown (exit 0), from the checkout.

An example is a line that starts ``skirmish `` (or ``example: skirmish ``); a trailing
``# comment`` or a description after two spaces is not part of it. A help text that
names a file once (``M = scenarios/mill-ambush.toml``) has it put back in; optional
parts in brackets are left out."""

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
        help_text = f"{parser.description or ''}\n{parser.epilog or ''}"
        names = dict(re.findall(r"\b([A-Z]) = (scenarios/\S+?\.toml)", help_text))
        for line in help_text.splitlines():
            text = re.sub(r"^example: ", "", line.strip())
            if text.startswith("skirmish "):
                words = re.split(r"\s+#|\s{2,}", text)[0].split(" ")
                text = re.sub(r" \[[^]]*\]", "", " ".join(names.get(w, w) for w in words))
                assert "FILE" not in text, f"an example with a placeholder: {line.strip()!r}"
                found.append(text)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)
    walk(build_parser())
    return found


EXAMPLES = _examples()


def test_the_help_texts_hold_examples():
    assert len(EXAMPLES) >= 30 and any(e.startswith("skirmish template ") for e in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_help_example_runs_as_shown(example, capsys, monkeypatch):
    # (`attack … first-steps akane brute --modifier -2` was refused: a wall stands between)
    monkeypatch.chdir(ROOT)
    code = main(shlex.split(example)[1:])
    out, err = capsys.readouterr()
    assert code == 0, err
