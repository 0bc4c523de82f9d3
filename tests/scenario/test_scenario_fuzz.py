"""Fuzz: random and mutated scenario files either load or raise ScenarioError — nothing else, no hang."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish import ScenarioError
from skirmish.scenario.load import from_dict, loads

from conftest import SCENARIOS, doc_paths, mutated

BASE = tomllib.loads((SCENARIOS / "mill-ambush.toml").read_text())

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.text(max_size=12), st.sampled_from(["70mm", '3"', "1.5in", "S", "XL", "red", "-1mm"]))
values = st.recursive(scalars.filter(lambda v: v is not None),
                      lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                      max_leaves=12)


PATHS = [p for p in doc_paths(BASE) if p]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), values, st.booleans())
def test_mutated_files_load_or_refuse_cleanly(path, value, delete):
    data = mutated(BASE, path, value, delete)
    try:
        from_dict(data, "fuzz.toml")
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.toml:")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_random_text_loads_or_refuses_cleanly(text):
    try:
        loads(text, "fuzz.toml")
    except ScenarioError:
        pass


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # (a loaded machine)
@given(st.dictionaries(st.sampled_from(["format", "table", "models", "scenery", "mode", "weapons", "profiles", "x"]),
                       values, max_size=6))
def test_random_documents_load_or_refuse_cleanly(data):
    try:
        from_dict(data, "fuzz.toml")
    except ScenarioError:
        pass
