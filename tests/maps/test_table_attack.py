"""``attack``: the table's geometry composed with the exact odds (E-ACTION-ATTACK,
E-REACTION, E-REACH, E-COVER, E-LOS, E-CONF, E-DODGE)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skirmish
from skirmish.errors import IllegalActionError, SkirmishError
from skirmish.maps.table_attack import AttackRefused, attack
from skirmish.rules.eldfall.exchange import Side
from skirmish.rules.eldfall.odds import odds
from skirmish.rules.eldfall.reactions import choose_reaction, reaction_options

from conftest import table_text

WEAPONS = """
[weapons.bow]
name = "Bow"
bands = [[6, 1], [12, 0], [24, -3]]
pw = 10
attribute = "ACC"

[weapons.blade]
name = "Blade"
reach = 1
pw = 9
stk = "STA"

[weapons.club]
name = "Club"
reach = 1

[weapons.pot]
name = "Fire Pot"
template = "circle-small"
bands = [[8, 0]]
pw = 10
"""


def model(id_: str, side: str, at: str, facing: float, weapons: str = '["bow", "blade"]', states: str = "[]",
          extra: str = "") -> str:
    return (f'[[models]]\nid = "{id_}"\nside = "{side}"\nsize = "M"\nat = {at}\nfacing = {facing}\n'
            f"weapons = {weapons}\nstates = {states}\n"
            f"attributes = {{ AGI = 6, SPD = 5, STA = 2, MEL = 12, ACC = 11, ARM = 1, HP = 2 {extra}}}\n")


def table(*models: str, scenery: str = ""):
    return skirmish.loads(table_text("\n".join(models), scenery, extra=WEAPONS), "t.toml")


# ------------------------------------------------------------------ E-REACTION


def test_e_reaction_options_every_case():
    """E-REACTION: attack back only with LoS and a weapon that reaches; a Dodge with LoS,
    or without it only inside Awareness (Agility halved); nothing without AP; none always."""
    for can_act, los, aware, back, agi in itertools.product([True, False], [True, False], [True, False, None],
                                                            [True, False], [True, False]):
        o = reaction_options(can_act=can_act, has_los=los, in_awareness=aware, can_attack_back=back,
                             has_agility=agi)
        assert o.kinds[-1] == "none"
        assert o.attack == (can_act and los and back)
        assert o.dodge == (can_act and agi and (los or bool(aware)))
        assert o.dodge_halved == (o.dodge and not los)
        for k in ("attack", "dodge"):
            assert (k in o.kinds) != bool(o.reason(k))


def test_e_reaction_choose_default_and_refusal():
    o = reaction_options(can_act=True, has_los=False, in_awareness=False, can_attack_back=True, has_agility=True)
    assert choose_reaction(o) == "none"
    with pytest.raises(IllegalActionError, match="Awareness"):
        choose_reaction(o, "dodge")
    o = reaction_options(can_act=True, has_los=True, in_awareness=True, can_attack_back=True, has_agility=True)
    assert choose_reaction(o) == "attack" and choose_reaction(o, "dodge") == "dodge"


# ---------------------------------------------------------------- the answer


def test_e_action_attack_ranged_odds_equal_the_sides_by_hand():
    """The odds are those of the exchange built from the profiles, the band's Accuracy
    and the cover: the same as `skirmish odds` on the numbers a player would copy."""
    t = table(model("a", "red", "[2, 12]", 0), model("b", "blue", "[10, 12]", 180))
    r = attack(t, "a", "b", weapon="bow", reaction="dodge")
    assert r.los.visible and r.weapon.name == "Bow" and r.band == 2 and r.accuracy == 0
    assert r.cover is not None and r.cover.level == "none"
    expected = odds(Side(att=11, stk=1, pw=10, arm=1, hp=2), Side(arm=1, hp=2, dodge=6))
    assert r.odds.active.wounds == expected.active.wounds and r.odds.reactive.state == expected.reactive.state
    assert r.reaction.kind == "dodge" and not r.reaction.dodge_halved


def test_e_reach_band_from_one_and_accuracy_in_the_roll():
    t = table(model("a", "red", "[2, 12]", 0), model("b", "blue", "[6, 12]", 180))
    r = attack(t, "a", "b", weapon="bow", reaction="none", modifiers=[-2])
    assert r.band == 1 and r.accuracy == 1
    assert r.exchange.active.attribute is not None and r.exchange.active.attribute.value == 11 + 1 - 2
    assert r.to_json()["band"] == 1 and r.to_json()["accuracy"] == 1


def test_e_conf_melee_attack_back_with_strike_one():
    """In base reach both sides attack: a Confrontation; the reactive Strike is 1
    (E-STK-REACT); the attacker's Blade Strike is its STA; melee has no cover."""
    t = table(model("a", "red", "[10, 12]", 0), model("b", "blue", "[11.5, 12]", 180))
    r = attack(t, "a", "b", weapon="blade", reaction_weapon="Blade")
    assert r.weapon.name == "Blade" and r.cover is None and r.reaction.kind == "attack"
    assert r.odds.kind == "confrontation" and r.exchange.active_dice == 2 and r.exchange.reactive_dice == 1
    assert sum(r.wounds_back.as_dict().values()) == 1 and r.wounds_back.mean > 0
    d = r.to_json()["odds"]
    assert set(d) >= {"hits", "wounds", "target_state", "wounds_back"}
    for key in ("hits", "wounds", "target_state", "wounds_back"):
        assert sum(Fraction(p) for p in d[key].values()) == 1


def test_e_reaction_dodge_without_los_inside_awareness_is_halved():
    """A target facing away cannot attack back; the attacker is inside its Awareness
    (AGI 6), so it may Dodge with Agility halved (E-REACTION, E-DODGE)."""
    t = table(model("a", "red", "[2, 12]", 0), model("b", "blue", "[6, 12]", 0))
    r = attack(t, "a", "b", weapon="bow")
    assert r.reaction.kind == "dodge" and r.reaction.dodge_halved
    assert r.exchange.reactive.dodge_attribute is not None and r.exchange.reactive.dodge_attribute.value == 3
    assert "attack" not in r.reaction.options.kinds


def test_e_reaction_outside_awareness_without_los_no_reaction():
    t = table(model("a", "red", "[2, 12]", 0), model("b", "blue", "[14, 12]", 0))
    r = attack(t, "a", "b", weapon="bow")
    assert r.reaction.kind == "none" and r.reaction.options.kinds == ("none",)
    with pytest.raises(AttackRefused) as e:
        attack(t, "a", "b", weapon="bow", reaction="dodge")
    assert e.value.kind == "reaction"


def test_e_cover_enters_the_attackers_roll():
    """E-COVER: a wall beside the target that hides part of it: the cover's modifier is
    in the attacker's modifiers."""
    wall = '[[scenery]]\nid = "wall"\nrect = [8.5, 10, 8.8, 12.6]\nheight = 3\n'
    t = table(model("a", "red", "[2, 12]", 0), model("b", "blue", "[10, 12.6]", 180), scenery=wall)
    r = attack(t, "a", "b", weapon="bow", reaction="none")
    assert r.cover is not None and r.cover.level in ("light", "heavy")
    assert r.cover.modifier in r.exchange.active.modifiers


@pytest.mark.parametrize("case, kind", [
    ("wall", "no_los"), ("behind", "out_of_arc"), ("far", "out_of_reach"), ("club", "no_power"),
    ("friend", "not_enemy"), ("self", "same_model"), ("dead", "target_dead"), ("incapacitated", "cannot_act"),
    ("noweapon", "no_weapon"), ("pot", "template"),
])
def test_e_action_attack_refusals_name_their_kind(case, kind):
    wall = '[[scenery]]\nid = "wall"\nrect = [5, 8, 5.5, 16]\nheight = 4\n'
    a = model("a", "red", "[2, 12]", 0, states='["Incapacitated"]' if case == "incapacitated" else "[]",
              weapons='["club"]' if case == "club" else '["pot"]' if case == "pot" else '["bow", "blade"]')
    b = model("b", "red" if case == "friend" else "blue", "[3.5, 12]" if case == "club" else
              ("[30, 12]" if case == "far" else ("[0.7, 12]" if case == "behind" else "[8, 12]")), 180,
              states='["Dead"]' if case == "dead" else "[]")
    size = "[40, 24]"
    t = skirmish.loads(table_text(a + b, wall if case == "wall" else "", size=size, extra=WEAPONS), "t.toml")
    with pytest.raises(AttackRefused) as e:
        attack(t, "a", "a" if case == "self" else "b", weapon="sling" if case == "noweapon" else None)
    assert e.value.kind == kind and str(e.value)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.floats(2, 22), st.floats(2, 22), st.floats(0, 360), st.floats(2, 22), st.floats(2, 22), st.floats(0, 360))
def test_e_reaction_and_refusals_agree_with_the_tables_own_answers(ax, ay, af, bx, by, bf):
    """Whatever the placement: a refusal's kind is what LoS and reach say, and an answer's
    Reaction options are E-REACTION over the table's LoS back, reach back and Awareness;
    every distribution sums to 1."""
    wall = '[[scenery]]\nid = "wall"\nrect = [11, 6, 12, 18]\nheight = 3\n'
    try:
        t = table(model("a", "red", f"[{ax}, {ay}]", af), model("b", "blue", f"[{bx}, {by}]", bf), scenery=wall)
    except skirmish.ScenarioError:
        return  # overlapping bases or a base inside the wall: not a placement
    sight = t.line_of_sight("a", "b")
    try:
        r = attack(t, "a", "b")
    except AttackRefused as e:
        if not sight.visible:
            assert e.kind == ("out_of_arc" if sight.reason == "out_of_arc" else "no_los")
        else:
            assert e.kind == "out_of_reach" and not any(t.reach("a", "b", w).in_reach for w in t.model("a").weapons)
        return
    assert sight.visible and r.reach.in_reach
    back = t.line_of_sight("b", "a")
    reaches_back = any(t.reach("b", "a", w).in_reach for w in t.model("b").weapons)
    assert ("attack" in r.reaction.options.kinds) == (back.visible and reaches_back)
    assert ("dodge" in r.reaction.options.kinds) == (back.visible or bool(t.in_awareness("b", "a")))
    for d in (r.odds.active.hits, r.odds.active.wounds, r.wounds_back):
        assert d is not None and sum(d.as_dict().values()) == 1


def test_e_reaction_a_reaction_weapon_the_target_does_not_carry_is_refused():
    """A name the target does not carry is a mistake to report, not a reason to Dodge
    instead (a weapon it carries that cannot reach still leaves it the Dodge)."""
    t = table(model("a", "red", "[10, 12]", 0), model("b", "blue", "[11.5, 12]", 180))
    with pytest.raises(SkirmishError, match="reaction weapon: b has no weapon 'sword'; it carries: Bow, Blade") as e:
        attack(t, "a", "b", weapon="blade", reaction_weapon="sword")
    assert e.value.kind == "no_weapon"
    far = table(model("a", "red", "[2, 12]", 0), model("b", "blue", "[6, 12]", 180))
    r = attack(far, "a", "b", weapon="bow", reaction_weapon="Blade")
    assert r.reaction.kind == "dodge"
