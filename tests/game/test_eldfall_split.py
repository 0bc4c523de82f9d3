"""Splitting an Active Strike among several targets in a game (E-ACTION-ATTACK, E-STK-SPLIT):
one exchange per target, each with its share of the dice."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from skirmish.game.eldfall import Action, EldfallGame, Move, parse_settings
from skirmish.game.eldfall.choices import strike_splits
from skirmish.game.eldfall.replay import ReplayError, parse_log, replay
from skirmish.viewer.replay_view import step_lines
from skirmish.scenario.load import loads

from eldfall_fixtures import WEAPONS, model
from eldfall_policies import Driven

# STA 3: the sword strikes three times (STK = "STA")
STRONG = "AGI = 6, SPD = 4, STA = 3, MEL = 12, ACC = 11, ARM = 1, HP = 2"


def _splits_by_brute_force(targets: list[str], strike: int) -> set[tuple[tuple[str, int], ...]]:
    """Every assignment of each die to a target, kept when two or more targets get dice."""
    out = set()
    for owners in itertools.product(range(len(targets)), repeat=strike):
        counts = [owners.count(i) for i in range(len(targets))]
        if sum(c > 0 for c in counts) >= 2:
            out.add(tuple((t, c) for t, c in zip(targets, counts) if c))
    return out


@pytest.mark.parametrize("n,strike", [(2, 2), (3, 2), (2, 3), (3, 3), (4, 4), (1, 3), (3, 1)])
def test_e_stk_split_offers_every_split_once(n, strike):
    targets = [f"t{i}" for i in range(n)]
    got = strike_splits(targets, strike, most=10_000)
    assert len(got) == len(set(got))
    assert set(got) == _splits_by_brute_force(targets, strike)
    assert len(strike_splits(targets * 3, 4, most=5)) <= 5


def _table(models: str):
    return loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [14, 14]\n{models}")


def test_e_stk_split_one_exchange_per_target_with_its_dice():
    """r1 (Strike 3) in contact with b1 and b2 splits 2/1: two exchanges, b1 with 2 dice
    and b2 with 1; the log names the split."""
    t = _table(model("r1", "red", (7, 7), 0, attrs=STRONG) + model("b1", "blue", (8.26, 7), 180)
               + model("b2", "blue", (7, 8.26), 270))
    split = (("b1", 2), ("b2", 1))
    g = EldfallGame(t, parse_settings({"first": "red", "rounds": 1}, t),
                    {"red": Driven(["r1"], moves={"r1": Move("idle")}, actions={"r1": Action("attack", "b1", "Sword",
                                                                                                split)}),
                     "blue": Driven()}, random.Random(2))
    opts = g.action_options("r1", "walk")
    assert Action("attack", "b1", "Sword", split) in opts and Action("attack", "b2", "Sword", (("b2", 1), ("b1", 2))) \
        not in opts  # one order per split: the targets' order
    assert {o.split for o in opts if o.split} == {(("b1", 1), ("b2", 2)), (("b1", 2), ("b2", 1))}
    record = g.play()
    ev = next(e for e in record.events if e["role"] == "activation")
    assert ev["action"]["split"] == [["b1", 2], ["b2", 1]]
    active = [e for e in ev["result"]["exchanges"] if e["role"] == "active"]
    assert [(e["target"], len(e["dice"])) for e in active] == [("b1", 2), ("b2", 1)]
    # the logged split replays and reads in the step's text (skirmish view --replay)
    rp = replay(t, parse_log("\n".join(json.dumps(e) for e in record.events), "game.jsonl"))
    k = next(k for k in range(1, len(rp) + 1) if rp.step(k).role == "activation")
    assert rp.step(k).action.split == split
    assert "action: attack → b1 (2)/b2 (1) with Sword" in step_lines(rp, k)
    with pytest.raises(ReplayError, match="action.split"):
        parse_log(json.dumps({**ev, "action": {**ev["action"], "split": [["b1", "two"]]}}), "bad.jsonl")


def test_e_stk_split_needs_strike_two_and_two_targets_in_reach():
    one = _table(model("r1", "red", (7, 7), 0, attrs=STRONG) + model("b1", "blue", (8.26, 7), 180)
                 + model("b2", "blue", (12, 12), 270))
    weak = _table(model("r1", "red", (7, 7), 0, attrs=STRONG.replace("STA = 3", "STA = 1"))
                  + model("b1", "blue", (8.26, 7), 180) + model("b2", "blue", (7, 8.26), 270))
    for t in (one, weak):
        g = EldfallGame(t, parse_settings({"first": "red", "rounds": 1}, t), {"red": Driven(), "blue": Driven()},
                        random.Random(0))
        assert not any(o.split for o in g.action_options("r1", "walk"))
