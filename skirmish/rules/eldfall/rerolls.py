"""E-ROLL-REROLL with a chosen number of dice: which dice a side rerolls, and the
exact odds that follow.

A side rerolls its attack dice (or its Dodge die) under one of three rules:

* ``none``;
* ``all`` (``REROLL=all``): every failed die, once — the historic rule;
* ``best`` (``REROLL=k``): up to ``k`` dice, chosen to maximise the side's expected
  Hits.

After the rolls the Reactive side rerolls first, then the Active side (E-CONF). The
Active side therefore chooses knowing every final Reactive die: a die of its own
counts as a Hit independently of its other dice (a Critical, or a non-critical
success above the opponent's best when the opponent rolled no Critical and the
Dodge failed), so the best choice rerolls up to ``k`` dice that are not Hits. Among
those it rerolls failures first, then cancelled successes from the lowest face up
(which keeps its own best success, so it cancels as many opposing dice as it can).
The Reactive side chooses by looking ahead: for every set of up to ``k`` of its
dice it takes the expectation over the new faces and the Active side's answer.
Ties: the larger expected own Hits, then the smaller expected opposing Hits, then
fewer dice, then the lower faces.

Inside, a die is a *code*: ``FAIL`` (0), a non-critical success ``v`` (1..20) or
``CRIT`` (21); a roll is a sorted tuple of codes. Every weight is an integer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial
from typing import Literal

from .modifiers import D20, ModifiedAttribute

FAIL = 0
CRIT = D20 + 1
Mode = Literal["none", "all", "best"]
Codes = tuple[int, ...]
#: ``(opponent rolled a Critical, opponent's best non-critical success, dodged)``
Facing = tuple[bool, int, bool]
#: ``(Criticals, non-critical Hits, any Critical, best non-critical success)``
Result = tuple[int, int, bool, int]
#: Most rolls the Reactive side's REROLL=k choice may weigh in a seeded roll
#: (:meth:`Chooser.lookahead_rolls`: a few seconds at most).
MAX_LOOKAHEAD_ROLLS = 1_000_000


@dataclass(frozen=True)
class RerollRule:
    """How a side rerolls: ``mode`` and, for ``best``, at most ``limit`` dice."""

    mode: Mode = "none"
    limit: int = 0

    def most(self, dice: int) -> int:
        """Most dice this rule can reroll out of ``dice``."""
        if self.mode == "all":
            return dice
        if self.mode == "best":
            return min(self.limit, dice)
        return 0

    def text(self) -> str:
        """``REROLL=all`` / ``REROLL=k`` / ``REROLL=0``."""
        return {"none": "0", "all": "all", "best": str(self.limit)}[self.mode]


def code(attribute: ModifiedAttribute, face: int) -> int:
    """The code of ``face`` rolled against ``attribute``."""
    if attribute.is_critical(face):
        return CRIT
    return face if attribute.succeeds(face) else FAIL


@lru_cache(maxsize=4096)  # (a pure function of a frozen attribute, asked again every seeded exchange)
def die_codes(attribute: ModifiedAttribute) -> tuple[tuple[int, int], ...]:
    """Every code of one d20 against ``attribute`` with its weight out of 20."""
    weights: dict[int, int] = {}
    for v in range(1, D20 + 1):
        c = code(attribute, v)
        weights[c] = weights.get(c, 0) + 1
    return tuple(sorted(weights.items()))


def is_hit(c: int, facing: Facing) -> bool:
    """E-CONF (exact): does a die with code ``c`` score a Hit against ``facing``?"""
    opp_crit, opp_best, dodged = facing
    return c == CRIT or (FAIL < c < CRIT and not opp_crit and not dodged and c > opp_best)


def facing_of(codes: Sequence[int], dodged: bool = False) -> Facing:
    """What a roll shows its opponent: any Critical, its best non-critical success."""
    return (CRIT in codes, max((c for c in codes if FAIL < c < CRIT), default=0), dodged)


def result(codes: Sequence[int], facing: Facing) -> Result:
    """Criticals, non-critical Hits, any Critical and best success of a final roll."""
    crits = sum(c == CRIT for c in codes)
    hits = sum(is_hit(c, facing) for c in codes if c != CRIT)
    own = facing_of(codes)
    return crits, hits, own[0], own[1]


def last_choice(codes: Sequence[int], rule: RerollRule, facing: Facing, fresh_can_hit: bool) -> tuple[int, ...]:
    """Indices the side that rerolls last (it sees the opponent's final dice) rerolls."""
    if rule.mode == "all":
        return tuple(i for i, c in enumerate(codes) if c == FAIL)
    if rule.mode == "none" or not fresh_can_hit:
        return ()
    misses = sorted((i for i, c in enumerate(codes) if not is_hit(c, facing)), key=lambda i: (codes[i], i))
    return tuple(misses[: rule.limit])


def _multisets(dist: Sequence[tuple[int, int]], n: int) -> Iterator[tuple[Codes, int]]:
    """Every sorted roll of ``n`` dice with its weight (multinomial × face weights)."""
    for combo in combinations_with_replacement(range(len(dist)), n):
        w = factorial(n)
        run = 1
        for i in range(1, n + 1):
            if i < n and combo[i] == combo[i - 1]:
                run += 1
            else:
                w //= factorial(run)
                run = 1
        for i in combo:
            w *= dist[i][1]
        yield tuple(dist[i][0] for i in combo), w


def _sub_multisets(codes: Codes, most: int) -> list[Codes]:
    """Distinct sorted sub-rolls of ``codes`` with at most ``most`` dice."""
    out: set[Codes] = {()}
    for i, c in enumerate(codes):
        out |= {tuple(sorted(s + (c,))) for s in out if len(s) < most}
    return sorted(out, key=lambda s: (len(s), s))


def _remove(codes: Codes, sub: Codes) -> list[int]:
    kept = list(codes)
    for c in sub:
        kept.remove(c)
    return kept


Outcomes = dict[tuple[int, int, int, int], int]


@dataclass
class Chooser:
    """The two sides' dice and rules; evaluates choices with exact integer weights.

    ``b_dist`` is None when the Reactive side rolls no attack dice (a Dodge or an
    unopposed attack). Weights of the Active answer are over ``20 ** a_most``."""

    a_dist: tuple[tuple[int, int], ...]
    a_rule: RerollRule
    a_dice: int
    b_dist: tuple[tuple[int, int], ...] | None
    b_rule: RerollRule
    b_dice: int
    _answers: dict[tuple[Codes, Facing], dict[Result, int]] = field(default_factory=dict, repr=False)
    _evals: dict[tuple[Codes, Codes, bool], Outcomes] = field(default_factory=dict, repr=False)

    @property
    def a_most(self) -> int:
        return self.a_rule.most(self.a_dice)

    @property
    def b_most(self) -> int:
        return self.b_rule.most(self.b_dice) if self.b_dist is not None else 0

    def fresh_can_hit(self, facing: Facing) -> bool:
        return any(is_hit(c, facing) for c, w in self.a_dist if w)

    def answer(self, a: Codes, facing: Facing) -> dict[Result, int]:
        """The Active side's final results after its reroll, over ``20 ** a_most``."""
        key = (a, facing)
        got = self._answers.get(key)
        if got is None:
            chosen = last_choice(a, self.a_rule, facing, self.fresh_can_hit(facing))
            kept = [c for i, c in enumerate(a) if i not in chosen]
            scale = D20 ** (self.a_most - len(chosen))
            got = {}
            for rolled, w in _multisets(self.a_dist, len(chosen)):
                r = result(kept + list(rolled), facing)
                got[r] = got.get(r, 0) + w * scale
            self._answers[key] = got
        return got

    def outcomes(self, a: Codes, b: Codes, dodged: bool) -> Outcomes:
        """``{(A crits, A other Hits, B crits, B other Hits): weight}`` once both final
        Reactive dice ``b`` and the Active roll ``a`` are known, over ``20 ** a_most``."""
        key = (a, b, dodged)
        got = self._evals.get(key)
        if got is None:
            facing = facing_of(b, dodged)
            got = {}
            kb = b.count(CRIT)
            for (ka, ja, a_crit, a_best), w in self.answer(a, facing).items():
                jb = 0 if a_crit else sum(1 for c in b if FAIL < c < CRIT and c > a_best)
                k = (ka, ja, kb, jb)
                got[k] = got.get(k, 0) + w
            self._evals[key] = got
        return got

    def reactive_options(self, b: Codes) -> list[Codes]:
        """The sub-rolls the Reactive side may reroll under its rule."""
        if self.b_rule.mode == "all":
            return [tuple(c for c in b if c == FAIL)]
        if self.b_rule.mode == "none":
            return [()]
        return _sub_multisets(b, self.b_most)

    def after_reactive(self, a: Codes, b: Codes, sub: Codes) -> Outcomes:
        """Outcomes when the Reactive side rerolls ``sub`` of ``b``, over ``20 ** (a_most + b_most)``."""
        assert self.b_dist is not None
        kept = _remove(b, sub)
        scale = D20 ** (self.b_most - len(sub))
        acc: Outcomes = {}
        for rolled, w in _multisets(self.b_dist, len(sub)):
            final = tuple(sorted(kept + list(rolled)))
            for k, v in self.outcomes(a, final, False).items():
                acc[k] = acc.get(k, 0) + v * w * scale
        return acc

    def lookahead_rolls(self) -> int:
        """How many rolls :meth:`reactive_choice` may weigh (a bound): every final
        Reactive roll of every sub-roll it may reroll, and the Active side's answer (every
        roll of the dice it rerolls) to each opposing roll it can face; 0 where it does not
        choose (no attack dice, or a rule other than REROLL=k)."""
        if self.b_dist is None or self.b_rule.mode != "best":
            return 0
        b = sum(comb(self.b_dice, s) * comb(len(self.b_dist) + s - 1, s) for s in range(self.b_most + 1))
        a = comb(len(self.a_dist) + self.a_most - 1, self.a_most)
        return b + 2 * (D20 + 1) * a  # (the answers are kept per facing: a Critical or not, a best face)

    def reactive_choice(self, a: Codes, b: Codes) -> tuple[Codes, Outcomes]:
        """The sub-roll of ``b`` the Reactive side rerolls (looking ahead to the
        Active side's answer; see the module for the order of preference) and the
        outcomes that follow."""
        options = self.reactive_options(b)
        if len(options) == 1:
            return options[0], self.after_reactive(a, b, options[0])
        best: tuple[tuple[int, int, int, Codes], Codes, Outcomes] | None = None
        for sub in options:
            out = self.after_reactive(a, b, sub)
            own = sum(w * (kb + jb) for (_, _, kb, jb), w in out.items())
            opp = sum(w * (ka + ja) for (ka, ja, _, _), w in out.items())
            key = (-own, opp, len(sub), sub)
            if best is None or key < best[0]:
                best = (key, sub, out)
        assert best is not None
        return best[1], best[2]

    def hit_outcomes(self, dodge: tuple[int, int] | None = None) -> tuple[Outcomes, int]:
        """Exact weights of ``(A crits, A other Hits, B crits, B other Hits)`` and their
        denominator. ``dodge`` is the Dodge's ``(success weight, denominator)`` (its
        reroll already in it) when the Reactive side Dodges."""
        total: Outcomes = {}
        a_rolls = list(_multisets(self.a_dist, self.a_dice))
        if self.b_dist is None:
            cases: list[tuple[Codes, int, bool]] = [((), 1, False)] if dodge is None else [((), dodge[0], True), ((), dodge[1] - dodge[0], False)]
            for a, wa in a_rolls:
                for b, wb, dodged in cases:
                    if wb:
                        for k, v in self.outcomes(a, b, dodged).items():
                            total[k] = total.get(k, 0) + wa * wb * v
            den = D20 ** (self.a_dice + self.a_most) * (1 if dodge is None else dodge[1])
            return {k: v for k, v in total.items() if v}, den
        for a, wa in a_rolls:
            for b_roll, wb in _multisets(self.b_dist, self.b_dice):
                for k, v in self.reactive_choice(a, b_roll)[1].items():
                    total[k] = total.get(k, 0) + wa * wb * v
        den = D20 ** (self.a_dice + self.a_most + self.b_dice + self.b_most)
        return {k: v for k, v in total.items() if v}, den


def most_lookahead_rolls(a_dice: int, k: int, b_dice: int = 1) -> int:
    """The most rolls :meth:`Chooser.lookahead_rolls` can come to for ``a_dice`` Active
    dice against ``b_dice`` Reactive ones when both sides reroll up to ``k`` (``REROLL=k``),
    whatever the attributes (a die has at most 20 codes); 0 for ``k`` = 0."""
    if k <= 0:
        return 0
    worst = tuple((c, 1) for c in range(D20))
    rule = RerollRule("best", k)
    return Chooser(worst, rule, a_dice, worst, rule, b_dice).lookahead_rolls()


@lru_cache(maxsize=32)
def shared_chooser(a_dist: tuple[tuple[int, int], ...], a_rule: RerollRule, a_dice: int,
                   b_dist: tuple[tuple[int, int], ...] | None, b_rule: RerollRule, b_dice: int) -> Chooser:
    """One :class:`Chooser` per set of dice and rules, kept: what it has weighed for one
    roll (the Active side's answers) serves every later roll of the same dice."""
    return Chooser(a_dist, a_rule, a_dice, b_dist, b_rule, b_dice)
