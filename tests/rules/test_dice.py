"""Modifiers, Strike, the side values and the seeded roll log (skirmish.rules.eldfall)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import RuleInputError
from skirmish.rules.eldfall.dice import (
    attribute_roll,
    resolve_engagement,
    resolve_exchange,
    roll_d20,
)
from skirmish.rules.eldfall.exchange import Exchange, Side, engagement, parse_side
from skirmish.rules.eldfall.modifiers import damage_target, modify, split_strikes, strike, wounds_on
from skirmish.rules.eldfall.wounds import ModelState, apply_wounds


class Scripted(random.Random):
    """A Random whose d20s are the given faces, in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def getrandbits(self, k: int) -> int:
        assert k == 5
        return self.faces.pop(0) - 1


def resolve(active: str, reactive: str, faces: list[int]):
    rng = Scripted(faces)
    log = resolve_exchange(Exchange(parse_side(active), parse_side(reactive)), rng)
    assert rng.faces == [], "every scripted face is used, no more"
    return log


# ------------------------------------------------------------------ modifiers


def test_E_MOD_SUM_modifiers_are_summed_before_halving() -> None:
    """E-MOD-SUM: the fixed modifiers are summed; their order does not matter."""
    assert modify(13, -3, 2, -4).value == modify(13, -4, 2, -3).value == 8
    assert modify(13, -3).total_modifier == -3
    assert modify(13, -3, halve=True).value == 5  # (13 − 3) / 2, not 13 / 2 − 3


def test_E_MOD_HALF_rounds_up_and_cancels() -> None:
    """E-MOD-HALF: after the fixed modifiers, halving rounds up; halved and doubled cancel."""
    assert modify(7, halve=True).value == 4
    assert modify(8, halve=True).value == 4
    assert modify(7, double=True).value == 14
    assert modify(7, 2, halve=True, double=True).value == 9
    assert modify(1, halve=True).value == 1


def test_E_MOD_ZERO_clamps_and_fails_automatically() -> None:
    """E-MOD-ZERO: modified to 0 or less it is 0 and fails automatically; no face succeeds."""
    for attr in (modify(3, -5), modify(0), modify(2, -4, double=True), modify(1, -3, halve=True)):
        assert attr.value == 0 and attr.fails_automatically
        assert not any(attr.succeeds(f) or attr.is_critical(f) for f in range(1, 21))
    assert not modify(1).fails_automatically and modify(1).is_critical(1)


def test_E_MOD_ZERO_damage_roll_is_the_exception() -> None:
    """E-MOD-ZERO's exception / E-ROLL-DMG: a damage target ≤ 0 is not an automatic failure
    of the attack: a Critical Hit (ARM 0) still wounds."""
    assert damage_target(5, 7) == -2 and not any(wounds_on(f, -2) for f in range(1, 21))
    assert damage_target(5, 7, critical=True) == 5 and wounds_on(5, 5) and not wounds_on(6, 5)
    log = resolve("ATT=10,STK=1,PW=5", "ARM=7,HP=2", [1, 4])
    assert log.active.damage[0].target == 5 and log.active.damage[0].wound
    assert log.active.wounds_dealt == 1 and log.reactive.result.state is ModelState.WOUNDED


def test_E_MOD_OVER_twenty_is_critical_above_twenty() -> None:
    """E-MOD-OVER: above 20 a 20 is a Critical Hit; at 20 it is an ordinary success."""
    assert modify(21).is_critical(20) and modify(19, 3).is_critical(20)
    assert not modify(20).is_critical(20) and modify(20).succeeds(20)
    assert modify(25).critical_on_20 and not modify(20).critical_on_20


def test_modified_attribute_repr_is_readable() -> None:
    assert repr(modify(13, -3, halve=True)) == "ModifiedAttribute(13 -3 = 10, halved -> 5)"
    assert repr(modify(12)) == "ModifiedAttribute(12)"


# ------------------------------------------------------------------ Strike


def test_E_STK_REACT_base_strike_one_never_below_one() -> None:
    """E-STK-REACT: the Reactive base Strike is 1 unless stated; never modified below 1."""
    assert strike() == 1 and strike(None, 2) == 3
    assert strike(3, -5) == 1
    assert Side(att=12).strike == 1 and Side(att=12, stk=2).strike == 2
    with pytest.raises(RuleInputError, match="E-STK-REACT"):
        Side(att=12, stk=0)
    log = resolve("ATT=12,STK=3", "ATT=12", [15, 16, 17, 18])  # 3 Active dice, 1 Reactive die
    assert len(log.active.dice) == 3 and len(log.reactive.dice) == 1


def test_E_STK_SPLIT_shares_and_engagement() -> None:
    """E-STK-SPLIT: the Active Strike may be split among targets; each share is an exchange."""
    assert split_strikes(3, [2, 1]) == (2, 1)
    for bad in ([2, 2], [3, 0], []):
        with pytest.raises(RuleInputError):
            split_strikes(3, bad)
    active = Side(att=12, stk=3, split=(2, 1))
    exchanges = engagement(active, [Side(att=10), Side()])
    assert [e.active_dice for e in exchanges] == [2, 1]
    assert [e.kind for e in exchanges] == ["confrontation", "unopposed"]
    log = resolve_engagement(active, [Side(att=10), Side()], Scripted([5, 6, 9, 7]))
    assert [len(x.active.dice) for x in log.exchanges] == [2, 1]
    assert [d.face for d in log.exchanges[0].active.dice] == [5, 6]
    with pytest.raises(RuleInputError, match="SPLIT"):
        engagement(Side(att=12, stk=3), [Side(), Side()])
    with pytest.raises(RuleInputError, match="shares"):
        engagement(active, [Side()])


# ------------------------------------------------------------------ rolls


def test_E_ROLL_ATTR_attribute_roll() -> None:
    """E-ROLL-ATTR: success on ≤ the modified attribute; E-ROLL-REROLL replaces a failure."""
    assert attribute_roll(modify(7), Scripted([7])).success
    assert not attribute_roll(modify(7), Scripted([8])).success
    again = attribute_roll(modify(7), Scripted([8, 3]), reroll_failed=True)
    assert again.success and again.face == 3 and again.rerolled_from == 8
    auto = attribute_roll(modify(2, -2), Scripted([]))
    assert auto.face is None and not auto.success


def test_E_ROLL_ATK_unopposed_every_success_hits() -> None:
    """E-ROLL-ATK: one die per Strike; each die ≤ the modified attribute is a Hit."""
    log = resolve("ATT=13,MOD=-3,STK=3", "ARM=2", [10, 11, 2])
    assert [d.target for d in log.active.dice] == [10, 10, 10]
    assert [d.success for d in log.active.dice] == [True, False, True]
    assert log.active.hits == 2 and log.kind == "unopposed" and log.reactive.dice == ()


def test_E_CONF_ties_cancel_and_higher_beats() -> None:
    """E-CONF: each success cancels every enemy die with an equal or lower result."""
    tie = resolve("ATT=13", "ATT=11", [8, 8])
    assert tie.active.dice[0].cancelled_by == ("R1",) and tie.reactive.dice[0].cancelled_by == ("A1",)
    assert tie.active.hits == tie.reactive.hits == 0
    log = resolve("ATT=13,STK=3", "ATT=11", [12, 5, 15, 6])
    a1, a2, a3 = log.active.dice
    assert a1.hit and a2.cancelled_by == ("R1",) and not a3.success and a3.cancelled_by == ()
    assert log.reactive.dice[0].cancelled_by == ("A1",)
    assert (log.active.hits, log.reactive.hits) == (1, 0)


def test_E_CONF_failed_dice_cancel_nothing() -> None:
    """E-CONF: only successful dice cancel (a failed 15 does not cancel a 9)."""
    log = resolve("ATT=10", "ATT=11", [15, 9])
    assert log.reactive.dice[0].hit and log.reactive.dice[0].cancelled_by == ()


def test_E_CRIT_beats_every_result_and_both_crits_hit() -> None:
    """E-CRIT: a Critical beats every opposing result; if both roll one, both take Hits."""
    log = resolve("ATT=13,STK=2", "ATT=11", [1, 12, 11])
    assert log.active.dice[0].critical and log.active.hits == 2
    assert log.reactive.dice[0].cancelled_by == ("A1", "A2")
    log = resolve("ATT=13,STK=2", "ATT=11", [13, 12, 1])
    assert log.active.hits == 0 and log.active.dice[0].cancelled_by == ("R1",)
    assert log.reactive.hits == 1 and log.reactive.critical_hits == 1
    log = resolve("ATT=22,STK=2", "ATT=11", [20, 12, 1])  # E-MOD-OVER: a 20 is critical too
    assert (log.active.hits, log.reactive.hits) == (1, 1)
    assert log.active.dice[0].critical and log.active.dice[1].cancelled_by == ("R1",)


def test_E_DODGE_ignores_non_critical_hits_only() -> None:
    """E-DODGE: a successful Agility roll ignores the non-critical Hits; crits land."""
    log = resolve("ATT=13,STK=3", "DODGE=8", [1, 7, 9, 8])
    assert log.kind == "dodge" and log.reactive.dodge.success
    assert [d.dodged for d in log.active.dice] == [False, True, True]
    assert log.active.hits == 1 and log.active.critical_hits == 1
    failed = resolve("ATT=13,STK=3", "DODGE=8", [1, 7, 9, 9])
    assert failed.active.hits == 3
    no_los = resolve("ATT=13", "DODGE=9,LOS=0", [7, 6])  # Agility halved: 5
    assert no_los.reactive.dodge.attribute.value == 5 and not no_los.reactive.dodge.success
    assert no_los.active.hits == 1


def test_E_ROLL_REROLL_reactive_first_then_active() -> None:
    """E-ROLL-REROLL: a reroll replaces the die completely; after the rolls the Reactive
    side rerolls first, then the Active side (E-CONF)."""
    log = resolve("ATT=13,STK=2,REROLL=1", "ATT=11,REROLL=1", [15, 3, 18, 9, 12])
    a1, a2 = log.active.dice
    (r1,) = log.reactive.dice
    assert (r1.face, r1.rerolled_from) == (9, 18)
    assert (a1.face, a1.rerolled_from) == (12, 15) and a2.rerolled_from is None
    assert a1.hit and a2.cancelled_by == ("R1",) and r1.cancelled_by == ("A1",)
    dodge = resolve("ATT=13,REROLL=1", "DODGE=6,REROLL=1", [14, 10, 4, 2])
    assert dodge.reactive.dodge.rerolled_from == 10 and dodge.reactive.dodge.success
    assert dodge.active.dice[0].rerolled_from == 14 and dodge.active.dice[0].dodged


def test_E_ROLL_DMG_one_die_per_hit_against_pw_minus_arm() -> None:
    """E-ROLL-DMG: one damage die per Hit, wounding on ≤ PW − ARM (PW for a crit)."""
    log = resolve("ATT=13,STK=3,PW=10", "ARM=2,HP=5", [1, 4, 17, 9, 9])
    assert [d.hit for d in log.active.damage] == ["A1", "A2"]
    assert [(d.target, d.wound) for d in log.active.damage] == [(10, True), (8, False)]
    log = resolve("ATT=13,STK=2,PW=10,REROLL_DMG=1", "ARM=2,HP=5", [3, 4, 9, 8, 20])
    assert [(d.face, d.rerolled_from, d.wound) for d in log.active.damage] == [(20, 9, False), (8, None, True)]
    assert resolve("ATT=13", "ARM=2", [3]).active.damage is None  # no PW: no damage roll


def test_E_WOUND_cap_incapacitated_dead() -> None:
    """E-WOUND: Wounds capped by HP; at 0 HP Incapacitated; another Wound kills."""
    r = apply_wounds(3, 2)
    assert (r.taken, r.hp_after, r.state) == (2, 0, ModelState.INCAPACITATED)
    assert apply_wounds(1, 3).state is ModelState.WOUNDED and apply_wounds(0, 3).state is ModelState.UNHARMED
    assert apply_wounds(2, None, incapacitated=True).state is ModelState.DEAD
    assert apply_wounds(2, None, incapacitated=True).taken == 1
    assert apply_wounds(0, 0, incapacitated=True).state is ModelState.INCAPACITATED
    log = resolve("ATT=25,STK=3,PW=30", "HP=2", [5, 6, 7, 1, 1, 1])
    assert log.active.wounds_rolled == 3 and log.active.wounds_dealt == 2
    assert log.reactive.result.state is ModelState.INCAPACITATED
    dead = resolve("ATT=25,PW=30", "INC=1", [5, 1])
    assert dead.reactive.result.state is ModelState.DEAD
    with pytest.raises(RuleInputError):
        Side(hp=2, incapacitated=True)


def test_E_MOD_ZERO_side_rolls_no_dice() -> None:
    """E-MOD-ZERO: an Attack modified to 0 fails automatically: no dice, no Hits, and it
    cancels nothing in a Confrontation."""
    log = resolve("ATT=4,MOD=-6,STK=3", "ATT=11", [9])
    assert log.active.fails_automatically and log.active.dice == ()
    assert log.reactive.hits == 1


# ------------------------------------------------------------------ seeds


def test_same_seed_same_log_random_and_numpy() -> None:
    ex = Exchange(parse_side("ATT=13,STK=3,PW=10,ARM=1,HP=3,REROLL=1"), parse_side("ATT=11,PW=9,ARM=2,HP=2"))
    assert resolve_exchange(ex, random.Random(7)) == resolve_exchange(ex, random.Random(7))
    assert resolve_exchange(ex, np.random.default_rng(7)) == resolve_exchange(ex, np.random.default_rng(7))
    logs = {resolve_exchange(ex, random.Random(s)) for s in range(20)}
    assert len(logs) > 1
    with pytest.raises(RuleInputError):
        roll_d20(7)  # type: ignore[arg-type]


def test_roll_d20_is_uniform_over_one_to_twenty() -> None:
    rng = random.Random(11)
    counts = Counter(roll_d20(rng) for _ in range(20000))
    assert sorted(counts) == list(range(1, 21))
    assert all(abs(c - 1000) < 5 * 31 for c in counts.values())  # 5 sigma
    gen = np.random.default_rng(11)
    assert {roll_d20(gen) for _ in range(2000)} == set(range(1, 21))


sides = st.builds(
    Side,
    att=st.integers(0, 24),
    modifiers=st.lists(st.integers(-5, 5), max_size=2).map(tuple),
    stk=st.integers(1, 5),
    pw=st.one_of(st.none(), st.integers(0, 22)),
    arm=st.integers(0, 6),
    hp=st.one_of(st.none(), st.integers(0, 4)),
    reroll=st.booleans(),
    reroll_damage=st.booleans(),
)
targets = st.one_of(
    sides,
    st.builds(Side, dodge=st.integers(0, 22), los=st.booleans(), hp=st.integers(0, 3), reroll=st.booleans()),
    st.builds(Side, arm=st.integers(0, 6), incapacitated=st.booleans()),
)


@settings(max_examples=80, deadline=None)
@given(active=sides, reactive=targets, seed=st.integers(0, 2**32 - 1))
def test_E_CONF_log_invariants(active: Side, reactive: Side, seed: int) -> None:
    """E-CONF / E-CRIT / E-WOUND on random rolls: a die is cancelled exactly by the opposing
    Criticals and opposing successes ≥ it; only Criticals let both sides hit; Wounds ≤ cap."""
    log = resolve_exchange(Exchange(active, reactive), random.Random(seed))
    for mine, theirs in ((log.active, log.reactive), (log.reactive, log.active)):
        by_id = {d.id: d for d in theirs.dice}
        for d in mine.dice:
            expected = () if d.critical or not d.success else tuple(
                o.id for o in theirs.dice if o.success and (o.critical or o.face >= d.face))
            assert d.cancelled_by == expected
            assert all(by_id[i].success for i in d.cancelled_by)
        cap = (theirs.side.wound_cap)
        assert cap is None or mine.wounds_dealt <= cap
        assert mine.hits == sum(d.hit for d in mine.dice)
        if mine.damage is not None:
            assert len(mine.damage) == mine.hits
    if log.active.hits and log.reactive.hits:
        assert log.active.critical_hits and log.reactive.critical_hits
        assert log.active.hits == log.active.critical_hits and log.reactive.hits == log.reactive.critical_hits


# ------------------------------------------------------------------ text form


def test_parse_side_reads_keys_case_insensitively() -> None:
    side = parse_side("att=13, MOD=-3,mod=1, STK=2,PW=10,HALVE=1,SPLIT=1/1", option="--active")
    assert side == Side(att=13, modifiers=(-3, 1), stk=2, pw=10, halve=True, split=(1, 1))
    assert side.attribute.value == 6


@pytest.mark.parametrize(
    "text,words",
    [
        ("ATT13", ["--active", "'ATT13'", "KEY=VALUE"]),
        ("ATT=x", ["--active", "'ATT=x'", "whole number"]),
        ("ATK=13", ["--active", "'ATK'", "known keys"]),
        ("ATT=1,,STK=2", ["--active", "empty item"]),
        ("ATT=1,STK=2,STK=3", ["--active", "STK given twice"]),
        ("ATT=1,HALVE=2", ["--active", "HALVE=0 or HALVE=1"]),
        ("ATT=1,STK=0", ["--active", "E-STK-REACT"]),
        ("ATT=1,DODGE=5", ["--active", "not both"]),
        ("ATT=1,SPLIT=a/b", ["--active", "SPLIT=2/1"]),
        ("ATT=1,STK=3,SPLIT=1/1", ["--active", "all 3 Strikes"]),
        ("", ["--active", "empty list"]),
        ("ATT=-2", ["--active", "ATT is 0 or more"]),
        ("ARM=1,LOS=0", ["--active", "give DODGE too"]),
        ("HP=2,INC=1", ["--active", "Incapacitated model has 0 HP"]),
    ],
)
def test_parse_side_errors_name_option_item_and_fix(text: str, words: list[str]) -> None:
    with pytest.raises(RuleInputError) as info:
        parse_side(text, option="--active")
    for w in words:
        assert w in str(info.value)


@settings(max_examples=60, deadline=None)
@given(side=st.one_of(sides, targets))
def test_side_text_round_trip(side: Side) -> None:
    assert parse_side(side.to_text() or "ARM=0") == side
    assert repr(side) == f"Side({side.to_text()!r})"


def test_exchange_checks_roles() -> None:
    with pytest.raises(RuleInputError, match="ATT"):
        Exchange(Side(), Side())
    with pytest.raises(RuleInputError, match="only the Active side splits"):
        Exchange(Side(att=3), Side(att=4, split=(1,)))
    with pytest.raises(RuleInputError, match="give it ATT"):
        Exchange(Side(dodge=4), Side())
    with pytest.raises(RuleInputError):
        Exchange(Side(att=3, stk=2), Side(), dice=3)
