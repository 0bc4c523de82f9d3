"""The Policy protocol and registry shared by every game."""

from __future__ import annotations

import random

import pytest

from skirmish.game import Decision, Policy, RandomPolicy, load_policy, parse_policy_specs
from skirmish.game.policy import PolicyError


class FirstOption:
    def choose(self, game, decision, rng):
        return decision.options[0]


def test_random_policy_picks_a_legal_option_reproducibly():
    d = Decision("action", "a", ("x", "y", "z"))
    picks = [RandomPolicy().choose(None, d, random.Random(5)) for _ in range(3)]
    assert picks[0] in d.options and len(set(picks)) == 1
    assert isinstance(RandomPolicy(), Policy)


def test_random_policy_with_no_options_is_a_clear_error():
    with pytest.raises(PolicyError, match="no options"):
        RandomPolicy().choose(None, Decision("move", "a", ()), random.Random(1))


def test_user_policy_by_module_and_class():
    p = load_policy(f"{__name__}:FirstOption", "eldfall")
    assert p.choose(None, Decision("x", None, (3, 4)), random.Random(0)) == 3


@pytest.mark.parametrize("spec, msg", [("nosuch", "unknown policy 'nosuch'"), ("randm", "did you mean 'random'"),
                                       ("no.such.module:X", "cannot import"),
                                       (f"{__name__}:Nope", "no attribute 'Nope'"),
                                       ("math:pi", "pi is a float, not a class"), (":X", "package.module:ClassName"),
                                       ("os:", "package.module:ClassName"),
                                       ("argparse:Action", r"Action\(\) cannot be made without arguments"),
                                       ("collections:OrderedDict", "no choose")])
def test_bad_policy_specs(spec, msg):
    with pytest.raises(PolicyError, match=msg):
        load_policy(spec, "eldfall")


@pytest.mark.parametrize("text, msg", [("def f(:\n", r"does not compile: .*line 1"),
                                       ("raise RuntimeError('boom')\n", "failed: RuntimeError: boom")])
def test_a_plugin_module_that_fails_to_import_is_named_in_one_line(tmp_path, monkeypatch, text, msg):
    (tmp_path / "broken_plugin_mod.py").write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PolicyError, match=msg):
        load_policy("broken_plugin_mod:P", "eldfall")


def test_policy_specs_per_side():
    got = parse_policy_specs("red=random", ["red", "blue"], "eldfall")
    assert set(got) == {"red", "blue"}
    with pytest.raises(PolicyError, match="no side 'green'"):
        parse_policy_specs("green=random", ["red", "blue"], "eldfall")
