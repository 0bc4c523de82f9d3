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


def test_a_bare_policy_name_is_for_the_sides_not_named():
    # (a bare name after red=greedy used to reset red too; a side named twice took the last silently)
    name = lambda p: type(p).__name__  # noqa: E731
    got = parse_policy_specs("red=greedy,random", ["red", "blue"], "eldfall")
    assert (name(got["red"]), name(got["blue"])) == ("GreedyPolicy", "LazyRandomPolicy")
    got = parse_policy_specs("greedy,blue=random", ["red", "blue"], "eldfall")
    assert (name(got["red"]), name(got["blue"])) == ("GreedyPolicy", "LazyRandomPolicy")
    with pytest.raises(PolicyError, match="side 'red' is given twice"):
        parse_policy_specs("red=greedy,red=random", ["red", "blue"], "eldfall")
    with pytest.raises(PolicyError, match="two policies for every side"):
        parse_policy_specs("greedy,random", ["red", "blue"], "eldfall")


def test_built_in_policies_are_found_whatever_was_imported_before():
    """(``load_policy("greedy", game)`` failed unless the game's package had been imported)"""
    import subprocess
    import sys

    code = ("from skirmish.game.policy import load_policy, policy_names\n"
            "for g in ('eldfall', 'partyhard', 'chaosparty', 'spiritisland', 'implant'):\n"
            "    print(g, ','.join(policy_names(g)))\n"
            "print(type(load_policy('greedy', 'eldfall')).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:6] == ["eldfall greedy,random,script", "partyhard greedy,random", "chaosparty greedy,random",
                       "spiritisland greedy,random", "implant bold,cautious,random", "GreedyPolicy"]


PLUGIN_THAT_FAILS = """\
class Lazy:
    lazy = True

    def choose(self, game, decision, rng):
        return helper(decision)


def helper(decision):
    return {}[decision.kind]  # a plain bug of the policy's own
"""


def test_a_plugged_policy_that_raises_is_named_with_its_decision_and_its_own_frames(tmp_path, monkeypatch):
    # (a user's policy that raised showed the engine's whole traceback, and exited 1)
    import pickle

    from skirmish.game.policy import PolicyFailed

    (tmp_path / "failing_plugin_mod.py").write_text(PLUGIN_THAT_FAILS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    p = load_policy("failing_plugin_mod:Lazy", "eldfall")
    assert p.lazy is True  # the policy's own attributes read through
    with pytest.raises(PolicyFailed) as info:
        p.choose(None, Decision("move", "r1", ()), random.Random(0))
    err = info.value
    assert str(err) == "policy 'failing_plugin_mod:Lazy' failed on the 'move' decision for r1: KeyError: 'move'"
    assert isinstance(err.__cause__, KeyError) and err.kind == "policy_failed"
    tb = err.policy_traceback
    assert "failing_plugin_mod.py\", line 5, in choose" in tb and "line 9, in helper" in tb
    assert tb.endswith("KeyError: 'move'\n") and "skirmish" not in tb  # the engine's frames are left out
    assert pickle.loads(pickle.dumps(err)).policy_traceback == tb  # (it crosses to a worker's parent)


def test_a_policy_that_draws_numbers_never_moves_the_dice():
    """Every game hands its policies their own generator (policy_rng): the same choices
    give the same game whether a policy draws numbers or not (Chaos Party and Party Hard
    handed over the dice themselves)."""
    from skirmish.game.chaosparty import play_game as play_chaos
    from skirmish.game.partyhard import play_game as play_party
    from skirmish.scenario.chaos import load_duel
    from skirmish.scenario.load import load

    from conftest import SCENARIOS, LastOption, LastOptionPeeking

    duel = load_duel(str(SCENARIOS / "chaosparty" / "first-duel.toml"))
    grid = load(str(SCENARIOS / "party-hard-maze.toml"))
    for play, board, ids in ((play_chaos, duel, [p.id for p in duel.players]), (play_party, grid, grid.players)):
        calm = play(board, {p: LastOption() for p in ids}, random.Random(3))
        peek = play(board, {p: (LastOptionPeeking() if p == ids[0] else LastOption()) for p in ids}, random.Random(3))
        assert calm.events == peek.events and len(calm.events) > 5


def test_ask_checks_a_closed_decisions_answer_and_leaves_an_open_ones_to_the_game():
    """The one check every game's asking goes through (it was written six times, with
    six messages)."""
    from skirmish.errors import IllegalActionError
    from skirmish.game.policy import ask

    class Says:
        def __init__(self, answer):
            self.answer = answer

        def choose(self, game, decision, rng):
            return self.answer

    closed = Decision("loot", "red-1", ("sword", "shield"))
    assert ask(Says("shield"), None, closed, random.Random(0)) == "shield"
    with pytest.raises(IllegalActionError, match=r"red-1's policy answered 'axe' to loot: not one of its 2 legal "
                                                 r"options \('sword', 'shield'\)"):
        ask(Says("axe"), None, closed, random.Random(0))
    with pytest.raises(IllegalActionError, match="^player red's policy"):
        ask(Says("axe"), None, closed, random.Random(0), who="player red")
    assert ask(Says((3.5, 2.0)), None, Decision("move", "m", ((1.0, 1.0),), open=True), random.Random(0)) == (3.5, 2.0)
