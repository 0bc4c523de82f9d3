"""Exact odds (skirmish.rules.eldfall.odds) against a brute-force oracle.

The oracle below enumerates every face of every die with numpy (including every
first/second face of a rerolled die) and applies the rules literally, die by die:
E-ROLL-ATK, E-CRIT, E-MOD-OVER, E-MOD-ZERO, E-CONF (exact interpretation: a success
is cancelled by every opposing Critical and every opposing non-critical success with
an equal or higher face), E-DODGE, E-ROLL-DMG, E-ROLL-REROLL, E-WOUND. It takes plain
numbers (the modified attributes), never the library's value types.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import RuleInputError
from skirmish.rules.eldfall.baselines import brute_force_odds, max_abs_error, monte_carlo_odds
from skirmish.rules.eldfall.dice import resolve_engagement, resolve_exchange
from skirmish.rules.eldfall.exchange import Exchange, Side
from skirmish.rules.eldfall.modifiers import modify
from skirmish.rules.eldfall.odds import (
    Distribution,
    attack_die,
    attribute_roll_odds,
    engagement_odds,
    exchange_odds,
    odds,
)
from skirmish.rules.eldfall.wounds import ModelState

SPREAD = (0, 1, 2, 10, 19, 20, 21, 25)
FACES = np.arange(1, 21, dtype=np.int16)

# ----------------------------------------------------------------------------- oracle


def _axis(target: int, reroll: bool) -> np.ndarray:
    """Final faces of one die over all its raw outcomes (400 with a reroll of a failure)."""
    if not reroll:
        return FACES
    first, second = np.repeat(FACES, 20), np.tile(FACES, 20)
    return np.where((target >= 1) & (first <= target), first, second)


def _success(f: np.ndarray, t: int) -> np.ndarray:
    return (t >= 1) & (f <= t)


def _critical(f: np.ndarray, t: int) -> np.ndarray:
    return _success(f, t) & ((f == 1) | ((f == 20) & (t > 20)))


def _side_hits(mine: list[np.ndarray], tm: int, theirs: list[np.ndarray], tt: int):
    # (counts of at most 3 dice: uint16 arrays keep the 20**5-face meshes small and fast)
    crits = np.zeros((), dtype=np.uint16)
    normal = np.zeros((), dtype=np.uint16)
    for f in mine:
        cancelled = np.zeros((), dtype=bool)
        for g in theirs:
            cancelled = cancelled | (_success(g, tt) & (_critical(g, tt) | (g >= f)))
        crits = crits + _critical(f, tm)
        normal = normal + (_success(f, tm) & ~_critical(f, tm) & ~cancelled)
    return crits, normal


@functools.lru_cache(maxsize=None)
def oracle_hits(ta: int, na: int, tb: int, nb: int, rra: bool = False, rrb: bool = False,
                dodge: int | None = None) -> tuple[dict[tuple[int, int, int, int], int], int]:
    """Weights of (A crit Hits, A other Hits, B crit Hits, B other Hits) over all faces."""
    axes = [_axis(ta, rra)] * na + [_axis(tb, rrb)] * nb
    if dodge is not None:
        axes.append(_axis(dodge, rrb))
    mesh = np.meshgrid(*axes, indexing="ij", sparse=True)
    a, b = list(mesh[:na]), list(mesh[na:na + nb])
    ka, ja = _side_hits(a, ta, b, tb)
    kb, jb = _side_hits(b, tb, a, ta) if nb else (0, 0)
    if dodge is not None:
        ja = ja * ~_success(mesh[-1], dodge)
    shape = np.broadcast_shapes(*(m.shape for m in mesh))
    key = np.broadcast_to(((np.asarray(ka) * 8 + ja) * 8 + kb) * 8 + jb, shape).ravel()
    counts = np.bincount(key, minlength=8**4)
    out = {}
    for code in np.nonzero(counts)[0]:
        code = int(code)
        out[(code >> 9, (code >> 6) & 7, (code >> 3) & 7, code & 7)] = int(counts[code])
    den = 1
    for ax in axes:
        den *= len(ax)
    return out, den


@functools.lru_cache(maxsize=None)
def oracle_wounds(k: int, j: int, pw: int, arm: int, reroll: bool, cap: int | None) -> dict[int, Fraction]:
    """Wounds of k critical and j other Hits, enumerating every damage face."""
    targets = [pw] * k + [pw - arm] * j
    if not targets:
        return {0: Fraction(1)}
    axes = [_axis(t, reroll) for t in targets]
    mesh = np.meshgrid(*axes, indexing="ij", sparse=True)
    wounds = sum((m <= t) for m, t in zip(mesh, targets))
    wounds = np.broadcast_to(wounds, np.broadcast_shapes(*(m.shape for m in mesh))).ravel()
    if cap is not None:
        wounds = np.minimum(wounds, cap)
    counts = np.bincount(wounds)
    return {i: Fraction(int(c), len(wounds)) for i, c in enumerate(counts) if c}


def _state(w: int, hp: int | None, inc: bool) -> ModelState:
    if inc:
        return ModelState.DEAD if w else ModelState.INCAPACITATED
    if hp is not None and hp - w == 0:
        return ModelState.INCAPACITATED
    return ModelState.WOUNDED if w else ModelState.UNHARMED


@dataclass(frozen=True)
class Case:
    """Plain numbers for one exchange; ``tb`` None: the target does not attack."""

    ta: int
    na: int
    tb: int | None = None
    nb: int = 1
    rra: bool = False
    rrb: bool = False
    dodge: int | None = None  # modified Agility
    pw_a: int | None = 10
    pw_b: int | None = 9
    arm_a: int = 1
    arm_b: int = 2
    hp_a: int | None = 3
    hp_b: int | None = 2
    inc_a: bool = False
    inc_b: bool = False
    rrd_a: bool = False
    rrd_b: bool = False


def oracle(case: Case) -> dict:
    """Expected hits/crits/wounds/joints/states as {count: Fraction} dicts."""
    nb = case.nb if case.tb is not None else 0
    raw, den = oracle_hits(case.ta, case.na, case.tb or 0, nb, case.rra, case.rrb, case.dodge)
    cap_b = 1 if case.inc_b else case.hp_b
    cap_a = 1 if case.inc_a else case.hp_a
    res: dict[str, Counter] = {n: Counter() for n in ("ha", "hb", "ca", "cb", "wa", "wb", "jh", "jw")}
    for (ka, ja, kb, jb), c in raw.items():
        p = Fraction(c, den)
        res["ha"][ka + ja] += p
        res["hb"][kb + jb] += p
        res["ca"][ka] += p
        res["cb"][kb] += p
        res["jh"][(ka + ja, kb + jb)] += p
        wa = oracle_wounds(ka, ja, case.pw_a, case.arm_b, case.rrd_a, cap_b) if case.pw_a is not None else None
        if nb == 0:
            wb = {0: Fraction(1)}
        else:
            wb = oracle_wounds(kb, jb, case.pw_b, case.arm_a, case.rrd_b, cap_a) if case.pw_b is not None else None
        for w, q in (wa or {}).items():
            res["wa"][w] += p * q
        for w, q in (wb or {}).items():
            res["wb"][w] += p * q
        if wa is not None and wb is not None:
            for x, q in wa.items():
                for y, r in wb.items():
                    res["jw"][(x, y)] += p * q * r
    out = {k: {kk: vv for kk, vv in v.items() if vv} for k, v in res.items()}
    out["sb"] = Counter()
    out["sa"] = Counter()
    for w, p in out["wa"].items():
        out["sb"][_state(w, case.hp_b, case.inc_b)] += p
    for w, p in out["wb"].items():
        out["sa"][_state(w, case.hp_a, case.inc_a)] += p
    return out


# ------------------------------------------------------ building library values


def attribute_side(target: int, variant: int) -> dict:
    """Side keywords whose modified attribute is ``target``, reached in several ways
    (E-MOD-SUM, E-MOD-HALF, E-MOD-ZERO)."""
    v = variant % 4
    if target == 0:
        return [dict(att=0), dict(att=2, modifiers=(-5,)), dict(att=3, modifiers=(-1, -2)),
                dict(att=1, modifiers=(-4,), halve=True)][v]
    if v == 1:
        return dict(att=target + 3, modifiers=(-1, -2))
    if v == 2:
        return dict(att=2 * target - 1, halve=True)  # ceil((2T-1)/2) = T
    if v == 3 and target % 2 == 0:
        return dict(att=target // 2 + 1, modifiers=(-1,), double=True)
    if v == 3:
        return dict(att=target + 2, modifiers=(-4, 2), halve=True, double=True)
    return dict(att=target)


def build(case: Case, variant: int = 0) -> Exchange:
    active = Side(stk=case.na, pw=case.pw_a, arm=case.arm_a, hp=None if case.inc_a else case.hp_a,
                  incapacitated=case.inc_a, reroll=case.rra, reroll_damage=case.rrd_a,
                  **attribute_side(case.ta, variant))
    kw = dict(arm=case.arm_b, hp=None if case.inc_b else case.hp_b, incapacitated=case.inc_b,
              reroll=case.rrb, reroll_damage=case.rrd_b, pw=case.pw_b)
    if case.tb is not None:
        kw.update(attribute_side(case.tb, variant + 1), stk=case.nb)
    elif case.dodge is not None:
        kw.update(dodge=case.dodge)
    return Exchange(active, Side(**kw))


def assert_matches(got, want: dict) -> None:
    def d(dist):
        return {k: p for k, p in dist.items() if p}

    assert d(got.active.hits) == want["ha"]
    assert d(got.reactive.hits) == want["hb"]
    assert d(got.active.critical_hits) == want["ca"]
    assert d(got.reactive.critical_hits) == want["cb"]
    assert dict(got.joint_hits.items()) == want["jh"]
    if want["wa"]:
        assert d(got.active.wounds) == want["wa"]
        assert dict(got.reactive.state) == dict(want["sb"])
    else:
        assert got.active.wounds is None
    if want["wb"]:
        assert d(got.reactive.wounds) == want["wb"]
        assert dict(got.active.state) == dict(want["sa"])
    else:
        assert got.reactive.wounds is None
    if want["wa"] and want["wb"]:
        assert dict(got.joint_wounds.items()) == want["jw"]
    else:
        assert got.joint_wounds is None


# Damage settings cycled over the sweep: ordinary, PW − ARM ≤ 0 (only crits wound),
# PW − ARM ≥ 20 (every die wounds), PW 0, and no PW on one side.
DAMAGE = (
    dict(pw_a=10, arm_b=2, pw_b=9, arm_a=1, hp_a=3, hp_b=2),
    dict(pw_a=3, arm_b=5, pw_b=4, arm_a=4, hp_a=1, hp_b=3),
    dict(pw_a=25, arm_b=2, pw_b=22, arm_a=0, hp_a=2, hp_b=1),
    dict(pw_a=0, arm_b=0, pw_b=20, arm_a=1, hp_a=None, hp_b=None),
    dict(pw_a=12, arm_b=3, pw_b=None, hp_a=2, hp_b=2, inc_b=True),
)

POOLS = [(1, 0), (2, 0), (3, 0), (1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2)]


@pytest.mark.parametrize("na,nb", [p if sum(p) < 5 else pytest.param(*p, marks=pytest.mark.slow) for p in POOLS])
def test_E_CONF_E_CRIT_E_ROLL_DMG_exact_equals_brute_force_every_pool(na: int, nb: int) -> None:
    """E-ROLL-ATK, E-CONF, E-CRIT, E-MOD-OVER, E-MOD-ZERO, E-ROLL-DMG, E-WOUND: the exact
    odds equal a brute-force enumeration of every face, for every pool up to 3 vs 2
    and every pair of attributes of the spread, reached through modifiers."""
    i = 0
    for ta in SPREAD:
        for tb in SPREAD if nb else (None,):
            case = Case(ta=ta, na=na, tb=tb, nb=nb, **DAMAGE[i % len(DAMAGE)])
            assert_matches(exchange_odds(build(case, i)), oracle(case))
            i += 1


@pytest.mark.parametrize(
    "na,nb,rra,rrb,spread",
    [(1, 1, True, True, SPREAD), pytest.param(2, 1, True, False, (0, 1, 10, 20, 21), marks=pytest.mark.slow),
     pytest.param(1, 2, False, True, (1, 10, 19, 25), marks=pytest.mark.slow),
     (2, 0, True, False, SPREAD)],
)
def test_E_ROLL_REROLL_exact_equals_brute_force(na, nb, rra, rrb, spread) -> None:
    """E-ROLL-REROLL: rerolling failed dice once (per side), checked over every first
    and second face."""
    i = 0
    for ta in spread:
        for tb in spread if nb else (None,):
            dmg = dict(DAMAGE[i % len(DAMAGE)], rrd_a=rra, rrd_b=rrb)
            case = Case(ta=ta, na=na, tb=tb, nb=nb, rra=rra, rrb=rrb, **dmg)
            assert_matches(exchange_odds(build(case, i)), oracle(case))
            i += 1


@pytest.mark.parametrize("na", [1, 2, 3])
@pytest.mark.parametrize("reroll", [False, True])
def test_E_DODGE_exact_equals_brute_force(na: int, reroll: bool) -> None:
    """E-DODGE: a successful Agility roll ignores the non-critical Hits."""
    for i, (ta, agi) in enumerate([(10, 7), (21, 12), (19, 0), (2, 20), (13, 25), (0, 5)]):
        case = Case(ta=ta, na=na, dodge=agi, rrb=reroll, **DAMAGE[i % 3])
        assert_matches(exchange_odds(build(case, i)), oracle(case))


def test_E_DODGE_without_los_halves_agility() -> None:
    """E-DODGE: without LoS to the attacker Agility is halved (rounding up, E-MOD-HALF)."""
    with_los = odds(Side(att=20, stk=1), Side(dodge=9))
    without = odds(Side(att=20, stk=1), Side(dodge=9, los=False))
    halved = odds(Side(att=20, stk=1), Side(dodge=5))
    assert without.active.hits == halved.active.hits != with_los.active.hits
    # 19 non-critical faces hit unless the dodge (5 in 20) succeeds, the crit always lands
    assert without.active.hits[1] == Fraction(1, 20) + Fraction(19, 20) * Fraction(15, 20)


@settings(max_examples=40, deadline=None)
@given(
    ta=st.integers(0, 26), tb=st.one_of(st.none(), st.integers(0, 26)),
    na=st.integers(1, 2), nb=st.integers(1, 2), rra=st.booleans(), rrb=st.booleans(),
    pw_a=st.one_of(st.none(), st.integers(0, 24)), pw_b=st.one_of(st.none(), st.integers(0, 24)),
    arm_a=st.integers(0, 8), arm_b=st.integers(0, 8),
    hp_a=st.one_of(st.none(), st.integers(0, 3)), hp_b=st.one_of(st.none(), st.integers(0, 3)),
    inc_a=st.booleans(), inc_b=st.booleans(), rrd_a=st.booleans(), rrd_b=st.booleans(),
    dodge=st.one_of(st.none(), st.integers(0, 22)), variant=st.integers(0, 3),
)
def test_exact_equals_brute_force_property(ta, tb, na, nb, rra, rrb, pw_a, pw_b, arm_a, arm_b, hp_a, hp_b,
                                           inc_a, inc_b, rrd_a, rrd_b, dodge, variant) -> None:
    """E-CONF, E-CRIT, E-DODGE, E-ROLL-REROLL, E-ROLL-DMG, E-WOUND on random small exchanges."""
    if tb is not None:
        dodge = None
    elif dodge is None:
        nb = 0
    else:
        nb = 1  # the dodge die
    while ((400 if rra else 20) ** na) * ((400 if rrb else 20) ** nb) > 400**2 * 20:
        na, nb = (na - 1, nb) if na > 1 else (na, nb - 1)
    nb = max(nb, 1)
    case = Case(ta=ta, na=na, tb=tb, nb=nb, rra=rra, rrb=rrb, dodge=dodge, pw_a=pw_a, pw_b=pw_b,
                arm_a=arm_a, arm_b=arm_b, hp_a=hp_a, hp_b=hp_b, inc_a=inc_a, inc_b=inc_b,
                rrd_a=rrd_a, rrd_b=rrd_b)
    assert_matches(exchange_odds(build(case, variant)), oracle(case))


# ------------------------------------------------------------------ invariants


@settings(max_examples=60, deadline=None)
@given(ta=st.integers(0, 25), tb=st.integers(0, 25), na=st.integers(1, 8), nb=st.integers(1, 8))
def test_E_CRIT_crits_never_cancelled_and_only_crits_let_both_hit(ta, tb, na, nb) -> None:
    """E-CRIT: Critical Hits are never cancelled, so each side's critical Hits are
    binomial; both sides score Hits only when both rolled a Critical."""
    got = odds(Side(att=ta, stk=na), Side(att=tb, stk=nb))
    pa = Fraction(attack_die(modify(ta)).critical, 20)
    pb = Fraction(attack_die(modify(tb)).critical, 20)
    for k in range(na + 1):
        assert got.active.critical_hits[k] == Fraction(pa) ** k * (1 - pa) ** (na - k) * _comb(na, k)
    both = sum(p for (a, b), p in got.joint_hits.items() if a and b)
    assert both == (1 - (1 - pa) ** na) * (1 - (1 - pb) ** nb)


def _comb(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


@settings(max_examples=40, deadline=None)
@given(ta=st.integers(0, 24), tb=st.integers(0, 25), na=st.integers(1, 6), nb=st.integers(1, 6))
def test_E_CONF_raising_an_attribute_never_hurts_its_side(ta, tb, na, nb) -> None:
    """E-CONF: a higher modified attribute turns failures into successes (and, above 20,
    a 20 into a Critical); the side's expected Hits never drop, the opponent's never rise."""
    low = odds(Side(att=ta, stk=na), Side(att=tb, stk=nb))
    high = odds(Side(att=ta + 1, stk=na), Side(att=tb, stk=nb))
    assert high.active.expected_hits >= low.active.expected_hits
    assert high.reactive.expected_hits <= low.reactive.expected_hits


@settings(max_examples=40, deadline=None)
@given(t=st.integers(0, 30), n=st.integers(1, 12))
def test_E_ROLL_ATK_unopposed_hits_are_binomial(t: int, n: int) -> None:
    """E-ROLL-ATK: without a Confrontation every success is a Hit: Hits ~ Bin(n, min(T,20)/20),
    and E-MOD-ZERO: 0 Hits at T = 0."""
    got = odds(Side(att=t, stk=n), Side())
    p = Fraction(min(t, 20), 20)
    assert got.active.hits.as_dict() == {k: _comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(len(got.active.hits))}
    assert got.active.expected_hits == n * p
    assert got.reactive.hits == Distribution.point(0)


def test_E_CONF_ties_cancel_exact_1v1() -> None:
    """E-CONF: 1 vs 1 at 10 vs 10: a Hit needs a success above the other's (or a crit)."""
    got = odds(Side(att=10, stk=1), Side(att=10))
    # A hits: crit (1/20), or A in 2..10 and B fails or B in 2..A-1 (B's crit cancels A).
    p = Fraction(1, 20) + sum(Fraction(1, 20) * (Fraction(10, 20) + Fraction(a - 2, 20)) for a in range(2, 11))
    assert got.active.hits[1] == p == got.reactive.hits[1]
    assert got.joint_hits.p(1, 1) == Fraction(1, 400)


def test_E_WOUND_capped_and_states() -> None:
    """E-WOUND: never more Wounds than HP; 0 HP → Incapacitated; an Incapacitated model
    that takes a Wound is Dead."""
    sure = odds(Side(att=25, stk=5, pw=30), Side(hp=2))
    assert sure.active.wounds == Distribution.point(2)
    assert sure.reactive.state == {ModelState.INCAPACITATED: 1}
    dying = odds(Side(att=25, stk=5, pw=30), Side(incapacitated=True))
    assert dying.active.wounds == Distribution.point(1)
    assert dying.reactive.state == {ModelState.DEAD: 1}
    none = odds(Side(att=0, stk=5, pw=30), Side(hp=2))
    assert none.reactive.state == {ModelState.UNHARMED: 1}


def test_E_ROLL_DMG_crit_sets_armor_zero() -> None:
    """E-ROLL-DMG, E-CRIT: PW − ARM ≤ 0 wounds only through Critical Hits (ARM 0)."""
    got = odds(Side(att=1, stk=1, pw=10), Side(arm=12, hp=5))  # the only success is a crit
    assert got.active.wounds[1] == Fraction(1, 20) * Fraction(10, 20)
    plain = odds(Side(att=20, stk=1, pw=10), Side(arm=12, hp=5))
    assert plain.active.wounds[1] == Fraction(1, 20) * Fraction(10, 20)


def test_E_ROLL_ATTR_attribute_roll_odds() -> None:
    """E-ROLL-ATTR: success on ≤ the modified attribute; E-MOD-ZERO at 0; rerolled once."""
    assert attribute_roll_odds(modify(7)) == Fraction(7, 20)
    assert attribute_roll_odds(modify(3, -5)) == 0
    assert attribute_roll_odds(modify(25)) == 1
    assert attribute_roll_odds(modify(7), reroll=True) == 1 - Fraction(13, 20) ** 2


def test_E_STK_SPLIT_engagement_odds() -> None:
    """E-STK-SPLIT: split Strikes make independent exchanges with their share of the dice;
    the Wounds the Active model takes from all targets add up, capped by its HP."""
    active = Side(att=12, stk=3, pw=10, hp=1, split=(2, 1))
    t1, t2 = Side(att=15, pw=20, hp=2), Side(att=20, pw=20, hp=1)
    got = engagement_odds(active, [t1, t2])
    assert got.exchanges[0] == exchange_odds(Exchange(active, t1, 2))
    assert got.exchanges[1] == exchange_odds(Exchange(active, t2, 1))
    p0 = got.exchanges[0].reactive.wounds[0] * got.exchanges[1].reactive.wounds[0]
    assert got.active_wounds_taken.as_dict() == {0: p0, 1: 1 - p0}
    assert got.active_state == {ModelState.UNHARMED: p0, ModelState.INCAPACITATED: 1 - p0}
    with pytest.raises(RuleInputError, match="SPLIT"):
        engagement_odds(Side(att=12, stk=3), [t1, t2])


def test_distribution_values_and_repr() -> None:
    d = Distribution([1, 2, 1], 4)
    assert d.as_dict() == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    assert d.mean == 1 and d.at_least(1) == Fraction(3, 4) and d[5] == 0
    assert repr(d) == "Distribution({0: 1/4, 1: 1/2, 2: 1/4})"
    assert Distribution([2, 4, 2, 0], 8) == d
    with pytest.raises(RuleInputError):
        Distribution([1, 1], 3)


def test_brute_force_baseline_agrees() -> None:
    """The library's own brute-force baseline agrees with the exact engine."""
    ex = Exchange(Side(att=21, stk=2, pw=10, reroll=True), Side(att=12, pw=9, arm=2, hp=1, reroll_damage=True))
    assert brute_force_odds(ex) == exchange_odds(ex)
    with pytest.raises(RuleInputError):
        brute_force_odds(Exchange(Side(att=10, stk=9), Side(att=10, stk=9)))


# --------------------------------------------------------- simulation vs exact


def _within(counts: Counter, n: int, dist: Distribution) -> None:
    """Every frequency within 5 standard errors (plus 1/n) of the exact probability."""
    for k in set(counts) | set(range(len(dist))):
        p = float(dist[k])
        assert abs(counts[k] / n - p) <= 5 * (p * (1 - p) / n) ** 0.5 + 1 / n, (k, counts[k] / n, p)


@pytest.mark.parametrize(
    "active,reactive",
    [
        (Side(att=13, stk=3, pw=10, arm=1, hp=3), Side(att=11, pw=9, arm=2, hp=2)),
        (Side(att=21, stk=2, pw=8, reroll=True), Side(att=15, stk=2, pw=12, hp=2, reroll=True, reroll_damage=True)),
        (Side(att=14, stk=3, pw=9, reroll_damage=True), Side(dodge=8, los=False, arm=2, hp=2, reroll=True)),
    ],
)
def test_seeded_simulation_within_statistical_bound(active: Side, reactive: Side) -> None:
    """The seeded resolution (dice.resolve_exchange) agrees with the exact odds."""
    rng = random.Random(20240501)
    ex = Exchange(active, reactive)
    exact = exchange_odds(ex)
    n = 3000
    ha, hb, wa, wb = Counter(), Counter(), Counter(), Counter()
    for _ in range(n):
        log = resolve_exchange(ex, rng)
        ha[log.active.hits] += 1
        hb[log.reactive.hits] += 1
        wa[log.active.wounds_dealt] += 1
        wb[log.reactive.wounds_dealt] += 1
    _within(ha, n, exact.active.hits)
    _within(hb, n, exact.reactive.hits)
    _within(wa, n, exact.active.wounds)
    _within(wb, n, exact.reactive.wounds)


def test_seeded_engagement_simulation_within_statistical_bound() -> None:
    """E-STK-SPLIT: simulated split attacks agree with engagement_odds."""
    active = Side(att=12, stk=3, pw=14, hp=2, split=(1, 2))
    targets = [Side(att=15, pw=20, hp=2), Side(att=18, stk=2, pw=14, hp=1)]
    exact = engagement_odds(active, targets)
    rng = np.random.default_rng(5)
    n = 2000
    taken = Counter(resolve_engagement(active, targets, rng).active_result.taken for _ in range(n))
    _within(taken, n, exact.active_wounds_taken)


def test_monte_carlo_baseline_close_to_exact() -> None:
    ex = Exchange(Side(att=13, stk=4, pw=10, reroll=True), Side(att=12, stk=2, pw=9, arm=2, hp=2))
    exact = exchange_odds(ex)
    mc = monte_carlo_odds(ex, 40000, np.random.default_rng(3))
    assert max_abs_error(mc.active_hits, exact.active.hits) < 0.015
    assert max_abs_error(mc.reactive_hits, exact.reactive.hits) < 0.015
    assert max_abs_error(mc.active_wounds, exact.active.wounds) < 0.015
    dodge = Exchange(Side(att=13, stk=3, pw=10), Side(dodge=9, reroll=True, hp=2))
    mc = monte_carlo_odds(dodge, 40000, np.random.default_rng(4))
    assert max_abs_error(mc.active_hits, exchange_odds(dodge).active.hits) < 0.015
