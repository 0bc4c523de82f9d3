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
                                       (f"{__name__}:Nope", "no attribute 'Nope'")])
def test_bad_policy_specs(spec, msg):
    with pytest.raises(PolicyError, match=msg):
        load_policy(spec, "eldfall")


def test_policy_specs_per_side():
    got = parse_policy_specs("red=random", ["red", "blue"], "eldfall")
    assert set(got) == {"red", "blue"}
    with pytest.raises(PolicyError, match="no side 'green'"):
        parse_policy_specs("green=random", ["red", "blue"], "eldfall")
