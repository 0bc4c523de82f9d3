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


def test_e_roll_reroll_the_text_shows_each_rerolled_die_after_the_face_it_replaced():
    """(the text showed only the new face: a rerolled 14 that came up 4 read "4✓")"""
    t = loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [24, 24]\n" + model("r1", "red", (5, 5), 0, attrs=WEAK)
              + model("b1", "blue", (5 + TOUCH, 5), 180, attrs=WEAK))
    shown = 0
    for seed in range(4):
        red = Driven(["r1"] * 3, moves={"r1": Move("idle")},
                     actions={"r1": lambda opts: next(o for o in opts if o.kind == "attack")})
        g = EldfallGame(t, parse_settings({"first": "red", "rounds": 1, "reroll": 2}, t),
                        {"red": red, "blue": Driven()}, random.Random(seed))
        for e in g.play().events:
            for x in e.get("result", {}).get("exchanges", []):
                for d in x.get("dice", []):
                    if d.get("rerolled_from") is not None:
                        assert f"{d['rerolled_from']}→{d['face']}" in e["text"], e["text"]
                        shown += 1
    assert shown


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


STRONG = "AGI = 6, SPD = 4, STA = {sta}, MEL = 13, ARM = 0, HP = 3"


def _strong(sta: int) -> str:
    """Two models in base contact whose Swords roll STA dice."""
    return (f"format = 1\n{WEAPONS}\n[table]\nsize = [24, 24]\n"
            + model("r1", "red", (5, 5), 0, attrs=STRONG.format(sta=sta))
            + model("b1", "blue", (5 + TOUCH, 5), 180, attrs=STRONG.format(sta=sta)))


def test_e_roll_reroll_a_setting_some_attack_could_not_be_rolled_under_is_refused_at_load():
    # a Reactive model's REROLL=k choice weighs every answer of the Active dice: 8 dice
    # under reroll = 8 weigh up to 93 M rolls, and the roll was refused mid-game
    t = loads(_strong(8))
    with pytest.raises(ScenarioError, match=r"\[game\]: reroll = 8: r1's Sword rolls 8 dice.*"
                                            r"up to 93,243,171 rolls \(at most 1,000,000\); use reroll = 4 or less"):
        parse_settings({"reroll": 8}, t)
    assert parse_settings({"reroll": 4}, t).reroll == 4  # (the worst attributes: 371,931 rolls)
    from skirmish.rules.eldfall.rerolls import MAX_LOOKAHEAD_ROLLS, most_lookahead_rolls
    from skirmish.rules.eldfall.exchange import parse_side, Exchange
    from skirmish.rules.eldfall.odds import _chooser
    # the bound holds for the real chooser at the strongest attribute
    real = _chooser(Exchange(parse_side("ATT=99,STK=4,REROLL=4,PW=9"), parse_side("ATT=99,REROLL=4,PW=9")))
    assert real.lookahead_rolls() <= most_lookahead_rolls(4, 4) <= MAX_LOOKAHEAD_ROLLS


def test_e_roll_reroll_greedy_weighs_an_exchange_too_big_to_enumerate_as_reroll_all():
    from skirmish.game.eldfall.policies import EXACT_REROLL_ROLLS, _expected
    from skirmish.game.policy import load_policy
    from skirmish.rules.eldfall.exchange import Exchange, Side
    from skirmish.rules.eldfall.odds import chosen_rolls, exchange_odds

    small = Exchange(Side(att=13, stk=1, pw=10, hp=3, reroll_dice=1), Side(att=12, pw=9, hp=2, reroll_dice=1))
    big = Exchange(Side(att=13, stk=4, pw=10, hp=3, reroll_dice=1), Side(att=12, pw=9, hp=2, reroll_dice=1))
    assert chosen_rolls(small) <= EXACT_REROLL_ROLLS < chosen_rolls(big)
    o = exchange_odds(small)
    assert _expected(small) == (o.active.expected_wounds, o.reactive.expected_wounds)  # exact
    every = exchange_odds(Exchange(Side(att=13, stk=4, pw=10, hp=3, reroll=True), Side(att=12, pw=9, hp=2, reroll=True)))
    assert _expected(big) == (every.active.expected_wounds, every.reactive.expected_wounds)
    # a greedy game with Swords of 4 dice under reroll = 1 (the exact odds of 4 dice against 1 are refused)
    t = loads(_strong(4))
    g = EldfallGame(t, parse_settings({"first": "red", "rounds": 2, "reroll": 1}, t),
                    {s: load_policy("greedy", "eldfall") for s in ("red", "blue")}, random.Random(1))
    record = g.play()
    assert any(e["action"]["kind"] == "attack" for e in record.events if e["role"] == "activation")
