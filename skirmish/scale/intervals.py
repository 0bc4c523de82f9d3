"""How sure a share measured over a run of games is: the Wilson score interval.

A share k/n of seeded games is an estimate; its 95 % interval tells a designer whether
two shares differ by more than the run's noise (65 % of 20 games is anywhere from 43 %
to 82 %). Wilson's interval stays inside [0, 1] and is sound at 0 and n, where the
normal approximation collapses to a point.
"""

from __future__ import annotations

import math

from ..errors import RuleInputError

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) of the share ``k`` of ``n`` trials.

    >>> [round(v, 3) for v in wilson_interval(13, 20)]
    [0.433, 0.819]
    >>> wilson_interval(0, 10)[0], round(wilson_interval(0, 10)[1], 3)
    (0.0, 0.278)
    >>> round(wilson_interval(10, 10)[0], 3), wilson_interval(10, 10)[1]
    (0.722, 1.0)
    """
    if n <= 0:
        raise RuleInputError(f"wilson_interval: n (the trials) must be 1 or more, got {n}")
    if not 0 <= k <= n:
        raise RuleInputError(f"wilson_interval: k (the successes) must be within 0..{n}, got {k}")
    p = k / n
    zz = z * z / n
    centre = (p + zz / 2) / (1 + zz)
    half = z * math.sqrt(p * (1 - p) / n + zz / (4 * n)) / (1 + zz)
    return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == n else min(1.0, centre + half))


def ci95(k: int, n: int) -> list[float]:
    """The 95 % Wilson interval of ``k`` of ``n`` as a report's JSON has it: ``[low, high]``,
    rounded to 4 places."""
    return [round(v, 4) for v in wilson_interval(k, n)]


def ci95_text(k: int, n: int) -> str:
    """The 95 % Wilson interval of ``k`` of ``n`` as a report's text has it (from the exact
    interval, not the JSON's rounded one).

    >>> ci95_text(2, 3)
    '95% CI 20.8–93.9%'
    """
    low, high = wilson_interval(k, n)
    return f"95% CI {100 * low:.1f}–{100 * high:.1f}%"
