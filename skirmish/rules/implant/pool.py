"""I-POOL: how many d6 to roll for A helping and H hindering factors, and their exact odds.

*Interpretation* (RULES.md): roll ``|A - H| + 1`` dice; when ``A >= H`` they are
action dice and the highest counts, when ``H > A`` hindrance dice and the lowest
counts. More than 5 dice answer without a roll: a plain "yes" (rung 5) for action
dice, a plain "no" (rung 2) for hindrance dice.

>>> p = pool(3, 2)                    # the seed's example: 3 helps, 2 hindrances
>>> p
Pool(2 action dice, keep highest)
>>> p.odds().yes                      # 4, 5 or 6 on the higher of two dice
Fraction(3, 4)
>>> pool(0, 6).auto
'no'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ...errors import RuleInputError
from .ladder import AUTO_NO, AUTO_YES, FACES, Rung, rung

MAX_ROLLED = 5
"""The most dice ever rolled; a bigger pool answers without a roll."""

Keep = Literal["highest", "lowest"]


def check_factors(value: object, what: str) -> int:
    """``value`` as a count of factors (a whole number 0 or more), or a clear error."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleInputError(f"I-POOL: {what} must be a whole number 0 or more, got {value!r}")
    return value


@dataclass(frozen=True)
class Pool:
    """The dice one question rolls: ``dice`` d6 keeping the ``keep`` one, or ``auto``."""

    helps: int
    hinders: int
    dice: int
    keep: Keep
    drama_dice: int = 0

    @property
    def auto(self) -> Literal["yes", "no"] | None:
        """``"yes"``/``"no"`` when there are more than 5 dice (no roll), else ``None``."""
        if self.dice <= MAX_ROLLED:
            return None
        return "yes" if self.keep == "highest" else "no"

    @property
    def action(self) -> bool:
        """True for action dice (keep the highest), False for hindrance dice."""
        return self.keep == "highest"

    def odds(self) -> PoolOdds:
        """The exact chance of each rung (an auto answer is rung 5 or 2 for sure)."""
        if self.auto is not None:
            face = AUTO_YES if self.auto == "yes" else AUTO_NO
            return PoolOdds(self, tuple(Fraction(int(f == face)) for f in FACES))
        n, total = self.dice, 6**self.dice
        if self.action:   # P(max = k) = (k^n - (k-1)^n) / 6^n
            probs = tuple(Fraction(k**n - (k - 1) ** n, total) for k in FACES)
        else:             # P(min = k) = ((7-k)^n - (6-k)^n) / 6^n
            probs = tuple(Fraction((7 - k) ** n - (6 - k) ** n, total) for k in FACES)
        return PoolOdds(self, probs)

    def roll(self, rng: random.Random) -> Roll:
        """Roll the pool with ``rng`` (an auto pool rolls nothing)."""
        if self.auto is not None:
            return Roll(self, (), None, rung(AUTO_YES if self.auto == "yes" else AUTO_NO))
        faces = tuple(rng.randint(1, 6) for _ in range(self.dice))
        kept = max(faces) if self.action else min(faces)
        return Roll(self, faces, kept, rung(kept))

    def describe(self) -> str:
        kind = "action" if self.action else "hindrance"
        die = "die" if self.dice == 1 else "dice"
        text = f"{self.dice} {kind} {die}"
        if self.auto is not None:
            return text + f": a plain {self.auto} without a roll"
        return text + ("" if self.dice == 1 else f", keep {self.keep}")

    def __repr__(self) -> str:
        return f"Pool({self.describe()})"


@dataclass(frozen=True)
class PoolOdds:
    """Exact odds of a pool: ``outcomes[face - 1]`` is the chance of that rung."""

    pool: Pool
    outcomes: tuple[Fraction, ...]

    def p(self, face: int) -> Fraction:
        """The chance of rung ``face``."""
        return self.outcomes[rung(face).face - 1]

    @property
    def yes(self) -> Fraction:
        """The chance of a yes (rung 4, 5 or 6)."""
        return sum(self.outcomes[3:], Fraction(0))

    def items(self) -> list[tuple[Rung, Fraction]]:
        """(rung, chance) from 6 down to 1, as the ladder is read."""
        return [(rung(f), self.outcomes[f - 1]) for f in reversed(FACES)]


@dataclass(frozen=True)
class Roll:
    """One seeded roll: every die's ``faces``, the ``kept`` one (None: no roll) and the ``rung``."""

    pool: Pool
    faces: tuple[int, ...]
    kept: int | None
    rung: Rung


def pool(helps: int, hinders: int, *, drama_dice: int = 0) -> Pool:
    """The pool for ``helps`` helping and ``hinders`` hindering factors (I-POOL).

    ``drama_dice`` are extra action dice bought with drama points (I-DRAMA); each
    counts as one more helping factor, so against hindrance dice it takes one away.

    >>> pool(0, 2), pool(1, 1), pool(0, 2, drama_dice=3)
    (Pool(3 hindrance dice, keep lowest), Pool(1 action die), Pool(2 action dice, keep highest))
    """
    check_factors(helps, "helping factors")
    check_factors(hinders, "hindering factors")
    check_factors(drama_dice, "drama dice")
    a = helps + drama_dice
    return Pool(helps, hinders, abs(a - hinders) + 1, "highest" if a >= hinders else "lowest", drama_dice)
