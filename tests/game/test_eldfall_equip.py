"""Equip limits (E-ACTION-OTHER): one item of each category equipped at a time, one
Equip per Activation or Reaction."""

from __future__ import annotations

import random

import pytest

from skirmish.game.eldfall import Action, EldfallGame, IllegalChoice, Move, parse_settings
from skirmish.game.eldfall.loop import _Sequence
from skirmish.scenario.load import loads

from eldfall_fixtures import WEAPONS, model
from eldfall_policies import Driven

ATTRS = "AGI = 6, SPD = 4, STA = 3, MEL = 12, ACC = 11, ARM = 1, HP = 9"
TOUCH = 2 * 0.63 + 0.0005


def _game(red, blue=None):
    t = loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [24, 24]\n"
              + model("r1", "red", (5, 5), 0, '["bow", "sword"]', attrs=ATTRS)
              + model("b1", "blue", (5 + TOUCH, 5), 180, '["sword"]', attrs=ATTRS))
    return EldfallGame(t, parse_settings({"first": "red", "rounds": 1}, t),
                       {"red": red, "blue": blue or Driven()}, random.Random(4))


def test_e_action_other_equip_the_first_weapon_listed_then_switch_when_used():
    red = Driven(["r1", "r1", "r1"], moves={"r1": Move("idle")},
                 actions={"r1": lambda opts: next(o for o in opts if o.weapon == "Sword")})
    g = _game(red)
    assert g.state.unit("r1").equipped == "Bow"
    record = g.play()
    acts = [e for e in record.events if e["role"] == "activation" and e["model"] == "r1"]
    assert len(acts) == 3
    assert acts[0]["equip"] == {"unequip": "Bow", "equip": "Sword"}
    assert acts[1]["equip"] is None and acts[2]["equip"] is None  # already in hand
    assert g.state.unit("r1").equipped == "Sword"


def test_e_action_other_one_equip_per_activation():
    g = _game(Driven())
    g._upkeep()
    g.state = g.state.replace(round=1, turn=1, active="red")
    mr = g.apply_move("r1", Move("idle"))
    seq = _Sequence(1, "r1", mr, [g.state.table])
    g._equip(seq, "r1", "Sword")
    assert g.state.unit("r1").equipped == "Sword"
    with pytest.raises(IllegalChoice, match="one Equip"):
        g._equip(seq, "r1", "Bow")
    assert g.state.unit("r1").equipped == "Sword"  # refused, never applied
    g._equip(seq, "r1", "Sword")  # the weapon in hand: no Equip


def test_e_action_other_a_reaction_equips_its_weapon():
    blue = Driven(reactions={"r1": lambda opts: next(o for o in opts if o.weapon == "Sword")})
    t = loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [24, 24]\n"
              + model("r1", "red", (5, 5), 0, '["bow", "sword"]', attrs=ATTRS)
              + model("b1", "blue", (5 + TOUCH + 2, 5), 180, '["sword"]', attrs=ATTRS))
    mover = Driven(["b1"], moves={"b1": Move("walk", (5 + TOUCH + 0.2, 5.0, 0.0), 180)},
                   actions={"b1": Action("nothing")})
    g = EldfallGame(t, parse_settings({"first": "blue", "rounds": 1}, t), {"red": blue, "blue": mover},
                    random.Random(2))
    record = g.play()
    react = next(e for e in record.events if e["role"] == "reaction")
    assert react["model"] == "r1" and react["equip"] == {"unequip": "Bow", "equip": "Sword"}
