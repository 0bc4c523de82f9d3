"""Implant's d6 oracle: the ladder (I-LADDER), the pool and its exact odds (I-POOL), drama (I-DRAMA)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.errors import RuleInputError, SkirmishError
from skirmish.rules.implant import LADDER, DramaUse, pool, reroll, rung, spend_drama


def brute_force(helps: int, hinders: int) -> tuple[int, str, list[Fraction] | None]:
    """(dice, keep, chance of each face) by listing every face of every die; None for an auto answer."""
    n = abs(helps - hinders) + 1
    keep = "highest" if helps >= hinders else "lowest"
    if n > 5:
        return n, keep, None
    counts = Counter((max if keep == "highest" else min)(faces)
                     for faces in itertools.product(range(1, 7), repeat=n))
    return n, keep, [Fraction(counts[f], 6**n) for f in range(1, 7)]


# -- I-LADDER ---------------------------------------------------------------------------------------

def test_i_ladder_names_every_face_from_no_and_to_yes_and():
    assert [r.name for r in LADDER] == ["no, and", "no", "no, but", "yes, but", "yes", "yes, and"]
    assert [rung(f).yes for f in range(1, 7)] == [False, False, False, True, True, True]


@pytest.mark.parametrize("face", [0, 7, -1, 2.0, True])
def test_i_ladder_refuses_a_face_that_is_not_on_a_d6(face):
    with pytest.raises(RuleInputError, match="I-LADDER"):
        rung(face)


# -- I-POOL -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("helps,hinders", list(itertools.product(range(9), range(9))))
def test_i_pool_odds_match_brute_force_over_all_faces(helps, hinders):
    p = pool(helps, hinders)
    dice, keep, expected = brute_force(helps, hinders)
    assert (p.dice, p.keep) == (dice, keep)
    odds = p.odds()
    if expected is None:   # more than 5 dice: a plain yes (rung 5) or no (rung 2), no roll
        assert p.auto == ("yes" if keep == "highest" else "no")
        assert odds.outcomes == tuple(Fraction(int(f == (5 if p.auto == "yes" else 2))) for f in range(1, 7))
        assert odds.yes == (1 if p.auto == "yes" else 0)
    else:
        assert p.auto is None
        assert list(odds.outcomes) == expected
        assert odds.yes == sum(expected[3:])


def test_i_pool_the_seed_example_rolls_two_action_dice():
    p = pool(3, 2)   # stealth skill, guard routes, disguise vs warned guards, a leg wound
    assert (p.dice, p.keep, p.auto) == (2, "highest", None)
    assert p.odds().yes == Fraction(27, 36)


def test_i_pool_equal_factors_roll_one_die():
    assert all((pool(k, k).dice, pool(k, k).odds().yes) == (1, Fraction(1, 2)) for k in range(5))


@given(st.integers(0, 12), st.integers(0, 12))
def test_i_pool_more_help_never_lowers_yes_and_more_hindrance_never_raises_it(helps, hinders):
    yes = pool(helps, hinders).odds().yes
    assert pool(helps + 1, hinders).odds().yes >= yes >= pool(helps, hinders + 1).odds().yes
    assert sum(pool(helps, hinders).odds().outcomes) == 1


@pytest.mark.parametrize("helps,hinders", [(-1, 0), (0, -2), (1.5, 0), ("2", 1)])
def test_i_pool_refuses_negative_or_non_whole_factors(helps, hinders):
    with pytest.raises(RuleInputError, match="I-POOL: .*factors must be a whole number 0 or more") as e:
        pool(helps, hinders)
    assert isinstance(e.value, SkirmishError)


@pytest.mark.parametrize("helps,hinders", [(0, 0), (2, 0), (0, 3), (4, 0), (1, 5)])
def test_i_pool_seeded_roll_keeps_the_highest_or_lowest_and_reproduces(helps, hinders):
    p = pool(helps, hinders)
    for seed in range(50):
        r = p.roll(random.Random(seed))
        assert len(r.faces) == p.dice and all(1 <= f <= 6 for f in r.faces)
        assert r.kept == (max(r.faces) if p.keep == "highest" else min(r.faces))
        assert r.rung == rung(r.kept)
        assert p.roll(random.Random(seed)) == r


def test_i_pool_rolls_follow_the_exact_odds():
    p, n = pool(1, 3), 60_000
    rng = random.Random(11)
    seen = Counter(p.roll(rng).kept for _ in range(n))
    for face, prob in enumerate(p.odds().outcomes, 1):
        sd = (float(prob) * (1 - float(prob)) / n) ** 0.5
        assert abs(seen[face] / n - float(prob)) <= 5 * sd + 1e-9


def test_i_pool_auto_answers_without_rolling():
    rng = random.Random(3)
    state = rng.getstate()
    yes, no = pool(6, 0).roll(rng), pool(0, 5).roll(rng)
    assert (yes.faces, yes.kept, yes.rung.face) == ((), None, 5)
    assert (no.faces, no.kept, no.rung.face) == ((), None, 2)
    assert rng.getstate() == state


# -- I-DRAMA ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("helps,hinders,extra", [(0, 2, 1), (0, 2, 3), (1, 0, 2), (0, 0, 5)])
def test_i_drama_an_extra_action_die_counts_as_a_helping_factor(helps, hinders, extra):
    bought, plain = pool(helps, hinders, drama_dice=extra), pool(helps + extra, hinders)
    assert (bought.dice, bought.keep, bought.odds().outcomes) == (plain.dice, plain.keep, plain.odds().outcomes)
    assert bought.drama_dice == extra


def test_i_drama_spending_a_point_needs_one():
    assert spend_drama(3, DramaUse.EXTRA_DIE) == 2
    with pytest.raises(RuleInputError, match="no drama point left"):
        spend_drama(0, DramaUse.REROLL)
    with pytest.raises(RuleInputError, match="0 or more"):
        spend_drama(-1, DramaUse.CANCEL)


def test_i_drama_a_reroll_stands_even_when_worse():
    p = pool(0, 0)
    results = set()
    for seed in range(40):
        first = p.roll(random.Random(seed))
        again = reroll(first, random.Random(seed + 1000))
        assert again == p.roll(random.Random(seed + 1000))
        results.add(again.kept < first.kept)
    assert results == {True, False}   # the new result stands, better or worse
