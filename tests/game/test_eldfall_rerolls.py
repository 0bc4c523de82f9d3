"""A game with rerolls (E-ROLL-REROLL): ``[game] reroll = k`` lets every attack and
Dodge reroll up to k of its dice, chosen to maximise its expected Hits."""

from __future__ import annotations

import random

import pytest

from skirmish.errors import ScenarioError
from skirmish.game.eldfall import EldfallGame, Move, parse_settings
from skirmish.scenario.load import loads

from eldfall_fixtures import WEAPONS, model
from eldfall_policies import Driven

TOUCH = 2 * 0.63 + 0.0005
WEAK = "AGI = 6, SPD = 4, STA = 3, MEL = 6, ARM = 0, HP = 30"


def _rolls(reroll: int, seed: int):
    t = loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [24, 24]\n" + model("r1", "red", (5, 5), 0, attrs=WEAK)
              + model("b1", "blue", (5 + TOUCH, 5), 180, attrs=WEAK))
    red = Driven(["r1"] * 3, moves={"r1": Move("idle")},
                 actions={"r1": lambda opts: next(o for o in opts if o.kind == "attack")})
    g = EldfallGame(t, parse_settings({"first": "red", "rounds": 1, "reroll": reroll}, t),
                    {"red": red, "blue": Driven()}, random.Random(seed))
    record = g.play()
    return [x for e in record.events if e["role"] == "activation" for x in e["result"]["exchanges"]]


def test_e_roll_reroll_game_rerolls_up_to_k_dice_and_none_without():
    some = False
    for seed in range(6):
        for ex in _rolls(0, seed):
            assert not any("rerolled_from" in d for d in ex["dice"])
        for ex in _rolls(2, seed):
            rerolled = [d for d in ex["dice"] if "rerolled_from" in d]
            assert len(rerolled) <= 2
            assert all(d["rerolled_from"] > 6 for d in rerolled)  # only failed dice are worth rerolling here
            some |= bool(rerolled)
    assert some


def test_e_roll_reroll_setting_must_be_a_whole_number():
    t = loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [24, 24]\n" + model("r1", "red", (5, 5), 0)
              + model("b1", "blue", (9, 5), 180))
    assert parse_settings({"reroll": 3}, t).reroll == 3 and parse_settings(None, t).reroll == 0
    with pytest.raises(ScenarioError, match="reroll"):
        parse_settings({"reroll": -1}, t)


def test_e_roll_reroll_with_rerolls_only_for_sides_that_roll_and_greedy_weighs_them():
    from skirmish.game.eldfall.attacks import with_rerolls
    from skirmish.game.policy import load_policy
    from skirmish.rules.eldfall.exchange import Exchange, Side
    from skirmish.rules.eldfall.odds import exchange_odds

    ex = Exchange(Side(att=8, stk=2, pw=10), Side(arm=1, hp=2))
    assert with_rerolls(ex, 0) is ex
    got = with_rerolls(ex, 1)
    assert got.active.reroll_dice == 1 and got.reactive.reroll_dice == 0
    dodging = with_rerolls(Exchange(Side(att=8, pw=10), Side(arm=1, hp=2, dodge=6)), 2)
    assert dodging.reactive.reroll_dice == 2
    assert exchange_odds(got).active.expected_wounds > exchange_odds(ex).active.expected_wounds
    t = loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [24, 24]\n" + model("r1", "red", (5, 5), 0, attrs=WEAK)
              + model("b1", "blue", (9, 5), 180, attrs=WEAK))
    g = EldfallGame(t, parse_settings({"first": "red", "rounds": 1, "reroll": 1}, t),
                    {s: load_policy("greedy", "eldfall") for s in ("red", "blue")}, random.Random(1))
    assert g.play().summary["rounds"] == 1
