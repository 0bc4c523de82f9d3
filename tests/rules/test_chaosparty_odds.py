"""C-EXACT: the exact odds of one attack against a brute-force enumeration of every
face (attack die, defence die, both d20s and the counter's d4)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import RuleInputError
from skirmish.rules.chaosparty import Attack, Faces, attack_odds, resolve

LADDER = [4, 6, 8, 10, 12, 20]


def klass(p: int) -> int:
    """C-CLASS, written out: 0 | 1-2 | 3-4 | 5-6 | 7+ (Unlimited)."""
    return 0 if p == 0 else 1 if p <= 2 else 2 if p <= 4 else 3 if p <= 6 else 4


def brute(ap, dp, ab=(), db=(), dap=0, advantage=False):
    """Every face of every die, straight from the C-EXACT text; returns
    (P(repelled), damage dist, counter dist, P(overload doubles), P(absorb blocks)).
    (One array axis a die: a, d, o20, s20, x4 hold every face combination at once.)"""
    ac, dc, cc = klass(ap), klass(dp), klass(dap)
    na = LADDER[ac + ("raise" in ab) + (1 if advantage and ac > 0 else 0)]
    nd = LADDER[dc + ("raise" in db)]
    shape = (na, nd, 20, 20, 4)
    a, d, o20, s20, x4 = np.meshgrid(*(np.arange(1, k + 1) for k in shape), indexing="ij", sparse=True)
    n = na * nd * 20 * 20 * 4
    av = np.maximum(a, ap) if "floor" in ab else a
    dv = np.maximum(d, dp) if "floor" in db else d
    repelled = dv >= av
    counter = (cc or (d if nd == 4 else x4)) if "counter" in db else 0
    hit = ac or a
    doubles = ~repelled & ((a == na) | ("overload" in ab)) & (o20 - d - dp > 0)
    hit = np.where(doubles, hit * 2, hit)
    blocks = ~repelled & ((d == nd) | ("absorb" in db)) & (s20 - av - ap > 0)
    hit = np.where(blocks, np.maximum(0, hit - (dc or d)), hit)
    dmg = np.where(repelled, 0, hit)
    ctr = np.where(repelled, counter, 0)

    def count(c):
        return int(np.broadcast_to(c, shape).sum())

    def dist(values):
        return {k: Fraction(int(v), n) for k, v in enumerate(np.bincount(np.broadcast_to(values, shape).ravel())) if v}

    return Fraction(count(repelled), n), dist(dmg), dist(ctr), Fraction(count(doubles), n), Fraction(count(blocks), n)


def nonzero(t):
    return {k: p for k, p in enumerate(t) if p}


def assert_matches(ap, dp, ab=(), db=(), dap=0, advantage=False):
    o = attack_odds(Attack(ap, dp, frozenset(ab), frozenset(db), dap, advantage=advantage, unlimited=ap > 6 or dp > 6))
    rep, dmg, ctr, ov, absb = brute(ap, dp, ab, db, dap, advantage)
    assert o.repelled == rep
    assert nonzero(o.damage) == dmg
    assert nonzero(o.counter_damage) == ctr
    assert o.overload == ov and o.absorb == absb
    assert sum(o.damage) == 1 and sum(o.counter_damage) == 1


@pytest.mark.parametrize("ap, dp, ab, db, dap", [
    (4, 2, (), (), 0),
    (0, 0, (), (), 0),                                   # class 0 against class 0: both d4s stand in
    (0, 3, (), ("counter",), 0),                         # class-0 counter with a d8 defence: a fresh d4
    (0, 0, (), ("counter",), 0),                         # class-0 counter: the defence d4 stands in
    (5, 3, ("raise", "floor", "overload"), ("absorb", "counter"), 2),
    (2, 5, ("floor",), ("raise", "floor"), 4),
    (1, 1, ("overload",), ("absorb",), 1),
    (6, 6, ("raise",), ("raise", "floor", "absorb", "counter"), 0),
])
def test_c_exact_odds_equal_brute_force(ap, dp, ab, db, dap):
    """C-EXACT, C-RESOLVE, C-OVERLOAD, C-ABSORB: exact odds = every face enumerated."""
    assert_matches(ap, dp, ab, db, dap)


def test_c_turn_superiority_and_unlimited_odds_equal_brute_force():
    """C-TURN: the advantage's free step (d10 → d12) and Unlimited class 4 (d12, raised d20)."""
    assert_matches(5, 2, ("floor",), (), 0, advantage=True)
    assert_matches(7, 3, ("raise",), ("floor",), 0)


boosts_a = st.sets(st.sampled_from(["raise", "floor", "overload"]))
boosts_d = st.sets(st.sampled_from(["raise", "floor", "absorb", "counter"]))


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(ap=st.integers(1, 4), dp=st.integers(1, 4), ab=boosts_a, db=boosts_d, dap=st.integers(1, 6))
def test_c_exact_odds_equal_brute_force_property(ap, dp, ab, db, dap):
    assert_matches(ap, dp, tuple(ab), tuple(db), dap)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(ap=st.integers(0, 6), dp=st.integers(0, 6), ab=boosts_a, db=boosts_d, dap=st.integers(0, 6),
       adv=st.booleans())
def test_c_exact_odds_equal_brute_force_wide(ap, dp, ab, db, dap, adv):
    if ap == 0:
        ab.discard("raise")
        ab.discard("overload")
    if dp == 0:
        db.discard("raise")
        db.discard("absorb")
    assert_matches(ap, dp, tuple(ab), tuple(db), dap, adv)


def test_c_exact_conditional_odds_average_to_the_whole():
    """Given each attack face, the odds average (uniformly over the faces) to the odds."""
    a = Attack(3, 2, frozenset({"floor"}), frozenset({"counter", "absorb"}), 1)
    whole = attack_odds(a)
    parts = [attack_odds(a, f) for f in range(1, a.attack_die + 1)]
    assert sum(p.repelled for p in parts) / a.attack_die == whole.repelled
    assert sum(p.expected_damage for p in parts) / a.attack_die == whole.expected_damage
    with pytest.raises(RuleInputError, match="faces 1..8"):
        attack_odds(a, 9)


def test_c_exact_odds_agree_with_resolve_face_by_face():
    """The game's resolve() and the odds read C-EXACT the same way (sampled faces)."""
    a = Attack(4, 3, frozenset({"overload"}), frozenset({"absorb"}))
    for af, df, o20, s20 in product(range(1, 9), range(1, 9), (1, 10, 20), (1, 12, 20)):
        r = resolve(a, Faces(af, df, o20, s20))
        av, dv = af, df
        if dv >= av:
            assert r.repelled and r.damage == 0
            continue
        hit = 2 * (2 if o20 - df - 3 > 0 else 1)
        if s20 - av - 4 > 0:
            hit = max(0, hit - 2)
        assert r.damage == hit


@settings(max_examples=40, deadline=None)
@given(ap=st.integers(1, 6), dp=st.integers(1, 6), ab=st.sets(st.sampled_from(["raise", "overload"])),
       db=st.sets(st.sampled_from(["raise", "absorb"])))
def test_c_attack_and_c_defence_floor_only_helps_its_user(ap, dp, ab, db):
    """Floor lifts a value: the attacker's never lowers the expected damage, the defender's never raises it."""
    def expected(a_floor: bool, d_floor: bool) -> Fraction:
        return attack_odds(Attack(ap, dp, frozenset(ab | ({"floor"} if a_floor else set())),
                                  frozenset(db | ({"floor"} if d_floor else set())))).expected_damage
    assert expected(True, False) >= expected(False, False) >= expected(False, True)
