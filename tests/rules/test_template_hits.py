"""One template Hit (E-TMPL, E-DODGE, E-ROLL-DMG): exact odds against an enumeration of
the dice, and a seeded roll whose outcome follows its own dice."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from skirmish.rules.eldfall.template_hits import roll_template_hit, template_wound_odds


def _by_enumeration(agility: int | None, halved: bool, damage: int, reroll: bool) -> Fraction:
    if agility is None:
        return Fraction(sum(f <= damage for f in range(1, 21)), 20)
    a = -(-agility // 2) if halved else agility
    good = sum((not (f1 <= a or (reroll and f2 <= a))) and dmg <= damage
               for f1 in range(1, 21) for f2 in range(1, 21) for dmg in range(1, 21))
    return Fraction(good, 20 ** 3)


@pytest.mark.parametrize("agility,halved,damage,reroll", [(None, False, 9, False), (6, False, 9, False),
                                                          (7, True, 4, False), (6, False, 25, True),
                                                          (12, True, -1, True), (0, False, 10, False)])
def test_e_tmpl_template_wound_odds_match_enumeration(agility, halved, damage, reroll):
    assert template_wound_odds(agility, halved, damage, reroll=reroll) == _by_enumeration(agility, halved, damage,
                                                                                           reroll)


@pytest.mark.parametrize("agility", [None, 3, 6, 11])
def test_e_tmpl_roll_template_hit_follows_its_dice(agility):
    """A Dodge only when given; a dodged Hit rolls no damage die; otherwise the die wounds
    when ≤ PW − ARM. Over many seeds both outcomes of each roll occur."""
    seen = set()
    for seed in range(200):
        hit = roll_template_hit(agility, False, 9, random.Random(seed))
        assert (hit.dodge is None) == (agility is None)
        if hit.dodged:
            assert hit.face is None and not hit.wound and hit.dodge.face <= agility
        else:
            assert 1 <= hit.face <= 20 and hit.wound == (hit.face <= 9)
        seen.add((hit.dodged, hit.wound))
    assert {(False, True), (False, False)} <= seen and ((True, False) in seen) == (agility is not None)
