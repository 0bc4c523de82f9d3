"""Party Hard arithmetic: P-DMG, P-WEAPON, P-STAT, P-STREAK, P-SHIELD, P-EFFECT, P-HEAL."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.errors import RuleInputError, UnknownIdError
from skirmish.rules.partyhard import (
    BUILTIN_ABILITIES,
    BUILTIN_ITEMS,
    NONRESISTANCE,
    POWERLESS,
    SHOCK,
    Ability,
    Effects,
    Element,
    Fighter,
    Item,
    ItemKind,
    Slot,
    Stats,
    Streak,
    absorb,
    attack_breakdown,
    clamp_stat,
    damage,
    lookup,
    max_shield,
    parse_effect,
    parse_element,
    relation,
)

M, E, V = Element.MATTER, Element.ETHER, Element.VOID
ELEMENT_OR_NONE = st.sampled_from([M, E, V, None])


def hero(**kw) -> Fighter:
    items = tuple(BUILTIN_ITEMS[k] for k in kw.pop("items", ()))
    abilities = tuple(BUILTIN_ABILITIES[k] for k in kw.pop("abilities", ()))
    stats = Stats(**{"attack": 2, "defense": 0, "health": 4, "energy": 3, **kw.pop("stats", {})})
    return Fighter.new(kw.pop("id", "hero"), kw.pop("side", "red"), stats, items=items, abilities=abilities, **kw)


# -- P-DMG -------------------------------------------------------------------------------------------

def test_P_DMG_worked_example():
    """Void Arrow (base 1: its user's Attack), Void Shard +1, against a Matter Shield +1: 1 + 1 + 1 + 1 − 1 = 3."""
    archer = hero(items=["void-shard"], abilities=["void-arrow"], stats={"attack": 1})
    target = hero(id="target", side="blue", stats={"defense": 0}, items=["matter-shield"])
    b = attack_breakdown(archer, target, archer.ability("Void Arrow"))
    assert [v for v, _ in b.terms()] == [1, 1, 1, 1, -1]
    assert (b.base, b.weapon_bonus, b.match, b.relation, b.defense, b.total) == (1, 1, 1, 1, 1, 3)
    assert b.explain().endswith("= 3")
    assert damage(1, V, weapon_bonus=1, weapon_element=V, defense=1, target_element=M).total == 3


@pytest.mark.parametrize("attack", [0, 1, 4, 6])
def test_P_DMG_an_ability_without_a_formula_deals_the_attack(attack):
    """The seed: Attack is the damage of every attacking ability that gives no other formula."""
    archer = hero(items=["void-shard"], abilities=["void-arrow"], stats={"attack": attack})
    target = hero(id="target", side="blue", items=["matter-shield"])
    b = attack_breakdown(archer, target, archer.ability("Void Arrow"))
    assert b.base == attack and b.base_from == "Attack (Void Arrow)"
    assert b.total == max(0, attack + 1 + 1 + 1 - 1)
    buffed = archer.with_effects(Effects.of(["attack+2"]))
    assert attack_breakdown(buffed, target, archer.ability("Void Arrow")).base == min(6, attack + 2)
    fixed = Ability("Spike", 1, V, damage=1)
    assert attack_breakdown(archer, target, fixed).base == 1   # a printed number is the base, whatever the Attack


def test_P_DMG_attack_is_the_only_word_damage_takes():
    with pytest.raises(RuleInputError, match="damage is a number or 'attack'"):
        Ability("Odd", 1, V, damage="strength")


@pytest.mark.parametrize("attack, defense, expected", [
    (M, V, 1), (V, M, 1), (M, M, -1), (V, V, -1),
    (E, M, 0), (E, V, 0), (E, E, 0), (M, E, 0), (V, E, 0), (M, None, 0), (None, V, 0),
])
def test_P_DMG_element_relation(attack, defense, expected):
    assert relation(attack, defense) == expected
    assert damage(3, attack, target_element=defense).total == 3 + expected


def test_P_DMG_weapon_match_only_when_the_elements_are_equal():
    assert damage(1, V, weapon_bonus=1, weapon_element=V).match == 1
    assert damage(1, V, weapon_bonus=1, weapon_element=M).match == 0
    assert damage(1, V, weapon_bonus=1, weapon_element=M).total == 2   # the bonus counts all the same


@given(st.integers(0, 12), ELEMENT_OR_NONE, st.integers(-6, 6), ELEMENT_OR_NONE, st.integers(0, 6), ELEMENT_OR_NONE,
       st.integers(1, 6), st.booleans(), st.booleans())
def test_P_DMG_is_the_sum_of_its_terms_floored_at_zero(base, el, bonus, wel, defense, tel, streak, pw, nr):
    b = damage(base, el, weapon_bonus=bonus, weapon_element=wel, defense=defense, target_element=tel,
               streak=streak, powerless=pw, nonresistance=nr)
    assert b.total >= 0
    assert b.total == max(0, base + bonus + (wel is not None and wel == el) + relation(el, tel, powerless=pw,
                                                                                       nonresistance=nr)
                          + streak - 1 - defense)
    assert b.total == max(0, sum(v for v, _ in b.terms()))
    more_defense = damage(base, el, weapon_bonus=bonus, weapon_element=wel, defense=min(6, defense + 1),
                          target_element=tel, streak=streak, powerless=pw, nonresistance=nr)
    assert more_defense.total <= b.total


def test_P_DMG_refuses_nonsense_inputs():
    with pytest.raises(RuleInputError, match="base"):
        damage(-1, V)
    with pytest.raises(RuleInputError, match="streak"):
        damage(1, V, streak=0)


# -- P-WEAPON --------------------------------------------------------------------------------------------

def test_P_WEAPON_a_plain_hit_deals_the_attack_with_the_weapons_element():
    knight = hero(stats={"attack": 3}, items=["matter-shard"])
    target = hero(id="t", side="blue", items=["void-shield"])            # Defense 1, void
    b = attack_breakdown(knight, target)
    assert b.element is M and b.base == 3 and b.base_from.startswith("Attack")
    assert b.total == 3 + 1 + 1 + 1 - 1
    with pytest.raises(RuleInputError, match="P-WEAPON"):
        attack_breakdown(hero(), target)


def test_P_WEAPON_a_creatures_attack_is_its_attack_with_its_own_element():
    ooze = Fighter.new("ooze", "creatures", Stats(2, 2, 6, 0), kind="creature", attack_element=M, defense_element=M)
    b = attack_breakdown(ooze, hero(items=["void-shield"]))
    assert (b.base, b.element, b.weapon_bonus, b.match, b.relation, b.defense, b.total) == (2, M, 0, 0, 1, 1, 2)


# -- P-STAT ----------------------------------------------------------------------------------------------

def test_P_STAT_printed_stats_are_0_to_6():
    with pytest.raises(RuleInputError, match="P-STAT"):
        Stats(attack=7)
    with pytest.raises(RuleInputError, match="P-STAT"):
        Stats(health=-1)


STAT_CHANGES = st.dictionaries(st.sampled_from(["attack", "defense", "health", "energy"]), st.integers(-6, 6))


@given(st.integers(0, 6), st.integers(0, 6), st.integers(1, 6), st.integers(0, 6), STAT_CHANGES, STAT_CHANGES,
       st.lists(st.sampled_from(["attack+3", "attack-2", "defense+6", "defense-6", "powerless", "shock"]), max_size=4))
def test_P_STAT_with_every_bonus_and_penalty_stats_stay_in_0_to_6(a, d, h, e, weapon, ring, effects):
    f = Fighter.new("f", "red", Stats(a, d, h, e),
                    items=(Item("w", ItemKind.WEAPON, V, 1, weapon), Item("r", ItemKind.ACCESSORY, stats=ring)),
                    effects=tuple(effects))
    for v in (f.attack, f.defense, f.max_health, f.max_energy, f.health, f.energy):
        assert 0 <= v <= 6
    assert f.attack == clamp_stat(a + weapon.get("attack", 0) + ring.get("attack", 0) + f.effects.modifier(Slot.ATTACK))


# -- P-STREAK ----------------------------------------------------------------------------------------------

def test_P_STREAK_each_further_attack_of_one_element_deals_one_more():
    s = Streak()
    bonuses = []
    for _ in range(4):
        bonuses.append(s.bonus(V))
        s = s.after_attack(V)
    assert bonuses == [0, 1, 2, 3]
    assert damage(1, V, streak=3).total == 1 + 2


def test_P_STREAK_another_element_breaks_it():
    s = Streak().after_attack(V).after_attack(V)
    assert s.after_attack(M).bonus(V) == 0 and s.after_attack(M).bonus(M) == 1
    assert s.after_ability(E).bonus(V) == 0            # a non-damaging ability of another element breaks it too
    assert s.after_ability(V).bonus(V) == 2 and s.after_ability(None).bonus(V) == 2   # same element, or none: kept


def test_P_STREAK_does_not_apply_to_healing():
    b = damage(2, E, streak=3, kind="heal")
    assert b.streak == 0 and b.total == 2


# -- P-SHIELD -------------------------------------------------------------------------------------------------

def test_P_SHIELD_the_rules_example_one_on_the_shield_one_on_health():
    a = absorb(2, health=4, energy=1, shield=1)
    assert (a.shielded, a.health_lost, a.energy_after, a.health_after) == (1, 1, 0, 3)


def test_P_SHIELD_defense_applies_to_the_shield_too():
    """The shield takes the damage after Defense: 5 − 2 Defense = 3, all on a 3-Energy shield."""
    b = damage(5, M, defense=2)
    a = absorb(b.total, health=4, energy=3, shield=max_shield(b.total, 3))
    assert (a.shielded, a.health_lost) == (3, 0)


def test_P_SHIELD_burning_comes_first_then_the_rest_may_shield():
    assert max_shield(3, 4, burns=2) == 2
    a = absorb(3, health=4, energy=4, shield=2, burns=2)
    assert (a.burned, a.shielded, a.health_lost, a.energy_after) == (2, 2, 1, 0)
    with pytest.raises(RuleInputError, match="at most 2"):
        absorb(3, health=4, energy=4, shield=3, burns=2)


def test_P_SHIELD_shock_forbids_the_shield():
    assert max_shield(3, 5, shocked=True) == 0
    with pytest.raises(RuleInputError, match="Shock"):
        absorb(3, health=4, energy=5, shield=1, shocked=True)


@given(st.integers(0, 12), st.integers(0, 6), st.integers(0, 6), st.integers(0, 6), st.booleans(), st.data())
def test_P_SHIELD_accounts_for_every_point(dmg, health, energy, burns, shocked, data):
    top = max_shield(dmg, energy, burns=burns, shocked=shocked)
    shield = data.draw(st.integers(0, top))
    a = absorb(dmg, health=health, energy=energy, shield=shield, burns=burns, shocked=shocked)
    assert a.energy_after == energy - a.burned - a.shielded >= 0
    assert a.burned == min(burns, energy) and a.health_after == health - a.health_lost >= 0
    assert a.health_lost == min(health, dmg - shield)


# -- P-EFFECT ----------------------------------------------------------------------------------------------------

def test_P_EFFECT_powerless_loses_the_opposite_element_bonus():
    assert damage(2, V, target_element=M, powerless=True).total == 2
    assert damage(2, V, target_element=V, powerless=True).total == 1     # the penalty stays
    archer = hero(items=["void-shard"], abilities=["void-arrow"], effects=(POWERLESS,), stats={"attack": 1})
    target = hero(id="t", side="blue", items=["matter-shield"])
    assert attack_breakdown(archer, target, archer.abilities[0]).total == 2


def test_P_EFFECT_nonresistance_loses_the_same_element_reduction():
    assert damage(2, V, target_element=V, nonresistance=True).total == 2
    assert damage(2, V, target_element=M, nonresistance=True).total == 3
    target = hero(id="t", side="blue", items=["void-shield"], effects=(NONRESISTANCE,))
    assert attack_breakdown(hero(items=["void-shard"]), target).relation == 0


def test_P_EFFECT_one_effect_per_slot_and_raising_removes_the_negative():
    lowered = Effects.of(["attack-1"])
    raised = lowered.apply(parse_effect("attack+1"))
    assert [str(e) for e in raised] == ["attack+1"] and not raised.negatives()
    assert Effects.of(["powerless", "attack+2"]).powerless is False
    both = Effects.of(["shock", "powerless", "defense-2"])
    assert len(both) == 3 and both.shocked and both.modifier(Slot.DEFENSE) == -2
    assert [str(e) for e in Effects.of(["attack+2", "powerless"])] == ["powerless"]   # the newest stays


def test_P_EFFECT_stat_changes_move_the_stat():
    f = hero(stats={"attack": 2, "defense": 1}, effects=("attack+2", "defense-1"))
    assert (f.attack, f.defense) == (4, 0)


def test_P_EFFECT_names_and_refusals():
    assert parse_effect("Non-resistance") == NONRESISTANCE and parse_effect(" SHOCK ") == SHOCK
    for bad in ("sleepy", "energy+1", "attack+0", "attack+7", 3):
        with pytest.raises(RuleInputError, match="expected an effect"):
            parse_effect(bad)


# -- P-HEAL --------------------------------------------------------------------------------------------------------

def test_P_HEAL_healing_is_computed_like_damage():
    healer = hero(items=["ether-shard"], abilities=["mend"])             # Mend: ether, heal 2
    patient = hero(id="p", items=["ether-shield"])                        # Defense 1, ether
    b = attack_breakdown(healer, patient, healer.ability("mend"))
    assert b.kind == "heal" and b.total == 2 + 1 + 1 + 0 - 1
    void_patient = hero(id="q", items=["void-shield"])
    soothe = Ability("Soothe", 1, M, heal=2, on="allies")
    assert attack_breakdown(hero(), void_patient, soothe).total == 2 + 1 - 1   # elements count, as for damage


# -- cards -------------------------------------------------------------------------------------------------------------

def test_cards_are_looked_up_by_name_or_key():
    assert lookup(BUILTIN_ABILITIES, "void arrow", "ability").name == "Void Arrow"
    assert lookup(BUILTIN_ITEMS, "Matter-Shield", "item").bonus == 1
    with pytest.raises(UnknownIdError, match="did you mean 'Void Arrow'"):
        lookup(BUILTIN_ABILITIES, "Void Arow", "ability")
    assert parse_element("VOID") is V
    with pytest.raises(RuleInputError):
        parse_element("fire")


def test_cards_refuse_impossible_combinations():
    with pytest.raises(RuleInputError, match="not both"):
        Ability("x", 1, V, damage=1, heal=1)
    with pytest.raises(RuleInputError, match="one item of each kind"):
        hero(items=["void-shard", "matter-shard"])
    with pytest.raises(RuleInputError, match="at most 2 abilities"):
        hero(abilities=["void-arrow", "mend", "hex"])
    with pytest.raises(RuleInputError, match="only weapons"):
        Item("cape", ItemKind.ARMOR, V, 1, effect=SHOCK)
