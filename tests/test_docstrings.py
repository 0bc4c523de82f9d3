"""Examples in the package's docstrings run and pass."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import skirmish

from conftest import ROOT

MODULES = [m.name for m in pkgutil.walk_packages(skirmish.__path__, "skirmish.")
           if not m.name.startswith("skirmish.viewer") and not m.name.endswith("__main__")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
