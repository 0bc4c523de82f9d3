"""Exact odds of one attack (C-EXACT): repelled, the damage distribution, overload,
absorb and the counter, every probability a ``Fraction``.

Each pair of attack and defence faces is weighted by the two d20s in closed form
(overload doubles when the d20 beats the defence face plus the defence potential,
absorb blocks when it beats the attack value plus the attack potential), so the work
is (attack die) × (defence die) × 4 integer steps, and ``Fraction`` appears only in
the result.

>>> o = attack_odds(Attack(attack_potential=4, defence_potential=2))
>>> o.repelled, o.expected_damage          # d8 against d6: P(defence ≥ attack) = 21/48
(Fraction(7, 16), Fraction(1237, 960))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from .attack import D4, D20, Attack, d20_faces_above


@dataclass(frozen=True)
class AttackOdds:
    """The exact outcome of one :class:`Attack` (given an attack face, if ``attack_face`` is set).

    ``damage[k]`` and ``counter_damage[k]`` are P(the target loses k tokens) and
    P(the attacker loses k to the counter); ``overload`` and ``absorb`` are the
    chances that each doubles or blocks."""

    attack: Attack
    attack_face: int | None
    repelled: Fraction
    damage: tuple[Fraction, ...]
    counter_damage: tuple[Fraction, ...]
    overload: Fraction
    absorb: Fraction
    # (E[min(damage, cap)] by cap, worked out once: the odds are shared from a cache and a
    # greedy policy asks the same ones for every option it weighs)
    _capped: dict[int, Fraction] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def expected_damage(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.damage)), Fraction(0))

    @property
    def expected_counter(self) -> Fraction:
        """The expected damage the *counter* deals back (0 without the boost)."""
        return sum((k * p for k, p in enumerate(self.counter_damage)), Fraction(0))

    def expected_damage_capped(self, cap: int) -> Fraction:
        """E[min(damage, cap)]: damage beyond the target's tokens is wasted."""
        e = self._capped.get(cap)
        if e is None:
            e = self._capped[cap] = sum((min(k, cap) * p for k, p in enumerate(self.damage)), Fraction(0))
        return e

    def expected_counter_capped(self, cap: int) -> Fraction:
        return sum((min(k, cap) * p for k, p in enumerate(self.counter_damage)), Fraction(0))


def attack_odds(attack: Attack, attack_face: int | None = None) -> AttackOdds:
    """The exact odds of ``attack``; with ``attack_face``, given that the attack die showed it
    (what the target knows when it picks its defence boosts)."""
    return _odds(attack, attack_face)


@lru_cache(maxsize=4096)
def _odds(attack: Attack, attack_face: int | None) -> AttackOdds:
    n_a, n_d = attack.attack_die, attack.defence_die
    faces: Iterable[int]
    if attack_face is None:
        faces = range(1, n_a + 1)
    else:
        attack.attack_value(attack_face)  # checks the face
        faces = (attack_face,)
        n_a = 1
    fresh_d4 = attack.counter_needs_d4
    c4 = D4 if fresh_d4 else 1
    unit = D20 * D20 * c4  # weight of one (attack face, defence face) pair
    denominator = n_a * n_d * unit
    damage: dict[int, int] = {}
    counter: dict[int, int] = {}
    repelled = overload_w = absorb_w = 0
    counter_on = "counter" in attack.defence_boosts
    for a in faces:
        av = attack.attack_value(a)
        base = attack.attack_class or a
        for d in range(1, n_d + 1):
            dv = attack.defence_value(d)
            if dv >= av:
                repelled += unit
                damage[0] = damage.get(0, 0) + unit
                if not counter_on:
                    counter[0] = counter.get(0, 0) + unit
                elif attack.counter_class:
                    counter[attack.counter_class] = counter.get(attack.counter_class, 0) + unit
                elif not fresh_d4:  # the target's own defence d4 stands in
                    counter[d] = counter.get(d, 0) + unit
                else:
                    for x in range(1, D4 + 1):
                        counter[x] = counter.get(x, 0) + unit // D4
                continue
            counter[0] = counter.get(0, 0) + unit
            ov = d20_faces_above(attack.overload_threshold(d)) if attack.overload_rolled(a) else 0
            ab = d20_faces_above(attack.absorb_threshold(av)) if attack.absorb_rolled(d) else 0
            block = attack.defence_class or d
            overload_w += ov * D20 * c4
            absorb_w += ab * D20 * c4
            for doubled, w_ov in ((True, ov), (False, D20 - ov)):
                hit = 2 * base if doubled else base
                for blocked, w_ab in ((True, ab), (False, D20 - ab)):
                    w = w_ov * w_ab * c4
                    if w:
                        k = max(0, hit - block) if blocked else hit
                        damage[k] = damage.get(k, 0) + w
    return AttackOdds(attack, attack_face, Fraction(repelled, denominator), _dist(damage, denominator),
                      _dist(counter, denominator), Fraction(overload_w, denominator),
                      Fraction(absorb_w, denominator))


def _dist(weights: dict[int, int], denominator: int) -> tuple[Fraction, ...]:
    top = max((k for k, w in weights.items() if w), default=0)
    return tuple(Fraction(weights.get(k, 0), denominator) for k in range(top + 1))
