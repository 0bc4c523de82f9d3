"""States in a game (E-STATE-CROUCHED, E-STATE-ENGAGED, E-STATE-DEAD, E-STATE-OTHER),
facing after a Hit (E-TURN-FACING) and the Dodge action (E-ACTION-DODGE)."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from skirmish.game.eldfall import Action, EldfallGame, IllegalChoice, Move, Reaction, parse_settings
from skirmish.game.eldfall.attacks import armour_of, defending_side, strike_of
from skirmish.game.eldfall.loop import _Sequence
from skirmish.game.eldfall.state import attributes_of, facing_toward
from skirmish.rules.eldfall.sizes import BASE_THICKNESS
from skirmish.scenario.load import loads

from eldfall_fixtures import WEAPONS, model
from eldfall_policies import Driven

R = 0.63  # an M base's radius
TOUCH = 2 * R + 0.0005  # centre gap of two M models in base contact
ATTRS = "AGI = 6, SPD = 4, STA = 2, MEL = 12, ACC = 11, ARM = 3, HP = 2"


def _game(models: str, red=None, blue=None, first="red", rounds=1, seed=1, scenery=""):
    t = loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [24, 24]\n{scenery}\n{models}")
    g = EldfallGame(t, parse_settings({"first": first, "rounds": rounds}, t),
                    {"red": red or Driven(), "blue": blue or Driven()}, random.Random(seed))
    g._upkeep()
    g.state = g.state.replace(round=1, turn=1, active=first)
    return g


def _with_states(g, mid, *states):
    u = g.state.unit(mid)
    g.state = g.state.with_unit(dataclasses.replace(u, states=u.states | set(states)))


# -- E-STATE-CROUCHED -----------------------------------------------------------------------

def test_e_state_crouched_toggle_at_the_start_of_a_move_halves_it_and_forbids_run():
    g = _game(model("r1", "red", (5, 5), 0, attrs=ATTRS) + model("b1", "blue", (20, 20), 180))
    with pytest.raises(IllegalChoice, match="over budget"):
        g.plan("r1", Move("walk", (8.0, 5.0, 0.0), crouch="start"))  # 3": Crouched SPD is ⌈4/2⌉ = 2
    with pytest.raises(IllegalChoice, match="Crouched"):
        g.plan("r1", Move("run", (6.0, 5.0, 0.0), crouch="start"))
    mr = g.apply_move("r1", Move("walk", (6.9, 5.0, 0.0), crouch="start"))
    assert mr.to_json()["crouch"] == "start"
    assert "Crouched" in g.state.unit("r1").states
    assert g.state.model("r1").hitbox_height == BASE_THICKNESS  # E-SIZE: the hitbox is the base


def test_e_state_crouched_toggle_at_the_end_moves_first_and_standing_up_first_allows_run():
    g = _game(model("r1", "red", (5, 5), 0, attrs=ATTRS) + model("b1", "blue", (20, 20), 180))
    g.apply_move("r1", Move("walk", (8.5, 5.0, 0.0), crouch="end"))  # the whole 4" Walk, then Crouched
    assert "Crouched" in g.state.unit("r1").states and g.state.model("r1").x == 8.5
    assert g.budget("r1", "walk") == 2
    g.apply_move("r1", Move("run", (15.5, 5.0, 0.0), crouch="start"))  # stands up, Runs 7"
    assert "Crouched" not in g.state.unit("r1").states and g.state.model("r1").x == 15.5
    offered = g.move_options("r1")
    assert Move("idle", None, offered[0].face, crouch="end") in offered


def test_e_state_crouched_strike_1_arm_halved():
    g = _game(model("r1", "red", (5, 5), 0, attrs=ATTRS) + model("b1", "blue", (20, 20), 180))
    m = g.state.model("r1")
    sword = m.weapon("Sword")
    assert strike_of(m, g.state.unit("r1"), sword) == 2 and armour_of(m, g.state.unit("r1")) == 3
    _with_states(g, "r1", "Crouched")
    assert strike_of(m, g.state.unit("r1"), sword) == 1 and armour_of(m, g.state.unit("r1")) == 2


# -- E-STATE-ENGAGED --------------------------------------------------------------------------

def _engaged_game(**kw):
    return _game(model("r1", "red", (5, 5), 0, '["bow", "sword"]', attrs=ATTRS)
                 + model("b1", "blue", (5 + TOUCH, 5), 180, attrs=ATTRS)
                 + model("b2", "blue", (15, 5), 180, attrs=ATTRS), **kw)


def test_e_state_engaged_by_an_enemy_in_melee_reach_and_los():
    g = _engaged_game()
    assert g.engaged_by("r1") == ("b1",) and g.engaged_by("b1") == ("r1",)
    assert g.engaged_by("b2") == ()
    # ends when the engager is Crouched; a Flying model is never Engaged
    _with_states(g, "b1", "Crouched")
    assert g.engaged_by("r1") == ()
    g = _engaged_game()
    _with_states(g, "r1", "Flying")
    assert g.engaged_by("r1") == ()
    # an engager that does not see it (facing away) does not engage it
    g = _game(model("r1", "red", (5, 5), 0, attrs=ATTRS) + model("b1", "blue", (5 + TOUCH, 5), 0, attrs=ATTRS))
    assert g.engaged_by("r1") == () and g.engaged_by("b1") == ("r1",)


def test_e_state_engaged_only_idle_or_walk_straight_at_an_engager_and_only_melee():
    g = _game(model("r1", "red", (5, 5), 0, '["bow", "sword"]', attrs=ATTRS)
              + model("b1", "blue", (5 + TOUCH + 0.5, 5), 180, '["bow", "sword"]', attrs=ATTRS)
              + model("b2", "blue", (15, 5), 180, attrs=ATTRS))
    assert g.engaged_by("r1") == ("b1",)  # b1's sword reaches 1": 0.5" away
    with pytest.raises(IllegalChoice, match="Engaged"):
        g.plan("r1", Move("walk", (5.0, 8.0, 0.0)))  # away
    with pytest.raises(IllegalChoice, match="Engaged"):
        g.plan("r1", Move("run", (3.0, 5.0, 0.0)))
    with pytest.raises(IllegalChoice, match="Engaged"):
        g.plan("r1", Move("jump", (3.5, 5.0, 0.0)))
    g.plan("r1", Move("walk", (5.3, 5.0, 0.0)))  # straight at b1: legal
    offered = g.move_options("r1")
    assert {o.kind for o in offered} <= {"idle", "walk"}
    walks = [o for o in offered if o.kind == "walk"]
    assert walks and all(math.isclose(o.to[1], 5.0, abs_tol=1e-6) and o.to[0] > 5 for o in walks)
    acts = g.action_options("r1", "walk")
    assert {(a.kind, a.weapon) for a in acts if a.target} == {("attack", "Sword")}  # no Bow while Engaged
    assert Action("dodge") in acts
    # the Dodge move is not a movement step: it goes any way
    g.plan("r1", Move("dodge", (5.0, 7.0, 0.0)))


def test_e_state_engaged_walk_straight_at_an_engager_on_a_diagonal():
    """b1 engages r1 from the north-east: a Walk heading at b1 is legal, one 10° off is not."""
    d = (TOUCH + 0.5) / math.sqrt(2)
    g = _game(model("r1", "red", (5, 5), 45, attrs=ATTRS) + model("b1", "blue", (5 + d, 5 + d), 225, attrs=ATTRS))
    assert g.engaged_by("r1") == ("b1",)
    g.plan("r1", Move("walk", (5.3, 5.3, 0.0)))
    a = math.radians(55)
    with pytest.raises(IllegalChoice, match="straight at one engager"):
        g.plan("r1", Move("walk", (5 + 0.4 * math.cos(a), 5 + 0.4 * math.sin(a), 0.0)))
    walks = [o for o in g.move_options("r1") if o.kind == "walk"]
    assert walks and all(math.isclose(o.to[0] - 5, o.to[1] - 5, abs_tol=1e-6) for o in walks)


def test_e_state_engaged_reactor_only_melee():
    g = _game(model("r1", "red", (5, 2), 90, attrs=ATTRS)
              + model("b1", "blue", (8, 5), 180, '["bow", "sword"]', attrs=ATTRS)
              + model("r2", "red", (8 - TOUCH, 5), 0, attrs=ATTRS))
    assert g.engaged_by("b1") == ("r2",)
    mr = g.apply_move("r1", Move("walk", (5.0, 5.0, 0.0)))
    seq = _Sequence(1, "r1", mr, g._tables_along("r1", mr.samples))
    opts = g.reaction_options(seq, "b1")
    assert not any(o.weapon == "Bow" for o in opts) and any(o.kind == "dodge" for o in opts)


# -- E-STATE-DEAD ------------------------------------------------------------------------------

def test_e_state_dead_moved_through_never_ended_on_and_no_ap():
    models = (model("r1", "red", (3, 5), 0, attrs=ATTRS) + model("b1", "blue", (5.5, 5), 180, extra='states = ["Dead"]')
              + model("b2", "blue", (20, 20), 180))
    g = _game(models)
    assert g.state.unit("b1").ap == 0 and g.state.model("b1").hitbox_height == BASE_THICKNESS
    mr = g.plan("r1", Move("walk", (7.0, 5.0, 0.0)))  # straight through the Dead model
    assert mr.path[-1][:2] == (7.0, 5.0) and mr.plan.stopped_at_contact is None
    with pytest.raises(IllegalChoice, match="cannot end"):
        g.plan("r1", Move("walk", (5.5, 5.0, 0.0)))
    live = _game(models.replace('states = ["Dead"]', ""))
    with pytest.raises(IllegalChoice):
        live.plan("r1", Move("walk", (7.0, 5.0, 0.0)))  # a living enemy blocks
    assert not any(a.target == "b1" for a in g.action_options("r1", "walk"))


# -- E-STATE-OTHER -----------------------------------------------------------------------------

def test_e_state_other_poisoned_rolls_sta_at_minus_6_in_own_strategic_phase():
    """STA 6 − 6 = 0: the roll fails by itself (E-MOD-ZERO), a Wound every own turn."""
    g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 6, MEL = 12, ARM = 1, HP = 3",
                    extra='states = ["Poisoned"]') + model("b1", "blue", (20, 20), 180))
    g._strategic("red")
    assert g.state.unit("r1").hp == 2
    ev = g.events[-1]
    assert ev["roll"] == {"kind": "poisoned", "face": None, "success": False}
    g._strategic("blue")  # not its own phase
    assert g.state.unit("r1").hp == 2


@pytest.mark.parametrize("seed", range(6))
def test_e_mod_half_weakened_and_poisoned_halves_sta_after_the_minus_6(seed):
    """(Weakened halved STA first: 10 → 5, 5 − 6 ≤ 0, an automatic failure every phase;
    E-MOD-HALF: ⌈(10 − 6)/2⌉ = 2, a roll that succeeds 2 times in 20)"""
    g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 10, MEL = 12, ARM = 1, HP = 3",
                    extra='states = ["Poisoned", "Weakened"]') + model("b1", "blue", (20, 20), 180), seed=seed)
    g._strategic("red")
    ev = g.events[-1]
    assert ev["roll"]["face"] is not None and ev["roll"]["success"] == (ev["roll"]["face"] <= 2)
    assert ev["text"].startswith("r1 rolls for Poisoned (STA 10 -6, halved: 2): ")
    assert g.state.unit("r1").hp == (3 if ev["roll"]["success"] else 2)


def test_e_state_other_bleeding_rolls_sta():
    g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 20, MEL = 12, ARM = 1, HP = 3",
                    extra='states = ["Bleeding"]') + model("b1", "blue", (20, 20), 180))
    g._strategic("red")
    assert g.events[-1]["roll"]["kind"] == "bleeding" and g.events[-1]["roll"]["success"]
    assert g.state.unit("r1").hp == 3


def test_e_turn_strategic_bleeding_rolls_before_recovery_and_kills_an_incapacitated_model():
    # (an Incapacitated model never rolled for Bleeding or Poisoned: it could not bleed out)
    g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 6, MEL = 12, ARM = 1, HP = 3",
                    extra='states = ["Poisoned"]') + model("b1", "blue", (20, 20), 180))
    u = g.state.unit("r1")
    g.state = g.state.with_unit(dataclasses.replace(u, hp=0, states=u.states | {"Incapacitated", "Crouched"}))
    g._strategic("red")  # STA 6 − 6: an automatic failure (E-MOD-ZERO), a Wound on an Incapacitated model
    assert "Dead" in g.state.unit("r1").states
    assert [e["roll"]["kind"] for e in g.events] == ["poisoned"]  # the Dead roll no Recovery
    assert g.events[-1]["text"] == "r1 rolls for Poisoned (STA 6 -6): automatic failure -> 1 Wound, Dead"


def test_e_turn_strategic_an_incapacitated_model_that_keeps_bleeding_still_rolls_recovery_after():
    g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 20, MEL = 12, ARM = 1, HP = 3",
                    extra='states = ["Bleeding"]') + model("b1", "blue", (20, 20), 180))
    u = g.state.unit("r1")
    g.state = g.state.with_unit(dataclasses.replace(u, hp=0, states=u.states | {"Incapacitated", "Crouched"}))
    g._strategic("red")  # STA 20: both rolls pass
    assert [(e["roll"]["kind"], e["roll"]["success"]) for e in g.events] == [("bleeding", True), ("recovery", True)]
    assert g.state.unit("r1").hp == 1 and "Weakened" in g.state.unit("r1").states


def test_e_turn_strategic_a_model_bleeding_to_0_hp_rolls_recovery_from_its_next_phase():
    g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 6, MEL = 12, ARM = 1, HP = 1",
                    extra='states = ["Poisoned"]') + model("b1", "blue", (20, 20), 180))
    g._strategic("red")
    assert "Incapacitated" in g.state.unit("r1").states
    assert [e["roll"]["kind"] for e in g.events] == ["poisoned"]  # no Recovery in the phase it fell
    assert g.events[-1]["text"].endswith("-> 1 Wound, Incapacitated")


@pytest.mark.parametrize("states,spd,agi,sta", [
    ((), 4, 6, 5), (("Slowed",), 2, 6, 5), (("Crippled",), 2, 3, 5), (("Weakened",), 4, 6, 3),
    (("Flying",), 8, 6, 5), (("Flying", "Slowed"), 4, 6, 5), (("Slowed", "Crippled", "Crouched"), 2, 3, 5)])
def test_e_state_other_attributes_slowed_crippled_weakened_flying(states, spd, agi, sta):
    g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 5, MEL = 12, HP = 3")
              + model("b1", "blue", (20, 20), 180))
    a = attributes_of(g.state.model("r1"), frozenset(states))
    assert (a["SPD"], a["AGI"], a["STA"]) == (spd, agi, sta)
    assert attributes_of(g.state.model("r1"), frozenset(states)) is a  # (found once, read only)
    with pytest.raises(TypeError):
        a["SPD"] = 9  # type: ignore[index]
    assert g.state.model("r1").attributes["SPD"] == 4  # (the model's own are untouched)
    assert g.budget("r1", "walk", frozenset(states)) == spd and g.budget("r1", "run", frozenset(states)) == 2 * spd


def test_e_state_other_crippled_dodge_halved_once():
    g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 7, SPD = 4, STA = 5, MEL = 12, HP = 3")
              + model("b1", "blue", (20, 20), 180))
    m = g.state.model("r1")
    _with_states(g, "r1", "Crippled")
    u = g.state.unit("r1")
    assert defending_side(m, u, dodge=True).dodge_attribute.value == 4
    assert defending_side(m, u, dodge=True, los=False).dodge_attribute.value == 4  # not halved twice


def test_e_state_other_weakened_halves_a_sta_strike():
    g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 7, SPD = 4, STA = 5, MEL = 12, HP = 3")
              + model("b1", "blue", (20, 20), 180))
    m = g.state.model("r1")
    assert strike_of(m, g.state.unit("r1"), m.weapon("Sword")) == 5
    _with_states(g, "r1", "Weakened")
    assert strike_of(m, g.state.unit("r1"), m.weapon("Sword")) == 3


def test_e_state_other_blinded_no_los_attacks_and_only_blind_dodge():
    g = _game(model("r1", "red", (5, 5), 0, '["bow", "sword"]', attrs=ATTRS) + model("b1", "blue", (9, 5), 180,
                                                                                     attrs=ATTRS))
    assert any(a.kind == "attack" for a in g.action_options("r1", "walk"))
    _with_states(g, "r1", "Blinded")
    assert not any(a.kind == "attack" for a in g.action_options("r1", "walk"))
    g.state = g.state.replace(active="blue")
    _with_states(g, "b1", "Blinded")  # b1 moves past the blinded r1: no LoS, inside its Awareness
    mr = g.apply_move("b1", Move("walk", (8.0, 5.0, 0.0)))
    seq = _Sequence(1, "b1", mr, g._tables_along("b1", mr.samples))
    assert [o.kind for o in g.reaction_options(seq, "r1")] == ["none", "dodge"]
    assert not g.reaction_options(seq, "r1")[1].los


def test_e_state_other_immobilized_cannot_move():
    g = _game(model("r1", "red", (5, 5), 0, attrs=ATTRS, extra='states = ["Immobilized"]')
              + model("b1", "blue", (20, 20), 180))
    assert {o.kind for o in g.move_options("r1")} == {"idle"}
    with pytest.raises(IllegalChoice, match="Immobilized"):
        g.plan("r1", Move("walk", (6.0, 5.0, 0.0)))


# -- E-TURN-FACING, E-ACTION-DODGE ------------------------------------------------------------

def test_e_turn_facing_a_model_that_suffers_a_hit_turns_to_face_its_attacker():
    """b1 faces away (north); r1 strikes it from the west. When a Hit lands, b1 ends
    facing r1; when none lands, it keeps its facing."""
    hit_seen = miss_seen = False
    for seed in range(12):
        red = Driven(["r1"], moves={"r1": Move("idle")},
                     actions={"r1": lambda opts: next(o for o in opts if o.kind == "attack")})
        g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 2, MEL = 14, ARM = 1, HP = 9")
                  + model("b1", "blue", (5 + TOUCH, 5), 90, attrs="AGI = 6, SPD = 4, STA = 2, MEL = 12, ARM = 0, "
                                                                 "HP = 9"), red=red, seed=seed)
        record = g.play()
        ev = next(e for e in record.events if e["role"] == "activation")
        b1 = g.state.model("b1")
        if ev["result"]["hits"]:
            hit_seen = True
            r1 = g.state.model("r1")
            assert b1.facing == pytest.approx(facing_toward(b1.x, b1.y, r1.x, r1.y))
            # (the turn was not logged: a reader saw b1 facing north long after)
            assert ev["result"]["turned"] == {"b1": {"toward": "r1", "facing": round(b1.facing, 2)}}
            assert f"b1 turns to face r1 ({b1.facing:.0f}°)" in ev["text"]
        else:
            miss_seen = True
            assert b1.facing == 90 and ev["result"]["turned"] == {}
    assert hit_seen and miss_seen


def test_e_turn_facing_a_model_hit_from_afar_keeps_its_melee_foe_in_front():
    """b1 fights r2 (base contact, facing it); the archer r1 shoots b1 from the south.
    Turning after a Hit is a "may": b1 keeps r2 in its front arc (docs/game.md)."""
    hit_seen = False
    for seed in range(12):
        red = Driven(["r1"], moves={"r1": Move("idle")},
                     actions={"r1": lambda opts: next(o for o in opts if o.kind == "attack" and o.target == "b1")})
        g = _game(model("r1", "red", (12, 3), 90, '["bow"]', attrs="AGI = 6, SPD = 4, STA = 2, ACC = 16, HP = 9")
                  + model("r2", "red", (12 - TOUCH, 12), 0, attrs="AGI = 6, SPD = 4, STA = 2, MEL = 12, HP = 9")
                  + model("b1", "blue", (12, 12), 180, attrs="AGI = 6, SPD = 4, STA = 2, MEL = 12, ARM = 0, HP = 9"),
                  red=red, seed=seed)
        assert g.engaged_by("b1") == ("r2",)
        record = g.play()
        ev = next(e for e in record.events if e["role"] == "activation")
        if ev["result"]["hits"]:
            hit_seen = True
            assert g.state.model("b1").facing == 180 and ev["result"]["turned"] == {}
    assert hit_seen


def test_e_wound_a_model_taken_to_0_hp_still_makes_its_dodge_move_before_the_sequence_ends():
    """E-WOUND: Incapacitated at the end of the Activation Sequence; E-ACTION-DODGE: the
    Dodge move comes at the end of Resolution, before that."""
    seen = False
    for seed in range(20):
        red = Driven(["r1"], moves={"r1": Move("idle")},
                     actions={"r1": lambda opts: next(o for o in opts if o.kind == "attack")})
        blue = Driven(reactions={"b1": Reaction("dodge")}, dodge_moves={"b1": Move("dodge", (5 + TOUCH + 1.5, 5.0, 0.0))})
        g = _game(model("r1", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 2, MEL = 16, ARM = 1, HP = 9")
                  + model("b1", "blue", (5 + TOUCH, 5), 180, attrs="AGI = 2, SPD = 4, STA = 2, MEL = 12, ARM = 0, "
                                                                   "HP = 1"), red=red, blue=blue, seed=seed)
        record = g.play()
        react = next(e for e in record.events if e["role"] == "reaction")
        if g.state.unit("b1").hp == 0 and react["movement"]["kind"] == "dodge":
            seen = True
            assert "Incapacitated" in g.state.unit("b1").states
            assert g.state.model("b1").x == pytest.approx(5 + TOUCH + 1.5)
            assert "Dodge move 1.50 in" in react["text"]
    assert seen


def test_e_action_dodge_roll_then_dodge_move_up_to_half_speed():
    """r1 walks past b1, which makes an Attack of Opportunity; r1's Action is Dodge: its
    Agility roll is in the exchange, and then it may move up to ⌈SPD/2⌉ = 2" (E-ACTION-DODGE)."""
    for seed in range(3):
        blue = Driven(reactions={"b1": lambda opts: next(o for o in opts if o.kind == "attack")})
        red = Driven(["r1"], moves={"r1": Move("walk", (5.0, 5.0, 0.0), 90)}, actions={"r1": Action("dodge")},
                     dodge_moves={"r1": Move("dodge", (3.1, 5.0, 0.0))})
        g = _game(model("r1", "red", (5, 2), 90, attrs=ATTRS) + model("b1", "blue", (5 + TOUCH + 0.5, 4), 180,
                                                                       attrs=ATTRS), red=red, blue=blue, seed=seed)
        record = g.play()
        ev = next(e for e in record.events if e["role"] == "activation")
        assert ev["action"]["kind"] == "dodge"
        assert next(e for e in record.events if e["role"] == "reaction")["action"]["kind"] == "attack"
        dodge = next(x["dodge"] for x in ev["result"]["exchanges"] if x.get("dodge"))  # the mover's roll
        assert dodge["agility"] == 6 and dodge["success"] == (dodge["face"] <= 6)
        react = next(e for e in record.events if e["role"] == "reaction")  # (the text left the mover's roll out)
        assert react["text"].endswith(f"; r1 Dodges {dodge['face']} {'✓' if dodge['success'] else '✗'}")
        if g.state.unit("r1").in_play:
            assert ev["result"]["dodge_move"]["kind"] == "dodge" and ev["result"]["dodge_move"]["length"] <= 2
            assert g.state.model("r1").x == 3.1
    g = _game(model("r1", "red", (5, 2), 90, attrs=ATTRS) + model("b1", "blue", (20, 20), 180, attrs=ATTRS))
    with pytest.raises(IllegalChoice, match="over budget"):
        g.plan("r1", Move("dodge", (5.0, 4.5, 0.0)))  # 2.5" > ⌈4/2⌉


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_e_state_engaged_far_enemies_skipped_as_measuring_them_finds(seed):
    """E-STATE-ENGAGED: enemies whose bases are further apart than any melee reach are not
    measured; the engagers are those of measuring every enemy (the oracle)."""
    from skirmish.game.eldfall.attacks import engagers
    from skirmish.game.eldfall.settings import usable_weapons

    rng = random.Random(seed)
    cells = rng.sample([(i, j) for i in range(4) for j in range(4)], 8)  # bases 1.3" apart or more
    spots = "".join(model(f"{'rb'[k % 2]}{k}", ("red", "blue")[k % 2],
                          (4 + 1.5 * i + rng.uniform(-0.1, 0.1), 4 + 1.5 * j + rng.uniform(-0.1, 0.1)),
                          rng.uniform(0, 360), attrs=ATTRS) for k, (i, j) in enumerate(cells))
    st = _game(spots).state
    found = 0
    for u in st.units.values():
        t = st.table
        want = tuple(sorted(e.id for e in st.in_play(st.enemy_of(u.side)) if not e.states & {"Crouched", "Blinded"}
                            and any(not w.ranged and t.reach(e.id, u.id, w).in_reach
                                    for w in usable_weapons(st.model(e.id)))
                            and t.line_of_sight(e.id, u.id).visible))
        assert engagers(st, u.id) == want
        found += bool(want)
    assert found  # some model is engaged
    # at the edge of the reach, within the contact tolerance (E-DIST): still engaged
    far = max(w.reach for w in usable_weapons(st.model("r0")) if not w.ranged) + 2 * R + 0.0005
    g = _game(model("r1", "red", (5, 5), 0, attrs=ATTRS) + model("b1", "blue", (5 + far, 5), 180, attrs=ATTRS))
    assert g.engaged_by("b1") == ("r1",) and g.engaged_by("r1") == ("b1",)


@pytest.mark.parametrize("crouch, crouched, says", [("start", False, "#1 r1 crouches and walks 1.50 in to"),
                                                    ("end", False, "#1 r1 walks 1.50 in to (5.00, 6.50), then crouches"),
                                                    ("end", True, "#1 r1 walks 1.50 in to (5.00, 6.50), then stands up"),
                                                    (None, False, "#1 r1 walks 1.50 in to (5.00, 6.50), nothing")])
def test_e_activation_the_log_says_when_a_model_crouches_or_stands_up(crouch, crouched, says):
    # (a Crouch toggle was in the JSON only)
    red = Driven(["r1"], moves={"r1": Move("walk", (5.0, 6.5, 0.0), 90, crouch=crouch)}, actions={"r1": Action("nothing")})
    g = _game(model("r1", "red", (5, 5), 90, attrs=ATTRS, extra='states = ["Crouched"]' if crouched else "")
              + model("b1", "blue", (20, 20), 180), red=red)
    record = g.play()
    assert next(e for e in record.events if e["role"] == "activation")["text"].startswith(says)


def test_e_mod_zero_the_log_names_the_band_modifier_and_an_automatic_failure():
    # (an attack at value 0 printed no dice and no reason, its band's −3 nowhere)
    red = Driven(["r1"], moves={"r1": Move("idle")},
                 actions={"r1": lambda opts: next(o for o in opts if o.kind == "attack")})
    g = _game(model("r1", "red", (2, 12), 0, '["bow"]', attrs="AGI = 6, SPD = 4, STA = 2, ACC = 3, HP = 2")
              + model("b1", "blue", (17, 12), 180), red=red)
    record = g.play()
    text = next(e for e in record.events if e["role"] == "activation")["text"]
    assert "attacks b1 with Bow at 13.74 in (Accuracy -3) [no die: the value is 0 or less, an automatic " \
           "failure (E-MOD-ZERO)]: 0 Hits, 0 Wounds" in text
