"""E-ROLL-REROLL with a chosen number of dice (``REROLL=k``) and ``REROLL=all``.

The exact odds are checked against a brute force that rolls every ordered face of
every die, tries every set of die indices to reroll and every new face, and picks
the choice by the documented preference: more expected own Hits, then fewer expected
opposing Hits, then fewer dice, then the lower dice (fail < success faces < Critical).
The Reactive side rerolls first and looks ahead to the Active side's best answer.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import RuleInputError
from skirmish.rules.eldfall.dice import resolve_exchange
from skirmish.rules.eldfall.exchange import Exchange, Side, parse_side
from skirmish.rules.eldfall.odds import exchange_odds

from test_dice import resolve as roll

FACES = range(1, 21)
Rule = tuple[str, int]  # ("none" | "all" | "best", k)


def succ(v: int, t: int) -> bool:
    return t >= 1 and v <= t


def crit(v: int, t: int) -> bool:
    return succ(v, t) and (v == 1 or (v == 20 and t > 20))


def rank(v: int, t: int) -> int:
    return 21 if crit(v, t) else (v if succ(v, t) else 0)


@lru_cache(maxsize=None)  # (a pure function of the faces, asked again for every option that reaches them)
def judge(a: tuple[int, ...], ta: int, b: tuple[int, ...], tb: int, dodged: bool) -> tuple[int, int, int, int]:
    """E-CONF (exact) from the faces: (A crits, A other Hits, B crits, B other Hits)."""
    a_crit = [v for v in a if crit(v, ta)]
    b_crit = [v for v in b if crit(v, tb)]
    a_nc = [v for v in a if succ(v, ta) and not crit(v, ta)]
    b_nc = [v for v in b if succ(v, tb) and not crit(v, tb)]
    best_a, best_b = max(a_nc, default=0), max(b_nc, default=0)
    ja = 0 if (b_crit or dodged) else sum(v > best_b for v in a_nc)
    jb = 0 if a_crit else sum(v > best_a for v in b_nc)
    return len(a_crit), ja, len(b_crit), jb


def subsets(n: int, rule: Rule, faces: tuple[int, ...], t: int) -> Iterator[tuple[int, ...]]:
    mode, k = rule
    if mode == "none":
        yield ()
    elif mode == "all":
        yield tuple(i for i, v in enumerate(faces) if not succ(v, t))
    else:
        for size in range(min(k, n) + 1):
            yield from combinations(range(n), size)


def rerolled(faces: tuple[int, ...], idx: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    for new in product(FACES, repeat=len(idx)):
        out = list(faces)
        for i, v in zip(idx, new):
            out[i] = v
        yield tuple(out)


Dist = dict[tuple[int, int, int, int], int]  # outcome -> count of equally likely rolls


def top(n: int, rule: Rule) -> int:
    """The most dice ``rule`` may reroll of ``n``."""
    mode, k = rule
    return 0 if mode == "none" else n if mode == "all" else min(k, n)


def pick(options: list[tuple[tuple[int, ...], Dist]], own: int, faces: tuple[int, ...], t: int) -> Dist:
    """The preferred option: own = 0 (Active) or 2 (Reactive) indexes its Hits (the
    options' counts share one total, so their sums compare as expectations)."""
    def key(item: tuple[tuple[int, ...], Dist]):
        idx, dist = item
        mine = sum(c * (o[own] + o[own + 1]) for o, c in dist.items())
        theirs = sum(c * (o[2 - own] + o[3 - own]) for o, c in dist.items())
        return (-mine, theirs, len(idx), sorted(rank(faces[i], t) for i in idx))
    return min(options, key=key)[1]


def brute(ta: int, na: int, ra: Rule, tb: int | None, nb: int, rb: Rule, dodge: int | None = None
          ) -> dict[tuple[int, int, int, int], Fraction]:
    """The joint (A crits, A other Hits, B crits, B other Hits) by brute force. Every die
    rolled is counted as 20 equally likely faces; a choice rerolling fewer dice than the
    most its rule allows counts each of its rolls 20 times per die not rerolled, so all
    of a side's options count the same total and exact integer counts stand for the odds."""
    tb_ = tb if tb is not None else 0
    ka, kb = top(na, ra), top(nb, rb)

    @lru_cache(maxsize=None)
    def answer(a: tuple[int, ...], b: tuple[int, ...], dodged: bool) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
        options = []
        for idx in subsets(na, ra, a, ta):
            dist: Dist = {}
            w = 20 ** (ka - len(idx))
            for final in rerolled(a, idx):
                o = judge(final, ta, b, tb_, dodged)
                dist[o] = dist.get(o, 0) + w
            options.append((idx, dist))
        return tuple(pick(options, 0, a, ta).items())  # counts out of 20 ** ka

    total: Dist = {}
    for a in product(FACES, repeat=na):
        if dodge is not None:
            for d in FACES:
                finals = [d] if (succ(d, dodge) or rb[0] == "none") else list(FACES)
                for f in finals:
                    w = 20 // len(finals)  # the Dodge die's two rolls count out of 20 * 20
                    for o, q in answer(a, (), succ(f, dodge)):
                        total[o] = total.get(o, 0) + w * q
            continue
        for b in product(FACES, repeat=nb):
            options = []
            for idx in subsets(nb, rb, b, tb_):
                dist = {}
                w = 20 ** (kb - len(idx))
                for final in rerolled(b, idx):
                    for o, q in answer(a, final, False):
                        dist[o] = dist.get(o, 0) + w * q
                options.append((idx, dist))
            for o, q in pick(options, 2, b, tb_).items():
                total[o] = total.get(o, 0) + q
    den = 20 ** (na + ka + (2 if dodge is not None else nb + kb))
    assert sum(total.values()) == den
    return {o: Fraction(c, den) for o, c in total.items()}


def side(rule: Rule, **kw) -> Side:
    mode, k = rule
    return Side(reroll=mode == "all", reroll_dice=k if mode == "best" else 0, **kw)


def assert_odds_match(ta, na, ra, tb, nb, rb, dodge=None) -> None:
    active = side(ra, att=ta, stk=na)
    reactive = side(rb, att=tb, stk=nb if tb is not None else None, dodge=dodge)
    got = exchange_odds(Exchange(active, reactive))
    want = brute(ta, na, ra, tb, nb if tb is not None else 0, rb, dodge)
    for which, pos in ((got.active, 0), (got.reactive, 2)):
        hits: dict[int, Fraction] = {}
        crits: dict[int, Fraction] = {}
        for o, p in want.items():
            hits[o[pos] + o[pos + 1]] = hits.get(o[pos] + o[pos + 1], 0) + p
            crits[o[pos]] = crits.get(o[pos], 0) + p
        for k in range(max(len(which.hits), max(hits) + 1)):
            assert which.hits[k] == hits.get(k, 0), (k, which.hits, hits)
        for k in range(max(len(which.critical_hits), max(crits) + 1)):
            assert which.critical_hits[k] == crits.get(k, 0)
    joint: dict[tuple[int, int], Fraction] = {}
    for o, p in want.items():
        key = (o[0] + o[1], o[2] + o[3])
        joint[key] = joint.get(key, 0) + p
    assert all(got.joint_hits.p(*k) == v for k, v in joint.items())
    assert sum(p for _, p in got.joint_hits.items()) == 1


@pytest.mark.parametrize("ta", [0, 13, 22])
def test_E_ROLL_REROLL_k_unopposed_equals_brute_force(ta: int) -> None:
    """REROLL=1 of 2 dice: the failed die (one of them) is rerolled."""
    assert_odds_match(ta, 2, ("best", 1), None, 0, ("none", 0))


@pytest.mark.slow
def test_E_ROLL_REROLL_k_three_dice_equals_brute_force() -> None:
    assert_odds_match(12, 3, ("best", 1), None, 0, ("none", 0))


@pytest.mark.parametrize("ta,tb", [(13, 11), (21, 6), (5, 18)])
@pytest.mark.parametrize("ra,rb", [(("best", 1), ("best", 1)), (("all", 0), ("best", 1)), (("best", 1), ("all", 0))])
def test_E_ROLL_REROLL_k_one_die_each_equals_brute_force(ta, tb, ra, rb) -> None:
    """E-CONF + E-ROLL-REROLL with one die a side."""
    assert_odds_match(ta, 1, ra, tb, 1, rb)


@pytest.mark.slow
@pytest.mark.parametrize("ta,tb,ra,rb", [(13, 11, ("best", 1), ("best", 1))])
def test_E_ROLL_REROLL_k_confrontation_equals_brute_force(ta, tb, ra, rb) -> None:
    """E-CONF + E-ROLL-REROLL: the Reactive side chooses first (looking ahead), then the
    Active side, each to maximise its expected Hits."""
    assert_odds_match(ta, 2, ra, tb, 1, rb)


@pytest.mark.slow
def test_E_ROLL_REROLL_k_reactive_two_dice_lookahead_equals_brute_force() -> None:
    assert_odds_match(12, 1, ("best", 1), 14, 2, ("best", 1))


@pytest.mark.parametrize("ta,agi", [(13, 9), (21, 12)])
@pytest.mark.slow
def test_E_ROLL_REROLL_k_with_dodge_equals_brute_force(ta: int, agi: int) -> None:
    """A failed Dodge die is rerolled (REROLL=1); the Active side then knows whether
    the Dodge succeeded (only its Criticals count then) and rerolls accordingly."""
    assert_odds_match(ta, 2, ("best", 1), None, 0, ("best", 1), dodge=agi)


def test_E_ROLL_REROLL_k_one_die_with_dodge_equals_brute_force() -> None:
    assert_odds_match(13, 1, ("best", 1), None, 0, ("best", 1), dodge=9)


@settings(max_examples=15, deadline=None)
@given(t=st.integers(0, 24), n=st.integers(1, 3), k=st.integers(0, 3))
def test_E_ROLL_REROLL_more_dice_never_fewer_hits_and_all_is_every_failure(t: int, n: int, k: int) -> None:
    """Unopposed, REROLL=k+1 never expects fewer Hits than REROLL=k, and REROLL=k ≥ n
    is exactly REROLL=all (only failures are worth rerolling)."""
    target = Side(arm=0)
    mean = lambda s: exchange_odds(Exchange(s, target)).active.hits  # noqa: E731
    assert mean(Side(att=t, stk=n, reroll_dice=k + 1)).mean >= mean(Side(att=t, stk=n, reroll_dice=k)).mean
    assert mean(Side(att=t, stk=n, reroll_dice=n)) == mean(Side(att=t, stk=n, reroll=True))
    assert mean(Side(att=t, stk=n, reroll_dice=0)) == mean(Side(att=t, stk=n))


def test_E_ROLL_REROLL_k_active_rerolls_failures_then_cancelled_successes() -> None:
    """A [15, 5, 11, 3] against R [8]: 15 failed, 5 and 3 are cancelled by 8. REROLL=1
    rerolls the failure; REROLL=2 the failure and the lowest cancelled die; REROLL=all
    only the failure."""
    one = roll("ATT=13,STK=4,REROLL=1", "ATT=11", [15, 5, 11, 3, 8, 12])
    assert [(d.face, d.rerolled_from) for d in one.active.dice] == [(12, 15), (5, None), (11, None), (3, None)]
    two = roll("ATT=13,STK=4,REROLL=2", "ATT=11", [15, 5, 11, 3, 8, 12, 10])
    assert [(d.face, d.rerolled_from) for d in two.active.dice] == [(12, 15), (5, None), (11, None), (10, 3)]
    assert two.active.hits == 3 and two.reactive.hits == 0
    every = roll("ATT=13,STK=4,REROLL=all", "ATT=11", [15, 5, 11, 3, 8, 12])
    assert [d.rerolled_from for d in every.active.dice] == [15, None, None, None]


def test_E_ROLL_REROLL_k_after_a_critical_only_criticals_are_worth_rerolling() -> None:
    """R rolled a Critical: A's non-critical successes score nothing, so REROLL=1 rerolls
    the highest-cost miss first: a failure before a success."""
    log = roll("ATT=13,STK=2,REROLL=1", "ATT=11", [9, 17, 1, 1])
    assert [(d.face, d.rerolled_from) for d in log.active.dice] == [(9, None), (1, 17)]
    assert log.active.critical_hits == 1 and log.reactive.critical_hits == 1


def test_E_ROLL_REROLL_k_reactive_rerolls_first() -> None:
    """R [14] failed: with REROLL=1 it rerolls first (to 10), then A answers."""
    log = roll("ATT=13,STK=2,REROLL=1", "ATT=11,REROLL=1", [12, 4, 14, 10, 7])
    assert log.reactive.dice[0].rerolled_from == 14 and log.reactive.dice[0].face == 10
    # A: 12 beats 10 and is a Hit; 4 is cancelled and rerolled to 7, cancelled again
    assert [(d.face, d.rerolled_from) for d in log.active.dice] == [(12, None), (7, 4)]
    assert log.active.hits == 1


def test_E_ROLL_REROLL_text_forms() -> None:
    """REROLL=all keeps the historic rule; REROLL=k counts dice; both round-trip."""
    assert parse_side("ATT=13,REROLL=all").reroll and parse_side("ATT=13,REROLL=ALL").reroll_dice == 0
    assert parse_side("ATT=13,STK=3,REROLL=2").reroll_dice == 2
    for text in ("ATT=13,REROLL=all", "ATT=13,STK=3,REROLL=2"):
        assert parse_side(text).to_text() == text
    for bad, says in (("ATT=13,REROLL=some", "REROLL takes 'all'"), ("ATT=13,REROLL=-1", "0 or more"),
                      ("ATT=13,REROLL=1,REROLL=all", "given twice")):
        with pytest.raises(RuleInputError, match=says):
            parse_side(bad)
    with pytest.raises(RuleInputError, match="not both"):
        Side(att=13, reroll=True, reroll_dice=1)


def test_E_ROLL_REROLL_k_too_large_a_pool_is_refused_clearly() -> None:
    with pytest.raises(RuleInputError, match="REROLL=k: the exact odds enumerate every roll"):
        exchange_odds(Exchange(Side(att=13, stk=12, reroll_dice=1), Side(att=12, stk=3)))


def test_E_ROLL_REROLL_k_a_seeded_roll_refuses_a_lookahead_too_large_to_weigh() -> None:
    """The Reactive side's REROLL=k choice weighs every answer of the Active side: with 10
    Active dice rerolling up to 10 that is over a hundred million rolls. The roll is
    refused at once with the sizes and the way out (it used to run for hours), and the
    exact odds no longer send the user to `skirmish roll` for it."""
    ex = Exchange(parse_side("ATT=15,STK=10,PW=20,REROLL=10"), parse_side("ATT=15,PW=10,REROLL=1"))
    t = time.process_time()
    with pytest.raises(RuleInputError, match=r"10 dice \(REROLL=10\), \d+ rolls here \(at most 1000000\)"):
        resolve_exchange(ex, random.Random(3))
    assert time.process_time() - t < 5
    with pytest.raises(RuleInputError, match="use fewer dice or REROLL=all$"):
        exchange_odds(ex)
    # without the Reactive side's choice the same Active pool is rolled, and the odds say so
    plain = Exchange(parse_side("ATT=15,STK=10,PW=20,REROLL=10"), parse_side("ATT=15,PW=10"))
    assert len(resolve_exchange(plain, random.Random(3)).active.dice) == 10
    with pytest.raises(RuleInputError, match="`skirmish roll` to sample"):
        exchange_odds(plain)


def test_E_ROLL_REROLL_k_a_lookahead_within_the_bound_is_rolled() -> None:
    ex = Exchange(parse_side("ATT=20,STK=3,PW=20,REROLL=3"), parse_side("ATT=20,STK=3,PW=10,REROLL=3"))
    log = resolve_exchange(ex, random.Random(5))
    assert len(log.active.dice) == 3 and len(log.reactive.dice) == 3
