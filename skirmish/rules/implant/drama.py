"""I-DRAMA: what a drama point buys, and spending one.

A drama point buys one of: an extra action die (:func:`~.pool.pool` takes
``drama_dice``; each counts as a helping factor), a reroll whose new result
stands (:func:`reroll`), cancelling a failed roll's consequences (in a fight:
ignoring one damage, I-DAMAGE) or a scene tag (a narrative matter, not modelled).
"""

from __future__ import annotations

import random
from enum import Enum

from ...errors import RuleInputError
from .pool import Roll


class DramaUse(Enum):
    """The four things a drama point buys."""

    EXTRA_DIE = "extra-die"
    REROLL = "reroll"
    CANCEL = "cancel"
    TAG = "tag"


def spend_drama(points: int, use: DramaUse) -> int:
    """The drama points left after spending one on ``use``; an error when there are none.

    >>> spend_drama(2, DramaUse.REROLL)
    1
    """
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise RuleInputError(f"I-DRAMA: drama points must be a whole number 0 or more, got {points!r}")
    if points == 0:
        raise RuleInputError(f"I-DRAMA: no drama point left to spend on {use.value}")
    return points - 1


def reroll(roll: Roll, rng: random.Random) -> Roll:
    """Roll ``roll``'s pool again; the new result stands, better or worse (I-DRAMA)."""
    return roll.pool.roll(rng)
